"""Run `bnproof fuzz`'s search, and the proofs for every m of `fuzz` and `bnproof
prove`, in a worker process that can always be stopped.

Some work cannot stop itself: an XLA compilation of a large residual, a
symbolic proof, a claim's own code that blocks.  So the search runs in a
child process (a fresh interpreter running this module with the parent's
import path, never the working folder's modules: JAX is not fork-safe) and
the parent enforces each claim's time budget, plus a small grace, with
SIGKILL to the worker's whole process group.  They talk over two pipes with
multiprocessing's Connection (pickled messages between our own processes);
the worker's stdout goes to the parent's stderr, so that what a claim prints
never mixes with the report.

Claim objects hold lambdas and cannot be pickled, so the worker loads the
claim itself from its file (Claim.path) and id, and refuses a file changed
since the parent loaded it; everything else crosses as plain data
(Fractions, strings, numbers, coverage counts and Refutation records).  The
worker reports as it goes: coverage after every instance, each certified
counterexample (the first at once), each proved size and, for the proof for
every m that follows the search of a claim that survives (or that is the
whole job of `bnproof prove`), each attempt at a fixed size.  A claim cut
short thus keeps what was found: the parent concludes from those reports
(fuzz.conclude, symbolic_m/survivor.summary).  The proof shares the claim's
budget: it gets what the search left.

The worker runs in a session of its own and ignores SIGINT: Ctrl-C reaches
the parent only, which kills the worker and stops the run (so the worker
never prints a traceback of its own for it, even while starting).  The
parent kills and reaps every worker it started, whichever moment Ctrl-C lands
(Supervisor.started: a worker is on it before a Ctrl-C pressed during its
start is raised).  It exits by itself when the parent is gone.  One worker serves claim after claim
while it behaves; a killed one is replaced by a spare started while the
claim ran past its budget.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from multiprocessing.connection import Connection
from pathlib import Path
from dataclasses import dataclass, field, replace

from ..errors import BnproofError, ClaimError, Disagreement, ExitCode
from .coverage import Coverage
from .fuzz import BUDGET

START_TIMEOUT = 120.0  # seconds for a fresh worker to import its libraries, or the claim's budget if longer
# The worker's first lines: only builtins until sys.path is the parent's.
BOOT = ("import sys; n = int(sys.argv[1]); sys.path[:] = sys.argv[2:2 + n]; del sys.argv[1:2 + n]; "
        "from bnproof.search.worker import main; main()")
REPORT_EVERY = 0.25  # seconds between coverage and refutation reports


def grace(budget: float) -> float:
    """Time past the budget before the worker is killed: enough for the search
    to notice its own deadline and report, short next to the budget."""
    return min(5.0, 1.0 + budget / 10)


class Interrupted(KeyboardInterrupt):
    """Ctrl-C, or a KeyboardInterrupt raised by the claim's own code; carries
    the outcome of the claim it stopped (None when nothing was running)."""

    def __init__(self, outcome=None):
        super().__init__("interrupted")
        self.outcome = outcome


class WorkerError(BnproofError):
    """A BnproofError raised in the worker, with the exit code it carried."""

    def __init__(self, message: str, exit_code: int):
        super().__init__(message)
        self.exit_code = ExitCode(exit_code)


# ---------------------------------------------------------------- the child


def _watch_parent(parent: int) -> None:
    """Exit when the parent is gone (killed without a chance to kill us)."""
    while True:
        time.sleep(1.0)
        if os.getppid() != parent:
            os._exit(0)


class _Reporter:
    """fuzz()'s report callback.  Coverage goes out as it grows, every
    instance (as the change since the last report: a few bytes), so that a
    worker killed while blocked in the claim's code has reported every
    instance it evaluated; simpler refutations at most every REPORT_EVERY,
    the first at once."""

    def __init__(self, conn, claim):
        self.conn, self.claim = conn, claim
        self.last = {"refutation": 0.0}
        self.pending = None
        self.coverage = None  # fuzz's own Coverage object, updated in place
        self.sent: dict = {}  # per size: the (drawn, met, defined) already reported

    def __call__(self, kind: str, payload) -> None:
        now = time.monotonic()
        if kind == "coverage":
            self.coverage = payload
            self._send_coverage()
        elif kind == "refutation":
            # the first at once (it must be saved); simpler ones at most every REPORT_EVERY
            self.pending = payload
        elif kind == "phases":  # a phase ended: its counts go out whole, at once
            self._send_coverage()
            self.conn.send((kind, dict(payload)))
        else:
            self.conn.send((kind, payload))
        if self.pending is not None and (not self.last["refutation"]
                                         or now - self.last["refutation"] >= REPORT_EVERY):
            self._send_refutation(self.pending)

    def _send_coverage(self) -> None:
        if self.coverage is None:
            return
        delta = []
        for key, tally in list(self.coverage.by_size.items()):
            now = (tally.drawn, tally.met, tally.defined)
            before = self.sent.get(key, (0, 0, 0))
            if now != before:
                self.sent[key] = now
                delta.append((dict(key), *(a - b for a, b in zip(now, before))))
        if delta:
            self.conn.send(("coverage", delta))

    def _send_refutation(self, refutation) -> None:
        from .certify import described

        self.pending = None
        self.last["refutation"] = time.monotonic()
        self._send_coverage()  # the counts up to this refutation come with it
        self.conn.send(("refutation", described(self.claim, refutation)))


class ClaimChanged(Exception):
    """The claim file is not what the parent loaded: the claim ends undecided."""


def digest(path: str) -> str | None:
    """The claim file's fingerprint, None where it cannot be read: the file's
    bytes, and those of the helper modules beside it that its last load in this
    process imported (claims/helper_modules.py), so that an edited helper counts
    as an edited claim."""
    import hashlib

    from ..claims.helper_modules import helper_files

    h = hashlib.sha256()
    try:
        for name in (path, *(helper_files(path) or ())):
            data = Path(name).read_bytes()
            h.update(f"{len(name)}:{name}:{len(data)}:".encode("utf-8", "surrogateescape"))
            h.update(data)
    except OSError:
        return None
    return h.hexdigest()


def _load(path: str, claim_id: str, expected: str | None = None):
    """The claim as the parent loaded it.  The file is executed again here, so
    one edited since (saved from an editor during a long run) would be searched
    in its new form and reported and certified under the old one's statement."""
    from ..claims.api import load_file
    from ..claims.helper_modules import helper_files

    # before a first load here, the helpers the fingerprint covers are not known yet:
    # the check after the load decides
    if expected is not None and helper_files(path) is not None and digest(path) != expected:
        raise ClaimChanged(f"the claim file {path} changed during the run; fuzz it again")
    try:
        claims = load_file(path)
    except BnproofError as err:
        raise ClaimChanged(f"the claim file {path} no longer loads: {err}") from None
    if expected is not None and digest(path) != expected:
        raise ClaimChanged(f"the claim file {path} changed during the run; fuzz it again")
    for claim in claims:
        if claim.id == claim_id:
            return claim
    raise ClaimChanged(f"claim {claim_id} is no longer defined in {path}")


def _run_job(conn, job: dict) -> None:
    from ..symbolic_m import survivor
    from .fuzz import fuzz

    start = time.monotonic()
    claim = _load(job["path"], job["id"], job.get("digest"))
    options = job["options"]
    deadline = start + float(options["time_budget"])
    if job.get("task") == "prove":  # `bnproof prove`: the attempts alone, each reported as it ends
        _, stopped = survivor.attempts_within(claim, deadline, on_attempt=lambda a: conn.send(("attempt", a)),
                                              on_hint=lambda h: conn.send(("hint", h)))
        conn.send(("proof-done", stopped))
        return
    reporter = _Reporter(conn, claim)
    outcome = fuzz(claim, report=reporter, **options)
    if not (options.get("prove") and survivor.due(claim, outcome)):
        conn.send(("done", replace(outcome, claim=None)))
        return
    # a claim that survives: its proof for every m, within what is left of the same budget
    conn.send(("searched", replace(outcome, claim=None)))
    _, stopped = survivor.attempts_within(claim, deadline, on_attempt=lambda a: conn.send(("attempt", a)),
                                          on_hint=lambda h: conn.send(("hint", h)))
    conn.send(("proof-done", stopped))


def serve(jobs: Connection, conn: Connection, parent: int, warm_jax: bool) -> None:
    """The worker's main loop: one job (a claim) at a time, until the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    from .unraisable import quiet

    # the worker's stderr is the command's: a claim's __del__ error is no traceback of bnproof's
    # (for the worker's whole life: it runs claims only, and ends with os._exit)
    sys.unraisablehook = quiet(sys.unraisablehook)
    # what a claim prints goes out line by line: the worker ends with os._exit, or is killed
    # for its budget, and a block-buffered stdout (a file or a pipe, without PYTHONUNBUFFERED)
    # would lose what is still in the buffer, the very lines that show where a claim stuck
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(line_buffering=True)
        except (AttributeError, ValueError, OSError):
            pass
    from . import fuzz  # noqa: F401 - import the search before saying ready

    if warm_jax:
        import jax

        from ..claims.xp import numeric
        from ..numeric.jax_setup import enable_compilation_cache

        numeric()
        enable_compilation_cache(jax)
    conn.send(("ready", None))
    while True:
        try:
            job = jobs.recv()
        except (EOFError, OSError):
            os._exit(0)
        try:
            _run_job(conn, job)
        except KeyboardInterrupt:  # raised by the claim's own code: the user's stop
            conn.send(("interrupted", None))
        except ClaimChanged as err:
            conn.send(("failed", str(err)))
        except (Disagreement, ClaimError) as err:  # the exact and numeric layers disagree (a bug, never
            # ignored), or the claim cannot be traced at all (the user's mistake, exit 3, with file:line)
            conn.send(("error", (str(err), int(err.exit_code))))
        except Exception as err:  # noqa: BLE001 - the claim ends undecided, with the reason
            # (a BadInput or DegenerateInstance raised by the claim's own code too: it is this
            # claim's failure, not the run's)
            from .fuzz import short_error

            conn.send(("failed", f"the search stopped on an error: {short_error(err)}"))


# ---------------------------------------------------------------- the parent


@dataclass
class _SoFar:
    """What the worker has reported for the current claim."""

    coverage: Coverage = field(default_factory=Coverage)
    refutation: object = None
    first_seconds: float | None = None
    proved: list = field(default_factory=list)
    phases: dict = field(default_factory=dict)
    failure: str | None = None
    undecided: int = 0
    searched: object = None  # the search's Outcome, once it ended and a proof for every m began
    attempts: list = field(default_factory=list)  # that proof's attempts, one per fixed size

    def outcome(self, claim, options: dict, seconds: float, stopped: str | None, proof_stopped=None):
        """The claim's Outcome from the reports so far.  With `proof_stopped` (the search
        process was stopped): the proof for every m keeps the attempts it reported and
        says why it went no further, so that nothing is attempted again unbounded."""
        from .fuzz import Outcome, _proof_grid, conclude

        if self.searched is not None:  # the search had ended: only the proof was cut
            outcome = self.searched
            outcome.claim = claim
        else:
            prove = options.get("prove") and claim.kind == "identity" and claim.exact_sizes and claim.variables
            grid = _proof_grid(claim) if prove else []
            verdict, reason = conclude(self.coverage, self.refutation, None, self.proved, grid, stopped,
                                       self.failure, undecided=self.undecided, declared=claim.sizes)
            outcome = Outcome(claim, verdict, options.get("seed", 0), seconds, self.coverage, self._phases(),
                              refutation=self.refutation, first_seconds=self.first_seconds,
                              proved_sizes=list(self.proved), proof_grid=grid, reason=reason, stopped=stopped,
                              undecided_candidates=self.undecided)
        if proof_stopped is not None:
            outcome.proof_attempts, outcome.proof_stopped = list(self.attempts), proof_stopped
        return outcome

    def _phases(self) -> dict:
        """The instances per phase; those of the phase cut short (reported as
        coverage, not yet as a phase) go to it, so the phases add up."""
        phases = dict(self.phases)
        missing = self.coverage.total().drawn - sum(phases.values())
        if missing > 0:
            phase = "jax" if "hypothesis" in phases else "hypothesis"
            phases[phase] = phases.get(phase, 0) + missing
        return phases


class _Worker:
    """One worker process and its two pipe ends, on the list `started` of its
    Supervisor (which kills what is on it) before Ctrl-C can land: a Ctrl-C
    from before the fork until the worker is on the list is held back and
    raised then (_sigint_deferred), so that a KeyboardInterrupt inside Popen
    (which waits for the exec, long on a busy machine) or as it returns cannot
    leave a worker that nothing knows of, unkilled and unreaped."""

    def __init__(self, warm_jax: bool, started: list):
        jobs_read, jobs_write = os.pipe()
        events_read, events_write = os.pipe()
        # `python -m` would put the working folder first on the import path, so a
        # claim file there named like a module (array.py, random.py) would break
        # the worker's imports: it imports from the parent's path instead
        paths = [p for p in sys.path if p]
        command = [sys.executable, "-c", BOOT, str(len(paths)), *paths, str(jobs_read), str(events_write),
                   str(os.getpid()), "1" if warm_jax else "0"]
        self.jobs = Connection(jobs_write, readable=False)
        self.conn = Connection(events_read, writable=False)
        self.process = None
        self.ready = False
        self._started = started
        try:
            with _sigint_deferred():  # a Ctrl-C meanwhile is raised at its end: on the list, it is killed
                try:
                    # what the claim's code prints goes to stderr: stdout is the report (--json)
                    self.process = subprocess.Popen(
                        command, pass_fds=(jobs_read, events_write), stdin=subprocess.DEVNULL,
                        stdout=sys.stderr.fileno() if _has_fileno(sys.stderr) else subprocess.DEVNULL,
                        start_new_session=True)
                    started.append(self)
                finally:  # the child's ends: once it has them (or failed to start), ours go
                    os.close(jobs_read)
                    os.close(events_write)
        except BaseException:
            self.kill()
            raise

    def wait_ready(self, budget: float = 0.0) -> None:
        """Until the worker has imported its libraries; killed if it cannot.  A busy machine
        may take long: the wait is START_TIMEOUT, or the budget of the claim it is for if
        longer (the budget counts once it has started)."""
        if self.ready:
            return
        deadline = time.monotonic() + max(START_TIMEOUT, budget)
        try:
            while not self.conn.poll(0.1):
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise BnproofError("the fuzz worker process did not start")
            self.conn.recv()
        except (EOFError, OSError):
            self.kill()
            raise BnproofError("the fuzz worker process did not start") from None
        except BaseException:
            self.kill()
            raise
        self.ready = True

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        """SIGKILL, with whatever the claim's code started in its process group
        (the worker leads a session of its own), and reaped.  Idempotent: it
        leaves the list of started workers only once the worker is reaped, so a
        kill cut short (a KeyboardInterrupt in a library's caller) is done again
        by the Supervisor's close."""
        process = self.process
        if process is not None:
            if process.returncode is None:  # not reaped yet, so its group id is still its own
                try:
                    os.killpg(process.pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
            if process.poll() is None:
                process.kill()
            process.wait()
            self.process = None
        for connection in (self.jobs, self.conn):
            connection.close()
        if self in self._started:
            self._started.remove(self)


class Supervisor:
    """Runs claims in a worker process under hard time budgets.

    A worker killed for its budget is replaced by a spare started when that
    budget ran out (while the grace ran), so a run of claims that must be
    killed costs about n x (budget + grace), not a fresh start-up each."""

    def __init__(self, warm_jax: bool = False):
        self.warm_jax = warm_jax
        self.worker: _Worker | None = None
        self.spare: _Worker | None = None
        self.started: list[_Worker] = []  # every worker not yet killed and reaped, whatever its role

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    @property
    def process(self):
        return self.worker.process if self.worker else None

    def close(self) -> None:
        """Kill and reap every worker started: the worker, the spare, and one
        that a KeyboardInterrupt caught between its start and its role."""
        self.worker = self.spare = None
        while self.started:
            self.started[-1].kill()

    def _kill_worker(self) -> None:
        worker, self.worker = self.worker, None
        if worker is not None:
            worker.kill()

    def _start(self, budget: float) -> None:
        worker, self.spare = self.spare, None
        if worker is None or not worker.alive():
            if worker is not None:
                worker.kill()
            worker = _Worker(self.warm_jax, self.started)
        self.worker = worker
        worker.wait_ready(budget)

    def _start_spare(self) -> None:
        if self.spare is None:
            self.spare = _Worker(self.warm_jax, self.started)

    def run(self, claim, options: dict, on_refutation=None, on_progress=None, digest: str | None = None):
        """The claim's Outcome, within options["time_budget"] plus grace, whatever
        the worker does: the search and then, with options["prove"] for a claim
        that survives, its proof for every m (outcome.proof_attempts).
        `on_refutation(refutation)` hears of every certified counterexample as soon
        as it arrives; `on_progress(coverage, seconds left)` is called a few times a
        second.  Raises Interrupted on Ctrl-C."""
        so_far = _SoFar()

        def heard(kind, payload, seconds):
            if kind == "coverage":
                for sizes, drawn, met, defined in payload:
                    so_far.coverage.add(sizes, drawn, met, defined)
            elif kind == "undecided":
                so_far.undecided = payload
            elif kind == "refutation":
                if so_far.refutation is None:
                    so_far.first_seconds = seconds
                so_far.refutation = payload
                if on_refutation:
                    on_refutation(payload)
            elif kind == "proved":
                so_far.proved.append(payload)
            elif kind == "phases":
                so_far.phases.update(payload)
            elif kind == "searched":
                so_far.searched = payload
            elif kind == "attempt":
                so_far.attempts.append(payload)
            elif kind == "hint" and so_far.attempts:  # what would prove the failed attempt
                so_far.attempts[-1].hint = payload
            elif kind == "proof-done":
                outcome = so_far.outcome(claim, options, seconds, None)
                outcome.proof_attempts, outcome.proof_stopped = list(so_far.attempts), payload
                return outcome
            elif kind == "done":
                payload.claim = claim
                return payload
            elif kind == "failed":
                if so_far.searched is not None:  # the search's verdict stands; the proof stopped
                    return so_far.outcome(claim, options, seconds, None, payload)
                so_far.failure = payload
                return so_far.outcome(claim, options, seconds, None)
            return None

        def died(why, seconds):
            if so_far.searched is not None:  # the search had ended: its verdict stands, the proof did not
                return so_far.outcome(claim, options, seconds, None, f"the proof process died ({why})")
            so_far.failure = so_far.failure or f"the search process died ({why})"
            return so_far.outcome(claim, options, seconds, None)

        from ..symbolic_m.survivor import BUDGET as PROOF_BUDGET

        return self._exchange(
            {"path": claim.path, "id": claim.id, "options": options, "digest": digest}, options["time_budget"],
            heard, died,
            on_budget=lambda seconds: so_far.outcome(claim, options, seconds, BUDGET, PROOF_BUDGET),
            on_interrupt=lambda seconds: so_far.outcome(claim, options, seconds, "interrupt", "interrupted"),
            on_tick=(lambda left: on_progress(so_far.coverage, left)) if on_progress else None)

    def prove(self, claim, time_budget: float, digest: str | None = None) -> tuple[list, str | None]:
        """(attempts, why they stopped early or None): `bnproof prove`'s proof for every m
        of one claim, within time_budget plus grace, whatever the claim's code does
        (symbolic_m/survivor.py: attempts_within).  Raises Interrupted on Ctrl-C."""
        from ..symbolic_m.survivor import BUDGET as PROOF_BUDGET

        attempts: list = []

        def heard(kind, payload, seconds):
            if kind == "attempt":
                attempts.append(payload)
            elif kind == "hint" and attempts:  # what would prove the failed attempt
                attempts[-1].hint = payload
            elif kind == "proof-done":
                return attempts, payload
            elif kind == "failed":
                return attempts, payload
            return None

        return self._exchange(
            {"task": "prove", "path": claim.path, "id": claim.id, "options": {"time_budget": time_budget},
             "digest": digest}, time_budget, heard,
            lambda why, seconds: (attempts, f"the proof process died ({why})"),
            on_budget=lambda seconds: (attempts, PROOF_BUDGET),
            on_interrupt=lambda seconds: None)

    def _exchange(self, job: dict, budget, heard, died, on_budget, on_interrupt, on_tick=None):
        """Send one job to the worker and read its reports until `heard(kind, payload,
        seconds)` returns a result.  The budget spent (plus grace): the worker is killed
        and on_budget(seconds) is the result; the worker gone: died(why, seconds).  Its
        BnproofError is raised here (WorkerError); Ctrl-C, or a KeyboardInterrupt in the
        claim's code, raises Interrupted(on_interrupt(seconds)).  on_tick(seconds left)
        a few times a second."""
        budget = float(budget)
        if self.worker is None or not self.worker.alive():
            self._kill_worker()
            self._start(budget)
        start = time.monotonic()
        hard = start + budget + grace(budget)
        worker = self.worker
        try:
            try:
                worker.jobs.send(job)
            except OSError:  # it died since it was last seen alive
                pass  # the next receive says so
            while True:
                now = time.monotonic()
                left = hard - now
                if on_tick:
                    on_tick(max(0.0, start + budget - now))
                if now > start + budget + min(0.5, grace(budget) / 2):
                    self._start_spare()  # it may have to be killed: a replacement starts meanwhile
                if left <= 0 and not worker.conn.poll(0):
                    self._kill_worker()  # the budget is spent: SIGKILL, the spare next time
                    return on_budget(time.monotonic() - start)
                if not worker.conn.poll(min(max(left, 0.0), 0.1)):
                    continue
                try:
                    kind, payload = worker.conn.recv()
                except (EOFError, OSError):
                    why = _death(worker.process)
                    self._kill_worker()
                    return died(why, time.monotonic() - start)
                if kind == "error":
                    raise WorkerError(*payload)
                if kind == "interrupted":
                    raise KeyboardInterrupt
                result = heard(kind, payload, time.monotonic() - start)
                if result is not None:
                    return result
        except KeyboardInterrupt:
            self.close()
            raise Interrupted(on_interrupt(time.monotonic() - start)) from None


def _death(process) -> str:
    """How a worker whose pipe closed ended: "exit code 3", "killed by SIGSEGV"."""
    try:
        code = process.wait(timeout=2.0) if process is not None else None
    except subprocess.TimeoutExpired:
        code = None
    if code is None:
        return "it closed its pipe"
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"


@contextlib.contextmanager
def _sigint_deferred():
    """SIGINT during the block is handled at its end, by the handler that was in
    place (KeyboardInterrupt).  Python runs signal handlers in the main thread
    whichever thread the kernel picked, so a handler that only takes note holds
    it back where a signal mask of this thread could not; outside the main
    thread, or with SIGINT ignored or at its default, nothing is ours to hold."""
    previous = signal.getsignal(signal.SIGINT)
    if not callable(previous) or threading.current_thread() is not threading.main_thread():
        yield
        return
    pressed: list = []
    signal.signal(signal.SIGINT, lambda *received: pressed.append(received))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if pressed:
            previous(*pressed[0])


def _has_fileno(stream) -> bool:
    try:
        stream.fileno()
    except (AttributeError, OSError, ValueError):
        return False
    return True


def main(argv: list[str] | None = None) -> None:
    """`python -m bnproof.search.worker JOBS_FD EVENTS_FD PARENT_PID WARM_JAX` (started by Supervisor)."""
    jobs_fd, events_fd, parent, warm = (argv or sys.argv[1:])[:4]
    try:
        serve(Connection(int(jobs_fd), writable=False), Connection(int(events_fd), readable=False),
              int(parent), warm == "1")
    except (BrokenPipeError, ConnectionError, EOFError):  # the parent is gone: nobody to tell
        os._exit(0)


if __name__ == "__main__":
    main()
