"""The checker and its second judge, z3 on the SMT-LIB export, decide the same facts.

On resealed mutants of every committed certificate (tests/tamper.py, every kind of
structural mutation): what the exporter refuses to export the checker rejects; what the
checker accepts z3 does not refute (never sat); what z3 confirms (unsat) the checker
accepts, or rejects only because it gave up (an undecided sign or a resource limit).
z3's effort is bounded by its resource counter, not by time; it may answer unknown."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import tamper
from bnproof.certificate.smtlib import CertificateRejected, document_smt
from bnproof.checker import Rejected, check_document

z3 = pytest.importorskip("z3")

ROOT = Path(__file__).resolve().parents[1]
# refutations: a proof's SMT export is per m (bnproof export --m), judged in test_export_proof.py
CERTIFICATES = sorted(p for p in (ROOT / "certificates").rglob("*.json") if not p.name.endswith(".proof.json"))
GAVE_UP = ("undecided at", "too much arithmetic", "beyond 100000 bits")


def z3_answer(text: str) -> str:
    # a fresh context per problem, so that its resource count (z3's own steps, "unknown"
    # past the limit) is this problem's alone; the committed certificates need < 200,000
    solver = z3.Solver(ctx=z3.Context())
    solver.set("rlimit", 250_000)
    solver.from_string(text.split("(check-sat)")[0])
    return str(solver.check())


def judged(doc, solve: bool = True) -> tuple[str | None, str | None]:
    """(the checker's rejection or None, z3's answer or None when not exported or not solved)."""
    try:
        check_document(doc)
        why = None
    except Rejected as exc:
        why = str(exc)
    try:
        text = document_smt(doc)
    except CertificateRejected:
        assert why is not None, "exported but refused by the exporter's reading while accepted"
        return why, None
    return why, z3_answer(text) if solve else None


# each seed: every structural kind resealed once per certificate (tamper.CYCLE mutants); three
# seeds give at least 20 mutants that z3 refutes and 20 it confirms (the first three of the six
# this test ran before; the rest, and longer campaigns, are bench/tamper_campaign.py's share)
SEEDS = range(3)


def test_checker_and_z3_agree_on_mutants():
    answers = []
    for path in CERTIFICATES:
        for seed in SEEDS:
            count = tamper.CYCLE  # each structural kind resealed once
            for kind, doc in tamper.mutants(path.read_bytes(), count, seed, documents=True,
                                            only=lambda n, kind: kind.endswith("+resealed")):
                # numbers of hundreds of digits slow z3's nonlinear arithmetic beyond what its
                # resource count bounds: for those only the exporter's refusals are compared
                why, answer = judged(doc, solve=not kind.startswith("huge"))
                where = f"{path.name} {kind} (seed {seed})"
                if why is None:
                    assert answer != "sat", f"{where}: accepted by the checker, refuted by z3"
                if answer == "unsat":
                    assert why is None or why.startswith(GAVE_UP) or "undecided" in why, \
                        f"{where}: confirmed by z3, rejected by the checker: {why}"
                answers.append(answer)
    # not vacuous: many mutants reach z3, which refutes some and confirms others
    assert len(answers) == len(CERTIFICATES) * len(SEEDS) * len(tamper.STRUCTURAL)
    assert answers.count("sat") >= 20 and answers.count("unsat") >= 20, answers


def test_the_committed_certificates_are_confirmed_by_both():
    # z3's only confirmation of each committed certificate in the suite (test_smtlib.py runs
    # cvc5 on each, and z3 through solve() on forgeries)
    for path in CERTIFICATES:
        assert judged(json.loads(path.read_text(encoding="utf-8"))) == (None, "unsat"), path


def _lemma_with_kernel(kernel) -> dict:
    """Instance A of tests/test_checker.py (ker Xc = span{(0, 1)}) with another kernel."""
    from test_checker import instance_a
    return instance_a(kernel=kernel)


@pytest.mark.parametrize("kernel, words", [
    ([[0, 1], [0, 2]], "not in echelon form"),       # linearly dependent: [e2, 2 e2]
    ([[0, 1], [1, 0]], "kernel vector 1 is not in ker Xc"),
    ([], "0 kernel vectors, but dim ker Xc = 1"),
])
def test_a_wrong_kernel_basis_is_refused_by_both(kernel, words):
    # before, [e1, 2 e1] was rejected by the checker and confirmed (unsat) by z3
    why, answer = judged(_lemma_with_kernel(kernel))
    assert words in why and answer != "unsat"
    assert judged(_lemma_with_kernel([[0, 1]])) == (None, "unsat")
