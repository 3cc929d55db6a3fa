"""`bnproof list`: every known claim with its source and verdict."""

from __future__ import annotations

import json

import typer

from .application import EPILOG, app


@app.command(name="list", epilog=EPILOG)
def list_claims(
    as_json: bool = typer.Option(
        False, "--json", help="Print a JSON list, one object per claim: "
        '{"id", "aliases", "source", "verdict", "certificate", "proof", ...}; "proof" is the proof for '
        'every m recorded with the verdict (fuzz --record), its proof object less the normal forms and '
        'fixed (docs/cli.md, "The proof object"): {"status", "text", "covered", "certificates"}, and '
        '"blocked_by" and "hint" where the proof was not made; null where none was attempted.'),
) -> None:
    """Every known claim with its source and current verdict."""
    from ..claims.api import all_claims
    from ..render import fuzz as render_fuzz

    rows = with_proofs(render_fuzz.listing(all_claims()))
    if as_json:
        typer.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    for line in _lines(rows):
        typer.echo(line)


def with_proofs(rows: list[dict]) -> list[dict]:
    """Each row with the proof for every m recorded for it (proofs/verdicts.json, "proof"):
    `proof` in --json, and the verdict text ends with it: what was proved, with its
    certificates, or the status of an attempt that proved nothing and what blocked it
    (its text can hold a whole normal form: too long for a row)."""
    from ..search import record

    entries = record.load()
    for row in rows:
        proof = entries.get(row["id"], {}).get("proof")
        row["proof"] = proof
        if proof and proof.get("covered"):
            where = ", ".join(proof.get("certificates", []))
            row["verdict_text"] += f"; {proof['text']}" + (f" ({where})" if where else "")
        elif proof:
            blocked = proof.get("blocked_by")
            row["verdict_text"] += f"; proof for every m: {proof['status']}" + (f" ({blocked})" if blocked else "")
    return rows


HEADER = ("claim", "source", "verdict")
# Below this many columns beside the longest id, a table would squeeze the
# source and verdict to a word a line: each claim gets a block instead.
ROOM = 40


def _lines(rows: list[dict], terminal: bool | None = None, columns: int | None = None) -> list[str]:
    """The listing as lines.  Piped (or `terminal=False`): plain aligned
    columns, one claim a line, no box drawing or colour, for grep and cut.  On
    a terminal: a table whose claim column is as wide as the longest id, so
    that no id is ever broken; on a terminal too narrow for that, one block per
    claim, the id alone on its first line."""
    import sys

    from ..render import unicode_math

    terminal = sys.stdout.isatty() if terminal is None else terminal
    columns = unicode_math.width() if columns is None else columns
    cells = [(r["id"], r["source_short"], r["verdict_text"]) for r in rows]
    longest = max([len(HEADER[0])] + [len(c[0]) for c in cells])
    if not terminal:
        lines = _plain(cells)
    elif columns < longest + ROOM:
        lines = [line for c in cells for line in [c[0], *_indented(c[1], columns), *_indented(c[2], columns)]]
    else:
        lines = _table(cells, longest, columns)
    if unicode_math.unicode_ok():
        return lines
    return [unicode_math.ascii_line(line) for line in lines]


def _indented(text: str, columns: int) -> list[str]:
    import textwrap

    # a path or an id is one word: never broken
    return textwrap.wrap(text, columns, initial_indent="    ", subsequent_indent="    ",
                         break_long_words=False, break_on_hyphens=False) or ["    "]


def _plain(cells: list[tuple]) -> list[str]:
    rows = [HEADER, *cells]
    w0 = max(len(r[0]) for r in rows)
    w1 = max(len(r[1]) for r in rows)
    return [f"{a:<{w0}}  {b:<{w1}}  {c}".rstrip() for a, b, c in rows]


def _table(cells: list[tuple], longest: int, columns: int) -> list[str]:
    import io

    from rich.console import Console
    from rich.table import Table

    table = Table(show_lines=False)
    table.add_column(HEADER[0], no_wrap=True, min_width=longest)
    for column in HEADER[1:]:
        table.add_column(column, overflow="fold")
    for row in cells:
        table.add_row(*row)
    buffer = io.StringIO()
    Console(file=buffer, width=columns, force_terminal=True, soft_wrap=False).print(table)
    return buffer.getvalue().rstrip("\n").split("\n")
