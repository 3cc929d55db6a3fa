"""Proofs for every batch size m: a claim's residual traced at a symbolic length m
(trace.py), normalised in an algebra of batch sums and roots (algebra.py), and
proved ≡ 0 or manifestly ≥ 0 (prove.py).  The program and certificate format is
shared with the independent checker (docs/claims.md, "Proofs for every m")."""
