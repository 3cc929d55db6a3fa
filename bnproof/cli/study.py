"""`bnproof study`: how often a claim fails on random instances, with exact confirmation."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

from ..errors import BadInput, ExitCode
from . import distributed_options as options
from .application import EPILOG, app
from .outputs import OUT_DIR

MAX_SIZE, MAX_TRIALS = 4096, 10**9


def parse_sizes(text: str, option: str, low: int) -> list[int]:
    parts = [p.strip() for p in text.split(",")]
    if not parts or not all(p.isdigit() for p in parts) or len(parts) > 64:
        raise BadInput(f"{option} expects a comma-separated list of integers like 3,8,32; got {text[:40]!r}")
    sizes = list(dict.fromkeys(int(p) for p in parts))
    if not all(low <= s <= MAX_SIZE for s in sizes):
        raise BadInput(f"{option}: each size must lie in {low}…{MAX_SIZE}")
    return sizes


@app.command(epilog=EPILOG)
def study(
    claim: str = typer.Argument(..., help="The claim to study: lemma-4.5."),
    m: str = typer.Option("3,8,32", "--m", help="Batch sizes m, comma-separated."),
    d: str = typer.Option("1,2,8", "--d", help="Input widths d, comma-separated."),
    trials: int = typer.Option(10000, "--trials", min=1, max=MAX_TRIALS, help="Instances per (m, d)."),
    seed: int = typer.Option(0, "--seed", help="Random seed: the same seed gives the same output."),
    confirm: int = typer.Option(10, "--confirm", min=0, max=10000,
                                help="Failures per (m, d) to confirm with the exact engine."),
    dtype: str = typer.Option("float64", "--dtype", help="float64 or float32 for the batched closed form."),
    as_json: bool = typer.Option(
        False, "--json", help="Print one JSON object (one study): "
        '{"claim", "trials", "seed", ..., "cells", "failures"}, "cells" a list with one object per cell, '
        '"failures" one object per failure confirmed exactly: {"m", "d", "residual", "file"}, "file" its '
        "verify --data JSON."),
    out: Optional[Path] = typer.Option(None, "-o", "--out", help="Write the rate plot: FILE.png or FILE.pdf."),
    out_dir: Path = typer.Option(
        Path(OUT_DIR), "--out-dir", metavar="DIR",
        help="Where each failure confirmed exactly is written, as data for `bnproof verify lemma-4.5 --data`: "
             "DIR/study-m<m>-d<d>-seed<seed>-<k>.json."),
    distributed: bool = options.DISTRIBUTED,
    coordinator: Optional[str] = options.COORDINATOR,
    num_processes: Optional[int] = options.NUM_PROCESSES,
    process_id: Optional[int] = options.PROCESS_ID,
) -> None:
    """Fraction of random one-neuron instances on which Lemma 4.5 fails.

    X, y and W0 are i.i.d. standard Gaussian (γ = 1, β = 0).  The batched closed
    form (one jitted call, sharded over all JAX devices) gives the rate among the
    instances with ⟨W0, W*⟩ > 0 and a 95% Wilson interval: sampled evidence.  A
    sample of the failures is rationalized and decided by the exact engine; exit
    code 1 when at least one failure is confirmed exactly (the Lemma is refuted);
    the first few are shown, and each is written as data that `bnproof verify
    lemma-4.5 --data` decides again.
    With --distributed, the processes share the chunks of trials and the exact
    confirmations, and process 0 reports the single process's result."""
    from ..claims.api import only_lemma

    only_lemma(claim, "`bnproof study` knows lemma-4.5")
    if dtype not in ("float64", "float32"):
        raise BadInput(f"--dtype must be float64 or float32; got {dtype!r}")
    if out is not None and out.suffix.lower() not in (".png", ".pdf"):
        raise BadInput(f"cannot tell the format of {out}: name it FILE.png or FILE.pdf")
    ms, ds = parse_sizes(m, "--m", 2), parse_sizes(d, "--d", 1)
    cluster = options.cluster(distributed, coordinator, num_processes, process_id)
    import jax

    from ..numeric.jax_setup import enable_compilation_cache

    enable_compilation_cache(jax)  # as fuzz's worker: compile a shape once per machine

    from ..numeric import study as numeric_study

    with _progress(not as_json and cluster.leader, numeric_study.share(ms, ds, trials, cluster)) as tick:
        cells = numeric_study.run_study(ms, ds, trials, seed, confirm, dtype, tick, cluster)
    confirmed = sum(c.exact.get("confirmed", 0) for c in cells)
    result = {
        "claim": "santurkar2018/lemma-4.5",
        "evidence": "rates are sampled estimates (evidence, not proof); only exactly confirmed "
                    "failures refute the Lemma",
        "data": "X (m×d), y, W0 i.i.d. N(0, 1); gamma = 1, beta = 0; sums of squares",
        "device": str(jax.devices()[0]), "devices": jax.device_count(),
        "trials": trials, "seed": seed, "dtype": dtype,
        "cells": [c.to_json() for c in cells],
        "exact_confirmed": confirmed,
    }
    if cluster.distributed:
        result["processes"] = cluster.count
    if not cluster.leader:  # every process holds the result; process 0 alone reports it
        raise typer.Exit(ExitCode.REFUTED if confirmed else ExitCode.OK)
    result["failures"] = write_failures(cells, seed, out_dir)
    if out is not None:
        from ..numeric import study_plot

        study_plot.write(out, cells, seed=seed)
    if as_json:
        typer.echo(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        _print_table(result)
        _print_failures(result["failures"])
        if out is not None:
            typer.echo(f"wrote {out}", err=True)
    raise typer.Exit(ExitCode.REFUTED if confirmed else ExitCode.OK)


SHOWN = 3  # failures shown in the report; every one is written


def write_failures(cells, seed: int, out_dir: Path) -> list[dict]:
    """Each failure confirmed exactly, written as verify --data JSON: {"m", "d",
    "residual", "file"} for each, in the study's order."""
    import json as json_module

    from ..atomic import write_text_atomic

    written = []
    for cell in cells:
        for k, found in enumerate(cell.confirmed, 1):
            path = out_dir / f"study-m{cell.m}-d{cell.d}-seed{seed}-{k}.json"
            data = {**found["instance"], "name": f"bnproof study failure m = {cell.m}, d = {cell.d}, "
                                                 f"seed {seed}, #{k}"}
            try:
                write_text_atomic(path, json_module.dumps(data, indent=1) + "\n")
            except OSError as exc:
                raise BadInput(f"cannot write {path}: {exc.strerror or type(exc).__name__}") from None
            written.append({"m": cell.m, "d": cell.d, "residual": found["residual"], "file": str(path)})
    return written


def _print_failures(failures: list[dict]) -> None:
    """The first few failures confirmed exactly, each with its exact residual and the
    file that `bnproof verify lemma-4.5 --data` decides again."""
    if not failures:
        return
    from fractions import Fraction

    from ..render import unicode_math
    from ..render.exact_text import approx_text

    shown = failures[:SHOWN]
    which = (f"The first {len(shown)} of the {len(failures)} failures" if len(failures) > len(shown)
             else "The failure" + ("s" if len(failures) > 1 else ""))
    lines = [f"{which} confirmed exactly (RHS − LHS < 0), each written as data for "
             "`bnproof verify lemma-4.5 --data FILE`:"]
    unicode = unicode_math.unicode_ok()
    for f in shown:
        residual = f["residual"]  # our own exact text, "p/q"
        value = (unicode_math.math(residual) if unicode else residual) if len(residual) <= 40 \
            else "≈ " + approx_text(Fraction(residual))
        lines.append(f"  m = {f['m']}, d = {f['d']}: RHS − LHS = {value}   {f['file']}")
    if len(failures) > len(shown):
        lines.append(f"  … and {len(failures) - len(shown)} more in {Path(failures[0]['file']).parent}")
    for line in lines:
        typer.echo(line if unicode else unicode_math.ascii_line(line))


class _progress:
    def __init__(self, enabled: bool, total: int):
        self.enabled, self.total = enabled, total

    def __enter__(self):
        if not self.enabled:
            return None
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        console = Console(stderr=True)
        # what is left: the trials still to run and the time they should take
        self.bar = Progress(TextColumn("study"), BarColumn(), MofNCompleteColumn(), TextColumn("trials,"),
                            TimeRemainingColumn(), TextColumn("left"),
                            console=console, transient=True,
                            disable=not console.is_terminal)
        self.bar.__enter__()
        task = self.bar.add_task("study", total=self.total)
        return lambda n: self.bar.advance(task, n)

    def __exit__(self, *exc):
        if self.enabled:
            self.bar.__exit__(*exc)
        return False


def _print_table(result: dict) -> None:
    from rich.table import Table

    from .scan import wide_console

    console = wide_console()
    console.print(f"Lemma 4.5 (Santurkar et al. 2018) on random instances: {result['data']}; "
                  f"{result['trials']} trials per cell, seed {result['seed']}, {result['dtype']} "
                  f"on {result['device']} ({result['devices']} device(s))")
    table = Table()
    for column in ("m", "d", "⟨W0,W*⟩>0", "fail", "hold", "tie/undecided", "fail rate",
                   "95% CI (Wilson)", "exact: confirmed/sampled"):
        table.add_column(column)
    for c in result["cells"]:
        if c["degenerate"]:
            table.add_row(str(c["m"]), str(c["d"]), "–", "–", "–", "–", "–", "–",
                          f"degenerate: {c['degenerate']}")
            continue
        ci = c["ci95"]
        table.add_row(str(c["m"]), str(c["d"]), str(c["hypothesis_met"]), str(c["fails"]),
                      str(c["holds"]), str(c["undecided"]),
                      "–" if c["rate"] is None else f"{c['rate']:.4f}",
                      "–" if ci is None else f"[{ci[0]:.4f}, {ci[1]:.4f}]",
                      f"{c['exact_confirmed']}/{c['exact_sample']}")
    console.print(table)
    console.print("Rates are among instances with ⟨W0, W*⟩ > 0; ties (|residual| ≤ √eps·scale) "
                  "count as not failing.  Sampled rates are evidence, not proof.")
    if result["exact_confirmed"]:
        console.print(f"{result['exact_confirmed']} failure(s) confirmed exactly (rationalized "
                      "instances decided by the exact engine): Lemma 4.5 is refuted.")
    else:
        console.print("No failure confirmed exactly.")
