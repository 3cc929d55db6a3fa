"""Reading a certificate: bytes, JSON, exact key sets, digest, exact rationals, and
the limits, each stated here so that writers can apply them before any work.

Nothing here trusts the document.  Every value is type-checked before it is
used, every size is capped before any work depends on it, and every failure
is a Rejected whose message names the offending value."""

import hashlib
import json
import os
import re
import stat
from fractions import Fraction

VERSION = 2
MAX_BYTES = 50 * 1024 * 1024
MAX_DEPTH, MAX_M, MAX_D = 16, 100_000, 1000
# Instance numbers, and witness numbers of a Lemma 4.5 certificate; both below
# Python's 4300-digit limit on int(str), whose cost is quadratic in the length.
MAX_DIGITS, MAX_WITNESS_DIGITS = 2000, 4000
# Work units: one big-integer operation on b-bit operands costs op(b) = b^2 +
# OVERHEAD (about a picosecond each: 2000-bit products take ~4 us, small ones ~0.1 us).
OVERHEAD, MAX_LEMMA_WORK = 100_000, 3 * 10**13
# [0-9], not \d: \d also matches non-ASCII digits such as "٣".
_RATIONAL = re.compile(r"0|-?[1-9][0-9]*(?:/[1-9][0-9]*)?")
_INTEGERS = re.compile(r"(?:0|-?[1-9][0-9]*)(?:,(?:0|-?[1-9][0-9]*))*")  # comma-joined integers
_DIGEST = re.compile(r"sha256:[0-9a-f]{64}")
ID = re.compile(r"[!-~]{1,100}")  # printable ASCII without spaces: one clean output line


class Rejected(Exception):
    """The certificate failed a check; the message is the reason."""


def show(text: str) -> str:
    """A string for a one-line, ASCII reason, however long or odd it is."""
    text = ascii(text[:60])
    return text if len(text) <= 80 else text[:77] + "..."


def claim_texts(claim: dict, kinds=()) -> None:
    """A claim's id (one clean output line), its source and statement, and, with kinds,
    its kind: the same for every kind of certificate."""
    if type(claim["id"]) is not str or not ID.fullmatch(claim["id"]):
        raise Rejected("claim.id: expected 1 to 100 printable ASCII characters without spaces")
    if type(claim["source"]) is not str or type(claim["statement"]) is not str:
        raise Rejected("claim: source and statement must be strings")
    if kinds and (type(claim["kind"]) is not str or claim["kind"] not in kinds):
        raise Rejected("claim.kind: must be \"inequality\", \"strict-inequality\" or \"identity\"")


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
    nonblock = os.O_NONBLOCK if hasattr(os, "O_NONBLOCK") else 0  # not on Windows
    try:  # O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then refuses it
        fd = os.open(path, os.O_RDONLY | nonblock)
    except OSError as exc:
        raise Rejected(f"cannot read file: {exc.strerror or type(exc).__name__}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise Rejected("cannot read file: not a regular file")
        if info.st_size > MAX_BYTES:  # the size is checked before a byte is read
            raise Rejected("file larger than 50 MB")
        with os.fdopen(fd, "rb", closefd=False) as fh:
            data = fh.read(MAX_BYTES + 1)
    except OSError as exc:
        raise Rejected(f"cannot read file: {exc.strerror or type(exc).__name__}") from None
    finally:
        os.close(fd)
    return parse(data)  # refuses a file that grew while it was read


def parse(data: bytes) -> object:
    """A certificate's bytes as read from its file, read exactly as a file is."""
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


def keys(value, path: str, expected: set, optional: set = frozenset()) -> dict:
    """value, if it is an object with exactly these keys, and any of the optional ones."""
    if type(value) is not dict:
        raise Rejected(f"{path}: expected an object, got {kind_of(value)}")
    expected = expected | (optional & value.keys())
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


def rational(value, path: str, digits: int = MAX_DIGITS) -> Fraction:
    if type(value) is not str:
        raise Rejected(f"{path}: expected a rational string, got {kind_of(value)}")
    if len(value) > digits:  # before int(): parsing a huge string is itself slow
        raise Rejected(f"{path}: number longer than {digits} characters")
    if not _RATIONAL.fullmatch(value):
        raise Rejected(f"{path}: not a canonical rational: {show(value)}")
    num, _, den = value.partition("/")
    if not den:
        return Fraction(int(num))  # an integer: no gcd to take
    q = Fraction(int(num), int(den))
    if den == "1" or q.denominator != int(den):
        raise Rejected(f"{path}: not in lowest terms with a denominator > 1: {show(value)}")
    return q


def vector(value, path: str, length: int, digits: int = MAX_DIGITS) -> list[Fraction]:
    return [rational(x, f"{path}[{i}]", digits)
            for i, x in enumerate(array(value, path, length, length))]


def numbers(value: list, memo: dict) -> list[Fraction] | None:
    """A list of instance numbers as Fractions, or None if some entry is not one (the
    caller then reads entry by entry, to name it).  Each distinct string is read once
    (memo: string -> Fraction, shared by the rows of one value; a Fraction is immutable);
    new integers all at once, by one match of the row joined with commas, which accepts
    exactly the strings rational() accepts as integers: the count of commas proves that
    no entry holds one, so each segment is one entry."""
    try:
        fresh = set(value).difference(memo)  # TypeError: an entry is a list or an object
        text = ",".join(fresh)  # TypeError: an entry is not a string
    except TypeError:
        return None
    if max(map(len, fresh), default=0) <= MAX_DIGITS and _INTEGERS.fullmatch(text) \
            and text.count(",") == len(fresh) - 1:
        memo.update(zip(fresh, map(Fraction, map(int, fresh))))
    else:  # fractions (or an empty row, or a bad entry): each by rational()
        try:
            for x in fresh:
                memo[x] = rational(x, "")
        except Rejected:
            return None
    return list(map(memo.__getitem__, value))


def tensor(value, path: str, depth: int = 0, memo: dict | None = None):
    """A rational, or nested lists of them (at most MAX_DEPTH deep), as Fractions."""
    if type(value) is not list:
        return rational(value, path)
    if depth == MAX_DEPTH:
        raise Rejected(f"{path}: lists nested deeper than {MAX_DEPTH} levels")
    memo = {} if memo is None else memo
    row = numbers(value, memo)  # a list of rationals (a row of X): no path string per entry
    if row is not None:
        return row
    # a nested list, or a bad entry: entry by entry, so that a message names it
    return [tensor(x, f"{path}[{i}]", depth + 1, memo) for i, x in enumerate(value)]


def sha256_of(value) -> str:
    """"sha256:<hex>" of the canonical JSON: sorted keys, no whitespace, ASCII only."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return "sha256:" + hashlib.sha256(text.encode("ascii")).hexdigest()


def check_envelope(doc: dict) -> None:
    """format, version, bnproof_version and the digest, shared by both kinds."""
    if doc["format"] != "bnproof-certificate":
        raise Rejected("format is not \"bnproof-certificate\"")
    if type(doc["version"]) is not int or doc["version"] != VERSION:
        raise Rejected(f"unsupported version (this checker knows version {VERSION})")
    if type(doc["bnproof_version"]) is not str:
        raise Rejected("bnproof_version is not a string")
    stated = doc["digest"]
    if type(stated) is not str or not _DIGEST.fullmatch(stated):
        raise Rejected("digest is not \"sha256:\" followed by 64 lowercase hex digits")
    if sha256_of({k: v for k, v in doc.items() if k != "digest"}) != stated:
        raise Rejected("digest mismatch: the document differs from the one that was sealed")


# --- the a-priori work of exact linear algebra -------------------------------------

def flat(value) -> list:
    """The numbers of a nested list, in order."""
    if type(value) is not list:
        return [value]
    if list not in map(type, value):  # a row of numbers, copied at C speed (X: 10^5 of them)
        return value[:]
    out = []
    for v in value:
        out.extend(flat(v))
    return out


def instance_bits(numbers) -> int:
    """A bound on the bit length of every number times the lcm L of all denominators
    (L·x is an integer): the longest numerator plus every distinct denominator's bits."""
    numbers = list(numbers)
    dens = {x.denominator for x in numbers}
    return max((abs(x.numerator).bit_length() for x in numbers), default=0) + \
        sum(q.bit_length() for q in dens if q > 1)


def op(bits: int) -> int:
    """The work units of one big-integer operation on operands of at most `bits` bits."""
    return bits * bits + OVERHEAD


def elimination_work(d: int, column_bits: int) -> int:
    """Fraction-free elimination of a d x d integer Gram matrix whose k x k minors have at
    most k * column_bits bits (Hadamard: at most the product of k squared column norms):
    with the k-th pivot row, of k x k minors, (d - k)(d - k + 1) entries each take two
    products and one exact division, as algebra.echelon charges them."""
    return sum(3 * (d - k) * (d - k + 1) * op(k * column_bits) for k in range(1, d + 1))


def witness_bits(m: int, d: int, bits: int) -> int:
    """The longest Lemma 4.5 witness number a writer needs (in bits, numerator and
    denominator together): W*, the direction as primitive integers and the projection of
    W0 are ratios of minors of the Gram matrices (Cramer), at most twice d times a
    column's bits, plus W0's own."""
    return 2 * d * (2 * bits + 2 * m.bit_length() + 2) + 2 * bits + 64


def lemma_work(m: int, d: int, bits: int, n: int = 1, witness: int | None = None,
               kernel: int | None = None, kernel_bits: int = 0) -> int:
    """The work the checker charges, before it starts, for a Lemma 4.5 certificate with an
    m x d batch, n neurons, instance numbers of at most `bits` bits (instance_bits), neuron
    witnesses of at most `witness` bits (default witness_bits, the most a writer needs),
    and `kernel` kernel vectors of at most `kernel_bits` bits (default: the costlier of
    none and one vector of (d - 1) minors' bits: rank X <= rank Xc + 1, so with X^T X
    nonsingular, as the Lemma needs, ker Xc has dimension at most 1).  It is refused
    when this exceeds MAX_LEMMA_WORK."""
    g1 = 2 * bits + m.bit_length()              # per column, minors of Xi^T Xi (Xi = L X)
    g2 = 2 * bits + 2 * m.bit_length() + 2      # per column, minors of m L^2 Xc^T Xc
    w = witness_bits(m, d, bits) if witness is None else witness
    fixed = 2 * m * d * d * op(bits) + elimination_work(d, g1) + elimination_work(d, g2)

    def rest(k: int, kb: int) -> int:
        kernel_check = k * d * d * op(g2 + kb) + k * k * d * OVERHEAD
        neuron = m * d * op(2 * bits) + 2 * d * d * op(g2 + w) + 2 * k * d * op(w + kb)
        return kernel_check + n * neuron

    if kernel is None:
        return fixed + max(rest(0, 0), rest(1, (d - 1) * g2 + 64))
    return fixed + rest(kernel, kernel_bits)


def lemma_refusal(X, Y, W0, *more) -> str | None:
    """Why the checker would refuse a Lemma 4.5 certificate for this instance (rational
    X, Y, W0 and any further vectors such as gamma and beta), or None: what a writer can
    check before any work.  Honest witnesses then fit the checker's limits."""
    m, d, n = len(X), len(X[0]), len(W0)
    if m > MAX_M or d > MAX_D or n > MAX_D:
        return f"m = {m}, d = {d}, n = {n}: the checker takes m <= {MAX_M}, d and n <= {MAX_D}"
    numbers = flat([X, Y, W0])
    if any(len(str(x)) > MAX_DIGITS for x in numbers + flat(list(more))):
        return f"a number longer than {MAX_DIGITS} characters (the checker's limit)"
    bits = instance_bits(numbers)
    if witness_bits(m, d, bits) > 3 * MAX_WITNESS_DIGITS:  # 0.302 characters a bit, p/q
        return (f"its witnesses may need numbers of {witness_bits(m, d, bits)} bits, longer than the "
                f"checker's {MAX_WITNESS_DIGITS} characters")
    work = lemma_work(m, d, bits, n)
    if work > MAX_LEMMA_WORK:
        return (f"checking it would take {work:.2e} work units, more than the checker's limit "
                f"{MAX_LEMMA_WORK:.0e}")
    return None
