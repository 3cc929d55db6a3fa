"""How much of a claim's instance space a search actually examined, per size.

Draws alone say little: a claim whose hypotheses no drawn instance meets has
not been tested at all.  So every evaluated instance is counted three ways:
drawn (evaluated), met (every hypothesis > 0 in floats) and defined (also a
finite residual: an instance that could have refuted the claim).  These are
float screens, reported as evidence of coverage, never used to decide a claim.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Tally:
    drawn: int = 0
    met: int = 0
    defined: int = 0

    def add(self, other: "Tally") -> None:
        self.drawn += other.drawn
        self.met += other.met
        self.defined += other.defined


def _key(sizes: dict) -> tuple:
    return tuple(sorted(sizes.items()))


def _order(key: tuple) -> tuple:
    """Smallest instances first, as the size grid is searched."""
    return (sum(v for _, v in key), key)


class Coverage:
    """Tallies by size; plain data, so it crosses process boundaries as JSON-like lists."""

    def __init__(self):
        self.by_size: dict[tuple, Tally] = {}

    def add(self, sizes: dict, drawn: int = 1, met: int = 0, defined: int = 0) -> None:
        if not met <= drawn or not defined <= met:
            raise ValueError(f"inconsistent coverage: {drawn} drawn, {met} met, {defined} defined")
        self.by_size.setdefault(_key(sizes), Tally()).add(Tally(drawn, met, defined))

    def total(self) -> Tally:
        out = Tally()
        for tally in self.by_size.values():
            out.add(tally)
        return out

    def merge(self, other: "Coverage") -> None:
        for key, tally in other.by_size.items():
            self.by_size.setdefault(key, Tally()).add(tally)

    def rows(self) -> list[dict]:
        return [{"sizes": dict(key), "drawn": t.drawn, "met_hypotheses": t.met, "defined": t.defined}
                for key, t in sorted(self.by_size.items(), key=lambda kv: _order(kv[0]))]

    @classmethod
    def from_rows(cls, rows: list[dict]) -> "Coverage":
        out = cls()
        for row in rows:
            out.add(row["sizes"], row["drawn"], row["met_hypotheses"], row["defined"])
        return out

    def text(self) -> str:
        """"drawn / met the hypotheses" per size: "m=2: 40 / 38; m=3: 50 / 50 (2 undefined)"."""
        parts = []
        for row in self.rows():
            name = ",".join(f"{k}={v}" for k, v in row["sizes"].items())
            clause = f"{row['drawn']} / {row['met_hypotheses']}"
            undefined = row["met_hypotheses"] - row["defined"]
            if undefined:
                clause += f" ({undefined} with the residual undefined)"
            parts.append(f"{name}: {clause}" if name else clause)
        return "coverage (drawn / met the hypotheses): " + "; ".join(parts)
