"""The claim-language reference (docs/claims.md, "## Reference") is complete:
every public name of the `xp` namespace, every field of Claim, Var and Law, and
every public function or class of bnproof.claims.blocks and bnproof.claims.sets
has its row, so that an addition cannot go undocumented.  A name counts as
documented only as a table row of its own subsection that starts with it
(`` | `name` `` or `` | `name(…)` ``, or in a row listing several names)."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import re
from pathlib import Path

import pytest

from bnproof.claims.api import Claim, Var
from bnproof.claims.xp import trace
from bnproof.program.trace import Program

DOCS = Path(__file__).resolve().parents[1] / "docs" / "claims.md"


def section(text: str, heading: str, level: int = 2) -> str:
    """The body under `heading` (a line '## heading'), up to the next heading of that level or above."""
    marks = "#" * level
    match = re.search(rf"^{marks} {re.escape(heading)}\s*$(.*?)(?=^#{{1,{level}}} |\Z)", text, re.M | re.S)
    assert match, f"docs/claims.md has no '{marks} {heading}' section"
    return match.group(1)


def reference(subsection: str) -> str:
    return section(section(DOCS.read_text(encoding="utf-8"), "Reference"), subsection, level=3)


def documented(names: set, body: str, signature: bool = False) -> set:
    """The names in `names` that a table row's first cell in `body` gives
    (with `signature`, only as `name(…)`: functions are documented with theirs)."""
    found = set()
    pattern = r"`([A-Za-z_][A-Za-z0-9_]*)\(" if signature else r"`([A-Za-z_][A-Za-z0-9_]*)(?:\(|`)"
    for line in body.splitlines():
        if line.startswith("| "):
            found |= set(re.findall(pattern, line.split(" | ")[0]))
    return names & found


def missing(names: set, body: str, signature: bool = False) -> list:
    return sorted(names - documented(names, body, signature))


def xp_names() -> set:
    ns = trace(Program())
    names = {n for n in vars(ns) if not n.startswith("_")}
    if hasattr(ns, "pi"):  # made on first use, so not among the namespace's stored names
        names.add("pi")
    return names


def module_names(module) -> set:
    return {name for name, value in vars(module).items()
            if not name.startswith("_") and (inspect.isfunction(value) or inspect.isclass(value))
            and value.__module__ == module.__name__}


def test_every_xp_name_is_in_the_reference():
    assert missing(xp_names(), reference("The `xp` namespace")) == []


def test_the_trace_namespace_has_the_names_every_claim_relies_on():
    # guards the test itself: an empty set of names would document nothing
    assert {"sum", "sqrt", "solve", "grad", "q", "max", "maximum", "leaky_relu"} <= xp_names()


@pytest.mark.parametrize("cls", [Claim, Var])
def test_every_field_of_claim_and_var_is_in_the_reference(cls):
    fields = {f.name for f in dataclasses.fields(cls)}
    assert {"id", "name"} & fields
    assert missing(fields, reference("`Claim`, `Var`, `Law`")) == []


def test_every_field_of_law_is_in_the_reference():
    claims = importlib.import_module("bnproof.claims")
    if not hasattr(claims, "Law"):
        pytest.skip("no Law in bnproof.claims")
    fields = {f.name for f in dataclasses.fields(claims.Law)}
    assert missing(fields, reference("`Claim`, `Var`, `Law`")) == []


@pytest.mark.parametrize("module", ["bnproof.claims.blocks", "bnproof.claims.sets"])
def test_every_public_function_of_the_building_blocks_is_in_the_reference(module):
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError:
        if module == "bnproof.claims.blocks":
            raise
        pytest.skip(f"no {module}")
    names = module_names(mod)
    assert names, f"{module} has no public functions: the test would check nothing"
    assert missing(names, reference(f"`{module}`"), signature=True) == []


def test_a_row_that_only_mentions_a_name_does_not_document_it():
    body = "| `sum(x)` | see `sqrt(x)` |\nText about `grad(f, x)`.\n| `a`, `b(x)` | two |\n"
    assert documented({"sum", "sqrt", "grad", "a", "b"}, body) == {"sum", "a", "b"}


def test_a_missing_name_is_reported():
    assert missing({"sum", "brand_new"}, "| `sum(x, axis=None)` | Σ |\n") == ["brand_new"]
    assert missing({"stats"}, "| `stats` | μ, σ |\n", signature=True) == ["stats"]  # no signature


def test_every_documented_xp_name_exists():
    # the other way round: the reference names nothing that is gone
    body = reference("The `xp` namespace")
    listed = set()
    for line in body.splitlines():
        if line.startswith("| `"):
            listed |= set(re.findall(r"`([A-Za-z_][A-Za-z0-9_]*)(?:\(|`)", line.split(" | ")[0]))
    assert sorted(listed - xp_names()) == []
