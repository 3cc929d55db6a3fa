"""The independent checker of bnproof certificates (format version 1).

It recomputes every witness of a Lemma 4.5 certificate from the exact
instance with its own formulas (docs/certificates.md) and compares; it never
searches.  Standard library only, Fraction arithmetic only, no text is ever
evaluated as code.  The claim's statement and source are constants here, so a
certificate cannot change what is being claimed.  Program certificates, the
refutation of any claim by a straight-line program, are checked in program.py."""

from __future__ import annotations

import argparse
import sys
from fractions import Fraction

from .parse import (MAX_D, MAX_N, Rejected, array, check_envelope, check_structure, instance,
                    optional, rational, read, vector)
from .program import check_program, program_digest, rational_sqrt

__all__ = ["Rejected", "check_document", "check_file", "main", "program_digest"]

CLAIM_ID = "lemma-4.5"
SOURCE = (
    "S. Santurkar, D. Tsipras, A. Ilyas, A. Madry, How does batch normalization help "
    "optimization?, NeurIPS 2018 (arXiv:1805.11604), Lemma 4.5, p. 8"
)
STATEMENT = (
    r"\left\|W_0-\widehat{W}^*\right\|^2 \leq \left\|W_0-W^*\right\|^2"
    r"-\frac{1}{\left\|W^*\right\|^2}\left(\left\|W^*\right\|^2-\left\langle W^*,W_0"
    r"\right\rangle\right)^2, \quad \text{if } \left\langle W_0,W^*\right\rangle>0"
)
FACTS = ("normal-equations", "unique-minimum", "bn-optimum-set", "closest-bn-optimum",
         "grad-bn-at-W-star", "hypothesis", "residual")
REFUTED, HOLDS, NOT_MET = "refuted", "holds", "hypothesis-not-met"


# --- exact linear algebra on lists of Fractions --------------------------------

def dot(u, v) -> Fraction:
    return sum((a * b for a, b in zip(u, v)), Fraction(0))


def matvec(A, v) -> list:
    return [dot(row, v) for row in A]


def transpose(A) -> list:
    return [list(col) for col in zip(*A)]


def rank(rows) -> int:
    rows, r = [list(row) for row in rows], 0
    for col in range(len(rows[0]) if rows else 0):
        pivot = next((i for i in range(r, len(rows)) if rows[i][col] != 0), None)
        if pivot is None:
            continue
        rows[r], rows[pivot] = rows[pivot], rows[r]
        for i in range(r + 1, len(rows)):
            if rows[i][col] != 0:
                f = rows[i][col] / rows[r][col]
                rows[i] = [a - f * b for a, b in zip(rows[i], rows[r])]
        r += 1
    return r


def positive_definite(A) -> bool:
    """Symmetric elimination without exchanges: the pivots are det_k/det_(k-1),
    so all are > 0 exactly when every leading minor is (Sylvester)."""
    A = [list(row) for row in A]
    for k in range(len(A)):
        if A[k][k] <= 0:
            return False
        for i in range(k + 1, len(A)):
            f = A[i][k] / A[k][k]
            A[i] = [a - f * b for a, b in zip(A[i], A[k])]
    return True


def solve(A, rhs) -> list:
    """A x = rhs for nonsingular A, by Gauss-Jordan elimination."""
    rows = [list(row) + [b] for row, b in zip(A, rhs)]
    for k in range(len(rows)):
        p = next(i for i in range(k, len(rows)) if rows[i][k] != 0)
        rows[k], rows[p] = rows[p], rows[k]
        rows[k] = [x / rows[k][k] for x in rows[k]]
        for i in range(len(rows)):
            if i != k and rows[i][k] != 0:
                f = rows[i][k]
                rows[i] = [a - f * b for a, b in zip(rows[i], rows[k])]
    return [row[-1] for row in rows]


def sign(q) -> int:
    return (q > 0) - (q < 0)


def surd_equal(a, b, r, c, e, s) -> bool:
    """a + b*sqrt(r) == c + e*sqrt(s) exactly, for rationals and r, s >= 0.

    Once rational roots are folded into the rational parts, x = b*sqrt(r) and
    z = e*sqrt(s) are each 0 or irrational.  If a - c = z - x = q with x, z both
    nonzero, then 2qx = z^2 - x^2 - q^2 is rational, so q = 0.  Hence equality
    holds iff a == c and x == z, i.e. the same sign and b^2 r == e^2 s."""
    root = rational_sqrt(r)
    if root is not None:
        a, b = a + b * root, 0
    root = rational_sqrt(s)
    if root is not None:
        c, e = c + e * root, 0
    return a == c and sign(b) == sign(e) and b * b * r == e * e * s


# --- the Lemma 4.5 obligations -------------------------------------------------

class Batch:
    """What every neuron shares: the centred batch and its Gram facts."""

    def __init__(self, X):
        self.m, self.d = len(X), len(X[0])
        mean = [sum(col, Fraction(0)) / self.m for col in zip(*X)]
        self.X, self.Xt = X, transpose(X)
        self.Xc = [[x - mu for x, mu in zip(row, mean)] for row in X]
        self.Xct = transpose(self.Xc)
        self.pd = positive_definite([[dot(u, v) for v in self.Xt] for u in self.Xt])
        self.rank_c = rank(self.Xc)


def check_neuron(j: int, batch: Batch, y, w0, gamma, loss, w: dict) -> str:
    """Check the seven facts of neuron j in order; return its verdict."""
    m, d, Xc, Xct = batch.m, batch.d, batch.Xc, batch.Xct
    path = f"witnesses.neurons[{j}]"

    def fail(fact, why):
        raise Rejected(f"neuron {j}: {fact}: {why}")

    w_star = vector(w["W_star"], path + ".W_star", d)
    if matvec(batch.Xt, matvec(batch.X, w_star)) != matvec(batch.Xt, y):
        fail("normal-equations", "X^T X W* != X^T y")
    if not batch.pd:
        fail("unique-minimum", "X^T X is not positive definite")

    # bn-optimum-set
    if batch.rank_c == 0:
        fail("bn-optimum-set", "Xc = 0: all samples are equal, sigma is identically 0")
    y_mean = sum(y, Fraction(0)) / m
    c = matvec(Xct, [v - y_mean for v in y])
    bn = w["bn_optimum"]
    ray = bn["kind"] == "ray"
    if ray:
        if gamma == 0 or not any(c):
            fail("bn-optimum-set", "stated a ray, but gamma = 0 or c = 0 makes the BN loss constant")
        b = vector(bn["direction"], path + ".bn_optimum.direction", d)
        kernel = [vector(v, f"{path}.bn_optimum.kernel[{i}]", d)
                  for i, v in enumerate(array(bn["kernel"], path + ".bn_optimum.kernel", MAX_D))]
        if matvec(Xct, matvec(Xc, b)) != [sign(gamma) * x for x in c]:
            fail("bn-optimum-set", "Xc^T Xc b != sign(gamma) c")
        for i, v in enumerate(kernel):
            if any(matvec(Xc, v)) or dot(b, v) != 0:
                fail("bn-optimum-set", f"kernel vector {i} is not in ker Xc or not orthogonal to b")
        if rank(kernel) != len(kernel):
            fail("bn-optimum-set", "the kernel vectors are linearly dependent")
        if len(kernel) != d - batch.rank_c:
            fail("bn-optimum-set", f"{len(kernel)} kernel vectors, but dim ker Xc = {d - batch.rank_c}")
    elif gamma != 0 and any(c):
        fail("bn-optimum-set", "stated constant, but gamma != 0 and c != 0")

    # closest-bn-optimum
    point = w["closest_bn_optimum"]
    point = None if point is None else vector(point, path + ".closest_bn_optimum", d)
    lhs = rational(w["lhs"], path + ".lhs")
    if ray:
        p = [Fraction(0)] * d
        if kernel:
            coef = solve([[dot(u, v) for v in kernel] for u in kernel], [dot(u, w0) for u in kernel])
            p = [dot(coef, col) for col in zip(*kernel)]
        # b is orthogonal to the kernel, so the ray and the subspace split (Fact 4)
        t = dot(w0, b) / dot(b, b)
        want = [t * x + q for x, q in zip(b, p)] if t > 0 else None
        gap = [x - q for x, q in zip(w0, want if t > 0 else p)]
        want_lhs = dot(gap, gap)
    else:
        want, want_lhs = (w0 if any(matvec(Xc, w0)) else None), Fraction(0)
    if point != want:
        fail("closest-bn-optimum", "the stated point is not the nearest point of the BN optimum set")
    if lhs != want_lhs:
        fail("closest-bn-optimum", "lhs is not the squared distance to the BN optimum set")

    # grad-bn-at-W-star: grad = u * sqrt(rho), rho = sigma(W*)^2, since 1/sigma = sigma/rho
    xw = matvec(Xc, w_star)
    rho = dot(xw, xw) / m
    if rho == 0:
        fail("grad-bn-at-W-star", "sigma(W*) = 0: the BN network is undefined at W*")
    s = Fraction(1) if loss == "sum" else Fraction(1, m)
    k = dot(c, w_star) / (m * rho)
    u = [-(2 * s * gamma / rho) * (ci - k * gi) for ci, gi in zip(c, matvec(Xct, xw))]
    grad, gpath = w["grad_bn_at_W_star"], path + ".grad_bn_at_W_star"
    ra = vector(grad["rational"], gpath + ".rational", d)
    co = vector(grad["coefficients"], gpath + ".coefficients", d)
    r = rational(grad["radicand"], gpath + ".radicand")
    if r < 0:
        fail("grad-bn-at-W-star", "negative radicand")
    for i in range(d):
        if not surd_equal(ra[i], co[i], r, Fraction(0), u[i], rho):
            fail("grad-bn-at-W-star", f"entry {i} differs from the BN gradient at W*")

    # hypothesis
    inner = rational(w["inner_W0_W_star"], path + ".inner_W0_W_star")
    if inner != dot(w0, w_star):
        fail("hypothesis", "inner_W0_W_star != <W0, W*>")
    verdict = w["verdict"]
    if verdict not in (REFUTED, HOLDS, NOT_MET) or (inner <= 0) != (verdict == NOT_MET):
        fail("hypothesis", "the verdict does not match the sign of <W0, W*>")

    # residual
    norm2 = dot(w_star, w_star)
    diff = [x - z for x, z in zip(w0, w_star)]
    want_rhs = None if norm2 == 0 else dot(diff, diff) - (norm2 - inner) ** 2 / norm2
    want_res = None if want_rhs is None else want_rhs - lhs
    if optional(w["rhs"], path + ".rhs") != want_rhs:
        fail("residual", "rhs differs from the right-hand side of the inequality")
    if optional(w["residual"], path + ".residual") != want_res:
        fail("residual", "residual != rhs - lhs")
    want_verdict = NOT_MET if inner <= 0 else REFUTED if want_res < 0 else HOLDS
    if verdict != want_verdict:
        fail("residual", f"verdict should be {want_verdict}")
    return verdict


def check_document(doc) -> str:
    """Raise Rejected with the first failing step unless doc is a valid certificate;
    return what was established ("<claim id> <verdict>", and for a program what it trusts)."""
    if type(doc) is not dict:
        raise Rejected("the document is not a JSON object")
    if "program" in doc and "witnesses" not in doc:
        return check_program(doc, {CLAIM_ID: (STATEMENT, SOURCE)})
    check_structure(doc)
    check_envelope(doc)
    claim = doc["claim"]
    if claim["id"] != CLAIM_ID:
        raise Rejected("unknown claim " + (ascii(claim["id"][:60]) if type(claim["id"]) is str
                                           else "id (not a string)"))
    if claim["statement"] != STATEMENT:
        raise Rejected("claim statement differs from the printed statement of lemma-4.5")
    if claim["source"] != SOURCE:
        raise Rejected("claim source differs from the source of lemma-4.5")

    X, Y, W0, gamma, _beta, loss = instance(doc["instance"])
    n = len(gamma)
    neurons = array(doc["witnesses"]["neurons"], "witnesses.neurons", MAX_N, n)
    batch = Batch(X)
    verdicts = [check_neuron(j, batch, [row[j] for row in Y], W0[j], gamma[j], loss, w)
                for j, w in enumerate(neurons)]

    obligations = array(doc["obligations"], "obligations", 7 * MAX_N, 7 * n)
    expected = [{"neuron": j, "fact": fact} for j in range(n) for fact in FACTS]
    for i, (item, want) in enumerate(zip(obligations, expected)):
        if type(item["neuron"]) is not int or item != want:
            raise Rejected(f"obligations[{i}]: expected neuron {want['neuron']}, fact {want['fact']}")

    want = REFUTED if REFUTED in verdicts else NOT_MET if NOT_MET in verdicts else HOLDS
    if doc["verdict"] != want:
        raise Rejected(f"document verdict should be {want}")
    return f"{CLAIM_ID} {want}"


def check_file(path) -> tuple[bool, str]:
    """(accepted, the one output line) for a certificate file."""
    name = str(path) if str(path).isprintable() else ascii(str(path))  # one line, always
    try:
        result = check_document(read(path))
    except Rejected as exc:
        return False, f"REJECTED {name}: {exc}"
    except RecursionError:
        return False, f"REJECTED {name}: nested too deeply"
    except MemoryError:
        return False, f"REJECTED {name}: out of memory"
    except Exception as exc:  # a last resort: a checker bug must still reject
        return False, f"REJECTED {name}: internal checker error: {type(exc).__name__}"
    return True, f"ACCEPTED {name}: {result}"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bnproof.checker",
        description="Check bnproof certificates independently of bnproof.")
    parser.add_argument("files", nargs="+", metavar="FILE")
    all_ok = True
    for path in parser.parse_args(argv).files:
        ok, line = check_file(path)
        all_ok = all_ok and ok
        try:
            print(line)
        except UnicodeEncodeError:  # an odd file name on a narrow terminal
            print(ascii(line)[1:-1])
    return 0 if all_ok else 6
