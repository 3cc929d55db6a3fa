"""Run z3 or cvc5 (their pip packages) on SMT-LIB 2 text: the second judge of a
certificate.  Each solver runs in a child process killed at the time limit,
because cvc5 can spin in nonlinear arithmetic without heeding its own limits.

`python -m bnproof.certificate.solvers z3|cvc5 [default|nl-rlv] < FILE.smt2` prints the
answer of every (check-sat), one per line."""

from __future__ import annotations

import subprocess
import sys
import time

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


# cvc5 runs as a portfolio of two settings in two processes, and the first definite answer
# wins: its default spun for 15-30 s on program certificates that it proves unsat in 2-3 s
# with nonlinear checks on every assertion ("nl-rlv" always: these files are mostly
# definitions), while that setting answers "unknown" where the default finds a model (sat).
# Both are sound, so whichever answers first is cvc5's answer.
CVC5_SETTINGS = {"default": {}, "nl-rlv": {"nl-rlv": "always"}}
DEFINITE = ("sat", "unsat")


def _cvc5(text: str, setting: str = "default") -> list[str]:
    import cvc5

    terms = cvc5.TermManager()
    solver = cvc5.Solver(terms)
    for option, value in CVC5_SETTINGS[setting].items():
        solver.setOption(option, value)
    symbols = cvc5.SymbolManager(terms)
    parser = cvc5.InputParser(solver, symbols)
    parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, text, "certificate")
    answers = []
    while not (command := parser.nextCommand()).isNull():
        out = command.invoke(solver, symbols).strip()
        if command.getCommandName() == "check-sat":
            answers.append(out)
    return answers


def _answer(solver: str, proc: subprocess.Popen) -> str:
    out, err = proc.stdout.read(), proc.stderr.read()  # it has ended: a few short lines
    answers = out.splitlines()  # cvc5 may say why: "unknown (INCOMPLETE)"
    if proc.returncode != 0 or len(answers) != 1 or not answers[0].strip():
        tail = (err.strip().splitlines() or ["no answer"])[-1]
        raise RuntimeError(f"{solver} failed: {tail}")
    return answers[0].split()[0]


def solve(text: str, solver: str, timeout: float = 60.0) -> str:
    """"unsat", "sat", "unknown", or "timeout": the solver's answer to the (single)
    check-sat of an exported certificate."""
    if solver not in SOLVERS:
        raise ValueError(f"unknown solver {solver!r}")
    settings = list(CVC5_SETTINGS) if solver == "cvc5" else ["default"]
    procs = []
    try:
        for setting in settings:
            proc = subprocess.Popen([sys.executable, "-m", __name__, solver, setting], text=True,
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            procs.append(proc)
            proc.stdin.write(text)  # the child reads all of it before it solves
            proc.stdin.close()
        deadline = time.monotonic() + timeout
        answers, errors, running = [], [], list(procs)
        while running:
            for proc in [p for p in running if p.poll() is not None]:
                running.remove(proc)
                try:
                    answers.append(_answer(solver, proc))
                except RuntimeError as error:  # one setting failing is no answer (cvc5 1.4 with
                    errors.append(error)      # nl-rlv rejects some define-fun aliases), both is
                    continue
                if answers[-1] in DEFINITE:
                    return answers[-1]
            if running and time.monotonic() > deadline:
                return "timeout"
            time.sleep(0.005)
        if answers:
            return answers[0]
        raise errors[0]
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
            proc.stdout.close()
            proc.stderr.close()


def main() -> int:
    solver, setting = sys.argv[1], (sys.argv[2:] or ["default"])[0]
    answers = _z3(sys.stdin.read()) if solver == "z3" else _cvc5(sys.stdin.read(), setting)
    for answer in answers:
        print(answer)
    return 0


if __name__ == "__main__":
    sys.exit(main())
