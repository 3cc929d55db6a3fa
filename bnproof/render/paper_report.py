"""A paper's report (`bnproof report`) as Markdown, LaTeX and JSON.

Nothing here is typeset twice: a claim's verdict is the text `bnproof fuzz` prints
(render/fuzz.py), and a refuted or proved claim's derivation is the fragment
`bnproof latex` writes (_api/latex.py), put under the claim's own section.  This
module only orders the claims, writes the summary and the headings, and says how
each certificate is checked again.
"""

from __future__ import annotations

from .. import __version__
from .latex import Document, Heading, escape, frame, items, label_key, prose, tt
from .latex_break import COLUMN, PAGE
from .report_keys import LABEL, verdict_key

VERDICT_WORDS = {
    "refuted": "refuted",
    "proved": "proved for every m",
    "proved-partly": "proved for part of the range",
    "verified-exactly": "verified exactly at fixed sizes",
    "survived": "survived (no counterexample; not a proof)",
    "vacuous": "vacuous",
    "undecided": "undecided",
}
WIDE_NUMBERS = 12.0  # points
ORDER = ["refuted", "proved", "proved-partly", "verified-exactly", "survived", "vacuous", "undecided"]


def _key(result) -> str:
    return verdict_key(result)


def paper_title(report) -> str:
    """The paper the claims are from (their sources before the numbered label), or how
    many papers, when they are from several."""
    papers = []
    for r in report.results:
        source = r.source or ""
        found = LABEL.search(source)
        title = source[:found.start()].rstrip(" ,;") if found else source
        if title and title not in papers:
            papers.append(title)
    if len(papers) == 1:
        return papers[0]
    return f"{len(report.results)} claims" + (f" from {len(papers)} sources" if papers else "")


def _label_of(source: str) -> str:
    """'Theorem 4.1, p. 6' from a source: what a reader looks up in the paper."""
    found = LABEL.search(source or "")
    return source[found.start():].strip() if found else (source or "")


def heading(result) -> str:
    """A claim's section title: the paper's label and the claim's variant ("Theorem 4.2
    (part-2/corrected)"), short enough for a column; the id where the source names no label."""
    found = LABEL.search(result.source or "")
    if found is None:
        return result.claim_id
    parts = result.claim_id.split("/")
    variant = "/".join(parts[2:])
    return found.group(0).strip() + (f" ({variant})" if variant else "")


def summary_line(result) -> str:
    """One line of evidence for the summary: the counterexample's size, the sizes a
    proof covers, how many instances survived, or why undecided."""
    key = _key(result)
    if key == "refuted":
        return "exact counterexample, certificate checked"
    if key in ("proved", "proved-partly"):
        count = len(result.proof.certificate_paths) or 1
        return (f"{result.proof.text}; {count} proof certificate{'s' if count > 1 else ''} checked"
                if key == "proved-partly" else f"{count} proof certificate{'s' if count > 1 else ''} checked")
    if key == "verified-exactly":
        if not result.claim.variables:
            return "holds exactly (the claim has no free variables)"
        return next((n for n in result._outcome.notes if n.startswith("verified")), "verified exactly")
    if key == "survived":
        proof = result.proof.text if result.proof is not None else "no proof attempted"
        return f"no counterexample in {result.instances} instances (seed {result.seed}); {proof}"
    return result.reason or key


def _recheck_lines(result) -> list[str]:
    paths = []
    if result.certificate_path is not None:
        paths.append(str(result.certificate_path))
    if result.proof is not None:
        paths.extend(str(p) for p in result.proof.certificate_paths)
    return paths


# ---------------------------------------------------------------- JSON


def to_json(report, timings: bool = True) -> dict:
    counts = report.counts()
    return {
        "report": paper_title(report),
        "bnproof": __version__,
        "seed": report.seed,
        "time_budget": report.time_budget,
        "jax": report.jax,
        "summary": {k: counts.get(k, 0) for k in ORDER},
        "claims": [dict(r.to_json(timings), summary=_key(r)) for r in report.results],
        "pending": list(report.pending),
        "interrupted": report.interrupted,
        **({"seconds": round(report.seconds, 3)} if timings else {}),
    }


# ---------------------------------------------------------------- Markdown


def markdown(report, timings: bool = True) -> str:
    title = paper_title(report)
    out = [f"# Referee report: {title}", ""]
    out += [_preface(report), ""]
    out += ["## Summary", "", "| # | Claim | Where | Verdict | Evidence |", "|---|---|---|---|---|"]
    for k, r in enumerate(report.results, 1):
        out.append(f"| {k} | `{r.claim_id}` | {_md_cell(_label_of(r.source))} | "
                   f"**{VERDICT_WORDS[_key(r)]}** | {_md_cell(summary_line(r))} |")
    for claim_id in report.pending:
        out.append(f"| – | `{claim_id}` | | not reached | the run was interrupted |")
    out.append("")
    for k, r in enumerate(report.results, 1):
        out += [f"## {k}. `{r.claim_id}`", "", f"*{r.source}*", ""]
        out += ["Statement as printed:", "", "$$", r.statement.strip(), "$$", ""]
        if r.verdict != "refuted":  # fuzz's text of a refutation says it already
            from ..claims.naming import reading_paragraphs

            reading = " ".join(reading_paragraphs(getattr(r.claim, "reading", "")))
            if reading:
                out += [f"The reading checked: {reading}", ""]
        out += [f"**Verdict: {VERDICT_WORDS[_key(r)]}.**", ""]
        out += ["```text", r.text(timings), "```", ""]
        paths = _recheck_lines(r)
        if paths:
            out += ["Check the certificates again, without trusting bnproof's engine:", "", "```sh"]
            out += [f"python -m bnproof.checker {p}" for p in paths]
            out += ["```", ""]
    out += _certificates_md(report)
    return "\n".join(out).rstrip() + "\n"


def _md_cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _preface(report) -> str:
    jax = "Hypothesis and JAX float64" if report.jax else "Hypothesis"
    text = (f"bnproof {__version__} checked {len(report.results)} claim"
            f"{'s' if len(report.results) != 1 else ''}, in the paper's order. Each was searched for a "
            f"counterexample ({jax}, seed {report.seed}, at most {report.time_budget:g} s per claim); a "
            "counterexample is reported only once it is confirmed in exact arithmetic and its certificate is "
            "accepted by the independent checker. Every claim that survived was then proved for every batch "
            "size m where bnproof's prover reaches it. A survival is evidence, never a proof.")
    if report.interrupted:
        text += (f" The run was interrupted: {len(report.pending)} claim"
                 f"{'s were' if len(report.pending) != 1 else ' was'} not reached.")
    return text


def _certificates_md(report) -> list[str]:
    out = ["## Certificates", ""]
    rows = [(r.claim_id, p) for r in report.results for p in _recheck_lines(r)]
    if not rows:
        return out + ["No certificate was written: no claim was refuted or proved.", ""]
    out += ["Each certificate is a JSON file that the stdlib-only checker (`python -m bnproof.checker FILE`, "
            "or `bnproof check FILE`) replays in exact arithmetic; `bnproof check FILE --claim CLAIM.py` "
            "also binds it to the claim's code, and `bnproof export FILE --solve z3` asks an SMT solver.", ""]
    out += [f"- `{p}` ({claim_id})" for claim_id, p in rows]
    return out + [""]


# ---------------------------------------------------------------- LaTeX


def latex(report, columns: int = 1, fragment: bool = False, *, document) -> str:
    """The report as one LaTeX document (fragment: its body, for \\input into a paper's
    appendix); columns=2 sets it in a two-column article.  `document(result)` is the
    Document `bnproof latex` writes for a result (_api/latex.py build, which the API
    passes down): a refuted or proved claim's derivation."""
    title = "Referee report: " + escape(paper_title(report))
    body = [Heading(0, title, numbered=False).latex("section") if fragment else "",
            prose(_preface(report)), _summary_table(report)]
    # a whole paper's equations are numbered into the hundreds: "(123)" is wider than the
    # "(12)" the layout keeps room for (latex_break.NUMBER)
    width = (COLUMN if columns == 2 else PAGE) - WIDE_NUMBERS
    body += [_claim_section(r, width, document) for r in report.results]
    body.append(_certificates_tex(report))
    text = "\n\n".join(part for part in body if part) + "\n"
    if columns == 2 and not fragment:  # ragged right: a narrow column of long identifiers has no glue to justify with
        text = "\\raggedright\n\n" + text
    return frame(text, title=title, fragment=fragment, made_by=" (bnproof report)", columns=columns,
                 packages=("array",))


def _summary_table(report) -> str:
    ids = [r.claim_id for r in report.results] + list(report.pending)
    # one paper's claims share their first part (santurkar2018/): the title names the paper
    prefix = ids[0].split("/")[0] + "/" if ids and all(i.startswith(ids[0].split("/")[0] + "/") for i in ids) else ""
    rows = []
    for k, r in enumerate(report.results, 1):
        rows.append(rf"{k} & {tt(r.claim_id[len(prefix):])} & {escape(VERDICT_WORDS[_key(r)])} \\")
    for claim_id in report.pending:
        rows.append(rf"-- & {tt(claim_id[len(prefix):])} & not reached (interrupted) \\")
    # ragged columns (array's >{…}): an id of long words has no glue for a justified cell
    ragged = r">{\raggedright\arraybackslash}"
    return (Heading(0, "Summary").latex("section") + "\n\n\\begin{flushleft}\n\\begin{tabular}{@{}r@{\\ }" + ragged
            + "p{0.5\\linewidth}@{\\ }" + ragged + "p{0.4\\linewidth}@{}}\n & claim & verdict \\\\\n"
            "\\hline\n" + "\n".join(rows) + "\n\\end{tabular}\n\\end{flushleft}")


def _claim_section(result, width: float, document) -> str:
    """The claim's section: its verdict in a sentence, then the derivation `bnproof latex`
    writes for a refutation or a proof, or the statement and the search's evidence."""
    key = _key(result)
    head = Heading(0, escape(heading(result))).latex("section") + "\n" + \
        rf"\label{{bnproof:{label_key(result.claim_id)}:section}}"
    verdict = (rf"Claim {tt(result.claim_id)}. \textbf{{Verdict: {escape(VERDICT_WORDS[key])}}}. "
               + prose(_verdict_sentence(result)))
    parts = [head, verdict]
    derivation = _derivation(result, key, width, document)
    if derivation is None:
        parts.append(_statement_only(result, width))
    else:
        parts.append(derivation)
    return "\n\n".join(parts)


def _verdict_sentence(result) -> str:
    key = _key(result)
    if key == "refuted":
        return (f"A counterexample was found among {result.instances} instances (seed {result.seed}), "
                "confirmed in exact arithmetic, and its certificate was accepted by the independent checker.")
    if key in ("proved", "proved-partly"):
        return (f"It survived {result.instances} instances (seed {result.seed}), and then it was "
                f"{result.proof.text}; each proof certificate was accepted by the independent checker.")
    if key in ("survived", "verified-exactly"):
        return summary_line(result) + "."
    return f"{result.reason or key}."


def _derivation(result, key: str, width: float, document) -> str | None:
    """`bnproof latex`'s own document for the result, as a fragment under the claim's
    section, its displays laid out for the report's text width."""
    if key not in ("refuted", "proved", "proved-partly"):
        return None
    text = document(result).render(fragment=True, level="subsection", width=width)
    return _strip_comments(text)


def _strip_comments(text: str) -> str:
    # the fragment's provenance comments repeat what the report's own text says
    return "\n".join(line for line in text.splitlines() if not line.startswith("%")).strip()


def _statement_only(result, width: float) -> str:
    """The claim as printed, its reading and what the search found, where there is no
    derivation: laid out as a fragment of `bnproof latex` is, its statement unnumbered."""
    doc = Document(escape(heading(result)), key=result.claim_id)
    doc.claim("The claim as printed", result.source, result.statement, numbered=False)
    doc.reading(result.claim)
    notes = [n for n in result._outcome.notes if n]
    if notes:
        doc.section("What the search found")
        doc.items([prose(n) for n in notes])
    return _strip_comments(doc.render(fragment=True, level="subsection", width=width))


def _certificates_tex(report) -> str:
    rows = [(r.claim_id, p) for r in report.results for p in _recheck_lines(r)]
    out = [Heading(0, "Certificates").latex("section")]
    if not rows:
        return "\n\n".join(out + ["No certificate was written: no claim was refuted or proved."])
    out.append("Each certificate is a JSON file that the standard-library checker replays in exact "
               r"arithmetic: \texttt{python -m bnproof.checker FILE}. "
               r"\texttt{bnproof check FILE --claim CLAIM.py} also binds it to the claim's code.")
    out.append(items([rf"{tt(p)} ({tt(c)})" for c, p in rows]))
    return "\n\n".join(out)
