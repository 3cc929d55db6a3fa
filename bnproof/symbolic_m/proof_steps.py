"""The steps a decomposition adds after the program's, and this engine's own replay
of a decomposition (the independent checker repeats it).  Below prove.py and the
searches it runs (squares.py, sos.py), which all write and replay proofs so."""

from __future__ import annotations

from fractions import Fraction

from .algebra import TooLarge
from .evaluate import Replay
from .fragment import NotDefined, OutsideFragment


class Steps:
    """Proof steps appended after the program's, each written once."""

    def __init__(self, program: dict):
        self.base = list(program["steps"])
        self.extra: list = []
        self.index = {tuple(step_key(s)): i for i, s in enumerate(self.base)}

    def get(self, step: list) -> int:
        key = tuple(step_key(step))
        if key not in self.index:
            self.index[key] = len(self.base) + len(self.extra)
            self.extra.append(step)
        return self.index[key]


def step_key(step):
    return [tuple(x) if isinstance(x, list) else x for x in step]


def replays(program: dict, proof: dict) -> bool:
    """This engine's own check of a decomposition: residual·Π denominator − Σ terms ≡ 0
    (the independent checker repeats it, with the manifest-sign rules)."""
    try:
        replay = Replay(program)
    except (ValueError, OutsideFragment, NotDefined, TooLarge):
        return False
    return replays_in(replay, program["residual"], proof)


def replays_in(replay: Replay, residual: int, proof: dict) -> bool:
    """replays on a replay already made (a case of sos.py replays the program with an
    input replaced): the proof's steps run on it, then the identity is decided."""
    try:
        replay.run(proof["steps"], allow_input=False)
        alg, values = replay.alg, replay.values
        lhs = values[residual]
        for d in proof["denominator"]:
            lhs = alg.mul(lhs, values[d])
        rhs = alg.const(0)
        for term in proof["terms"]:
            t = alg.const(Fraction(term["coefficient"]))
            for f in term["factors"]:
                t = alg.mul(t, values[f])
            rhs = alg.add(rhs, t)
        return alg.sub(lhs, rhs).is_zero()
    except (ValueError, OutsideFragment, NotDefined, TooLarge):
        return False
