"""The checker's own residual for the claims of the papers, so that a certificate
cannot refute a paper's claim with a program of its choosing.

Each formula is written from the statement as printed, under the reading in
docs/certificates.md, not from bnproof's claim code; derivatives of the BN map
come from its definition by the chain rule, never from the Facts C.1/C.2 under
test.  Values are exact, in Q or in Q(sqrt r) for one r (sigma^2 or m), so
their signs are decided by algebra.  Each claim's text is pinned by a hash."""

from fractions import Fraction
from functools import partial

from .algebra import dot, matvec, root, sign, solve
from .lemma import Batch, closest, rhs_of
from .parse import Rejected, sha256_of, take

PAPERS = ("santurkar2018/", "dannemann2025/")  # ids reserved for the claims of the papers


def need(ok: bool, what: str) -> None:
    if not ok:
        raise Rejected(f"outside the claim's hypotheses: {what}")


class Unit:
    """One BN unit over a batch y, yhat = (y - mu)/sigma, sigma^2 = |y - mu|^2/m (no
    epsilon), with output z = gamma yhat + beta and a loss L^ with grad_z = g."""

    def __init__(self, y, gamma):
        need(gamma != 0, "gamma = 0")
        self.m, self.mu, self.gamma = len(y), sum(y, Fraction(0)) / len(y), gamma
        self.yc = [v - self.mu for v in y]
        self.r = dot(self.yc, self.yc) / self.m
        need(self.r != 0, "sigma = 0")
        self.s = root(self.r)
        self.yhat = [v / self.s for v in self.yc]

    def w(self, u) -> list:
        """sigma J u, J u the derivative of yhat along u: with uc = u - mean(u),
        d/dt (yc + t uc)/sigma(t) = uc/sigma - yc sigma'/sigma^2, sigma' = <yc, u>/(m sigma)."""
        mean, k = sum(u, Fraction(0)) / self.m, dot(self.yc, u) / (self.m * self.r)
        return [x - mean - c * k for x, c in zip(u, self.yc)]

    def grad2(self, g) -> Fraction:  # |grad_y L^|^2 = |gamma J g|^2: sigma enters squared
        return self.gamma ** 2 * dot(self.w(g), self.w(g)) / self.r

    def gy2(self, g) -> Fraction:  # <g, yhat>^2, rational likewise
        return dot(g, self.yc) ** 2 / self.r

    def quad(self, u, g, H):
        """u^T (Hessian of L^ in y) u, as (d/dt)^2 L^(y + t u) at t = 0, for grad_z = g
        and Hessian_z = H: gamma^2 (Ju)^T H (Ju) + gamma <g, yhat''>, where
        yhat'' = -2 uc s1/sigma^2 - yc s2/sigma^2 + 2 yc s1^2/sigma^3 from yhat = n/sigma(t),
        s1 = sigma' = <yc, u>/(m sigma), s2 = sigma'' = (|uc|^2/m - s1^2)/sigma."""
        s, ju, mean = self.s, [x / self.s for x in self.w(u)], sum(u, Fraction(0)) / self.m
        uc = [x - mean for x in u]
        s1 = dot(self.yc, u) / (self.m * s)
        s2 = (dot(uc, uc) / self.m - s1 * s1) / s
        second = [(-2 * x * s1 - c * s2) / self.r + 2 * c * s1 * s1 / (self.r * s)
                  for x, c in zip(uc, self.yc)]
        return self.gamma ** 2 * dot(ju, matvec(H, ju)) + self.gamma * dot(g, second)


def theorem_4_1(v, c):
    """|grad_y L^|^2 <= gamma^2/sigma^2 (|g|^2 - <1, g>^2/m - c(m) <g, yhat>^2), g = grad_y L."""
    y, g, gamma = take(v, y="m", g="m", gamma="")
    u = Unit(y, gamma)
    return gamma ** 2 / u.r * (dot(g, g) - sum(g) ** 2 / u.m - c(u.m) * u.gy2(g)) - u.grad2(g)


def theorem_4_4(v, printed):
    """g^_j = lam^2 |grad_y L^|^2, g_j = lam^2 |g|^2 (the maxima at X = lam I); printed:
    g^_j <= gamma^2/sigma^2 (g_j^2 - m mean(g)^2 - lam^2 <g, yhat>^2); equation (17):
    g^_j <= lam^2 times the bound of Theorem 4.1."""
    y, g, gamma, lam = take(v, y="m", g="m", gamma="", lam="")
    need(lam > 0, "lambda <= 0")
    u, L, m = Unit(y, gamma), lam * lam, len(y)
    if printed:
        bound = gamma ** 2 / u.r * ((L * dot(g, g)) ** 2 - sum(g) ** 2 / m - L * u.gy2(g))
        return bound - L * u.grad2(g)
    return L * (theorem_4_1({"y": y, "g": g, "gamma": gamma}, lambda m: 1 / root(Fraction(m))))


def smoothness(val, kind):
    """Theorem 4.2 (part 1, H symmetric; part 2, H = h I) and Theorem C.1, with
    v = grad_y L^ = gamma J g and kappa = gamma/(m sigma^2) <g, yhat> |v|^2."""
    if kind == "part-2":
        y, g, h, gamma = take(val, y="m", g="m", h="", gamma="")
        need(h > 0, "h <= 0")
        H = [[h * (i == j) for j in range(len(y))] for i in range(len(y))]
    else:
        y, g, H, gamma, *lam = take(val, y="m", g="m", H="mm", gamma="",
                                    **({"lam": ""} if kind == "c.1" else {}))
        need(all(H[i][j] == H[j][i] for i in range(len(H)) for j in range(i)), "H is not symmetric")
    u = Unit(y, gamma)
    v = [gamma * x / u.s for x in u.w(g)]
    kappa = gamma / (u.m * u.r) * dot(g, u.yhat) * dot(v, v)
    if kind != "c.1":  # part 1 has v^T H v where part 2 has g^T H g
        x = v if kind == "part-1" else g
        return gamma ** 2 / u.r * dot(x, matvec(H, x)) - kappa - u.quad(v, g, H)
    need(lam[0] > 0, "lambda <= 0")
    v_hat = [x - h * dot(g, u.yhat) / u.m for x, h in zip(g, u.yhat)]  # (I - yhat yhat^T/m) g
    return lam[0] ** 4 * (gamma ** 2 / u.r * (dot(g, matvec(H, g)) - kappa) - u.quad(v_hat, g, H))


def remark_2_7(v, corrected):
    """gamma = sigma and beta = mu/sigma (printed) or mu make z^ = sigma (z - mu)/sigma
    + beta = z - mu + beta; the residual sum_b (z^_b - z_b)^2 is m (beta - mu)^2."""
    u = Unit(take(v, z="m")[0], 1)
    beta = u.mu if corrected else u.mu / u.s
    return u.m * (beta - u.mu) * (beta - u.mu)


def least_squares(X, y):  # a hypothesis of both claims below: W* is unique
    batch = Batch(X)
    need(batch.pd, "X^T X is not positive definite")
    return batch, batch.least_squares(y)


def minima_preserved(v):
    """|grad C^(W*)|^2 for the sum loss, W* the least-squares optimum: Observation 4.3
    read in Section 4.1's setting says W* is a critical point of C^."""
    X, y, gamma, _beta = take(v, X="md", y="m", gamma="", beta="")
    need(gamma != 0, "gamma = 0")
    batch, w_star = least_squares(X, y)
    u, rho = batch.bn_gradient(y, w_star, gamma, 1)  # the gradient is u sqrt(rho)
    return dot(u, u) * rho


def lemma_4_5(v):
    """rhs - lhs of Lemma 4.5 for one neuron with X^T X and Xc^T Xc nonsingular, so the
    BN optima are the open ray t sign(gamma) b, Xc^T Xc b = c, and <W0, W*> > 0."""
    X, y, w0, gamma = take(v, X="md", y="m", W0="d", gamma="")
    need(gamma != 0, "gamma = 0")
    batch, w_star = least_squares(X, y)
    need(batch.rank_c == batch.d, "Xc^T Xc is not positive definite")
    need(dot(w0, w_star) > 0, "<W0, W*> <= 0")
    b = [sign(gamma) * x for x in solve(batch.Gc, batch.c(y))]
    return rhs_of(w0, w_star) - closest(w0, b, [])[1]


def inverse_root(m):
    return 1 / root(Fraction(m))


FORMULAS = {  # claim id: (the first 32 hex digits of the SHA-256 of its claim object, residual)
    "santurkar2018/lemma-4.5":
        ("2fb42edb554c7c22a0ea800d4638a1ed", lemma_4_5),
    "santurkar2018/theorem-4.1":
        ("092d75bfbf5d1ff26918e39af87828c1", partial(theorem_4_1, c=inverse_root)),
    "santurkar2018/theorem-4.1/as-derived":
        ("49a796aa6556baa49871f78905e44a47", partial(theorem_4_1, c=lambda m: Fraction(1, m))),
    "santurkar2018/theorem-4.2":
        ("7631af2fc1f97dab59b6fe514fedca1a", partial(smoothness, kind="part-1")),
    "santurkar2018/theorem-4.2/part-2":
        ("db22d62d635888474edc63a9b8566c92", partial(smoothness, kind="part-2")),
    "santurkar2018/theorem-c.1":
        ("06d84d9344259867abd76906936e5eed", partial(smoothness, kind="c.1")),
    "santurkar2018/theorem-4.4":
        ("8debcbb9549623130d7cfa9c6cab3f76", partial(theorem_4_4, printed=True)),
    "santurkar2018/theorem-4.4/as-derived":
        ("21fd8ff5d725b78b6ba533d68b5ee290", partial(theorem_4_4, printed=False)),
    "santurkar2018/observation-4.3/minima-preserved":
        ("d39f81d1d47591d805c3f2eb0ca5c3ea", minima_preserved),
    "dannemann2025/remark-2.7":
        ("d0e8df4200cebe5dc3d62d55a44bc7d3", partial(remark_2_7, corrected=False)),
    "dannemann2025/remark-2.7/corrected":
        ("abf84a1681c93a976ccf1dc2358ed406", partial(remark_2_7, corrected=True)),
}


def bound(claim: dict):
    """The checker's residual for a claim of the papers; None for a user's claim.
    Rejected for a paper's claim whose text differs, or that has no formula here."""
    cid = claim["id"]
    if cid not in FORMULAS:
        if cid.startswith(PAPERS) or cid == "lemma-4.5":
            raise Rejected(f"claim {cid}: a claim of the papers with no formula in this checker, "
                           "which does not take a program's word for one")
        return None
    pin, formula = FORMULAS[cid]
    if sha256_of(claim)[7:39] != pin:
        raise Rejected(f"claim {cid}: statement, source or kind differs from the claim of that id")

    def residual(variables):
        try:
            return formula(variables)
        except ZeroDivisionError:  # e.g. c = 0 in Lemma 4.5: no ray of BN optima
            raise Rejected(f"outside the claim's domain: a division by zero in {cid}") from None
    return residual
