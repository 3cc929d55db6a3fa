"""`bnproof list`: every known claim with its source and verdict."""

from __future__ import annotations

import json

import typer

from .application import EPILOG, app


@app.command(name="list", epilog=EPILOG)
def list_claims(
    as_json: bool = typer.Option(False, "--json", help="Print a JSON list instead of a table."),
) -> None:
    """Every known claim with its source and current verdict."""
    from ..claims.api import all_claims
    from ..render import fuzz as render_fuzz

    rows = render_fuzz.listing(all_claims())
    if as_json:
        typer.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(show_lines=False)
    for column in ("claim", "source", "verdict"):
        table.add_column(column, overflow="fold")
    for row in rows:
        table.add_row(row["id"], row["source_short"], row["verdict_text"])
    Console(soft_wrap=False).print(table)


