"""The independent checker of bnproof certificates (format version 2): one line
per file, ACCEPTED or REJECTED with the first failing step; exit code 6 if any
file is rejected.  Standard library only, Fraction arithmetic only, no text is
ever evaluated as code.  Lemma 4.5 certificates with witnesses are checked in
lemma.py, program certificates in program.py (with formulas.py), existential
certificates in existential.py (with farkas.py), proof certificates (for every m) in
proof.py (with symbolic_program.py, symbolic_length.py and instantiate.py)."""

import argparse

from .every_d import check_every_d
from .existential import check_existential
from .exists_hint import check_exists_hint
from .exists_witnesses import check_witnesses
from .lemma import CLAIM_ID, SOURCE, STATEMENT, check_lemma
from .moments_n import check_moments_n
from .parse import Rejected, parse, read
from .program import check_program, program_digest, render
from .proof import check_proof

__all__ = ["CLAIM_ID", "SOURCE", "STATEMENT", "Rejected", "check_bytes", "check_document", "check_file",
           "main", "program_digest"]


def check_document(doc) -> str:
    """Raise Rejected with the first failing step unless doc is a valid certificate;
    return what was established ("<claim id> <verdict>", and for a program what it trusts)."""
    if type(doc) is not dict:
        raise Rejected("the document is not a JSON object")
    if doc.get("kind") == "proof" and type(doc.get("claim")) is dict and "exists" in doc["claim"]:
        return check_exists_hint(doc)  # an existential claim proved through its hint
    if doc.get("kind") == "proof" and type(doc.get("proof")) is dict \
            and doc["proof"].get("method") == "moments-n":  # expectations, for every n
        return check_moments_n(doc)
    if doc.get("kind") == "proof" and type(doc.get("proof")) is dict \
            and doc["proof"].get("method") == "every-d":  # every m and every d: its own program format
        return check_every_d(doc)
    if doc.get("kind") == "proof":  # proved for every m (refutations have no "kind" key)
        return check_proof(doc)
    if "nonexistence" in doc:  # an existential claim with no witness at an instance
        return check_existential(doc)
    if "parts" in doc and doc.get("verdict") == "witnessed":  # an existential claim's witnesses
        return check_witnesses(doc)
    if "program" in doc and "witnesses" not in doc:
        return check_program(doc)
    return check_lemma(doc)


def check_file(path, show_program: bool = False) -> tuple[bool, str]:
    """(accepted, the output line); with show_program an accepted program follows it."""
    return checked(path, show_program)[:2]


def checked(path, show_program: bool = False) -> tuple[bool, str, dict | None]:
    """check_file, with the document it checked (None if rejected): whoever compares the
    certificate with anything else compares this one, not a second reading of the file."""
    return _checked(lambda: read(path), path, show_program)


def check_bytes(data: bytes, name) -> tuple[bool, str]:
    """check_file on the bytes a file named `name` would hold, without the file:
    the same reading, the same checks, the same line.  A writer checks the exact
    bytes it is about to write, once (bnproof/_api/verify.py)."""
    return _checked(lambda: parse(data), name, False)[:2]


def _checked(load, path, show_program: bool) -> tuple[bool, str, dict | None]:
    name = str(path) if str(path).isprintable() else ascii(str(path))  # one line, always
    try:
        doc = load()
        line = f"ACCEPTED {name}: {check_document(doc)}"
    except Rejected as exc:
        return False, f"REJECTED {name}: {exc}", None
    except RecursionError:
        return False, f"REJECTED {name}: nested too deeply", None
    except MemoryError:
        return False, f"REJECTED {name}: out of memory", None
    except Exception as exc:  # a last resort: a checker bug must still reject
        return False, f"REJECTED {name}: internal checker error: {type(exc).__name__}", None
    if show_program and "program" in doc and "nonexistence" not in doc and doc.get("kind") != "proof":
        line += "".join("\n  " + text for text in render(doc["program"]))  # all ASCII once checked
    return True, line, doc


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bnproof.checker",
        description="Check bnproof certificates independently of bnproof.")
    parser.add_argument("files", nargs="+", metavar="FILE")
    parser.add_argument("--show-program", action="store_true",
                        help="print each accepted program, the part a user's claim trusts")
    args = parser.parse_args(argv)
    all_ok = True
    for path in args.files:
        ok, line = check_file(path, args.show_program)
        all_ok = all_ok and ok
        try:
            print(line)
        except UnicodeEncodeError:  # an odd file name on a narrow terminal
            print(ascii(line)[1:-1])
    return 0 if all_ok else 6
