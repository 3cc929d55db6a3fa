"""Instances read as ints (Fractions only where a value is not an integer), and
the engine's integer moments (exact/batch.py): the same numbers, verdicts and
certificates as the all-Fraction path, whatever the input's spelling, and the
fast checks never let a non-integer through."""

import gc
import json
import random
from fractions import Fraction
from pathlib import Path

import pytest

from bnproof.certificate import io
from bnproof.certificate import lemma45 as certificate
from bnproof.claims import lemma45
from bnproof.errors import BadInput
from bnproof.exact import batch
from bnproof.exact.linalg import to_fraction
from bnproof.instance import Instance, instance_from_json, load_instance

ROOT = Path(__file__).resolve().parents[1]


def as_fractions(inst: Instance) -> Instance:
    """The same instance with every entry a Fraction: the path before ints."""
    rows = lambda m: tuple(tuple(Fraction(x) for x in r) for r in m)  # noqa: E731
    return Instance(X=rows(inst.X), Y=rows(inst.Y), W0=rows(inst.W0),
                    gamma=tuple(map(Fraction, inst.gamma)), beta=tuple(map(Fraction, inst.beta)),
                    loss=inst.loss, name=inst.name)


def outcome(inst: Instance) -> dict:
    """Everything the engine decides, as exact strings."""
    report = lemma45.analyse(inst)
    out = {"verdict": report.verdict, "certificate": io.canonical_bytes(certificate.build(report))}
    for n in report.neurons:
        grad = n.grad_bn_at_w_star
        out[n.index] = (str(n.residual), str(n.standard.w), str(grad.a), str(grad.b), str(grad.r),
                        str(n.bn.direction), str(n.bn.kernel), [str(p) for p in n.bn.pivots],
                        [str(p) for p in n.standard.pivots], n.bn.second_order_ok)
    return out


def write(tmp_path, text: str) -> Path:
    path = tmp_path / "data.json"
    path.write_text(text, encoding="utf-8")
    return path


def test_json_integers_stay_ints_and_other_numbers_are_exact(tmp_path):
    path = write(tmp_path, '{"X": [[1, 0.1], [-2, "3/4"], [3, "2.0"], [7, 1e1]], '
                           '"y": [1, -3, "5", 0.25], "W0": [1, 2], "gamma": "3/2"}')
    inst = load_instance(path)
    assert inst.X == ((1, Fraction(1, 10)), (-2, Fraction(3, 4)), (3, 2), (7, 10))
    assert [type(x) for row in inst.X for x in row] == [int, Fraction, int, Fraction, int, int, int, int]
    assert inst.Y == ((1,), (-3,), (5,), (Fraction(1, 4),)) and type(inst.Y[2][0]) is int
    assert inst.gamma == (Fraction(3, 2),) and inst.beta == (0,) and type(inst.beta[0]) is int
    assert all(type(r) is tuple for r in inst.X + inst.Y + inst.W0)


@pytest.mark.parametrize("seed", range(8))
def test_every_spelling_gives_the_fraction_path_s_results(seed):
    """ints, decimals, 'p/q', negatives, huge ints and mixed denominators: the
    engine's integer moments give what Fraction entries give, certificate included."""
    rng = random.Random(seed)
    m, d = rng.randint(4, 12), rng.randint(1, 4)

    def number():
        kind = rng.randrange(6)
        if kind == 0:
            return rng.randint(-9, 9)
        if kind == 1:
            return f"{rng.randint(-99, 99)}/{rng.randint(1, 12)}"
        if kind == 2:
            return f"{rng.randint(-999, 999) / 100}"
        if kind == 3:
            return rng.choice([1, -1]) * rng.randint(10**25, 10**30)  # beyond int64 and doubles
        if kind == 4:
            return f"-{rng.randint(1, 9)}.{rng.randint(0, 9)}e-{rng.randint(1, 3)}"
        return rng.randint(-3, 3)

    data = {"X": [[number() for _ in range(d)] for _ in range(m)], "y": [number() for _ in range(m)],
            "W0": [rng.randint(-2, 3) for _ in range(d)], "gamma": rng.choice([1, "-1/2", "0.3"]),
            "beta": rng.choice([0, "2/3"]), "loss": rng.choice(["sum", "mean"])}
    inst = instance_from_json(data)
    try:
        expected = outcome(as_fractions(inst))
    except Exception as err:  # a degenerate draw: both paths must refuse it alike
        with pytest.raises(type(err), match=str(err)[:40].replace("(", r"\(").replace(")", r"\)")):
            outcome(inst)
        return
    assert outcome(inst) == expected


def test_moments_equal_sums_of_fraction_products():
    rng = random.Random(5)
    X = tuple(tuple(rng.choice([rng.randint(-9, 9), Fraction(rng.randint(-9, 9), rng.randint(1, 9))])
                    for _ in range(3)) for _ in range(7))
    Y = tuple((Fraction(rng.randint(-9, 9), rng.randint(1, 5)), rng.randint(-4, 4)) for _ in range(7))
    mom = batch.moments(X, Y)
    m = len(X)
    for i in range(3):
        assert to_fraction(mom.sums[i, 0]) == sum(r[i] for r in X)
        for k in range(3):
            assert to_fraction(mom.gram[i, k]) == sum(r[i] * r[k] for r in X)
            mean_i, mean_k = sum(r[i] for r in X) / m, sum(r[k] for r in X) / m
            assert to_fraction(mom.gram_c[i, k]) == sum((r[i] - mean_i) * (r[k] - mean_k) for r in X)
        for j in range(2):
            assert to_fraction(mom.x_targets(j)[i, 0]) == sum(r[i] * t[j] for r, t in zip(X, Y))
    for j in range(2):
        assert to_fraction(mom.target_sum(j)) == sum(t[j] for t in Y)
        assert to_fraction(mom.target_norm2(j)) == sum(t[j] * t[j] for t in Y)


def test_the_double_precision_route_is_exact_or_declines():
    rng = random.Random(2)
    rows = [tuple(rng.randint(-50, 50) for _ in range(5)) for _ in range(300)]
    ys = [(rng.randint(-50, 50),) for _ in range(300)]
    assert batch._gram_in_doubles(rows, ys) == batch._gram_in_flint(rows, ys)
    # the largest entry the bound allows at m = 300 (m·B² ≤ 2⁵³): still exact
    edge = int((2**53 // 300) ** 0.5)
    while edge * edge * 300 > 2**53:
        edge -= 1
    wide = [(edge, -edge, edge - 1)] * 299 + [(-edge, edge, 3)]
    one = [(edge,)] * 300
    assert batch._gram_in_doubles(wide, one) == batch._gram_in_flint(wide, one)
    # one past it, an entry beyond int64 and −2⁶³ itself: declined, never rounded
    assert batch._gram_in_doubles(wide[:-1] + [(edge + 1, 0, 0)], one) is None
    assert batch._gram_in_doubles(wide[:-1] + [(2**63, 0, 0)], one) is None
    assert batch._gram_in_doubles(wide[:-1] + [(-2**63, 0, 0)], one) is None


def test_a_large_batch_takes_the_double_route_and_agrees(monkeypatch):
    rng = random.Random(9)
    X = tuple(tuple(rng.randint(-5, 5) for _ in range(4)) for _ in range(50))
    Y = tuple((rng.randint(-5, 5),) for _ in range(50))
    taken = []
    real = batch._gram_in_doubles
    monkeypatch.setattr(batch, "_NUMPY_ENTRIES", 0)
    monkeypatch.setattr(batch, "_gram_in_doubles", lambda *a: taken.append(1) or real(*a))
    doubles = batch.moments(X, Y)
    monkeypatch.setattr(batch, "_gram_in_doubles", lambda *a: None)
    flint_only = batch.moments(X, Y)
    assert taken and doubles == flint_only
    # huge numbers: the double route declines and flint gives the exact sums
    big = tuple((x * 10**40 + 1,) + r[1:] for (x, *_), r in zip(X, X))
    monkeypatch.setattr(batch, "_gram_in_doubles", real)
    assert batch.moments(big, Y).xx[0, 0] == sum((r[0]) ** 2 for r in big)


@pytest.mark.parametrize("text, message", [
    ('{"X": [[1, true], [2, 3]], "y": [1, 2], "W0": [1, 1]}', "X[0][1]: expected a number, got true"),
    ('{"X": [[1, 2], [false, 3]], "y": [1, 2], "W0": [1, 1]}', "X[1][0]: expected a number, got false"),
    ('{"X": [[1, 2], [4, 3]], "y": [1, true], "W0": [1, 1]}', "y[1]: expected a number, got true"),
    ('{"X": [[1, 2], [4, null]], "y": [1, 2], "W0": [1, 1]}', "X[1][1]: expected a number, got null"),
    ('{"X": [[1, 2], [4, [3]]], "y": [1, 2], "W0": [1, 1]}', "X[1][1]: expected a number"),
    ('{"X": [[1, 2], [4, "x"]], "y": [1, 2], "W0": [1, 1]}', "X[1][1]: 'x' is not a number"),
    ('{"X": [[1, 2], [4]], "y": [1, 2], "W0": [1, 1]}', "X is ragged"),
])
def test_the_fast_integer_check_lets_nothing_else_through(tmp_path, text, message):
    with pytest.raises(BadInput, match=message.replace("[", r"\[").replace("]", r"\]")):
        load_instance(write(tmp_path, text))
    with pytest.raises(BadInput, match=message.replace("[", r"\[").replace("]", r"\]")):
        instance_from_json(json.loads(text))


def test_true_in_a_name_only_costs_the_slower_check(tmp_path):
    inst = load_instance(write(tmp_path, '{"name": "true or false", "X": [[1, 2], [3, 5], [4, 4]], '
                                         '"y": [1, 2, 3], "W0": [1, 1]}'))
    assert inst.X == ((1, 2), (3, 5), (4, 4)) and vars(inst)["_integer"] == (True, True)


def test_a_fraction_among_integers_is_kept_exact(tmp_path):
    # the sum check: one decimal among ints makes the sum a Fraction, so the row is parsed
    inst = load_instance(write(tmp_path, '{"X": [[1, 2], [3, 0.5], [4, 4]], "y": [1, 2, 3], "W0": [1, 1]}'))
    assert inst.X[1] == (3, Fraction(1, 2)) and vars(inst)["_integer"] == (False, True)


def test_ints_and_fractions_give_equal_instances():
    inst = instance_from_json({"X": [[1, 2], [3, 5], [4, 4]], "y": [1, 2, 3], "W0": [1, 1]})
    same = as_fractions(inst)
    assert inst == same and hash(inst) == hash(same) and inst.to_json() == same.to_json()


@pytest.mark.parametrize("collecting", [True, False])
def test_reading_leaves_the_collector_as_it_found_it(tmp_path, collecting):
    good = write(tmp_path, '{"X": [[1, 2], [3, 5]], "y": [1, 2], "W0": [1, 1]}')
    was = gc.isenabled()
    try:
        gc.enable() if collecting else gc.disable()
        load_instance(good)
        assert gc.isenabled() == collecting
        with pytest.raises(BadInput):
            load_instance(write(tmp_path, '{"X": [[1, true]], "y": [1], "W0": [1, 1]}'))
        assert gc.isenabled() == collecting
    finally:
        gc.enable() if was else gc.disable()


def test_the_committed_certificate_is_rebuilt_byte_for_byte():
    """certificates/lemma-4.5.json from its own instance, read as 'p/q' strings and as
    JSON integers: the same canonical bytes as the committed file."""
    doc = json.loads((ROOT / "certificates" / "lemma-4.5.json").read_text(encoding="utf-8"))
    data = {k: doc["instance"][k] for k in ("X", "Y", "W0", "gamma", "beta", "loss")}
    committed = io.canonical_bytes(doc)
    assert io.canonical_bytes(certificate.build(lemma45.analyse(instance_from_json(data)))) == committed
    as_ints = json.loads(json.dumps(data), parse_int=int,
                         object_hook=lambda o: {k: _ints(v) for k, v in o.items()})
    inst = instance_from_json(as_ints)
    assert io.canonical_bytes(certificate.build(lemma45.analyse(inst))) == committed


def _ints(value):
    if isinstance(value, list):
        return [_ints(v) for v in value]
    if isinstance(value, str) and value.lstrip("-").isdigit():
        return int(value)
    return value


def test_an_analysed_instance_still_pickles_and_copies():
    import copy
    import pickle

    inst = instance_from_json({"X": [[1, 1], [1, 2], [2, 3]], "y": [2, 5, 13], "W0": [1, 3]})
    before = outcome(inst)  # computes and caches the moments
    assert "moments" in vars(inst)
    for twin in (pickle.loads(pickle.dumps(inst)), copy.deepcopy(inst), copy.copy(inst)):
        assert twin is not inst and twin == inst and "moments" not in vars(twin)
        assert outcome(twin) == before
