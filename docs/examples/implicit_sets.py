"""Sets defined implicitly: hyperplanes, folded hyperplanes, unions, and membership.

Papers on BN networks measure how far a point is from a unit's hyperplane
{x : ⟨w, x⟩ = c}, from its preimage under earlier BN layers (a "folded"
hyperplane: the decision boundary of the network's output), and from unions of
such sets.  ``bnproof.claims.sets`` computes these distances exactly (a small
quadratic program per region, solved in closed form and traced with guarded
candidates), and ``Claim.equalities`` states membership: each equality must be
exactly 0, and the search samples on the set it defines.

* ON_THE_HYPERPLANE (true, exact value 0): for x on the hyperplane (an equality
  hypothesis ⟨w, x⟩ = c), its distance to the hyperplane is 0.
* UNION_IS_CLOSER (true): the distance to the union of two hyperplanes is at most
  the distance to the first.
* FOLDING_CHANGES_NOTHING (false): "the distance to the decision boundary of a
  test-mode BN–ReLU layer {x : Σ_j ReLU(z_j(x)) = 1} equals the distance to the
  unfolded hyperplane {x : Σ_j z_j(x) = 1}".  Where a unit is off, the boundary
  bends, and the fuzzer finds a point that is farther from it.
"""

from bnproof.claims import Claim, Var
from bnproof.claims.blocks import Layer, level_set
from bnproof.claims.sets import distance, hyperplane, hyperplane_distance, union

ON_THE_HYPERPLANE = Claim(
    id="gallery/implicit_sets/distance-on-the-hyperplane-is-zero",
    source="bnproof gallery",
    statement=r"\langle w, x\rangle = c \implies \operatorname{dist}(x, \{y : \langle w, y\rangle = c\}) = 0",
    variables=(Var("w", (2,)), Var("c", ()), Var("x", (2,))),
    hypotheses=(lambda xp, w, c, x: w[0] ** 2 + w[1] ** 2,),  # w ≠ 0: a hyperplane
    equalities=(lambda xp, w, c, x: w[0] * x[0] + w[1] * x[1] - c,),
    residual=lambda xp, w, c, x: -distance(xp, x, hyperplane(xp, w, c)),
    kind="identity",
)

UNION_IS_CLOSER = Claim(
    id="gallery/implicit_sets/union-is-closer",
    source="bnproof gallery",
    statement=r"\operatorname{dist}(x, H_1 \cup H_2) \le \operatorname{dist}(x, H_1)",
    variables=(Var("w1", (2,)), Var("c1", ()), Var("w2", (2,)), Var("c2", ()), Var("x", (2,))),
    hypotheses=(lambda xp, w1, c1, w2, c2, x: w1[0] ** 2 + w1[1] ** 2,),
    residual=lambda xp, w1, c1, w2, c2, x: hyperplane_distance(xp, w1, c1, x)
    - distance(xp, x, union(hyperplane(xp, w1, c1), hyperplane(xp, w2, c2))),
)


def _layer(xp, W1, beta):
    """A test-mode BN layer with μ = 0, σ² = 1, γ = 1: z = W1 x + β."""
    return Layer(W1, gamma=xp.ones(2), beta=beta, mu=xp.zeros(2), var=xp.ones(2))


def _folded_gap(xp, W1, beta, x):
    W2 = xp.asarray([[xp.q(1), xp.q(1)]])
    folded = level_set(xp, [_layer(xp, W1, beta), W2], xp.q(1), "relu")
    unfolded = level_set(xp, [_layer(xp, W1, beta), W2], xp.q(1), "identity")
    return distance(xp, x, unfolded) - distance(xp, x, folded)


FOLDING_CHANGES_NOTHING = Claim(
    id="gallery/implicit_sets/folding-changes-nothing",
    source="bnproof gallery (a false claim)",
    statement=r"\operatorname{dist}(x, f^{-1}(1)) = \operatorname{dist}(x, \{y : \sum_j z_j(y) = 1\})",
    variables=(Var("W1", (2, 2)), Var("beta", (2,)), Var("x", (2,))),
    residual=_folded_gap,
    kind="identity",
)

EXPECTED = {
    ON_THE_HYPERPLANE.id: "survived",
    UNION_IS_CLOSER.id: "survived",
    FOLDING_CHANGES_NOTHING.id: "refuted",
}
