"""--distributed and its three settings, shared by `study` and `fuzz`."""

from __future__ import annotations

import typer

from ..errors import BadInput

DISTRIBUTED = typer.Option(
    False, "--distributed", help="One of several processes (hosts) on JAX's multi-process runtime: each "
    "takes its share of the work; process 0 alone prints and writes, and every process exits with the "
    "run's exit code.  The same seed gives the same result whatever the number of processes.")
COORDINATOR = typer.Option(None, "--coordinator", metavar="HOST:PORT",
                           help="With --distributed: process 0's address (default: $JAX_COORDINATOR_ADDRESS).")
NUM_PROCESSES = typer.Option(None, "--num-processes", min=1,
                             help="With --distributed: how many processes (default: $JAX_NUM_PROCESSES).")
PROCESS_ID = typer.Option(None, "--process-id", min=0,
                          help="With --distributed: this process's index, 0 to N−1 (default: $JAX_PROCESS_ID).")


def cluster(distributed: bool, coordinator, count, index):
    """The single process, or this process of a cluster once every process has joined."""
    from ..numeric import distributed as runtime

    if not distributed:
        if coordinator is not None or count is not None or index is not None:
            raise BadInput("--coordinator, --num-processes and --process-id go with --distributed")
        return runtime.SINGLE
    return runtime.join(runtime.settings(coordinator, count, index))
