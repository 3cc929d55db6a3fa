"""`bnproof prove`: prove claims for every batch size m, with a proof certificate."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from .application import EPILOG, app

DEFAULT_OUT_DIR = "bnproof-out"  # as fuzz: never the committed certificates/ unless --record


@app.command(epilog=EPILOG)
def prove(
    claim: str = typer.Argument(..., help="A claim id or alias (see `bnproof list`), a prefix such as "
                                          "santurkar2018, or a claim file FILE.py."),
    as_json: bool = typer.Option(
        False, "--json", help='Print a JSON list, one object per claim (also for one): {"claim", "status", '
        '"text", "fixed", "normal_form", "certificates"}; status is "proved", "not-proved" or '
        '"outside-fragment", normal_form is the LaTeX of the residual normal form ("0" when it is 0), each what '
        'bnproof.prove(...).to_json() returns.'),
    out_dir: Path = typer.Option(
        Path(DEFAULT_OUT_DIR), "--out-dir", metavar="DIR",
        help="Where proof certificates are written, as DIR/<claim id>.proof.json (DIR/<claim id>.d2.proof.json "
             "at a fixed size d = 2). The committed "
             "certificates/ change only with --record."),
    record: bool = typer.Option(False, "--record",
                                help="Write each proof certificate into the committed certificates/ "
                                     "(claims of proofs/ only)."),
) -> None:
    """Prove claims for every batch size m: the residual's normal form in an algebra of
    batch sums and roots is 0 (an identity), or a manifestly nonnegative combination
    (an inequality).  Each proof is replayed by the independent checker before its
    certificate is written.  Otherwise: "not proved: normal form …" or "not in the
    provable fragment: uses …" (exit 10); never more than is established."""
    from ..claims.api import proofs_root, resolve
    from ..errors import BadInput, ExitCode
    from .._api.prove import prove as prove_one

    claims = resolve(claim)
    if record:
        root = proofs_root()
        for c in claims:
            if not c.path or Path(c.path).resolve().parent.parent != root.resolve():
                raise BadInput(f"--record writes the committed certificates/ of the claims in {root}; "
                               f"{c.path or c.id} is not one of them: prove it without --record")
    directory = proofs_root().parent / "certificates" if record else out_dir
    results = []
    for c in claims:
        result = prove_one(c, out_dir=directory)
        results.append(result)
        if not as_json:
            typer.echo(result.line())
    if as_json:
        typer.echo(json.dumps([r.to_json() for r in results], indent=2, ensure_ascii=False))
    raise typer.Exit(ExitCode.OK if all(r.proved for r in results) else ExitCode.UNDECIDED)
