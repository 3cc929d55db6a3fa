"""What `bnproof verify` does once its command line is read: decide the claim,
print the report or its JSON, and say so when Lemma 4.5's hypothesis is not met.
It imports no typer, so that `bnproof verify` can run without it (cli/fast.py)."""

from __future__ import annotations

from pathlib import Path

from . import json_text
from .echo import echo


def _default_certificate_path(claim: str, data: Path | None) -> Path:
    """bnproof-out/<claim>.json, or <claim>-<data stem>.json: where every command writes
    (cli/outputs.py), never the committed certificates/."""
    from .outputs import default

    name = claim if data is None else f"{claim}-{data.stem}"
    return default(f"{name}.json")


def run(claim: str, data: Path | None, as_json: bool, out: Path | None, crosscheck: bool) -> int:
    """The exit code of `bnproof verify`, after printing its report."""
    worker = None
    try:
        worker = _early_worker(claim) if crosscheck else None
        return _run(claim, data, as_json, out, crosscheck, worker)
    finally:
        # refused input, an error, Ctrl-C: no worker outlives the command
        if worker is not None:
            worker.cancel()
        if crosscheck and claim == "lemma-4.5":
            from ..numeric.forked import end_all

            end_all()  # one whose fork Ctrl-C interrupted before `worker` held it


def _early_worker(claim: str):
    """The JAX cross-check's worker, started before anything else is imported or read:
    its `import jax` is the longest step of `bnproof verify lemma-4.5`, and it runs on
    the other core while this process reads the instance and derives.  Only for the
    claim's own id (an alias or another claim goes the usual way)."""
    if claim != "lemma-4.5":
        return None
    from ..numeric.crosscheck import Worker

    return Worker(fork=True)


def _run(claim: str, data: Path | None, as_json: bool, out: Path | None, crosscheck: bool, worker) -> int:
    from .._api.verify import canonical, instance_of, run as decide

    chosen = canonical(claim)
    if not isinstance(chosen, str):
        return _verify_claim(chosen, data, out, as_json, crosscheck)
    claim = chosen
    instance = instance_of(data)  # refused before any work if the checker would refuse it
    result = decide(claim, instance, crosscheck=crosscheck, status=_status,
                    out=out or _default_certificate_path(claim, data), worker=worker)
    if as_json:
        echo(json_text.dumps(result.to_json()))
    else:
        from ..render.markup import print_lines

        print_lines(result.lines())
    import sys

    from ..claims import lemma45
    from ..render import report as render, unicode_math

    report = result.report
    # typeset as in the report, rounded when long (a 1000-sample instance has a 300-digit ⟨W0, W*⟩)
    shown = render.Shown(unicode_math.unicode_ok(sys.stderr), unicode_math.width())
    for n in report.neurons:
        if n.verdict == lemma45.HYPOTHESIS_NOT_MET:
            where = f" for neuron {n.index + 1}" if instance.n > 1 else ""
            value = render.show(n.inner, shown)
            value = value if value.startswith("≈") else f"= {value}"
            note = (f"note: hypothesis not met{where}: ⟨W0, W*⟩ {value} ≤ 0, "
                    "so Lemma 4.5 says nothing about this instance")
            echo(note if shown.unicode else unicode_math.ascii_line(note), err=True)
    return result.exit_code


def _verify_claim(claim, data: Path | None, out: Path | None, as_json: bool, crosscheck: bool) -> int:
    """Any claim but Lemma 4.5, on the user's --data."""
    from .._api.verify import claim_data
    from .._api.verify_claim import verify_claim

    raw = claim_data(claim, data)
    if out is None:
        from .outputs import default

        out = default(f"{claim.id}-{data.stem}.json")
    result = verify_claim(claim, raw, out=out, crosscheck=crosscheck)
    if as_json:
        echo(json_text.dumps(result.to_json()))
    else:
        for line in result.lines():
            echo(line)
    return result.exit_code


def _status(text: str):
    """A transient spinner on stderr for large instances, only on a terminal (it
    vanishes when done, so piped output and --json stay clean)."""
    import contextlib
    import sys

    if not sys.stderr.isatty():
        return contextlib.nullcontext()
    from rich.console import Console

    return Console(stderr=True).status(text)
