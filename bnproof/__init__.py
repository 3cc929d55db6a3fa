"""bnproof: check claims about batch normalization exactly, independently and at scale."""

__version__ = "0.1.0"
