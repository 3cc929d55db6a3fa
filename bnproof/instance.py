"""A one-layer BN instance, read exactly from JSON, and the built-in default.

Numbers are JSON integers, "p/q" strings or decimal literals (bare or quoted);
all are read exactly, so 0.1 means 1/10.  Nothing is evaluated: each number
must match a small grammar, and its size is bounded.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from .errors import BadInput

# [0-9], not \d: \d also matches non-ASCII digits such as "٣", which Fraction reads as 3
_RATIO = re.compile(r"[+-]?[0-9]+(?:/[0-9]+)?")
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE]([+-]?[0-9]+))?")
_MAX_CHARS = 400
_MAX_EXPONENT = 400
MAX_SAMPLES = 100_000
MAX_WIDTH = 1_000

_KEYS = {"X", "y", "Y", "W0", "gamma", "beta", "loss", "name"}


def parse_number(value, where: str) -> Fraction:
    """One exact rational from a JSON value; a one-line BadInput otherwise."""
    if isinstance(value, bool):
        raise BadInput(f"{where}: expected a number, got {json.dumps(value)}")
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, Fraction):
        return value
    if not isinstance(value, str):
        shown = json.dumps(value)[:40]
        raise BadInput(f"{where}: expected a number, got {shown}")
    text = value.strip()
    if len(text) > _MAX_CHARS:
        raise BadInput(f"{where}: number has more than {_MAX_CHARS} characters")
    if _RATIO.fullmatch(text):
        if "/" in text and int(text.split("/")[1]) == 0:
            raise BadInput(f"{where}: division by zero in {text!r}")
        return Fraction(text)
    match = _DECIMAL.fullmatch(text)
    if match:
        if match.group(1) and abs(int(match.group(1))) > _MAX_EXPONENT:
            raise BadInput(f"{where}: exponent in {text!r} is out of range (|e| ≤ {_MAX_EXPONENT})")
        return Fraction(text)
    if text.lower().lstrip("+-") in {"nan", "inf", "infinity"}:
        raise BadInput(f"{where}: {text!r} is not a finite number")
    raise BadInput(f"{where}: {text[:40]!r} is not a number (use an integer, 'p/q' or a decimal)")


def _vector(value, where: str) -> list[Fraction]:
    if not isinstance(value, list) or not value:
        raise BadInput(f"{where}: expected a non-empty list of numbers")
    return [parse_number(v, f"{where}[{i}]") for i, v in enumerate(value)]


def _matrix(value, where: str) -> list[list[Fraction]]:
    if not isinstance(value, list) or not value:
        raise BadInput(f"{where}: expected a non-empty list of rows")
    rows = []
    for i, row in enumerate(value):
        if not isinstance(row, list):
            raise BadInput(f"{where}[{i}]: expected a row (a list of numbers)")
        rows.append(_vector(row, f"{where}[{i}]"))
    width = len(rows[0])
    for i, row in enumerate(rows):
        if len(row) != width:
            raise BadInput(f"{where} is ragged: row 0 has {width} entries, row {i} has {len(row)}")
    return rows


@dataclass(frozen=True)
class Instance:
    """X (m×d), Y (m×n), W0 (n×d), per-neuron γ and β, and the loss reduction."""

    X: tuple[tuple[Fraction, ...], ...]
    Y: tuple[tuple[Fraction, ...], ...]
    W0: tuple[tuple[Fraction, ...], ...]
    gamma: tuple[Fraction, ...]
    beta: tuple[Fraction, ...]
    loss: str = "sum"
    name: str = "user instance"

    @property
    def m(self) -> int:
        return len(self.X)

    @property
    def d(self) -> int:
        return len(self.X[0])

    @property
    def n(self) -> int:
        return len(self.W0)

    def targets(self, j: int) -> list[Fraction]:
        return [row[j] for row in self.Y]

    def to_json(self) -> dict:
        """The instance as exact strings, the same format `--data` reads."""

        def s(x: Fraction) -> str:
            return str(x)

        data = {"X": [[s(x) for x in row] for row in self.X]}
        if self.n == 1:
            data["y"] = [s(row[0]) for row in self.Y]
            data["W0"] = [s(x) for x in self.W0[0]]
            data["gamma"], data["beta"] = s(self.gamma[0]), s(self.beta[0])
        else:
            data["Y"] = [[s(x) for x in row] for row in self.Y]
            data["W0"] = [[s(x) for x in row] for row in self.W0]
            data["gamma"] = [s(x) for x in self.gamma]
            data["beta"] = [s(x) for x in self.beta]
        data["loss"] = self.loss
        return data


def _per_neuron(value, n: int, where: str, default: int) -> tuple[Fraction, ...]:
    if value is None:
        return (Fraction(default),) * n
    if isinstance(value, list):
        values = _vector(value, where)
        if len(values) != n:
            raise BadInput(f"{where}: expected {n} values (one per neuron), got {len(values)}")
        return tuple(values)
    return (parse_number(value, where),) * n


def instance_from_json(data, name: str = "user instance") -> Instance:
    if not isinstance(data, dict):
        raise BadInput("the instance must be a JSON object with keys X, y (or Y) and W0")
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise BadInput(f"unknown key {unknown[0]!r} (expected X, y or Y, W0, gamma, beta, loss)")
    if "X" not in data:
        raise BadInput("missing key 'X' (the m×d batch)")
    X = _matrix(data["X"], "X")
    m, d = len(X), len(X[0])
    if m > MAX_SAMPLES or d > MAX_WIDTH:
        raise BadInput(f"X is {m}×{d}; at most {MAX_SAMPLES} samples and {MAX_WIDTH} inputs")
    if ("y" in data) == ("Y" in data):
        raise BadInput("give exactly one of 'y' (one neuron) or 'Y' (m×n, one column per neuron)")
    if "y" in data:
        Y = [[v] for v in _vector(data["y"], "y")]
    else:
        Y = _matrix(data["Y"], "Y")
    if len(Y) != m:
        raise BadInput(f"X has {m} rows but the targets have {len(Y)}")
    n = len(Y[0])
    if "W0" not in data:
        raise BadInput("missing key 'W0' (the initialization)")
    raw = data["W0"]
    if isinstance(raw, list) and raw and all(isinstance(r, list) for r in raw):
        W0 = _matrix(raw, "W0")
    else:
        W0 = [_vector(raw, "W0")]
    if len(W0) != n:
        raise BadInput(f"W0 has {len(W0)} rows but the targets have {n} columns (one per neuron)")
    if len(W0[0]) != d:
        raise BadInput(f"W0 has {len(W0[0])} entries per neuron but X has {d} columns")
    loss = data.get("loss", "sum")
    if loss not in ("sum", "mean"):
        raise BadInput(f"loss must be 'sum' or 'mean', got {json.dumps(loss)[:40]}")
    name = data.get("name", name)
    if not isinstance(name, str):
        raise BadInput("name must be a string")
    return Instance(
        X=tuple(tuple(r) for r in X),
        Y=tuple(tuple(r) for r in Y),
        W0=tuple(tuple(r) for r in W0),
        gamma=_per_neuron(data.get("gamma"), n, "gamma", 1),
        beta=_per_neuron(data.get("beta"), n, "beta", 0),
        loss=loss,
        name=name[:200],
    )


def _exact_float(token: str) -> Fraction:
    return parse_number(token, "a decimal literal")


def _unique_keys(pairs) -> dict:
    """json.loads keeps the last of two equal keys; a reader of the file may see the first."""
    out = {}
    for key, value in pairs:
        if key in out:
            raise BadInput(f"duplicate key {key[:40]!r} in the instance: give each key once")
        out[key] = value
    return out


def _reject_constant(token: str):
    raise BadInput(f"{token} is not a finite number")


def load_instance(path: str | Path) -> Instance:
    """Read an instance file; every failure is a one-line BadInput."""
    path = Path(path)
    return instance_from_json(read_json(path), name=path.name)


def read_json(path: str | Path):
    """A JSON data file read exactly: decimals become Fractions (never binary floats),
    a duplicate key, NaN or Infinity is refused; every failure is a one-line BadInput."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as err:
        raise BadInput(f"cannot read {path}: {err.strerror or err}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BadInput(f"{path} is not UTF-8 text") from None
    try:
        data = json.loads(text, parse_float=_exact_float, parse_constant=_reject_constant,
                          object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as err:
        raise BadInput(f"{path} is not valid JSON: {err.msg} at line {err.lineno}") from None
    except RecursionError:
        raise BadInput(f"{path} is nested too deeply") from None
    except BadInput as err:  # NaN, a duplicate key, a bad decimal: refused while reading, named with the file
        raise BadInput(f"{path}: {err}") from None
    except ValueError as err:  # e.g. an integer literal beyond Python's digit limit
        raise BadInput(f"{path}: {str(err).splitlines()[0]}") from None
    return data


def check_certifiable(instance: Instance) -> None:
    """Refuse, before any work, an instance whose Lemma 4.5 certificate the checker
    would refuse for its size: the writer applies the checker's own a-priori limits
    (bnproof/checker/parse.py), so data the engine accepts always gives a
    certificate the checker accepts."""
    from .checker.parse import lemma_refusal

    reason = lemma_refusal([list(r) for r in instance.X], [list(r) for r in instance.Y],
                           [list(r) for r in instance.W0], list(instance.gamma), list(instance.beta))
    if reason:
        raise BadInput(
            f"X is {instance.m}×{instance.d} with {instance.n} neuron(s): its certificate would "
            f"exceed the checker's limits ({reason}); use fewer samples or inputs, or smaller "
            "numbers (docs/certificates.md, Limits)")


def example_3_2() -> Instance:
    """Example 3.2 of Dannemann & Junike (2025): one neuron, three samples, W0 = W*."""
    return instance_from_json(
        {
            "X": [[1, 1], [1, 2], [2, 3]],
            "y": [2, 5, 13],
            "W0": [1, 3],
            "gamma": 1,
            "beta": 0,
        },
        name="Example 3.2 of Dannemann & Junike (2025)",
    )
