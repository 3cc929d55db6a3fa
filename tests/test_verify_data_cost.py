"""`verify --data D --json` at the price of an uncertified script (issue 24 §6): the
instance is written as text once (for the JSON report), not also for VerifyResult.of,
and the indented JSON comes from cli/json_text.py, byte for byte json.dumps's."""

import json
import math
from enum import IntEnum

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bnproof.cli import json_text


def standard(value) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)


scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True),
                    st.text(), st.sampled_from(["1/3", "-72/17", "é√", "\x00\x1f\"\\", "\u2028"]))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner), st.tuples(inner, inner), st.dictionaries(st.text(), inner),
    st.dictionaries(st.one_of(st.integers(), st.floats(), st.booleans(), st.none()), inner, max_size=3)),
    max_leaves=40)


@given(values)
def test_the_text_is_json_dumps_byte_for_byte(value):
    assert json_text.dumps(value) == standard(value)


class Level(IntEnum):
    LOW = 1


DEEP: list = []
for _ in range(150):
    DEEP = [DEEP]


@pytest.mark.parametrize("value", [
    [], {}, [[]], {"a": {}}, [1, "x", 2.5, None, True], ["1", "2"], [math.inf, -math.inf], [math.nan],
    {1: "int key", 2.5: "float key", None: 0, True: 1}, [Level.LOW], {"x": (1, 2)}, [[1, [2, [3]]]],
    DEEP,
])
def test_unusual_values_are_written_as_json_dumps_writes_them(value):
    assert json_text.dumps(value) == standard(value)


def test_a_value_json_cannot_write_is_refused_as_json_dumps_refuses_it():
    with pytest.raises(TypeError):
        json_text.dumps({"x": object()})
    cycle = []
    cycle.append(cycle)
    with pytest.raises(ValueError, match="Circular"):
        json_text.dumps(cycle)


def count_instance_text(monkeypatch) -> list:
    from bnproof.instance import Instance

    calls, real = [], Instance.to_json
    monkeypatch.setattr(Instance, "to_json", lambda self: calls.append(self) or real(self))
    return calls


def test_verify_json_writes_the_instance_as_text_once(tmp_path, monkeypatch, capsys):
    from bnproof import cli

    data = tmp_path / "d.json"
    data.write_text(json.dumps({"X": [[1, 2], [3, 5], [4, -1], [0, 2]], "y": [1, 2, 3, 5], "W0": [1, 1]}))
    calls = count_instance_text(monkeypatch)
    with pytest.raises(SystemExit):
        cli.main(["verify", "lemma-4.5", "--data", str(data), "--json", "--no-crosscheck",
                  "--out", str(tmp_path / "c.json")])
    out = capsys.readouterr().out
    assert out == standard(json.loads(out)) + "\n"  # the printed text is json.dumps's
    assert json.loads(out)["instance"]["X"] == [["1", "2"], ["3", "5"], ["4", "-1"], ["0", "2"]]
    assert len(calls) == 1  # for the report printed; VerifyResult.of needs no instance text


def test_the_api_result_does_not_write_the_instance_as_text(monkeypatch):
    import bnproof

    calls = count_instance_text(monkeypatch)
    result = bnproof.verify(crosscheck=False)
    assert result.verdict == "refuted" and result.crosscheck is None and calls == []
    assert result.to_json()["instance"]["y"] == ["2", "5", "13"] and len(calls) == 1
