"""The local backend: deals (or whole matches) played in worker processes here, in order, a bounded number at a time.

The workers ignore Ctrl-C, which is the parent's to handle: closing :func:`iter_deals` (or an
exception in the parent, Ctrl-C included) terminates them at once, and with ``cmd:`` players
each worker kills their process groups as it goes (PLY-4). The parent never waits on a dead
worker: a worker that dies, or whose result cannot be received, stops the tournament with a
:class:`~.errors.WorkerError`.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.pool
import os
import signal
import threading
import time
from collections import deque
from collections.abc import Generator, Sequence
from typing import TYPE_CHECKING, Any

from .deals import Unit, check_tournament, chunks, play_chunk, play_chunk_task, ruleset_text
from .errors import WorkerError
from .players import DEFAULT_TIME_LIMIT_MS, is_command

if TYPE_CHECKING:
    from reversis import Ruleset

__all__ = ["iter_deals"]

#: Seconds between two looks at the workers while a result is awaited.
_WATCH_S = 0.2
#: Seconds terminated workers get to end (and kill their ``cmd:`` players) before they are killed.
_END_GRACE_S = 5.0

#: The signals blocked while worker processes start, so none arrives before they ignore it.
_STOP_SIGNALS = {getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)}


def _worker_signals(bots: bool = False) -> None:
    """In a worker: Ctrl-C is the parent's to handle; ``SIGTERM`` (the pool's terminate) just ends it.

    With ``cmd:`` players the worker first kills their process groups: they live in sessions of
    their own, so nothing else would reach them (PLY-4). That is done by a thread waiting in
    ``sigwait``, not by a Python signal handler: a handler runs only when the main thread next
    executes bytecode, and a ``SIGTERM`` that arrives just before the worker blocks on the pool's
    task queue would never be acted on, leaving ``Pool.terminate`` waiting for the worker forever.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    ending = {getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)}
    if bots and hasattr(signal, "sigwait") and hasattr(signal, "pthread_sigmask"):
        # Blocked in every thread (the waiting one inherits the mask), so the kernel keeps a
        # stop signal pending until that thread takes it.
        signal.pthread_sigmask(signal.SIG_BLOCK, ending)
        threading.Thread(target=_end_on_signal, args=(ending,), name="reversis-worker-stop", daemon=True).start()
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS - ending)
        return
    for number in ending:
        signal.signal(number, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)


def _end_on_signal(ending: set[int]) -> None:
    """Wait for one of ``ending``, kill the ``cmd:`` players' groups, and end the worker as it would have."""
    from reversis.players.process import kill_all

    number = signal.sigwait(ending)
    kill_all()
    os._exit(128 + number)


def _start_pool(jobs: int, bots: bool = False) -> Any:
    """A ``multiprocessing`` pool of ``jobs`` workers that ignore Ctrl-C (the parent stops them).

    The stop signals are blocked while the workers start, so none reaches a worker before it
    ignores Ctrl-C; one that arrived meanwhile is raised once they are unblocked, and then the
    new pool is terminated at once.
    """
    if not hasattr(signal, "pthread_sigmask"):
        return multiprocessing.get_context().Pool(jobs, initializer=_worker_signals, initargs=(bots,))
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
    try:
        pool = multiprocessing.get_context().Pool(jobs, initializer=_worker_signals, initargs=(bots,))
    except BaseException:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
        raise
    try:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)  # a Ctrl-C that came meanwhile is raised here
    except BaseException:
        pool.terminate()
        pool.join()
        raise
    return pool


def iter_deals(
    players: Sequence[str],
    *,
    ruleset: Ruleset,
    hands: int = 100,
    seed: int = 0,
    jobs: int = 1,
    rollouts: int | None = None,
    chunk: int | None = None,
    time_limit_ms: int = DEFAULT_TIME_LIMIT_MS,
    bot_stderr: str = "capture",
    matches: bool = False,
) -> Generator[Unit, None, None]:
    """Play deals ``0 … hands − 1`` under ``ruleset`` and yield their results in order, never holding them all.

    With ``jobs`` above 1 the deals are played in that many worker processes, at most
    ``2 · jobs`` chunks of ``chunk`` deals in flight; closing the generator (or an exception,
    Ctrl-C included) terminates the workers at once, and the processes of ``cmd:`` players with
    them. The results depend only on the players, ``ruleset``, ``seed`` and ``rollouts``, never
    on ``jobs`` or ``chunk`` (for ``cmd:`` players: if their decisions depend only on what the
    protocol gives them, PLY-4). Players are named as given (``cmd:…``), not as reported. With
    ``matches`` the units are whole matches: match sequences ``0 … hands − 1``, each a
    :class:`~.deals.MatchResult`.

    :raises TournamentError: for an unknown or unavailable player, a repeated player, more
        player types than seats, fewer than one deal or fewer than one job.
    """
    names = list(players)
    check_tournament(names, ruleset, hands, jobs, matches=matches)
    text = ruleset_text(ruleset)
    size = chunk or max(1, min(16, hands // (jobs * 8) or 1))
    bots: dict[str, Any] = {"time_limit_ms": time_limit_ms, "bot_stderr": bot_stderr, "matches": matches}
    if jobs == 1:
        for part in chunks(hands, size):
            yield from play_chunk(text, names, seed, part, rollouts, **bots)
        return
    pool = _start_pool(jobs, bots=any(is_command(name) for name in names))
    # The workers never end by themselves (no maxtasksperchild): one that has ended died, and
    # the pool would quietly replace it while its task's result never came.
    workers = list(pool._pool)
    try:
        window: deque[Any] = deque()
        for part in chunks(hands, size):
            window.append(pool.apply_async(play_chunk_task, (text, names, seed, part, rollouts), bots))
            if len(window) >= 2 * jobs:
                yield from _result(pool, workers, window.popleft())
        while window:
            yield from _result(pool, workers, window.popleft())
        pool.close()
    finally:
        _stop_pool(pool, workers)


def _result(pool: Any, workers: list[Any], pending: Any) -> list[Unit]:
    """The deals of one task, looking at the workers while waiting: never a wait on one that died.

    :raises WorkerError: when a worker has died, or the pool's thread that receives the results
        has (a result that could not be unpickled ends it).
    """
    while True:
        try:
            deals: list[Unit] = pending.get(_WATCH_S)
            return deals
        except multiprocessing.TimeoutError:
            pass
        for worker in workers:
            if worker.exitcode is not None:
                how = f"signal {-worker.exitcode}" if worker.exitcode < 0 else f"exit status {worker.exitcode}"
                raise WorkerError(f"a worker process died ({how}) while playing deals; the tournament is stopped")
        if not pool._result_handler.is_alive():
            raise WorkerError("the results of the worker processes could not be received; the tournament is stopped")


def _stop_pool(pool: Any, workers: list[Any]) -> None:
    """Terminate the pool and its workers, without ``Pool.terminate`` where it would wait forever.

    With its result thread dead, ``Pool.terminate`` refuses (or blocks writing to a pipe that no
    one reads): the workers are then stopped one by one.
    """
    if pool._result_handler.is_alive():
        pool.terminate()
        pool.join()
        return
    # Its other threads would start new workers for the tasks never answered, and its
    # finalizer would run Pool.terminate at exit.
    pool._worker_handler._state = multiprocessing.pool.TERMINATE
    pool._terminate.cancel()
    every = {id(worker): worker for worker in [*workers, *pool._pool]}.values()
    for worker in every:
        if worker.exitcode is None:
            worker.terminate()
    deadline = time.monotonic() + _END_GRACE_S
    for worker in every:
        worker.join(max(0.0, deadline - time.monotonic()))
        if worker.exitcode is None:
            worker.kill()
            worker.join()
