"""The JAX network layer: BN semantics, losses, and agreement with the exact engine.

Expected values come from the exact engine (bnproof.exact, bnproof.claims.lemma45)
or from the papers (Example 3.2 of Dannemann & Junike), never from the JAX code."""

import functools
from fractions import Fraction

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from bnproof.claims import lemma45
from bnproof.exact.layer import Neuron
from bnproof.exact.linalg import column, to_fraction
from bnproof.instance import instance_from_json
from bnproof.numeric import network as net
from bnproof.numeric import scan as numeric_scan


def one_layer(W0, gamma=1.0, beta=0.0):
    """The Lemma's setting as a network: no hidden layer, BN on the output, identity."""
    W0 = np.asarray(W0, np.float64)
    n, d = W0.shape
    spec = net.Spec((d, n), activation="identity", loss="squared", bn_output=True)
    # γ, β of dtype float64 as net.init makes them (jnp.full(n, 1.0) alone is weakly typed,
    # which is another program to compile than the one `bnproof scan` runs)
    params = ({"W": jnp.asarray(W0), "gamma": jnp.full(n, gamma, jnp.float64),
               "beta": jnp.full(n, beta, jnp.float64)},)
    return spec, params


def exact_instance(X, Y, W0, gamma=1, beta=0):
    return instance_from_json({"X": X, "Y": Y, "W0": W0, "gamma": gamma, "beta": beta,
                               "loss": "mean"})


def floats(rows):
    return np.array([[float(Fraction(x)) for x in row] for row in rows])


# Random small rational instances (m, d, n) with a positive definite XᵀX; fixed seeds.
def random_instance(seed, m, d, n):
    rng = np.random.default_rng(seed)
    X = rng.integers(-4, 5, (m, d)).tolist()
    Y = rng.integers(-6, 7, (m, n)).tolist()
    W0 = rng.integers(1, 4, (n, d)).tolist()
    return X, Y, W0


def random_params(spec, seed):
    """Weights of net.init's structure and dtypes (W; γ = 1, β = 0 on a BN layer, else b = 0)
    drawn by numpy: what the BN tests below need is any weights, and each shape JAX's
    random.normal draws is a program to compile (0.2-0.4 s each; net.init is tested
    below and through the scan)."""
    rng = np.random.default_rng(seed)
    params = []
    for layer in range(spec.depth):
        fan_in, fan_out = spec.sizes[layer], spec.sizes[layer + 1]
        p = {"W": jnp.asarray(rng.standard_normal((fan_out, fan_in)) / np.sqrt(fan_in))}
        if spec.has_bn(layer):
            p |= {"gamma": jnp.ones(fan_out, jnp.float64), "beta": jnp.zeros(fan_out, jnp.float64)}
        else:
            p["b"] = jnp.zeros(fan_out, jnp.float64)
        params.append(p)
    return tuple(params)


def test_bn_layer_output_has_mean_0_and_variance_1():
    # mean 0 and variance 1 hold for any widths, any weights and any batch whose columns
    # are not constant, 16 samples as well as 40
    spec = net.Spec((4, 6, 5, 3), activation="identity", loss="squared")
    params = random_params(spec, 1)
    X = jnp.asarray(np.random.default_rng(2).standard_normal((16, 4)))
    H = net.input_of(params, spec, 2, X)  # the output of BN layer 2 (identity activation)
    np.testing.assert_allclose(np.mean(H, axis=0), 0.0, atol=1e-13)
    np.testing.assert_allclose(np.mean(np.asarray(H) ** 2, axis=0), 1.0, rtol=1e-12)


@pytest.mark.parametrize("activation", ["identity", "relu", "leaky-relu", "tanh"])
@pytest.mark.parametrize("loss", ["squared", "xent"])
def test_bn_loss_is_invariant_to_a_positive_scale_of_each_unit(activation, loss):
    spec = net.Spec((4, 6, 5, 3), activation=activation, loss=loss)
    params = random_params(spec, 3)
    X = jnp.asarray(np.random.default_rng(4).standard_normal((16, 4)))
    Y = jax.nn.one_hot(jnp.arange(16) % 3, 3)
    base = net.loss(params, spec, X, Y)
    scale = jnp.array([0.5, 3.0, 1.0, 7.0, 0.1, 2.0])[:, None]
    scaled = (params[0] | {"W": params[0]["W"] * scale},) + params[1:]
    assert float(net.loss(scaled, spec, X, Y)) == pytest.approx(float(base), rel=1e-12)
    # Without BN in layer 1 (the "standard network") the scale matters.
    assert float(net.loss(scaled, spec, X, Y, plain=0)) != pytest.approx(
        float(net.loss(params, spec, X, Y, plain=0)), rel=1e-6)


def test_losses_by_hand():
    spec_sq = net.Spec((2, 2), activation="identity", loss="squared")
    spec_xe = net.Spec((2, 3), activation="identity", loss="xent")
    out = jnp.array([[1.0, 2.0], [0.0, -1.0]])
    Y = jnp.array([[0.0, 2.0], [1.0, 1.0]])
    assert float(net.loss_of(out, Y, spec_sq)) == (1 + 0 + 1 + 4) / 2
    logits = jnp.zeros((4, 3))
    assert float(net.loss_of(logits, jax.nn.one_hot(jnp.arange(4) % 3, 3), spec_xe)) == \
        pytest.approx(np.log(3.0), rel=1e-15)


def test_float32_is_kept_and_learned_affine_adds_gamma_beta():
    spec = net.Spec((3, 4, 2), dtype="float32", affine="learned")
    params = net.init(jax.random.key(0), spec)
    assert all(leaf.dtype == jnp.float32 for leaf in jax.tree_util.tree_leaves(params))
    # any float32 batch: drawn by numpy, as each shape JAX draws is a program to compile
    X = jnp.asarray(np.random.default_rng(1).standard_normal((8, 3)), jnp.float32)
    assert net.loss(params, spec, X, jnp.zeros((8, 2), jnp.float32)).dtype == jnp.float32
    assert set(net.layer_variables(params, spec, 0, bn=True)) == {"W", "gamma", "beta"}
    assert set(net.layer_variables(params, spec, 0, bn=False)) == {"W"}
    # γ, β fixed: only W moves, though the layer has γ and β (these very params, which
    # net.init makes alike for both readings; a float64 init compiled two more draws)
    fixed = net.Spec((3, 4, 2))
    assert {"gamma", "beta"} <= set(params[0])
    assert set(net.layer_variables(params, fixed, 0, True)) == {"W"}


@pytest.mark.parametrize("point", [(1, 3), (2, -1), (Fraction(35, 17), Fraction(21, 17))])
def test_gradients_agree_with_the_exact_engine_on_example_3_2(point):
    instance = exact_instance([[1, 1], [1, 2], [2, 3]], [[2], [5], [13]], [[1, 3]])
    neuron = Neuron.of(instance, 0)
    w = column(list(point))
    spec, params = one_layer([[float(x) for x in point]])
    X = floats(instance.X)
    Y = floats(instance.Y)
    variables = {"W": params[0]["W"]}
    grad_bn, grad_std, bn_loss = _example_3_2_derivatives(spec)(variables, params, X, Y)
    np.testing.assert_allclose(grad_bn["W"][0], neuron.bn_grad(w).to_floats(), rtol=1e-12, atol=1e-14)
    exact_std = [float(Fraction(str(x))) for x in neuron.grad(w).entries()]
    np.testing.assert_allclose(grad_std["W"][0], exact_std, rtol=1e-13, atol=1e-13)
    assert float(bn_loss) == pytest.approx(float(neuron.bn_loss(w)), rel=1e-13)


@functools.lru_cache(maxsize=None)
def _example_3_2_derivatives(spec):
    """∇Ĉ, ∇C and Ĉ by jax.grad as one compiled program, shared by the three points (op by
    op, the first point compiled some 50 primitives, 1 s of CPU; the scan runs them
    compiled too)."""
    def derivatives(variables, params, X, Y):
        return (jax.grad(net.layer_loss)(variables, params, spec, 0, X, Y, True),
                jax.grad(net.layer_loss)(variables, params, spec, 0, X, Y, False),
                net.layer_loss(variables, params, spec, 0, X, Y, True))

    return jax.jit(derivatives)


def test_scan_reproduces_example_3_2():
    """W0 = W* = (1, 3): LHS 72/17, RHS 0, ∇Ĉ(W*) = (−54√74, 18√74)/1369 (sums) — /3 for means."""
    spec, params = one_layer([[1.0, 3.0]])
    X = np.array([[1, 1], [1, 2], [2, 3]], float)
    Y = np.array([[2], [5], [13]], float)
    report = numeric_scan.scan(params, spec, X, Y, tol=1e-10, max_steps=500)[0]
    assert report.standard.converged and report.bn.converged
    assert report.lhs[0] == pytest.approx(72 / 17, rel=1e-10)
    assert report.rhs[0] == pytest.approx(0, abs=1e-10)
    assert report.residual[0] == pytest.approx(-72 / 17, rel=1e-10)
    assert report.verdict == numeric_scan.FAILS
    exact_grad = np.sqrt(74) / 1369 * np.hypot(54, 18) / 3
    assert report.grad_norm_at_kw == pytest.approx(exact_grad, rel=1e-10)


# Two shapes, so two compilations of the minimizers (one per shape, whatever the data):
# (6, 3, 1) is test_scan's one-layer instance too; the three of shape (4, 3, 2) cover two
# neurons with the hypothesis met in both, in one only (seed 30), and in both again.
@pytest.mark.parametrize("seed,m,d,n", [(2, 6, 3, 1), (4, 4, 3, 2), (11, 4, 3, 2), (30, 4, 3, 2)])
def test_scan_optima_and_residual_agree_with_the_exact_engine(seed, m, d, n):
    X, Y, W0 = random_instance(seed, m, d, n)
    report = lemma45.analyse(exact_instance(X, Y, W0))
    spec, params = one_layer(W0)
    got = numeric_scan.scan(params, spec, np.array(X, float), np.array(Y, float),
                            tol=1e-8, max_steps=2000)[0]
    assert got.standard.converged and got.bn.converged
    assert got.kernel_dim == 0
    for j, nr in enumerate(report.neurons):
        np.testing.assert_allclose(got.w_star[j], exact_vector(nr.standard.w), rtol=1e-7, atol=1e-8)
        b = exact_vector(nr.bn.direction)  # the BN optima: the open ray t·b, t > 0
        direction = got.w_hat[j] / np.linalg.norm(got.w_hat[j])
        np.testing.assert_allclose(direction, b / np.linalg.norm(b), atol=1e-7)
        assert got.lhs[j] == pytest.approx(float(to_fraction(nr.lhs)), rel=1e-7, abs=1e-8)
        if nr.inner > 0:
            assert got.residual[j] == pytest.approx(float(to_fraction(nr.residual)), rel=1e-7, abs=1e-8)
        else:
            assert np.isnan(got.residual[j])


def exact_vector(v):
    return np.array([float(to_fraction(x)) for x in v.entries()])


def test_float32_matrix_products_keep_every_bit_on_every_backend():
    """1 + 2⁻²⁰ needs 20 mantissa bits: float32 holds it (and its square, 1 + 2⁻¹⁹ once
    rounded); TF32 (NVIDIA's default for float32 matrix products from Ampere on) rounds it
    to 1.  The float32 study's and scan's margins assume float32's epsilon, so bnproof asks
    JAX for full precision.
    On CPU this holds anyway; on a GPU it fails if that setting is lost."""
    from bnproof.numeric.lemma45_batch import jax_kernel

    jax_kernel()  # configures JAX the way the study does
    assert jax.config.jax_default_matmul_precision == "highest"
    a = jnp.full((4, 4), 1 + 2.0**-20, jnp.float32)
    product = np.asarray(jax.jit(lambda a: a @ a.T)(a))
    assert product.dtype == np.float32 and (product == np.float32(4 + 2.0**-17)).all(), product[0, 0]
    # and through the network layer, as `bnproof scan --dtype float32` runs it
    spec = net.Spec((4, 4), activation="identity", loss="squared", bn_output=False, dtype="float32")
    params = ({"W": a, "b": jnp.zeros(4, jnp.float32)},)
    Z = np.asarray(jax.jit(lambda p, X: net.forward(p, spec, X))(params, a))
    assert (Z == np.float32(4 + 2.0**-17)).all(), Z[0, 0]
