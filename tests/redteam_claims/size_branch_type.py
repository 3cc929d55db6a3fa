"""As size_branch_isinstance.py with type(n) is int, which no traced value can refuse
(type() asks nothing of it): a branch on d >= 5 (every-d) and on m >= 8 (every m) hides
beyond the sizes the second reading compares at (d <= 4; m = 2, 3, 4, 5, 7), where
both readings are 0.  Each claim is false (Σw² at d = 5, 6; Σy² at m = 8, 9) and fuzz
refutes it with an accepted certificate.  prove said "proved" until the second reading
compared at every declared size too (crosscheck.py): now a disagreement, exit 7."""
from bnproof.claims import Claim, Var


def large(n, k):
    return type(n) is int and n >= k


EVERY_D = Claim(id="redteam/size-branch-type-d", source="red team", kind="identity", statement="0 = 0",
                variables=(Var("X", ("m", "d")), Var("w", ("d",))), sizes={"m": (2, 3), "d": (1, 6)},
                residual=lambda xp, X, w: xp.sum(w * w) * (1 if large(X.shape[1], 5) else 0))

EVERY_M = Claim(id="redteam/size-branch-type-m", source="red team", kind="identity", statement="0 = 0",
                variables=(Var("y", ("m",)),), sizes={"m": (2, 9)},
                residual=lambda xp, y: xp.sum(y * y) * (1 if large(y.shape[0], 8) else 0))
