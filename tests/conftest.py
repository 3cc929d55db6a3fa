import os

# JAX in tests: float64, quiet, CPU unless a GPU session says otherwise.
os.environ.setdefault("JAX_ENABLE_X64", "1")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

from hypothesis import HealthCheck, settings  # noqa: E402

# Exact arithmetic has no fixed speed; derandomized so CI runs are repeatable.
settings.register_profile(
    "bnproof", deadline=None, derandomize=True, max_examples=40,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("bnproof")
