"""Differential red team of the checker refactor (issue 25, session 29): the checker as it
was at a base commit (1f4f438, the session's start) against the checker now, on every
committed certificate, the certificates the gallery produces, and mutants of all of them.

    python bench/checker_differential.py [--base 1f4f438] [--new worktree|REV]
        [--gallery DIR ...] [--generate DIR] [--tamper N] [--own N] [--seed S]
        [--writers] [--oracle] [--limit-s 30] [--json OUT] [--save-diffs DIR]

The session's final run (about 5 minutes on the shared machine, 14,000 documents):

    python bench/checker_differential.py --generate /tmp/gallery --gallery bnproof-out \
        --tamper 10 --own 40 --writers --oracle --save-diffs /tmp/diffs

Both checkers run in this process under package names of their own (each a copy of
bnproof/checker taken once at start, so edits made to the tree while it runs change
nothing): the checker is standard library only and imports nothing else from bnproof,
so a copy under another name is the same code.  Every document goes to both, as bytes,
through check_bytes.  Reported: every difference in verdict (accepted by one only),
every crash (an "internal checker error", an exception that escapes check_bytes, or a
document past --limit-s), and, separately and grouped, rejections whose messages alone
differ (expected where messages were reworded) and acceptances whose lines differ.

The mutants: tests/tamper.py's campaign (mutants(data, count, seed)), and mutations of
our own aimed at the merged readers and evaluators (OWN below): a step moved between
the every-m and every-d program families, one proof method's name given another's, a
proof's step list reused under another method, a hint moved between an existential
claim's parts, an equality dropped or duplicated, a vector where a scalar is expected
and back, well-formed rewirings, literals, dropped steps, values at the limits...  Each
is resealed with a valid digest (tamper.seal), so that the checkers judge its content.

--writers compares what the two checkers' writers make of a proof (instantiate.py for
every m, every_d.instantiate): both written out at random sizes, evaluated in floats at
random inputs, step by step.  The written-out program is what the witness is checked
on; the verdicts alone would miss a writer that differs only away from the witness.

--oracle tests everything the new checker accepts with an oracle that shares no code
with it: a proof for every m or every d, in floats at random sizes and points (where
every step is defined and every hypothesis > 0, the residual is 0 or >= 0); a moments-n
proof exactly, by enumerating every batch's draws over random finite laws at n = 1..3; a
refutation by tests/tamper.py's SymPy oracle.  It catches what both checkers accept
wrongly, which no comparison of the two can.
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import importlib
import json
import random
import re
import shutil
import signal
import subprocess
import sys
import tarfile
import io
import math
import time
from fractions import Fraction
from itertools import product
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from tamper import mutants, seal, true_verdict  # noqa: E402 - tests/ is on the path only from here

WORK = Path("/tmp/bnproof_checker_differential")


# --- the two checkers ------------------------------------------------------------------

def load_checker(rev: str, name: str):
    """bnproof/checker at `rev` ("worktree": the working tree now) as package `name`."""
    target = WORK / name
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    if rev == "worktree":
        for f in (ROOT / "bnproof" / "checker").glob("*.py"):
            shutil.copy(f, target / f.name)
    else:
        tar = subprocess.run(["git", "archive", rev, "bnproof/checker"], cwd=ROOT,
                             capture_output=True, check=True).stdout
        with tarfile.open(fileobj=io.BytesIO(tar)) as tf:
            for member in tf.getmembers():
                if member.isfile() and member.name.endswith(".py"):
                    (target / Path(member.name).name).write_bytes(tf.extractfile(member).read())
    if str(WORK) not in sys.path:
        sys.path.insert(0, str(WORK))
    for key in [k for k in sys.modules if k == name or k.startswith(name + ".")]:
        del sys.modules[key]
    module = importlib.import_module(name)
    # the whole package, now: a module imported lazily inside a function would otherwise be
    # read from the copy later, which is the same; but import errors are better seen here
    for f in sorted(target.glob("*.py")):
        if f.stem not in ("__init__", "__main__"):
            importlib.import_module(f"{name}.{f.stem}")
    return module


class Timeout(BaseException):
    """Past --limit-s: a BaseException, so that check_bytes's last resort does not catch it."""


def _alarm(signum, frame):
    raise Timeout


def run_one(checker, data: bytes, limit: float) -> tuple[str, str, float]:
    """(status, line, seconds): status is "accepted", "rejected", "crash" or "timeout"."""
    start = time.perf_counter()
    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        ok, line = checker.check_bytes(data, "doc")
    except Timeout:
        return "timeout", f"past {limit} s", time.perf_counter() - start
    except BaseException as exc:  # noqa: BLE001 - anything that escapes is a finding
        return "crash", f"escaped: {type(exc).__name__}: {exc}"[:300], time.perf_counter() - start
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    took = time.perf_counter() - start
    if "internal checker error" in line:
        return "crash", line, took
    return ("accepted" if ok else "rejected"), line, took


# --- the corpus ------------------------------------------------------------------------

def committed_documents() -> list[tuple[str, bytes]]:
    listed = subprocess.run(["git", "ls-files", "certificates", "proofs", "tests", "docs"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout.split()
    out = []
    for path in listed:
        if path.endswith(".json") and (ROOT / path).is_file():
            out.append((path, (ROOT / path).read_bytes()))
    return out


def gallery_documents(dirs: list[Path]) -> list[tuple[str, bytes]]:
    out = []
    for d in dirs:
        for f in sorted(d.rglob("*.json")):
            out.append((str(f), f.read_bytes()))
    return out


def generate(out: Path, budget: int = 30) -> None:
    """The gallery's certificates: bnproof prove for the every-m/every-d/existential files,
    bnproof fuzz (no JAX, few examples) for every file's refutations."""
    examples = sorted((ROOT / "docs" / "examples").glob("*.py"))
    for f in examples:
        if f.stem.startswith(("every_", "existential")):
            cmd = ["bnproof", "prove", str(f), "--out-dir", str(out / f"prove_{f.stem}"),
                   "--time-budget", str(budget)]
            subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=600)
    runs = [(f, 0) for f in examples] + [(f, seed) for seed in (1, 2, 3) for f in examples
                                          if f.stem in ("existential", "existential_witnesses", "every_m_exists")]
    for f, seed in runs:  # more seeds where the witnesses and Farkas certificates are
        cmd = ["bnproof", "fuzz", str(f), "--out-dir", str(out / f"fuzz_{f.stem}_s{seed}"), "--no-jax",
               "--seed", str(seed), "--max-examples", "30", "--time-budget", "20", "--no-prove", "--no-timings"]
        subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=600)
    for prefix in ("santurkar2018", "dannemann2025"):  # the papers' claims proved for every m
        cmd = ["bnproof", "prove", prefix, "--out-dir", str(out / f"prove_{prefix}"), "--time-budget", str(budget)]
        subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=900)


def kind_of_doc(doc) -> str:
    """The certificate kind, as the dispatch in kernel.check_document reads it."""
    if type(doc) is not dict:
        return "not-an-object"
    claim, proof = doc.get("claim"), doc.get("proof")
    if doc.get("kind") == "proof":
        if type(claim) is dict and "exists" in claim:
            return "proof:exists-hint"
        method = proof.get("method") if type(proof) is dict else None
        return f"proof:{method}"
    if "nonexistence" in doc:
        return "existential:nonexistence"
    if "parts" in doc:
        return "existential:witnessed"
    if "program" in doc and "witnesses" not in doc:
        return "program:refutation"
    if "witnesses" in doc:
        return "lemma-4.5"
    return "other"


# --- our own mutations, aimed at the merged code ---------------------------------------

METHODS = ["zero", "nonnegative", "sos", "substitution", "every-d", "moments-n"]


def _program(doc):
    p = doc.get("program")
    return p if isinstance(p, dict) and isinstance(p.get("steps"), list) else None


def _step_pool(corpus_docs: list) -> dict:
    """Steps of each family, by operation: what a mutation moves between families."""
    pool = defaultdict(list)
    for doc in corpus_docs:
        p = _program(doc)
        if p is None:
            continue
        fam = kind_of_doc(doc)
        for step in p["steps"]:
            if isinstance(step, list) and step and isinstance(step[0], str):
                pool[(fam, step[0])].append(step)
    return pool


def o_method(rng, doc, ctx):
    """Another method's name for the same proof (its other fields kept)."""
    if not isinstance(doc.get("proof"), dict):
        return False
    old = doc["proof"].get("method")
    doc["proof"]["method"] = rng.choice([m for m in METHODS if m != old])
    return True


def o_method_strip(rng, doc, ctx):
    """Another method's name, the proof's other fields dropped (method "zero"'s shape)."""
    if not isinstance(doc.get("proof"), dict):
        return False
    old = doc["proof"].get("method")
    doc["proof"] = {"method": rng.choice([m for m in METHODS if m != old])}
    return True


def o_proof_from(rng, doc, ctx):
    """Another certificate's whole proof object (its method and steps) under this claim."""
    if not isinstance(doc.get("proof"), dict):
        return False
    others = [d for d in ctx["docs"] if isinstance(d.get("proof"), dict) and d["proof"] != doc["proof"]]
    if not others:
        return False
    doc["proof"] = copy.deepcopy(rng.choice(others)["proof"])
    return True


def o_family_step(rng, doc, ctx):
    """A step of the program replaced by one of the same operation from the other family
    (every-m <-> every-d), or by any step of the other family."""
    p = _program(doc)
    if p is None or not p["steps"]:
        return False
    fam = kind_of_doc(doc)
    other = "proof:zero" if fam == "proof:every-d" else "proof:every-d"
    k = rng.randrange(len(p["steps"]))
    op = p["steps"][k][0] if isinstance(p["steps"][k], list) and p["steps"][k] else None
    same = ctx["pool"].get((other, op))
    if same and rng.random() < 0.7:
        new = copy.deepcopy(rng.choice(same))
    else:
        keys = [key for key in ctx["pool"] if key[0] == other]
        if not keys:
            return False
        new = copy.deepcopy(rng.choice(ctx["pool"][rng.choice(keys)]))
    # operands renumbered into range, so that the step is read and not refused on an index
    new = [new[0]] + [rng.randrange(k) if isinstance(a, int) and not isinstance(a, bool) and k else a
                      for a in new[1:]]
    p["steps"][k] = new
    return True


def o_family_program(rng, doc, ctx):
    """The program (steps, inputs) of a certificate of the other family under this claim, or
    this program under the other family's method name."""
    if doc.get("kind") != "proof" or not isinstance(doc.get("proof"), dict):
        return False
    if rng.random() < 0.5:
        doc["proof"]["method"] = "zero" if doc["proof"].get("method") == "every-d" else "every-d"
        if "d" not in doc.get("witness", {}) and isinstance(doc.get("witness"), dict) and rng.random() < 0.5:
            doc["witness"]["d"] = 1
        return True
    fam = kind_of_doc(doc)
    others = [d for d in ctx["docs"] if kind_of_doc(d) != fam and d.get("kind") == "proof" and _program(d)]
    if not others:
        return False
    donor = rng.choice(others)
    doc["program"] = copy.deepcopy(donor["program"])
    if rng.random() < 0.5:
        doc["claim"]["variables"] = copy.deepcopy(donor["claim"]["variables"])
    return True


def o_kind(rng, doc, ctx):
    """The claim's or program's kind and strictness changed, alone or together."""
    claim, p = doc.get("claim"), doc.get("program")
    if not isinstance(claim, dict):
        return False
    new = rng.choice(["identity", "inequality", "strict-inequality"])
    claim["kind"] = new
    if isinstance(p, dict) and rng.random() < 0.6:
        if "kind" in p:
            p["kind"] = "identity" if new == "identity" else "inequality"
        if "strict" in p:
            p["strict"] = new == "strict-inequality"
    return True


def o_equality(rng, doc, ctx):
    """An equality hypothesis dropped, duplicated, or added (program's and claim's counts)."""
    claim, p = doc.get("claim"), _program(doc)
    if not isinstance(claim, dict) or p is None:
        return False
    eqs = p.get("equalities")
    choice = rng.randrange(5)
    if isinstance(eqs, list) and eqs:
        if choice == 0:
            del eqs[rng.randrange(len(eqs))]
        elif choice == 1:
            eqs.append(rng.choice(eqs))
        elif choice == 2:
            del eqs[rng.randrange(len(eqs))]
            claim["equalities"] = len(eqs)
            if not eqs:
                del p["equalities"]
                del claim["equalities"]
        elif choice == 3:
            eqs.append(rng.choice(eqs))
            claim["equalities"] = len(eqs)
        else:  # an equality turned into a hypothesis, or the reverse
            h = p.get("hypotheses")
            if isinstance(h, list):
                h.append(eqs.pop())
                claim["equalities"] = len(eqs)
                if not eqs:
                    del p["equalities"], claim["equalities"]
    else:
        scalars = [k for k, s in enumerate(p["steps"]) if isinstance(s, list) and s and s[0] in ("sum", "sub", "mul")]
        if not scalars:
            return False
        p["equalities"] = [rng.choice(scalars)]
        claim["equalities"] = 1
        if choice == 0 and isinstance(doc.get("proof"), dict):
            doc["proof"] = {"method": "substitution", "substitutions": [{"equality": 0, "sum": p["equalities"][0]}]}
    return True


def _shape_flip(value, rng):
    if isinstance(value, str):
        return [value] * rng.choice([1, 2, 3])
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return value[0]
    if isinstance(value, list) and value and all(isinstance(v, list) for v in value):
        return [row[0] if row else "0" for row in value]
    return [value]


def o_vector_scalar(rng, doc, ctx):
    """A vector where a scalar is expected, or the reverse: in the witness, an instance, a
    program input's declared type, or a claim variable's shape."""
    spots = []
    for key in ("witness",):
        w = doc.get(key)
        if isinstance(w, dict) and isinstance(w.get("inputs"), dict) and w["inputs"]:
            spots.append(("inputs", w["inputs"]))
    if isinstance(doc.get("instance"), dict) and doc["instance"]:
        spots.append(("instance", doc["instance"]))
    for part in doc.get("parts", []) if isinstance(doc.get("parts"), list) else []:
        for w in part.get("witnessed", []) if isinstance(part, dict) else []:
            if isinstance(w, dict) and isinstance(w.get("instance"), dict) and w["instance"]:
                spots.append(("instance", w["instance"]))
    p = _program(doc)
    choice = rng.randrange(4)
    if choice == 0 and spots:
        _, where = rng.choice(spots)
        name = rng.choice(sorted(where))
        where[name] = _shape_flip(where[name], rng)
        return True
    if choice == 1 and p is not None and isinstance(p.get("inputs"), list) and p["inputs"]:
        i = rng.randrange(len(p["inputs"]))
        entry = p["inputs"][i]
        if isinstance(entry, list) and len(entry) >= 2:
            entry[1] = {"scalar": "vector", "vector": rng.choice(["scalar", "matrix"]),
                        "matrix": "vector"}.get(entry[1], "scalar")
            return True
    if choice == 2 and isinstance(doc.get("claim"), dict) and isinstance(doc["claim"].get("variables"), list):
        vs = [v for v in doc["claim"]["variables"] if isinstance(v, dict)]
        if vs:
            v = rng.choice(vs)
            v["shape"] = rng.choice([[], ["m"], ["m", "m"], ["m", "d"], [2], ["d"], ["k"]])
            return True
    if p is not None and p["steps"]:  # a scalar-taking step handed a vector operand, or the reverse
        k = rng.randrange(1, len(p["steps"])) if len(p["steps"]) > 1 else 0
        step = p["steps"][k]
        if isinstance(step, list) and len(step) >= 2 and isinstance(step[1], int) and k:
            step[rng.randrange(1, len(step)) if all(isinstance(a, int) for a in step[1:]) else 1] = rng.randrange(k)
            return True
    return False


def o_op(rng, doc, ctx):
    """One step's operation renamed to another of the same arity (of either family)."""
    p = _program(doc)
    if p is None or not p["steps"]:
        return False
    groups = [["add", "sub", "mul", "div", "max", "min", "dot", "matmul", "outer", "pow"],
              ["neg", "sqrt", "sum", "transpose", "exp", "log", "abs", "expect", "relu", "square"],
              ["input", "const"], ["m", "n", "d", "ones", "eye"]]
    k = rng.randrange(len(p["steps"]))
    step = p["steps"][k]
    if not isinstance(step, list) or not step or not isinstance(step[0], str):
        return False
    group = next((g for g in groups if step[0] in g), groups[0])
    step[0] = rng.choice([o for o in group if o != step[0]] or group)
    return True


def o_outputs(rng, doc, ctx):
    """The residual, a hypothesis or an existential residual pointed at another step."""
    p = _program(doc)
    if p is None or not p["steps"]:
        return False
    n = len(p["steps"])
    choice = rng.randrange(3)
    if choice == 0 and isinstance(p.get("residual"), int):
        p["residual"] = rng.randrange(n)
    elif choice == 1 and isinstance(p.get("hypotheses"), list):
        if p["hypotheses"] and rng.random() < 0.5:
            del p["hypotheses"][rng.randrange(len(p["hypotheses"]))]
        else:
            p["hypotheses"].append(rng.randrange(n))
    elif isinstance(p.get("residuals"), list) and p["residuals"]:
        i = rng.randrange(len(p["residuals"]))
        p["residuals"][i] = rng.randrange(n)
    else:
        return False
    return True


def o_hint_part(rng, doc, ctx):
    """A hint moved, copied or swapped between an existential certificate's parts, or a
    witnessed entry pointed at another hint; for a proof through a hint, another index."""
    claim = doc.get("claim")
    if doc.get("kind") == "proof" and isinstance(claim, dict) and isinstance(claim.get("exists"), dict):
        ex = claim["exists"]
        choice = rng.randrange(3)
        if choice == 0:
            ex["hint"] = rng.choice([1, -1, 0, "0", True, 2])
        elif choice == 1 and isinstance(ex.get("defined"), list) and ex["defined"]:
            if rng.random() < 0.5:
                del ex["defined"][rng.randrange(len(ex["defined"]))]
            else:
                e = rng.choice(ex["defined"])
                if isinstance(e, list) and len(e) == 2:
                    e[1] = rng.choice(["nonzero", "nonnegative", "positive"])
        else:
            others = [d for d in ctx["docs"] if d is not doc and isinstance(d.get("claim"), dict)
                      and isinstance(d["claim"].get("exists"), dict)]
            if not others:
                return False
            claim["exists"] = copy.deepcopy(rng.choice(others)["claim"]["exists"])
        return True
    parts = doc.get("parts")
    if not isinstance(parts, list) or not parts:
        return False
    if len(parts) == 1:  # a second part, a copy with its hint changed, or the hint duplicated
        if rng.random() < 0.5:
            parts.append(copy.deepcopy(parts[0]))
        part = parts[-1]
        if isinstance(part.get("hints"), list) and part["hints"]:
            part["hints"].append(copy.deepcopy(part["hints"][0]))
            for w in part.get("witnessed", []):
                if isinstance(w, dict) and rng.random() < 0.5:
                    w["hint"] = len(part["hints"]) - 1
        return True
    a, b = rng.sample(range(len(parts)), 2)
    if rng.random() < 0.5:
        parts[a]["hints"], parts[b]["hints"] = parts[b].get("hints"), parts[a].get("hints")
    else:
        if parts[a].get("hints"):
            parts[b].setdefault("hints", []).append(parts[a]["hints"].pop())
    return True


def o_witness(rng, doc, ctx):
    """The witness's sizes (m, d) changed, or its inputs' values swapped between names."""
    w = doc.get("witness")
    if not isinstance(w, dict):
        return False
    choice = rng.randrange(4)
    if choice == 0:
        w["m"] = rng.choice([0, 1, 2, 3, 33, -1, "2", True])
    elif choice == 1:
        w["d"] = rng.choice([0, 1, 2, 3, "1"]) if "d" in w or rng.random() < 0.5 else w.get("d")
    elif choice == 2 and isinstance(w.get("inputs"), dict) and len(w["inputs"]) >= 2:
        a, b = rng.sample(sorted(w["inputs"]), 2)
        w["inputs"][a], w["inputs"][b] = w["inputs"][b], w["inputs"][a]
    elif isinstance(w.get("inputs"), dict) and w["inputs"]:
        name = rng.choice(sorted(w["inputs"]))
        value = w["inputs"][name]
        w["inputs"][name] = [v if not isinstance(v, str) else "0" for v in value] if isinstance(value, list) else "0"
    else:
        return False
    return True


def o_fixed(rng, doc, ctx):
    """The fixed sizes: one changed, added or dropped (the claim's other sizes)."""
    fixed = doc.get("fixed") if "fixed" in doc else doc.get("sizes")
    if not isinstance(fixed, dict):
        return False
    if fixed and rng.random() < 0.5:
        name = rng.choice(sorted(fixed))
        fixed[name] = rng.choice([0, 1, 2, 3, 17, "2", None])
    else:
        fixed[rng.choice(["d", "k", "n", "m"])] = rng.choice([1, 2, 3])
    return True


def o_sos_case(rng, doc, ctx):
    """A sum-of-squares proof's case, term or denominator changed."""
    proof = doc.get("proof")
    if not isinstance(proof, dict):
        return False
    choice = rng.randrange(4)
    if choice == 0 and isinstance(proof.get("cases"), list) and proof["cases"]:
        case = rng.choice(proof["cases"])
        if isinstance(case, dict):
            case["proof"] = rng.choice([{"method": "zero"}, {"method": "nonnegative"}, {"method": "sos"},
                                        {"method": "every-d"}, copy.deepcopy(proof)])
        return True
    if choice == 1 and isinstance(proof.get("terms"), list) and proof["terms"]:
        if rng.random() < 0.5:
            del proof["terms"][rng.randrange(len(proof["terms"]))]
        else:
            proof["terms"].append(copy.deepcopy(rng.choice(proof["terms"])))
        return True
    if choice == 2 and isinstance(proof.get("denominator"), list):
        if proof["denominator"] and rng.random() < 0.5:
            del proof["denominator"][rng.randrange(len(proof["denominator"]))]
        else:
            proof["denominator"].append(rng.randrange(4))
        return True
    if isinstance(proof.get("substitutions"), list) and proof["substitutions"]:
        s = rng.choice(proof["substitutions"])
        if isinstance(s, dict):
            for key in list(s):
                if isinstance(s[key], int):
                    s[key] = rng.randrange(max(1, s[key] + 2))
        return True
    return False


def o_cross_kind(rng, doc, ctx):
    """Keys of a document of another kind added or swapped in (the dispatch's keys)."""
    others = [d for d in ctx["docs"] if kind_of_doc(d) != kind_of_doc(doc)]
    if not others:
        return False
    donor = rng.choice(others)
    key = rng.choice([k for k in donor if k not in ("digest",)])
    doc[key] = copy.deepcopy(donor[key])
    return True


def _types_by_op(steps):
    """A rough type of each step (what it was built from), for rewiring within a type."""
    return [s[0] if isinstance(s, list) and s else None for s in steps]


def o_rewire(rng, doc, ctx):
    """One operand pointed at another earlier step of the same operation (a well-formed
    program, another function): what only the normal form or the witness can reject."""
    p = _program(doc)
    if p is None or len(p["steps"]) < 3:
        return False
    steps, offset = p["steps"], 0
    proof = doc.get("proof")
    if isinstance(proof, dict) and isinstance(proof.get("steps"), list) and proof["steps"] and rng.random() < 0.5:
        steps, offset = proof["steps"], len(p["steps"])  # a proof's steps number after the program's
    ops = _types_by_op(p["steps"] + (steps if offset else []))
    for _ in range(10):
        k = rng.randrange(1, len(steps)) if len(steps) > 1 else 0
        step = steps[k]
        k += offset
        if not isinstance(step, list) or step[0] in ("input", "const", "expand"):
            continue
        slots = [i for i, a in enumerate(step[1:3], 1) if isinstance(a, int) and not isinstance(a, bool) and a < k]
        if not slots:
            continue
        i = rng.choice(slots)
        same = [j for j in range(k) if ops[j] == ops[step[i]] and j != step[i]]
        if same:
            step[i] = rng.choice(same)
            return True
    return False


def o_literal(rng, doc, ctx):
    """A constant's value, a power's exponent, or a sum's or dot's axis changed."""
    p = _program(doc)
    if p is None:
        return False
    spots = [s for s in p["steps"] if isinstance(s, list) and s and s[0] in ("const", "pow", "sum", "dot")]
    if isinstance(doc.get("proof"), dict) and isinstance(doc["proof"].get("steps"), list):
        spots += [s for s in doc["proof"]["steps"] if isinstance(s, list) and s and s[0] in ("const", "pow")]
    if not spots:
        return False
    s = rng.choice(spots)
    if s[0] == "const":
        s[1] = rng.choice(["0", "1", "-1", "2", "1/2", "-1/2", "3"])
    elif s[0] == "pow" and len(s) > 2 and isinstance(s[2], int):
        s[2] = rng.choice([s[2] + 1, s[2] - 1, -s[2], 0, -1, 2])
    elif s[0] == "sum" and len(s) > 2:
        s[2] = rng.choice([0, 1, 2])
    elif s[0] == "dot" and len(s) > 4:
        s[3], s[4] = rng.choice([0, 1]), rng.choice([0, 1])
    else:
        return False
    return True


def o_drop_step(rng, doc, ctx):
    """A step deleted and every later reference renumbered (a reference to it moved to the
    step before): a well-formed shorter program."""
    p = _program(doc)
    if p is None or len(p["steps"]) < 3:
        return False
    k = rng.randrange(1, len(p["steps"]))

    def fix(j):
        if isinstance(j, int) and not isinstance(j, bool):
            return j - 1 if j >= k else j
        return j
    steps = p["steps"]
    del steps[k]
    for s in steps[k:]:
        if isinstance(s, list) and s and s[0] not in ("input", "const", "expand"):
            s[1:3] = [fix(a) for a in s[1:3]]
        elif isinstance(s, list) and s and s[0] == "expand":
            s[1] = fix(s[1])
    for key in ("residual",):
        if isinstance(p.get(key), int):
            p[key] = fix(p[key])
    for key in ("hypotheses", "equalities", "residuals"):
        if isinstance(p.get(key), list):
            p[key] = [fix(j) for j in p[key]]
    return True


def o_swap_inputs(rng, doc, ctx):
    """Two witness or instance values of the same shape exchanged, or one negated."""
    w = doc.get("witness")
    where = w.get("inputs") if isinstance(w, dict) else doc.get("instance")
    if not isinstance(where, dict) or not where:
        return False
    names = sorted(where)
    a = rng.choice(names)
    if rng.random() < 0.5:
        same = [b for b in names if b != a and type(where[b]) is type(where[a])
                and (not isinstance(where[a], list) or len(where[a]) == len(where[b]))]
        if same:
            b = rng.choice(same)
            where[a], where[b] = where[b], where[a]
            return True

    def neg(v):
        if isinstance(v, list):
            return [neg(x) for x in v]
        return v[1:] if isinstance(v, str) and v.startswith("-") else "-" + v if isinstance(v, str) else v
    where[a] = neg(where[a])
    return True


def o_limits(rng, doc, ctx):
    """A value at a limit of the checkers, or one past it: a power's exponent (64, 8 for a
    tensor), the witness's m (32) and d, the number of hypotheses (64), a constant's digits."""
    p = _program(doc)
    choice = rng.randrange(4)
    if choice == 0 and p is not None:
        pows = [s for s in p["steps"] if isinstance(s, list) and s and s[0] == "pow" and len(s) == 3]
        if pows:
            rng.choice(pows)[2] = rng.choice([64, 65, -64, -65, 8, 9, -8, -9, 63, 7])
            return True
    if choice == 1 and isinstance(doc.get("witness"), dict):
        w = doc["witness"]
        key = "d" if "d" in w and rng.random() < 0.5 else "m"
        w[key] = rng.choice([16, 32, 33, 64, 65, 100])
        return True
    if choice == 2 and p is not None and isinstance(p.get("hypotheses"), list) and p["hypotheses"]:
        p["hypotheses"] = (p["hypotheses"] * 70)[:rng.choice([63, 64, 65, 200])]
        return True
    if p is not None:
        consts = [s for s in p["steps"] if isinstance(s, list) and len(s) == 2 and s[0] == "const"]
        if consts:
            rng.choice(consts)[1] = rng.choice(["1" * 200, "1" * 201, "1/" + "3" * 199, "-" + "7" * 200, "1" * 2000])
            return True
    return False


ODD = [None, True, False, 0, 1, -1, 2, 1.5, "0", "1", "x", "", [], {}, [0], ["1"], [[]], {"a": 1},
       "-1/2", 10**30, "m", "d", "scalar", "vector", "matrix", "feature", ["m"], ["m", "d"]]


def o_type_deep(rng, doc, ctx):
    """Any value of the document (a container too, a key's value or a list's entry, at any
    depth, the digest aside) replaced by one of another type or an odd one of its type: the
    readers the refactor merged must reject each, never crash."""
    spots = []

    def walk(v, path):
        if path:
            spots.append(path)
        if isinstance(v, dict):
            for k, x in v.items():
                if path or k != "digest":
                    walk(x, path + (k,))
        elif isinstance(v, list):
            for i, x in enumerate(v):
                walk(x, path + (i,))
    walk(doc, ())
    if not spots:
        return False
    path = rng.choice(spots)
    target = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = copy.deepcopy(rng.choice(ODD))
    return True


OWN = {f.__name__[2:]: f for f in (o_method, o_method_strip, o_proof_from, o_family_step, o_family_program,
                                   o_kind, o_equality, o_vector_scalar, o_op, o_outputs, o_hint_part,
                                   o_witness, o_fixed, o_sos_case, o_cross_kind, o_rewire, o_literal,
                                   o_drop_step, o_swap_inputs, o_limits, o_type_deep)}


def own_mutants(doc, count: int, seed: int, ctx, only: str = ""):
    rng = random.Random(seed)
    names = sorted(only.split(",") if only else OWN)
    made = 0
    tries = 0
    while made < count and tries < count * 10:
        tries += 1
        name = names[(seed + tries) % len(names)] if rng.random() < 0.5 else rng.choice(names)
        mutant = copy.deepcopy(doc)
        try:
            changed = OWN[name](rng, mutant, ctx)
        except (KeyError, TypeError, IndexError, ValueError, AttributeError):
            continue  # a mutation that does not fit this document's shape
        if not changed or mutant == doc:
            continue
        made += 1
        yield f"own:{name}", json.dumps(seal(mutant), indent=1).encode()


# --- the writers: each family's program written out at concrete sizes, old against new ---

def _evaluate(steps: list, values: dict) -> list:
    """Each scalar step's value (a float; None where undefined or not computed), from the
    inputs' values {(name, *index): float}."""
    out = []
    for step in steps:
        op, args = step[0], step[1:]
        try:
            if op == "input":
                v = values[tuple(args)]
            elif op == "const":
                v = float(Fraction(args[0]))
            else:
                xs = [out[a] for a in (args[:1] if op == "pow" else args)]
                if any(x is None for x in xs):
                    v = None
                elif op == "add":
                    v = xs[0] + xs[1]
                elif op == "sub":
                    v = xs[0] - xs[1]
                elif op == "mul":
                    v = xs[0] * xs[1]
                elif op == "div":
                    v = xs[0] / xs[1]
                elif op == "neg":
                    v = -xs[0]
                elif op == "pow":
                    v = xs[0] ** args[1]
                elif op == "sqrt":
                    v = math.sqrt(xs[0])
                else:
                    v = None
        except (ZeroDivisionError, ValueError, OverflowError, KeyError):
            v = None
        out.append(v)
    return out


def _flat(v):
    if isinstance(v, list):
        return [x for y in v for x in _flat(y)]
    return [v]


def _input_values(inputs, sizes, rng, kinds) -> dict:
    """Random values of every input's entries, as the writers name them."""
    out = {}
    for name, kind, domain in inputs:
        axes = kinds[kind]
        for idx in product(*(range(sizes[a]) for a in axes)):
            x = rng.randint(1, 9) / rng.randint(1, 5) * (1 if domain == "positive" or rng.random() < 0.6 else -1)
            out[(name, *idx)] = x
        if kind in ("M",) and domain == "symmetric":  # the writer names i <= j only
            pass
    return out


def _close(a, b) -> bool:
    if a is None or b is None:
        return a is None and b is None
    if a == b or a != a and b != b:  # the same infinity (a power 64 of 16 overflows), or both NaN
        return True
    return abs(a - b) <= 1e-7 * max(1.0, abs(a), abs(b))


def _document(data) -> dict | None:
    """The mutant as a JSON object, None where it is not one."""
    try:
        doc = json.loads(data)
    except ValueError:
        return None
    return doc if isinstance(doc, dict) else None


def _both(old, new, read) -> list:
    """read(checker) for the old and the new checker; ("error", type, message) where it raised."""
    got = []
    for ck in (old, new):
        try:
            got.append(read(ck))
        except Exception as exc:  # noqa: BLE001 - a reader's refusal, or a crash
            got.append(("error", type(exc).__name__, str(exc)[:100]))
    return got


def _errors_differ(got, where: str) -> str | None:
    """What differs where at least one reader raised: None if both raised alike."""
    if got[0][:2] == got[1][:2]:
        return None
    shown = [g[:3] if g[0] == "error" else "ok" for g in got]
    return f"{where}: old {shown[0]}, new {shown[1]}"


def writer_diff(old, new, doc, rng) -> str | None:
    """None if both checkers' writers give the same values at random sizes and inputs to
    every step (every-m) or every rank-0 step (every-d); else what differs.  A document
    either reader rejects is skipped (the verdict comparison covers it)."""
    proof = doc.get("proof")
    method = proof.get("method") if isinstance(proof, dict) else None
    if doc.get("kind") != "proof" or method == "moments-n":
        return None
    for trial in range(3):
        if method == "every-d":
            sizes = {"m": rng.randint(1, 3), "d": rng.randint(1, 3)}
            def every_d(ck):
                ed = sys.modules[ck.__name__ + ".every_d"]
                inputs = ed.read_inputs(doc["program"]["inputs"])
                steps, scalars = ed.instantiate(inputs, ed.read_steps(doc["program"]["steps"], inputs),
                                                sizes["m"], sizes["d"])
                return inputs, steps, scalars

            got = _both(old, new, every_d)
            if any(g[0] == "error" for g in got):
                return _errors_differ(got, f"every-d writer at {sizes}")
            kinds = {"scalar": (), "vector": ("m",), "feature": ("d",), "matrix": ("m", "d")}
            values = _input_values(got[0][0], sizes, rng, kinds)
            vo = _evaluate(got[0][1], values)
            vn = _evaluate(got[1][1], values)
            for k, (a, b) in enumerate(zip(got[0][2], got[1][2])):
                if (a is None) != (b is None):
                    return f"every-d step {k}: scalar in one writer only"
                if a is not None and not _close(vo[a], vn[b]):
                    return f"every-d step {k} at {sizes}: old {vo[a]}, new {vn[b]}"
        else:
            m = rng.randint(1, 4)
            def every_m(ck):
                _, inputs, ops, types, _, _ = sys.modules[ck.__name__ + ".proof"].read_statement(doc)
                steps, vals = sys.modules[ck.__name__ + ".instantiate"].instantiate(inputs, ops, types, m)
                return inputs, steps, vals

            got = _both(old, new, every_m)
            if any(g[0] == "error" for g in got):
                return _errors_differ(got, f"every-m writer at m = {m}")
            values = {}
            for name, t, domain in got[0][0]:
                axes = {"S": 0, "V": 1, "M": 2}[t]
                for idx in product(*(range(m) for _ in range(axes))):
                    if t == "M" and domain == "symmetric" and idx[0] > idx[1]:
                        continue
                    x = rng.randint(1, 9) / rng.randint(1, 5) * (1 if domain == "positive" or rng.random() < 0.6 else -1)
                    values[(name, *idx)] = x
            vo = _evaluate(got[0][1], values)
            vn = _evaluate(got[1][1], values)
            for k, (a, b) in enumerate(zip(got[0][2], got[1][2])):
                fa, fb = _flat(a), _flat(b)
                if len(fa) != len(fb):
                    return f"every-m step {k} at m = {m}: {len(fa)} cells old, {len(fb)} new"
                for x, y in zip(fa, fb):
                    if not _close(vo[x], vn[y]):
                        return f"every-m step {k} at m = {m}: old {vo[x]}, new {vn[y]}"
    return None


def oracle_violation(ck, doc, rng, trials: int = 12) -> str | None:
    """A proof the checker accepted, tested against its own program in floats: at random
    sizes and inputs (in their domains) where every step is defined and every hypothesis
    > 0, the residual must be 0 (identity) or >= 0 (inequality), up to rounding.  The
    program is written out by the reference checker `ck`.  None if no violation is seen
    (or the document is not of a kind tested: moments-n, equalities)."""
    proof = doc.get("proof")
    method = proof.get("method") if isinstance(proof, dict) else None
    if doc.get("kind") != "proof" or method == "moments-n" or "equalities" in doc.get("program", {}):
        return None
    if isinstance(doc.get("claim"), dict) and "exists" in doc["claim"]:
        doc = {**doc, "claim": {k: v for k, v in doc["claim"].items() if k != "exists"}}
    doc = seal(doc)  # the readers check the seal; what is tested here is the content
    identity = doc["claim"].get("kind") == "identity"
    for _ in range(trials):
        try:
            if method == "every-d":
                ed = sys.modules[ck.__name__ + ".every_d"]
                inputs = ed.read_inputs(doc["program"]["inputs"])
                ops = ed.read_steps(doc["program"]["steps"], inputs)
                sizes = {"m": rng.randint(1, 4), "d": rng.randint(1, 3)}
                steps, scalars = ed.instantiate(inputs, ops, sizes["m"], sizes["d"])
                kinds = {"scalar": (), "vector": ("m",), "feature": ("d",), "matrix": ("m", "d")}
                cell = lambda k: scalars[k]  # noqa: E731
            else:
                pr = sys.modules[ck.__name__ + ".proof"]
                ins = sys.modules[ck.__name__ + ".instantiate"]
                _, inputs, ops, types, _, _ = pr.read_statement(doc)
                sizes = {"m": rng.randint(1, 5)}
                steps, vals = ins.instantiate(inputs, ops, types, sizes["m"])
                kinds = {"S": (), "V": ("m",), "M": ("m", "m")}
                cell = lambda k: vals[k]  # noqa: E731
        except Exception:  # noqa: BLE001 - a document these readers refuse: not for this oracle
            return None
        values = {}
        for name, kind, domain in inputs:
            for idx in product(*(range(sizes[a]) for a in kinds[kind])):
                if domain == "symmetric" and idx[0] > idx[1]:
                    continue
                x = rng.choice([0, 1, -1, 2, -2, 0.5, -0.5, 3, 1 / 3]) if rng.random() < 0.5 else rng.uniform(-3, 3)
                if domain == "positive":
                    x = abs(x) or 1.0
                if domain == "nonzero" and x == 0:
                    x = 1.0
                values[(name, *idx)] = x
        got = _evaluate(steps, values)
        if any(v is None for v in got):
            continue  # a step undefined here: outside the claim
        hyps = doc["program"].get("hypotheses", [])
        if any(got[cell(h)] <= 0 for h in hyps):
            continue
        r = got[cell(doc["program"]["residual"])]
        scale = 1e-6 * max(1.0, max(abs(v) for v in got))
        if identity and abs(r) > scale or not identity and r < -scale:
            return f"residual {r:.6g} at {sizes}, inputs {dict(list(values.items())[:6])}"
    return None


def moments_violation(doc, rng) -> str | None:
    """A moments-n proof the new checker accepted, tested exactly at n = 1..3 by enumeration:
    every batch's draws over a random finite law (its own, not the checker's algebra), every
    expectation a weighted sum over all outcomes; the residual must be 0 wherever every
    division is defined.  None if no violation (or the document is not one this reads)."""
    try:
        program = doc["program"]
        law = program["laws"][0]
        names = [e[0] for e in program["inputs"]]
        domains = {e[0]: e[1] for e in program["inputs"]}
        steps, residual = program["steps"], program["residual"]
    except (KeyError, IndexError, TypeError):
        return None
    for _ in range(4):
        k = rng.randint(1, 3)
        support = [Fraction(rng.randint(-4, 4), rng.randint(1, 3)) for _ in range(k)]
        weights = [Fraction(rng.randint(1, 4)) for _ in range(k)]
        total = sum(weights)
        probs = [w / total for w in weights]
        ins = {}
        for name in names:
            x = Fraction(rng.randint(1, 5), rng.randint(1, 3))
            ins[name] = x if domains[name] == "positive" else (x if rng.random() < 0.5 else -x)
        for n in (1, 2, 3):
            try:
                r = _moments_at(steps, residual, law, n, support, probs, ins)
            except ZeroDivisionError:
                continue
            except (KeyError, IndexError, TypeError, ValueError):
                return None
            if r != 0:
                return f"residual {r} at n = {n}, support {[str(x) for x in support]}, weights {[str(w) for w in weights]}"
    return None


def _moments_at(steps, residual, law, n, support, probs, ins):
    """Each value: ("c", q) a constant; ("s", b, {outcome: q}) a scalar of batch b's draws;
    ("v", b, {outcome: [q...]}) a batch vector."""
    outcomes = {}  # batch step -> [(outcome tuple, probability)]

    def space(size):
        out = []
        for t in product(range(len(support)), repeat=size):
            p = Fraction(1)
            for j in t:
                p *= probs[j]
            out.append((t, p))
        return out

    def lift(v, b):
        if v[0] == "c":
            return {t: v[1] for t, _ in outcomes[b]}
        return v[2]

    def combine(f, a, c):
        if a[0] == "c" and c[0] == "c":
            return ("c", f(a[1], c[1]))
        b = a[1] if a[0] != "c" else c[1]
        vector = "v" in (a[0], c[0])
        xa, xc = lift(a, b), lift(c, b)
        out = {}
        for t, _ in outcomes[b]:
            u, w = xa[t], xc[t]
            if vector:
                u = u if isinstance(u, list) else [u] * len(t)
                w = w if isinstance(w, list) else [w] * len(t)
                out[t] = [f(p, q) for p, q in zip(u, w)]
            else:
                out[t] = f(u, w)
        return ("v" if vector else "s", b, out)

    def each(f, a):
        if a[0] == "c":
            return ("c", f(a[1]))
        return (a[0], a[1], {t: [f(x) for x in v] if isinstance(v, list) else f(v) for t, v in a[2].items()})

    vals = []
    for i, st in enumerate(steps):
        op = st[0]
        if op == "n":
            v = ("c", Fraction(n))
        elif op == "input":
            v = ("c", ins[st[1]])
        elif op == "const":
            v = ("c", Fraction(st[1]))
        elif op == "batch":
            size = n if st[2] == "n" else st[2]
            outcomes[i] = space(size)
            v = ("v", i, {t: [support[j] for j in t] for t, _ in outcomes[i]}) if st[2] == "n" else None
        elif op == "draw":
            b, kk = st[1], st[2]
            v = ("s", b, {t: support[t[kk]] for t, _ in outcomes[b]})
        elif op in ("add", "sub", "mul", "div"):
            f = {"add": lambda p, q: p + q, "sub": lambda p, q: p - q, "mul": lambda p, q: p * q,
                 "div": lambda p, q: p / q}[op]
            v = combine(f, vals[st[1]], vals[st[2]])
        elif op == "neg":
            v = each(lambda p: -p, vals[st[1]])
        elif op == "pow":
            kk = st[2]
            v = each(lambda p: p ** kk, vals[st[1]])
        elif op == "sum":
            a = vals[st[1]]
            v = ("s", a[1], {t: sum(x, Fraction(0)) for t, x in a[2].items()})
        elif op == "expect":
            a = vals[st[1]]
            v = a if a[0] == "c" else ("c", sum(p * a[2][t] for t, p in outcomes[a[1]]))
        else:
            raise ValueError(op)
        vals.append(v)
    r = vals[residual]
    if r[0] != "c":
        raise ValueError("residual depends on the draws")
    return r[1]


# --- the run ---------------------------------------------------------------------------

def normalize(line: str) -> str:
    """A rejection's message without the file name, numbers elided (for grouping)."""
    msg = line.split(": ", 1)[1] if ": " in line else line
    return re.sub(r"\d+", "N", msg)[:160]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", default="1f4f438")
    ap.add_argument("--new", default="worktree")
    ap.add_argument("--gallery", action="append", default=[], type=Path)
    ap.add_argument("--generate", type=Path, help="make the gallery's certificates there first")
    ap.add_argument("--tamper", type=int, default=6, help="tamper.py mutants per document")
    ap.add_argument("--own", type=int, default=8, help="own mutants per document")
    ap.add_argument("--seed", type=int, default=29)
    ap.add_argument("--limit-s", type=float, default=30.0)
    ap.add_argument("--max-base", type=int, default=0, help="at most this many base documents (0: all)")
    ap.add_argument("--writers", action="store_true",
                    help="also compare the two writers (a proof written out at concrete sizes) by value")
    ap.add_argument("--oracle", action="store_true",
                    help="test what the new checker accepts: proofs against their program (floats at random "
                         "points; moments-n exactly by enumeration), refutations by tests/tamper.py's SymPy oracle")
    ap.add_argument("--only-own", default="", help="comma-separated own mutations to make (default: all)")
    ap.add_argument("--kinds", default="", help="comma-separated base kinds to keep (e.g. proof:sos,proof:exists-hint)")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--save-diffs", type=Path, help="write every verdict difference and crash there")
    args = ap.parse_args(argv)

    old = load_checker(args.base, f"checker_{re.sub(r'[^0-9a-zA-Z]', '_', args.base)}")
    new = load_checker(args.new, "checker_new")
    if args.generate:
        generate(args.generate)
        args.gallery.append(args.generate)

    base = committed_documents() + gallery_documents(args.gallery)
    seen, unique = set(), []
    for name, data in base:  # the same bytes once
        h = hashlib.sha256(data).digest()
        if h not in seen:
            seen.add(h)
            unique.append((name, data))
    if args.kinds:
        wanted = set(args.kinds.split(","))

        def base_kind(data):
            try:
                return kind_of_doc(json.loads(data))
            except ValueError:
                return "not-json"
        unique = [(name, data) for name, data in unique if base_kind(data) in wanted]
    if args.max_base:
        random.Random(args.seed).shuffle(unique)
        unique = unique[:args.max_base]
    docs = []
    for name, data in unique:
        try:
            docs.append(json.loads(data))
        except ValueError:
            pass
    docs = [d for d in docs if isinstance(d, dict)]
    ctx = {"docs": docs, "pool": _step_pool(docs)}

    corpus = []  # (origin, mutation, base kind, bytes)
    tamper_failed = Counter()
    for i, (name, data) in enumerate(unique):
        try:
            doc = json.loads(data)
        except ValueError:
            doc = None
        kind = kind_of_doc(doc)
        corpus.append((name, "original", kind, data))
        if not isinstance(doc, dict) or "digest" not in doc:
            continue
        seed = args.seed * 100003 + i
        if args.tamper:
            try:
                for mkind, mdata in mutants(data, args.tamper, seed):
                    corpus.append((name, f"tamper:{mkind}", kind, mdata))
            except (KeyError, TypeError, IndexError, ValueError) as exc:
                # tamper.py's mutations assume a refutation's or a proof's keys (m_program
                # reads doc["proof"] of a witness certificate): the ones made so far are kept
                tamper_failed[f"{kind}: {type(exc).__name__} {exc}"] += 1
        if args.own:
            for mkind, mdata in own_mutants(doc, args.own, seed, ctx, args.only_own):
                corpus.append((name, mkind, kind, mdata))

    print(f"base documents: {len(unique)}; corpus: {len(corpus)}", flush=True)
    for what, c in tamper_failed.items():
        print(f"  tamper.mutants stopped early on {c} document(s) ({what})")
    by_kind = Counter((c[2], c[1] == "original") for c in corpus)
    verdicts = Counter()
    diffs, crashes, msg_groups, accept_lines = [], [], Counter(), []
    slow = []
    per_mutation, reasons = defaultdict(Counter), defaultdict(Counter)
    writers, writer_diffs = [0], []
    oracled, oracle_hits, oracle_undecided = [0], [], Counter()
    start = time.perf_counter()
    for n, (origin, mutation, kind, data) in enumerate(corpus):
        so, lo, to = run_one(old, data, args.limit_s)
        sn, ln, tn = run_one(new, data, args.limit_s)
        verdicts[(so, sn)] += 1
        family = mutation.split("+")[0]
        per_mutation[family][so == sn == "accepted"] += 1
        if sn == "rejected":
            reasons[family][normalize(ln)[:70]] += 1
        if max(to, tn) > 5:
            slow.append((origin, mutation, round(to, 1), round(tn, 1)))
        entry = {"origin": origin, "mutation": mutation, "kind": kind, "old": so, "new": sn,
                 "old_line": lo[:400], "new_line": ln[:400], "n": n}
        if "crash" in (so, sn) or "timeout" in (so, sn):
            crashes.append((entry, data))
        if {so, sn} <= {"accepted", "rejected"} and so != sn:
            diffs.append((entry, data))
        elif so == sn == "rejected" and lo != ln:
            msg_groups[(normalize(lo), normalize(ln))] += 1
        elif so == sn == "accepted" and lo != ln:
            accept_lines.append(entry)
        if args.writers and mutation.split(":")[0] in ("original", "own"):
            mdoc = _document(data)
            if mdoc is not None:
                signal.setitimer(signal.ITIMER_REAL, args.limit_s)
                try:
                    said = writer_diff(old, new, mdoc, random.Random(n))
                except Timeout:
                    said = None
                except Exception as exc:  # noqa: BLE001 - the comparison's own failure, reported
                    said = f"writer comparison failed: {type(exc).__name__}: {exc}"[:200]
                finally:
                    signal.setitimer(signal.ITIMER_REAL, 0)
                writers[0] += 1
                if said:
                    writer_diffs.append((entry, said, data))
        if args.oracle and sn == "accepted":
            mdoc = _document(data)
            if mdoc is not None:
                signal.setitimer(signal.ITIMER_REAL, args.limit_s)
                try:
                    method = mdoc.get("proof", {}).get("method") if isinstance(mdoc.get("proof"), dict) else None
                    if kind_of_doc(mdoc) in ("program:refutation", "lemma-4.5"):
                        # tests/tamper.py's SymPy oracle: the claim's verdict at the instance
                        truth = true_verdict(mdoc)
                        said = None if truth == mdoc.get("verdict") else f"SymPy says {truth}"
                    else:
                        said = (moments_violation(mdoc, random.Random(n)) if method == "moments-n"
                                else oracle_violation(old, mdoc, random.Random(n)))
                except Timeout:
                    said = None
                except Exception as exc:  # noqa: BLE001 - the oracle's own failure, reported
                    said = f"oracle failed: {type(exc).__name__}: {exc}"[:200]
                finally:
                    signal.setitimer(signal.ITIMER_REAL, 0)
                oracled[0] += 1
                if said and said.startswith("oracle failed"):
                    oracle_undecided[said.split(":")[1].strip()] += 1
                elif said:
                    oracle_hits.append((entry, said, data))
        if n % 200 == 199:
            print(f"  {n + 1}/{len(corpus)} in {time.perf_counter() - start:.0f} s; differences "
                  f"{len(diffs)}, crashes {len(crashes)}", flush=True)

    print(f"\n== corpus by base kind (originals / mutants) in {time.perf_counter() - start:.0f} s")
    for kind in sorted({k for k, _ in by_kind}):
        print(f"  {kind:28} {by_kind[(kind, True)]:5} / {by_kind[(kind, False)]:6}")
    print("== verdict pairs (old, new):")
    for pair, c in sorted(verdicts.items()):
        print(f"  {pair}: {c}")
    print("== by mutation: accepted by both / rejected by both or either; the new checker's commonest reasons")
    for family in sorted(per_mutation):
        top = "; ".join(f"{c}x {r}" for r, c in reasons[family].most_common(3))
        print(f"  {family:28} {per_mutation[family][True]:5} / {per_mutation[family][False]:5}  {top[:200]}")
    print(f"\n== verdict differences: {len(diffs)}")
    for entry, _ in diffs:
        print(f"  [{entry['n']}] {entry['origin']} {entry['mutation']} ({entry['kind']}): old {entry['old']}, "
              f"new {entry['new']}\n     old: {entry['old_line'][:250]}\n     new: {entry['new_line'][:250]}")
    if args.writers:
        print(f"\n== writers compared on {writers[0]} documents (originals and own mutants; proofs read by both): "
              f"{len(writer_diffs)} differ")
        for entry, said, _ in writer_diffs[:40]:
            print(f"  [{entry['n']}] {entry['origin']} {entry['mutation']}: {said}")
    if args.oracle:
        print(f"\n== documents the new checker accepted, tested by an oracle of their own: {oracled[0]}; "
              f"{len(oracle_hits)} violate their claim")
        for entry, said, _ in oracle_hits[:40]:
            print(f"  [{entry['n']}] {entry['origin']} {entry['mutation']} (old {entry['old']}): {said}")
        if oracle_undecided:
            print(f"  the oracle itself failed on {sum(oracle_undecided.values())} (not decided): "
                  + ", ".join(f"{c}x {e}" for e, c in oracle_undecided.most_common()))
    print(f"\n== crashes and timeouts: {len(crashes)}")
    for entry, _ in crashes:
        print(f"  [{entry['n']}] {entry['origin']} {entry['mutation']}: old {entry['old']} ({entry['old_line'][:150]}), "
              f"new {entry['new']} ({entry['new_line'][:150]})")
    print(f"\n== acceptances whose lines differ: {len(accept_lines)}")
    groups = Counter((normalize(e["old_line"]), normalize(e["new_line"])) for e in accept_lines)
    for (a, b), c in groups.most_common(20):
        print(f"  {c:5}x old: {a}\n         new: {b}")
    print(f"\n== rejections whose messages alone differ: {sum(msg_groups.values())} in {len(msg_groups)} groups")
    for (a, b), c in msg_groups.most_common():
        print(f"  {c:5}x old: {a}\n         new: {b}")
    if slow:
        print(f"\n== slow (> 5 s on one side): {len(slow)}")
        for s in slow[:20]:
            print("  ", s)
    if args.save_diffs:
        args.save_diffs.mkdir(parents=True, exist_ok=True)
        for entry, data in diffs + crashes + [(e, d) for e, _, d in writer_diffs + oracle_hits]:
            (args.save_diffs / f"{entry['n']:05d}.json").write_bytes(data)
            (args.save_diffs / f"{entry['n']:05d}.meta.json").write_text(json.dumps(entry, indent=1))
    if args.json:
        args.json.write_text(json.dumps({
            "corpus": {f"{k}|{'original' if o else 'mutant'}": c for (k, o), c in by_kind.items()},
            "verdicts": {f"{a}/{b}": c for (a, b), c in verdicts.items()},
            "differences": [e for e, _ in diffs], "crashes": [e for e, _ in crashes],
            "message_groups": [{"old": a, "new": b, "count": c} for (a, b), c in msg_groups.most_common()],
        }, indent=1))
    return 1 if diffs or crashes or writer_diffs or oracle_hits else 0


if __name__ == "__main__":
    sys.exit(main())
