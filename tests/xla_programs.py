"""A function compiled as one XLA program, for tests that compare JAX's values with
exact ones: on the CPU with XLA's older emitters, which compile a small program in about
half the time of the fusion emitters (the same operations, a reduction perhaps summed in
another order: far below any tolerance these tests use).  bnproof/reading/floats.py
compiles claims so.  An XLA that no longer knows the option compiles with its defaults."""

OPTIONS = {"xla_cpu_use_fusion_emitters": False}


def compiled(fn, **jit_kwargs):
    import jax

    if jax.default_backend() != "cpu":
        return jax.jit(fn, **jit_kwargs)
    fast = jax.jit(fn, compiler_options=OPTIONS, **jit_kwargs)

    def call(*args, **kwargs):
        try:
            return fast(*args, **kwargs)
        except jax.errors.JaxRuntimeError as err:
            if "No such compile option" not in str(err):
                raise
        return jax.jit(fn, **jit_kwargs)(*args, **kwargs)

    return call
