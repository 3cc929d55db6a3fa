"""Certificates of Lemma 4.5 with witnesses: each witness is verified against the
exact instance by multiplication, the ranks by elimination (algebra.rank), all under
a work bound computed before any arithmetic; the verdict is recomputed, nothing is
searched.  The claim's text is a constant here, so it cannot be changed."""

from fractions import Fraction

from .algebra import Budget, dot, gram_int, imatvec, integral, rank, scale, transpose
from .surds import sign
from .parse import (MAX_D, MAX_LEMMA_WORK, MAX_WITNESS_DIGITS, Rejected, array, check_envelope,
                    flat, instance_bits, keys, lemma_work, vector)
from .variables import bind

CLAIM_ID = "lemma-4.5"
SOURCE = ("S. Santurkar, D. Tsipras, A. Ilyas, A. Madry, How does batch normalization help "
          "optimization?, NeurIPS 2018 (arXiv:1805.11604), Lemma 4.5, p. 8")
STATEMENT = (r"\left\|W_0-\widehat{W}^*\right\|^2 \leq \left\|W_0-W^*\right\|^2"
             r"-\frac{1}{\left\|W^*\right\|^2}\left(\left\|W^*\right\|^2-\left\langle W^*,W_0"
             r"\right\rangle\right)^2, \quad \text{if } \left\langle W_0,W^*\right\rangle>0")
FACTS = ("normal-equations", "unique-minimum", "bn-optimum-set", "closest-bn-optimum",
         "hypothesis", "residual")
REFUTED, HOLDS, NOT_MET = "refuted", "holds", "hypothesis-not-met"
VARIABLES = [("X", ["m", "d"], "real"), ("Y", ["m", "n"], "real"), ("W0", ["n", "d"], "real"),
             ("gamma", ["n"], "real"), ("beta", ["n"], "real")]
TOP = {"format", "version", "bnproof_version", "claim", "instance", "witnesses", "obligations",
       "verdict", "digest"}
NEURON = {"W_star", "bn_optimum", "verdict"}


class Batch:
    """What every neuron shares, in integers: Xi = L X for the lcm L of X's denominators,
    G = Xi^T Xi = L^2 X^T X, s = Xi^T 1, Gc = m G - s s^T = m L^2 Xc^T Xc, and the ranks
    of G and Gc (a Gram matrix is positive definite exactly when it is nonsingular)."""

    def __init__(self, X, budget: Budget):
        self.m, self.d, self.L = len(X), len(X[0]), scale(flat(X))
        self.Xi = [[x.numerator * (self.L // x.denominator) for x in row] for row in X]
        self.Xt = transpose(self.Xi)
        self.G = gram_int(self.Xt)
        self.s = [sum(col) for col in self.Xt]
        self.Gc = [[self.m * g - a * b for g, b in zip(row, self.s)] for row, a in zip(self.G, self.s)]
        self.rank_c = rank(self.Gc, budget, "the rank of Xc^T Xc")
        # Xc = (I - 11^T/m) X, so rank Xc <= rank X <= d: a full rank_c settles rank too
        self.rank = self.d if self.rank_c == self.d else rank(self.G, budget, "the rank of X^T X")

    def xty(self, y) -> list:
        """L X^T y."""
        yi, q = integral(y)
        return [Fraction(t, q) for t in imatvec(self.Xt, yi)]

    def c_scaled(self, y) -> list[int]:
        """m L q c for c = Xc^T (y - mean(y)) and y = yi/q, in integers: m Xi^T yi - s sum(yi)
        (the columns of Xc sum to 0)."""
        yi, _ = integral(y)
        total = sum(yi)
        return [self.m * t - s * total for t, s in zip(imatvec(self.Xt, yi), self.s)]

    def c(self, y) -> list:
        return [Fraction(x, self.m * self.L * scale(y)) for x in self.c_scaled(y)]

    def least_squares_ok(self, w, y) -> bool:
        """X^T X w = X^T y, that is G wi qy = L q Xi^T yi for w = wi/q, y = yi/qy."""
        (wi, q), (yi, qy) = integral(w), integral(y)
        return [qy * t for t in imatvec(self.G, wi)] == [self.L * q * t for t in imatvec(self.Xt, yi)]


def closest(w0, b, p) -> tuple[list | None, Fraction]:
    """The point of {t b + v : t > 0, v in K} nearest to w0, with p the projection of w0
    onto K and b orthogonal to K (Fact 4), or None if the open ray does not attain it;
    and the squared distance."""
    t = dot(w0, b) / dot(b, b)
    point = [t * x + q for x, q in zip(b, p)] if t > 0 else None
    gap = [x - q for x, q in zip(w0, point or p)]
    return point, dot(gap, gap)


def rhs_of(w0, w_star) -> Fraction | None:
    """The printed right-hand side; None when W* = 0 (it divides by |W*|^2)."""
    norm2, diff = dot(w_star, w_star), [x - z for x, z in zip(w0, w_star)]
    return None if norm2 == 0 else dot(diff, diff) - (norm2 - dot(w0, w_star)) ** 2 / norm2


def echelon_form(kernel) -> list[int]:
    """Where each kernel vector alone is nonzero, all of them there with one common value:
    integer vectors in echelon form, so independent (that square block is a multiple of
    the identity) and with an exact, cheap test of membership in their span."""
    for i, v in enumerate(kernel):
        if any(x.denominator != 1 for x in v):
            raise Rejected(f"witnesses.kernel[{i}]: the kernel vectors must be integer vectors")
        kernel[i] = [x.numerator for x in v]
    count = [sum(1 for v in kernel if v[j]) for j in range(len(kernel[0]))] if kernel else []
    alone = [{j: v[j] for j in range(len(v)) if v[j] and count[j] == 1} for v in kernel]
    common = set(alone[0].values()).intersection(*(a.values() for a in alone)) if kernel else {1}
    if not common:
        raise Rejected("witnesses.kernel: not in echelon form (each vector needs a coordinate "
                       "where it alone is nonzero, all with the same value there)")
    c = min(common)
    return [next(j for j, x in a.items() if x == c) for a in alone]


def check_kernel(batch: Batch, kernel) -> None:
    """The stated vectors (independent, by their echelon form) are a basis of ker Xc: in it
    (Xc v = 0 iff Xc^T Xc v = 0) and as many as d - rank(Xc)."""
    if batch.rank_c == 0:
        raise Rejected("bn-optimum-set: Xc = 0: all samples are equal, sigma is identically 0")
    for i, v in enumerate(kernel):
        if any(imatvec(batch.Gc, v)):
            raise Rejected(f"bn-optimum-set: kernel vector {i} is not in ker Xc")
    if len(kernel) != batch.d - batch.rank_c:
        raise Rejected(f"bn-optimum-set: {len(kernel)} kernel vectors, but dim ker Xc = "
                       f"{batch.d - batch.rank_c}")


def in_span(p, kernel, spots) -> bool:
    """p in the span of echelon-form integer vectors with common pivot value c: then
    c p = sum of p[spot_i] v_i, checked in integers (D p for the lcm D of p's denominators)."""
    P, _ = integral(p)
    c = kernel[0][spots[0]] if kernel else 1
    return all(c * P[j] == sum(P[s] * v[j] for s, v in zip(spots, kernel)) for j in range(len(p)))


def check_neuron(j: int, batch: Batch, kernel, spots, y, w0, gamma, w: dict) -> str:
    """The facts of neuron j in order; returns its verdict."""
    w_star = w["W_star"]

    def fail(fact, why):
        raise Rejected(f"neuron {j}: {fact}: {why}")

    if not batch.least_squares_ok(w_star, y):
        fail("normal-equations", "X^T X W* != X^T y")
    if batch.rank < batch.d:
        fail("unique-minimum", "X^T X is not positive definite")

    c = batch.c_scaled(y)  # a positive multiple of c, in integers
    if w["direction"] is None:
        if gamma != 0 and any(c):
            fail("bn-optimum-set", "stated constant, but gamma != 0 and c != 0")
        lhs = Fraction(0)  # every w with sigma(w) != 0 is optimal: the infimum is 0
    else:
        if gamma == 0 or not any(c):
            fail("bn-optimum-set", "stated a ray, but gamma = 0 or c = 0 makes the BN loss constant")
        b, p = w["direction"], w["projection"]
        # Xc^T Xc b = mu sign(gamma) c for some mu > 0: b is a positive multiple of the
        # direction, which is all that the ray {t b : t > 0} depends on (cross-multiplied)
        u, k = imatvec(batch.Gc, integral(b)[0]), next(i for i, x in enumerate(c) if x)
        if sign(u[k]) * sign(c[k]) != sign(gamma) or any(u[i] * c[k] != u[k] * x for i, x in enumerate(c)):
            fail("bn-optimum-set", "Xc^T Xc b is not a positive multiple of sign(gamma) c")
        if any(dot(b, v) for v in kernel):
            fail("bn-optimum-set", "b is not orthogonal to the kernel")
        # p is the orthogonal projection of w0 onto the kernel: in its span, w0 - p orthogonal
        if not in_span(p, kernel, spots) or any(dot([x - q for x, q in zip(w0, p)], v) for v in kernel):
            fail("closest-bn-optimum", "the projection is not that of W0 onto ker Xc")
        lhs = closest(w0, b, p)[1]

    inner, verdict = dot(w0, w_star), w["verdict"]
    if (inner <= 0) != (verdict == NOT_MET):
        fail("hypothesis", "the verdict does not match the sign of <W0, W*>")
    rhs = rhs_of(w0, w_star)
    want = NOT_MET if inner <= 0 else REFUTED if rhs - lhs < 0 else HOLDS
    if verdict != want:
        fail("residual", f"verdict should be {want}")
    return verdict


def neuron(j: int, w, d: int) -> dict:
    """A neuron's witnesses as Fractions: W_star, and direction and projection for a ray
    (None when the BN loss is stated constant), and its verdict."""
    path = f"witnesses.neurons[{j}]"
    keys(w, path, NEURON)
    bn = w["bn_optimum"]
    if type(bn) is not dict or bn.get("kind") not in ("ray", "constant"):
        raise Rejected(f"{path}.bn_optimum: kind must be \"ray\" or \"constant\"")
    ray = bn["kind"] == "ray"
    keys(bn, path + ".bn_optimum", {"kind", "direction", "projection"} if ray else {"kind"})
    if w["verdict"] not in (REFUTED, HOLDS, NOT_MET):
        raise Rejected(f"{path}.verdict: not one of {REFUTED}, {HOLDS}, {NOT_MET}")
    out = {"W_star": vector(w["W_star"], path + ".W_star", d, MAX_WITNESS_DIGITS), "verdict": w["verdict"]}
    for key in ("direction", "projection"):
        out[key] = vector(bn[key], f"{path}.bn_optimum.{key}", d, MAX_WITNESS_DIGITS) if ray else None
    return out


def read_lemma(doc: dict) -> tuple:
    """Everything but the arithmetic: structure, seal, claim, instance and witnesses, and
    the work bound.  Returns (X, Y, W0, gamma, kernel, spots, neurons)."""
    keys(doc, "document", TOP)
    claim = keys(doc["claim"], "claim", {"id", "source", "statement"})
    inst = keys(doc["instance"], "instance", {name for name, _, _ in VARIABLES} | {"loss"})
    wit = keys(doc["witnesses"], "witnesses", {"kernel", "neurons"})
    check_envelope(doc)
    if claim["id"] != CLAIM_ID:
        raise Rejected("unknown claim " + (ascii(claim["id"][:60]) if type(claim["id"]) is str
                                           else "id (not a string)"))
    if claim["statement"] != STATEMENT:
        raise Rejected("claim statement differs from the printed statement of lemma-4.5")
    if claim["source"] != SOURCE:
        raise Rejected("claim source differs from the source of lemma-4.5")
    if inst["loss"] not in ("sum", "mean"):  # s = 1 or 1/m scales C and C^ and moves no optimum
        raise Rejected("instance.loss: must be \"sum\" or \"mean\"")
    values = bind(VARIABLES, {k: v for k, v in inst.items() if k != "loss"})
    X, Y, W0, gamma = (values[k] for k in ("X", "Y", "W0", "gamma"))
    m, d, n = len(X), len(X[0]), len(gamma)
    if m < 2:  # beta moves no optimum: only its format matters
        raise Rejected("instance.X: at least 2 samples are needed (m >= 2)")
    if d > MAX_D or n > MAX_D:
        raise Rejected(f"instance: d = {d} and n = {n} may be at most {MAX_D}")
    kernel = [vector(v, f"witnesses.kernel[{i}]", d, MAX_WITNESS_DIGITS)
              for i, v in enumerate(array(wit["kernel"], "witnesses.kernel", d))]
    spots = echelon_form(kernel)
    neurons = [neuron(j, w, d) for j, w in enumerate(array(wit["neurons"], "witnesses.neurons", MAX_D, n))]
    expected = [{"neuron": j, "fact": fact} for j in range(n) for fact in FACTS]
    for i, item in enumerate(array(doc["obligations"], "obligations", len(expected), len(expected))):
        if type(item) is not dict or type(item.get("neuron")) is not int or item != expected[i]:
            raise Rejected(f"obligations[{i}]: expected neuron {expected[i]['neuron']}, "
                           f"fact {expected[i]['fact']}")
    wbits = max((abs(x.numerator).bit_length() + x.denominator.bit_length() for w in neurons
                 for key in ("W_star", "direction", "projection") for x in w[key] or []), default=0)
    kbits = max((abs(x).bit_length() for v in kernel for x in v), default=0)
    work = lemma_work(m, d, instance_bits(flat([X, Y, W0])), n, wbits, len(kernel), kbits)
    if work > MAX_LEMMA_WORK:
        raise Rejected(f"too much arithmetic: {work:.2e} work units a priori, more than the "
                       f"checker's limit {MAX_LEMMA_WORK:.0e}")
    return X, Y, W0, gamma, kernel, spots, neurons


def check_lemma(doc: dict) -> str:
    """A Lemma 4.5 certificate with witnesses; returns "<claim id> <verdict>"."""
    X, Y, W0, gamma, kernel, spots, neurons = read_lemma(doc)
    batch = Batch(X, Budget(MAX_LEMMA_WORK))
    check_kernel(batch, kernel)
    verdicts = [check_neuron(j, batch, kernel, spots, [row[j] for row in Y], W0[j], gamma[j], w)
                for j, w in enumerate(neurons)]
    want = REFUTED if REFUTED in verdicts else NOT_MET if NOT_MET in verdicts else HOLDS
    if doc["verdict"] != want:
        raise Rejected(f"document verdict should be {want}")
    return f"{CLAIM_ID} {want}"
