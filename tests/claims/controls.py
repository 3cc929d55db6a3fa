"""Negative controls: true statements the fuzzer must never refute."""

from bnproof.claims import Claim, Var
from bnproof.claims.blocks import batch_norm, normalize, stats


def _variance(xp, y, gamma, beta):
    return stats(xp, y)[1] ** 2


MEAN_IS_BETA = Claim(
    id="controls/bn-mean", source="definition of BN", statement=r"\frac{1}{m}\sum_b z_b = \beta",
    kind="identity", variables=(Var("y", ("m",)), Var("gamma", ()), Var("beta", ())),
    sizes={"m": (2, 5)}, hypotheses=(_variance,),
    residual=lambda xp, y, gamma, beta: xp.mean(batch_norm(xp, y, gamma, beta)) - beta,
)
UNIT_VARIANCE = Claim(
    id="controls/bn-unit-variance", source="definition of BN",
    statement=r"\frac{1}{m}\sum_b \hat{y}_b^2 = 1", kind="identity",
    variables=(Var("y", ("m",)), Var("gamma", ()), Var("beta", ())), sizes={"m": (2, 5)},
    hypotheses=(_variance,),
    residual=lambda xp, y, gamma, beta: xp.mean(normalize(xp, y)[0] ** 2) - 1,
)
CAUCHY_SCHWARZ = Claim(
    id="controls/cauchy-schwarz", source="Cauchy–Schwarz", statement=r"\langle u,v\rangle^2\le\|u\|^2\|v\|^2",
    variables=(Var("u", ("m",)), Var("v", ("m",))), sizes={"m": (1, 4)},
    residual=lambda xp, u, v: xp.sum(u * u) * xp.sum(v * v) - xp.sum(u * v) ** 2,
)
