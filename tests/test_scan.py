"""`bnproof scan` as a user meets it: datasets, options, JSON, seeds, bad input."""

import json
from fractions import Fraction

import jax
import numpy as np
import pytest

from bnproof.claims import lemma45
from bnproof.cli import main
from bnproof.errors import ExitCode
from bnproof.exact.linalg import to_fraction
from bnproof.instance import instance_from_json
from bnproof.numeric import network as net


def run(capsys, *args):
    with pytest.raises(SystemExit) as exit_:
        main(list(args))
    captured = capsys.readouterr()
    return exit_.value.code, captured.out, captured.err


def run_ok(capsys, *args, codes=(0, None)):
    try:
        main(list(args))
    except SystemExit as exit_:
        assert exit_.code in codes, capsys.readouterr().err
    return capsys.readouterr().out


# A few optimizer steps leave the optima unconverged: the scan is undecided (exit 10)
SHORT = (0, None, ExitCode.UNDECIDED)


def save(tmp_path, name="data.npz", **arrays):
    path = tmp_path / name
    np.savez(path, **arrays)
    return path


def test_one_layer_scan_matches_the_exact_lemma(tmp_path, capsys):
    """The one-layer BN network on user data: the residual printed is the exact engine's
    for the same instance (W0 drawn from the seed, read back exactly from its floats)."""
    # 6 samples of 3 inputs: the shape of one of test_network's instances, whose compiled
    # minimizers (one per shape, whatever the data and tolerance) this run then reuses
    X = np.array([[1, 1, 0], [1, 2, 1], [2, 3, 0], [0, 1, 2], [3, 1, 1], [1, 0, 3]], float)
    y = np.array([2, 5, 13, 1, 10, 4], float)
    path = save(tmp_path, X=X, y=y)
    out = run_ok(capsys, "scan", "--data", str(path), "--widths", "none", "--bn-output",
                 "--activation", "identity", "--loss", "squared", "--tol", "1e-9", "--seed", "7",
                 "--json")
    result = json.loads(out)
    (layer,) = result["layers"]
    assert layer["standard"]["converged"] and layer["bn"]["converged"]
    spec = net.Spec((3, 1), "identity", "squared", True)
    W0 = np.asarray(net.init(jax.random.key(7), spec)[0]["W"])[0]
    instance = instance_from_json({"X": X.astype(int).tolist(), "y": y.astype(int).tolist(),
                                   "W0": [str(Fraction(float(w))) for w in W0], "loss": "mean"})
    nr = lemma45.analyse(instance).neurons[0]
    assert layer["lhs"][0] == pytest.approx(float(to_fraction(nr.lhs)), rel=1e-7)
    if nr.inner > 0:
        assert layer["residual"][0] == pytest.approx(float(to_fraction(nr.residual)), rel=1e-6)
    else:
        assert layer["residual"][0] is None and layer["verdict"] == "hypothesis-not-met"


def test_digits_scan_json_same_seed_same_output(capsys):
    args = ("scan", "--dataset", "digits", "--widths", "4", "--samples", "60", "--max-steps", "30",
            "--seed", "1", "--json")
    first, second = run_ok(capsys, *args, codes=SHORT), run_ok(capsys, *args, codes=SHORT)
    assert first == second
    result = json.loads(first)
    assert "not a proof" in result["evidence"]
    assert result["dataset"] == {"name": "digits", "m": 60, "inputs": 64, "outputs": 10}
    assert result["network"]["sizes"] == [64, 4, 10]
    (layer,) = result["layers"]
    assert layer["shape"] == [4, 64] and layer["neurons"] == 4
    assert layer["kernel_dim"] > 0  # digits has pixels that are constant over the batch
    fits = layer["standard"], layer["bn"]
    for fit in fits:  # honest about convergence: converged iff the tolerance was met
        assert fit["converged"] == (fit["grad_norm"] <= result["tol"])
        assert fit["steps"] <= 30


def test_synthetic_two_bn_layers_learned_affine_float32_table(capsys):
    out = run_ok(capsys, "scan", "--dataset", "synthetic", "--features", "5", "--samples", "40",
                 "--widths", "4,3", "--activation", "leaky-relu", "--loss", "squared",
                 "--affine", "learned", "--dtype", "float32", "--max-steps", "20", codes=SHORT)
    assert "float32" in out and "64-" not in out
    assert "not a proof" in out
    rows = [line for line in out.splitlines() if line.startswith("│")]
    assert len(rows) == 2  # one row per BN layer


@pytest.mark.parametrize("arrays,fragment", [
    ({"X": np.array([[1.0, np.nan], [2, 3]]), "y": np.array([1.0, 2])}, "NaN or inf"),
    ({"X": np.ones((3, 2)), "y": np.ones(4)}, "expected (3,)"),
    ({"X": np.ones(3), "y": np.ones(3)}, "X must be 2-D"),
    ({"X": np.ones((3, 2))}, "missing array 'y'"),
    ({"X": np.ones((3, 2)), "y": np.ones(3), "Z": np.ones(1)}, "unknown array 'Z'"),
    ({"X": np.array([["a", "b"], ["c", "d"]]), "y": np.ones(2)}, "expected real numbers"),
    ({"X": np.array([[1, 2], [3, 4]], dtype=object), "y": np.ones(2)}, "without unpickling"),
])
def test_bad_npz_is_a_one_line_error(tmp_path, capsys, arrays, fragment):
    path = tmp_path / "bad.npz"
    np.savez(path, allow_pickle=True, **arrays) if any(a.dtype == object for a in arrays.values()) \
        else np.savez(path, **arrays)
    code, out, err = run(capsys, "scan", "--data", str(path))
    assert code == ExitCode.BAD_INPUT
    lines = err.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0] and "Traceback" not in err


@pytest.mark.parametrize("args,fragment", [
    (["--data", "missing.npz"], "cannot read"),
    (["--widths", "4,x"], "--widths expects"),
    (["--widths", "none"], "no BN layer"),
    (["--activation", "gelu"], "--activation must be one of"),
    (["--dataset", "synthetic", "--loss", "xent"], "cross-entropy needs class labels"),
])
def test_bad_options_are_one_line_errors(capsys, args, fragment):
    code, out, err = run(capsys, "scan", "--max-steps", "1", *args)
    assert code == ExitCode.BAD_INPUT
    lines = err.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0]


def test_not_an_npz_file(tmp_path, capsys):
    path = tmp_path / "data.npz"
    path.write_text("X,y\n1,2\n")
    code, _, err = run(capsys, "scan", "--data", str(path))
    assert code == ExitCode.BAD_INPUT and "not a .npz archive" in err
