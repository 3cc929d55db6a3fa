"""The every-m prover's polynomials before and after they moved onto python-flint
(symbolic_m/poly.py and algebra.py; issue 25), side by side.

1. Products of random polynomials of 1 to 300 terms over 12 atoms, with rational
   coefficients: poly.py as it was at BEFORE (bench/common.py: module_at) on its dicts,
   and as it is on its flint Polys, interleaved, the median of --repeats rounds.
2. With --replay: each program the every-m prover traced for the claims of
   bench/prove_all_m.py, replayed into its normal form (symbolic_m/evaluate.py: Replay,
   the algebra alone), by evaluate.py, algebra.py, roots.py and poly.py as they were at
   BEFORE and as they are, interleaved program by program, the median of --repeats.
3. With --prover: every claim of bench/prove_all_m.py (the gallery and proofs/, for every
   m), proved as `bnproof prove` proves it, in a copy of the tree at BEFORE and one at AFTER
   (git archive), by two worker processes in turn, claim by claim, --rounds times.

    python bench/symbolic_m_flint.py [--before REV] [--after REV] [--repeats 7]
                                     [--replay] [--prover] [--rounds 3]
                                     [--no-products]

BEFORE defaults to the last commit whose poly.py was on Fraction dicts, AFTER (for
--prover) to the last commit that changed poly.py, so that commits by others since (the
checker's, say) are in neither tree; --replay and the products take the working tree.
"""

import argparse
import importlib.util
import random
import statistics
import subprocess
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import PY, ROOT, module_at  # noqa: E402

sys.path.insert(0, str(ROOT))
from bnproof.symbolic_m import poly as new  # noqa: E402

SIZES = (1, 3, 10, 30, 100, 300)  # terms in each factor
PAIRS = {1: 2000, 3: 1000, 10: 200, 30: 40, 100: 6, 300: 2}  # products per round


def _random_poly(rng, terms: int) -> dict:
    out = {}
    while len(out) < terms:
        mono = tuple(sorted((v, rng.randint(1, 3)) for v in rng.sample(range(12), rng.randint(0, 4))))
        out[mono] = Fraction(rng.randint(-10**6, 10**6) or 1, rng.randint(1, 10**4))
    return out


def _cpu(f) -> float:
    start = time.process_time()
    f()
    return time.process_time() - start


def products(before_rev: str, repeats: int) -> None:
    old = module_at(before_rev, "bnproof/symbolic_m/poly.py", "bnproof.symbolic_m.poly_before")
    rng = random.Random(25)
    print(f"{'terms':>5} {'products':>8} {'dicts (ms)':>10} {'flint (ms)':>10} {'ratio':>6}")
    for size in SIZES:
        pairs = [(_random_poly(rng, size), _random_poly(rng, size)) for _ in range(PAIRS[size])]
        flint_pairs = [(new.poly(p), new.poly(q)) for p, q in pairs]  # the prover's Scalars hold Polys
        assert all(old.mul(p, q) == dict(new.ordered(new.mul(a, b)))
                   for (p, q), (a, b) in zip(pairs, flint_pairs))
        times = {"dicts": [], "flint": []}
        for _ in range(repeats):
            times["dicts"].append(_cpu(lambda: [old.mul(p, q) for p, q in pairs]))
            times["flint"].append(_cpu(lambda: [new.mul(a, b) for a, b in flint_pairs]))
        d, f = statistics.median(times["dicts"]), statistics.median(times["flint"])
        print(f"{size:5} {len(pairs):8} {d * 1e3:10.2f} {f * 1e3:10.2f} {f / d:6.2f}", flush=True)


def _before_modules(rev: str):
    """evaluate.py at rev over algebra.py, roots.py and poly.py at rev (module_at, each
    relative import of the three renamed to its copy at rev)."""
    renamed = {"from . import poly as P": "from . import poly_before as P",
               "from . import roots as R": "from . import roots_before as R",
               "from .algebra import": "from .algebra_before import",
               "from .roots import": "from .roots_before import"}
    for name in ("poly", "roots", "algebra", "evaluate"):
        source = subprocess.run(["git", "show", f"{rev}:bnproof/symbolic_m/{name}.py"], cwd=ROOT,
                                capture_output=True, text=True, check=True).stdout
        for a, b in renamed.items():
            source = source.replace(a, b)
        copy = Path("/tmp") / f"bnproof_{name}_before_{rev.replace('~', '_')}.py"
        copy.write_text(source)
        spec = importlib.util.spec_from_file_location(f"bnproof.symbolic_m.{name}_before", copy)
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
    return module


def replay(before_rev: str, repeats: int) -> None:
    from bnproof._api.claims import load
    from bnproof.symbolic_m import evaluate
    from bnproof.symbolic_m.prove import prove_claim
    from prove_all_m import files

    old = _before_modules(before_rev)
    programs = []
    for path in files():
        for claim in load(path):
            programs += [a.program for a in prove_claim(claim, certify=False) if a.program]
    runnable = []
    for program in programs:
        try:
            evaluate.Replay(program)
            old.Replay(program)
        except Exception:  # noqa: BLE001 - outside the fragment in both: not timed
            continue
        runnable.append(program)
    times = {"before": [], "after": []}
    for _ in range(repeats):
        round_ = {"before": 0.0, "after": 0.0}
        for program in runnable:
            round_["before"] += _cpu(lambda: old.Replay(program))
            round_["after"] += _cpu(lambda: evaluate.Replay(program))
        for label in times:
            times[label].append(round_[label])
    b, a = statistics.median(times["before"]), statistics.median(times["after"])
    print(f"replay of {len(runnable)} programs into their normal forms: before {b * 1e3:.1f} ms, "
          f"after {a * 1e3:.1f} ms, after/before {a / b:.3f}", flush=True)


def _tree(rev: str, where: Path) -> Path:
    path = where / rev
    path.mkdir()
    archive = subprocess.run(["git", "archive", rev], cwd=ROOT, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(path)], input=archive, check=True)
    return path


WORKER = """
import sys, time
sys.path[:0] = [sys.argv[1], sys.argv[1] + "/bench"]
from prove_all_m import files
from bnproof._api.claims import load
from bnproof.symbolic_m.prove import prove_claim
claims = []
for path in files():
    claims += [c for c in load(path) if c not in claims]
print(len(claims), flush=True)
for line in sys.stdin:
    start = time.process_time()
    prove_claim(claims[int(line)])
    print(time.process_time() - start, flush=True)
"""


def prover(before_rev: str, after_rev: str, rounds: int) -> None:
    """Two worker processes, one per tree, prove the same claim in turn, claim after claim,
    round after round (a first round to warm both is not counted): the load of a shared
    machine falls on both alike.  CPU seconds of each proof; per claim the median."""
    with tempfile.TemporaryDirectory() as tmp:
        trees = {"before": _tree(before_rev, Path(tmp)), "after": _tree(after_rev, Path(tmp))}
        workers = {label: subprocess.Popen([PY, "-c", WORKER, str(tree)], cwd=tree, text=True,
                                           stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                           env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"})
                   for label, tree in trees.items()}
        counts = {label: int(w.stdout.readline()) for label, w in workers.items()}
        assert counts["before"] == counts["after"], counts
        n = counts["before"]
        times = {label: [[] for _ in range(n)] for label in workers}
        for round_ in range(rounds + 1):
            for i in range(n):
                for label, w in (workers.items() if (round_ + i) % 2 else reversed(workers.items())):
                    w.stdin.write(f"{i}\n")
                    w.stdin.flush()
                    seconds = float(w.stdout.readline())
                    if round_:
                        times[label][i].append(seconds)
        for w in workers.values():
            w.stdin.close()
            w.wait()
        total = {label: sum(statistics.median(t) for t in times[label]) for label in workers}
        named = sorted((statistics.median(a) / statistics.median(b), i)
                       for i, (a, b) in enumerate(zip(times["after"], times["before"]))
                       if statistics.median(b) > 0.05)
        ratios = [r for r, _ in named]
        for r, i in named[:3] + named[-3:]:
            print(f"  claim #{i}: before {statistics.median(times['before'][i]):.3f} s, "
                  f"after {statistics.median(times['after'][i]):.3f} s ({r:.2f})")
        print(f"{n} claims, {rounds} rounds: total CPU (sum of per-claim medians) before "
              f"{total['before']:.2f} s, after {total['after']:.2f} s, after/before "
              f"{total['after'] / total['before']:.3f}; per claim over 0.05 s ({len(ratios)}): median ratio "
              f"{statistics.median(ratios):.3f}, range {ratios[0]:.2f}..{ratios[-1]:.2f}")


def _show(rev: str, path: str) -> str:
    return subprocess.run(["git", "show", f"{rev}:{path}"], cwd=ROOT, capture_output=True, text=True,
                          check=True).stdout


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", default=None)
    parser.add_argument("--after", default=None)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--replay", action="store_true")
    parser.add_argument("--prover", action="store_true")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--no-products", action="store_true")
    args = parser.parse_args()
    changes = subprocess.run(["git", "log", "--format=%H", "--", "bnproof/symbolic_m/poly.py"],
                             cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    if args.after is None:
        args.after = changes[0]
    if args.before is None:  # the parent of the oldest change that is already on flint
        on_flint = [rev for rev in changes if "from flint" in _show(rev, "bnproof/symbolic_m/poly.py")]
        args.before = on_flint[-1] + "~1"
    if not args.no_products:
        products(args.before, args.repeats)
    if args.replay:
        replay(args.before, args.repeats)
    if args.prover:
        prover(args.before, args.after, args.rounds)


if __name__ == "__main__":
    main()
