"""Certificates of Lemma 4.5 with witnesses: each witness is recomputed from the
exact instance by the formulas of docs/certificates.md and compared, nothing is
searched.  The claim's text is a constant here, so it cannot be changed."""

from fractions import Fraction

from .algebra import dot, gram, matvec, rank, sign, solve, surd_equal, transpose
from .parse import MAX_D, Rejected, array, check_envelope, keys, rational, take, tensor, vector

CLAIM_ID = "lemma-4.5"
SOURCE = ("S. Santurkar, D. Tsipras, A. Ilyas, A. Madry, How does batch normalization help "
          "optimization?, NeurIPS 2018 (arXiv:1805.11604), Lemma 4.5, p. 8")
STATEMENT = (r"\left\|W_0-\widehat{W}^*\right\|^2 \leq \left\|W_0-W^*\right\|^2"
             r"-\frac{1}{\left\|W^*\right\|^2}\left(\left\|W^*\right\|^2-\left\langle W^*,W_0"
             r"\right\rangle\right)^2, \quad \text{if } \left\langle W_0,W^*\right\rangle>0")
FACTS = ("normal-equations", "unique-minimum", "bn-optimum-set", "closest-bn-optimum",
         "grad-bn-at-W-star", "hypothesis", "residual")
REFUTED, HOLDS, NOT_MET = "refuted", "holds", "hypothesis-not-met"
INSTANCE = ("X", "Y", "W0", "gamma", "beta")
TOP = {"format", "version", "bnproof_version", "claim", "instance", "witnesses", "obligations",
       "verdict", "digest"}
NEURON = {"W_star", "bn_optimum", "closest_bn_optimum", "grad_bn_at_W_star",
          "inner_W0_W_star", "lhs", "rhs", "residual", "verdict"}


class Batch:
    """What every neuron shares: X, the centred batch Xc, their Gram matrices."""

    def __init__(self, X):
        self.m, self.d = len(X), len(X[0])
        mean = [sum(col, Fraction(0)) / self.m for col in zip(*X)]
        self.X, self.Xt, self.G = X, transpose(X), gram(X)
        self.Xc = [[x - mu for x, mu in zip(row, mean)] for row in X]
        self.Xct, self.Gc = transpose(self.Xc), gram(self.Xc)
        # a Gram matrix is positive definite exactly when it is nonsingular
        self.pd, self.rank_c = rank(self.G) == self.d, rank(self.Gc)

    def c(self, y) -> list:
        """Xc^T (y - mean(y)) = Xc^T y, since the columns of Xc sum to 0."""
        return matvec(self.Xct, y)

    def least_squares(self, y) -> list:
        return solve(self.G, matvec(self.Xt, y))

    def bn_gradient(self, y, w, gamma, s) -> tuple[list, Fraction]:
        """(u, rho) with grad C^(w) = u sqrt(rho), rho = sigma(w)^2 != 0 (Fact 2;
        1/sigma = sqrt(rho)/rho keeps u rational)."""
        c, xw = self.c(y), matvec(self.Xc, w)
        rho = dot(xw, xw) / self.m
        if rho == 0:
            raise Rejected("sigma(W*) = 0: the BN network is undefined at W*")
        k = dot(c, w) / (self.m * rho)
        gw = matvec(self.Xct, xw)
        return [-(2 * s * gamma / rho) * (ci - k * gi) for ci, gi in zip(c, gw)], rho


def closest(w0, b, kernel) -> tuple[list | None, Fraction]:
    """The point of {t b + v : t > 0, v in span(kernel)} nearest to w0 (None if the open
    ray does not attain it) and the squared distance; b is orthogonal to the kernel,
    so the ray and the subspace split (Fact 4)."""
    p = [Fraction(0)] * len(w0)
    if kernel:
        p = matvec(transpose(kernel), solve(gram(transpose(kernel)), matvec(kernel, w0)))
    t = dot(w0, b) / dot(b, b)
    point = [t * x + q for x, q in zip(b, p)] if t > 0 else None
    gap = [x - q for x, q in zip(w0, point or p)]
    return point, dot(gap, gap)


def rhs_of(w0, w_star) -> Fraction | None:
    """The printed right-hand side; None when W* = 0 (it divides by |W*|^2)."""
    norm2, diff = dot(w_star, w_star), [x - z for x, z in zip(w0, w_star)]
    return None if norm2 == 0 else dot(diff, diff) - (norm2 - dot(w0, w_star)) ** 2 / norm2


def check_neuron(j: int, batch: Batch, y, w0, gamma, loss, w: dict) -> str:
    """Check the seven facts of neuron j in order; return its verdict."""
    d, path = batch.d, f"witnesses.neurons[{j}]"
    keys(w, path, NEURON)
    gpath = path + ".grad_bn_at_W_star"
    grad = keys(w["grad_bn_at_W_star"], gpath, {"rational", "coefficients", "radicand"})
    bn = w["bn_optimum"]
    kind = bn.get("kind") if type(bn) is dict else None
    if kind not in ("ray", "constant"):
        raise Rejected(f"{path}.bn_optimum: kind must be \"ray\" or \"constant\"")
    keys(bn, path + ".bn_optimum", {"kind", "direction", "kernel"} if kind == "ray" else {"kind"})

    def fail(fact, why):
        raise Rejected(f"neuron {j}: {fact}: {why}")

    w_star = vector(w["W_star"], path + ".W_star", d)
    if matvec(batch.G, w_star) != matvec(batch.Xt, y):
        fail("normal-equations", "X^T X W* != X^T y")
    if not batch.pd:
        fail("unique-minimum", "X^T X is not positive definite")

    if batch.rank_c == 0:
        fail("bn-optimum-set", "Xc = 0: all samples are equal, sigma is identically 0")
    c = batch.c(y)
    if kind == "ray":
        if gamma == 0 or not any(c):
            fail("bn-optimum-set", "stated a ray, but gamma = 0 or c = 0 makes the BN loss constant")
        b = vector(bn["direction"], path + ".bn_optimum.direction", d)
        kernel = [vector(v, f"{path}.bn_optimum.kernel[{i}]", d)
                  for i, v in enumerate(array(bn["kernel"], path + ".bn_optimum.kernel", MAX_D))]
        if matvec(batch.Gc, b) != [sign(gamma) * x for x in c]:
            fail("bn-optimum-set", "Xc^T Xc b != sign(gamma) c")
        for i, v in enumerate(kernel):
            if any(matvec(batch.Xc, v)) or dot(b, v) != 0:
                fail("bn-optimum-set", f"kernel vector {i} is not in ker Xc or not orthogonal to b")
        if rank(kernel) != len(kernel):
            fail("bn-optimum-set", "the kernel vectors are linearly dependent")
        if len(kernel) != d - batch.rank_c:
            fail("bn-optimum-set", f"{len(kernel)} kernel vectors, but dim ker Xc = {d - batch.rank_c}")
        want, want_lhs = closest(w0, b, kernel)
    elif gamma != 0 and any(c):
        fail("bn-optimum-set", "stated constant, but gamma != 0 and c != 0")
    else:  # constant: every w with sigma(w) != 0 is optimal, w0 itself if it qualifies
        want, want_lhs = (w0 if any(matvec(batch.Xc, w0)) else None), Fraction(0)
    point = w["closest_bn_optimum"]
    if (None if point is None else vector(point, path + ".closest_bn_optimum", d)) != want:
        fail("closest-bn-optimum", "the stated point is not the nearest point of the BN optimum set")
    lhs = rational(w["lhs"], path + ".lhs")
    if lhs != want_lhs:
        fail("closest-bn-optimum", "lhs is not the squared distance to the BN optimum set")

    try:
        s = Fraction(1) if loss == "sum" else Fraction(1, batch.m)
        u, rho = batch.bn_gradient(y, w_star, gamma, s)
    except Rejected as exc:
        fail("grad-bn-at-W-star", str(exc))
    ra, co = (vector(grad[k], f"{gpath}.{k}", d) for k in ("rational", "coefficients"))
    r = rational(grad["radicand"], gpath + ".radicand")
    if r < 0:
        fail("grad-bn-at-W-star", "negative radicand")
    for i in range(d):
        if not surd_equal(ra[i], co[i], r, Fraction(0), u[i], rho):
            fail("grad-bn-at-W-star", f"entry {i} differs from the BN gradient at W*")

    inner = rational(w["inner_W0_W_star"], path + ".inner_W0_W_star")
    if inner != dot(w0, w_star):
        fail("hypothesis", "inner_W0_W_star != <W0, W*>")
    verdict = w["verdict"]
    if verdict not in (REFUTED, HOLDS, NOT_MET) or (inner <= 0) != (verdict == NOT_MET):
        fail("hypothesis", "the verdict does not match the sign of <W0, W*>")

    rhs = rhs_of(w0, w_star)
    if (None if w["rhs"] is None else rational(w["rhs"], path + ".rhs")) != rhs:
        fail("residual", "rhs differs from the right-hand side of the inequality")
    res = None if rhs is None else rhs - lhs
    if (None if w["residual"] is None else rational(w["residual"], path + ".residual")) != res:
        fail("residual", "residual != rhs - lhs")
    want_verdict = NOT_MET if inner <= 0 else REFUTED if res < 0 else HOLDS
    if verdict != want_verdict:
        fail("residual", f"verdict should be {want_verdict}")
    return verdict


def check_lemma(doc: dict) -> str:
    """A Lemma 4.5 certificate with witnesses; returns "<claim id> <verdict>"."""
    keys(doc, "document", TOP)
    claim = keys(doc["claim"], "claim", {"id", "source", "statement"})
    inst = keys(doc["instance"], "instance", {*INSTANCE, "loss"})
    keys(doc["witnesses"], "witnesses", {"neurons"})
    check_envelope(doc)
    if claim["id"] != CLAIM_ID:
        raise Rejected("unknown claim " + (ascii(claim["id"][:60]) if type(claim["id"]) is str
                                           else "id (not a string)"))
    if claim["statement"] != STATEMENT:
        raise Rejected("claim statement differs from the printed statement of lemma-4.5")
    if claim["source"] != SOURCE:
        raise Rejected("claim source differs from the source of lemma-4.5")

    if inst["loss"] not in ("sum", "mean"):
        raise Rejected("instance.loss: must be \"sum\" or \"mean\"")
    X, Y, W0, gamma, _beta = take({k: tensor(inst[k], "instance." + k) for k in INSTANCE},
                                  X="md", Y="mn", W0="nd", gamma="n", beta="n")
    if len(X) < 2:  # beta moves no optimum: only its format matters
        raise Rejected("instance.X: at least 2 samples are needed (m >= 2)")
    n = len(gamma)

    neurons = array(doc["witnesses"]["neurons"], "witnesses.neurons", MAX_D, n)
    batch = Batch(X)
    verdicts = [check_neuron(j, batch, [row[j] for row in Y], W0[j], gamma[j], inst["loss"], w)
                for j, w in enumerate(neurons)]
    expected = [{"neuron": j, "fact": fact} for j in range(n) for fact in FACTS]
    for i, item in enumerate(array(doc["obligations"], "obligations", 7 * MAX_D, 7 * n)):
        if type(item) is not dict or type(item.get("neuron")) is not int or item != expected[i]:
            raise Rejected(f"obligations[{i}]: expected neuron {expected[i]['neuron']}, "
                           f"fact {expected[i]['fact']}")
    want = REFUTED if REFUTED in verdicts else NOT_MET if NOT_MET in verdicts else HOLDS
    if doc["verdict"] != want:
        raise Rejected(f"document verdict should be {want}")
    return f"{CLAIM_ID} {want}"
