"""Search for counterexamples: Hypothesis, batched random and gradient-based
search in JAX.  Every numeric hit is only a candidate until exactified."""
