"""`bnproof scan`: Lemma 4.5 on every BN layer of a network, numerically."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

from ..errors import BadInput, ExitCode
from .application import EPILOG, app
from .outputs import OUT_DIR

MAX_LAYERS, MAX_WIDTH = 32, 1 << 16
EVIDENCE = ("numerical evidence on one sampled dataset and initialization, not a proof; "
            "`bnproof verify` decides one-layer instances exactly")


def parse_widths(text: str) -> tuple[int, ...]:
    text = text.strip()
    if text in ("", "none"):
        return ()
    parts = text.split(",")
    if len(parts) > MAX_LAYERS or not all(p.strip().isdigit() for p in parts):
        raise BadInput(f"--widths expects up to {MAX_LAYERS} positive integers like 64,32, "
                       f"or 'none'; got {text[:40]!r}")
    widths = tuple(int(p) for p in parts)
    if not all(1 <= w <= MAX_WIDTH for w in widths):
        raise BadInput(f"--widths: each width must lie in 1…{MAX_WIDTH}")
    return widths


def _choice(value: str, allowed, option: str) -> str:
    if value not in allowed:
        raise BadInput(f"{option} must be one of {', '.join(allowed)}; got {value!r}")
    return value


@app.command(epilog=EPILOG)
def scan(
    dataset: str = typer.Option("digits", "--dataset", help="Built-in data: digits (scikit-learn's "
                                "bundled 8×8 digits) or synthetic (Gaussian regression)."),
    data: Optional[Path] = typer.Option(None, "--data", help="Your own data as FILE.npz with arrays "
                                        "X (m×d) and y (m labels, m targets or m×n)."),
    widths: str = typer.Option("32", "--widths", help="Hidden widths, each a Linear→BN→activation "
                               "layer; 'none' for the one-layer setting (with --bn-output)."),
    activation: str = typer.Option("tanh", "--activation", help="identity, relu, leaky-relu or tanh."),
    loss: str = typer.Option("xent", "--loss", help="squared or xent (cross-entropy)."),
    affine: str = typer.Option("fixed", "--affine", help="γ, β fixed (the Lemma's reading) or learned "
                               "(optimized with the layer's W in the BN network)."),
    bn_output: bool = typer.Option(False, "--bn-output", help="BN on the output layer too."),
    dtype: str = typer.Option("float64", "--dtype", help="float64 or float32."),
    samples: int = typer.Option(512, "--samples", min=2, help="Batch size m (a seeded subset of "
                                "the data; the whole set if smaller)."),
    features: int = typer.Option(16, "--features", min=1, max=4096,
                                 help="Inputs of the synthetic dataset."),
    tol: Optional[float] = typer.Option(None, "--tol", min=0.0, help="Gradient-norm tolerance "
                                        "for the optima (default 1e-6 for float64, 1e-3 for float32)."),
    max_steps: int = typer.Option(5000, "--max-steps", min=1, help="L-BFGS steps per optimum, at most."),
    seed: int = typer.Option(0, "--seed", help="Seed for the data subset and W0: same seed, same output."),
    out_dir: Path = typer.Option(
        Path(OUT_DIR), "--out-dir", metavar="DIR",
        help="Where a layer on which the Lemma fails is written, when it is the Lemma's setting (the output "
             "layer: BN, a squared loss, γ and β fixed), as data for `bnproof verify lemma-4.5 --data`, which "
             "decides it exactly: DIR/scan-<dataset>-seed<seed>-layer<l>.json."),
    as_json: bool = typer.Option(
        False, "--json", help="Print one JSON object (one network): "
        '{"dataset", "network", ..., "layers"}, "layers" a list with one object per layer; a failing '
        'layer\'s "verify_data" names its verify --data JSON (null where none was written, '
        '"verify_data_why" saying why).'),
) -> None:
    """Check Lemma 4.5 on each BN layer of an MLP, numerically, the other layers fixed.

    For each BN layer: W* (a local optimum of the loss without that layer's BN),
    the BN optimum reached from W0 and the closest point of its scale orbit, the
    Lemma's residual per neuron as printed, and ‖∇Ĉ(k·W*)‖, which the Lemma's proof
    assumes to be 0.  The result is evidence from floating point on one sample,
    never a proof.  Exit code 1 when the Lemma fails on some layer (numerically,
    beyond floating-point error, both optima converged), else 10 when it is
    undecided on some layer, else 0."""
    import numpy as np

    hidden = parse_widths(widths)
    for value, allowed, option in ((activation, ("identity", "relu", "leaky-relu", "tanh"), "--activation"),
                                   (loss, ("squared", "xent"), "--loss"),
                                   (affine, ("fixed", "learned"), "--affine"),
                                   (dtype, ("float64", "float32"), "--dtype"),
                                   (dataset, ("digits", "synthetic"), "--dataset")):
        _choice(value, allowed, option)
    if not hidden and not bn_output:
        raise BadInput("the network has no BN layer: give hidden --widths or --bn-output")
    rng = np.random.default_rng(seed)
    from ..numeric import datasets

    if data is not None:
        ds = datasets.load_npz(data, samples, rng)
    elif dataset == "digits":
        ds = datasets.digits(samples, rng)
    else:
        ds = datasets.synthetic(samples, features, rng)
    import jax

    from ..numeric import network as net
    from ..numeric import scan as numeric_scan
    from ..numeric.jax_setup import enable_compilation_cache

    enable_compilation_cache(jax)  # a second scan of these shapes compiles nothing

    spec = net.Spec((ds.X.shape[1],) + hidden + (ds.Y.shape[1],), activation, loss, bn_output,
                    affine, dtype)
    tol = tol if tol is not None else (1e-6 if dtype == "float64" else 1e-3)
    params = net.init(jax.random.key(seed), spec)
    with _progress(not as_json, len(spec.bn_layers) * 2 * max_steps) as tick:
        reports = numeric_scan.scan(params, spec, ds.X, ds.Y, tol, max_steps, tick)
    result = {
        "evidence": EVIDENCE,
        "device": str(jax.devices()[0]),
        "dataset": {"name": ds.name, "m": ds.m, "inputs": int(ds.X.shape[1]),
                    "outputs": int(ds.Y.shape[1])},
        "network": {"sizes": list(spec.sizes), "activation": activation, "loss": loss,
                    "affine": affine, "bn_output": bn_output, "dtype": dtype},
        "tol": tol, "max_steps": max_steps, "seed": seed,
        "layers": [r.to_json() for r in reports],
    }
    notes = _export_failures(reports, result, params, spec, ds, seed, out_dir)
    if as_json:
        typer.echo(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        _print_table(result)
        for note in notes:
            typer.echo(note)
    raise typer.Exit(exit_code([r.verdict for r in reports]))


def exit_code(verdicts: list[str]) -> ExitCode:
    """A failure on any layer is the scan's verdict (a script sees it too); else an
    undecided layer leaves the whole scan undecided, as every command reports it."""
    from ..numeric import scan as numeric_scan

    if numeric_scan.FAILS in verdicts:
        return ExitCode.REFUTED
    if numeric_scan.UNDECIDED in verdicts:
        return ExitCode.UNDECIDED
    return ExitCode.OK


def _export_failures(reports, result: dict, params, spec, ds, seed: int, out_dir: Path) -> list[str]:
    """Each layer on which the Lemma fails, written as verify --data JSON where it is the
    Lemma's setting (its layer object's "verify_data" names the file, else null and
    "verify_data_why" says why not); the lines that say so."""
    import re

    from ..atomic import write_text_atomic
    from ..numeric import scan as numeric_scan

    notes = []
    for report, layer in zip(reports, result["layers"]):
        layer["verify_data"] = None
        if report.verdict != numeric_scan.FAILS:
            continue
        why = numeric_scan.lemma_setting(spec, report.layer - 1)
        if why is not None:
            layer["verify_data_why"] = why
            notes.append(f"Layer {report.layer} fails numerically, but it is not Lemma 4.5's setting ({why}): "
                         "there is no instance for `bnproof verify` to decide exactly.")
            continue
        stem = re.sub(r"[^A-Za-z0-9_.-]+", "-", Path(ds.name).stem) or "data"
        path = out_dir / f"scan-{stem}-seed{seed}-layer{report.layer}.json"
        data, places, certifiable = _certifiable_instance(params, spec, report.layer - 1, ds,
                                                          f"bnproof scan {stem}, seed {seed}, layer {report.layer}")
        try:
            write_text_atomic(path, json.dumps(data) + "\n")
        except OSError as exc:
            raise BadInput(f"cannot write {path}: {exc.strerror or type(exc).__name__}") from None
        layer["verify_data"], layer["verify_data_places"] = str(path), places
        how = ("its floats as the exact rationals they are" if places is None else
               f"its floats rounded to {places} decimal places: their own rationals would exceed the checker's "
               "limits")
        if not certifiable:
            how += "; still beyond the checker's limits: scan fewer --samples to decide it"
        notes.append(f"Layer {report.layer} fails numerically; written ({how}) as data that decides it "
                     f"exactly: bnproof verify lemma-4.5 --data {path}")
    return notes


def _certifiable_instance(params, spec, layer: int, ds, name: str) -> tuple[dict, int | None, bool]:
    """The layer's instance with the floats' own rationals where its certificate fits the
    checker's limits, else rounded to the most decimal places that fit (the fewest tried
    where none does): (data, places or None, whether it fits)."""
    from ..errors import BadInput as Refused
    from ..instance import check_certifiable, instance_from_json
    from ..numeric import scan as numeric_scan

    for places in numeric_scan.PLACES:
        data = numeric_scan.lemma_instance(params, spec, layer, ds.X, ds.Y, name, places)
        try:
            check_certifiable(instance_from_json(data))
        except Refused:
            continue
        return data, places, True
    return data, places, False


class _progress:
    """A transient rich bar on stderr over all optimizer steps (each fit's share is
    max_steps; a fit that converges early skips the rest of its share)."""

    def __init__(self, enabled: bool, total: int):
        self.enabled, self.total = enabled, total

    def __enter__(self):
        if not self.enabled:
            return None
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

        console = Console(stderr=True)
        # what is left: the budget of optimizer steps, and (at most) the time it takes
        self.bar = Progress(TextColumn("scan"), BarColumn(),
                            TextColumn("{task.completed} of at most {task.total} steps,"),
                            TimeRemainingColumn(), TextColumn("left at most"),
                            console=console, transient=True,
                            disable=not console.is_terminal)
        self.bar.__enter__()
        self.task = self.bar.add_task("scan", total=self.total)
        self.done, self.last = 0, 0
        return self.tick

    def tick(self, steps: int) -> None:
        if steps < self.last:  # a new fit started
            self.done += self.last
        self.last = steps
        self.bar.update(self.task, completed=self.done + steps)

    def __exit__(self, *exc):
        if self.enabled:
            self.bar.__exit__(*exc)
        return False


def wide_console():
    """Rich wraps tables at 80 columns when stdout is not a terminal; data tables
    read better unwrapped in files and logs."""
    from rich.console import Console

    console = Console(soft_wrap=False)
    if not console.is_terminal:
        console = Console(soft_wrap=False, width=160)
    return console


def _fmt(x) -> str:
    return "–" if x is None else f"{x:.3g}"


def _print_table(result: dict) -> None:
    from rich.table import Table

    console = wide_console()
    ds, nw = result["dataset"], result["network"]
    console.print(f"Lemma 4.5 (Santurkar et al. 2018) per BN layer: {ds['name']}, m = {ds['m']}, "
                  f"sizes {'-'.join(map(str, nw['sizes']))}, {nw['activation']}, {nw['loss']} loss, "
                  f"γ/β {nw['affine']}, {nw['dtype']} on {result['device']}")
    table = Table()
    for column in ("layer", "W (out×in)", "W*: ‖∇C‖, steps", "Ŵ*: ‖∇Ĉ‖, steps",
                   "⟨W0,W*⟩>0", "violated", "min residual", "‖∇Ĉ(k·W*)‖", "verdict"):
        table.add_column(column)
    for layer in result["layers"]:
        fits = []
        for key in ("standard", "bn"):
            f = layer[key]
            fits.append(f"{f['grad_norm']:.1e}, {f['steps']}" + ("" if f["converged"] else f" ({f['reason']})"))
        table.add_row(str(layer["layer"]), "×".join(map(str, layer["shape"])), *fits,
                      f"{layer['hypothesis_met']}/{layer['neurons']}", str(layer["violated"]),
                      _fmt(layer["min_residual"]), _fmt(layer["grad_norm_bn_at_kW*"]),
                      layer["verdict"])
    console.print(table)
    console.print(f"Optima converged when ‖∇‖ ≤ tol = {result['tol']:g} (at most {result['max_steps']} "
                  "L-BFGS steps).  Residual = RHS − LHS per neuron, as printed; < 0 means the "
                  "inequality fails.  k·W* is a BN optimum only if ‖∇Ĉ(k·W*)‖ ≈ 0.")
    console.print(f"This is {result['evidence']}.")
