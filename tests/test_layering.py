"""The house has floors and no circles (docs/concepts.md, "The map of the house").

Every import counts, at a module's top or inside a function alike: an import moved
into a function still makes its module depend on the other, it only hides it.  The
imports are read with `ast`, never by importing anything, relative ones resolved
against the importing module's package.  So:

* no module of bnproof imports another that imports it back, directly or round a
  circle of any length;
* no module imports from a floor above its own, the floors being the ones the map in
  docs/concepts.md lists (read from that page: the page and this test cannot disagree);
* bnproof/checker imports the standard library and itself, nothing else;
* errors.py and the package's __init__.py import nothing from bnproof.

The finders are tried first on made-up packages with a known circle, a known upward
import and a known third-party import, so that a finder that sees nothing fails.
"""

from __future__ import annotations

import ast
import functools
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "bnproof"
CONCEPTS = ROOT / "docs" / "concepts.md"
MAP_HEADING = "## The map of the house"


# ---------------------------------------------------------------- reading imports

def modules(package: Path) -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its __init__.py)."""
    out = {}
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
        if "__pycache__" in parts:
            continue
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def imports(package: Path) -> list[tuple[str, str, int]]:
    """(importer, imported, line) for every import of one of the package's modules by
    another, wherever it stands in the file.  `from X import name` depends on X.name
    where that is a module, else on X; a name that is no module depends on the nearest
    module above it."""
    known = modules(package)
    top = package.name
    out = []
    for name, path in known.items():
        is_package = path.name == "__init__.py"
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            for target in _targets(node, name, is_package, known):
                while target and target not in known:
                    target = target.rpartition(".")[0]
                if target and target != name and (target == top or target.startswith(top + ".")):
                    out.append((name, target, node.lineno))
    return out


def _targets(node, name: str, is_package: bool, known: dict) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if not isinstance(node, ast.ImportFrom):
        return []
    if node.level:
        base = name.split(".") if is_package else name.split(".")[:-1]
        base = base[:len(base) - (node.level - 1)]
        source = ".".join(base + ([node.module] if node.module else []))
    else:
        source = node.module or ""
    return [f"{source}.{a.name}" if f"{source}.{a.name}" in known else source for a in node.names]


def external_imports(package: Path) -> list[tuple[str, str, int]]:
    """(module, top-level name, line) of every import that leaves the package: a
    relative import past its top, or an absolute import of anything else."""
    known = modules(package)
    top = package.name
    out = []
    for name, path in known.items():
        is_package = path.name == "__init__.py"
        depth = len(name.split(".")) - (0 if is_package else 1)  # how many levels a relative import may climb
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, ast.ImportFrom) and node.level:
                if node.level > depth:
                    out.append((name, "." * node.level + (node.module or ""), node.lineno))
                continue
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            out += [(name, n.split(".")[0], node.lineno) for n in names if n.split(".")[0] != top]
    return out


# ---------------------------------------------------------------- circles

def cycles(edges) -> list[list[str]]:
    """The import circles: each strongly connected set of two or more modules, as one
    circle through it (a, b, ..., a), found without recursion."""
    graph: dict[str, set] = {}
    for a, b, _ in edges:
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set())
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(_circle(graph, set(group)))
    return found


def _circle(graph: dict, group: set) -> list[str]:
    """A shortest circle from the group's first module back to it, inside the group."""
    first = min(group)
    paths = {first: [first]}
    queue = [first]
    for node in queue:
        for child in sorted(graph[node] & group):
            if child == first:
                return paths[node] + [first]
            if child not in paths:
                paths[child] = paths[node] + [child]
                queue.append(child)
    raise AssertionError(f"no circle through {first} in {sorted(group)}")


# ---------------------------------------------------------------- floors

def floors_of(text: str) -> list[list[str]]:
    """The floors of the map, top first: the first fenced block after MAP_HEADING,
    one floor a line, its rooms separated by spaces (a folder as `name/`, a module
    as `name.py`)."""
    start = text.index(MAP_HEADING)
    block = re.search(r"^```[^\n]*\n(.*?)^```", text[start:], re.S | re.M)
    assert block is not None, f"no fenced block of floors under {MAP_HEADING!r}"
    return [line.split() for line in block.group(1).splitlines() if line.strip()]


def room(module: str, package: Path) -> str:
    """The folder (`name/`) or top-level module (`name.py`) a module lives in."""
    parts = module.split(".")
    if len(parts) == 1:
        return "__init__.py"
    return parts[1] + "/" if (package / parts[1]).is_dir() else parts[1] + ".py"


def upward(edges, floors: list[list[str]], package: Path) -> list[str]:
    """Every import from a floor to one above it (floors are listed top first)."""
    level = {r: i for i, floor in enumerate(floors) for r in floor}
    return sorted({f"{a}:{line} imports {b} ({room(a, package)} is below {room(b, package)})"
                   for a, b, line in edges if level[room(b, package)] < level[room(a, package)]})


# ---------------------------------------------------------------- the finders, on made-up packages

def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return tmp_path / "pkg"


def test_the_finder_sees_a_circle_closed_inside_a_function(tmp_path):
    package = _package(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": "from . import b\n",
        "pkg/b.py": "def f():\n    from .sub import c\n    return c\n",
        "pkg/sub/__init__.py": "",
        "pkg/sub/c.py": "import json\n\n\nclass C:\n    def g(self):\n        from ..a import x\n",
        "pkg/d.py": "import pkg.sub.c\nfrom pkg.sub import c as also\nfrom .a import nothing_of_note\n",
    })
    edges = imports(package)
    pairs = {(a, b) for a, b, _ in edges}
    assert ("pkg.a", "pkg.b") in pairs  # from . import b: the module b
    assert ("pkg.b", "pkg.sub.c") in pairs  # from .sub import c, inside a function
    assert ("pkg.sub.c", "pkg.a") in pairs  # from ..a, two levels up, inside a method
    assert ("pkg.d", "pkg.sub.c") in pairs and ("pkg.d", "pkg.a") in pairs
    assert cycles(edges) == [["pkg.a", "pkg.b", "pkg.sub.c", "pkg.a"]]


def test_the_finder_sees_no_circle_where_there_is_none(tmp_path):
    package = _package(tmp_path, {
        "pkg/__init__.py": "from .a import x\n",  # a re-export down the tree: no circle
        "pkg/a.py": "from .b import y\nx = y\n",
        "pkg/b.py": "import os\ny = os.sep\n",
    })
    assert cycles(imports(package)) == []


def test_the_floor_rule_sees_a_lower_floor_reaching_up(tmp_path):
    package = _package(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/high/__init__.py": "",
        "pkg/high/h.py": "from ..low import l\n",  # down: allowed
        "pkg/low/__init__.py": "",
        "pkg/low/l.py": "def f():\n    from ..high.h import g\n",  # up, inside a function
        "pkg/ground.py": "",
    })
    floors = [["high/"], ["low/"], ["ground.py", "__init__.py"]]
    found = upward(imports(package), floors, package)
    assert len(found) == 1 and found[0].startswith("pkg.low.l:2 imports pkg.high.h"), found


def test_the_floors_are_read_from_the_map():
    text = "intro\n\n## The map of the house\n\nwords\n\n```text\ncli/ a.py\n\nlow/\n```\n\n```\nnot/ this/\n```\n"
    assert floors_of(text) == [["cli/", "a.py"], ["low/"]]


def test_the_stdlib_rule_sees_a_library_and_a_climb_out(tmp_path):
    package = _package(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/ok.py": "import json\nfrom fractions import Fraction\nfrom .other import x\n",
        "pkg/other.py": "def f():\n    import numpy as np\n\n\nfrom .. import errors\n",
    })
    found = sorted((m, n) for m, n, _ in external_imports(package)
                   if n.startswith(".") or n not in sys.stdlib_module_names)
    assert found == [("pkg.other", ".."), ("pkg.other", "numpy")]


# ---------------------------------------------------------------- bnproof

@functools.lru_cache(maxsize=1)
def _bnproof_imports() -> tuple:
    return tuple(imports(PACKAGE))


def test_bnproof_has_no_import_circle():
    found = cycles(_bnproof_imports())
    assert not found, "import circles (untangle by moving the shared piece down a floor):\n" + "\n".join(
        " -> ".join(circle) for circle in found)


def test_the_map_places_every_room_once_and_no_other():
    floors = floors_of(CONCEPTS.read_text(encoding="utf-8"))
    listed = [r for floor in floors for r in floor]
    assert len(listed) == len(set(listed)), f"a room on two floors: {listed}"
    rooms = {room(m, PACKAGE) for m in modules(PACKAGE)}
    assert rooms - set(listed) == set(), "rooms the map in docs/concepts.md does not place"
    assert set(listed) - rooms == set(), "rooms the map names that do not exist"
    assert {"errors.py", "__init__.py"} <= set(floors[-1]), "errors.py and __init__.py are the ground floor"


def test_no_module_imports_from_a_floor_above_its_own():
    floors = floors_of(CONCEPTS.read_text(encoding="utf-8"))
    found = upward(_bnproof_imports(), floors, PACKAGE)
    assert not found, "imports up the floors of docs/concepts.md:\n" + "\n".join(found)


def test_the_checker_imports_only_the_standard_library_and_itself():
    found = [f"{m}:{line} imports {n}" for m, n, line in external_imports(PACKAGE / "checker")
             if n.startswith(".") or n not in sys.stdlib_module_names]
    assert not found, found


def test_the_ground_imports_nothing_from_bnproof():
    for name in ("bnproof.errors", "bnproof"):
        found = [(b, line) for a, b, line in _bnproof_imports() if a == name]
        assert not found, (name, found)
