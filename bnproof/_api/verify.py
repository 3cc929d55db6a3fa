"""`bnproof.verify`: Lemma 4.5 decided exactly on an instance, cross-checked and
certified; `bnproof verify` is this plus a report."""

from __future__ import annotations

import contextlib
import math
import os
from fractions import Fraction
from pathlib import Path

from ..errors import BadInput

KNOWN_CLAIMS = {"lemma-4.5": "Santurkar et al. (2018), Lemma 4.5: BN leads to a favourable initialization"}


def verify(claim="lemma-4.5", data=None, *, crosscheck: bool = True, out: str | Path | None = None):
    """Decide a claim exactly on an instance and certify a refutation.

    Any other claim than Lemma 4.5 needs `data`: a dict with one key per
    declared variable (numbers as ints, Fractions, "p/q" strings or floats, a
    float read as the decimal it prints as), or the path of such a JSON file;
    it returns a ClaimVerifyResult (verdict, exact residual, certificate).

    For Lemma 4.5, it cross-checks every derivative
    with JAX autodiff (crosscheck=False skips it) and certifies the verdict.  For any
    other claim the verdict is reported only when the second reading of the claim
    (claims/second_reading.py) agrees; crosscheck=False skips its JAX float64 part.

    `claim` is "lemma-4.5" under any name `bnproof list` shows for it (or its
    Claim object).  `data` is None (Example 3.2 of Dannemann & Junike), a dict
    in the format of `verify --data` (numbers as ints, Fractions, "p/q" strings
    or floats, a float read as the decimal it prints as: 0.1 is 1/10), or the
    path of such a JSON file.  The certificate is built and accepted by the
    independent checker; it is written to `out` only if given, else its text is
    kept on the result.  Returns a VerifyResult."""
    chosen = canonical(claim)
    if not isinstance(chosen, str):
        from .verify_claim import verify_claim

        return verify_claim(chosen, claim_data(chosen, data), out=out, crosscheck=crosscheck)
    return run(chosen, instance_of(data), crosscheck=crosscheck, out=out)


def claim_data(claim, data):
    """The JSON object `data` gives for a claim other than Lemma 4.5 (a dict, or the
    path of a JSON file, read exactly); that claim has no built-in instance."""
    if data is None:
        names = ", ".join(v.name for v in claim.variables)
        raise BadInput(f"{claim.id} has no built-in instance: give --data FILE, a JSON object with "
                       f"its variables {names} (`bnproof fuzz {claim.id}` searches for a counterexample)")
    if isinstance(data, dict):
        return _exact_floats(data, "data")
    if isinstance(data, (str, os.PathLike)):
        from ..instance import read_json
        from .files import refuse_special

        refuse_special(data)  # a FIFO would block the read for ever
        return read_json(data)
    raise BadInput(f"data is a dict or the path of a JSON file, not {type(data).__name__}")


def canonical(claim):
    """"lemma-4.5" under any name `bnproof list` shows for it (its id or an alias),
    else the Claim the name, file or object gives (verify decides it on user data)."""
    if isinstance(claim, str) and claim in KNOWN_CLAIMS:
        return claim  # before the import: the claims' registry is not needed for Lemma 4.5
    from ..claims.api import Claim, named

    if isinstance(claim, Claim):
        c = claim
    elif isinstance(claim, (str, os.PathLike)) and str(claim).endswith(".py"):
        from .claims import one

        c = one(claim)
    elif isinstance(claim, str):
        c = named(claim)
        if c is None:
            from ..claims.api import all_claims
            from ..claims.suggest import names_of, unknown_claim

            raise BadInput(unknown_claim(claim, names_of(all_claims())))
    else:
        raise BadInput(f"a claim is a Claim object, a claim id or alias, or a claim file, "
                       f"not {type(claim).__name__}")
    short = next((a for a in (c.id, *c.aliases) if a in KNOWN_CLAIMS), None)
    return c if short is None else short


def instance_of(data, certifiable: bool = True):
    """The instance `data` names (see verify); with `certifiable`, refused at
    once if the checker would refuse its certificate for its size."""
    from ..instance import Instance, check_certifiable, example_3_2, instance_from_json, load_instance

    if data is None:
        instance = example_3_2()
    elif isinstance(data, Instance):
        instance = data
    elif isinstance(data, dict):
        instance = instance_from_json(_exact_floats(data, "data"))
    elif isinstance(data, (str, os.PathLike)):
        from .files import refuse_special

        refuse_special(data)  # a FIFO would block the read for ever
        instance = load_instance(data)
    else:
        raise BadInput(f"data is None, a dict or the path of a JSON file, not {type(data).__name__}")
    if certifiable:
        check_certifiable(instance)  # before any work: the checker's own size limits
    return instance


def _exact_floats(value, where: str):
    """Python floats as the decimals they print as (JSON decimals are read so too)."""
    if isinstance(value, float):
        if not math.isfinite(value):
            raise BadInput(f"{where}: {value!r} is not a finite number")
        return Fraction(repr(value))
    if isinstance(value, dict):
        return {k: _exact_floats(v, f"{where}[{k!r}]") for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_exact_floats(v, f"{where}[{i}]") for i, v in enumerate(value)]
    return value


def run(claim: str, instance, *, crosscheck: bool = True, out: str | Path | None = None,
        status=lambda text: contextlib.nullcontext(), worker=None):
    """The VerifyResult; `status(text)` is a context manager around each long
    step (the command line shows a spinner).  `worker`: a crosscheck.Worker already
    started (the command line starts it before it reads the instance), used and
    ended here; by default one is started now."""
    if crosscheck:
        from ..numeric import crosscheck as cc

        # JAX starts in its own process now and works on the second core while
        # the exact engine derives and the report is written; its import is most
        # of a cold verify's wall time, so nothing may come before it but parsing.
        if worker is None:
            worker = cc.Worker()
    elif worker is not None:
        worker.cancel()
        worker = None
    try:
        from ..claims import lemma45

        with status(f"deriving the optima exactly (m = {instance.m}, d = {instance.d})"):
            report = lemma45.analyse(instance)
        numeric = None
        if worker is not None:
            try:
                worker.submit([n.neuron for n in report.neurons], cc.points_for(report))
            except OverflowError:  # an input no float holds: nothing for floats to compare
                worker.cancel()
                worker, numeric = None, cc.beyond_floats("an input beyond ±1.8e308")
        from ..render import report as render

        with status(f"writing the closed forms in the {instance.d} weights"):
            forms = render.forms_for(report)
        if worker is not None:
            with status("waiting for the JAX autodiff cross-check"):
                numeric = cc.ensure(worker.result())
            worker = None
    finally:
        if worker is not None:
            worker.cancel()

    from ..certificate import lemma45 as certificate
    from ..certificate.io import pretty
    from .results import VerifyResult

    with status("writing the certificate and checking it independently"):
        text = pretty(certificate.unchecked(report)) + "\n"
        path, line = certify(text, out)
    return VerifyResult.of(report, forms, numeric, text, path, line)


def certify(text: str, out: str | Path | None) -> tuple[Path | None, str]:
    """(where the certificate was written, the checker's line): the independent checker
    reads the exact bytes, then those bytes are written to `out`, or kept in memory
    without one.  A rejected certificate is not written (CheckerRefused, exit 6).

    The checker runs once, and not again on the file: write_bytes_atomic writes
    `data`, the very bytes object the checker parsed, into a temporary file that
    mkstemp has just created (O_EXCL, mode 0600: not a file anyone left there) and
    renames it over `out` only once every byte is written, so the file holds those
    bytes and no others.  Reading them back would check the same bytes a second
    time: it could only catch another process of the same user writing into the
    file, which a re-read cannot exclude either (that can happen the moment after
    it).  A device or FIFO (`-o /dev/null`) receives the same bytes."""
    from ..atomic import write_bytes_atomic
    from ..certificate.io import CheckerRefused
    from ..checker import check_bytes

    data = text.encode("ascii")  # every certificate is ASCII (pretty escapes the rest)
    path = None if out is None else Path(out)
    accepted, line = check_bytes(data, "(in memory)" if path is None else path)
    if not accepted:
        raise CheckerRefused(f"the checker rejects the certificate built, so it is not written: {line}")
    if path is not None:
        path = write_bytes_atomic(path, data)
    return path, line
