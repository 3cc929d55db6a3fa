"""`bnproof study` and its batched closed form, checked against the exact engine."""

import json
from fractions import Fraction

import numpy as np
import pytest

from bnproof.claims import lemma45
from bnproof.cli import main
from bnproof.errors import DegenerateInstance, ExitCode
from bnproof.exact.linalg import to_fraction
from bnproof.instance import instance_from_json
from bnproof.numeric import study
from bnproof.numeric.lemma45_batch import jax_kernel, numpy_residuals


def exact_residual(X, y, W0, gamma):
    try:
        report = lemma45.analyse(instance_from_json({"X": X, "y": y, "W0": W0, "gamma": gamma}))
    except DegenerateInstance:  # e.g. W* = 0, so σ(W*) = 0
        return None
    nr = report.neurons[0]
    if nr.rhs is None:  # W* = 0: the printed fraction is undefined
        return None
    return float(to_fraction(nr.residual)), float(to_fraction(nr.lhs)), float(to_fraction(nr.inner))


# (m, d, gamma): m = d + 1 and m = d give a kernel in Xc; γ < 0 flips the BN ray.
CASES = [(3, 2, 1), (5, 2, 1), (6, 3, -2), (3, 3, 1), (4, 4, 1), (7, 1, 1)]


@pytest.mark.parametrize("m,d,gamma", CASES)
@pytest.mark.parametrize("backend", ["numpy", "jax"])
def test_batched_closed_form_agrees_with_the_exact_engine(m, d, gamma, backend):
    rng = np.random.default_rng(100 * m + d)
    Xs = rng.integers(-5, 6, (4, m, d))
    ys = rng.integers(-5, 6, (4, m))
    W0s = rng.integers(-3, 4, (4, d))
    kernel = numpy_residuals if backend == "numpy" else jax_kernel()
    out = kernel(Xs.astype(float), ys.astype(float), W0s.astype(float), np.full(4, float(gamma)))
    for i in range(4):
        exact = exact_residual(Xs[i].tolist(), ys[i].tolist(), W0s[i].tolist(), gamma)
        if exact is None:
            assert not np.isfinite(out["residual"][i])
            continue
        res, lhs, inner = exact
        assert float(out["lhs"][i]) == pytest.approx(lhs, rel=1e-9, abs=1e-9)
        assert float(out["inner"][i]) == pytest.approx(inner, rel=1e-9, abs=1e-9)
        assert float(out["residual"][i]) == pytest.approx(res, rel=1e-9, abs=1e-8)


def test_example_3_2_in_the_batched_form():
    out = numpy_residuals(np.array([[[1, 1], [1, 2], [2, 3]]], float), np.array([[2, 5, 13]], float),
                          np.array([[1, 3]], float), np.ones(1))
    assert out["residual"][0] == pytest.approx(-72 / 17, rel=1e-12)


def test_wilson_interval_textbook_values():
    lo, hi = study.wilson(5, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.2366, 0.7634)
    lo, hi = study.wilson(0, 10)
    assert lo == 0.0 and round(hi, 4) == 0.2775
    assert study.wilson(0, 0) is None


def test_exact_confirmation_refutes_example_3_2_and_not_a_holding_instance():
    X = np.array([[1, 1], [1, 2], [2, 3]], float)
    assert study.confirm_exactly(X, np.array([2, 5, 13.0]), np.array([1, 3.0])) == "confirmed"
    # m = d: W* interpolates, so W* lies in the BN optimum set and the Lemma holds.
    X = np.array([[1, 0], [0.5, 2]])
    assert study.confirm_exactly(X, np.array([1.0, 3.0]), np.array([1.0, 1.0])) == "holds"


# One study, run once per test process through the API: the cells test reads it, and the
# command line's run of the same sizes (below) must print exactly these cells, so it reuses
# the compiled draws and kernels of its three shapes instead of compiling four more.
SIZES = {"ms": [3, 8], "ds": [2, 8], "trials": 300, "seed": 5, "confirm": 3}


@pytest.fixture(scope="module")
def cells():
    return study.run_study(**SIZES)


def test_cells_count_confirm_and_mark_degenerate_sizes(cells):
    by = {(c.m, c.d): c for c in cells}
    assert by[(3, 8)].degenerate and by[(3, 8)].hypothesis_met == 0
    c = by[(3, 2)]
    assert c.hypothesis_met == c.fails + c.holds + c.undecided
    assert 0 < c.fails and len(c.sampled) == 3 and c.exact == {"confirmed": 3}
    # m = d = 8: W* lies on the BN optimum set, so no instance fails.
    assert by[(8, 8)].fails == 0 and by[(8, 8)].hypothesis_met > 100


def test_study_cli_json_plot_and_same_seed_same_output(tmp_path, capsys, cells, monkeypatch):
    monkeypatch.chdir(tmp_path)  # each failure confirmed is written into ./bnproof-out
    args = ["study", "lemma-4.5", "--m", "3,8", "--d", "2,8", "--trials", "300", "--seed", "5",
            "--confirm", "3", "--json"]
    outputs = []
    for run in range(2):
        with pytest.raises(SystemExit) as exit_:
            main(args + ["-o", str(tmp_path / f"rate{run}.png")])
        assert exit_.value.code == ExitCode.REFUTED  # failures were confirmed exactly
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]
    result = json.loads(outputs[0])
    assert "not proof" in result["evidence"]
    assert [(c["m"], c["d"]) for c in result["cells"]] == [(3, 2), (3, 8), (8, 2), (8, 8)]
    assert result["cells"] == [c.to_json() for c in cells]  # the command prints the API's study
    assert result["exact_confirmed"] == sum(c["exact_confirmed"] for c in result["cells"]) > 0
    for c in result["cells"]:
        if c["degenerate"]:  # m = 3 < d = 8: no instance, so no rate and no interval
            assert c["rate"] is None and c["ci95"] is None and c["hypothesis_met"] == 0
            continue
        lo, hi = c["ci95"]
        assert lo <= c["rate"] <= hi
    assert (tmp_path / "rate0.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (tmp_path / "rate0.png").read_bytes() == (tmp_path / "rate1.png").read_bytes()


@pytest.mark.parametrize("args,fragment", [
    (["study", "theorem-4.1"], "knows lemma-4.5 only"),
    (["study", "lemma-9.9"], "unknown claim"),
    (["study", "lemma-4.5", "--m", "3,x"], "--m expects"),
    (["study", "lemma-4.5", "--m", "1"], "--m: each size"),
    (["study", "lemma-4.5", "--dtype", "float16"], "--dtype"),
    (["study", "lemma-4.5", "-o", "plot.gif"], "FILE.png"),
])
def test_study_bad_input_is_one_line(args, fragment, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(args)
    assert exit_.value.code == ExitCode.BAD_INPUT
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and fragment in err[0]


def test_rationalize_is_exact_below_the_bound():
    assert study.rationalize([0.5, -1.25, 1 / 3], 1000) == (Fraction(1, 2), Fraction(-5, 4), Fraction(1, 3))
