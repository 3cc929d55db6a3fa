"""Run z3 or cvc5 (their pip packages) on SMT-LIB 2 text: the second judge of a
certificate.  Each solver runs in a child process killed at the time limit,
because cvc5 can spin in nonlinear arithmetic without heeding its own limits.

`python -m bnproof.certificate.solvers z3|cvc5 < FILE.smt2` prints the answer of
every (check-sat), one per line."""

from __future__ import annotations

import subprocess
import sys

SOLVERS = ("z3", "cvc5")
PACKAGES = {"z3": "z3-solver", "cvc5": "cvc5"}  # the pip package of each (pyproject's test extra has both)


def available(solver: str) -> bool:
    """Whether the solver's Python package imports here."""
    try:
        __import__(solver)
    except ImportError:
        return False
    return True


def _z3(text: str) -> list[str]:
    import z3

    solver = z3.Solver()
    answers = []
    for chunk in text.split("(check-sat)")[:-1]:  # our files: one check-sat, at the end
        solver.from_string(chunk)
        answers.append(str(solver.check()))
    return answers


def _cvc5(text: str) -> list[str]:
    import cvc5

    terms = cvc5.TermManager()
    solver = cvc5.Solver(terms)
    symbols = cvc5.SymbolManager(terms)
    parser = cvc5.InputParser(solver, symbols)
    parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, text, "certificate")
    answers = []
    while not (command := parser.nextCommand()).isNull():
        out = command.invoke(solver, symbols).strip()
        if command.getCommandName() == "check-sat":
            answers.append(out)
    return answers


def solve(text: str, solver: str, timeout: float = 60.0) -> str:
    """"unsat", "sat", "unknown", or "timeout": the solver's answer to the (single)
    check-sat of an exported certificate."""
    if solver not in SOLVERS:
        raise ValueError(f"unknown solver {solver!r}")
    try:
        proc = subprocess.run([sys.executable, "-m", __name__, solver], input=text, text=True,
                              capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout"
    answers = proc.stdout.split()
    if proc.returncode != 0 or len(answers) != 1:
        tail = (proc.stderr.strip().splitlines() or ["no answer"])[-1]
        raise RuntimeError(f"{solver} failed: {tail}")
    return answers[0]


def main() -> int:
    solver = sys.argv[1]
    for answer in {"z3": _z3, "cvc5": _cvc5}[solver](sys.stdin.read()):
        print(answer)
    return 0


if __name__ == "__main__":
    sys.exit(main())
