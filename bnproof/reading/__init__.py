"""The second reading: a claim read exactly without the tracer and without dual numbers.

Every verdict bnproof reports rests on a straight-line program traced from the
claim's Python code (program/trace.py, symbolic_m/), which the engine, the
checker and the SMT export all judge.  This package reads the claim again,
independently: the claim's own code runs unchanged on genuine numpy object
arrays of exact values (values.py: symengine expressions), with numpy's real
broadcasting, reductions and introspection, save what only floats answer (an
array's dtype, numpy's ufuncs with no exact meaning, float(): refused, arrays.py); xp.grad differentiates
symbolically along fresh symbols per call (grad.py), so nested gradients are
exact by construction; signs are proved with arb balls and an exact zero test
(signs.py); expectations enumerate the batches (expect.py); xp.solve
eliminates with row exchanges (linalg.py); every reading is bounded by caps
on operations, work, expression size and depth (session.py, values.py).

Independence rule: nothing here imports bnproof.program, bnproof.claims.dual,
the trace() or symbolic() namespaces of bnproof.claims.xp, bnproof.symbolic_m,
bnproof.exact, bnproof.claims.decide (which imports the program evaluator) or
bnproof.claims.moments.  It may import bnproof.claims.api (Claim, Var),
bnproof.claims.law for the layout of a Law's Distribution (not its algebra),
and bnproof.claims.xp.numeric() with bnproof.numeric.jax_setup for the JAX
float check only (floats.py, imported where it is used).  A claim's decision
passed to confirm() is read by its fields, never by importing its module.
tests/test_reading_independence.py holds the package to this.

API (verdict strings as claims/decide.py's):
  read(claim, instance, witness=None, *, track=False) -> Reading
      Reading(verdict, value, detail, sign, values, magnitude, fragile):
      verdict "refuted" | "holds" | "outside-hypotheses" | "undecided"; value
      the residual's exact Value (None when undefined, undecided, outside, or
      an array residual of an existential claim: then `values` has every
      entry); detail one line; sign −1/0/1 or None.  `instance` maps names to
      nested lists of exact numbers (Fractions, ints, "p/q" text, or
      instances.Algebraic: a closed form over Q(√…), crosscheck.py's instances on a set); an
      existential claim is read at the values `witness` gives its existential
      variables (without them: undecided).  Never raises but KeyboardInterrupt.
  confirm(claim, instance, decision, witness=None) -> Confirmation
      Confirmation(status, detail, compared, silent): status "agrees" | "disagrees" |
      "inconclusive" for a claims.decide.Decision (verdict, residual Sign with
      an exact Interval): disagrees when both decided and the verdicts or the
      residual's signs differ, or the interval excludes the reference value.
  program_value(steps, output, instance) -> Value (a list for a list of outputs)
      the certificate program format at fixed sizes, in the reference algebra,
      only the outputs' cone evaluated; malformed programs raise ValueError.
  confirm_program(claim, program, instances) -> Confirmation
      the program's residual, hypotheses and equalities equal the claim's at
      each instance (exactly), wherever both are defined; `compared` counts
      instances whose residuals were compared (inconclusive at 0).
  generic_instances(claim, sizes, count, seed=0, avoid=(), with_exists=False) -> list[dict]
  confirm_floats(claim, instance, exact_value=None, witness=None) -> Confirmation
      JAX float64 against the exact residual, within the bound floats.py states.
  confirm_numpy(claim, instance, witness=None) -> Confirmation
      numpy float64 (claims/xp.py floating()) against the exact residual, hypotheses
      and equalities, within the same bound: the check on what every exact reading
      shares and numpy does not (type(v)).  Both float checks fail closed: a value
      they cannot compare is inconclusive, never agreement, and `silent` says whether
      floats simply had no number (no evidence) or computed one the exact reading's
      operations do not explain (the gate withholds the verdict).  confirm_program
      runs it at each instance it compares, and is inconclusive when the claim's code
      asked a value something in Python (values.py) or decided abs/max/min/guard where
      the program reads no such step: agreement at points then says nothing of other
      points.
  reference() -> the namespace (xp.kind == "reference").
  Value: .is_defined, .why, .expr, .sign(), .fraction(); Refused, Undefined,
  Inconclusive (ReadingStop, BaseException subclasses a claim cannot catch
  with `except Exception`).
"""

from .confirm import AGREES, DISAGREES, INCONCLUSIVE, Confirmation, confirm, confirm_program
from .errors import Inconclusive, ReadingStop, Refused, Undefined
from .floats import confirm_floats, confirm_numpy
from .instances import generic_instances
from .namespace import reference
from .program import program_value
from .read import HOLDS, OUTSIDE, REFUTED, UNDECIDED, Reading, read
from .values import Value

__all__ = ["read", "Reading", "confirm", "Confirmation", "program_value", "confirm_program",
           "generic_instances", "confirm_floats", "confirm_numpy", "reference", "Value", "ReadingStop", "Refused",
           "Undefined", "Inconclusive", "REFUTED", "HOLDS", "OUTSIDE", "UNDECIDED", "AGREES",
           "DISAGREES", "INCONCLUSIVE"]
