"""The Python API behind `bnproof.fuzz`, `verify`, `check` and `latex` (docs/api.md).

Each module imports the engine (SymPy, JAX, Hypothesis, python-flint) inside
its functions, so that `import bnproof` stays cheap."""
