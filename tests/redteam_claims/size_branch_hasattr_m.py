"""hasattr(m, "__getnewargs__"): an int has it; the every-m tracer's traced m answered
"absent" without recording the question, so a branch on m >= 8 behind it (beyond the
m = 2, 3, 4, 5, 7 the second reading compares at) was "proved for every m", false at
m = 8, 9 (Σy²), refuted by fuzz."""
from bnproof.claims import Claim, Var

CLAIM = Claim(id="redteam/size-branch-hasattr-m", source="red team", kind="identity", statement="0 = 0",
              variables=(Var("y", ("m",)),), sizes={"m": (2, 9)},
              residual=lambda xp, y: xp.sum(y * y) * (1 if hasattr(y.shape[0], "__getnewargs__")
                                                      and y.shape[0] >= 8 else 0))
