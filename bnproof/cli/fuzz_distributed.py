"""`bnproof fuzz --distributed`: the claims shared among processes, one report.

Process p of N searches a contiguous block of the claims (the claims in the
order a single process takes them), through the single-host path itself, with
its report captured and its certificates written to a scratch folder.  The
blocks travel to every process as JSON text (numeric/distributed.py); process 0
alone writes the certificates into --out-dir and prints the reports, block
after block, so the output is the single process's, whatever N.  Every process
exits with the run's code: the most serious verdict, or the first error.
A claim's search depends on its seed only, not on the process that runs it.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
import tempfile
from pathlib import Path

import typer

from ..errors import BnproofError, ExitCode


class ProcessError(BnproofError):
    """An error one process met, reported by every process with its exit code."""

    def __init__(self, message: str, code: int):
        super().__init__(message)
        self.exit_code = ExitCode(code)


def block(cluster, items: list) -> list:
    """This process's contiguous share: sizes differ by one at most, earlier blocks larger."""
    size, extra = divmod(len(items), cluster.count)
    start = cluster.index * size + min(cluster.index, extra)
    return items[start:start + size + (cluster.index < extra)]


def fuzz_shared(cluster, claims: list, run_block, directory: Path, as_json: bool) -> None:
    """`run_block(ids, scratch)` runs the single-host fuzz on the claims with these
    ids, writing into `scratch`; it ends in typer.Exit or a BnproofError."""
    from ..atomic import write_text_atomic

    mine = [c.id for c in block(cluster, claims)]
    part = {"output": "", "code": 0, "error": None, "files": {}}
    with tempfile.TemporaryDirectory(prefix="bnproof-fuzz-") as scratch:
        captured = _Capture(getattr(sys.stdout, "encoding", None))
        with contextlib.redirect_stdout(captured):
            try:
                if mine:
                    run_block(mine, Path(scratch))
            except typer.Exit as done:
                part["code"] = int(done.exit_code)
            except BnproofError as err:
                part["error"] = [str(err), int(err.exit_code)]
        # the reports name the folder process 0 writes to, not this scratch one
        part["output"] = captured.getvalue().replace(scratch, str(directory))
        for path in sorted(Path(scratch).rglob("*")):
            if path.is_file():
                part["files"][path.relative_to(scratch).as_posix()] = path.read_text(encoding="utf-8")
    parts = cluster.gather(part)
    if cluster.leader:
        for p in parts:
            for name, text in p["files"].items():
                write_text_atomic(Path(directory) / name, text)
        if as_json:
            typer.echo(json.dumps([r for p in parts if p["output"].strip() for r in json.loads(p["output"])],
                                  indent=2, ensure_ascii=False))
        else:
            typer.echo("".join(p["output"] for p in parts), nl=False)
    for p in parts:
        if p["error"]:
            raise ProcessError(*p["error"])
    raise typer.Exit(_most_serious([p["code"] for p in parts]))


class _Capture(io.StringIO):
    """The report as text, typeset for the encoding of this process's stdout
    (render/unicode_math.unicode_ok asks the stream): 1 − √2 where it can show it."""

    def __init__(self, encoding):
        super().__init__()
        self._encoding = encoding

    @property
    def encoding(self):
        return self._encoding


def _most_serious(codes: list[int]) -> int:
    from ..render import fuzz as render_fuzz

    verdict_of = {int(code): verdict for verdict, code in render_fuzz.EXIT_CODES.items() if code}
    verdicts = [verdict_of[c] for c in codes if c in verdict_of]
    other = [c for c in codes if c and c not in verdict_of]
    return other[0] if other else int(render_fuzz.exit_code(verdicts))
