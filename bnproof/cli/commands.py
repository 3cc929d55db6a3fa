"""Every command, imported in the order `bnproof --help` lists them."""

from . import verify, fuzz, listing, check, latex, plot, export, scan, study  # noqa: F401
