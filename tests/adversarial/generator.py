"""Random claims with Python-level tricks, each with its truth known without bnproof.

`generate(seed)` builds one claim over y, g (batch vectors of length m) and scalars
a, b, under the hypothesis σ(y) > 0 (tricks.py has the pieces):

- a base that holds for every m: an identity, or an inequality (residual ≥ 0);
- one to three neutral tricks, worth 0 under numpy (try/except around a refused
  operation, isinstance, getattr(y, "size", 1), len, copy/deepcopy, a closure over a
  module global); in a true claim their decoys (what a faulty reading sees) are
  nonzero, in a false one 0, so that a faulty reading of a false claim is the base,
  which a faulty prover can prove;
- for about 30 % of the seeds, nested gradients of depth 1 to 3 (Euler's relation);
- for about half of the seeds, one poison: a trick worth something nonzero under numpy
  (for some, only from a threshold on m), 0 to a faulty reading;
- sometimes a dead step (1/x, the square root of a negative number) that nothing reads.

Helpers go into the claim file or into a helper module beside it, at random.  So the
claim is TRUE exactly when it has no poison (by construction), and the generator knows
its value at any instance: each piece's SymPy expression in the entries (derivatives by
`sympy.diff`), evaluated there to 80 digits by mpmath (`Generated.judge`); it never
runs bnproof.  tests/test_adversarial_claims.py checks these values against the
construction and against jax.grad.

Sizes sit at the edges of their ranges: the instance for `verify --data` is at the
smallest or largest m of the claim, or (sometimes) one past the largest, where the
claim says nothing and `verify` must refuse the data.  Everything is a function of the
seed.

    python tests/adversarial/generator.py SEED [FOLDER]

prints the claim of a seed (or writes its files and data.json into FOLDER)."""

from __future__ import annotations

import json
import random
import sys
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import mpmath
import sympy

if __package__ in (None, ""):  # run as a script: import the package beside this file
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from adversarial import tricks as T  # noqa: E402
else:
    from . import tricks as T

# (smallest, largest) m: single sizes and ranges, small and wide
SIZE_RANGES = ((2, 2), (2, 3), (3, 3), (2, 5), (3, 6), (2, 9))
DIGITS = 80  # working precision of the evaluation
NEAR_ZERO = mpmath.mpf(10) ** -40  # values here are small algebraic numbers, never this close to 0

HOLDS, REFUTED, OUTSIDE, OUTSIDE_SIZES = "holds", "refuted", "outside", "outside-sizes"

HEADER = '''import copy

import numpy as np

from bnproof.claims import Claim, Var
from bnproof.claims.blocks import normalize, stats
'''


class GeneratorBug(AssertionError):
    """The generator's own construction and its evaluation disagree."""


@dataclass
class Generated:
    seed: int
    kind: str  # "identity" or "inequality"
    sizes: tuple  # (smallest, largest) m
    exact_sizes: tuple | None  # identities: the m the fixed-size prover is asked to prove
    base: T.Piece
    tricks: list
    in_module: set  # names of tricks whose source is in the helper module
    instance: dict  # {"y": [Fraction], "g": [...], "a": Fraction, "b": Fraction}
    _cache: dict = field(default_factory=dict, repr=False)  # m: (symbols, expression); ("function", m), ("false at", m)

    # ---------------------------------------------------------- what it is

    @property
    def claim_id(self) -> str:
        return f"adv-gen/seed-{self.seed}"

    @property
    def claim_file(self) -> str:
        return f"gen_{self.seed}.py"

    @property
    def module(self) -> str:
        return f"adv_gen_{self.seed}"

    @property
    def poison(self) -> T.Trick | None:
        return next((t for t in self.tricks if t.poison), None)

    @property
    def true(self) -> bool:
        """True at every m and every instance where it is defined (no poison)."""
        return self.poison is None

    @property
    def refusable(self) -> bool:
        """Whether a tracer may refuse the claim (exit 3, outside the fragment): it uses
        introspection, a copy or a caught refusal (issue 22 allows refusing those)."""
        return any(t.refusable for t in self.tricks)

    def false_at_size(self, m: int) -> bool:
        """Whether an instance of this batch size refutes the claim: one of a few generic
        instances does (a poison can vanish at one size, e.g. a BN Jacobian at m = 2)."""
        if self.poison is None:
            return False
        key = ("false at", m)
        if key not in self._cache:
            rng = random.Random(f"{self.seed} {m}")
            self._cache[key] = any(self.judge(generic_instance(rng, m), dead_steps=False) == REFUTED for _ in range(5))
        return self._cache[key]

    def describe(self) -> str:
        truth = "TRUE" if self.true else f"FALSE (poison: {self.poison.name})"
        tricks = "; ".join(t.name + (" [helper module]" if t.name in self.in_module else "") for t in self.tricks)
        return (f"seed {self.seed}: {self.kind}, m in {self.sizes}, {truth}; base {self.base.code}; "
                f"tricks: {tricks}")

    # ---------------------------------------------------------- its truth, by SymPy

    def residual(self, m: int):
        """(symbols, the residual's value under numpy as a SymPy expression) at batch size m."""
        if m not in self._cache:
            env = T.Env.at(m)
            value = self.base.math(env) + sympy.Add(*[t.math(env) for t in self.tricks])
            self._cache[m] = env, value
        return self._cache[m]

    def value(self, instance: dict) -> mpmath.mpf:
        """The residual at an instance, to DIGITS digits (SymPy's expression, evaluated by
        mpmath after common subexpressions are shared: substituting into a nested
        gradient's expression at m = 9 took seconds)."""
        m = len(instance["y"])
        if ("function", m) not in self._cache:
            env, expr = self.residual(m)
            self._cache["function", m] = sympy.lambdify([*env.y, *env.g, env.a, env.b], expr, modules="mpmath",
                                                        cse=True)
        with mpmath.workdps(DIGITS):
            args = [mpmath.mpf(x.numerator) / x.denominator for x in
                    [*map(Fraction, instance["y"]), *map(Fraction, instance["g"]),
                     Fraction(instance["a"]), Fraction(instance["b"])]]
            return +self._cache["function", m](*args)

    @property
    def false_somewhere(self) -> bool:
        """Whether some instance within the declared sizes refutes the claim."""
        lo, hi = self.sizes
        return any(self.false_at_size(m) for m in range(lo, hi + 1))

    def judge(self, instance: dict, *, dead_steps: bool = True) -> str:
        """The claim at an instance: HOLDS, REFUTED, OUTSIDE (σ = 0 or, unless dead_steps
        is False, a dead step is undefined: the claim says nothing there) or
        OUTSIDE_SIZES."""
        m = len(instance["y"])
        lo, hi = self.sizes
        if not lo <= m <= hi:
            return OUTSIDE_SIZES
        y = [Fraction(v) for v in instance["y"]]
        if len(set(y)) == 1:  # σ(y) = 0: the hypothesis σ² > 0 fails
            return OUTSIDE
        if dead_steps and not all(t.defined(instance) for t in self.tricks):
            return OUTSIDE
        v = self.value(instance)
        if abs(v) < NEAR_ZERO:
            return HOLDS
        if self.kind == "identity":
            return REFUTED
        return HOLDS if v > 0 else REFUTED

    # ---------------------------------------------------------- its files

    def files(self) -> dict:
        """File name -> text: the claim file, and the helper module if any helper is there."""
        module = [t for t in self.tricks if t.source and t.name in self.in_module]
        local = [t for t in self.tricks if t.source and t.name not in self.in_module]
        out = {}
        imports = ""
        if module:
            out[self.module + ".py"] = (f'"""Helpers of {self.claim_file} (seed {self.seed})."""\n'
                                        + HEADER + "\n\n" + "\n\n".join(t.source for t in module))
            imports = f"\nfrom {self.module} import " + ", ".join(t.function for t in module) + "\n"
        body = [t.dead for t in self.tricks if t.dead]
        terms = [f"({self.base.code})"] + [t.call for t in self.tricks if t.function]
        body.append("return (" + "\n            + ".join(terms) + ")")
        exact = f", exact_sizes={{'m': {self.exact_sizes}}}" if self.exact_sizes else ""
        poison = self.poison
        truth = ("TRUE: no poison, every trick is worth 0 under numpy" if poison is None else
                 f"FALSE: the poison ({poison.name}) is worth something nonzero under numpy"
                 + (f" at m >= {poison.threshold}" if poison.threshold else ""))
        out[self.claim_file] = (
            f'"""Generated by tests/adversarial/generator.py, seed {self.seed}.\n\n{truth}.\n'
            f'Tricks: {"; ".join(t.name for t in self.tricks)}."""\n' + HEADER + imports + "\n\n"
            + "\n\n".join(t.source for t in local) + ("\n\n" if local else "")
            + "def _spread(xp, y, g, a, b):\n    return stats(xp, y)[1] ** 2\n\n\n"
            + "def _residual(xp, y, g, a, b):\n" + "".join(f"    {line}\n" for line in body) + "\n\n"
            + f'CLAIM = Claim(id="{self.claim_id}", source="tests/adversarial/generator.py", '
              f'statement="generated", kind="{self.kind}",\n'
              f'              variables=(Var("y", ("m",)), Var("g", ("m",)), Var("a"), Var("b")),\n'
              f'              sizes={{"m": {self.sizes}}}{exact}, hypotheses=(_spread,), residual=_residual)\n')
        return out

    def data(self) -> dict:
        """The instance as `verify --data` reads it."""
        return {k: [str(x) for x in v] if isinstance(v, list) else str(v) for k, v in self.instance.items()}

    def write(self, folder: Path) -> Path:
        """The claim file, its helper module and data.json in folder; the claim file's path."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        for name, text in self.files().items():
            (folder / name).write_text(text, encoding="utf-8")
        (folder / "data.json").write_text(json.dumps(self.data()), encoding="utf-8")
        return folder / self.claim_file


# -------------------------------------------------------------------- building one


def _neutral(rng: random.Random, tag: str, decoy: T.Piece) -> T.Trick:
    """A trick worth 0 under numpy; `decoy` is what a faulty reading sees instead."""
    choice = rng.randrange(6)
    if choice == 0:
        return T.try_refused(rng, tag, T.ZERO, decoy, poison=False)
    if choice == 1:
        return T.introspect_isinstance(rng, tag, T.ZERO, decoy, poison=False)
    if choice == 2:
        return T.introspect_size(rng, tag, decoy, poison=False)
    if choice == 3:
        return T.introspect_len(rng, tag, decoy, poison=False)
    if choice == 4:
        return T.copies(rng, tag, decoy, poison=False)
    return T.closure(rng, tag, decoy, poison=False)


def _poison(rng: random.Random, tag: str, kind: str, base: T.Piece, sizes: tuple) -> T.Trick:
    if kind == "identity":
        payload = rng.choice(T.PAYLOADS)
    elif rng.random() < 0.5:  # worth −base − 1/2: the claim's residual is then −1/2 wherever it is active
        payload = T.Piece(f"-({base.code}) - xp.q(1, 2)", lambda e: -base.math(e) - sympy.Rational(1, 2))
    else:  # worth −2a²·base: the residual (1 − 2a²)·base holds where a = 0, a witness a prover likes
        payload = T.Piece(f"-2 * a * a * ({base.code})", lambda e: -2 * e.a ** 2 * base.math(e))
    lo, hi = sizes
    choice = rng.randrange(7)
    if choice == 0:
        return T.try_refused(rng, tag, payload, T.ZERO, poison=True)
    if choice == 1:
        return T.try_threshold(rng, tag, payload, rng.randint(min(lo + 1, hi), hi))
    if choice == 2:
        return T.introspect_isinstance(rng, tag, payload, T.ZERO, poison=True)
    if choice == 3:
        return T.introspect_size(rng, tag, payload, poison=True)
    if choice == 4:
        return T.introspect_len(rng, tag, payload, poison=True)
    if choice == 5:
        return T.copies(rng, tag, payload, poison=True, of_input=kind == "identity")
    return T.closure(rng, tag, payload, poison=True)


def _entry(rng: random.Random) -> Fraction:
    return Fraction(rng.randint(-9, 9), rng.choice((1, 2, 3)))


def generic_instance(rng: random.Random, m: int) -> dict:
    """A generic instance: y without ties, Σy ≠ 0, Σg ≠ 0, Σyg ≠ 0, a, b ∉ {0, ±1}."""
    while True:
        y = [_entry(rng) for _ in range(m)]
        g = [_entry(rng) for _ in range(m)]
        if len(set(y)) == m and sum(y) != 0 and sum(g) != 0 and sum(p * q for p, q in zip(y, g)) != 0:
            break
    scalars = [Fraction(s * n, d) for s in (1, -1) for n, d in ((2, 1), (3, 1), (1, 2), (3, 2), (5, 3))]
    return {"y": y, "g": g, "a": rng.choice(scalars), "b": rng.choice(scalars)}


def generate(seed: int) -> Generated:
    """The claim of a seed.  A draw whose poison turns out to vanish wherever the claim
    speaks (a BN Jacobian's quadratic form at m = 2, say) is drawn again, from the
    seed and the attempt's number, so the result stays a function of the seed."""
    for attempt in range(20):
        claim = _draw(random.Random(f"bnproof adversarial claim {seed} {attempt}"), seed)
        if claim is not None:
            return claim
    raise GeneratorBug(f"seed {seed}: no consistent claim in 20 draws")


def _draw(rng: random.Random, seed: int) -> Generated | None:
    kind = "inequality" if rng.random() < 1 / 3 else "identity"
    poisoned = rng.random() < 0.5
    nested = rng.random() < 0.3
    # nested gradients at m > 5 cost the exact engine tens of seconds
    sizes = rng.choice([r for r in SIZE_RANGES if r[1] <= 5] if nested else SIZE_RANGES)
    base = rng.choice(T.IDENTITY_BASES if kind == "identity" else T.INEQUALITY_BASES)
    # A false claim's neutral tricks read 0 to a faulty tracer too, so that its reading of
    # the claim is the base, which it can prove: the poison is then all that is wrong.  A
    # true claim's read something else (a faulty reading must not refute it either).
    tricks = [_neutral(rng, f"_{k}", T.ZERO if poisoned else rng.choice(T.PAYLOADS))
              for k in range(rng.randint(1, 3))]
    if nested:  # worth 0, or (in a false identity, half the time) the poison itself
        poison_here = poisoned and kind == "identity" and rng.random() < 0.5
        tricks.insert(rng.randint(0, len(tricks)),
                      T.nested_gradients(rng, "_p" if poison_here else "_n", rng.randint(1, 3), poison_here))
        poisoned = poisoned and not poison_here
    if poisoned:
        tricks.insert(rng.randint(0, len(tricks)), _poison(rng, "_p", kind, base, sizes))
    if rng.random() < 0.35:
        tricks.append(T.dead_step(rng, "_x"))
    for k, t in enumerate(tricks):  # names identify tricks in reports and in placement
        t.name = f"{t.name} #{k}"
    in_module = {t.name for t in tricks if t.source and rng.random() < 0.5}
    lo, hi = sizes
    exact = (lo, min(hi, lo + 1)) if kind == "identity" and rng.random() < 0.3 else None
    claim = Generated(seed, kind, sizes, exact, base, tricks, in_module, {})
    poison = claim.poison
    if poison is not None and not claim.false_somewhere:
        return None
    if rng.random() < 0.12:
        m = hi + 1  # one past the largest size: the claim says nothing there
    elif poison is not None:  # at a size where the poison shows
        m = rng.choice([k for k in (lo, hi) if claim.false_at_size(k)]
                       or [k for k in range(lo, hi + 1) if claim.false_at_size(k)])
    else:
        m = rng.choice((lo, hi))
    want = REFUTED if poison is not None else HOLDS
    for _ in range(20):
        claim.instance = generic_instance(rng, m)
        verdict = claim.judge(claim.instance, dead_steps=False)
        if verdict in (want, OUTSIDE_SIZES):
            return claim
        if poison is None:
            raise GeneratorBug(f"{claim.describe()}: a true claim is {verdict} at {claim.instance}")
    return None


if __name__ == "__main__":
    generated = generate(int(sys.argv[1]))
    print(generated.describe())
    print("instance:", json.dumps(generated.data()), "->", generated.judge(generated.instance))
    if len(sys.argv) > 2:
        print("written:", generated.write(Path(sys.argv[2])))
    else:
        for name, text in generated.files().items():
            print(f"# ---- {name}\n{text}")
