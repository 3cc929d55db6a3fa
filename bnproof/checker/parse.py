"""Reading a certificate: bytes, JSON, exact key sets, digest, exact rationals.

Nothing here trusts the document.  Every value is type-checked before it is
used, every size is capped before any work depends on it, and every failure
is a Rejected whose message names the offending value."""

import hashlib
import json
import os
import re
from fractions import Fraction

MAX_BYTES = 50 * 1024 * 1024
MAX_DIGITS, MAX_DEPTH, MAX_M, MAX_D = 2000, 16, 100_000, 1000
# [0-9], not \d: \d also matches non-ASCII digits such as "٣".
_RATIONAL = re.compile(r"0|-?[1-9][0-9]*(?:/[1-9][0-9]*)?")
_DIGEST = re.compile(r"sha256:[0-9a-f]{64}")


class Rejected(Exception):
    """The certificate failed a check; the message is the reason."""


def show(text: str) -> str:
    """A string for a one-line, ASCII reason, however long or odd it is."""
    text = ascii(text[:60])
    return text if len(text) <= 80 else text[:77] + "..."


def kind_of(value) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean",
             int: "a number", float: "a number", type(None): "null"}
    return names.get(type(value), type(value).__name__)


def _unique_keys(pairs):
    # json.loads keeps the last of duplicate keys: a reader could see another value.
    obj = {}
    for key, value in pairs:
        if key in obj:
            raise Rejected(f"duplicate key {show(key)}")
        obj[key] = value
    return obj


def _no_constant(name):
    raise Rejected(f"JSON constant {name} is not allowed")


def read(path) -> object:
    try:
        with open(path, "rb") as fh:  # the size is checked before a byte is read
            if os.fstat(fh.fileno()).st_size > MAX_BYTES:
                raise Rejected("file larger than 50 MB")
            data = fh.read(MAX_BYTES + 1)
    except OSError as exc:
        raise Rejected(f"cannot read file: {exc.strerror or type(exc).__name__}") from None
    if len(data) > MAX_BYTES:  # a file that grew, or a device
        raise Rejected("file larger than 50 MB")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Rejected(f"not UTF-8 (invalid byte at offset {exc.start})") from None
    try:
        return json.loads(text, object_pairs_hook=_unique_keys, parse_constant=_no_constant)
    except RecursionError:
        raise Rejected("JSON nested too deeply") from None
    except ValueError as exc:
        raise Rejected(f"not valid JSON: {show(str(exc))}") from None


def keys(value, path: str, expected: set) -> dict:
    """value, if it is an object with exactly these keys."""
    if type(value) is not dict:
        raise Rejected(f"{path}: expected an object, got {kind_of(value)}")
    missing, extra = sorted(expected - value.keys()), sorted(value.keys() - expected)
    if missing:
        raise Rejected(f"{path}: missing key {show(missing[0])}")
    if extra:
        raise Rejected(f"{path}: unexpected key {show(extra[0])}")
    return value


def array(value, path: str, most: int, exactly: int | None = None) -> list:
    if type(value) is not list:
        raise Rejected(f"{path}: expected a list, got {kind_of(value)}")
    if exactly is not None and len(value) != exactly:
        raise Rejected(f"{path}: expected {exactly} entries, got {len(value)}")
    if len(value) > most:
        raise Rejected(f"{path}: {len(value)} entries, more than the limit {most}")
    return value


def rational(value, path: str) -> Fraction:
    if type(value) is not str:
        raise Rejected(f"{path}: expected a rational string, got {kind_of(value)}")
    if len(value) > MAX_DIGITS:  # before int(): parsing a huge string is itself slow
        raise Rejected(f"{path}: number longer than {MAX_DIGITS} characters")
    if not _RATIONAL.fullmatch(value):
        raise Rejected(f"{path}: not a canonical rational: {show(value)}")
    num, _, den = value.partition("/")
    q = Fraction(int(num), int(den or 1))
    if den and (den == "1" or q.denominator != int(den)):
        raise Rejected(f"{path}: not in lowest terms with a denominator > 1: {show(value)}")
    return q


def vector(value, path: str, length: int) -> list[Fraction]:
    return [rational(x, f"{path}[{i}]") for i, x in enumerate(array(value, path, length, length))]


def tensor(value, path: str, depth: int = 0):
    """A rational, or nested lists of them (at most MAX_DEPTH deep), as Fractions."""
    if type(value) is not list:
        return rational(value, path)
    if depth == MAX_DEPTH:
        raise Rejected(f"{path}: lists nested deeper than {MAX_DEPTH} levels")
    return [tensor(x, f"{path}[{i}]", depth + 1) for i, x in enumerate(value)]


def sha256_of(value) -> str:
    """"sha256:<hex>" of the canonical JSON: sorted keys, no whitespace, ASCII only."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return "sha256:" + hashlib.sha256(text.encode("ascii")).hexdigest()


def check_envelope(doc: dict) -> None:
    """format, version, bnproof_version and the digest, shared by both kinds."""
    if doc["format"] != "bnproof-certificate":
        raise Rejected("format is not \"bnproof-certificate\"")
    if type(doc["version"]) is not int or doc["version"] != 1:
        raise Rejected("unsupported version (this checker knows version 1)")
    if type(doc["bnproof_version"]) is not str:
        raise Rejected("bnproof_version is not a string")
    stated = doc["digest"]
    if type(stated) is not str or not _DIGEST.fullmatch(stated):
        raise Rejected("digest is not \"sha256:\" followed by 64 lowercase hex digits")
    if sha256_of({k: v for k, v in doc.items() if k != "digest"}) != stated:
        raise Rejected("digest mismatch: the document differs from the one that was sealed")


def take(variables: dict, **shapes) -> list:
    """The values of exactly these variables (parsed by tensor), with these shapes:
    "" a number, "m" a vector of size m, "md" an m x d matrix; a letter is one size
    throughout, at most MAX_M for m and MAX_D for any other."""
    if set(variables) != set(shapes):
        raise Rejected(f"instance: the variables must be {', '.join(sorted(shapes))}")
    sizes = {}

    def fit(value, shape, path):
        if not shape and type(value) is list:
            raise Rejected(f"{path}: expected a number, got a list")
        if shape:
            most = MAX_M if shape[0] == "m" else MAX_D
            if type(value) is not list or not 0 < len(value) <= most:
                raise Rejected(f"{path}: expected a list of 1 to {most} entries ({shape[0]})")
            if sizes.setdefault(shape[0], len(value)) != len(value):
                raise Rejected(f"{path}: {len(value)} entries, but {shape[0]} = {sizes[shape[0]]}")
            for i, x in enumerate(value):
                fit(x, shape[1:], f"{path}[{i}]")
    for name, shape in shapes.items():
        fit(variables[name], shape, "instance." + name)
    return [variables[name] for name in shapes]
