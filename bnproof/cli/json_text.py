"""`json.dumps(value, indent=2, ensure_ascii=False)`, byte for byte, in about half
the time.  With an indent, the standard library encodes in pure Python, a
generator per container and several calls per number; `verify --data --json` at
m = 1000, d = 64 prints 71,000 values (1.7 MB) that way.  Here a list of plain
values is joined in one step, each value written by the encoder's own functions
(the C string encoder, int.__repr__, float.__repr__).  Anything unusual (a
non-string key, a value json.dumps would refuse or hand to `default`, a cycle)
is left to json.dumps itself."""

from __future__ import annotations

import json
from json.encoder import encode_basestring

_STEP = "  "
_CONSTANTS = {None: "null", True: "true", False: "false"}


class _Unusual(Exception):
    pass


def dumps(value) -> str:
    """json.dumps(value, indent=2, ensure_ascii=False)."""
    parts: list[str] = []
    try:
        _encode(value, "\n", parts, 0)
    except (_Unusual, RecursionError):
        return json.dumps(value, indent=2, ensure_ascii=False)
    return "".join(parts)


def _plain(o) -> str:
    """A value that is no container, as json.dumps writes it; _Unusual for any other."""
    kind = type(o)
    if kind is str:
        return encode_basestring(o)
    if kind is int:
        return int.__repr__(o)
    if kind is float:
        if o != o or o in (float("inf"), float("-inf")):
            raise _Unusual  # NaN, Infinity: json.dumps's own spelling
        return float.__repr__(o)
    if o is None or o is True or o is False:
        return _CONSTANTS[o]
    raise _Unusual  # a subclass, or what json.dumps would give to `default`


def _encode(o, newline: str, parts: list[str], depth: int) -> None:
    kind = type(o)
    if depth > 100:
        raise _Unusual  # deep (or circular): json.dumps says what it says
    if kind is list or kind is tuple:
        if not o:
            parts.append("[]")
            return
        inner = newline + _STEP
        kinds = set(map(type, o))
        if kinds == {str}:  # a row of exact numbers as text, the bulk of a report
            parts.append("[" + inner + ("," + inner).join(map(encode_basestring, o)) + newline + "]")
            return
        if not kinds & {list, tuple, dict}:
            parts.append("[" + inner + ("," + inner).join(map(_plain, o)) + newline + "]")
            return
        parts.append("[")
        separator = inner
        for v in o:
            parts.append(separator)
            separator = "," + inner
            _encode(v, inner, parts, depth + 1)
        parts.append(newline + "]")
    elif kind is dict:
        if not o:
            parts.append("{}")
            return
        inner = newline + _STEP
        parts.append("{")
        separator = inner
        for k, v in o.items():
            if type(k) is not str:
                raise _Unusual  # json.dumps converts numbers and constants; rare here
            parts.append(separator + encode_basestring(k) + ": ")
            separator = "," + inner
            _encode(v, inner, parts, depth + 1)
        parts.append(newline + "}")
    else:
        parts.append(_plain(o))
