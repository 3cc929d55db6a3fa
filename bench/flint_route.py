"""The baseline for bench/residual_scaling.py: the exact Lemma 4.5 residual,
∇Ĉ(W*) and both optimality checks, written the way an expert would with
python-flint directly, without bnproof.

Structure an expert uses: integer matrices straight from the JSON integers;
the centred Gram matrix from sums (m·Xcᵀ Xc = m·XᵀX − sx sxᵀ); the closed form
Ĉ(w) = s(γ²m + ‖y − β1‖² − 2γ⟨c, w⟩/σ(w)), σ(w)² = wᵀ Gc w/m, whose gradient
and Hessian are rational multiples of √σ² (odd powers of 1/σ only);
positive definiteness from pivots in arb balls (exact leading minors when a
ball contains 0).

Run: python bench/flint_route.py DATA.json   (prints one JSON object)"""

import json
import resource
import sys
import time

import flint

fmpz, fmpq, fmpz_mat, fmpq_mat = flint.fmpz, flint.fmpq, flint.fmpz_mat, flint.fmpq_mat


def positive_definite(a: fmpq_mat) -> bool:
    """Sylvester: every pivot of elimination without exchanges > 0.  The pivots
    are taken in arb balls (each encloses the exact pivot), one rank-one
    arb_mat update a step; if a ball contains 0, the exact leading minor
    decides.  (Exact fraction-free LU is far slower here: at d = 64 the BN
    Hessian's leading minors have ~10⁵ digits.)"""
    with flint.ctx.workprec(128):
        s = flint.arb_mat(a)
        for k in range(a.nrows()):
            p = s[0, 0]
            if p < 0:
                return False
            if not p > 0:
                rows = a.tolist()
                if fmpq_mat([row[:k + 1] for row in rows[:k + 1]]).det() <= 0:
                    return False
                return positive_definite_exactly(a)
            if s.nrows() == 1:
                return True
            rows = s.tolist()
            u, v = flint.arb_mat([[r[0]] for r in rows[1:]]), flint.arb_mat([rows[0][1:]])
            s = flint.arb_mat([r[1:] for r in rows[1:]]) - u * (v / p)
    return True


def positive_definite_exactly(a: fmpq_mat) -> bool:
    rows = a.tolist()
    return all(fmpq_mat([row[:k] for row in rows[:k]]).det() > 0 for k in range(1, a.nrows() + 1))


def dot(u, v):
    return (u.transpose() * v)[0, 0]


def analyse(data):
    X = fmpz_mat(data["X"])
    m, d = X.nrows(), X.ncols()
    y = fmpz_mat(m, 1, data["y"])
    w0 = fmpq_mat(fmpz_mat(d, 1, data["W0"]))
    gamma, beta = fmpq(data.get("gamma", 1)), fmpq(data.get("beta", 0))
    s = fmpq(1) if data.get("loss", "sum") == "sum" else fmpq(1, m)
    Xt = X.transpose()
    G, Xty = Xt * X, Xt * y

    # the standard network: W* solves the normal equations; ∇²C = 2s·G
    w_star = fmpq_mat(G).solve(fmpq_mat(Xty))
    assert fmpq_mat(G) * w_star == fmpq_mat(Xty)  # ∇C(W*) = 0
    assert positive_definite(fmpq_mat(G))

    # the BN network, centred through sums
    sx = Xt * fmpz_mat(m, 1, [1] * m)
    sy = sum(data["y"])
    Gm = G * m - sx * sx.transpose()  # m·Gc, integer
    Gc = fmpq_mat(Gm) / m
    c = (fmpq_mat(Xty) * m - fmpq_mat(sx) * sy) / m
    null, nullity = Gm.nullspace()
    assert nullity == 0, "the bench draws full-rank data"
    b = Gc.solve(c)
    if gamma < 0:
        b = -b

    def sigma2(w):
        return dot(w, Gc * w) / m

    def grad_root_part(w):
        """∇Ĉ(w) = g·√σ², g rational."""
        v, cw, u = sigma2(w), dot(c, w), Gc * w
        return (c / v - u * (cw / (m * v * v))) * (-2 * s * gamma), v

    g_b, _ = grad_root_part(b)
    assert all(x == 0 for x in g_b.entries())  # first order at b

    # second order across the ray: Q spans b^⊥; ∇²Ĉ(b) = H·√σ²
    v, cw, u = sigma2(b), dot(c, b), Gc * b
    H = ((c * u.transpose() + u * c.transpose() + Gc * cw) / (m * v * v)
         - u * u.transpose() * (3 * cw / (m * m * v * v * v))) * (2 * s * gamma)
    assert H * b == fmpq_mat(d, 1)  # flat along the ray (scale invariance)
    basis, k = b.transpose().numer_denom()[0].nullspace()
    Q = fmpq_mat(fmpz_mat([row[:k] for row in basis.tolist()]))
    assert positive_definite(Q.transpose() * H * Q)

    grad_w_star, radicand = grad_root_part(w_star)
    # closest point of the open ray to W0, and the printed right-hand side
    t = dot(w0, b) / dot(b, b)
    if t > 0:
        diff = w0 - b * t
        lhs = dot(diff, diff)
    else:
        lhs = dot(w0, w0)
    norm2, inner = dot(w_star, w_star), dot(w0, w_star)
    diff = w0 - w_star
    rhs = dot(diff, diff) - (norm2 - inner) ** 2 / norm2
    return {"residual": str(rhs - lhs), "inner": str(inner),
            "grad_root_part": [str(x) for x in grad_w_star.entries()], "radicand": str(radicand)}


def main():
    start = time.perf_counter()
    with open(sys.argv[1]) as fh:
        data = json.load(fh)
    answer = analyse(data)
    answer["seconds"] = time.perf_counter() - start
    answer["peak_rss_kib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps(answer))


if __name__ == "__main__":
    main()
