"""The symbolic-length program at a concrete m against the engine's own fixed-size trace.

For every claim with a committed proof certificate (the claims the tracer proves), the
checker's instantiate() of the certificate's program at m = 2..5 and the engine's
fixed-size trace (bnproof.claims.decide.trace) of the same claim are evaluated exactly
(SymPy, in Q(√a, √b, ...)) on random rational instances: residual and hypotheses agree
exactly (the residual is 0 for a proved identity).  On santurkar2018/theorem-4.1 as
printed (1/√m, refuted) the residual is nonzero and must still agree, so the comparison
can fail; a program changed by one constant must disagree."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path

import pytest
import sympy

from bnproof.checker.instantiate import instantiate
from bnproof.checker.symbolic_program import read_inputs, read_steps
from bnproof.claims.api import named
from bnproof.claims.decide import trace
from bnproof.program.evaluate import to_sympy
from bnproof.symbolic_m.trace import program_for

ROOT = Path(__file__).resolve().parents[1]
PROOFS = sorted((ROOT / "certificates").rglob("*.proof.json"))
SIZES = (2, 3, 4, 5)


def canonical(x):
    return sympy.expand(sympy.radsimp(sympy.expand(x)))


def instance(claim, sizes: dict, rng: random.Random) -> dict:
    """Random small rationals of the claim's shapes and domains (symmetric matrices symmetric)."""
    out = {}
    for v in claim.variables:
        shape = [sizes[s] if isinstance(s, str) else s for s in v.shape]

        def draw():
            q = Fraction(rng.randint(-9, 9), rng.randint(1, 4))
            if v.domain == "positive":
                return abs(q) + Fraction(1, 3)
            return q if v.domain != "nonzero" or q else Fraction(5, 2)

        if not shape:
            out[v.name] = draw()
        elif len(shape) == 1:
            out[v.name] = [draw() for _ in range(shape[0])]
        else:
            rows = [[draw() for _ in range(shape[1])] for _ in range(shape[0])]
            if v.domain == "symmetric":
                rows = [[rows[min(i, j)][max(i, j)] for j in range(shape[1])] for i in range(shape[0])]
            out[v.name] = rows
    return out


def engine_lookup(values: dict):
    def lookup(name, index):
        x = values[name]
        for i in index:
            x = x[i]
        return x
    return lookup


def program_lookup(values: dict):
    """The instantiated program's inputs: y[i], H[i][j], a column X:j as X[i][j], an entry w:j as w[j]."""
    def lookup(name, index):
        base, _, rest = name.partition(":")
        x = values[base]
        for i in index:
            x = x[i]
        for j in (rest.split(":") if rest else ()):
            x = x[int(j)]
        return x
    return lookup


def both(claim, program: dict, fixed: dict, m: int, values: dict):
    """(engine residual, program residual, engine hypotheses, program hypotheses), exact."""
    traced = trace(claim, {"m": m, **fixed})
    inputs, types = read_inputs(program["inputs"]), []
    ops = read_steps(program["steps"], inputs, types, "program.steps")
    steps, vals = instantiate(inputs, ops, types, m)
    theirs, ours = engine_lookup(values), program_lookup(values)
    r_engine = canonical(to_sympy(traced.steps, theirs, traced.residual))
    r_program = canonical(to_sympy(steps, ours, vals[program["residual"]]))
    h_engine = [canonical(to_sympy(traced.steps, theirs, h)) for h in traced.hypotheses]
    h_program = [canonical(to_sympy(steps, ours, vals[h])) for h in program["hypotheses"]]
    return r_engine, r_program, h_engine, h_program


def instances(claim, fixed: dict, m: int, seed: int, count: int = 2):
    """Random instances where the engine's hypotheses hold (by exact sign, through SymPy)."""
    rng, found = random.Random(seed), 0
    for _ in range(40):
        values = instance(claim, {"m": m, **fixed}, rng)
        traced = trace(claim, {"m": m, **fixed})
        try:
            hyps = [to_sympy(traced.steps, engine_lookup(values), h) for h in traced.hypotheses]
        except (ArithmeticError, ValueError):
            continue
        if all(sympy.sign(canonical(h)) > 0 for h in hyps):
            yield values
            found += 1
            if found == count:
                return
    raise AssertionError(f"no instance meets {claim.id}'s hypotheses at m = {m}")


def proved():
    out = []
    for path in PROOFS:
        doc = json.loads(path.read_text())
        if doc["proof"].get("method") == "every-d":  # no fixed sizes: its claim's program at d = 1 and 2
            # (the every-d program itself is compared at several (m, d) in test_every_d.py)
            out += [pytest.param(doc["claim"]["id"], {"d": d}, id=f"{path.name}-d{d}") for d in (1, 2)]
            continue
        out.append(pytest.param(doc["claim"]["id"], doc["fixed"], id=path.name))
    return out


@pytest.mark.parametrize("claim_id, fixed", proved())
def test_a_proved_claim_agrees_with_its_fixed_size_trace(claim_id, fixed):
    claim = named(claim_id)
    program = program_for(claim, fixed)
    for m in SIZES:
        for values in instances(claim, fixed, m, seed=m):
            r_engine, r_program, h_engine, h_program = both(claim, program, fixed, m, values)
            assert r_program == r_engine, (m, values)
            assert h_program == h_engine, (m, values)
            if claim.kind == "identity":
                assert r_program == 0
            else:  # proved >= 0
                assert sympy.sign(r_program) >= 0


def test_a_refuted_claim_agrees_too_and_is_nonzero():
    claim = named("santurkar2018/theorem-4.1")
    program = program_for(claim, {})
    nonzero = 0
    for m in SIZES:
        for values in instances(claim, {}, m, seed=10 + m):
            r_engine, r_program, h_engine, h_program = both(claim, program, {}, m, values)
            assert r_program == r_engine and h_program == h_engine, (m, values)
            nonzero += r_program != 0
    assert nonzero >= 6  # 1/sqrt(m) against 1/m: the residual is 0 only by accident


def test_a_changed_constant_disagrees():
    claim = named("santurkar2018/theorem-4.1/as-derived")
    program = program_for(claim, {})
    k = next(i for i, s in enumerate(program["steps"]) if s[0] == "const")
    changed = {**program, "steps": [["const", "2"] if i == k else s for i, s in enumerate(program["steps"])]}
    values = next(instances(claim, {}, 3, seed=1))
    r_engine, r_program, _, _ = both(claim, changed, {}, 3, values)
    assert r_engine == 0 and r_program != 0
