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

    rows = with_proofs(render_fuzz.listing(all_claims()), in_verdict=as_json)
    if as_json:
        typer.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    for line in _lines(rows):
        typer.echo(line)


def with_proofs(rows: list[dict], in_verdict: bool = True) -> list[dict]:
    """Each row with the proof for every m recorded for it (proofs/verdicts.json, "proof"):
    `proof` in --json, whose verdict text ends with it (in_verdict) as it always has; the
    table shows it in a column of its own (proof_cell), in_verdict=False."""
    from ..search import record

    entries = record.load()
    for row in rows:
        row["proof"] = entries.get(row["id"], {}).get("proof")
        if in_verdict and row["proof"]:
            row["verdict_text"] += "; " + proof_cell(row["proof"], in_verdict=True)
    return rows


def proof_cell(proof: dict | None, in_verdict: bool = False) -> str:
    """The proof column: what was proved, with its certificates, or the status of an attempt
    that proved nothing and what blocked it (its text can hold a whole normal form: too long
    for a row); "" where none was recorded.  in_verdict: as the verdict text's end says it."""
    if not proof:
        return ""
    if proof.get("covered"):
        where = ", ".join(proof.get("certificates", []))
        return proof["text"] + (f" ({where})" if where else "")
    blocked = proof.get("blocked_by")
    return ("proof for every m: " if in_verdict else "") + proof["status"] + (f" ({blocked})" if blocked else "")


HEADER = ("claim", "alias", "source", "verdict", "proof")
# Below this many columns beside the longest id and alias, a table would squeeze the
# source and verdict to a word a line: each claim gets a block instead.
ROOM = 40
INDENT = "    "


def _width() -> int | None:
    """The width to keep to: the terminal's; piped, COLUMNS where it is set (the user
    asked for that width), else none (one claim a line, for grep and cut)."""
    import os
    import sys

    from ..render import unicode_math

    if sys.stdout.isatty():
        return unicode_math.width()
    columns = os.environ.get("COLUMNS", "").strip()
    return int(columns) if columns.isdigit() and int(columns) > 0 else None


def _lines(rows: list[dict], terminal: bool | None = None, columns: int | None = None) -> list[str]:
    """The listing as lines, each claim with the aliases people type for it.  Piped (or
    `terminal=False`): plain aligned columns, no box drawing or colour, one claim a
    line where no width is given or the lines fit it, else one block per claim, its
    lines wrapped to the width.  On a terminal: a table whose claim and alias columns
    are as wide as their longest entry, so that no id is ever broken; on a terminal too
    narrow for that, one block per claim, the id on its first line."""
    import sys

    from ..render import unicode_math

    terminal = sys.stdout.isatty() if terminal is None else terminal
    if columns is None:
        columns = unicode_math.width() if terminal else _width()
    cells = [(r["id"], ", ".join(r.get("aliases") or ()), r["source_short"], r["verdict_text"],
              proof_cell(r.get("proof"))) for r in rows]
    longest = max([len(HEADER[0])] + [len(c[0]) for c in cells])
    aliases = max([len(HEADER[1])] + [len(c[1]) for c in cells])
    if not terminal:
        lines = _plain(cells)
        if columns is not None and max(len(line) for line in lines) > columns:
            lines = _blocks(cells, columns)
    elif columns < longest + aliases + ROOM:
        lines = _blocks(cells, columns)
    else:
        lines = _table(cells, longest, aliases, columns)
    if unicode_math.unicode_ok():
        return lines
    return [unicode_math.ascii_line(line) for line in lines]


def _blocks(cells: list[tuple], columns: int) -> list[str]:
    """Each claim as a block: its id (with its aliases where they fit beside it), then
    its source and verdict indented, wrapped to `columns`."""
    lines = []
    for claim, alias, source, verdict, proof in cells:
        head = f"{claim}  (alias: {alias})" if alias else claim
        if len(head) <= columns or not alias:
            lines.append(head)
        else:
            lines += [claim, *_indented(f"alias: {alias}", columns)]
        lines += [*_indented(source, columns), *_indented(verdict, columns)]
        if proof:
            lines += _indented(f"proof: {proof}", columns)
    return lines


def _indented(text: str, columns: int) -> list[str]:
    import textwrap

    # a path or an id is one word: never broken
    return textwrap.wrap(text, max(columns, len(INDENT) + 1), initial_indent=INDENT, subsequent_indent=INDENT,
                         break_long_words=False, break_on_hyphens=False) or [INDENT]


def _plain(cells: list[tuple]) -> list[str]:
    rows = [HEADER, *[tuple(c or "-" if k in (1, 4) else c for k, c in enumerate(r)) for r in cells]]
    w0, w1, w2, w3 = (max(len(r[k]) for r in rows) for k in range(4))
    return [f"{a:<{w0}}  {b:<{w1}}  {c:<{w2}}  {d:<{w3}}  {e}".rstrip() for a, b, c, d, e in rows]


def _table(cells: list[tuple], longest: int, aliases: int, columns: int) -> list[str]:
    import io

    from rich.console import Console
    from rich.table import Table

    table = Table(show_lines=False)
    table.add_column(HEADER[0], no_wrap=True, min_width=longest)
    table.add_column(HEADER[1], no_wrap=True, min_width=aliases)
    for column in HEADER[2:]:
        table.add_column(column, overflow="fold")
    for row in cells:
        table.add_row(*row)
    buffer = io.StringIO()
    Console(file=buffer, width=columns, force_terminal=True, soft_wrap=False).print(table)
    return buffer.getvalue().rstrip("\n").split("\n")
