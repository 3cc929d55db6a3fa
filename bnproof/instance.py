"""A one-layer BN instance, read exactly from JSON, and the built-in default.

Numbers are JSON integers, "p/q" strings or decimal literals (bare or quoted);
all are read exactly, so 0.1 means 1/10.  Nothing is evaluated: each number
must match a small grammar, and its size is bounded.

An instance holds Python ints where the value is an integer and Fractions
only where it is not: a batch of JSON integers (the common case, and the
large one) is taken as it was parsed, with one type check per matrix rather
than a call per entry, and the engine builds its integer matrices from it
directly (exact/batch.py).  An int and the equal Fraction print, compare and
hash alike, so nothing downstream can tell which one it holds.
"""

from __future__ import annotations

import gc
import json
import re
from itertools import chain
from dataclasses import dataclass
from functools import cached_property
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


Number = int | Fraction  # an int wherever the value is an integer


def _number(value, where: str) -> Number:
    if type(value) is int:  # not bool, which parse_number refuses
        return value
    x = parse_number(value, where)
    return x.numerator if x.denominator == 1 else x


def _all_ints(values, bool_free: bool = False) -> bool:
    """Every entry an int: one C-level pass over their types.  With
    ``bool_free`` (values parsed by read_json from a text without the words
    true and false) a sum decides it, four times faster: read_json yields
    only ints, Fractions (decimals), strings, None, lists and dicts, and
    adding any of the last four to an int raises TypeError while a Fraction
    makes the sum a Fraction."""
    if bool_free:
        try:
            return type(sum(values)) is int
        except TypeError:
            return False
    return set(map(type, values)) == {int}


def _vector(value, where: str) -> tuple[Number, ...]:
    return _checked_vector(value, where)[0]


def _checked_vector(value, where: str, bool_free: bool = False) -> tuple[tuple[Number, ...], bool]:
    """The numbers, and whether they were all JSON integers."""
    if not isinstance(value, list) or not value:
        raise BadInput(f"{where}: expected a non-empty list of numbers")
    if _all_ints(value, bool_free):
        return tuple(value), True
    return tuple(_number(v, f"{where}[{i}]") for i, v in enumerate(value)), False


def _matrix(value, where: str) -> list[tuple[Number, ...]]:
    return _checked_matrix(value, where)[0]


def _checked_matrix(value, where: str, bool_free: bool = False) -> tuple[list[tuple[Number, ...]], bool]:
    """The rows, and whether every entry was a JSON integer."""
    if not isinstance(value, list) or not value:
        raise BadInput(f"{where}: expected a non-empty list of rows")
    if set(map(type, value)) == {list} and len(set(map(len, value))) == 1 and value[0] \
            and _all_ints(chain.from_iterable(value), bool_free):
        return list(map(tuple, value)), True  # integers only, rows of one width: nothing to convert
    rows = []
    for i, row in enumerate(value):
        if not isinstance(row, list):
            raise BadInput(f"{where}[{i}]: expected a row (a list of numbers)")
        rows.append(_vector(row, f"{where}[{i}]"))
    width = len(rows[0])
    for i, row in enumerate(rows):
        if len(row) != width:
            raise BadInput(f"{where} is ragged: row 0 has {width} entries, row {i} has {len(row)}")
    return rows, False


@dataclass(frozen=True)
class Instance:
    """X (m×d), Y (m×n), W0 (n×d), per-neuron γ and β, and the loss reduction."""

    X: tuple[tuple[Number, ...], ...]
    Y: tuple[tuple[Number, ...], ...]
    W0: tuple[tuple[Number, ...], ...]
    gamma: tuple[Number, ...]
    beta: tuple[Number, ...]
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

    def targets(self, j: int) -> list[Number]:
        return [row[j] for row in self.Y]

    @cached_property
    def moments(self):
        """XᵀX, Xᵀ1, XᵀY, 1ᵀY and the ‖Y_j‖² over integers (exact/batch.py):
        formed once, shared by every neuron.  (Not a field: equality and
        hashing see the data only.)"""
        from .exact.batch import moments

        return moments(self.X, self.Y, vars(self).get("_integer", (False, False)))

    def __getstate__(self):
        # the moments are a cache of flint matrices, which do not pickle: a copy
        # (pickle, copy.deepcopy) recomputes them when it needs them
        state = dict(vars(self))
        state.pop("moments", None)
        return state

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


def _per_neuron(value, n: int, where: str, default: int) -> tuple[Number, ...]:
    if value is None:
        return (default,) * n
    if isinstance(value, list):
        values = _vector(value, where)
        if len(values) != n:
            raise BadInput(f"{where}: expected {n} values (one per neuron), got {len(values)}")
        return values
    return (_number(value, where),) * n


def instance_from_json(data, name: str = "user instance") -> Instance:
    return _instance(data, name, bool_free=False)


def _instance(data, name: str, bool_free: bool) -> Instance:
    if not isinstance(data, dict):
        raise BadInput("the instance must be a JSON object with keys X, y (or Y) and W0")
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise BadInput(f"unknown key {unknown[0]!r} (expected X, y or Y, W0, gamma, beta, loss)")
    if "X" not in data:
        raise BadInput("missing key 'X' (the m×d batch)")
    X, x_integer = _checked_matrix(data["X"], "X", bool_free)
    m, d = len(X), len(X[0])
    if m > MAX_SAMPLES or d > MAX_WIDTH:
        raise BadInput(f"X is {m}×{d}; at most {MAX_SAMPLES} samples and {MAX_WIDTH} inputs")
    if ("y" in data) == ("Y" in data):
        raise BadInput("give exactly one of 'y' (one neuron) or 'Y' (m×n, one column per neuron)")
    if "y" in data:
        y, y_integer = _checked_vector(data["y"], "y", bool_free)
        Y = list(zip(y))  # one 1-tuple a sample, made in C
    else:
        Y, y_integer = _checked_matrix(data["Y"], "Y", bool_free)
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
    instance = Instance(
        X=tuple(X),
        Y=tuple(Y),
        W0=tuple(W0),
        gamma=_per_neuron(data.get("gamma"), n, "gamma", 1),
        beta=_per_neuron(data.get("beta"), n, "beta", 0),
        loss=loss,
        name=name[:200],
    )
    # what was just checked of these immutable rows, so that moments need not check it again
    vars(instance)["_integer"] = (x_integer, y_integer)
    return instance


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
    # A large instance is a list per row and a tuple per row: no cycle among them, yet
    # the cyclic collector would rescan them all, again and again, as they are made
    # (a fifth of the reading time at m = 10⁵, d = 64).
    collecting = gc.isenabled()
    gc.disable()
    try:
        data, bool_free = _read_json(path)
        return _instance(data, path.name, bool_free)
    finally:
        if collecting:
            gc.enable()


def read_json(path: str | Path):
    """A JSON data file read exactly: decimals become Fractions (never binary floats),
    a duplicate key, NaN or Infinity is refused; every failure is a one-line BadInput."""
    return _read_json(Path(path))[0]


def _read_json(path: Path):
    """read_json's data, and whether the text is free of true and false (so the
    data holds no bool: see _all_ints)."""
    try:
        raw = path.read_bytes()
    except OSError as err:
        raise BadInput(f"cannot read {path}: {err.strerror or err}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BadInput(f"{path} is not UTF-8 text") from None
    del raw  # at m = 10⁵ the bytes are tens of MB, and the parse needs more
    bool_free = "true" not in text and "false" not in text
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
    return data, bool_free


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
