"""JAX float64 as an independent bound on the exact residual.

The claim's residual runs in the numeric namespace (claims/xp.py numeric():
jax.numpy float64, jax.grad for xp.grad) at the instance rounded to float64,
and its value f is compared with the exact value v.  They disagree only when

    |f − v| > REL · κ,        REL = 2⁻²⁶ (≈ 1.5·10⁻⁸),

proved with an arb ball of v.  κ is the residual's rounding magnitude, a
first-order bound, in units of the unit roundoff u = 2⁻⁵³, on the error of
evaluating the claim's computation in float64, accumulated operation by
operation by the reference reading itself (values.py, ``Session.track``):
|x| for every constant and input (its rounding), κa + κb + |a ± b| for a sum,
κa·|b| + κb·|a| + |ab| for a product, κa/|b| + κb·|a|/b² + |a/b| for a
quotient, κa/(2√a) + √a for a root, the derivative's factor times κ for
exp, log, arccos, tanh and powers; for a value of xp.grad, the same rules
over its symbolic expression plus the function's own κ.  REL is u·2²⁷: the
bound allows about 10⁸ times the first-order error, for the terms' count and
for JAX's own order of operations and gradient algorithm.  It is a
conservative heuristic, not a proof about XLA's arithmetic: a disagreement
means a float value that no rounding of the same computation explains.

Inconclusive, never a disagreement, and never agreement either: a value the
check cannot compare.  Two kinds (``Confirmation.silent``):

  * silent, no evidence either way: JAX or numpy missing or failing on the claim's
    code (a Python branch on a traced value, a Python int beyond the float range),
    floats that overflow along the exact reading's own operations too (the float
    evaluation the reading tracks is not finite, and neither is the float result),
    no exact value, and any decision the reading took within REL·κ of a tie (a
    comparison, a guard, a max/min or |x| inside a gradient: floats may take the
    other branch there);
  * not silent: floats give a finite number where the float evaluation along the
    exact reading's operations has none or no bound (an infinite κ: a root or
    quotient of a value that rounds to 0, or an overflow), or a number that is not
    finite where that evaluation is finite.  Floats then computed something the
    exact reading's operations do not account for (a branch of their own, on a
    ``dtype`` or ``type(v)``), which this bound cannot measure: the gate withholds
    the verdict (claims/second_reading.py), and a proof is not confirmed
    (confirm.confirm_program).  The check fails closed there: a value skipped at a
    compared instance is never counted as agreement.

numpy's floating-point warnings (overflow, invalid, an empty mean) are the claim's
code meeting floats: they are values here, never text on stderr.

numpy's float64 reading (``numpy_values``, ``compare_numpy``) is the same
bound applied to numpy itself, the semantics a claim is written in: the claim's
residual, hypotheses and equalities in claims/xp.py's floating() namespace, on
the instance as the float screen gives it (arrays of float64, scalars as
Python floats).  It needs no JAX and no compilation, so it runs wherever the
exact reading does.  It is the one check on what the exact readings share and
numpy does not: a claim that branches on ``type(v)``, on an array's ``dtype``,
on ``isinstance(v, float)``, takes the same branch in every exact reading
(their numbers are no floats) and another one under numpy.  Agreement at an
instance says nothing of other instances: such a claim that differs from its
exact readings only on a set of measure zero is beyond any check at points.
"""

from __future__ import annotations

import contextlib
import math
import warnings
from fractions import Fraction

import numpy as np
from flint import arb, ctx, fmpq

from . import signs
from .confirmation import AGREES, DISAGREES, INCONCLUSIVE, Confirmation
from .instances import array_of
from .read import Reading, read
from .values import UNDERFLOW, Value, text

REL = 2.0**-26
_COMPILED: dict = {}  # (residual, argument names) -> jitted residual, or None: runs op by op
# Room for every claim of a paper's run (134 claims in this repository): a claim's
# program is traced and compiled once per process, not again after 64 others
_KEPT = 512
# XLA's CPU fusion emitters take about 0.07 s to compile a claim's small program, the
# older emitters about 0.04 s.  The float check compiles one program per claim: the 136
# claims and examples of tests/test_reading_confirm.py take 9.8 s of CPU, not 15.6 s.  The
# two emitters may sum a reduction in another order (3 of 306 residuals there differ in
# their last bits), which REL·κ allows for: it bounds JAX's own order of operations, not
# one emitter's.  An XLA without this option compiles with its defaults (_call), never
# leaving the check silent.
_CPU_OPTIONS = {"xla_cpu_use_fusion_emitters": False}


@contextlib.contextmanager
def _quiet():
    """numpy's floating-point errors and RuntimeWarnings are values here, not stderr."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        yield


def _float_inputs(claim, instance: dict, witness: dict | None, jnp) -> dict:
    merged = dict(instance)
    merged.update(witness or {})
    names = [v.name for v in claim.variables] + [v.name for v in getattr(claim, "exists", ())]
    out = {}
    for name in names:
        if name in merged:
            a = array_of(merged[name])
            out[name] = jnp.asarray(np.vectorize(float, otypes=[np.float64])(a) if a.shape else float(a[()]),
                                    dtype=jnp.float64)
    return out


def _jax_value(claim, instance, witness) -> float:
    """The residual in JAX float64: compiled as one XLA program (cached on disk across runs,
    as the search's are), else run op by op where the claim branches on a value in
    Python, which a compiled program cannot."""
    import jax

    from ..claims.xp import numeric
    from ..numeric.jax_setup import enable_compilation_cache

    xp = numeric()
    enable_compilation_cache(jax)
    import jax.numpy as jnp

    with _quiet():
        inputs = _float_inputs(claim, instance, witness, jnp)
        names = tuple(inputs)
        # one compiled program per residual and argument names: a claim's refutation, its
        # shrunk forms and its second looks share it (jit retraces only for new shapes)
        key = (claim.residual, names)
        compiled = _COMPILED.get(key)
        if key not in _COMPILED:
            if len(_COMPILED) >= _KEPT:
                _COMPILED.clear()
            compiled = _COMPILED[key] = _jit(jax, lambda *a: claim.residual(xp, **dict(zip(names, a))))
        out = None
        if compiled is not None:
            args = [inputs[n] for n in names]
            try:
                out = _call(jax, compiled, key, args)
            except jax.errors.JAXTypeError:  # a Python branch on a traced value: run it op by op
                _COMPILED[key] = None
        if out is None:
            out = claim.residual(xp, **inputs)
        arr = np.asarray(out, dtype=np.float64)
    if arr.size != 1:
        raise ValueError(f"the float residual has shape {arr.shape}")
    return float(arr.reshape(()))


def _jit(jax, fn):
    if _CPU_OPTIONS and jax.default_backend() == "cpu":
        return jax.jit(fn, compiler_options=_CPU_OPTIONS)
    return jax.jit(fn)


def _call(jax, compiled, key, args):
    """The compiled residual at args; where this XLA no longer knows an option of
    _CPU_OPTIONS, compiled again without options, for this process (the claim's value,
    never an inconclusive check)."""
    try:
        return compiled(*args)
    except jax.errors.JaxRuntimeError as err:
        if not _CPU_OPTIONS or "No such compile option" not in str(err):
            raise
    _CPU_OPTIONS.clear()
    compiled = _COMPILED[key] = _jit(jax, compiled.__wrapped__)
    return compiled(*args)


def numpy_values(claim, instance: dict, witness: dict | None = None) -> dict:
    """{"residual": [...], "hypothesis": [...], "equality": [...]}: every entry of the
    claim's functions in numpy float64 at the instance (run in the order the exact
    readings run them, on one set of inputs); raises what the claim's code raises."""
    from ..claims.xp import floating

    xp = floating()
    merged = dict(instance)
    merged.update(witness or {})
    names = [v.name for v in claim.variables] + [v.name for v in getattr(claim, "exists", ())]
    out = {}
    with _quiet():  # inf and nan are values here, as in the float screen
        inputs = {}
        for name in names:
            if name in merged:
                a = array_of(merged[name])
                inputs[name] = np.vectorize(float, otypes=[np.float64])(a) if a.shape else float(a[()])
        for what, fns in (("residual", [claim.residual]), ("hypothesis", list(claim.hypotheses)),
                          ("equality", list(getattr(claim, "equalities", ())))):
            out[what] = [np.asarray(fn(xp, **inputs), dtype=np.float64).reshape(-1) for fn in fns]
    return out


def compare_numpy(claim, instance: dict, witness: dict | None, outcomes: dict) -> Confirmation:
    """numpy's float64 reading against the exact one: `outcomes` maps "residual",
    "hypothesis", "equality" to the tracked reading's Outcomes (read.py, one per function,
    made with Session(track=True)).  Disagrees where a float value is further from its
    exact value than REL·κ, or where numpy gives another number of values.  Agrees only
    when every value with an exact value was compared; otherwise inconclusive, silent or
    not as the module docstring says (a function whose reading took a decision near a
    tie, a value whose float evaluation overflows in numpy too, a claim numpy cannot run:
    silent; numpy's finite number where the float evaluation along the exact reading's
    operations has none or no bound, or the reverse: not silent)."""
    try:
        floats = numpy_values(claim, instance, witness)
    except KeyboardInterrupt:
        raise
    except BaseException as err:  # the claim's code under numpy floats: no number to compare
        return Confirmation(INCONCLUSIVE, f"numpy float64 did not evaluate the claim ({type(err).__name__}); "
                                          "nothing compared", silent=True)
    compared, silent = 0, None
    for what, exact in outcomes.items():
        for k, (outcome, got) in enumerate(zip(exact, floats[what])):
            if outcome.entries is None:  # no exact value: no verdict rests on it
                continue
            if len(got) != len(outcome.entries):
                return Confirmation(DISAGREES, f"numpy float64 gives {len(got)} values of the {what} "
                                               f"{k + 1}, the exact reading {len(outcome.entries)}")
            if UNDERFLOW in outcome.fragile:  # not silent: see values._underflow
                return Confirmation(INCONCLUSIVE, f"numpy float64 cannot follow the {what}: {UNDERFLOW}")
            if outcome.fragile:
                silent = silent or f"floats may take another branch in the {what}: {outcome.fragile[0]}"
                continue
            for f, v in zip(got.tolist(), outcome.entries):
                if v.bad is not None:
                    continue
                kappa = max(outcome.scale, v.k)
                if not (math.isfinite(kappa) and math.isfinite(v.f)):
                    if math.isfinite(f):
                        return Confirmation(INCONCLUSIVE, f"numpy float64 gives {f!r} for a value of the {what} "
                                                          f"that is {text(v.e, 60)} exactly, where float64 along "
                                                          "the exact reading's operations has no number or no "
                                                          "error bound (an overflow, or a quotient or root of a "
                                                          "value that rounds to 0): not compared")
                    silent = silent or f"float64 overflows for a value of the {what}, numpy's and along the " \
                                       "exact reading's operations alike"
                    continue
                if not math.isfinite(f):
                    return Confirmation(INCONCLUSIVE, f"numpy float64 gives {f} for a value of the {what} "
                                                      f"that is {text(v.e, 60)} exactly")
                bound = REL * kappa
                gap = abs(_ball(v) - arb(fmpq(*Fraction(f).as_integer_ratio())))
                if gap > arb(fmpq(*Fraction(bound).as_integer_ratio())):
                    return Confirmation(DISAGREES, f"numpy float64 gives {f!r} for a value of the {what}, "
                                                   f"exactly {text(v.e, 60)}: further apart than {bound:.3g}")
                compared += 1
    if silent is not None:
        return Confirmation(INCONCLUSIVE, f"{silent}; numpy float64 agrees on {compared} other values", compared,
                            silent=True)
    return Confirmation(AGREES, f"numpy float64 agrees on {compared} values", compared)


def confirm_numpy(claim, instance: dict, witness: dict | None = None) -> Confirmation:
    """numpy's float64 reading of the claim at `instance` against its exact reading (see
    compare_numpy).  Never raises, short of KeyboardInterrupt."""
    from .read import evaluate
    from .session import Session

    try:
        parts = evaluate(claim, instance, witness, session=Session(track=True))
        if isinstance(parts, Reading):
            return Confirmation(INCONCLUSIVE, f"no exact value to compare ({parts.detail})", silent=True)
        residual, hypotheses, equalities = parts
        return compare_numpy(claim, instance, witness,
                             {"residual": [residual], "hypothesis": hypotheses, "equality": equalities})
    except KeyboardInterrupt:
        raise
    except BaseException as err:
        return Confirmation(INCONCLUSIVE, f"the numpy float check did not run: {type(err).__name__}: {err}",
                            silent=True)


def _ball(v) -> arb:
    if isinstance(v, Value):
        return signs.ball(v.e, 256)
    q = Fraction(v)
    old = ctx.prec
    ctx.prec = 256
    try:
        return arb(fmpq(q.numerator, q.denominator))
    finally:
        ctx.prec = old


def confirm_floats(claim, instance: dict, exact_value=None, witness: dict | None = None) -> Confirmation:
    """Compare JAX float64's residual at `instance` with the exact one (`exact_value`: a
    Reading, a Value or an exact number; by default the reference reading's own), within
    the bound of this module's docstring.  Never raises, short of KeyboardInterrupt."""
    try:
        tracked = read(claim, instance, witness, track=True)
        if tracked.value is None or tracked.magnitude is None:
            return Confirmation(INCONCLUSIVE, f"no exact scalar residual to compare ({tracked.detail})",
                                silent=True)
        if UNDERFLOW in tracked.fragile:
            return Confirmation(INCONCLUSIVE, f"JAX float64 cannot follow the residual: {UNDERFLOW}")
        if tracked.fragile:
            return Confirmation(INCONCLUSIVE, f"floats may take another branch here: {tracked.fragile[0]}",
                                silent=True)
        kappa = tracked.magnitude
        exact = exact_value.value if isinstance(exact_value, Reading) else exact_value
        exact = tracked.value if exact is None else exact
        try:
            f = _jax_value(claim, instance, witness)
        except KeyboardInterrupt:
            raise
        except BaseException as err:  # JAX missing, or the claim's code under JAX
            return Confirmation(INCONCLUSIVE, f"JAX float64 did not evaluate the residual: "
                                              f"{type(err).__name__}: {str(err)[:200]}", silent=True)
        if not (math.isfinite(kappa) and math.isfinite(tracked.value.f)):
            if math.isfinite(f):
                return Confirmation(INCONCLUSIVE, f"JAX float64 gives {f!r} where float64 along the exact "
                                                  "reading's operations has no number or no error bound (a "
                                                  "root or quotient of a value that rounds to 0, or an "
                                                  "overflow): not compared")
            return Confirmation(INCONCLUSIVE, f"JAX float64 gives {f}, and float64 overflows along the exact "
                                              "reading's operations too", silent=True)
        if not math.isfinite(f):
            return Confirmation(INCONCLUSIVE, f"JAX float64 gives {f}")
        bound = REL * kappa
        gap = abs(_ball(exact) - arb(fmpq(*Fraction(f).as_integer_ratio())))
        shown = text(exact.e, 60) if isinstance(exact, Value) else str(exact)
        if gap > arb(fmpq(*Fraction(bound).as_integer_ratio())):
            return Confirmation(DISAGREES, f"JAX float64 gives {f!r}, the exact residual is {shown}: "
                                           f"further apart than {bound:.3g} (2^-26 × the rounding magnitude "
                                           f"{kappa:.3g})")
        return Confirmation(AGREES, f"JAX float64 gives {f!r}, within {bound:.3g} of {shown}")
    except KeyboardInterrupt:
        raise
    except BaseException as err:
        return Confirmation(INCONCLUSIVE, f"the float check did not run: {type(err).__name__}: {err}",
                            silent=True)
