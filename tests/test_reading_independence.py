"""The second reading shares no machinery with what it checks (bnproof/reading/__init__.py):
neither its imports nor a reading of every paper claim load the tracer, the program
evaluator, the dual numbers, the symbolic-size prover or the exact engine."""

from __future__ import annotations

import ast
import pathlib
import subprocess
import sys

FORBIDDEN = ("bnproof.program", "bnproof.claims.dual", "bnproof.symbolic_m", "bnproof.exact",
             "bnproof.claims.decide", "bnproof.claims.moments", "bnproof.claims.xp", "bnproof.claims.object_xp")
PACKAGE = pathlib.Path(__file__).resolve().parents[1] / "bnproof" / "reading"


def _imports(path: pathlib.Path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            dots = "." * node.level
            yield node, dots + (node.module or "")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                yield node, alias.name


def test_the_package_imports_nothing_it_checks():
    for path in sorted(PACKAGE.glob("*.py")):
        for node, name in _imports(path):
            resolved = name
            if name.startswith(".."):  # bnproof.reading's parent: bnproof
                resolved = "bnproof." + name.lstrip(".")
            for bad in FORBIDDEN:
                if resolved == bad or resolved.startswith(bad + "."):
                    # the one exception: floats.py's JAX check, imported where it is used
                    assert path.name == "floats.py" and resolved == "bnproof.claims.xp", (path, name)
            if name.startswith(".."):  # outside the package: the claim format, and JAX's configuration
                assert resolved in ("bnproof.claims.xp", "bnproof.claims.api", "bnproof.claims.law",
                                    "bnproof.numeric.jax_setup"), (path, name)


def test_reading_every_paper_claim_loads_none_of_it():
    """What the claim files import themselves (claims/blocks.py may import the tracer's
    refusal helper) is the claims' business; the reading adds none of it."""
    script = (
        "import sys\n"
        "from bnproof import reading\n"
        f"assert not [m for m in sys.modules if m.startswith({FORBIDDEN!r})], 'imported by bnproof.reading'\n"
        "from bnproof.claims.api import all_claims\n"
        "claims = all_claims()\n"
        "before = set(sys.modules)\n"
        "for c in claims:\n"
        "    sizes = {s: lo for s, (lo, hi) in c.sizes.items()}\n"
        "    for i in reading.generic_instances(c, sizes, 1, seed=0) if c.variables else [{}]:\n"
        "        reading.read(c, i)\n"
        f"bad = sorted(m for m in set(sys.modules) - before if m.startswith({FORBIDDEN!r}))\n"
        "print(bad)\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr
