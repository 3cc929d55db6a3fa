"""str(d) == "5": numpy and every reading print the number, the every-d tracer printed
its object's default text (no refusal): a branch at d = 5, beyond the (m, d) the second
reading compares at (d <= 4), proved "for every m and every d", false at d = 5 (Σw²),
refuted by fuzz.  The every-m tracer already refused the text of m."""
from bnproof.claims import Claim, Var

STR = Claim(id="redteam/size-branch-text", source="red team", kind="identity", statement="0 = 0",
            variables=(Var("X", ("m", "d")), Var("w", ("d",))), sizes={"m": (2, 3), "d": (1, 6)},
            residual=lambda xp, X, w: xp.sum(w * w) * (1 if str(X.shape[1]) == "5" else 0))

FORMAT = Claim(id="redteam/size-branch-format", source="red team", kind="identity", statement="0 = 0",
               variables=(Var("X", ("m", "d")), Var("w", ("d",))), sizes={"m": (2, 3), "d": (1, 6)},
               residual=lambda xp, X, w: xp.sum(w * w) * (1 if f"{X.shape[1]}" in ("5", "6") else 0))
