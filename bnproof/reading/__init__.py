"""The second reading: a claim read exactly without the tracer and without dual numbers.

Every verdict bnproof reports rests on a straight-line program traced from the
claim's Python code (program/trace.py, symbolic_m/), which the engine, the
checker and the SMT export all judge.  This package reads the claim again,
independently: the claim's own code runs unchanged on genuine numpy object
arrays of exact values (values.py: symengine expressions), with numpy's real
broadcasting, reductions and introspection; xp.grad differentiates
symbolically along fresh symbols (grad.py), so nested gradients are exact by
construction; signs are proved with arb balls and an exact zero test
(signs.py); expectations enumerate the batches (expect.py); xp.solve
eliminates with row exchanges (linalg.py).

Independence rule: nothing here imports bnproof.program, bnproof.claims.dual,
the trace() or symbolic() namespaces of bnproof.claims.xp, bnproof.symbolic_m,
bnproof.exact or bnproof.claims.decide (which imports the program
evaluator).  It may import bnproof.claims.api (Claim, Var), bnproof.claims.law
for the layout of a Law's Distribution (not its algebra), and
bnproof.claims.xp.numeric() for the JAX float check only (floats.py, imported
where it is used).  tests/test_reading_independence.py holds it to that.

API:
  read(claim, instance, witness=None) -> Reading
      verdict "refuted" | "holds" | "outside-hypotheses" | "undecided", the
      residual's exact value (a Value, or None), a one-line detail.
  confirm(claim, instance, decision, witness=None) -> Confirmation
      status "agrees" | "disagrees" | "inconclusive" against a claims.decide.Decision.
  program_value(steps, output, instance) -> Value (a list for a list of outputs)
      the certificate program format (fixed sizes) in the reference algebra.
  confirm_program(claim, program, instances) -> Confirmation
      the program's residual, hypotheses and equalities equal the claim's.
  generic_instances(claim, sizes, count, seed=0, avoid=(), with_exists=False) -> list[dict]
  confirm_floats(claim, instance, exact_value=None, witness=None) -> Confirmation
      JAX float64 against the exact residual, within the bound floats.py states.
  reference() -> the namespace (xp.kind == "reference").
"""

from .confirm import AGREES, DISAGREES, INCONCLUSIVE, Confirmation, confirm, confirm_program
from .errors import Inconclusive, ReadingStop, Refused, Undefined
from .floats import confirm_floats
from .instances import generic_instances
from .namespace import reference
from .program import program_value
from .read import HOLDS, OUTSIDE, REFUTED, UNDECIDED, Reading, read
from .values import Value

__all__ = ["read", "Reading", "confirm", "Confirmation", "program_value", "confirm_program",
           "generic_instances", "confirm_floats", "reference", "Value", "ReadingStop", "Refused",
           "Undefined", "Inconclusive", "REFUTED", "HOLDS", "OUTSIDE", "UNDECIDED", "AGREES",
           "DISAGREES", "INCONCLUSIVE"]
