"""Reading a certificate: bytes, JSON, exact key sets, digest, exact rationals.

Nothing here trusts the document.  Every value is type-checked before it is
used, every size is capped before any work depends on it, and every failure
is a Rejected whose message names the offending value."""

from __future__ import annotations

import hashlib
import json
import os
import re
from fractions import Fraction

MAX_BYTES = 50 * 1024 * 1024
MAX_M, MAX_D, MAX_N = 100_000, 1000, 1000
MAX_DIGITS = 2000
# [0-9], not \d: \d also matches non-ASCII digits such as "٣".
_RATIONAL = re.compile(r"0|-?[1-9][0-9]*(?:/[1-9][0-9]*)?")
_DIGEST = re.compile(r"sha256:[0-9a-f]{64}")

TOP = {"format", "version", "bnproof_version", "claim", "instance", "witnesses",
       "obligations", "verdict", "digest"}
CLAIM = {"id", "source", "statement"}
INSTANCE = {"X", "Y", "W0", "gamma", "beta", "loss"}
NEURON = {"W_star", "bn_optimum", "closest_bn_optimum", "grad_bn_at_W_star",
          "inner_W0_W_star", "lhs", "rhs", "residual", "verdict"}
GRAD = {"rational", "coefficients", "radicand"}
BN = {"ray": {"kind", "direction", "kernel"}, "constant": {"kind"}}
OBLIGATION = {"neuron", "fact"}


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
        with open(path, "rb") as fh:
            if os.fstat(fh.fileno()).st_size > MAX_BYTES:
                raise Rejected("file larger than 50 MB")
            data = fh.read(MAX_BYTES + 1)
    except OSError as exc:
        raise Rejected(f"cannot read file: {exc.strerror or type(exc).__name__}") from None
    if len(data) > MAX_BYTES:
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


def check_structure(doc) -> None:
    """Exact key sets at every level, before any value is interpreted."""
    keys(doc, "document", TOP)
    keys(doc["claim"], "claim", CLAIM)
    keys(doc["instance"], "instance", INSTANCE)
    neurons = keys(doc["witnesses"], "witnesses", {"neurons"})["neurons"]
    for j, neuron in enumerate(array(neurons, "witnesses.neurons", MAX_N)):
        path = f"witnesses.neurons[{j}]"
        keys(neuron, path, NEURON)
        keys(neuron["grad_bn_at_W_star"], path + ".grad_bn_at_W_star", GRAD)
        bn = neuron["bn_optimum"]
        kind = bn.get("kind") if type(bn) is dict else None
        if kind not in ("ray", "constant"):
            raise Rejected(f"{path}.bn_optimum: kind must be \"ray\" or \"constant\"")
        keys(bn, path + ".bn_optimum", BN[kind])
    for i, item in enumerate(array(doc["obligations"], "obligations", 7 * MAX_N)):
        keys(item, f"obligations[{i}]", OBLIGATION)


def sha256_of(value) -> str:
    """"sha256:<hex>" of the canonical JSON: sorted keys, no whitespace, ASCII only."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return "sha256:" + hashlib.sha256(text.encode("ascii")).hexdigest()


def check_envelope(doc: dict) -> None:
    """format, version, bnproof_version and the digest, shared by every kind."""
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


def rational(value, path: str) -> Fraction:
    if type(value) is not str:
        raise Rejected(f"{path}: expected a rational string, got {kind_of(value)}")
    if len(value) > MAX_DIGITS:
        raise Rejected(f"{path}: number longer than {MAX_DIGITS} characters")
    if not _RATIONAL.fullmatch(value):
        raise Rejected(f"{path}: not a canonical rational: {show(value)}")
    num, _, den = value.partition("/")
    q = Fraction(int(num), int(den or 1))
    if den and (den == "1" or q.denominator != int(den)):
        raise Rejected(f"{path}: not in lowest terms with a denominator > 1: {show(value)}")
    return q


def optional(value, path: str) -> Fraction | None:
    return None if value is None else rational(value, path)


def vector(value, path: str, length: int) -> list[Fraction]:
    return [rational(x, f"{path}[{i}]") for i, x in enumerate(array(value, path, length, length))]


def matrix(value, path: str, rows: int, cols: int) -> list[list[Fraction]]:
    return [vector(row, f"{path}[{i}]", cols) for i, row in enumerate(array(value, path, rows, rows))]


def instance(inst: dict):
    """(X, Y, W0, gamma, beta, loss) as Fractions, with m, d, n checked against the caps."""
    X = array(inst["X"], "instance.X", MAX_M)
    if len(X) < 2:
        raise Rejected("instance.X: at least 2 samples are needed (m >= 2)")
    d = len(array(X[0], "instance.X[0]", MAX_D))
    Y = array(inst["Y"], "instance.Y", MAX_M, len(X))
    n = len(array(Y[0], "instance.Y[0]", MAX_N))
    if d < 1 or n < 1:
        raise Rejected("instance: X and Y need at least one column (d >= 1, n >= 1)")
    if inst["loss"] not in ("sum", "mean"):
        raise Rejected("instance.loss: must be \"sum\" or \"mean\"")
    return (matrix(X, "instance.X", len(X), d), matrix(Y, "instance.Y", len(X), n),
            matrix(inst["W0"], "instance.W0", n, d), vector(inst["gamma"], "instance.gamma", n),
            vector(inst["beta"], "instance.beta", n), inst["loss"])
