"""`bnproof report`: a referee's report for a whole paper."""

from __future__ import annotations

import json
from pathlib import Path
from typing import List, Optional

import typer

from ..errors import BadInput, ExitCode
from .application import EPILOG, app
from .outputs import OUT_DIR

FORMATS = ("markdown", "latex")


@app.command(epilog=EPILOG)
def report(
    paper: List[str] = typer.Argument(..., help="The paper: an id prefix such as santurkar2018, a folder of "
                                               "claim files, or claim files (several allowed)."),
    output: Optional[Path] = typer.Option(
        None, "-o", "--out", metavar="FILE",
        help="Write the report to FILE (its format from .md or .tex unless --format says); default: stdout."),
    fmt: Optional[str] = typer.Option(None, "--format", metavar="FORMAT",
                                      help="markdown (default) or latex."),
    columns: int = typer.Option(1, "--columns", min=1, max=2,
                                help="LaTeX: 1 for a one-column article, 2 for a two-column one."),
    fragment: bool = typer.Option(False, "--fragment",
                                  help="LaTeX: the body only, to \\input into a paper's appendix."),
    as_json: bool = typer.Option(
        False, "--json", help='Print one JSON object: {"report", "bnproof", "seed", "time_budget", "jax", '
                              '"summary", "claims", "pending", "interrupted"}; each of "claims" is what '
                              '`bnproof fuzz --json` prints for it, with "summary" its row of the summary.'),
    seed: int = typer.Option(0, "--seed", min=0, help="Random seed: the same seed gives the same report."),
    time_budget: float = typer.Option(20.0, "--time-budget", min=0.1,
                                      help="Seconds per claim, at most, as for `bnproof fuzz`."),
    no_jax: bool = typer.Option(False, "--no-jax", help="Hypothesis only; skip the JAX search."),
    timings: bool = typer.Option(True, "--timings/--no-timings",
                                 help="Report wall time (--no-timings makes output byte-identical per seed)."),
    out_dir: Path = typer.Option(Path(OUT_DIR), "--out-dir", metavar="DIR",
                                 help="Where the certificates are written, as DIR/<claim id>.json and "
                                      "DIR/<claim id>.proof.json."),
) -> None:
    """Check every claim of a paper and write the report a careful referee would send.

    Each claim, in the paper's order, is searched and proved as `bnproof fuzz`
    does it, under its own time budget.  The report opens with a summary table,
    then gives each claim its statement as printed, the reading that was
    checked, and its verdict: refuted with the counterexample and its check,
    proved for every m with the derivation, verified at fixed sizes, survived N
    instances, or undecided with the reason; it ends with the certificates and
    how to check them again.  Markdown, LaTeX (--format latex; --columns 2 for a
    two-column appendix) or --json.  The exit code is fuzz's over all the claims
    (1 when one is refuted).  Ctrl-C stops and writes the report of the claims
    finished (exit code 130)."""
    from ..render import fuzz as render_fuzz
    from .._api.report import report as run

    kind = _format(fmt, output)
    line = render_fuzz.ProgressLine(not as_json)
    position = {"text": ""}

    def on_claim(index, count, claim):
        position["text"] = f"claim {index + 1} of {count}: {claim.id}"
        if not line.enabled:  # no live line (not a terminal): one line per claim on stderr
            typer.echo(f"[{index + 1}/{count}] {claim.id}", err=True)

    def on_progress(claim, coverage, left):
        line.show(position["text"], coverage, left, time_budget)

    with line:
        paper_report = run(paper, seed=seed, time_budget=time_budget, jax=not no_jax, out_dir=out_dir,
                           on_claim=on_claim, on_progress=on_progress)
    if as_json:
        text = json.dumps(paper_report.to_json(timings), indent=2, ensure_ascii=False) + "\n"
    elif kind == "latex":
        text = paper_report.latex(columns, fragment)
    else:
        text = paper_report.markdown(timings)
    if output is None:
        typer.echo(text, nl=False)
    else:
        from ..atomic import write_bytes_atomic

        try:  # Markdown keeps its Unicode mathematics; LaTeX is ASCII already
            write_bytes_atomic(output, text.encode("utf-8"))
        except OSError as err:
            raise BadInput(f"cannot write {output}: {err.strerror or err}") from None
        typer.echo(f"wrote {output}: {len(paper_report.results)} claims", err=True)
    if paper_report.interrupted:
        raise typer.Exit(ExitCode.INTERRUPTED)
    raise typer.Exit(render_fuzz.exit_code([r.verdict for r in paper_report.results]))


def _format(fmt: str | None, output: Path | None) -> str:
    if fmt is not None:
        if fmt not in FORMATS:
            raise BadInput(f"--format must be markdown or latex, not {fmt!r}")
        return fmt
    if output is not None and output.suffix == ".tex":
        return "latex"
    return "markdown"
