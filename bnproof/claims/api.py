"""The claim format: what a claim is, and how claim files are found and loaded.

A claim file is a Python file that defines one or more ``Claim`` objects at
module level (see docs/claims.md).  It is the user's own code, run like a
test file; data files and certificates, by contrast, are never executed.
"""

from __future__ import annotations

import importlib.util
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..errors import BadInput
from .helper_modules import helper_frame, importable_beside
from .law import expand_laws
from .suggest import names_of, unknown_claim
from .variables import Var


@dataclass(frozen=True)
class Claim:
    """One statement: residual(xp, **values) ≥ 0 exactly when it holds on an
    instance (== 0 for identities); each hypothesis(xp, **values) > 0."""

    id: str
    source: str
    statement: str  # LaTeX, as printed
    residual: Callable
    variables: tuple[Var, ...]
    sizes: dict = field(default_factory=dict)  # size name -> (smallest, largest) searched
    kind: str = "inequality"  # or "identity"
    strict: bool = False  # an inequality printed with <: the residual must be > 0
    hypotheses: tuple[Callable, ...] = ()
    # each value (every entry) must be EXACTLY 0 on an instance; the search samples on the set
    equalities: tuple[Callable, ...] = ()
    exists: tuple[Var, ...] = ()  # existential variables (docs/claims.md, "Existential variables")
    # functions of (xp, **universal variables) proposing a witness; confirmed like any other
    hints: tuple[Callable, ...] = ()
    aliases: tuple[str, ...] = ()
    title: str = ""
    reading: str = ""  # how ambiguous notation is read
    # variable name -> its LaTeX in the statement ({"g": r"\nabla_{y_j} L"}), for documents
    symbols: dict = field(default_factory=dict)
    # LaTeX name -> function(xp, **variables): LHS, RHS, mu, ... shown in a refutation document
    quantities: dict = field(default_factory=dict)
    exact_sizes: dict | None = None  # identities: sizes at which to prove ≡ 0 with symbols
    path: str | None = None  # the file it came from

    def __post_init__(self):
        if self.kind not in ("inequality", "identity"):
            raise ValueError(f"claim {self.id}: kind must be 'inequality' or 'identity'")
        expand_laws(self)  # a Law becomes two ordinary variables (claims/law.py)
        names = [v.name for v in self.variables]
        if len(set(names)) != len(names):
            raise ValueError(f"claim {self.id}: variable names repeat")
        for v in self.variables:
            for s in v.shape:
                if not isinstance(s, int) and s not in self.sizes:
                    raise ValueError(f"claim {self.id}: size {s!r} of {v.name} has no range in sizes")
        self._check_exists(names)
        self._check_symbols(names)

    def _check_symbols(self, names: list) -> None:
        known = set(names) | {v.name for v in self.exists if isinstance(v, Var)}
        for name, latex in dict(self.symbols).items():
            if name not in known:
                raise ValueError(f"claim {self.id}: symbols names {name!r}, which is not a variable")
            if not isinstance(latex, str) or not latex.strip():
                raise ValueError(f"claim {self.id}: the symbol of {name} must be non-empty LaTeX")
        for name, function in dict(self.quantities).items():
            if not isinstance(name, str) or not name.strip() or not callable(function):
                raise ValueError(f"claim {self.id}: quantities maps LaTeX names to functions "
                                 "of (xp, **variables)")

    def _check_exists(self, names: list) -> None:
        if self.hints and not self.exists:
            raise ValueError(f"claim {self.id}: hints propose values of existential variables, and it has none")
        if not all(callable(h) for h in self.hints):
            raise ValueError(f"claim {self.id}: each hint is a function of (xp, **universal variables)")
        # a witness is any real point: a domain would turn Farkas' lemma into strict cases
        for v in self.exists:
            if not isinstance(v, Var) or v.domain != "real":
                raise ValueError(f"claim {self.id}: an existential variable is a Var with domain 'real'")
            if v.name in names:
                raise ValueError(f"claim {self.id}: variable name {v.name!r} is both universal and existential")
            names.append(v.name)
            for s in v.shape:
                if not isinstance(s, int) and s not in self.sizes:
                    raise ValueError(f"claim {self.id}: size {s!r} of {v.name} has no range in sizes")

    def shape_of(self, var: Var, sizes: dict) -> tuple[int, ...]:
        return tuple(s if isinstance(s, int) else sizes[s] for s in var.shape)

    def holds(self, sign: int) -> bool:
        if self.kind == "identity":
            return sign == 0
        return sign > 0 if self.strict else sign >= 0


def proofs_root() -> Path:
    """proofs/ beside the package (an editable install or a checkout), or $BNPROOF_PROOFS."""
    env = os.environ.get("BNPROOF_PROOFS")
    return Path(env) if env else Path(__file__).resolve().parents[2] / "proofs"


def load_file(path: str | Path) -> list[Claim]:
    path = Path(path)
    if not path.is_file():
        raise BadInput(f"cannot read claim file {path}: "
                       f"{'not a regular file' if path.exists() else 'no such file'}")
    name = "bnproof_claim_" + re.sub(r"\W", "_", str(path.resolve()))
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None:  # Python only loads source files it recognises by their suffix
        raise BadInput(f"cannot read claim file {path}: a claim file is Python source ending in .py")
    module = importlib.util.module_from_spec(spec)
    try:
        with importable_beside(path, vars(module)):  # `from mylib import f` finds mylib.py beside it
            spec.loader.exec_module(module)
    except (BadInput, KeyboardInterrupt):
        raise
    except BaseException as err:  # the user's file failed to define its claims (sys.exit too:
        # exit 0 would read as "survived" or "every certificate accepted", with nothing done)
        places = []
        names = {str(path), os.path.abspath(path), str(path.resolve())}  # Python names it absolute
        tb = err.__traceback__
        while tb is not None:
            if tb.tb_frame.f_code.co_filename in names:
                places[:1] = [f"line {tb.tb_lineno}"]
            tb = tb.tb_next
        helper = helper_frame(err.__traceback__, path)
        if helper:  # raised in a helper module the file imports: say where in it too
            places.append(f"in {helper}")
        where = f" ({', '.join(places)})" if places else ""
        raise BadInput(f"claim file {path}{where}: {type(err).__name__}: {err}") from None
    claims = [c for c in vars(module).values() if isinstance(c, Claim)]
    if not claims:
        raise BadInput(f"claim file {path} defines no Claim at module level")
    return [_with_path(c, path) for c in claims]


def _with_path(claim: Claim, path: Path) -> Claim:
    from dataclasses import replace

    return replace(claim, path=str(path))


def all_claims() -> list[Claim]:
    root = proofs_root()
    claims = []
    for path in sorted(root.glob("*/*.py")):
        claims.extend(load_file(path))
    return claims


def named(name: str) -> Claim | None:
    """The paper claim whose id or one of whose aliases is exactly `name`, else None:
    every command takes the names `bnproof list` shows."""
    return next((c for c in all_claims() if name == c.id or name in c.aliases), None)


def resolve(name: str) -> list[Claim]:
    """A claim file's claims, or the paper claim with this id or alias."""
    if name.endswith(".py") or Path(name).is_file():
        return load_file(name)
    matches = [c for c in all_claims() if name == c.id or name in c.aliases]
    if not matches:
        prefix = [c for c in all_claims() if c.id.startswith(name + "/")
                  or any(a.startswith(name + "/") for a in c.aliases)]
        if prefix:
            return prefix
        raise BadInput(unknown_claim(name, names_of(all_claims())))
    return matches


def only_lemma(name: str, hint: str) -> None:
    """For a command of Lemma 4.5 alone (plot, study): BadInput unless `name` is one of
    its names; another known claim is said to be one, a typo gets the nearest name."""
    paper = named(name)
    lemma = "lemma-4.5"
    if name == lemma or (paper is not None and lemma in paper.aliases):
        return
    if paper is not None:
        raise BadInput(f"{name} is another claim: {hint} only")
    lemmas = [lemma] + [c.id for c in [named(lemma)] if c is not None]
    raise BadInput(unknown_claim(name, lemmas, hint))
