"""The SMT-LIB 2 building blocks every kind's export writes with (smtlib_lemma45,
smtlib_program, smtlib_exists, smtlib_proof): exact literals, terms, the Smt
builder of definitions and facts, and the rejection a malformed certificate
gets.  The scheme is smtlib.py's, which dispatches a certificate to its kind's
export and sits above them all."""

from __future__ import annotations

from fractions import Fraction

from ..checker.parse import Rejected
from ..errors import BnproofError, ExitCode


class CertificateRejected(BnproofError):
    """Malformed, or its digest, version, obligations or claim binding fail."""

    exit_code = ExitCode.REJECTED


def literal(q: Fraction) -> str:
    """An exact SMT-LIB real: 3, (- 3), (/ 3 4), (- (/ 3 4))."""
    q = Fraction(q)
    text = str(abs(q.numerator)) if q.denominator == 1 else f"(/ {abs(q.numerator)} {q.denominator})"
    return f"(- {text})" if q < 0 else text


def plus(terms) -> str:
    terms = list(terms)
    return "0" if not terms else terms[0] if len(terms) == 1 else f"(+ {' '.join(terms)})"


def times(*terms) -> str:
    return terms[0] if len(terms) == 1 else f"(* {' '.join(terms)})"


def conj(terms) -> str:
    terms = list(terms)
    return "true" if not terms else terms[0] if len(terms) == 1 else f"(and {' '.join(terms)})"


def disj(terms) -> str:
    terms = list(terms)
    return "false" if not terms else terms[0] if len(terms) == 1 else f"(or {' '.join(terms)})"


class Smt:
    """Fresh reals with their definitions, and the facts to confirm."""

    def __init__(self):
        self.lines: list[str] = []
        self.facts: list[tuple[str, str]] = []  # (what it says, formula)

    def fresh(self, name: str) -> str:
        self.lines.append(f"(declare-const {name} Real)")
        return name

    def let(self, name: str, expr: str) -> str:
        """A value defined by a term: a macro, so solvers substitute it (as separate
        equations, z3 ran for minutes on a 224-step program it now decides at once)."""
        self.lines.append(f"(define-fun {name} () Real {expr})")
        return name

    def quotient(self, name: str, num: str, den: str, what: str) -> str:
        """num/den as SMT-LIB's total division, exact wherever den != 0 (a fact).
        A term, not a declared x with x*den = num: solvers fold the rational part of a
        program to constants this way (declared, z3 ran past 60 s on Theorem 4.2)."""
        self.fact(f"{what}: divisor nonzero", f"(not (= {den} 0))")
        return self.let(name, f"(/ {num} {den})")

    def root(self, name: str, arg: str, what: str) -> str:
        """sqrt(arg) as s*s = arg, s >= 0, asserted only where arg >= 0 (a fact)."""
        self.fresh(name)
        self.lines.append(f"(assert (=> (>= {arg} 0) (and (= (* {name} {name}) {arg}) (>= {name} 0))))")
        self.fact(f"{what}: radicand nonnegative", f"(>= {arg} 0)")
        return name

    def fact(self, what: str, formula: str) -> None:
        self.facts.append((what, formula))

    def text(self, title: str) -> str:
        named = [f"(define-fun fact{i} () Bool {f}) ; {what}" for i, (what, f) in enumerate(self.facts)]
        return "\n".join([
            f"; {title}",
            "; unsat confirms every fact below (the negation of their conjunction is asserted)",
            "(set-logic QF_NRA)",
            *self.lines, *named,
            f"(assert (not {conj(f'fact{i}' for i in range(len(self.facts)))}))",
            "(check-sat)", "(exit)", ""])


def stage(fn, error: type, *args, what: str = "certificate"):
    """Run a checker-style step; its Rejected becomes a one-line bnproof error."""
    try:
        return fn(*args)
    except Rejected as exc:
        raise error(f"{what} {exc}") from None
    except RecursionError:
        raise error(f"{what} nested too deeply") from None
