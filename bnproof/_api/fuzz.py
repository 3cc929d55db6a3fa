"""`bnproof.fuzz`: the search of `bnproof fuzz`, for one claim, as a function."""

from __future__ import annotations

import contextlib
import numbers
from pathlib import Path

from ..errors import BadInput
from .claims import one


def fuzz(claim, *, seed: int = 0, time_budget: float = 20.0, max_examples: int = 200,
         batch: int = 2048, sizes: dict | None = None, jax: bool = True, prove: bool = True,
         out_dir: str | Path | None = None, isolate: bool = False):
    """Search one claim's instance space for a counterexample, confirmed exactly.

    `claim` is a Claim object, a claim id or alias (`bnproof list`), or a claim
    file that defines one claim (`bnproof.load` gives each claim of a file).  The
    options are those of `bnproof fuzz`, and the same seed gives the same
    search: `sizes` fixes sizes ({"m": 3}, within the ranges the claim declares:
    BadInput outside them), `jax=False` is `--no-jax` (the JAX
    search switches JAX to float64 in this process), `prove=False` is
    `--no-prove` (with prove, an identity that survives is proved at the claim's
    fixed sizes, and every claim that survives is proved for every m where it can
    be, as `bnproof.prove` does, within the same time budget: the result's first
    note then says "proved for every m", or "proved for part of the range" and
    which sizes, and `to_json()["proof"]` says so with the sizes it covers).

    The search runs in this process and keeps `time_budget` (seconds)
    cooperatively: it stops at its next check of the clock, which the claim's
    own code or an XLA compilation can delay.  `isolate=True` runs it in a
    worker process killed when the budget is spent, as the command line does
    (the claim must come from a file).  Nothing is written unless `out_dir` is
    given: a certificate is then written to OUT_DIR/<claim id>.json as soon as it
    is found; otherwise its text is kept on the result.  Returns a FuzzResult."""
    from ..search import fuzz as search
    from ..search.space import size_grid
    from .results import FuzzResult

    c = one(claim)
    search.check_id(c)
    _check_options(seed, time_budget, max_examples, batch, sizes)
    size_grid(c, sizes)  # bad sizes are bad input before any search
    options = {"seed": seed, "max_examples": max_examples, "batch": batch, "time_budget": float(time_budget),
               "sizes": dict(sizes or {}), "use_jax": bool(jax), "prove": bool(prove)}
    import time

    deadline = time.monotonic() + float(time_budget)  # the proof for every m is kept within it too
    target = None
    if out_dir is not None:  # where `bnproof fuzz` would write, with out_dir for certificates/
        target = Path(out_dir) / search.certificate_path(c).relative_to("certificates")

    def save_early(refutation) -> None:  # a failure is reported once the search ends
        with contextlib.suppress(OSError):
            _write(target, refutation.document)

    if isolate:
        from ..search.worker import Supervisor, digest

        if not c.path:
            raise BadInput(f"isolate=True runs the search in a worker process that loads the claim from its "
                           f"file, and {c.id} was not loaded from a file: pass isolate=False")
        with Supervisor(warm_jax=bool(jax)) as supervisor:
            outcome = supervisor.run(c, options, on_refutation=save_early if target else None,
                                     digest=digest(c.path))
    else:
        def report(kind, payload):
            if kind == "refutation" and target is not None:
                save_early(payload)

        outcome = search.fuzz(c, report=report, **options)
    if prove:  # a claim that survives gets a proof for every m, its line first among the notes
        from ..symbolic_m.survivor import prove_survivor

        # isolated, the worker made the attempts under the budget; here they stop at the deadline
        prove_survivor(c, outcome, Path(out_dir) if out_dir is not None else None, deadline)
    else:
        from ..symbolic_m.survivor import unasked

        unasked(outcome)
    witness_path = None
    if outcome.witnesses and out_dir is not None:  # an existential claim's witnesses, for the checker
        from ..search.exists import save_witnesses

        witness_path = save_witnesses(c, outcome, out_dir)
    path = None
    if outcome.refutation is not None and outcome.verdict == search.REFUTED and target is not None:
        try:
            path = _write(target, outcome.refutation.document)
        except OSError as err:  # refuted means a certificate on disk: without one, undecided
            outcome.verdict, outcome.reason = search.UNDECIDED, (
                "a counterexample was found and certified, but its certificate could not be "
                f"written: {target}: {err.strerror or err}")
    return FuzzResult.of(outcome, path, witness_path)


def _write(path: Path, text: str) -> Path:
    from ..atomic import write_text_atomic

    try:
        if path.read_text(encoding="ascii") == text:
            return path
    except (OSError, UnicodeDecodeError):
        pass
    return write_text_atomic(path, text)


def _check_options(seed, time_budget, max_examples, batch, sizes) -> None:
    def integer(x) -> bool:
        return isinstance(x, numbers.Integral) and not isinstance(x, bool)

    if not integer(seed) or seed < 0:
        raise BadInput(f"seed must be an integer >= 0, got {seed!r}")
    if not isinstance(time_budget, numbers.Real) or isinstance(time_budget, bool) or not time_budget >= 0.1:
        raise BadInput(f"time_budget must be a number of seconds >= 0.1, got {time_budget!r}")
    for name, value in (("max_examples", max_examples), ("batch", batch)):
        if not integer(value) or value < 1:
            raise BadInput(f"{name} must be an integer >= 1, got {value!r}")
    if sizes is not None and (not isinstance(sizes, dict) or not all(
            isinstance(k, str) and integer(v) for k, v in sizes.items())):
        raise BadInput(f"sizes must map size names to integers, e.g. {{'m': 3}}, got {sizes!r}")
