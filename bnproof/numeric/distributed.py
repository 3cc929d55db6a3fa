"""Several processes, one result: `--distributed` on JAX's multi-process runtime.

Each process of a campaign is started with the same command and told the
coordinator's address, the number of processes and its own index, by flags or
by the environment variables JAX uses (JAX_COORDINATOR_ADDRESS,
JAX_NUM_PROCESSES, JAX_PROCESS_ID).  ``join`` hands them to
``jax.distributed.initialize``; each process then takes its share of a list of
work units (``Cluster.mine``: every count-th unit, starting at its index) and
``gather`` brings every process's results to all of them through JAX's own
collective (``multihost_utils.process_allgather``), in process order.

Results travel as JSON text (never pickle: what another process sends is data,
not code); Python writes floats with repr, so a float comes back bit for bit.
Work units are fixed by the seed, not by the process count, and results are
merged in unit order, so the same seed gives the same result whatever the
number of processes.  Without --distributed, ``SINGLE`` stands for the one
process: it owns every unit, and gathering is the identity.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from dataclasses import dataclass

from ..errors import BadInput

ADDRESS, COUNT, INDEX = "JAX_COORDINATOR_ADDRESS", "JAX_NUM_PROCESSES", "JAX_PROCESS_ID"
MAX_PROCESSES = 4096


@dataclass(frozen=True)
class Cluster:
    count: int = 1
    index: int = 0
    coordinator: str | None = None

    @property
    def leader(self) -> bool:
        """Process 0: the only one that prints and writes."""
        return self.index == 0

    @property
    def distributed(self) -> bool:
        return self.coordinator is not None

    def mine(self, units: list) -> list:
        return units[self.index::self.count]

    def gather(self, value) -> list:
        """Every process's `value` (JSON-serialisable), in process order, on every process."""
        if not self.distributed:
            return [value]
        return _allgather_json(value)


SINGLE = Cluster()


def settings(coordinator: str | None, count: int | None, index: int | None,
             environ=os.environ) -> Cluster:
    """The cluster the flags describe, the environment filling what they leave out;
    bad input (exit 3) when something is missing or out of range, before any work."""
    coordinator = coordinator or environ.get(ADDRESS) or None
    count = count if count is not None else _integer(environ.get(COUNT), COUNT)
    index = index if index is not None else _integer(environ.get(INDEX), INDEX)
    missing = [name for name, value in ((f"--coordinator or {ADDRESS}", coordinator),
                                        (f"--num-processes or {COUNT}", count),
                                        (f"--process-id or {INDEX}", index)) if value is None]
    if missing:
        raise BadInput("--distributed needs the coordinator's address, the number of processes and "
                       f"this process's index: missing {', '.join(missing)}")
    if ":" not in coordinator or not coordinator.rpartition(":")[2].isdigit():
        raise BadInput(f"the coordinator's address is HOST:PORT, e.g. 10.0.0.1:1234; got {coordinator!r}")
    if not 1 <= count <= MAX_PROCESSES:
        raise BadInput(f"the number of processes must lie in 1…{MAX_PROCESSES}; got {count}")
    if not 0 <= index < count:
        raise BadInput(f"the process index must lie in 0…{count - 1}; got {index}")
    return Cluster(count, index, coordinator)


def _integer(text: str | None, name: str) -> int | None:
    if text is None or text == "":
        return None
    if not text.strip().isdigit():
        raise BadInput(f"{name} must be a non-negative integer; got {text!r}")
    return int(text)


def join(cluster: Cluster) -> Cluster:
    """Connect to the coordinator (process 0 runs it); returns once every process has."""
    if cluster.distributed:
        import jax

        # Gloo, JAX's CPU collective, announces its connection on file descriptor 1,
        # which would corrupt --json: the handshake (and that line) goes to stderr
        with _stdout_to_stderr():
            jax.distributed.initialize(cluster.coordinator, cluster.count, cluster.index)
            _allgather_json(None)
    return cluster


@contextlib.contextmanager
def _stdout_to_stderr():
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        os.dup2(2, 1)
        yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)


def _allgather_json(value) -> list:
    import jax
    import numpy as np
    from jax.experimental import multihost_utils

    data = np.frombuffer(json.dumps(value, separators=(",", ":")).encode(), np.uint8)
    # the collective wants one shape everywhere: lengths first, then padded bytes
    lengths = np.asarray(multihost_utils.process_allgather(np.array([data.size], np.int32))).reshape(-1)
    padded = np.zeros(int(lengths.max()), np.uint8)
    padded[:data.size] = data
    every = np.asarray(multihost_utils.process_allgather(padded)).reshape(jax.process_count(), -1)
    return [json.loads(bytes(row[:n]).decode()) for row, n in zip(every, lengths.tolist())]
