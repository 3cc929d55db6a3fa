"""Helper modules beside a claim file: `from mylib import helper` in a claim file
imports mylib.py from the claim file's own folder.

While the claim file executes, its folder is first on the import path, as for
`python claim.py`.  Afterwards the path is restored and every module imported
from that folder during the load is taken out of sys.modules again: the claim
keeps the objects it imported, but the next claim file, perhaps in another
folder with a mylib.py of its own, imports its own mylib and never the cached
one (a worker process serves claim after claim from different files), and a
helper edited since is read afresh.  A module that was already imported before
the load (bnproof itself, numpy, a module of the user's session) is never
touched, even if it lives in the claim's folder.

The files of the helpers a load imported are recorded per claim file, so that
the claim file's fingerprint (search/worker.py) covers them: a helper edited
during a run is noticed like an edit of the claim file itself.
"""

from __future__ import annotations

import contextlib
import importlib
import sys
import types
from pathlib import Path

from ..errors import BadInput

_LOADED: dict[str, tuple[str, ...]] = {}  # claim file (resolved) -> helper files its last load imported


def helper_files(claim_file) -> tuple[str, ...] | None:
    """The helper files the last load of this claim file in this process
    imported from beside it (sorted), or None if it was not loaded here."""
    return _LOADED.get(str(Path(claim_file).resolve()))


@contextlib.contextmanager
def importable_beside(claim_file: Path, namespace: dict):
    """While the block runs, modules in the claim file's folder are importable;
    `namespace` is the claim module's, checked afterwards for a helper that
    Python's module cache shadowed."""
    key = str(Path(claim_file).resolve())
    folder = Path(key).parent
    before, path, no_bytecode = set(sys.modules), list(sys.path), sys.dont_write_bytecode
    sys.path.insert(0, str(folder))
    importlib.invalidate_caches()  # a helper written a moment ago is found
    # a claim file is input: loading it leaves no __pycache__ in the author's folder
    sys.dont_write_bytecode = True
    try:
        yield
    finally:
        sys.dont_write_bytecode = no_bytecode
        # restored as it was, whatever the claim or a helper did to it: a folder left on the
        # path would let the next claim file import this one's helpers in place of an error
        sys.path[:] = path
        _LOADED[key] = tuple(sorted(_forget_helpers(folder, before)))
    shadowed = _shadowed(namespace, folder, Path(key).stem, before)
    if shadowed:
        name, elsewhere = shadowed
        raise BadInput(f"claim file {claim_file} imports {name} from {elsewhere}, not the {name} beside it: a "
                       f"module named {name} was imported before the claim file was loaded, and Python "
                       "reuses it; give the helper another name")


def _shadowed(namespace: dict, folder: Path, own: str, before: set) -> tuple[str, str] | None:
    """(name, where it was found) of a module the claim file imported whose name
    is also a helper beside it, but that came from elsewhere: imported before
    the load, so the import found the cached module, not the helper."""
    for value in list(namespace.values()):
        if isinstance(value, types.ModuleType):
            name = value.__name__
        elif isinstance(value, (type, types.FunctionType)):  # `from mylib import f`
            name = getattr(value, "__module__", None)
        else:
            continue
        top = (name or "").partition(".")[0]
        if not top or top == own or top not in before or top not in sys.modules:
            continue
        if (folder / f"{top}.py").is_file() or (folder / top / "__init__.py").is_file():
            module = sys.modules[top]
            if not _found_in(module, folder):
                spec = getattr(module, "__spec__", None)
                return top, (getattr(spec, "origin", None) or "an earlier import")
    return None


def _forget_helpers(folder: Path, before: set) -> set[str]:
    """Take the modules newly imported from `folder` (top-level modules or
    packages found there, and their submodules) out of sys.modules; their files."""
    new = set(sys.modules) - before
    tops = {name for name in new if "." not in name and _found_in(sys.modules[name], folder)}
    files = set()
    for name in new:
        if name.partition(".")[0] in tops:
            module = sys.modules.pop(name)
            origin = getattr(getattr(module, "__spec__", None), "origin", None)
            if origin and Path(origin).is_file():
                files.add(str(Path(origin).resolve()))
    return files


def _found_in(module, folder: Path) -> bool:
    """Was this top-level module found directly in `folder` (folder/name.py,
    folder/name/ as a package)?"""
    spec = getattr(module, "__spec__", None)
    if spec is None:
        return False
    places = list(spec.submodule_search_locations or [])  # a package: its folder(s)
    if not places and spec.origin and spec.has_location:
        places = [str(Path(spec.origin).parent)]
    elif places:
        places = [str(Path(p).parent) for p in places]
    return any(_same(Path(p), folder) for p in places)


def _same(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b
    except OSError:
        return False


def helper_frame(traceback, claim_file) -> str | None:
    """"mylib.py, line 7": where beside the claim file, outside it, an error was
    raised (the innermost such frame), None if nowhere there.  A helper whose
    import failed is gone from sys.modules, so files are judged by their place:
    directly in the claim's folder, or in a package folder there that is not
    otherwise imported (bnproof's own files beside a claim file are not helpers)."""
    claim = Path(claim_file).resolve()
    where = None
    while traceback is not None:
        with contextlib.suppress(OSError, ValueError):
            file = Path(traceback.tb_frame.f_code.co_filename)  # "<frozen importlib...>" is no file
            file = file.resolve() if file.is_absolute() and file.is_file() else None
            inside = file.relative_to(claim.parent).parts if file else ()
            if inside and file != claim and (len(inside) == 1 or inside[0] not in sys.modules):
                where = f"{'/'.join(inside)}, line {traceback.tb_lineno}"
        traceback = traceback.tb_next
    return where
