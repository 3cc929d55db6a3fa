"""A proof certificate's steps that have a condition of their own are read by its statement
(docs/certificates.md, "Proof certificates"): by the residual, a hypothesis or an
equality, directly or through later steps.

A proof assumes "every step defined" (every divisor != 0, every radicand >= 0, every
differentiated square root > 0), and the methods read facts off those steps (a divisor
is nonzero, a case in which a step divides by 0 is vacuous), so a conditioned step that
nothing reads would be a hypothesis the statement does not show: an unread
y_hat = (y - mu) / sigma made sigma > 0 count as proved.  Such a certificate is rejected,
rather than the step ignored, so that no method's reading of the steps needs to know
which are read (the existential and witness certificates, and the claims' tracer, ask
definedness of this same cone).  An unread step without a condition (a sum, a product, a
constant) is defined wherever its operands are, so it assumes nothing and is left alone.
Standard library only."""

from .parse import Rejected


def require_read(operands: list, outputs, conditioned, where: str = "program.steps") -> None:
    """operands: for each step, the earlier steps it reads (already validated); outputs:
    the steps the statement names; conditioned(k): whether step k divides, takes a root,
    raises to a negative power or differentiates.  Rejects the first conditioned step
    that none of the outputs reads."""
    read = [False] * len(operands)
    for k in outputs:
        read[k] = True
    for k in range(len(operands) - 1, -1, -1):
        if read[k]:
            for j in operands[k]:
                read[j] = True
    for k, ok in enumerate(read):
        if not ok and conditioned(k):
            raise Rejected(f"{where}[{k}]: read by neither the residual nor a hypothesis, yet it "
                           "has a condition that \"every step defined\" would assume (a hidden "
                           "hypothesis)")
