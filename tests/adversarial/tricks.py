"""The pieces generated claims are made of: each is Python code against `xp` together
with the value that code has under numpy's semantics, as a SymPy expression in the
entries of the inputs (y, g: batch vectors of length m; a, b: scalars).

The value is written from the mathematics, never by running bnproof: sums, means,
σ and ŷ by their definitions, derivatives by `sympy.diff`.  A *trick* wraps a value
in Python that numpy reads one way and a faulty tracer (or forward mode without a tag
per gradient call) another: try/except around an operation some backend refuses,
isinstance/getattr/len introspection, copies, closures over module globals, nested
gradients, and dead steps.  A *neutral* trick is worth 0 under numpy (its decoy, what
a faulty reading sees, is not), a *poison* trick is worth something nonzero (its
decoy is 0): a claim with a poison trick is false, one without is true."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable

import sympy

# ------------------------------------------------------------------ the mathematics


@dataclass(frozen=True)
class Env:
    """Symbols for one batch size m: y0..y{m-1}, g0..g{m-1}, a, b."""

    m: int
    y: tuple
    g: tuple
    a: sympy.Symbol
    b: sympy.Symbol

    @classmethod
    def at(cls, m: int) -> "Env":
        return cls(m, sympy.symbols(f"y0:{m}", real=True), sympy.symbols(f"g0:{m}", real=True),
                   sympy.Symbol("a", real=True), sympy.Symbol("b", real=True))

    def values(self, instance: dict) -> dict:
        """Substitutions for an instance {"y": [...], "g": [...], "a": q, "b": q} of Fractions."""
        subs = {self.a: _rational(instance["a"]), self.b: _rational(instance["b"])}
        for name in ("y", "g"):
            subs.update({s: _rational(v) for s, v in zip(getattr(self, name), instance[name])})
        return subs


def _rational(x) -> sympy.Rational:
    x = Fraction(x)
    return sympy.Rational(x.numerator, x.denominator)


def total(v) -> sympy.Expr:
    return sympy.Add(*v)


def mean(v) -> sympy.Expr:
    return total(v) / len(v)


def sigma(v) -> sympy.Expr:
    mu = mean(v)
    return sympy.sqrt(total([(x - mu) ** 2 for x in v]) / len(v))


def yhat(v) -> list:
    mu, s = mean(v), sigma(v)
    return [(x - mu) / s for x in v]


def dot(u, v) -> sympy.Expr:
    return total([x * y for x, y in zip(u, v)])


Math = Callable[[Env], sympy.Expr]


@dataclass(frozen=True)
class Piece:
    """Code (an expression in xp, y, g, a, b) and its value under numpy."""

    code: str
    math: Math


ZERO = Piece("xp.sum(y) - xp.sum(y)", lambda e: sympy.Integer(0))

# Nonzero at a generic instance (Σy ≠ 0, Σyg ≠ 0, a, b ≠ 0, y not constant); some vanish
# exactly at the degenerate instances a witness search likes (Σy = 0, constant y, a = 0).
PAYLOADS = (
    Piece("xp.sum(y)", lambda e: total(e.y)),
    Piece("xp.sum(y * g)", lambda e: dot(e.y, e.g)),
    Piece("a * xp.sum(g)", lambda e: e.a * total(e.g)),
    Piece("xp.q(1, 2)", lambda e: sympy.Rational(1, 2)),
    Piece("xp.sum((y - xp.mean(y)) ** 2)", lambda e: total([(x - mean(e.y)) ** 2 for x in e.y])),
    Piece("a * b * xp.sum(y)", lambda e: e.a * e.b * total(e.y)),
    Piece("a * b * xp.sum(y * g)", lambda e: e.a * e.b * dot(e.y, e.g)),
)


def _grad_base(e: Env) -> sympy.Expr:
    f = total([x * x * w for x, w in zip(e.y, e.g)])
    return total([w * sympy.diff(f, x) for x, w in zip(e.y, e.g)]) - 2 * total([x * w * w for x, w in zip(e.y, e.g)])


# Identities that hold for every m (their value is computed from both sides, so that
# tests/test_adversarial_claims.py's check of the generator sees them vanish).
IDENTITY_BASES = (
    Piece("xp.sum(y * g) - xp.dot(y, g)", lambda e: total([x * w for x, w in zip(e.y, e.g)]) - dot(e.y, e.g)),
    Piece("xp.sum(y - xp.mean(y))", lambda e: total([x - mean(e.y) for x in e.y])),
    Piece("xp.mean(y) * y.shape[0] - xp.sum(y)", lambda e: mean(e.y) * e.m - total(e.y)),
    Piece("(xp.sum(y) + a) ** 2 - (xp.sum(y) ** 2 + 2 * a * xp.sum(y) + a ** 2)",
          lambda e: (total(e.y) + e.a) ** 2 - (total(e.y) ** 2 + 2 * e.a * total(e.y) + e.a ** 2)),
    Piece("xp.sum(xp.grad(lambda t: xp.sum(t * t * g), y) * g) - 2 * xp.sum(y * g * g)", _grad_base),
    Piece("xp.sum(normalize(xp, y)[0] ** 2) - y.shape[0]", lambda e: total([h ** 2 for h in yhat(e.y)]) - e.m),
)

# Inequalities (residual ≥ 0) that hold for every m under the hypothesis σ > 0.
INEQUALITY_BASES = (
    Piece("xp.sum((y - xp.mean(y)) ** 2)", lambda e: total([(x - mean(e.y)) ** 2 for x in e.y])),
    Piece("xp.sum(y * y)", lambda e: total([x * x for x in e.y])),
    Piece("y.shape[0] * xp.sum(y * y) - xp.sum(y) ** 2", lambda e: e.m * total([x * x for x in e.y]) - total(e.y) ** 2),
)


# ------------------------------------------------------------------ tricks


def _always(instance: dict) -> bool:
    return True


@dataclass
class Trick:
    """One trick: module-level source (its helper and anything the helper needs), the
    call the residual makes, and its value under numpy."""

    name: str
    source: str  # module-level definitions; the helper it defines is called `function`
    function: str
    math: Math
    poison: bool
    imports: frozenset = frozenset()  # "copy", "numpy"
    threshold: int | None = None  # a poison worth something only at m >= threshold
    dead: str | None = None  # a statement of the residual whose value nothing reads
    defined: Callable[[dict], bool] = field(default=_always)  # is the dead step defined here?
    # issue 22 lets a tracer refuse introspection, copies and caught refusals (bad input, or
    # outside the fragment); closures, nested gradients and dead steps are the language's own
    refusable: bool = True

    @property
    def call(self) -> str:
        return f"{self.function}(xp, y, g, a, b)"


def _helper(function: str, body: list[str]) -> str:
    lines = [f"def {function}(xp, y, g, a, b):"] + ["    " + line for line in body]
    return "\n".join(lines) + "\n"


# Operations the symbolic-length tracer refuses (by raising), each defined everywhere
# under numpy: a try/except around one of them takes its fallback only under that tracer.
REFUSED = ("_probe = xp.abs(a * a + 1)", "_probe = xp.maximum(a, b)", "_probe = y[0] * 0",
           "_probe = xp.relu(xp.sum(y * y))", "_probe = xp.max(y)")


def try_refused(rng: random.Random, tag: str, value: Piece, decoy: Piece, poison: bool) -> Trick:
    """try: <refused operation>; return value — except Exception: return decoy."""
    function = f"_caught{tag}"
    body = ["try:", f"    {rng.choice(REFUSED)}", f"    return {value.code}",
            "except Exception:", f"    return {decoy.code}"]
    return Trick("try/except around a refused operation", _helper(function, body), function, value.math, poison)


def try_threshold(rng: random.Random, tag: str, value: Piece, threshold: int) -> Trick:
    """The value only at m >= threshold; comparing the symbolic m raises, and the fallback
    says "not reached" (a poison that a faulty proof for every m never sees)."""
    function = f"_from_m{tag}"
    body = ["try:", f"    reached = y.shape[0] >= {threshold}", "except Exception:", "    reached = False",
            "if reached:", f"    return {value.code}", f"return {ZERO.code}"]

    def math(e: Env) -> sympy.Expr:
        return value.math(e) if e.m >= threshold else sympy.Integer(0)

    return Trick(f"try/except around a comparison of m (threshold {threshold})", _helper(function, body),
                 function, math, True, threshold=threshold)


def introspect_isinstance(rng: random.Random, tag: str, value: Piece, decoy: Piece, poison: bool) -> Trick:
    function = f"_if_array{tag}"
    body = ["if isinstance(y, np.ndarray):", f"    return {value.code}", f"return {decoy.code}"]
    return Trick("isinstance(y, np.ndarray)", _helper(function, body), function, value.math, poison,
                 imports=frozenset({"numpy"}))


def introspect_size(rng: random.Random, tag: str, payload: Piece, poison: bool) -> Trick:
    """(getattr(y, "size", 1) − k)·payload: k = 1 (poison, worth (m − 1)·payload) or
    k = m (neutral); an object without `size` reads 1."""
    function = f"_sized{tag}"
    k = "1" if poison else "y.shape[0]"
    body = [f'return (getattr(y, "size", 1) - {k}) * ({payload.code})']

    def math(e: Env) -> sympy.Expr:
        return (e.m - 1) * payload.math(e) if poison else sympy.Integer(0)

    return Trick('getattr(y, "size", 1)', _helper(function, body), function, math, poison)


def introspect_len(rng: random.Random, tag: str, payload: Piece, poison: bool) -> Trick:
    """As introspect_size with len(y) in a try (an object without a length reads 1)."""
    function = f"_counted{tag}"
    k = "1" if poison else "y.shape[0]"
    body = ["try:", "    n = len(y)", "except Exception:", "    n = 1", f"return (n - {k}) * ({payload.code})"]

    def math(e: Env) -> sympy.Expr:
        return (e.m - 1) * payload.math(e) if poison else sympy.Integer(0)

    return Trick("len(y) in a try", _helper(function, body), function, math, poison)


def copies(rng: random.Random, tag: str, payload: Piece, poison: bool, of_input: bool = True) -> Trick:
    """copy.deepcopy / copy.copy of a computed value or (of_input) of an input vector:
    worth the copied value (poison) or the copy minus the original (neutral)."""
    function = f"_copied{tag}"
    how = rng.choice(("copy.deepcopy", "copy.copy"))
    if of_input and rng.random() < 0.5:
        copied, math = f"xp.sum({how}(y) * g)", (lambda e: dot(e.y, e.g))
        original = "xp.sum(y * g)"
    else:
        copied, math, original = f"{how}({payload.code})", payload.math, payload.code
    body = [f"return {copied}" if poison else f"return {copied} - ({original})"]
    return Trick(f"{how}", _helper(function, body), function,
                 math if poison else (lambda e: sympy.Integer(0)), poison, imports=frozenset({"copy"}))


def closure(rng: random.Random, tag: str, payload: Piece, poison: bool) -> Trick:
    """A module global read through a closure: factor·payload − (factor − [poison])·payload."""
    factor = rng.randint(2, 5)
    function = f"_scaled{tag}"
    source = (f"_FACTOR{tag} = {factor}\n\n\n"
              f"def _scaler{tag}(k):\n    def apply(v):\n        return k * v\n    return apply\n\n\n")
    minus = factor - 1 if poison else factor
    source += _helper(function, [f"return _scaler{tag}(_FACTOR{tag})({payload.code}) - {minus} * ({payload.code})"])
    math = payload.math if poison else (lambda e: sympy.Integer(0))
    return Trick("a closure over a module global", source, function, math, poison, refusable=False)


# The inner function of the nested gradients: f = a^ka · b^kb · h(t), h by its definition.
H_FUNCTIONS = (
    ("xp.sum(t * t * t)", lambda e, t: total([x ** 3 for x in t])),
    ("xp.sum(g * t * t)", lambda e, t: total([w * x * x for w, x in zip(e.g, t)])),
    ("xp.sum(g * normalize(xp, t)[0])", lambda e, t: dot(e.g, yhat(t))),
    ("xp.sum(t * g) ** 2", lambda e, t: dot(t, e.g) ** 2),
)


def nested_gradients(rng: random.Random, tag: str, depth: int, poison: bool) -> Trick:
    """Euler's relation for f = a^ka·b^kb·h(y), homogeneous in a and b, through `depth`
    gradients, each inner function reading the outer gradient's variable:
    depth 1: a·∂f/∂a = ka·f; depth 2: a·∂D/∂a = ka·D with D = Σ g∘∇_y f;
    depth 3: b·∂(a·∂D/∂a)/∂b = ka·kb·D.  The poison states one coefficient one too big."""
    ka, kb = rng.randint(1, 2), rng.randint(1, 2)
    h_code, h_math = rng.choice(H_FUNCTIONS)
    f, d, e_ = f"_f{tag}", f"_d{tag}", f"_e{tag}"
    source = (f"def {f}(xp, t, g, a, b):\n    return a ** {ka} * b ** {kb} * ({h_code})\n\n\n"
              f"def {d}(xp, y, g, a, b):\n    return xp.sum(g * xp.grad(lambda t: {f}(xp, t, g, a, b), y))\n\n\n"
              f"def {e_}(xp, y, g, a, b):\n    return a * xp.grad(lambda A: {d}(xp, y, g, A, b), a)\n\n\n")
    function = f"_euler{tag}"
    if depth == 1:
        coefficient, body = ka, f"a * xp.grad(lambda A: {f}(xp, y, g, A, b), a) - {{c}} * {f}(xp, y, g, a, b)"
    elif depth == 2:
        coefficient, body = ka, f"{e_}(xp, y, g, a, b) - {{c}} * {d}(xp, y, g, a, b)"
    else:
        coefficient, body = ka * kb, f"b * xp.grad(lambda B: {e_}(xp, y, g, a, B), b) - {{c}} * {d}(xp, y, g, a, b)"
    stated = coefficient + 1 if poison else coefficient
    source += _helper(function, ["return " + body.format(c=stated)])

    def math(e: Env) -> sympy.Expr:
        fx = e.a ** ka * e.b ** kb * h_math(e, e.y)
        if depth == 1:
            return e.a * sympy.diff(fx, e.a) - stated * fx
        D = total([w * sympy.diff(fx, x) for w, x in zip(e.g, e.y)])
        if depth == 2:
            return e.a * sympy.diff(D, e.a) - stated * D
        return e.b * sympy.diff(e.a * sympy.diff(D, e.a), e.b) - stated * D

    return Trick(f"nested gradients, depth {depth}", source, function, math, poison, refusable=False)


# Statements whose value nothing reads, and where each is defined (exactly, at an
# instance of Fractions).  "sqrt of a negative" is defined only at a = 0.
DEAD_STEPS = (
    ("1 / xp.sum(y * y)", lambda x: any(v != 0 for v in x["y"])),
    ("1 / a", lambda x: Fraction(x["a"]) != 0),
    ("xp.sqrt(xp.sum((y - xp.mean(y)) ** 2))", _always),
    ("xp.sqrt(-(a * a))", lambda x: Fraction(x["a"]) == 0),
)


def dead_step(rng: random.Random, tag: str) -> Trick:
    code, defined = rng.choice(DEAD_STEPS)
    return Trick(f"a dead step {code}", "", "", lambda e: sympy.Integer(0), False,
                 dead=f"_dead{tag} = {code}", defined=defined, refusable=False)
