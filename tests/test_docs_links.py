"""The documentation cites only files that are in the repository, and no
work-tracking numbers ("issue 12", "#34"): a reader has neither the tracker nor
the files that were never committed."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md"), *(ROOT / "docs").glob("*/*.md")])
TOP = ("bnproof", "docs", "tests", "bench", "proofs", "certificates")
LINK = re.compile(r"\]\(([^)\s]+)\)")
# `docs/claims.md`, `bench/tamper_campaign.py`: a path in the repository, cited as such
CITED = re.compile(r"`((?:%s)/[\w./-]+\.\w+)`" % "|".join(TOP))
NOTES = re.compile(r"(?<![\w/.])([A-Z][A-Z_]+\.md)\b")  # STYLE.md, NOTES.md: at the repository's root
TRACKING = re.compile(r"\b(?:issues?|tickets?|PRs?|pull requests?|part)\s+#?\d+(?:\.\d+)?\b|(?<![\w&])#\d+\b",
                      re.IGNORECASE)


def cited(page: Path) -> list[tuple[str, Path]]:
    text = page.read_text(encoding="utf-8")
    found = []
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue  # a web address or an anchor on the same page
        found.append((target, (page.parent / target.split("#")[0]).resolve()))
    for target in CITED.findall(text):
        found.append((target, (ROOT / target).resolve()))
    for target in NOTES.findall(text):
        if target != "README.md":  # every folder may have its own
            found.append((target, ROOT / target))
    return found


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_every_file_the_docs_cite_is_in_the_repository(page):
    missing = [target for target, path in cited(page) if not path.exists()]
    assert not missing, f"{page.relative_to(ROOT)} cites files that are not in the repository: {missing}"


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_the_docs_cite_no_work_tracking_numbers(page):
    text = page.read_text(encoding="utf-8")
    found = [m.group(0) for m in TRACKING.finditer(text)]
    assert not found, f"{page.relative_to(ROOT)} cites work-tracking numbers: {found}"


def test_the_scan_sees_a_missing_file_and_a_tracking_number(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("See [the notes](notes/gone.md), `bench/gone.py`, STYLE.md and issue 12 (#34).\n")
    assert [t for t, p in cited(page) if not p.exists()] == ["notes/gone.md", "bench/gone.py", "STYLE.md"]
    assert [m.group(0) for m in TRACKING.finditer(page.read_text())] == ["issue 12", "#34"]


def test_the_readme_says_beside_its_main_command_that_exit_1_means_refuted():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    after = readme.split("bnproof verify lemma-4.5\n```", 1)[1]
    paragraph = after.strip().split("\n\n", 1)[0]
    assert "exit code 1" in paragraph and '"refuted"' in paragraph and "expected" in paragraph
