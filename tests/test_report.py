"""`bnproof report`: every claim of a paper in one referee's report.

The report judges nothing itself: each verdict is fuzz's, each derivation is
`bnproof latex`'s.  What it owns, and what these tests attack: the paper's order
(Theorem 4.1 before Lemma 4.5 before Fact C.1, a claim's variants after it), a
summary that agrees with the sections, the certificates it names existing and
accepted, documents that compile without a warning, the same seed giving the
same bytes, Ctrl-C keeping what was finished, and bad input as one line."""

import json
import re
import subprocess
import sys
import textwrap
from types import SimpleNamespace

import pytest

from bnproof._api.report import claims_of, paper_order, report
from bnproof.checker.kernel import check_file
from bnproof.errors import BadInput
from cli_runner import run_cli as run_here

PAPER = textwrap.dedent('''
    from bnproof.claims import Claim, Var
    from bnproof.claims.blocks import normalize, stats

    Y = (Var("y", ("m",)),)
    SIZES = {"m": (2, 4)}
    SRC = "Doe & Roe (2031), A paper on normalization"

    def spread(xp, y):
        return stats(xp, y)[1] ** 2

    FACT = Claim(id="doe2031/fact-a.1", source=SRC + ", Fact A.1, p. 12", statement=r"\\sum_b \\hat y_b = 0",
                 variables=Y, sizes=SIZES, hypotheses=(spread,), kind="identity",
                 residual=lambda xp, y: xp.sum(normalize(xp, y)[0]))
    LEMMA_FALSE = Claim(id="doe2031/lemma-2.3", source=SRC + ", Lemma 2.3, p. 4", statement=r"|\\hat y_b| \\le 1",
                        variables=Y, sizes=SIZES, hypotheses=(spread,),
                        residual=lambda xp, y: 1 - xp.max(normalize(xp, y)[0] ** 2))
    THEOREM = Claim(id="doe2031/theorem-1.2", source=SRC + ", Theorem 1.2, p. 2",
                    statement=r"\\hat y_b^2 \\le m - 1", variables=Y, sizes=SIZES, hypotheses=(spread,),
                    residual=lambda xp, y: (y.shape[0] - 1) - xp.max(normalize(xp, y)[0] ** 2))
''')


@pytest.fixture(scope="module")
def paper(tmp_path_factory):
    folder = tmp_path_factory.mktemp("paper")
    (folder / "claims.py").write_text(PAPER)
    return folder


@pytest.fixture(scope="module")
def result(paper, tmp_path_factory):
    out = tmp_path_factory.mktemp("out")
    return report([str(paper)], seed=0, time_budget=300, jax=False, out_dir=out), out


def test_the_paper_order_is_the_papers_numbering_not_the_files():
    def claim(i, source):
        return SimpleNamespace(id=i, source=source)

    given = [claim("c1", "P, Fact C.1, Appendix"), claim("l45", "P, Lemma 4.5, p. 8"),
             claim("t41v", "P, Theorem 4.1, p. 6 (as derived)"), claim("t41", "P, Theorem 4.1, p. 6"),
             claim("t42", "P, Theorem 4.2, p. 6"), claim("none", "P, the introduction"),
             claim("t410", "P, Theorem 4.10")]
    order = [c.id for c in paper_order(given)]
    # 4.2 < 4.10 (numbers, not strings); a label's variants keep their given order
    assert order == ["t41v", "t41", "t42", "l45", "t410", "c1", "none"]


def test_a_folder_gives_its_claims_in_the_papers_order(paper):
    assert [c.id for c in claims_of([str(paper)])] == [
        "doe2031/theorem-1.2", "doe2031/lemma-2.3", "doe2031/fact-a.1"]


def test_bad_targets_are_bad_input(tmp_path):
    with pytest.raises(BadInput, match="no claim files"):
        claims_of([str(tmp_path)])
    with pytest.raises(BadInput):
        claims_of(["no-such-paper-2031"])
    with pytest.raises(BadInput, match="needs a paper"):
        claims_of([])


def test_every_verdict_is_fuzzs_and_the_summary_agrees_with_it(result):
    paper_report, out = result
    verdicts = {r.claim_id: r.verdict for r in paper_report.results}
    assert verdicts["doe2031/lemma-2.3"] == "refuted"
    assert verdicts["doe2031/theorem-1.2"] == "survived"  # max is outside the prover's fragment
    assert paper_report.results[2].proof.status == "proved"  # Σ ŷ = 0, for every m
    data = paper_report.to_json(timings=False)
    assert data["report"] == "Doe & Roe (2031), A paper on normalization"
    assert data["summary"]["refuted"] == 1 and data["summary"]["proved"] == 1
    assert sum(data["summary"].values()) == 3
    assert [c["claim"] for c in data["claims"]] == [r.claim_id for r in paper_report.results]
    assert json.loads(json.dumps(data)) == data


def test_the_certificates_it_names_exist_and_the_checker_accepts_them(result):
    paper_report, out = result
    text = paper_report.markdown(timings=False)
    named = re.findall(r"^python -m bnproof\.checker (\S+)$", text, re.M)
    assert named, text
    for path in named:
        assert check_file(path)[0], path
    refuted = next(r for r in paper_report.results if r.verdict == "refuted")
    assert str(refuted.certificate_path) in named


def test_the_markdown_opens_with_the_summary_in_the_papers_order(result):
    text = result[0].markdown(timings=False)
    summary = text.split("## Summary", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in summary.splitlines() if line.startswith("| ") and "`" in line]
    assert [re.search(r"`([^`]+)`", r).group(1) for r in rows] == [
        "doe2031/theorem-1.2", "doe2031/lemma-2.3", "doe2031/fact-a.1"]
    assert "**refuted**" in rows[1]
    # sampling is never called a proof
    assert "not a proof" in rows[0] and "proved for every m" not in rows[0]
    sections = re.findall(r"^## \d+\. `([^`]+)`", text, re.M)
    assert sections == ["doe2031/theorem-1.2", "doe2031/lemma-2.3", "doe2031/fact-a.1"]


@pytest.mark.parametrize("columns", [1, 2])
def test_the_latex_report_compiles_without_a_warning(result, tmp_path, columns):
    from latex_support import compile_full

    text = result[0].latex(columns)
    assert text.isascii()
    assert ("twocolumn" in text) == (columns == 2)
    compile_full(tmp_path, text)  # twice, and not a single warning
    # a section per claim, and the refutation's own derivation under its section
    assert len(re.findall(r"\\section\{(?:Theorem|Lemma|Fact)", text)) == 3
    assert "The counterexample" in text


def test_ctrl_c_keeps_the_claims_finished_and_names_the_rest(paper, tmp_path):
    def stop_at_second(index, count, claim):
        if index == 1:
            raise KeyboardInterrupt

    partial = report([str(paper)], seed=0, time_budget=300, jax=False, out_dir=tmp_path,
                     on_claim=stop_at_second)
    assert partial.interrupted
    assert [r.claim_id for r in partial.results] == ["doe2031/theorem-1.2"]
    assert partial.pending == ["doe2031/lemma-2.3", "doe2031/fact-a.1"]
    text = partial.markdown(timings=False)
    assert "not reached" in text and "interrupted" in text
    assert partial.to_json(False)["pending"] == partial.pending


def run_cli(args, cwd):
    return subprocess.run([sys.executable, "-m", "bnproof", "report", *args], cwd=cwd, capture_output=True,
                          text=True)


def test_the_command_same_seed_same_bytes_and_fuzzs_exit_code(paper, result, tmp_path):
    # the command in a process of its own: another interpreter, another hash seed (set order),
    # against the module's report made in this process with the same options (seed 0, no JAX,
    # budget 300) rather than a second run of the command here: only where the certificates
    # were written differs (the command's default bnproof-out/, the fixture's folder)
    first = run_cli([str(paper), "--no-jax", "--no-timings", "--time-budget", "300", "-o", "a.md"], tmp_path)
    assert first.returncode == 1, first.stderr  # a claim is refuted
    here, out = result
    text = here.markdown(timings=False)
    assert str(out) in text
    assert (tmp_path / "a.md").read_text(encoding="utf-8") == text.replace(str(out), "bnproof-out")
    assert "Referee report" in text


@pytest.mark.parametrize("args, message", [
    (["--format", "html"], "--format must be markdown or latex"),
    (["no-such-paper-2031"], "no-such-paper-2031"),
])
def test_bad_input_is_one_line_and_exit_3(paper, tmp_path, args, message):
    if args[0].startswith("--"):
        args = [str(paper), *args]
    proc = run_here("report", *args, cwd=tmp_path)  # the entry point, in this process
    assert proc.returncode == 3, proc.stderr
    assert message in proc.stderr
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1



def test_every_section_says_which_reading_was_checked(tmp_path):
    (tmp_path / "one.py").write_text(textwrap.dedent('''
        from bnproof.claims import Claim, Var

        ONE = Claim(id="doe2031/remark-1.1", source="Doe (2031), Remark 1.1", statement=r"\\max_b y_b^2 \\ge 0",
                    variables=(Var("y", ("m",)),), sizes={"m": (2, 3)},
                    reading="the maximum over the batch of the squared entries",
                    residual=lambda xp, y: xp.max(y * y))
    '''))
    one = report([str(tmp_path / "one.py")], seed=0, time_budget=300, jax=False, out_dir=tmp_path)
    assert one.results[0].verdict == "survived"
    text = one.markdown(timings=False)
    assert "The reading checked: the maximum over the batch of the squared entries" in text
    assert "How the claim is read" in one.latex()
