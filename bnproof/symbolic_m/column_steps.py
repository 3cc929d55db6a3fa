"""The operands of an every-d program's steps (columns.py), by operation: what the
tracer (columns.py) prunes along and the reverse-mode derivatives (columns_grad.py)
walk, below both."""

OPERANDS = {"add": 2, "sub": 2, "mul": 2, "div": 2, "neg": 1, "pow": 1, "sqrt": 1, "sum": 1,
            "dot": 2, "expand": 1, "transpose": 1}
