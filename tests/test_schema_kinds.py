"""docs/certificate.schema.json describes every kind of certificate the tool writes
today: proofs for every m and every d (method every-d, with and without squares),
expectations for every n (moments-n), substitution by multipliers, existential claims
proved through a hint (claim.exists), witness certificates, and the every-m roots,
grads and shapes proofs.  Each is generated here from the gallery (small budgets) and
must validate; for each newer entry, mutants (an unknown key, a wrong operation, a
missing field, a value out of its bounds) must fail it, so the entry is not a blank
cheque.  Each mutant is also rejected by the checker: the schema refuses only what
the checker refuses."""

from __future__ import annotations

import copy
import importlib.util
import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

import bnproof
from bnproof.checker import Rejected, check_document
from test_schema import _at  # one setter of a nested key for both schema files
from tests.tamper import seal

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = json.loads((ROOT / "docs" / "certificate.schema.json").read_text(encoding="utf-8"))
VALIDATOR = Draft202012Validator(SCHEMA)

# name: (gallery file, claim, the proof method or document kind it must have)
PROVED = {
    "every-d": ("every_d", "KOHLER_VARIANCE", "every-d"),
    "every-d-squares": ("every_d", "KOHLER_NONNEGATIVE", "every-d"),
    "moments-n": ("every_n_moments", "MEAN", "moments-n"),
    "multipliers": ("every_m_multipliers", "COV", "substitution"),
    "exists-hint": ("every_m_exists", "RMS_GAIN", "zero"),
    "substitution": ("every_m_equalities", "RECOVERY", "substitution"),
    "roots": ("every_m_roots", "SCALE_INVARIANCE", "zero"),
    "grads": ("every_m_grads", "BETA", "zero"),
    "shapes": ("every_m_shapes", "BATCH_NAMED_N", "zero"),
}
# the kinds the schema did not describe before (each of their tests failed then)
NEW = ("every-d", "every-d-squares", "moments-n", "multipliers", "exists-hint", "witnesses")


def _gallery(name: str):
    spec = importlib.util.spec_from_file_location(f"schema_kinds_{name}", ROOT / "docs" / "examples" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def certificates(tmp_path_factory) -> dict:
    """One generated certificate of each kind, by name (a few seconds in all)."""
    out = tmp_path_factory.mktemp("kinds")
    docs = {}
    for name, (gallery, claim, _) in PROVED.items():
        result = bnproof.prove(getattr(_gallery(gallery), claim), out_dir=out / name, time_budget=30)
        paths = sorted((out / name).rglob("*.proof.json"))
        assert paths, f"{name}: nothing proved ({result})"
        docs[name] = json.loads(paths[0].read_text(encoding="utf-8"))
    bnproof.fuzz(_gallery("existential_witnesses").BN_REPRESENTS_IDENTITY, seed=0, max_examples=5,
                 time_budget=30, jax=False, out_dir=out / "witnesses")
    paths = sorted((out / "witnesses").rglob("*.witnesses.json"))
    assert paths, "no witness certificate written"
    docs["witnesses"] = json.loads(paths[0].read_text(encoding="utf-8"))
    return docs


def _errors(doc) -> list:
    return list(VALIDATOR.iter_errors(doc))


@pytest.fixture(scope="module")
def invalid(certificates) -> dict:
    """The schema's errors on each generated certificate, by name: asked once, here, for
    every test that needs its base valid (the 61 mutants validated theirs each time)."""
    return {name: [e.message[:200] for e in _errors(doc)] for name, doc in certificates.items()}


@pytest.mark.parametrize("name", NEW)
def test_each_new_kind_validates(invalid, name):
    assert invalid[name] == []


def test_every_kind_the_tool_writes_validates(certificates, invalid):
    """All of them at once, the roots, grads, shapes and substitution proofs with the new
    kinds (those four were described before; they are kept from regressing here), each
    of the kind named and accepted by the checker."""
    for name, (_, _, method) in PROVED.items():
        assert certificates[name]["proof"]["method"] == method, name
    assert "squares" in certificates["every-d-squares"]["proof"]
    assert "multipliers" in certificates["multipliers"]["proof"]
    assert "substitutions" in certificates["substitution"]["proof"]
    assert "exists" in certificates["exists-hint"]["claim"]
    assert certificates["witnesses"]["verdict"] == "witnessed"
    for doc in certificates.values():
        check_document(doc)
    assert {name: errors for name, errors in invalid.items() if errors} == {}


def _pop(path):
    def mutate(doc):
        for key in path[:-1]:
            doc = doc[key]
        doc.pop(path[-1])
    return mutate


def _step_of(doc: dict, ops: tuple, steps_path=("program", "steps")) -> int:
    steps = doc
    for key in steps_path:
        steps = steps[key]
    return next(k for k, s in enumerate(steps) if s[0] in ops)


def _replace_op(op_from: tuple, new_op: str, steps_path=("program", "steps")):
    """The first step whose op is in op_from gets op new_op, its operands kept."""
    def mutate(doc):
        steps = doc
        for key in steps_path:
            steps = steps[key]
        k = _step_of(doc, op_from, steps_path)
        steps[k] = [new_op, *steps[k][1:]]
    return mutate


def _expand_axis(doc):
    k = _step_of(doc, ("expand",))
    doc["program"]["steps"][k][2] = ["m", "k"]


def _hinted_part(doc) -> dict:
    """The first part with an entry that a hint witnesses (the checker reads a hint only
    where an entry names it)."""
    return next(p for p in doc["parts"] if any("hint" in e for e in p["witnessed"]))


def _hint_op(doc):
    _hinted_part(doc)["hints"][0]["steps"][2] = ["cosh", 0]


def _hint_key(doc):
    _hinted_part(doc)["hints"][0]["note"] = "trust me"


def _unused_hint(change):
    """A hint no witnessed entry names, appended to the first part: read all the same."""
    def mutate(doc):
        part = doc["parts"][0]
        hint = json.loads(json.dumps(next(h for h in part["hints"] if h is not None)))
        change(hint)
        part["hints"].append(hint)
    return mutate


def _witness_and_hint(doc):
    entry = doc["parts"][0]["witnessed"][0]
    entry.setdefault("hint", 0)
    entry.setdefault("witness", {"gamma": "1", "beta": "0"})


SQUARES = ("proof", "squares")
MUTANTS = {
    # every-d
    "every-d-unknown-key": ("every-d", _at(("program", "note"), "trust me")),
    "every-d-proof-key": ("every-d", _at(("proof", "cases"), [])),
    "every-d-matmul": ("every-d", _replace_op(("dot",), "matmul")),
    "every-d-unknown-op": ("every-d", _replace_op(("dot",), "einsum")),
    "every-d-no-d": ("every-d", _pop(("witness", "d"))),
    "every-d-no-method": ("every-d", _pop(("proof", "method"))),
    "every-d-d-17": ("every-d", _at(("witness", "d"), 17)),
    "every-d-m-0": ("every-d", _at(("witness", "m"), 0)),
    "every-d-fixed": ("every-d", _at(("fixed",), {"d": 2})),
    "every-d-feature-positive": ("every-d", _at(("program", "inputs", 1), ["w", "feature", "positive"])),
    "every-d-input-kind": ("every-d", _at(("program", "inputs", 1), ["w", "column", "real"])),
    "every-d-eye-k": ("every-d", lambda doc: doc["program"]["steps"].append(["eye", "k"])),
    "every-d-sum-axis-3": ("every-d", lambda doc: doc["program"]["steps"].append(["sum", 0, 3])),
    "every-d-dot-short": ("every-d", lambda doc: doc["program"]["steps"].append(["dot", 0, 1, 0])),
    "every-d-expand-axis": ("every-d-squares", _expand_axis),
    "every-d-claim-equalities": ("every-d", _at(("claim", "equalities"), 1)),
    # every-d with squares
    "squares-unknown-key": ("every-d-squares", _at((*SQUARES, "note"), "trust me")),
    "squares-grad-step": ("every-d-squares", _at((*SQUARES, "steps", 0), ["grad", 0, 1])),
    "squares-no-terms": ("every-d-squares", _pop((*SQUARES, "terms"))),
    "squares-no-term": ("every-d-squares", _at((*SQUARES, "terms"), [])),
    "squares-term-of-three": ("every-d-squares", lambda doc: doc["proof"]["squares"]["terms"][0].append(0)),
    "squares-method": ("every-d-squares", _at(("proof", "method"), "sos")),
    # moments-n
    "moments-unknown-key": ("moments-n", _at(("program", "note"), "trust me")),
    "moments-op": ("moments-n", _replace_op(("expect",), "variance")),
    "moments-no-laws": ("moments-n", _pop(("program", "laws"))),
    "moments-two-laws": ("moments-n", _at(("program", "laws"), ["X", "Y"])),
    "moments-inequality": ("moments-n", _at(("claim", "kind"), "inequality")),
    "moments-program-kind": ("moments-n", _at(("program", "kind"), "inequality")),
    "moments-pow-25": ("moments-n", lambda doc: doc["program"]["steps"].append(["pow", 0, 25])),
    "moments-batch-17": ("moments-n", lambda doc: doc["program"]["steps"].append(["batch", "X", 17])),
    "moments-proof-key": ("moments-n", _at(("proof", "steps"), [])),
    "moments-witness-d": ("moments-n", _at(("witness", "d"), 1)),
    # substitution by multipliers
    "multipliers-unknown-key": ("multipliers", _at(("proof", "note"), "trust me")),
    "multipliers-both-forms": ("multipliers", _at(("proof", "substitutions"), [{"equality": 0, "input": "y"}])),
    "multipliers-op": ("multipliers", _at(("proof", "steps", 0), ["cosh", 0])),
    "multipliers-missing": ("multipliers", _pop(("proof", "multipliers"))),
    "multipliers-no-steps": ("multipliers", _pop(("proof", "steps"))),
    "multipliers-empty": ("multipliers", _at(("proof", "multipliers"), [])),
    "multipliers-negative-index": ("multipliers", _at(("proof", "multipliers", 0), -1)),
    # an existential claim proved through its hint
    "exists-unknown-key": ("exists-hint", _at(("claim", "exists", "note"), "trust me")),
    "exists-sign": ("exists-hint", _at(("claim", "exists", "defined", 0, 1), "positive")),
    "exists-no-defined": ("exists-hint", _pop(("claim", "exists", "defined"))),
    "exists-no-hint": ("exists-hint", _pop(("claim", "exists", "hint"))),
    "exists-no-variable": ("exists-hint", _at(("claim", "exists", "variables"), [])),
    "exists-hint-64": ("exists-hint", _at(("claim", "exists", "hint"), 64)),
    "exists-obligation-of-three": ("exists-hint", lambda doc: doc["claim"]["exists"]["defined"][0].append(0)),
    "exists-variable-shape": ("exists-hint", _at(("claim", "exists", "variables", 0, "shape"), ["m", 0])),
    # witness certificates
    "witnesses-unknown-key": ("witnesses", _at(("parts", 0, "note"), "trust me")),
    "witnesses-op": ("witnesses", _at(("parts", 0, "program", "steps", 1), ["cosh", 0])),
    "witnesses-unused-hint-op": ("witnesses", _unused_hint(lambda h: h["steps"].__setitem__(0, ["cosh", 0]))),
    "witnesses-unused-hint-key": ("witnesses", _unused_hint(lambda h: h.__setitem__("note", "trust me"))),
    "witnesses-hint-op": ("witnesses", _hint_op),
    "witnesses-no-witnessed": ("witnesses", _pop(("parts", 0, "witnessed"))),
    "witnesses-none-witnessed": ("witnesses", _at(("parts", 0, "witnessed"), [])),
    "witnesses-no-parts": ("witnesses", _at(("parts",), [])),
    "witnesses-entry-without-witness": ("witnesses", _pop(("parts", 0, "witnessed", 0, "witness"))),
    "witnesses-witness-and-hint": ("witnesses", _witness_and_hint),
    "witnesses-verdict": ("witnesses", _at(("verdict",), "holds")),
    "witnesses-positive-unknown": ("witnesses", _at(("claim", "exists", 0, "domain"), "positive")),
    "witnesses-hint-key": ("witnesses", _hint_key),
    "witnesses-decimal": ("witnesses", _at(("parts", 0, "witnessed", 0, "witness", "gamma"), "1.0")),
}


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_a_mutant_fails_the_schema_and_the_checker(certificates, invalid, name):
    base, mutate = MUTANTS[name]
    assert invalid[base] == [], f"{base}: the unmutated certificate is not valid"
    doc = copy.deepcopy(certificates[base])
    mutate(doc)
    assert doc != certificates[base]
    assert next(VALIDATOR.iter_errors(doc), None) is not None, f"{name}: the schema accepted it"
    with pytest.raises(Rejected):
        check_document(seal(doc))
