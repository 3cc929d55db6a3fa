"""As size_branch_type.py with `is`, which no object can intercept: `X.shape[1] is FIVE`
is True under numpy and in every reading at d = 5 (CPython's small ints are one object),
False for the tracers' traced sizes.  No isinstance, no type(), no try: the branch hides
at d = 5 (every-d) and m = 8 (every m), beyond the sizes the second reading compares at,
and each claim is false there (Σw², Σy²), refuted by fuzz.  prove said "proved" until the second reading compared at every
declared size too (crosscheck.py): now a disagreement, exit 7."""
from bnproof.claims import Claim, Var

FIVE, EIGHT = 5, 8

EVERY_D = Claim(id="redteam/size-branch-identity-d", source="red team", kind="identity", statement="0 = 0",
                variables=(Var("X", ("m", "d")), Var("w", ("d",))), sizes={"m": (2, 3), "d": (1, 6)},
                residual=lambda xp, X, w: xp.sum(w * w) * (1 if X.shape[1] is FIVE else 0))

EVERY_M = Claim(id="redteam/size-branch-identity-m", source="red team", kind="identity", statement="0 = 0",
                variables=(Var("y", ("m",)),), sizes={"m": (2, 9)},
                residual=lambda xp, y: xp.sum(y * y) * (1 if y.shape[0] is EIGHT else 0))
