"""A user's instance of any claim, read exactly: one JSON key per declared
variable, each a number or nested lists of the variable's shape.  Numbers go
through instance.parse_number (ASCII digits, "p/q", decimals with a bounded
exponent), so nothing is parsed into a binary float and nothing is evaluated."""

from __future__ import annotations

import numbers
from fractions import Fraction

from ..claims.sizes import size_outside
from ..errors import BadInput
from ..instance import parse_number


def _describe(claim, v) -> str:
    if not v.shape:
        return f"{v.name} (a number)"
    return f"{v.name} ({' × '.join(str(s) for s in v.shape)})"


def claim_instance(claim, data) -> dict:
    """{variable: Fraction or nested lists of Fractions}; a one-line BadInput
    naming the variable for a missing or extra key, a wrong shape, or sizes that
    disagree between variables."""
    wanted = ", ".join(_describe(claim, v) for v in claim.variables)
    if not isinstance(data, dict):
        raise BadInput(f"the instance of {claim.id} must be a JSON object with one key per variable: {wanted}")
    names = [v.name for v in claim.variables]
    extra = [k for k in data if k not in names]
    if extra:
        raise BadInput(f"{str(extra[0])[:40]!r} is not a variable of {claim.id} (its variables: {wanted})")
    missing = [v for v in claim.variables if v.name not in data]
    if missing:
        raise BadInput(f"missing variable {_describe(claim, missing[0])} of {claim.id}")
    sizes, out = {}, {}
    for v in claim.variables:
        value, shape = _array(data[v.name], len(v.shape), v.name)
        for axis, (size, n) in enumerate(zip(v.shape, shape)):
            if isinstance(size, numbers.Integral):
                if n != size:
                    raise BadInput(f"{v.name} should have {size} entries along axis {axis}, got {n}")
            elif sizes.setdefault(size, (n, v.name))[0] != n:
                first, where = sizes[size]
                raise BadInput(f"{v.name} gives size {size} = {n}, but {where} gives {size} = {first}")
        out[v.name] = value
    for size, (n, where) in sizes.items():
        problem = size_outside(claim, size, n)
        if problem:
            raise BadInput(f"{where} gives {problem}")
    return out


def _array(value, dims: int, where: str) -> tuple[object, tuple[int, ...]]:
    """(exact value, shape) of a number (dims = 0) or a rectangular nest of lists."""
    if dims == 0:
        if isinstance(value, list):
            raise BadInput(f"{where}: expected a number, got a list")
        return parse_number(value, where), ()
    if not isinstance(value, list):
        raise BadInput(f"{where}: expected {dims}-dimensional nested lists, got a number")
    entries, shapes = [], set()
    for i, item in enumerate(value):
        entry, shape = _array(item, dims - 1, f"{where}[{i}]")
        entries.append(entry)
        shapes.add(shape)
    if len(shapes) > 1:
        raise BadInput(f"{where} is ragged: its entries have different shapes")
    if not entries and dims > 1:
        raise BadInput(f"{where}: an empty list cannot have {dims} dimensions")
    inner = shapes.pop() if shapes else ()
    return entries, (len(entries), *inner)


def to_strings(value):
    """An exact instance value as JSON strings ("p/q")."""
    if isinstance(value, list):
        return [to_strings(v) for v in value]
    return str(Fraction(value))
