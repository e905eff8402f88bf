"""``reversis tournament --ray``: the deals (or whole matches) of a tournament sharded over a Ray cluster.

The deals are played by the same function as in the local worker processes
(:func:`~reversis.commands.tournament.deals.play_chunk_task`), a chunk of deals per Ray task, the
ruleset sent as its canonical JSON text and the players built inside the task from their names
and options; the results are taken in deal order, a bounded number of tasks in flight, so they
equal a local run's deal by deal and memory does not grow with ``--hands``.
:func:`ray_backend` is the backend of :func:`~reversis.commands.tournament.run_tournament`
that plays them so.

Without an address a local Ray instance is started with ``--jobs`` CPUs and shut down at the end
(Ctrl-C and ``SIGTERM`` included); with one, the command connects to that cluster (as
``ray.init(address=...)``: ``HOST:PORT`` of the head node, ``auto``, or ``ray://HOST:PORT`` with
``ray[client]``) and leaves it running. Every node needs this version of ``reversis`` installed,
and for a ``cmd:`` player its program, at the same path or on the ``PATH``, in the directory the
node's Ray workers start in.

Ray is an optional extra (``pip install '.[ray]'`` in a checkout); it is imported only here.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import signal
import socket
import sys
import threading
from collections import deque
from collections.abc import Callable, Generator, Iterator, Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from .._extras import install_hint
from .tournament.deals import Backend, Unit, check_tournament, chunks, play_chunk_task, ruleset_text
from .tournament.errors import TournamentError
from .tournament.players import DEFAULT_TIME_LIMIT_MS

if TYPE_CHECKING:
    from reversis import Ruleset

__all__ = ["CONNECT_TIMEOUT_S", "RayClusterError", "iter_deals", "ray_backend", "ray_session"]

#: Seconds to wait for a cluster's head node to answer, so a wrong address fails instead of hanging.
CONNECT_TIMEOUT_S = 5
#: The most deals in one Ray task: enough to make a task's overhead small beside its deals.
MAX_CHUNK = 32
#: Ray's knobs of how long ``ray.init(address=...)`` retries (its defaults add up to minutes).
_CONNECT_ENV = {"RAY_gcs_server_port_wait_time_s": "1", "RAY_py_gcs_connect_timeout_s": str(CONNECT_TIMEOUT_S)}
_INSTALL = install_hint("ray")
_AUTH_HINT = "a cluster with token authentication needs RAY_AUTH_MODE=token and its token in this environment"
#: The logger of Ray's notice that a new local instance uses token authentication.
_TOKEN_NOTICE_LOGGER = "ray._private.authentication.authentication_token_setup"


class RayClusterError(TournamentError, OSError):
    """Ray is missing, the cluster cannot be reached, or it failed while the tournament ran.

    An :class:`OSError` too, so the command line reports it as one line, like an unreadable file.
    """


def _import_ray() -> Any:
    try:
        import ray
    except ImportError as error:
        raise RayClusterError(f"--ray needs Ray, which is not installed: {_INSTALL} ({error})") from None
    return ray


def _probe(address: str) -> None:
    """Fail at once, with the reason, for a ``HOST:PORT`` that nothing listens on."""
    if address == "auto" or ("://" in address and not address.startswith("ray://")):
        return  # Ray finds "auto" itself and says so quickly when nothing runs
    try:
        parts = urlsplit("//" + address.split("://", 1)[-1])
        host, port = parts.hostname, parts.port
    except ValueError:
        host = port = None
    if not host or port is None:
        raise RayClusterError(f"--ray {address}: not an address of a Ray cluster (HOST:PORT, auto or ray://HOST:PORT)")
    try:
        with socket.create_connection((host, port), timeout=CONNECT_TIMEOUT_S):
            pass
    except OSError as error:
        why = error.strerror or str(error) or type(error).__name__
        raise RayClusterError(f"cannot reach the Ray cluster at {address}: {why}") from None


@contextlib.contextmanager
def _connect_env() -> Iterator[None]:
    """Ray's connection retries cut to a few seconds while connecting, as they were afterwards."""
    saved = {name: os.environ.get(name) for name in _CONNECT_ENV}
    for name, value in _CONNECT_ENV.items():
        os.environ.setdefault(name, value)
    try:
        yield
    finally:
        for name, previous in saved.items():
            if previous is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = previous


def _cluster_cpus(ray: Any) -> int:
    try:
        return max(1, int(ray.cluster_resources().get("CPU", 1)))
    except Exception:  # a cluster that cannot say still runs tasks
        return 1


@contextlib.contextmanager
def ray_session(address: str = "", *, cpus: int | None = None, show_logs: bool = False) -> Iterator[int]:
    """Ray, started or connected for the ``with`` block; yields the cluster's number of CPUs.

    An empty ``address`` starts a local instance of ``cpus`` CPUs (all when ``None``), shut down
    when the block ends however it ends; any other is a cluster to connect to (``HOST:PORT``,
    ``auto``, ``ray://HOST:PORT``), from which the block disconnects. Where this process has
    initialised Ray already, that session is used and left as it is. ``show_logs`` forwards the
    output of the tasks (a ``cmd:`` player's standard error) to this process's.

    The process keeps its own handlers of the stop signals (``ray.init`` would install one of
    its own for ``SIGTERM``); Ctrl-C or ``SIGTERM`` while Ray starts takes effect as soon as it
    has started, so that a local instance is shut down whole.

    :raises RayClusterError: when Ray is not installed or the cluster cannot be reached.
    """
    ray = sys.modules.get("ray")
    if ray is not None and ray.is_initialized():
        yield _cluster_cpus(ray)
        return
    connect = bool(address)
    if connect:
        _probe(address)
    with _connect_env() if connect else contextlib.nullcontext():
        ray = _import_ray()
        _init(ray, address, cpus, show_logs)
    try:
        yield _cluster_cpus(ray) if connect else (cpus or _cluster_cpus(ray))
    finally:
        _shutdown(ray)


#: The signals held back while Ray starts: a local instance stopped half-way leaves processes behind.
_STOP_SIGNALS = ("SIGINT", "SIGTERM", "SIGHUP")


@contextlib.contextmanager
def _signals_deferred(ray: Any) -> Iterator[list[int]]:
    """Hold back the stop signals for the block; yields the list of those that came.

    ``ray.init`` also installs a ``SIGTERM`` handler of its own, which exits wherever the
    process is; it is kept out, and the handlers this process had are put back at the end.
    """
    pending: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield pending
        return
    numbers = [getattr(signal, name) for name in _STOP_SIGNALS if hasattr(signal, name)]
    handlers = {number: signal.getsignal(number) for number in numbers}
    utils: Any = getattr(getattr(ray, "_private", None), "utils", None)
    ray_handler = getattr(utils, "set_sigterm_handler", None)

    def defer(signum: int, frame: Any) -> None:
        pending.append(signum)

    for number in numbers:
        signal.signal(number, defer)
    if ray_handler is not None:
        utils.set_sigterm_handler = lambda handler: None
    try:
        yield pending
    finally:
        if ray_handler is not None:
            utils.set_sigterm_handler = ray_handler
        for number, handler in handlers.items():
            with contextlib.suppress(ValueError, OSError, TypeError):
                signal.signal(number, handler if handler is not None else signal.SIG_DFL)
        pending[:] = [number for number in pending if handlers.get(number) != signal.SIG_IGN]


def _init(ray: Any, address: str, cpus: int | None, show_logs: bool) -> None:
    """``ray.init``, its errors in one line; a stop signal meanwhile acts once the instance can be shut down whole."""
    options: dict[str, Any] = {"log_to_driver": show_logs, "logging_level": logging.WARNING}
    # A private local instance gets Ray's default token authentication; its notice of that
    # would only clutter the table.
    notice = logging.getLogger(_TOKEN_NOTICE_LOGGER)
    level = notice.level
    with _signals_deferred(ray) as pending:
        try:
            if address:
                ray.init(address=address, **options)
            else:
                notice.setLevel(logging.ERROR)
                ray.init(address="local", num_cpus=cpus, include_dashboard=False, **options)
        except Exception as error:
            _shutdown(ray)
            where = f"the Ray cluster at {address}" if address else "a local Ray instance"
            hint = ""
            if address and "RAY_AUTH_MODE" not in os.environ:
                hint = f" ({_AUTH_HINT})"
            raise RayClusterError(f"cannot connect to {where}: {error}{hint}") from None
        except BaseException:
            _shutdown(ray)
            raise
        finally:
            notice.setLevel(level)
    if pending:
        _shutdown(ray)
        signal.raise_signal(pending[0])


def _shutdown(ray: Any) -> None:
    """``ray.shutdown``, then this process's handlers of the stop signals in force again.

    Ray's core resets some of them in the operating system behind Python's back as it shuts
    down, so a signal that came next would kill the process instead of unwinding it.
    """
    try:
        ray.shutdown()
    finally:
        if threading.current_thread() is threading.main_thread():
            for number in (getattr(signal, name) for name in _STOP_SIGNALS if hasattr(signal, name)):
                with contextlib.suppress(ValueError, OSError, TypeError):
                    handler = signal.getsignal(number)
                    signal.signal(number, handler if handler is not None else signal.SIG_DFL)


def iter_deals(
    players: Sequence[str],
    *,
    ruleset: Ruleset,
    hands: int = 100,
    seed: int = 0,
    rollouts: int | None = None,
    chunk: int | None = None,
    time_limit_ms: int = DEFAULT_TIME_LIMIT_MS,
    bot_stderr: str = "capture",
    address: str = "",
    jobs: int | None = None,
    matches: bool = False,
) -> Generator[Unit, None, None]:
    """Play deals ``0 … hands − 1`` as Ray tasks and yield their results in order.

    As :func:`reversis.commands.tournament.iter_deals` (whole matches where ``matches`` is true),
    with the same checks: at most ``2 · CPUs``
    tasks of ``chunk`` deals (at most :data:`MAX_CHUNK` by default) are in flight.
    Closing the generator, or an exception, Ctrl-C included, cancels the tasks in flight (their
    ``cmd:`` players' processes are killed as the tasks unwind). ``address`` and ``jobs`` are
    as :func:`ray_session`'s ``address`` and ``cpus``.

    :raises TournamentError: as :func:`reversis.commands.tournament.iter_deals`.
    :raises RayClusterError: as :func:`ray_session`, or when a task is lost with its worker.
    """
    names = list(players)
    check_tournament(names, ruleset, hands, jobs or 1, matches=matches)
    text = ruleset_text(ruleset)
    bots: dict[str, Any] = {"time_limit_ms": time_limit_ms, "bot_stderr": bot_stderr, "matches": matches}
    with ray_session(address, cpus=jobs, show_logs=bot_stderr == "show") as cpus:
        import ray
        from ray.exceptions import RayError, RayTaskError

        size = chunk or max(1, min(MAX_CHUNK, hands // (cpus * 4)))
        # Deterministic tasks: one rerun after its worker died gives the same deals.
        task = ray.remote(num_cpus=1, max_retries=1)(play_chunk_task)
        window: deque[Any] = deque()
        with _signals_polled() as act_on_signals:
            try:
                for part in chunks(hands, size):
                    window.append(task.remote(text, names, seed, part, rollouts, **bots))
                    if len(window) >= 2 * cpus:
                        yield from _take(ray, window.popleft(), act_on_signals)
                while window:
                    yield from _take(ray, window.popleft(), act_on_signals)
            except Exception as error:
                # A signal handler that raises while Ray's core waits (Terminated for SIGTERM) comes
                # out wrapped in a SystemError: the signal's own exception unwinds, as elsewhere.
                stop = _stop_in_chain(error)
                if stop is not None:
                    raise stop from None
                if isinstance(error, RayTaskError):
                    cause = getattr(error, "cause", None)
                    if isinstance(cause, Exception):
                        raise cause from None
                    raise RayClusterError(f"a Ray task failed: {error}") from None
                if isinstance(error, RayError):
                    raise RayClusterError(f"the Ray cluster failed: {error}") from None
                raise
            finally:
                _cancel(ray, window)


def ray_backend(address: str = "") -> Backend:
    """The backend of :func:`~reversis.commands.tournament.run_tournament` that plays the deals on Ray.

    As :func:`iter_deals` at ``address``: ``""`` starts a local instance of ``jobs`` CPUs for the
    tournament (unless a session of :func:`ray_session` is open, which is used).
    """
    return functools.partial(iter_deals, address=address)


#: Seconds between two looks at the stop signals while a task's result is awaited.
_POLL_S = 0.2


def _take(ray: Any, ref: Any, act_on_signals: Callable[[], None]) -> list[Unit]:
    """The deals of the task ``ref``, acting on a stop signal within :data:`_POLL_S` while waiting.

    Never one long ``ray.get``: while it waits, Ray's core runs the Python signal handlers
    itself and loses an exception other than ``KeyboardInterrupt`` (the ``Terminated`` of
    ``SIGTERM``), so the signal would be acted on only after the task in flight, if at all.
    """
    while True:
        ready, _ = ray.wait([ref], timeout=_POLL_S)
        act_on_signals()
        if ready:
            deals: list[Unit] = ray.get(ref)
            return deals


@contextlib.contextmanager
def _signals_polled() -> Iterator[Callable[[], None]]:
    """The stop signals handled by this process only recorded for the block; yields the function that acts on them.

    That function calls the handler the signal had (raising ``KeyboardInterrupt`` or
    ``Terminated``) from Python code, where its exception unwinds as it should; so does the end
    of the block for a signal that came last. A signal ignored, or left to its default, is left so.
    """
    if threading.current_thread() is not threading.main_thread():
        yield lambda: None
        return
    pending: list[int] = []
    handlers: dict[int, Any] = {}

    def record(signum: int, frame: Any) -> None:
        pending.append(signum)

    for number in (getattr(signal, name) for name in _STOP_SIGNALS if hasattr(signal, name)):
        handler = signal.getsignal(number)
        if callable(handler):
            handlers[number] = handler
            signal.signal(number, record)

    def act() -> None:
        if pending:
            number = pending[0]
            pending.clear()
            handlers[number](number, None)

    try:
        yield act
    finally:
        for number, handler in handlers.items():
            with contextlib.suppress(ValueError, OSError, TypeError):
                signal.signal(number, handler)
    act()


def _stop_in_chain(error: BaseException) -> BaseException | None:
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        if not isinstance(current, Exception):
            return current
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return None


#: Seconds the cancelled tasks get to unwind (and kill their bots) before Ray is shut down.
_CANCEL_GRACE_S = 5.0


def _cancel(ray: Any, refs: deque[Any]) -> None:
    """Cancel the tasks still in flight and give them a moment to unwind."""
    if not refs:
        return
    for ref in refs:
        with contextlib.suppress(Exception):
            ray.cancel(ref)
    with contextlib.suppress(Exception):
        ray.wait(list(refs), num_returns=len(refs), timeout=_CANCEL_GRACE_S)
    refs.clear()
