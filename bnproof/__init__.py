"""bnproof: check claims about batch normalization exactly, independently and at scale.

The Python API (docs/api.md): each command of the command line is a function
returning a result object.  Importing bnproof is cheap: JAX, SymPy and
Hypothesis are imported only when a function needs them."""

__version__ = "0.1.0"

# Names resolve on first use (PEP 562), so that `import bnproof.checker`, the
# independent kernel, loads no other part of bnproof, and `import bnproof` stays cheap.
_EXPORTS = {
    "check": "._api.check", "load": "._api.claims", "fuzz": "._api.fuzz", "latex": "._api.latex",
    "prove": "._api.prove", "ProveResult": "._api.prove",
    "CheckResult": "._api.results", "FuzzResult": "._api.results", "VerifyResult": "._api.results",
    "verify": "._api.verify", "Claim": ".claims.api", "Var": ".claims.api", "BnproofError": ".errors",
}


def __getattr__(name):
    if name in _EXPORTS:
        import importlib

        value = getattr(importlib.import_module(_EXPORTS[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'bnproof' has no attribute {name!r}")


def __dir__():
    return sorted([*globals(), *_EXPORTS])


__all__ = ["BnproofError", "CheckResult", "Claim", "FuzzResult", "ProveResult", "Var", "VerifyResult",
           "check", "fuzz", "latex", "load", "prove", "verify"]
