"""Run a batched function with its batch split across every local JAX device.

``sharded(fn)`` jits ``fn`` (whose arguments and results all carry the batch
on their leading axis) with the batch axis laid out over a one-axis Mesh of
all this process's devices (NamedSharding, PartitionSpec("batch")); XLA then
runs each device's slice of the batch on that device.  Under --distributed
(numeric/distributed.py) the processes share work units, not one jitted call:
each process's calls stay on its own devices (jax.local_devices(), which on a
single host are jax.devices()), so a call never waits on another host.
The batch is padded to a multiple of the device count by repeating its last
instance (a valid instance, so the padding computes nothing strange) and the
padding is cut off the results.  With one device this is plain ``jax.jit``:
same program, same numbers.
"""

from __future__ import annotations

from typing import Callable

import jax
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec


def batch_sharding(devices=None) -> NamedSharding:
    devices = list(devices or jax.local_devices())
    return NamedSharding(Mesh(np.array(devices), ("batch",)), PartitionSpec("batch"))


def _pad(x, extra: int):
    if extra == 0:
        return x
    x = np.asarray(x)
    return np.concatenate([x, np.repeat(x[-1:], extra, axis=0)])


def sharded(fn: Callable, devices=None) -> Callable:
    sharding = batch_sharding(devices)
    count = sharding.mesh.size
    jitted = jax.jit(fn, in_shardings=sharding, out_shardings=sharding)

    def call(*args):
        leaves = jax.tree_util.tree_leaves(args)
        n = np.shape(leaves[0])[0]
        extra = -n % count
        args = jax.tree_util.tree_map(lambda x: jax.device_put(_pad(x, extra), sharding), args)
        out = jitted(*args)
        return out if extra == 0 else jax.tree_util.tree_map(lambda x: x[:n], out)

    call.devices = count
    call.jitted = jitted  # its _cache_size() counts the programs compiled
    return call
