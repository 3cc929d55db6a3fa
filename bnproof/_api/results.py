"""What the API returns: plain dataclasses with the verdict and exact values,
their JSON as the command line prints it, and a Jupyter display."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from . import display


def _exact(value):
    if isinstance(value, (list, tuple)):
        return [_exact(v) for v in value]
    return Fraction(value)


@dataclass(frozen=True)
class FuzzResult:
    """The verdict of `bnproof.fuzz` on one claim.

    verdict is "refuted", "survived", "verified-exactly" (an identity proved at
    every size the claim declares, or a claim without variables that holds),
    "vacuous" or "undecided" (then `reason` says why).  A refutation carries the exact
    counterexample (variable name → Fraction, or nested lists of Fractions),
    the residual as exact text, and the certificate's JSON text, already
    accepted by the independent checker; `certificate_path` is where it was
    written (None unless fuzz was given out_dir).  "survived" is evidence
    (`instances` drawn, `met_hypotheses` of them inside the claim), never a
    proof.  `claim` is the Claim it was run on, so `bnproof.latex(result)`
    writes the counterexample in its symbols with no `source=`.  `proof` is the proof
    for every m that fuzz attempted for a claim that survived (a `ProveResult`, as
    `bnproof.prove` returns it: proved, proved for part of the range, or not proved
    with what blocked it), or says why none was attempted (status "not-attempted"):
    `to_json()["proof"]` is its object; None only for a result made otherwise.  A
    result whose claim was refuted or proved is a LaTeX document: `bnproof.latex(result)`.
    An existential claim ("there exist …") that survived with witnesses carries their
    certificate: `witness_certificate` is its JSON text, already accepted by the
    independent checker (each witness confirmed exactly at its instance), and
    `witness_certificate_path` where it was written (None unless fuzz was given out_dir);
    both None for any other result."""

    claim_id: str
    source: str
    statement: str
    verdict: str
    reason: str | None
    seed: int
    instances: int
    met_hypotheses: int
    counterexample: dict | None
    residual: str | None
    residual_float: float | None
    decided_by: str | None
    certificate: str | None = field(repr=False)
    certificate_path: Path | None
    certificate_check: str | None
    stopped: str | None
    seconds: float
    claim: object = field(repr=False, compare=False)
    _outcome: object = field(repr=False, compare=False)
    proof: object = field(default=None, compare=False)
    witness_certificate: str | None = field(default=None, repr=False)
    witness_certificate_path: Path | None = None

    @classmethod
    def of(cls, outcome, path: Path | None, witness_path: Path | None = None) -> "FuzzResult":
        data = _fuzz_json(outcome, path, True, witness_path)
        ref = outcome.refutation if outcome.verdict == "refuted" else None
        return cls(
            claim_id=data["claim"], source=data["source"], statement=data["statement"],
            verdict=data["verdict"], reason=data["reason"], seed=data["seed"],
            instances=data["instances"], met_hypotheses=data["met_hypotheses"],
            counterexample=None if ref is None else {v.name: _exact(ref.instance[v.name])
                                                     for v in outcome.claim.variables},
            residual=data.get("residual"), residual_float=data.get("residual_float"),
            decided_by=data.get("decided_by"),
            certificate=None if ref is None else ref.document,
            certificate_path=path if ref is not None else None,
            certificate_check=data.get("certificate_check"), stopped=data["stopped"],
            seconds=outcome.seconds, claim=outcome.claim, _outcome=outcome, proof=_proof(outcome),
            witness_certificate=_witnesses(outcome),
            witness_certificate_path=witness_path if _witnesses(outcome) is not None else None)

    @property
    def refuted(self) -> bool:
        return self.verdict == "refuted"

    @property
    def exit_code(self) -> int:
        """The exit code `bnproof fuzz` gives this verdict."""
        from ..render.fuzz import exit_code

        return int(exit_code([self.verdict]))

    def to_json(self, timings: bool = True) -> dict:
        """This claim's object in the list `bnproof fuzz --json` prints (timings=False: `--no-timings`)."""
        return _fuzz_json(self._outcome, self.certificate_path, timings, self.witness_certificate_path)

    def text(self, timings: bool = True) -> str:
        """The report `bnproof fuzz` prints."""
        from ..render.fuzz import to_text

        lines = to_text(self._outcome, self.to_json(timings), timings)
        if self.refuted and self.certificate_path is None:
            lines[-1] = "Certificate: accepted by the checker, kept in memory (fuzz(..., out_dir=) writes it)"
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.text()

    def counterexample_lines(self, unicode: bool = True) -> list[str]:
        """'  name = value' per variable, then the residual, typeset as the report
        shows them (1 − √2, (−1)); unicode=False: the ASCII the report falls back to."""
        if not self.refuted:
            return []
        return counterexample_lines(self.claim, self.counterexample, self.residual, self.residual_float,
                                    self.decided_by, unicode)

    def _repr_latex_(self) -> str:
        rows = [r"&\text{" + self.verdict + r":}\ " + display.math_text(self.claim_id)]
        statement = display.statement_latex(self.statement)
        if statement is not None:
            rows.append(r"&\text{claim: }\ " + statement)
        if self.refuted:
            from ..render import laws  # a law as its values and their probabilities, as bnproof.latex shows it

            rows.append(r"&\text{exact counterexample:}")
            for name, value, is_law in laws.grouped(self.claim, self.counterexample):
                if is_law:
                    rows += [rf"&\quad \Pr({display.variable_latex(name)} = {display.value_latex(point)}) = "
                             rf"{display.fraction_latex(p)}" for point, p in value]
                else:
                    rows.append(rf"&\quad {display.variable_latex(name)} = {display.value_latex(value)}")
            residual = display.residual_latex(self.certificate)
            if residual is None and self.residual_float is not None:
                residual = rf"\approx {self.residual_float:.6g}"
            if residual is not None:
                rel = display.relation(self.claim.kind, self.claim.strict)[0]
                rows.append(rf"&\quad \text{{residual}} = {residual} {rel}")
        else:
            rows.append(rf"&\text{{{self.instances} instances, {self.met_hypotheses} met the hypotheses "
                        rf"(seed {self.seed})}}")
        return display.aligned(rows)

    def _repr_html_(self) -> str:
        title = f"{self.verdict.upper()}: {self.claim_id} ({self.source})"
        rows = [("claim", self.statement)]
        notes = []
        if self.refuted:
            from ..render import laws

            rows += [(name, laws.text(name, value, display.value_text, math) if is_law else
                      math(display.value_text(value)))
                     for name, value, is_law in laws.grouped(self.claim, self.counterexample)]
            rows.append(("residual", f"{_residual_text(self.residual, self.residual_float)} "
                                     f"{display.relation(self.claim.kind, self.claim.strict)[1]}"))
            notes.append(f"decided by {self.decided_by}; certificate accepted by the independent checker"
                         + (f" and written to {self.certificate_path}" if self.certificate_path else ""))
        else:
            notes = self.text().splitlines()[1:]
        return display.html_block(title, rows, notes, self._repr_latex_() if self.refuted else None)


def _proof(outcome):
    """The ProveResult of the proof object fuzz made (symbolic_m/survivor.py), with the
    certificates of what it proved, or None where it made none."""
    if outcome.proof is None:
        return None
    from .prove import ProveResult

    return ProveResult.of(outcome.claim, outcome.proof, outcome.proof_attempts or [],
                          outcome.proof["certificates"])


def counterexample_lines(claim, values: dict, residual: str, residual_float: float | None,
                         decided_by: str, unicode: bool = True) -> list[str]:
    """A falsifying example as a person reads it: '  name = value' per variable,
    then '  residual = … ≈ … < 0 (decided by …)'.  The values arrive exact
    (Fractions) and the residual in SymPy's printed form, the text --json
    carries; both are typeset here (unicode_math), never evaluated."""
    from ..render.unicode_math import ascii_line

    m = math if unicode else str  # ASCII: SymPy's form, as the fuzz report falls back to it
    from ..render import laws  # a law as its values and their probabilities (render/laws.py)

    lines = [f"  {laws.text(name, value, display.value_text, m)}" if is_law else
             f"  {name} = {m(display.value_text(value))}" for name, value, is_law in laws.grouped(claim, values)]
    lines.append(f"  residual = {_residual_text(residual, residual_float, m)} "
                 f"{display.relation(claim.kind, claim.strict)[1]} (decided by {decided_by})")
    return lines if unicode else [ascii_line(line) for line in lines]


def math(text: str) -> str:
    """SymPy's printed form typeset in Unicode: 1 - sqrt(2) -> 1 − √2."""
    from ..render.unicode_math import math as typeset

    return typeset(text)


def _residual_text(residual: str, residual_float: float | None, m=math) -> str:
    approx = f" ≈ {m(format(residual_float, '.6g'))}" if residual_float is not None else ""
    return f"{m(residual)}{approx}"


def _witnesses(outcome) -> str | None:
    """The witness certificate of an existential claim that survived (search/exists.py)."""
    text = getattr(outcome, "witnesses", None)
    return text if text and outcome.verdict == "survived" else None


def _fuzz_json(outcome, path: Path | None, timings: bool, witness_path: Path | None = None) -> dict:
    from ..render.fuzz import to_json

    out = to_json(outcome, None if path is None else str(path), timings,
                  None if witness_path is None else str(witness_path))
    if outcome.verdict == "refuted" and path is None and outcome.refutation is not None:
        out["certificate_check"] = f"ACCEPTED (in memory): {outcome.refutation.established}"
    return out


@dataclass(frozen=True)
class VerifyResult:
    """The verdict of `bnproof verify` on one instance: "refuted", "holds" or
    "hypothesis-not-met".  lhs, rhs and residual (RHS − LHS) are Fractions for
    one neuron, tuples of them for several (rhs is None where W* = 0); the
    vectors are exact SymPy strings.  The certificate's JSON text was accepted
    by the independent checker; certificate_path is where it was written (None
    unless verify was given out)."""

    claim_id: str
    verdict: str
    instance: str
    lhs: object
    rhs: object
    residual: object
    W_star: object
    grad_bn_at_W_star: object
    closest_bn_optimum: object
    crosscheck: dict | None
    certificate: str = field(repr=False)
    certificate_path: Path | None
    certificate_check: str
    report: object = field(repr=False, compare=False)
    forms: object = field(repr=False, compare=False)
    numeric: object = field(repr=False, compare=False)

    @classmethod
    def of(cls, report, forms, numeric, text: str, path: Path | None, line: str) -> "VerifyResult":
        from ..claims import lemma45
        from ..exact.linalg import to_fraction
        from ..render import report as render

        def per_neuron(values):
            return values[0] if len(values) == 1 else tuple(values)

        def fraction(x):
            return None if x is None else to_fraction(x)

        ns = report.neurons
        out = render.top_json(report, forms)  # not the whole report: the instance is not needed here
        return cls(
            claim_id=lemma45.ID, verdict=report.verdict, instance=report.instance.name,
            lhs=per_neuron([fraction(n.lhs) for n in ns]), rhs=per_neuron([fraction(n.rhs) for n in ns]),
            residual=per_neuron([fraction(n.residual) for n in ns]),
            W_star=_tuples(out["W_star"], len(ns)),
            grad_bn_at_W_star=_tuples(out["grad_bn_at_W_star"], len(ns)),
            closest_bn_optimum=_tuples(out["closest_bn_optimum"], len(ns)),
            crosscheck=render.crosscheck_json(numeric),
            certificate=text, certificate_path=path, certificate_check=line,
            report=report, forms=forms, numeric=numeric)

    @property
    def exit_code(self) -> int:
        """The exit code `bnproof verify` gives this verdict."""
        from ..errors import ExitCode

        return int({"refuted": ExitCode.REFUTED, "holds": ExitCode.OK,
                    "hypothesis-not-met": ExitCode.HYPOTHESIS_NOT_MET}[self.verdict])

    def _extras(self):
        from ..render import report as render

        path = None if self.certificate_path is None else str(self.certificate_path)
        return render.Extras(self.numeric, path, "checked: " + self.certificate_check.split(" ", 1)[0])

    def to_json(self) -> dict:
        """The object `bnproof verify --json` prints."""
        from ..render import report as render

        return render.to_json(self.report, self.forms, self._extras())

    def lines(self) -> list[str]:
        """The report `bnproof verify` prints, as lines of rich markup."""
        from ..render import report as render

        lines = render.to_text(self.report, self.forms, self._extras())
        if self.certificate_path is None:
            lines.append("Certificate: accepted by the checker, kept in memory (verify(..., out=) writes it)")
        return lines

    def text(self) -> str:
        from rich.text import Text

        return "\n".join(Text.from_markup(line).plain for line in self.lines())

    def __str__(self) -> str:
        return self.text()

    def _repr_latex_(self) -> str:
        from ..render.latex import to_expr, tex

        def vec(v):
            return r"\left(" + ", ".join(tex(to_expr(x)) for x in v.entries()) + r"\right)"

        rows = [r"&\text{Lemma 4.5 (Santurkar et al., 2018): " + self.verdict + "}"]
        several = len(self.report.neurons) > 1
        for n in self.report.neurons:
            j = f"_{{{n.index + 1}}}" if several else ""
            rows.append(rf"&W^*{j} = {vec(n.standard.w)}")
            rows.append(rf"&\nabla\hat C{j}(W^*) = {vec(n.grad_bn_at_w_star)}")
            if n.closest.point is not None:
                rows.append(rf"&\widehat W^*{j} = {vec(n.closest.point)}")
            rows.append(rf"&\langle W_0, W^*\rangle{j} = {tex(to_expr(n.inner))}")
            rows.append(rf"&\text{{LHS}}{j} = \|W_0-\widehat W^*\|^2 = {tex(to_expr(n.lhs))}")
            if n.rhs is not None:
                sign = "<" if n.residual < 0 else r"\ge"
                rows.append(rf"&\text{{RHS}}{j} = {tex(to_expr(n.rhs))},\quad "
                            rf"\text{{RHS}} - \text{{LHS}} = {tex(to_expr(n.residual))} {sign} 0")
        return display.aligned(rows)

    def _repr_html_(self) -> str:
        rows = [("instance", self.instance)]
        for n, j in zip(self.to_json()["neurons"], range(len(self.report.neurons))):
            k = f" (neuron {j + 1})" if len(self.report.neurons) > 1 else ""
            closest = n["closest_bn_optimum"]
            rows += [(f"W*{k}", _paren(n["W_star"])), (f"∇Ĉ(W*){k}", _paren(n["grad_bn_at_W_star"])),
                     (f"Ŵ*{k}", _paren(closest) if closest else "not attained"),
                     (f"LHS{k}", n["lhs"]), (f"RHS{k}", n["rhs"]), (f"RHS − LHS{k}", n["residual"])]
        where = f", written to {self.certificate_path}" if self.certificate_path else ""
        return display.html_block(f"Lemma 4.5: {self.verdict.upper()}", rows,
                                  [f"Certificate {self.certificate_check.split(' ', 1)[0]} by the "
                                   f"independent checker{where}."], self._repr_latex_())


def _tuples(value, n: int):
    if value is None:
        return None
    if n == 1:
        return tuple(value)
    return tuple(None if v is None else tuple(v) for v in value)


def _paren(items) -> str:
    return "(" + ", ".join(items) + ")"


@dataclass(frozen=True)
class CheckResult:
    """The independent checker's verdict on one certificate file: accepted,
    the line `bnproof check` prints, and what the certificate establishes or
    why it was rejected.  True exactly when accepted."""

    path: str
    accepted: bool
    line: str
    established: str | None
    reason: str | None

    def __bool__(self) -> bool:
        return self.accepted

    def _repr_html_(self) -> str:
        head, _, program = self.line.partition("\n")
        notes = [self.established or self.reason or ""]
        if program:
            notes.append(program)
        return display.html_block(f"{'ACCEPTED' if self.accepted else 'REJECTED'}: {self.path}", [], notes)
