"""The checker's own residual for the claims of the papers, so that a certificate
cannot refute a paper's claim with a program of its choosing.

Each formula is written from the statement as printed, under the reading in
docs/certificates.md, not from bnproof's claim code; derivatives of the BN map
come from its definition by the chain rule, never from the Facts C.1/C.2 under
test.  Values are exact, in Q or in Q(sqrt r) for one r (sigma^2 or m; surds.py's
field with one generator), so their signs are decided by algebra.  Each claim's text and declared variables are
pinned by a hash, so the variables arrive with the shapes and domains read here.

The work is bounded before it starts: the eliminations of Lemma 4.5 and Observation
4.3 by parse.lemma_work (and charged as they go), the O(m^2) products of a BN unit by
unit_work, a generous count of operations on numbers of degree at most 32 in the
instance's common-denominator form."""

from fractions import Fraction
from functools import partial

from .algebra import Budget, dot, matvec, solve
from .lemma import Batch, closest, rhs_of
from .papers import paper_claim
from .parse import MAX_LEMMA_WORK, Rejected, flat, instance_bits, lemma_work, op, sha256_of
from .surds import root, sign


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


def unit_work(v, bits: int) -> int:
    m = len(v["y"] if "y" in v else v["z"])
    return 64 * (m * m + m) * op(32 * (bits + m.bit_length()))


def least_squares_work(v, bits: int) -> int:
    return lemma_work(len(v["X"]), len(v["X"][0]), bits)


def theorem_4_1(v, budget, c):
    """|grad_y L^|^2 <= gamma^2/sigma^2 (|g|^2 - <1, g>^2/m - c(m) <g, yhat>^2), g = grad_y L."""
    y, g, gamma = v["y"], v["g"], v["gamma"]
    u = Unit(y, gamma)
    return gamma ** 2 / u.r * (dot(g, g) - sum(g) ** 2 / u.m - c(u.m) * u.gy2(g)) - u.grad2(g)


def theorem_4_4(v, budget, printed):
    """g^_j = lam^2 |grad_y L^|^2, g_j = lam^2 |g|^2 (the maxima at X = lam I); printed:
    g^_j <= gamma^2/sigma^2 (g_j^2 - m mean(g)^2 - lam^2 <g, yhat>^2); equation (17):
    g^_j <= lam^2 times the bound of Theorem 4.1."""
    y, g, gamma, lam = v["y"], v["g"], v["gamma"], v["lam"]
    need(lam > 0, "lambda <= 0")
    u, L, m = Unit(y, gamma), lam * lam, len(y)
    if printed:
        bound = gamma ** 2 / u.r * ((L * dot(g, g)) ** 2 - sum(g) ** 2 / m - L * u.gy2(g))
        return bound - L * u.grad2(g)
    return L * theorem_4_1({"y": y, "g": g, "gamma": gamma}, budget, inverse_root)


def smoothness(v, budget, kind):
    """Theorem 4.2 (part 1, H symmetric; part 2, H = h I) and Theorem C.1, with
    v = grad_y L^ = gamma J g and kappa = gamma/(m sigma^2) <g, yhat> |v|^2."""
    y, g, gamma = v["y"], v["g"], v["gamma"]
    if kind == "part-2":
        need(v["h"] > 0, "h <= 0")
        H = [[v["h"] * (i == j) for j in range(len(y))] for i in range(len(y))]
    else:
        H = v["H"]
        need(all(H[i][j] == H[j][i] for i in range(len(H)) for j in range(i)), "H is not symmetric")
    u = Unit(y, gamma)
    grad = [gamma * x / u.s for x in u.w(g)]
    kappa = gamma / (u.m * u.r) * dot(g, u.yhat) * dot(grad, grad)
    if kind != "c.1":  # part 1 has v^T H v where part 2 has g^T H g
        x = grad if kind == "part-1" else g
        return gamma ** 2 / u.r * dot(x, matvec(H, x)) - kappa - u.quad(grad, g, H)
    lam = v["lam"]
    need(lam > 0, "lambda <= 0")
    v_hat = [x - h * dot(g, u.yhat) / u.m for x, h in zip(g, u.yhat)]  # (I - yhat yhat^T/m) g
    return lam ** 4 * (gamma ** 2 / u.r * (dot(g, matvec(H, g)) - kappa) - u.quad(v_hat, g, H))


def smoothness_below_sigma(v, budget):
    """Theorem 4.2, part 2, under the proof's condition gamma < sigma only (strict): the
    hypothesis sigma - gamma > 0 is checked here, then part 2's residual."""
    need(sign(Unit(v["y"], v["gamma"]).s - v["gamma"]) > 0, "gamma >= sigma")
    return smoothness(v, budget, "part-2")


def remark_2_7(v, budget, corrected):
    """gamma = sigma and beta = mu/sigma (printed) or mu make z^ = sigma (z - mu)/sigma
    + beta = z - mu + beta; the residual sum_b (z^_b - z_b)^2 is m (beta - mu)^2."""
    u = Unit(v["z"], 1)
    beta = u.mu if corrected else u.mu / u.s
    return u.m * (beta - u.mu) * (beta - u.mu)


def least_squares(X, y, budget):  # a hypothesis of both claims below: W* is unique
    batch = Batch(X, budget)
    need(batch.rank == batch.d, "X^T X is not positive definite")
    return batch, solve(batch.G, [batch.L * t for t in batch.xty(y)], budget, "W*")


def minima_preserved(v, budget):
    """|grad C^(W*)|^2 for the sum loss, W* the least-squares optimum: Observation 4.3
    read in Section 4.1's setting says W* is a critical point of C^.  With
    rho = sigma(W*)^2 = |Xc W*|^2/m != 0 (Fact 2), grad C^(W*) = u sqrt(rho) for
    u = -(2 gamma/rho)(c - <c, W*>/(m rho) Xc^T Xc W*), so |grad|^2 = |u|^2 rho."""
    X, y, gamma = v["X"], v["y"], v["gamma"]
    need(gamma != 0, "gamma = 0")
    batch, w_star = least_squares(X, y, budget)
    c, scale = batch.c(y), batch.m * batch.L ** 2
    gw = [x / scale for x in matvec(batch.Gc, w_star)]  # Xc^T Xc W*
    rho = dot(w_star, gw) / batch.m
    need(rho != 0, "sigma(W*) = 0")
    k = dot(c, w_star) / (batch.m * rho)
    u = [-(2 * gamma / rho) * (ci - k * gi) for ci, gi in zip(c, gw)]
    return dot(u, u) * rho


def lemma_4_5(v, budget):
    """rhs - lhs of Lemma 4.5 for one neuron with X^T X and Xc^T Xc nonsingular, so the
    BN optima are the open ray t sign(gamma) b, Xc^T Xc b = c, and <W0, W*> > 0."""
    X, y, w0, gamma = v["X"], v["y"], v["W0"], v["gamma"]
    need(gamma != 0, "gamma = 0")
    batch, w_star = least_squares(X, y, budget)
    need(batch.rank_c == batch.d, "Xc^T Xc is not positive definite")
    need(dot(w0, w_star) > 0, "<W0, W*> <= 0")
    # Gc = m L^2 Xc^T Xc: its solution is a positive multiple of b, which is all the ray needs
    b = solve(batch.Gc, batch.c(y), budget, "the BN optimum direction")
    need(any(b), "c = 0: the BN loss is constant, there is no ray of optima")
    b = [sign(gamma) * x for x in b]
    return rhs_of(w0, w_star) - closest(w0, b, [Fraction(0)] * len(b))[1]


def inverse_root(m):
    return 1 / root(Fraction(m))


def inverse(m):
    return Fraction(1, m)


FORMULAS = {  # claim id: (the first 32 hex digits of the SHA-256 of its claim object, residual,
    #           the work it may take, known before it starts)
    "santurkar2018/lemma-4.5":
        ("956d1229b0251693ffe5d54086d528a2", lemma_4_5, least_squares_work),
    "santurkar2018/theorem-4.1":
        ("0a76893f82a8f85cd131bdde38f6bf3b", partial(theorem_4_1, c=inverse_root), unit_work),
    "santurkar2018/theorem-4.1/as-derived":
        ("130e0f03c16b89ba5f0dfa033decf1fd", partial(theorem_4_1, c=inverse), unit_work),
    "santurkar2018/theorem-4.2":
        ("6aa88803f73799a0947a2b6c4f037bf7", partial(smoothness, kind="part-1"), unit_work),
    "santurkar2018/theorem-4.2/part-2":
        ("c712770edcfc4f1ab4b21601ef284a98", partial(smoothness, kind="part-2"), unit_work),
    "santurkar2018/theorem-4.2/part-2/gamma-below-sigma":
        ("41e412ebe81caddff1afb25935ad5a5b", smoothness_below_sigma, unit_work),
    "santurkar2018/theorem-c.1":
        ("e01bcd26570f98b5299fb30641972ec5", partial(smoothness, kind="c.1"), unit_work),
    "santurkar2018/theorem-4.4":
        ("3e099ce28caf3f66684db4537b136724", partial(theorem_4_4, printed=True), unit_work),
    "santurkar2018/theorem-4.4/as-derived":
        ("d80c925896b362883f5c97a256122a15", partial(theorem_4_4, printed=False), unit_work),
    "santurkar2018/observation-4.3/minima-preserved":
        ("53ca5f4d95d371860dfd2b49af21bca8", minima_preserved, least_squares_work),
    "dannemann2025/remark-2.7":
        ("c9688b354da5c739d4cae656542cdd85", partial(remark_2_7, corrected=False), unit_work),
    "dannemann2025/remark-2.7/corrected":
        ("2090c157a3055c1d4a129c8bef9d6731", partial(remark_2_7, corrected=True), unit_work),
}


def bound(claim: dict):
    """The checker's residual for a claim of the papers (a function of the instance's
    values); None for a user's claim.  Rejected for any other name a person would read
    as a paper's claim, and for a paper's claim whose text or variables differ."""
    cid = claim["id"]
    paper = paper_claim(cid)
    if cid not in FORMULAS:
        if paper is None:
            return None
        if paper == cid:
            raise Rejected(f"claim {cid}: a claim of the papers with no formula in this checker, "
                           "which does not take a program's word for one")
        raise Rejected(f"claim {cid}: reads as the name of a claim of the papers"
                       + (f" ({paper})" if paper else "") + "; only its exact id, bound to the "
                       "checker's own formula, can be refuted")
    pin, formula, work = FORMULAS[cid]
    if sha256_of(claim)[7:39] != pin:
        raise Rejected(f"claim {cid}: statement, source, kind or variables differ from the "
                       "claim of that id")

    def residual(values):
        units = work(values, instance_bits(flat(list(values.values()))))
        if units > MAX_LEMMA_WORK:
            raise Rejected(f"too much arithmetic for the formula of {cid}: {units:.2e} work units "
                           f"a priori, more than the checker's limit {MAX_LEMMA_WORK:.0e}")
        try:
            return formula(values, Budget(MAX_LEMMA_WORK))
        except ZeroDivisionError:  # a quotient the claim leaves undefined here
            raise Rejected(f"outside the claim's domain: a division by zero in {cid}") from None
    return residual
