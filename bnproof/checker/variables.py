"""The variables a claim declares, and the instance checked against them: exactly
these names, each value of its declared shape (size names resolved through the
sizes), every entry in its domain.  A value outside its domain is outside the
claim, so no refutation can rest on it."""

import re

from .parse import MAX_DEPTH, MAX_M, Rejected, array, flat, keys, tensor

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,31}")
DOMAINS = ("real", "nonzero", "positive", "symmetric")
MAX_VARIABLES = 1000


def declared(value) -> list[tuple[str, list, str]]:
    """claim.variables: [{"name", "shape", "domain"}, ...] as (name, shape, domain)."""
    out = []
    for i, var in enumerate(array(value, "claim.variables", MAX_VARIABLES)):
        path = f"claim.variables[{i}]"
        keys(var, path, {"name", "shape", "domain"})
        name, shape, domain = var["name"], var["shape"], var["domain"]
        if type(name) is not str or not NAME.fullmatch(name):
            raise Rejected(f"{path}.name: not a variable name")
        if name in (v[0] for v in out):
            raise Rejected(f"{path}.name: {name} is declared twice")
        for s in array(shape, path + ".shape", MAX_DEPTH):
            if not (type(s) is str and NAME.fullmatch(s) or type(s) is int and 1 <= s <= MAX_M):
                raise Rejected(f"{path}.shape: each entry is a size name or an integer from 1 to {MAX_M}")
        if domain not in DOMAINS:
            raise Rejected(f"{path}.domain: must be one of {', '.join(DOMAINS)}")
        if domain == "symmetric" and (len(shape) != 2 or shape[0] != shape[1]):
            raise Rejected(f"{path}: a symmetric variable needs a square shape")
        out.append((name, shape, domain))
    return out


def size_names(variables) -> set:
    return {s for _, shape, _ in variables for s in shape if type(s) is str}


def stated_sizes(value, variables) -> dict:
    """The document's "sizes": exactly the size names the shapes use, each 1 to MAX_M."""
    sizes = keys(value, "sizes", size_names(variables))
    for name, n in sizes.items():
        if type(n) is not int or not 1 <= n <= MAX_M:
            raise Rejected(f"sizes.{name}: expected an integer from 1 to {MAX_M}")
    return sizes


def _fit(value, shape, sizes, path):
    """value has this shape; a size name not yet in sizes takes its first length."""
    if not shape:
        if type(value) is list:
            raise Rejected(f"{path}: expected a number, got a list")
        return
    if type(value) is not list or not 1 <= len(value) <= MAX_M:
        raise Rejected(f"{path}: expected a list of 1 to {MAX_M} entries ({shape[0]})")
    n = sizes.setdefault(shape[0], len(value)) if type(shape[0]) is str else shape[0]
    if len(value) != n:
        raise Rejected(f"{path}: {len(value)} entries, but {shape[0]} = {n}")
    if len(shape) == 1 and list not in map(type, value):
        return  # a row of numbers: the loop below would pass each without a word
    for i, x in enumerate(value):
        _fit(x, shape[1:], sizes, f"{path}[{i}]")


def bind(variables, instance, sizes: dict | None = None) -> dict:
    """The instance's values (Fractions, nested lists) after checking names, shapes and
    domains; without sizes, each size is taken from the first value that uses it."""
    values = {}
    keys(instance, "instance", {name for name, _, _ in variables})
    sizes = {} if sizes is None else dict(sizes)
    for name, shape, domain in variables:
        path = "instance." + name
        _fit(instance[name], shape, sizes, path)
        value = tensor(instance[name], path)
        bad = next((x for x in flat(value) if x <= 0), None) if domain == "positive" else \
            next((x for x in flat(value) if x == 0), None) if domain == "nonzero" else None
        if bad is not None:
            raise Rejected(f"outside the claim's domain: an entry of {name} is {bad}, not {domain}")
        if domain == "symmetric" and any(value[i][j] != value[j][i] for i in range(len(value))
                                         for j in range(i)):
            raise Rejected(f"outside the claim's domain: {name} is not symmetric")
        values[name] = value
    return values
