"""The checker's own residual for each claim of the papers, so that a certificate
cannot refute a paper's claim with a program of its choosing.

Each formula is written from the claim's statement as printed (and the reading
stated in its proofs/ file and in docs/certificates.md), not from bnproof's
claim code: derivatives of the BN map come from its definition by the chain
rule, never from the Facts C.1/C.2 under test.  Values are exact, in Q or in
Q(sqrt r) for one r (sigma^2 or m), so signs and equalities are decided by
algebra.  A claim's text is pinned by the SHA-256 of its canonical JSON."""

from __future__ import annotations

from fractions import Fraction

from .algebra import dot, matvec, root, sign, solve
from .lemma import MAX_D, MAX_M, Batch, closest, rhs_of
from .parse import Rejected, sha256_of

PAPERS = ("santurkar2018/", "dannemann2025/")


def need(ok: bool, what: str) -> None:
    if not ok:
        raise Rejected(f"outside the claim's hypotheses: {what}")


def take(variables: dict, **shapes) -> list:
    """The values of the claim's variables, which must be exactly these, with these
    shapes: "" a scalar, "m" a vector of size m, "mm" or "md" a matrix."""
    if set(variables) != set(shapes):
        raise Rejected(f"instance: the variables must be {', '.join(sorted(shapes))}")
    sizes = {}

    def fits(value, shape):
        if not shape:
            return type(value) is not list
        most = MAX_M if shape[0] == "m" else MAX_D
        return (type(value) is list and 0 < len(value) <= most
                and sizes.setdefault(shape[0], len(value)) == len(value)
                and all(fits(x, shape[1:]) for x in value))
    for name, shape in shapes.items():
        if not fits(variables[name], shape):
            raise Rejected(f"instance.{name}: not of the claim's shape ({shape or 'a number'})")
    return [variables[name] for name in shapes]


class Unit:
    """One BN unit over a batch y: yhat = (y - mu)/sigma, sigma^2 = |y - mu|^2/m."""

    def __init__(self, y):
        self.m = len(y)
        self.mu = sum(y, Fraction(0)) / self.m
        self.yc = [v - self.mu for v in y]
        self.r = dot(self.yc, self.yc) / self.m
        need(self.r != 0, "sigma = 0")
        self.s = root(self.r)
        self.yhat = [v / self.s for v in self.yc]

    def w(self, u) -> list:
        """sigma * (d/dt) yhat(y + t u) at t = 0, a rational vector: with uc = u - mean(u),
        (d/dt)(yc + t uc)/sigma(t) = uc/sigma - yc sigma'/sigma^2, sigma' = <yc, u>/(m sigma)."""
        mean, k = sum(u, Fraction(0)) / self.m, dot(self.yc, u) / (self.m * self.r)
        return [x - mean - c * k for x, c in zip(u, self.yc)]

    def quad(self, u, g, H, gamma):
        """u^T (Hessian of L^ in y) u for L^(y) = f(gamma yhat + beta), grad f = g,
        Hessian of f = H: the second derivative of L^(y + t u) at t = 0, which is
        gamma^2 J(u)^T H J(u) + gamma <g, yhat''>.  With n = yc + t uc and sigma(t):
        yhat'' = -2 uc s1/sigma^2 - yc s2/sigma^2 + 2 yc s1^2/sigma^3,
        s1 = <yc, u>/(m sigma), s2 = (|uc|^2/m - s1^2)/sigma."""
        s, ju, mean = self.s, [x / self.s for x in self.w(u)], sum(u, Fraction(0)) / self.m
        uc = [x - mean for x in u]
        s1 = dot(self.yc, u) / (self.m * s)
        s2 = (dot(uc, uc) / self.m - s1 * s1) / s
        second = [(-2 * x * s1 - c * s2) / self.r + 2 * c * s1 * s1 / (self.r * s)
                  for x, c in zip(uc, self.yc)]
        return gamma * gamma * dot(ju, matvec(H, ju)) + gamma * dot(g, second)


def nonzero(gamma) -> None:
    need(gamma != 0, "gamma = 0 (the claim needs gamma != 0)")


def theorem_4_1(c):
    """|grad_y L^|^2 <= gamma^2/sigma^2 (|g|^2 - <1, g>^2/m - c(m) <g, yhat>^2), with
    grad_y L^ = gamma J g, g = grad_z L^ = grad_y L (the proof's identical loss)."""
    def residual(v):
        y, g, gamma = take(v, y="m", g="m", gamma="")
        nonzero(gamma)
        u = Unit(y)
        gy2 = dot(g, u.yc) ** 2 / u.r  # <g, yhat>^2, rational: sigma stays out of Q(sqrt m)
        grad2 = gamma ** 2 * dot(u.w(g), u.w(g)) / u.r
        return gamma ** 2 / u.r * (dot(g, g) - sum(g) ** 2 / u.m - c(u.m) * gy2) - grad2
    return residual


def theorem_4_4(printed: bool):
    """g^_j = lam^2 |grad_y L^|^2, g_j = lam^2 |g|^2, mu_g = mean(g) (the maxima over
    |X| <= lam at X = lam I); printed: g^_j <= gamma^2/sigma^2 (g_j^2 - m mu_g^2 -
    lam^2 <g, yhat>^2); equation (17): g^_j <= lam^2 x the bound of Theorem 4.1."""
    def residual(v):
        y, g, gamma, lam = take(v, y="m", g="m", gamma="", lam="")
        nonzero(gamma)
        need(lam > 0, "lambda <= 0 (the claim needs lambda > 0)")
        u, lam2 = Unit(y), lam * lam
        g_hat = lam2 * gamma ** 2 * dot(u.w(g), u.w(g)) / u.r
        gy2, m = dot(g, u.yc) ** 2 / u.r, u.m
        if printed:
            return gamma ** 2 / u.r * ((lam2 * dot(g, g)) ** 2 - sum(g) ** 2 / m - lam2 * gy2) - g_hat
        return lam2 * gamma ** 2 / u.r * (dot(g, g) - sum(g) ** 2 / m - gy2 / root(Fraction(m))) - g_hat
    return residual


def smoothness(kind: str):
    """Theorem 4.2 (kind "part-1", H any symmetric; "part-2", H = h I) and Theorem C.1,
    with v = grad_y L^ = gamma J g and the quadratic form of the Hessian of L^ in y."""
    def residual(val):
        if kind == "part-2":
            y, g, h, gamma = take(val, y="m", g="m", h="", gamma="")
            need(h > 0, "h <= 0 (the claim needs h > 0)")
            H = [[h * (i == j) for j in range(len(y))] for i in range(len(y))]
        else:
            y, g, H, gamma, *lam = take(val, y="m", g="m", H="mm", gamma="",
                                        **({"lam": ""} if kind == "c.1" else {}))
            need(all(H[i][j] == H[j][i] for i in range(len(H)) for j in range(i)), "H is not symmetric")
        nonzero(gamma)
        u = Unit(y)
        v = [gamma * x / u.s for x in u.w(g)]
        gy, v2 = dot(g, u.yhat), dot(v, v)
        if kind == "part-1":
            return gamma ** 2 / u.r * dot(v, matvec(H, v)) - gamma / (u.m * u.r) * gy * v2 - u.quad(v, g, H, gamma)
        if kind == "part-2":
            return gamma ** 2 / u.r * (dot(g, matvec(H, g)) - gy * v2 / (gamma * u.m)) - u.quad(v, g, H, gamma)
        need(lam[0] > 0, "lambda <= 0 (the claim needs lambda > 0)")
        lam4, v_hat = lam[0] ** 4, [x - h * gy / u.m for x, h in zip(g, u.yhat)]
        kappa = gamma / (u.m * u.r) * gy * v2
        return gamma ** 2 / u.r * (lam4 * dot(g, matvec(H, g)) - lam4 * kappa) - lam4 * u.quad(v_hat, g, H, gamma)
    return residual


def remark_2_7(corrected: bool):
    """gamma = sigma, beta = mu/sigma (printed) or mu: z^ = sigma (z - mu)/sigma + beta,
    residual sum_b (z^_b - z_b)^2 = m (beta - mu)^2."""
    def residual(v):
        u = Unit(take(v, z="m")[0])
        beta = u.mu if corrected else u.mu / u.s
        return u.m * (beta - u.mu) * (beta - u.mu)
    return residual


def least_squares(X, y):
    """Batch, W* and c; X^T X nonsingular is a hypothesis (W* unique)."""
    batch = Batch(X)
    need(batch.pd, "X^T X is not positive definite")
    return batch, batch.least_squares(y), batch.c(y)


def minima_preserved(v):
    """|grad C^(W*)|^2 for the sum loss, W* the least-squares optimum (Observation 4.3
    read in Section 4.1's setting: W* should be a critical point of C^)."""
    X, y, gamma, _beta = take(v, X="md", y="m", gamma="", beta="")
    nonzero(gamma)
    batch, w_star, _ = least_squares(X, y)
    u, rho = batch.bn_gradient(y, w_star, gamma, 1)  # grad = u sqrt(rho)
    return dot(u, u) * rho


def lemma_4_5(v):
    """rhs - lhs of Lemma 4.5 for one neuron with X^T X, Xc^T Xc nonsingular (so the BN
    optima are the open ray t sign(gamma) b, Xc^T Xc b = c) and <W0, W*> > 0."""
    X, y, w0, gamma = take(v, X="md", y="m", W0="d", gamma="")
    nonzero(gamma)
    batch, w_star, c = least_squares(X, y)
    need(batch.rank_c == batch.d, "Xc^T Xc is not positive definite")
    need(dot(w0, w_star) > 0, "<W0, W*> <= 0")
    return rhs_of(w0, w_star) - closest(w0, [sign(gamma) * x for x in solve(batch.Gc, c)], [])[1]


FORMULAS = {  # claim id: (pin, the checker's own residual)
    "santurkar2018/lemma-4.5": ("2fb42edb554c7c22a0ea800d4638a1ed", lemma_4_5),
    "santurkar2018/theorem-4.1": ("092d75bfbf5d1ff26918e39af87828c1", theorem_4_1(lambda m: 1 / root(Fraction(m)))),
    "santurkar2018/theorem-4.1/as-derived": ("49a796aa6556baa49871f78905e44a47", theorem_4_1(lambda m: Fraction(1, m))),
    "santurkar2018/theorem-4.2": ("7631af2fc1f97dab59b6fe514fedca1a", smoothness("part-1")),
    "santurkar2018/theorem-4.2/part-2": ("db22d62d635888474edc63a9b8566c92", smoothness("part-2")),
    "santurkar2018/theorem-c.1": ("06d84d9344259867abd76906936e5eed", smoothness("c.1")),
    "santurkar2018/theorem-4.4": ("8debcbb9549623130d7cfa9c6cab3f76", theorem_4_4(printed=True)),
    "santurkar2018/theorem-4.4/as-derived": ("21fd8ff5d725b78b6ba533d68b5ee290", theorem_4_4(printed=False)),
    "santurkar2018/observation-4.3/minima-preserved": ("d39f81d1d47591d805c3f2eb0ca5c3ea", minima_preserved),
    "dannemann2025/remark-2.7": ("d0e8df4200cebe5dc3d62d55a44bc7d3", remark_2_7(corrected=False)),
    "dannemann2025/remark-2.7/corrected": ("abf84a1681c93a976ccf1dc2358ed406", remark_2_7(corrected=True)),
}


def bound(claim: dict):
    """The checker's residual function for a claim of the papers, None for a user's
    claim; Rejected for a paper's claim with other text or with no formula here."""
    cid = claim["id"]
    if cid not in FORMULAS:
        if cid.startswith(PAPERS) or cid == "lemma-4.5":
            raise Rejected(f"claim {cid}: a claim of the papers that this checker has no formula "
                           "for, and it does not take a program's word for one")
        return None
    pin, formula = FORMULAS[cid]
    if sha256_of(claim)[7:39] != pin:
        raise Rejected(f"claim {cid}: statement, source or kind differs from the claim of that id")

    def residual(variables):
        try:
            return formula(variables)
        except ZeroDivisionError:
            raise Rejected(f"outside the claim's domain: a division by zero in the formula for {cid}") from None
    return residual
