"""The naive route to Lemma 4.5's residual and ∇Ĉ(W*), as a plain SymPy
script would do it: build Ĉ as one expression, sympy.diff, subs, simplify.

Usage: python naive_sympy.py DATA.json   (prints a JSON line with the results)
Used by the benchmarks as the baseline; it imports nothing from bnproof."""

import json
import sys
import time

import sympy
from sympy import Matrix, Rational, sqrt


def main(path):
    data = json.load(open(path))
    start = time.perf_counter()  # after imports, as bnproof's in-process timing
    X = Matrix([[Rational(x) for x in row] for row in data["X"]])
    y = Matrix([Rational(v) for v in data["y"]])
    w0 = Matrix([Rational(v) for v in data["W0"]])
    m, d = X.shape
    w = Matrix(sympy.symbols(f"w1:{d + 1}", real=True))
    z = X * w
    mu = sum(z) / m
    sigma = sqrt(sum((zi - mu) ** 2 for zi in z) / m)
    C_hat = sum(((zi - mu) / sigma - yi) ** 2 for zi, yi in zip(z, y))
    w_star = (X.T * X).LUsolve(X.T * y)
    at = dict(zip(w, w_star))
    grad = [sympy.simplify(sympy.diff(C_hat, wi).subs(at)) for wi in w]
    Xc = X - sympy.ones(m, 1) * (sympy.ones(1, m) * X) / m
    yc = y - sympy.ones(m, 1) * (sum(y) / m)
    b = (Xc.T * Xc).LUsolve(Xc.T * yc)
    t = (w0.T * b)[0] / (b.T * b)[0]
    closest = b * t
    lhs = ((w0 - closest).T * (w0 - closest))[0] if t > 0 else (w0.T * w0)[0]
    n2 = (w_star.T * w_star)[0]
    rhs = ((w0 - w_star).T * (w0 - w_star))[0] - (n2 - (w_star.T * w0)[0]) ** 2 / n2
    residual = rhs - lhs
    print(json.dumps({"residual": str(residual), "grad": [str(g) for g in grad],
                      "seconds": time.perf_counter() - start}))


if __name__ == "__main__":
    main(sys.argv[1])
