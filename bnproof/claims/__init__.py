"""Claims from the literature and from users: the format, and the papers' claims."""

# Resolved on first use (PEP 562): `from bnproof.claims import lemma45` (verify's exact route)
# then loads neither the claim format nor inspect/typing/ast, a sixth of a cold verify's imports.
_EXPORTS = {"Claim": ".api", "Var": ".api", "Law": ".law", "hypothesis": ".naming"}
__all__ = list(_EXPORTS)


def __getattr__(name: str):
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(_EXPORTS[name], __name__), name)
    globals()[name] = value
    return value
