"""An every-d proof certificate (proved for every batch size m and every feature count
d) as a LaTeX derivation: the claim as printed, the sums over the batch and feature
indices that the residual reduces to (each named once, by its canonical form), and the
residual, 0.  Every formula is printed from the independent checker's own replay
(checker/every_d.py) of the certificate it has accepted; nothing is read from the
certificate as text but the claim's statement (through the statement grammar) and its
source (escaped)."""

from __future__ import annotations

from ..checker import every_d as CD
from .latex import Document, mathit, tt

MAX_SHOWN = 12
BATCH, FEATURE = ("i", "k", "l", "a", "b", "c"), ("j", "p", "q", "r", "s", "t")


def _sum(key: tuple) -> str:
    """Σ over the bound indices of the product of the factors."""
    letters = {}
    for f in key:
        for x in f[1:]:
            if x not in letters:
                pool = BATCH if x[1] == "m" else FEATURE
                used = sum(1 for y in letters if y[1] == x[1])
                letters[x] = pool[used] if used < len(pool) else f"{pool[0]}_{{{used}}}"
    body = r"\,".join(f"{mathit(f[0])}_{{{''.join(letters[x] for x in f[1:])}}}" for f in key)
    over = ",".join(letters[x] for x in letters)
    return rf"\sum_{{{over}}} {body}"


def document(doc: dict, checker_line: str, name_: str, source=None) -> Document:
    claim, program = doc["claim"], doc["program"]
    inputs = CD.read_inputs(program["inputs"])
    ev = CD.Evaluator(inputs)
    ev.run(CD.read_steps(program["steps"], inputs))
    atoms: list = []

    def collect(scalar) -> None:
        num, den = scalar
        monomials = list(num) + [mono for factor in den for mono, _ in factor]
        for mono in monomials:
            for atom, _ in mono:
                if atom[0] == "G" and atom not in atoms:
                    atoms.append(atom)

    for value in ev.values:
        for coef in value.values():
            collect(coef)
    for radicand in ev.alg.radicands:
        collect(radicand)
    out = Document(rf"Proof of {tt(claim['id'])} for every batch size and every feature count",
                   key=claim["id"] + "-every-d",
                   provenance=(f"Certificate {name_}: a proof for every batch size m and every number d "
                               f"of features, a program of {len(program['steps'])} steps,\nreplayed by the "
                               "stdlib-only checker in its own algebra:\n" + " ".join(checker_line.split())))
    out.claim("The claim", claim["source"], claim["statement"])
    out.para("Its residual $R$ is 0 exactly when the claim holds. We show that it is so for every "
             "batch size $m$ and every number $d$ of features at once.")
    out.section("Sums over the batch and the features")
    out.para(r"The batch index ($i, k, \dots$) runs over $1, \dots, m$ and the feature index "
             r"($j, p, \dots$) over $1, \dots, d$. Every step of the program is a sum of products "
             r"of the inputs' entries; a sum over an index no factor reads is $m$ (or $d$) times "
             r"its term, and a sum of a product whose factors share no index is the product of "
             r"their sums. So the residual is a rational function of $m$, $d$, the scalar inputs, "
             r"square roots, and the fully summed products:")
    for n, atom in enumerate(atoms[:MAX_SHOWN]):
        out.equation(f"G_{{{n + 1}}}", _sum(atom[1]))
    if len(atoms) > MAX_SHOWN:
        out.para(f"({len(atoms) - MAX_SHOWN} more sums of the program are not shown.)")
    out.para("Two sums are one symbol when they are the same product after renaming their "
             "indices.")
    out.section("Conclusion")
    squares = (doc["proof"].get("squares") or {}).get("terms")
    if squares:  # an inequality: R = Σ c_k Σ T_k∘T_k (checker/every_d_squares.py)
        n = len(squares)
        out.para("Treating each of these sums as an unknown, the residual minus a sum of "
                 f"{n} square{'s' if n > 1 else ''} has the zero polynomial as its normal form: for every "
                 "$m \\ge 1$ and every $d \\ge 1$, wherever the claim is defined,")
        out.display(r"R = \sum_k c_k \sum T_k^{\,2} \ge 0")
        out.para("where each $T_k$ is a tensor of the program's steps, the inner sum runs over all "
                 "its indices, and each $c_k$ is manifestly $\\ge 0$ (positive rationals times "
                 "$m$, $d$, even powers, and inputs declared positive). So the inequality holds for "
                 f"every $m$ and every $d$. It is defined at $m = {doc['witness']['m']}$, "
                 f"$d = {doc['witness']['d']}$ on the certificate's witness, so the statement is not vacuous.")
        return out
    out.para("Treating each of these sums as an unknown, the residual's normal form is the zero "
             "polynomial, so for every $m \\ge 1$ and every $d \\ge 1$, wherever the claim is defined,")
    out.display("R = 0")
    holds = ("the identity holds" if claim["kind"] == "identity"
             else "the inequality holds, with equality,")
    out.para(f"that is, {holds} for every $m$ and every $d$. It is defined at $m = {doc['witness']['m']}$, "
             f"$d = {doc['witness']['d']}$ on the certificate's witness, so the statement is not vacuous.")
    return out
