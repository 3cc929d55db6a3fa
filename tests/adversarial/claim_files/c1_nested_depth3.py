"""Class 1, TRUE, three nested gradients: b·∂/∂b(a·∂/∂a(Σ g∘∇_y f)) = 6·Σ g∘∇_y f
for f = a²·b³·Σ y³ (Euler's relation for a homogeneous function, once per variable)."""
from bnproof.claims import Claim, Var


def _directional(xp, y, g, a, b):
    return xp.sum(g * xp.grad(lambda t: a * a * b * b * b * xp.sum(t * t * t), y))


def _euler_a(xp, y, g, a, b):
    return a * xp.grad(lambda A: _directional(xp, y, g, A, b), a)


def _residual(xp, y, g, a, b):
    return b * xp.grad(lambda B: _euler_a(xp, y, g, a, B), b) - 6 * _directional(xp, y, g, a, b)


CLAIM = Claim(id="adv/nested-grad-depth3", source="adversarial test", statement="x", kind="identity",
              variables=(Var("y", ("m",)), Var("g", ("m",)), Var("a", ()), Var("b", ())),
              sizes={"m": (2, 3)}, residual=_residual)
