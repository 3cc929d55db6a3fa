"""What the second reading costs: `bnproof fuzz santurkar2018` and `bnproof prove` of the
paper claims, with the second reading and without it, side by side in one run.

The second reading (bnproof/claims/second_reading.py) runs before every verdict: at a
refutation's counterexample, at the generic instances of every fixed-size proof, and of
every proof for every m (symbolic_m/crosscheck.py).  bnproof has no switch to turn it
off, so the bench does it only for its own runs: the commands start with a
sitecustomize.py (on PYTHONPATH, in a temporary folder) that replaces the gate's
functions with ones that agree at once, in the command's process and in its worker;
the runs with the gate start with one that imports the same modules and changes
nothing, so both pay the same start.  Pairs are interleaved and medians compared, as
the machine is shared: only ratios measured in the same run mean anything.

1. The commands, as a user runs them: `bnproof fuzz santurkar2018 --no-timings` (every
   claim of the paper: search with JAX, shrinking, certification, fixed-size proofs,
   the proof for every m of each survivor) and `bnproof prove CLAIM` for each claim
   proved for every m.
2. In one process, the time spent inside the gate against the rest (`--inside`):
   `fuzz` (--no-jax) over the paper's claims and the proofs for every m, warm: the
   gate's share of the exact work itself, without process starts and JAX.

    python bench/second_reading.py [--repeats 3] [--inside]
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from bnproof.claims import second_reading  # noqa: E402
from bnproof.claims.api import all_claims  # noqa: E402
from bnproof.search.fuzz import fuzz  # noqa: E402
from bnproof.symbolic_m import crosscheck, prove, survivor  # noqa: E402

PROVED = ["santurkar2018/theorem-4.1/as-derived", "santurkar2018/theorem-4.2",
          "santurkar2018/theorem-4.2/part-2/corrected", "santurkar2018/observation-4.3",
          "santurkar2018/fact-c.1", "santurkar2018/fact-c.2", "dannemann2025/remark-2.7/corrected"]

GATES = [(second_reading, "instance_verdict"), (second_reading, "fixed_size_proof"),
         (second_reading, "witness_verdict"), (second_reading, "certificate_program"),
         (crosscheck, "gate"), (prove, "gate")]
# the names bound where the gate is called (imported by name)
CALLERS = [("bnproof.search.certify", "instance_verdict"), ("bnproof.search.fuzz", "instance_verdict"),
           ("bnproof.claims.prove", "fixed_size_proof"), ("bnproof.symbolic_m.prove", "gate")]


class Gate:
    """Switches the gate on or off and clocks the time spent inside it."""

    def __init__(self):
        self.originals = {(module.__name__, name): getattr(module, name) for module, name in GATES}
        for module_name, name in CALLERS:
            module = sys.modules[module_name] if module_name in sys.modules else __import__(
                module_name, fromlist=[name])
            self.originals[(module_name, name)] = getattr(module, name)
        self.seconds = 0.0

    def set(self, on: bool) -> None:
        for (module_name, name), original in self.originals.items():
            setattr(sys.modules[module_name], name, self._clocked(original) if on else (lambda *a, **k: None))

    def _clocked(self, f):
        def run(*args, **kwargs):
            start = time.perf_counter()
            try:
                return f(*args, **kwargs)
            finally:
                self.seconds += time.perf_counter() - start
        return run


def fuzz_paper(budget: float) -> float:
    start = time.perf_counter()
    deadline_of = {}
    for claim in [c for c in all_claims() if c.id.startswith("santurkar2018/")]:
        deadline_of[claim.id] = time.monotonic() + budget
        outcome = fuzz(claim, seed=0, time_budget=budget, use_jax=False, prove=True)
        if survivor.due(claim, outcome):
            survivor.attempts_within(claim, deadline_of[claim.id])
    return time.perf_counter() - start


def prove_paper() -> float:
    start = time.perf_counter()
    by_id = {c.id: c for c in all_claims()}
    for claim_id in PROVED:
        attempts, _ = survivor.attempts_within(by_id[claim_id], None)
        assert attempts and all(a.proved for a in attempts), claim_id
    return time.perf_counter() - start


OFF = """
import bnproof.claims.second_reading as g
import bnproof.symbolic_m.crosscheck as c
for name in ("instance_verdict", "fixed_size_proof", "witness_verdict", "certificate_program"):
    setattr(g, name, lambda *a, **k: None)
c.gate = lambda *a, **k: None
"""
ON = """
import bnproof.claims.second_reading
import bnproof.symbolic_m.crosscheck
"""


def command(args: list, folder: Path, site: str) -> float:
    (folder / "sitecustomize.py").write_text(site)
    env = dict(os.environ, PYTHONPATH=str(folder))
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "bnproof", *args], cwd=folder, env=env,
                          capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        raise SystemExit(f"bnproof {' '.join(args)}: exit {proc.returncode}: {proc.stderr.strip()[-300:]}")
    return seconds


def commands(repeats: int) -> None:
    runs = [("fuzz santurkar2018", ["fuzz", "santurkar2018", "--no-timings"])]
    runs += [(f"prove {c}", ["prove", c]) for c in PROVED]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        totals = {"on": 0.0, "off": 0.0}
        for label, args in runs:
            command(args, folder, ON)  # warm: bytecode, JAX's compilation cache
            on, off = [], []
            for _ in range(repeats):
                on.append(command(args, folder, ON))
                off.append(command(args, folder, OFF))
            a, b = statistics.median(on), statistics.median(off)
            if args[0] == "prove":
                totals["on"] += a
                totals["off"] += b
            print(f"bnproof {label}: with the second reading {a:.2f} s, without {b:.2f} s: "
                  f"{100 * (a / b - 1):+.1f} %", flush=True)
        print(f"bnproof prove, the {len(PROVED)} claims together: {totals['on']:.2f} s against "
              f"{totals['off']:.2f} s: {100 * (totals['on'] / totals['off'] - 1):+.1f} %")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--budget", type=float, default=20.0)
    parser.add_argument("--inside", action="store_true", help="also the gate's share inside one process")
    args = parser.parse_args()
    commands(args.repeats)
    if not args.inside:
        return
    gate = Gate()
    for label, run in (("fuzz santurkar2018 --no-jax", lambda: fuzz_paper(args.budget)),
                       ("prove (7 paper claims)", prove_paper)):
        gate.set(True)
        run()  # warm: imports, traces cached per process, symengine and flint loaded
        with_gate, without, inside = [], [], []
        for _ in range(args.repeats):  # interleaved pairs
            gate.set(True)
            gate.seconds = 0.0
            with_gate.append(run())
            inside.append(gate.seconds)
            gate.set(False)
            without.append(run())
        on, off, spent = (statistics.median(x) for x in (with_gate, without, inside))
        print(f"{label}: with the second reading {on:.2f} s, without {off:.2f} s: "
              f"{100 * (on / off - 1):+.1f} %; inside the gate {spent:.2f} s "
              f"({100 * spent / (on - spent):.1f} % of the rest)")
    gate.set(True)


if __name__ == "__main__":
    main()
