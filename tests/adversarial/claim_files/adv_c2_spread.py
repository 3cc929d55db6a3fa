"""Helper of c2_try_in_helper.py: the spread Σ|v − μ|, with a fallback that the
symbolic-length tracer reaches because it refuses xp.abs."""


def spread(xp, v):
    try:
        return xp.sum(xp.abs(v - xp.mean(v)))
    except Exception:
        return xp.sum((v - xp.mean(v)) ** 2)
