"""The tamper and hostile-input campaign against the checker (issue 4): mutants of a
certificate, and an oracle written with SymPy alone that says what each mutant's
verdict really is.  Used by tests/test_tamper.py and bench/tamper_campaign.py.

A mutant the checker accepts must still be a correct certificate: its claim really
has the stated verdict on its (possibly changed) instance, decided here with SymPy
from the instance, never from the certificate's witnesses or from the checker."""

from __future__ import annotations

import functools
import hashlib
import json
import random
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import sympy

from proof_oracle import proof_holds

INJECTIONS = ("__import__('os').system('touch pwned')", "eval('1')", "${IFS}", "`touch pwned`",
              "open('pwned','w')", "1; import os", "\u202e", "../../etc/passwd", "%s%n")


def seal(doc: dict) -> dict:
    """The digest rule of docs/certificates.md, written again here on purpose."""
    body = {k: v for k, v in doc.items() if k != "digest"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return {**body, "digest": "sha256:" + hashlib.sha256(text.encode("ascii")).hexdigest()}


def dump(doc) -> bytes:
    """json.dumps(doc, indent=1), byte for byte, several times faster: json's C encoder
    takes no indent, and its Python one was a large part of the campaign's own time."""
    out = []
    try:
        _indented(doc, "\n", out)
    except _Unusual:
        return json.dumps(doc, indent=1).encode("utf-8")
    return "".join(out).encode("utf-8")


class _Unusual(Exception):
    """A value _indented leaves to json.dumps (a key that is not a string, a deep nest...)."""


_LEAF = json.encoder.encode_basestring_ascii  # what json.dumps writes with ensure_ascii
_FLOAT = {float("inf"): "Infinity", float("-inf"): "-Infinity"}


def _indented(value, newline: str, out: list, depth: int = 0) -> None:
    """Append the pieces of json.dumps(value, indent=1) at the indentation of `newline`."""
    t = type(value)
    if t is str:
        out.append(_LEAF(value))
    elif t is int:
        out.append(int.__repr__(value))
    elif t is dict or t is list:
        if not value:
            out.append("{}" if t is dict else "[]")
            return
        if depth > 100:
            raise _Unusual  # json.dumps's own recursion, and its error, for a deep nest
        inner = newline + " "
        out.append("{" if t is dict else "[")
        sep = inner
        if t is dict:
            for k, v in value.items():
                if type(k) is not str:
                    raise _Unusual
                tv = type(v)  # strings and integers here, not in a call of their own: most leaves
                out.append(sep + _LEAF(k) + ": " + _LEAF(v) if tv is str else
                           sep + _LEAF(k) + ": " + int.__repr__(v) if tv is int else sep + _LEAF(k) + ": ")
                if tv is not str and tv is not int:
                    _indented(v, inner, out, depth + 1)
                sep = "," + inner
            out.append(newline + "}")
        else:
            for v in value:
                tv = type(v)
                if tv is str:
                    out.append(sep + _LEAF(v))
                elif tv is int:
                    out.append(sep + int.__repr__(v))
                else:
                    out.append(sep)
                    _indented(v, inner, out, depth + 1)
                sep = "," + inner
            out.append(newline + "]")
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif t is float:
        out.append("NaN" if value != value else _FLOAT.get(value) or float.__repr__(value))
    else:
        raise _Unusual


def _paths(value, prefix=()):
    """Every (path, value) in a JSON value, containers and leaves."""
    yield prefix, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, prefix + (i,))


def _set(doc, path, value):
    target = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value


# Every (path, value) of a document, by its JSON text (the text fixes the structure, key
# order included): the campaign picks in many copies of one document, so they are listed once.
_INDEX: dict = {}


def _get(doc, path):
    for key in path:
        doc = doc[key]
    return doc


def _pick(rng, doc, want):
    text = json.dumps(doc)
    index = _INDEX.get(text)
    if index is None:
        if len(_INDEX) > 64:
            _INDEX.clear()
        index = _INDEX[text] = {"all": [(p, v) for p, v in _paths(doc) if p and p[0] != "digest"]}
    # the paths a test picks, once per test: each is a lambda of v alone, the same code each call
    code = want.__code__ if want.__closure__ is None and not want.__defaults__ else None
    found = index.get(code) if code is not None else None
    if found is None:
        found = [p for p, v in index["all"] if want(v)]
        if code is not None:
            index[code] = found
    if not found:
        return None, None
    path = rng.choice(found)
    return path, _get(doc, path)  # the value in doc itself, which the mutation changes


def _digit(rng, text):
    spots = [i for i, ch in enumerate(text) if ch.isdigit()]
    if not spots:
        return text + "1"
    i = rng.choice(spots)
    return text[:i] + rng.choice([d for d in "0123456789" if d != text[i]]) + text[i + 1:]


# Each structural mutation changes a parsed document in place; the campaign then
# writes it resealed (the digest recomputed over the altered content) or not.
def m_digit(rng, doc):
    path, value = _pick(rng, doc, lambda v: isinstance(v, str) and any(c.isdigit() for c in v))
    _set(doc, path, _digit(rng, value))


def m_sign(rng, doc):
    path, value = _pick(rng, doc, lambda v: isinstance(v, str) and v[:1] in "-123456789")
    _set(doc, path, value[1:] if value.startswith("-") else "-" + value)


def m_swap_fields(rng, doc):
    path, value = _pick(rng, doc, lambda v: isinstance(v, dict) and len(v) >= 2)
    a, b = rng.sample(sorted(value), 2)
    value[a], value[b] = value[b], value[a]


def m_swap_items(rng, doc):
    path, value = _pick(rng, doc, lambda v: isinstance(v, list) and len(v) >= 2)
    i, j = rng.sample(range(len(value)), 2)
    value[i], value[j] = value[j], value[i]


def m_delete(rng, doc):
    path, value = _pick(rng, doc, lambda v: isinstance(v, (dict, list)) and v)
    if isinstance(value, dict):
        del value[rng.choice(sorted(value))]
    else:
        del value[rng.randrange(len(value))]


def m_add(rng, doc):
    path, value = _pick(rng, doc, lambda v: isinstance(v, (dict, list)))
    if isinstance(value, dict):
        value[rng.choice(["extra", "note", "digest2", "witness"])] = rng.choice(["1", 1, None, []])
    else:
        value.insert(rng.randrange(len(value) + 1), rng.choice(["0", "1", "-1/2", 0]))


def m_claim(rng, doc):
    ids = ["lemma-4.5", "santurkar2018/lemma-4.5", "santurkar2018/theorem-4.1",
           "santurkar2018/theorem-4.1/as-derived", "dannemann2025/remark-2.7/corrected",
           "santurkar2018/theorem-9.9", "me/my-claim", doc["claim"].get("id", "") + "x", ""]
    key = rng.choice(["id", "id", "statement", "source"])
    old = doc["claim"].get(key, "")
    doc["claim"][key] = rng.choice(ids) if key == "id" else rng.choice(
        [old + " ", old[:-1], old.replace("\\leq", "\\geq"), old.upper(), ""])


def m_verdict(rng, doc):
    doc["verdict"] = rng.choice(["holds", "hypothesis-not-met", "survived", "proved", "REFUTED", None])
    if "witnesses" in doc and rng.random() < 0.5:
        for neuron in doc["witnesses"]["neurons"]:
            neuron["verdict"] = doc["verdict"]


def m_type(rng, doc):
    path, _ = _pick(rng, doc, lambda v: not isinstance(v, dict))
    _set(doc, path, rng.choice([1, 1.5, -0.0, True, None, {}, [], "1.0", "0x10", "1e3", " 1", "+1",
                                "1/0", "2/4", "3/1", "-0", "01", "١", "NaN", "Infinity"]))


def m_huge(rng, doc):
    path, _ = _pick(rng, doc, lambda v: isinstance(v, str) and v[:1] in "-0123456789")
    # at most 300 digits where the checker may accept (SymPy's square roots factor their
    # radicands: at 2000 digits one evaluation takes minutes); beyond its 2000 refused
    digits = rng.choice([40, 300, 2001, 10**5])
    _set(doc, path, rng.choice(["1" + "0" * digits, "1/" + "7" * digits, "-" + "9" * digits]))


def m_injection(rng, doc):
    path, _ = _pick(rng, doc, lambda v: not isinstance(v, (dict, list)))
    payload = rng.choice(INJECTIONS)
    if rng.random() < 0.3 and isinstance(doc.get("instance"), dict):
        doc["instance"][payload] = "1"  # as a key
    elif rng.random() < 0.3 and isinstance(doc.get("program"), dict):
        doc["program"]["steps"].insert(0, [payload, 0, 0])  # as an operation
    else:
        _set(doc, path, payload)


def m_program(rng, doc):
    program = doc.get("program")
    if not isinstance(program, dict):
        return m_digit(rng, doc)
    steps = program["steps"]
    k = rng.randrange(len(steps))
    choice = rng.randrange(6)
    if choice == 0:  # another operation
        steps[k] = [rng.choice(["add", "sub", "mul", "div", "max", "min", "neg", "abs", "sqrt",
                                "pow", "exp", "log", "call"])] + steps[k][1:]
    elif choice == 1:  # an operand that is not an earlier step
        steps[k] = steps[k][:1] + [rng.choice([k, k + 1, -1, len(steps), True, "0", 1.0])] + steps[k][2:]
    elif choice == 2:
        program["residual"] = rng.choice([0, len(steps) - 2, len(steps), -1, "1", None])
    elif choice == 3:
        program["hypotheses"] = rng.choice([[], [0], [len(steps) - 1], [len(steps)], None])
    elif choice == 4:  # an earlier operand, well formed: another program
        ops = [s for s in range(len(steps)) if steps[s][0] in ("add", "sub", "mul", "div", "max", "min")]
        if ops:
            k = rng.choice(ops)
            steps[k][rng.choice([1, 2])] = rng.randrange(k) if k else 0
    elif "obligations" in doc:
        doc["obligations"][-1]["sign"] = rng.choice(["positive", "negative", "nonpositive", "nonzero"])
    elif doc.get("proof", {}).get("terms"):  # a proof's decomposition: a coefficient of another sign
        doc["proof"]["terms"][0]["coefficient"] = rng.choice(["-1", "0", "-1/2", "1/3"])
    else:  # a proof by "zero": claim a decomposition it does not have
        doc["proof"]["method"] = rng.choice(["nonnegative", "positive", "zero "])


STRUCTURAL = {f.__name__[2:]: f for f in (m_digit, m_sign, m_swap_fields, m_swap_items, m_delete,
                                           m_add, m_claim, m_verdict, m_type, m_huge, m_injection,
                                           m_program)}


# Byte-level mutations of the file as written.
def b_truncate(rng, data, doc):
    return data[:rng.randrange(len(data))]


def b_digest(rng, data, doc):
    digest = doc["digest"]
    i = rng.randrange(7, len(digest))
    wrong = digest[:i] + rng.choice([c for c in "0123456789abcdefA" if c != digest[i]]) + digest[i + 1:]
    wrong = rng.choice([wrong, digest.upper(), digest[7:], "sha1:" + digest[7:47], ""])
    return dump({**doc, "digest": wrong})


def b_bytes(rng, data, doc):
    i = rng.randrange(len(data))
    return data[:i] + rng.choice([b"\xff", b"\xc3\x28", b"\x00", b"\xed\xa0\x80", b"\xef\xbb\xbf"]) + data[i:]


def b_nested(rng, data, doc):
    depth = rng.choice([17, 100, 5000, 200000])
    deep = "[" * depth + '"1"' + "]" * depth
    text = data.decode("utf-8")
    anchor = '"instance"' if '"instance"' in text else '"witness"'  # a proof has a witness
    at = text.index('"', text.index(anchor) + 10)
    return (text[:at] + deep + ", " + text[at:]).encode("utf-8") if rng.random() < 0.5 else \
        ('{"a": ' + deep + "}").encode("utf-8")


def b_json(rng, data, doc):
    text = data.decode("utf-8")
    return rng.choice([
        text.replace('"version": 2', '"version": 2, "version": 2', 1),  # duplicate key
        text.replace('"version": 2', '"version": NaN', 1),
        text.replace('"version": 2', '"version": Infinity', 1),
        text.replace('"version": 2', '"version": 2.0', 1),
        "\ufeff" + text, text + "x", "[" + text + "]", "null", "", '"' + text[:50] + '"',
    ]).encode("utf-8")


BYTES = {f.__name__[2:]: f for f in (b_truncate, b_digest, b_bytes, b_nested, b_json)}


# The kinds in the order mutants() makes them: the first CYCLE mutants are one of each.
KINDS = [(name, True) for name in STRUCTURAL] + [(name, False) for name in STRUCTURAL] + \
    [(name, None) for name in BYTES]
CYCLE = len(KINDS)


def kind_of(n: int) -> str:
    """The kind of mutants()'s mutant number n."""
    name, reseal = KINDS[n % CYCLE]
    return f"bytes:{name}" if reseal is None else f"{name}{'+resealed' if reseal else ''}"


CYCLE_INDEX = {kind_of(n): n for n in range(CYCLE)}
# The mutations that found checker bugs, resealed (unsealed, the digest rejects them first):
# a proof without "method" deleted (a KeyError, 3f4ef78), claim.kind swapped with
# claim.variables (a list as the kind: TypeError, unhashable, 20ced1d), and a value of
# another type, the class of that second bug.
BUG_FINDERS = ("delete+resealed", "swap_fields+resealed", "type+resealed")


def sample(n: int, kind: str) -> bool:
    """The test suite's share of a campaign (an `only` for mutants()): the first cycle
    (every kind once), then every mutant of a kind that found bugs, all through the
    campaign's length."""
    return n < CYCLE or kind in BUG_FINDERS


def mutants(data: bytes, count: int, seed: int, only=None, documents: bool = False):
    """`count` (kind, bytes) mutants of a certificate file, the same for the same seed.
    With `only` (a test on the mutant's number and kind), the others are made all the
    same (the same random choices, so the mutants yielded are those of the full sequence)
    but not written out.  With `documents`, a structural mutant comes as the document
    itself, not written out (json.loads of its bytes gives an equal one)."""
    rng = random.Random(seed)
    doc = json.loads(data)
    for n in range(count):
        (name, reseal), kind = KINDS[n % CYCLE], kind_of(n)
        if reseal is None:
            # made even when left out: the random choices of the mutants after it depend on it
            data_ = BYTES[name](rng, data, doc)
            if only is None or only(n, kind):
                yield kind, data_
            continue
        for _ in range(20):  # a mutant that changes nothing is no mutant
            mutant = json.loads(data)  # a deep copy of doc (which is json.loads(data)), faster
            STRUCTURAL[name](rng, mutant)
            if mutant != doc:
                break
        if only is None or only(n, kind):
            mutant = seal(mutant) if reseal else mutant
            yield kind, mutant if documents else dump(mutant)


# --- the oracle: what is true of a document, by SymPy from its instance ---------------

def Q(text) -> sympy.Rational:
    num, _, den = text.partition("/")
    return sympy.Rational(int(num), int(den or 1))


def _sign(x) -> int:
    """The exact sign of a real algebraic number given in radicals: rationalized and
    expanded, a number of Q(sqrt r) is 0 only as the literal 0; a minimal polynomial
    settles any other zero; a nonzero value's sign then follows from 50 significant
    digits (evalf reaches its relative precision however small the value)."""
    x = sympy.expand(sympy.radsimp(sympy.sympify(x)))
    if x.is_Rational:
        return int(sympy.sign(x))
    try:
        if sympy.minimal_polynomial(x, sympy.Symbol("t")).as_expr() == sympy.Symbol("t"):
            return 0
    except (sympy.polys.polyerrors.NotAlgebraic, NotImplementedError):
        # exp, log, arccos, tanh, π: 0 only where SymPy simplifies it to 0
        if sympy.simplify(x) == 0:
            return 0
    return 1 if x.evalf(50) > 0 else -1


def lemma_verdict(doc) -> str:
    inst = doc["instance"]
    X = sympy.Matrix([[Q(v) for v in row] for row in inst["X"]])
    m, d = X.shape
    Xc = X - sympy.ones(m, 1) * (sympy.ones(1, m) * X) / m
    scale = 1  # the loss (sum or mean) moves no optimum
    verdicts = []
    for j, w0 in enumerate(inst["W0"]):
        y = sympy.Matrix([Q(row[j]) for row in inst["Y"]])
        w0 = sympy.Matrix([Q(v) for v in w0])
        gamma = Q(inst["gamma"][j])
        w_star = (X.T * X).solve(X.T * y)
        inner = (w0.T * w_star)[0]
        if inner <= 0:
            verdicts.append("hypothesis-not-met")
            continue
        n2 = (w_star.T * w_star)[0]
        rhs = ((w0 - w_star).T * (w0 - w_star))[0] - (n2 - inner) ** 2 / n2
        c = Xc.T * y
        kernel = Xc.nullspace()
        P = sympy.zeros(d, 1)
        if kernel:
            K = sympy.Matrix.hstack(*kernel)
            P = K * (K.T * K).solve(K.T * w0)
        if gamma == 0 or c == sympy.zeros(d, 1):
            lhs = 0  # every w with sigma(w) != 0 is optimal: the infimum is 0
        else:
            b = sympy.sign(gamma) * (Xc.T * Xc).pinv() * c
            t = (w0.T * b)[0] / (b.T * b)[0]
            gap = w0 - P - max(t, 0) * b
            lhs = (gap.T * gap)[0]
        verdicts.append("refuted" if rhs - scale * lhs < 0 else "holds")
    return "refuted" if "refuted" in verdicts else "hypothesis-not-met" \
        if "hypothesis-not-met" in verdicts else "holds"


def program_values(doc) -> list:
    """Every step of a program certificate, evaluated with SymPy."""
    inst, vals = doc["instance"], []

    def tensor(v):
        return [tensor(x) for x in v] if isinstance(v, list) else Q(v)

    variables = {k: tensor(v) for k, v in inst.items()}
    for step in doc["program"]["steps"]:
        op, args = step[0], step[1:]
        if op == "input":
            value = variables[args[0]]
            for i in args[1:]:
                value = value[i]
        elif op == "const":
            value = Q(args[0])
        elif op == "pow":
            value = vals[args[0]] ** args[1]
        else:
            a = [vals[i] for i in args]
            value = {"add": lambda: a[0] + a[1], "sub": lambda: a[0] - a[1], "mul": lambda: a[0] * a[1],
                     "div": lambda: a[0] / a[1], "max": lambda: sympy.Max(*a), "min": lambda: sympy.Min(*a),
                     "neg": lambda: -a[0], "abs": lambda: sympy.Abs(a[0]),
                     "sqrt": lambda: sympy.sqrt(a[0]), "exp": lambda: sympy.exp(a[0]),
                     "log": lambda: sympy.log(a[0]), "acos": lambda: sympy.acos(a[0]),
                     "tanh": lambda: sympy.tanh(a[0]), "pi": lambda: sympy.pi}[op]()
        vals.append(sympy.radsimp(value) if value.is_Number is False else value)
    return vals


def _paper_claim_verdict(claim, instance: dict) -> str:
    import numpy as np

    from bnproof.claims.xp import symbolic

    xp, values = symbolic(), {}
    for var in claim.variables:
        raw = instance[var.name]
        arr = np.array(raw, dtype=object)
        values[var.name] = np.vectorize(Q, otypes=[object])(arr) if arr.shape else Q(raw)
        flat = np.asarray(values[var.name], dtype=object).reshape(-1)
        if var.domain == "nonzero" and any(x == 0 for x in flat) or \
                var.domain == "positive" and any(x <= 0 for x in flat) or \
                var.domain == "symmetric" and not (values[var.name] == values[var.name].T).all():
            return "outside the domain"
    try:
        with np.errstate(all="ignore"):  # SymPy's own float checks set FPU flags numpy reports
            hyps = [x for h in claim.hypotheses for x in np.asarray(h(xp, **values), dtype=object).ravel()]
            if any(_sign(x) <= 0 for x in hyps):  # an array hypothesis: every entry > 0
                return "hypothesis not met"
            s = _sign(claim.residual(xp, **values))
    except ZeroDivisionError:
        return "outside the domain"
    return "holds" if claim.holds(s) else "refuted"


def claim_verdict(doc) -> str:
    """"refuted" if the claim named by the document is refuted at its instance: for a
    claim of the papers by the claim file's residual evaluated with SymPy (not the
    program); for a user's claim by the program, evaluated with SymPy."""
    claims = _paper_claims()
    if doc["claim"]["id"] in claims:
        return _paper_claim_verdict(claims[doc["claim"]["id"]], doc["instance"])
    vals = program_values(doc)
    if any(_sign(vals[h]) <= 0 for h in doc["program"]["hypotheses"]):
        return "hypothesis not met"
    s = _sign(vals[doc["program"]["residual"]])
    kind = doc["claim"]["kind"]
    holds = s == 0 if kind == "identity" else s > 0 if kind == "strict-inequality" else s >= 0
    return "holds" if holds else "refuted"


@functools.lru_cache(maxsize=1)
def _paper_claims() -> dict:
    from bnproof.claims.api import all_claims

    return {c.id: c for c in all_claims()}


# What the oracle reads of a document: whether it has witnesses (a Lemma 4.5 certificate),
# the claim, the instance and the program; never a witness, an obligation or the verdict.
# Many accepted mutants differ from another only elsewhere (a witness digit, a swapped
# obligation, a resealed field order), so each content is judged once per session.
_VERDICTS: dict = {}


def true_verdict(doc) -> str:
    key = json.dumps(["witnesses" in doc, doc.get("claim"), doc.get("instance"), doc.get("program")],
                     sort_keys=True)  # the oracle reads every object by its keys, never by their order
    if key not in _VERDICTS:
        if len(_VERDICTS) > 4096:
            _VERDICTS.clear()
        _VERDICTS[key] = lemma_verdict(doc) if "witnesses" in doc else claim_verdict(doc)
    return _VERDICTS[key]


@dataclass
class Tally:
    mutants: int = 0
    rejected: int = 0
    accepted_correct: int = 0
    wrongly_accepted: list = field(default_factory=list)
    crashes: list = field(default_factory=list)
    by_kind: Counter = field(default_factory=Counter)  # kind -> rejected count
    kinds: Counter = field(default_factory=Counter)
    reasons: dict = field(default_factory=dict)  # kind -> Counter of rejection reasons


def campaign(path: Path, count: int, seed: int, workdir: Path, only=None) -> Tally:
    """Run the checker on `count` mutants of the certificate at `path`, in `workdir`
    (with `only`, on those of the `count` that it picks: see mutants)."""
    from bnproof.checker import check_file

    tally = Tally()
    target = workdir / "mutant.json"
    for kind, data in mutants(path.read_bytes(), count, seed, only=only):
        tally.mutants += 1
        tally.kinds[kind] += 1
        # a new file each time: rewriting one in place (truncated to 0) makes ext4 flush it to
        # disk on close (auto_da_alloc), 2-3 ms a mutant, most of the campaign's time
        target.unlink(missing_ok=True)
        target.write_bytes(data)
        try:
            ok, line = check_file(target)
        except BaseException as exc:  # noqa: BLE001 - a crash is what is counted here
            tally.crashes.append((kind, f"{type(exc).__name__}: {exc}"))
            continue
        if "internal checker error" in line or "\n" in line:
            tally.crashes.append((kind, line))
        elif not ok:
            tally.rejected += 1
            tally.by_kind[kind] += 1
            reason = line.split(": ", 1)[1]
            tally.reasons.setdefault(kind, Counter())[reason] += 1
        else:
            doc = json.loads(data)
            if doc.get("kind") == "proof":
                correct = proof_holds(doc)
            else:
                correct = true_verdict(doc) == doc["verdict"]
            if correct:
                tally.accepted_correct += 1
            else:
                tally.wrongly_accepted.append((kind, line))
    return tally


def domain_dropped(doc: dict, name: str | None = None) -> dict:
    """A copy of a proof certificate whose input `name` (every input, for None) is declared
    real, in the claim's variables and in the program's inputs alike (unsealed)."""
    import copy

    forged = copy.deepcopy(doc)
    for var in forged["claim"]["variables"]:
        if name is None or var["name"] == name:
            var["domain"] = "real"
    for item in forged["program"]["inputs"]:
        if name is None or item[0] == name:
            item[2] = "real"
    return forged
