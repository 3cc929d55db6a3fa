"""bnproof's side of bench/residual_scaling.py, as a script of its own like
bench/flint_route.py, so that each child process loads only its route (the
bench harness's own modules would add ~3 MiB to bnproof's peak memory).

Run: python bench/bnproof_route.py DATA.json   (prints one JSON object, the
keys of flint_route.py's plus the reading time and the second-order verdict)"""

import json
import resource
import sys
import time

from bnproof.claims import lemma45
from bnproof.instance import load_instance


def main():
    start = time.perf_counter()
    instance = load_instance(sys.argv[1])
    read = time.perf_counter()
    neuron = lemma45.analyse(instance).neurons[0]
    end = time.perf_counter()
    grad = neuron.grad_bn_at_w_star
    assert all(x == 0 for x in grad.a.entries())  # odd powers of 1/σ only
    print(json.dumps({
        "residual": str(neuron.residual), "inner": str(neuron.inner),
        "grad_root_part": [str(x) for x in grad.b.entries()], "radicand": str(grad.r),
        "second_order_ok": neuron.bn.second_order_ok and neuron.standard.is_unique_minimum,
        "seconds": end - start, "read_seconds": read - start,
        "peak_rss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}))


if __name__ == "__main__":
    main()
