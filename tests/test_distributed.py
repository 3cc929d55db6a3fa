"""--distributed: several processes on JAX's multi-process runtime give the
single process's result, bit for bit, and only process 0 reports it.

The end-to-end test starts two CPU processes on this machine with a free
localhost port; the share-and-merge logic is also run in one process with
threads standing in for processes (three of them, whose results cross as
JSON text, as they do between hosts)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from bnproof.cli import main
from bnproof.errors import BadInput, ExitCode
from bnproof.numeric import distributed, study
from bnproof.numeric.distributed import SINGLE, Cluster, settings

ENV = {"JAX_COORDINATOR_ADDRESS": "10.0.0.1:1234", "JAX_NUM_PROCESSES": "4", "JAX_PROCESS_ID": "3"}


def test_settings_come_from_the_environment_and_flags_override_them():
    assert settings(None, None, None, ENV) == Cluster(4, 3, "10.0.0.1:1234")
    assert settings("h:9", 2, 0, ENV) == Cluster(2, 0, "h:9")
    assert settings(None, None, 1, ENV) == Cluster(4, 1, "10.0.0.1:1234")


@pytest.mark.parametrize("flags, environ, message", [
    ((None, None, None), {}, "missing --coordinator or JAX_COORDINATOR_ADDRESS, --num-processes"),
    ((None, None, None), {**ENV, "JAX_PROCESS_ID": ""}, "missing --process-id or JAX_PROCESS_ID"),
    ((None, None, None), {**ENV, "JAX_PROCESS_ID": "4"}, r"index must lie in 0…3; got 4"),
    ((None, None, None), {**ENV, "JAX_NUM_PROCESSES": "-2"}, "non-negative integer"),
    ((None, 0, 0), ENV, "number of processes must lie in 1…"),
    (("localhost", None, None), ENV, "HOST:PORT"),
])
def test_bad_settings_are_bad_input_before_any_work(flags, environ, message):
    with pytest.raises(BadInput, match=message):
        settings(*flags, environ)


@pytest.mark.parametrize("count", [1, 2, 3, 7])
def test_every_unit_belongs_to_exactly_one_process(count):
    units = list(range(20))
    shares = [Cluster(count, i, "h:1").mine(units) for i in range(count)]
    assert sorted(u for share in shares for u in share) == units
    assert max(map(len, shares)) - min(map(len, shares)) <= 1


def test_one_process_owns_everything_and_gathers_only_itself():
    assert SINGLE.mine([1, 2, 3]) == [1, 2, 3] and SINGLE.gather({"a": 1}) == [{"a": 1}]
    assert SINGLE.leader and not SINGLE.distributed
    assert not Cluster(2, 1, "h:1").leader


class ThreadCluster(Cluster):
    """A process of a cluster made of threads: gather crosses a barrier as JSON text."""

    def __init__(self, count, index, board, barrier):
        super().__init__(count, index, "threads:0")
        object.__setattr__(self, "board", board)
        object.__setattr__(self, "barrier", barrier)

    def gather(self, value):
        self.barrier.wait()
        self.board[self.index] = json.dumps(value)
        self.barrier.wait()
        every = [json.loads(self.board[i]) for i in range(self.count)]
        self.barrier.wait()
        return every


def run_on_threads(count, *args):
    board, barrier, results = {}, threading.Barrier(count), [None] * count

    def one(i):
        results[i] = study.run_study(*args, cluster=ThreadCluster(count, i, board, barrier))

    threads = [threading.Thread(target=one, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def as_json(cells):
    return [c.to_json() | {"sampled": [[a.tolist() for a in s] for s in c.sampled]} for c in cells]


def test_study_shares_merge_to_the_single_process_result(monkeypatch):
    # a tiny chunk, so that each cell has many chunks to share out (the last one short)
    monkeypatch.setattr(study, "CHUNK", 6)
    # m < d = 8 is degenerate: no work, in every process; 16 chunks a cell, of one shape
    # (one XLA compilation a cell: a short last chunk is units' business, tested below)
    args = ([3, 5], [2, 8], 96, 11, 4)
    alone = as_json(study.run_study(*args))
    assert sum(c["exact_confirmed"] for c in alone) > 0 and any(c["degenerate"] for c in alone)
    # more confirmations than the first chunk's failures: the sample spans chunks, in chunk order
    first = study.tally_chunk(3, 2, 0, 6, 11, 4, "float64", study.jax_kernel())
    assert first["fails"] < 4 and alone[0]["exact_sample"] == 4
    for result in run_on_threads(3, *args):
        assert as_json(result) == alone


def test_units_cover_the_trials_with_a_short_last_chunk(monkeypatch):
    monkeypatch.setattr(study, "CHUNK", 6)
    # 22 trials: the fewest chunks of at most 6 is 4, drawn at ⌈22/4⌉ = 6 each, the last using 4
    cells = [study.Cell(3, 2, 22), study.Cell(2, 5, 22, "m < d"), study.Cell(4, 1, 22)]
    assert study.units(cells, 22) == [(0, 0, 6), (0, 1, 6), (0, 2, 6), (0, 3, 4),
                                      (2, 0, 6), (2, 1, 6), (2, 2, 6), (2, 3, 4)]
    assert study.share([3, 4], [1, 2], 22, Cluster(3, 1, "h:1")) == 6 + 6 + 4 + 6 + 6
    # 20 trials split evenly: 4 chunks of 5, nothing drawn in vain
    assert [size for _, _, size in study.units(cells[:1], 20)] == [5, 5, 5, 5]
    assert [study.chunk_length(t) for t in (1, 6, 7, 12, 13)] == [1, 6, 4, 6, 5]
    monkeypatch.setattr(study, "CHUNK", 8192)
    assert study.chunk_length(10**4) == 5000 and study.chunk_length(10**6) == 8131


def test_a_cell_is_one_program_and_a_short_chunk_counts_its_prefix(monkeypatch):
    monkeypatch.setattr(study, "CHUNK", 6)
    kernel = study.jax_kernel()  # its own jit, so its compilations are this test's alone
    drawer = study._drawer()
    before = drawer._cache_size()
    cell = study.run_cell(7, 3, 11, 5, 0, kernel=kernel)  # chunks of 6 and 5, both drawn at 6
    assert kernel.jitted._cache_size() == 1 and drawer._cache_size() - before == 1
    full = study.tally_chunk(7, 3, 1, 6, 5, 0, "float64", kernel)
    prefix = study.tally_chunk(7, 3, 1, 5, 5, 0, "float64", kernel, length=6)
    X, y, W0 = study.draw(5, 7, 3, 1, 6, "float64")
    out = {k: np.asarray(v) for k, v in kernel(X, y, W0, np.ones(6)).items()}
    last_met = bool(np.isfinite(out["residual"][5]) and out["inner"][5] > 0)
    assert full["met"] - prefix["met"] == last_met
    first = study.tally_chunk(7, 3, 0, 6, 5, 0, "float64", kernel)
    assert cell.hypothesis_met == first["met"] + prefix["met"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# The sizes of test_study's study (test_study.SIZES): a run compiles their draws and
# kernels once, whichever test comes first, and the processes find them in the run's
# compilation cache.  Three cells to evaluate ((3, 8) is degenerate): process 0 takes
# two of them, process 1 one.
STUDY = {"ms": [3, 8], "ds": [2, 8], "trials": 300, "seed": 5, "confirm": 3}


def on_cpu(run):
    """run(kernel) on the CPU, as the two processes below run: on a GPU machine the
    default device rounds the normal draws and the residuals otherwise."""
    import jax

    if jax.default_backend() == "cpu":
        return run(None)  # the shared kernel: nothing compiled twice
    with jax.default_device(jax.devices("cpu")[0]):
        return run(study.jax_kernel(devices=jax.devices("cpu")))


def study_process(index: int, port: int):
    """One of two processes, with its share of the cells."""
    args = [sys.executable, "-m", "bnproof", "study", "lemma-4.5", "--m", "3,8", "--d", "2,8",
            "--trials", "300", "--seed", "5", "--confirm", "3", "--json", "--distributed"]
    env = dict(os.environ, JAX_PLATFORMS="cpu", JAX_COORDINATOR_ADDRESS=f"127.0.0.1:{port}",
               JAX_NUM_PROCESSES="2", JAX_PROCESS_ID=str(index))
    return subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def test_two_processes_give_the_single_process_result():
    # first in this process: the two processes then load its compiled programs from the
    # run's compilation cache instead of compiling them again, each, side by side
    alone = [c.to_json() for c in on_cpu(lambda kernel: study.run_study(**STUDY, kernel=kernel))]
    port = free_port()
    processes = [study_process(i, port) for i in range(2)]
    leader, other = (p.communicate() for p in processes)
    codes = [p.returncode for p in processes]
    assert codes == [ExitCode.REFUTED, ExitCode.REFUTED], (leader[1][-2000:], other[1][-2000:])
    assert other[0] == "", "only process 0 prints"
    together = json.loads(leader[0])
    assert together["processes"] == 2 and together["devices"] == 2
    assert together["cells"] == alone
    assert together["exact_confirmed"] == sum(c["exact_confirmed"] for c in alone) > 0


def test_flags_without_distributed_are_bad_input(capsys):
    with pytest.raises(SystemExit) as done:
        main(["study", "lemma-4.5", "--process-id", "1", "--trials", "10"])
    assert done.value.code == ExitCode.BAD_INPUT
    assert "go with --distributed" in capsys.readouterr().err


def test_distributed_without_a_coordinator_is_bad_input(capsys, monkeypatch):
    for name in (distributed.ADDRESS, distributed.COUNT, distributed.INDEX):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(SystemExit) as done:
        main(["study", "lemma-4.5", "--distributed", "--trials", "10"])
    assert done.value.code == ExitCode.BAD_INPUT
    assert "missing --coordinator or JAX_COORDINATOR_ADDRESS" in capsys.readouterr().err


# -- fuzz: the claims shared out ------------------------------------------------------

@pytest.mark.parametrize("count", [1, 2, 3, 5, 6])
def test_fuzz_blocks_keep_the_claims_in_order(count):
    from bnproof.cli.fuzz_distributed import block

    claims = list("abcde")
    blocks = [block(Cluster(count, i, "h:1"), claims) for i in range(count)]
    assert [c for b in blocks for c in b] == claims
    assert max(map(len, blocks)) - min(map(len, blocks)) <= 1


def test_the_run_exits_with_its_most_serious_code():
    from bnproof.cli.fuzz_distributed import _most_serious

    assert _most_serious([0, 9, 1, 10]) == ExitCode.REFUTED
    assert _most_serious([0, 9, 10]) == ExitCode.UNDECIDED
    assert _most_serious([0, 0]) == ExitCode.OK
    assert _most_serious([0, 1, ExitCode.INTERRUPTED]) == ExitCode.INTERRUPTED


CLAIMS = Path(__file__).resolve().parent / "claims"
FUZZ = ["fuzz", "mix.py", "--no-jax", "--max-examples", "30", "--time-budget", "60", "--no-prove",
        "--no-timings", "--json"]


def test_two_processes_fuzz_the_claims_of_one_process(tmp_path, capsys, monkeypatch):
    # three true controls and a false toy: the toy falls to process 1, whose
    # certificate process 0 alone writes
    text = (CLAIMS / "controls.py").read_text() + "\n" + \
        (CLAIMS / "false_toy.py").read_text().split("\nTOY = ", 1)[1].join(["TOY = ", ""])
    for folder in ("together", "alone"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "mix.py").write_text(text)
    port = free_port()
    processes = [subprocess.Popen(
        [sys.executable, "-m", "bnproof", *FUZZ, "--distributed", "--coordinator", f"127.0.0.1:{port}",
         "--num-processes", "2", "--process-id", str(i)], cwd=tmp_path / "together",
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ, JAX_PLATFORMS="cpu"))
        for i in range(2)]
    monkeypatch.chdir(tmp_path / "alone")
    with pytest.raises(SystemExit) as done:
        main(FUZZ)
    alone = json.loads(capsys.readouterr().out)
    leader, other = (p.communicate() for p in processes)
    assert [p.returncode for p in processes] == [done.value.code, done.value.code] == [1, 1], leader[1]
    assert other[0] == "", "only process 0 prints"
    assert json.loads(leader[0]) == alone
    assert [r["verdict"] for r in alone] == ["survived"] * 3 + ["refuted"]
    written = sorted(p.relative_to(tmp_path / "together") for p in (tmp_path / "together").rglob("*.json"))
    assert written == [Path("bnproof-out/toy/bounded-bn-output.json")]
    assert (tmp_path / "together" / written[0]).read_bytes() == (tmp_path / "alone" / written[0]).read_bytes()


def test_fuzz_does_not_record_from_several_processes(capsys):
    with pytest.raises(SystemExit) as done:
        main(["fuzz", "santurkar2018/theorem-4.1", "--record", "--distributed"])
    assert done.value.code == ExitCode.BAD_INPUT
    assert "--record with --distributed" in capsys.readouterr().err
