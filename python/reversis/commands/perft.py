"""``reversis perft``: count the legal sequences of decisions from a position (spec/perft.md).

The position is a ruleset's deal from a seed (``--seed``, ``--hand-number``), or a record
(``--record``), followed by actions (``--actions``, a JSON list of ACT-1 actions) and by decision
keys (``--path``, the keys ``--divide`` prints, so that a count can be bisected by hand). The
counts come from a built-in engine (``--engine``) or an outside implementation through the
driver protocol (``--driver``): its ``perft`` command where it claims one (DRV-8), otherwise a
walk of its game through ``new_game``, ``apply`` and ``view``.

    reversis perft --ruleset hearts-4 --seed 1 --depth 3 --divide
"""

from __future__ import annotations

import _thread
import argparse
import json
import os
import select
import stat
import sys
import threading
import time
from pathlib import Path
from typing import Any

from .common import count, driver_command, finite_float, preset_name, ruleset_file, seed

#: ``--depth``: PERFT-5's bound, the core's ``LIMITS["perft_depth"]``.
MAX_DEPTH = 32
#: The most bytes of a record or an actions file read (a record holds at most 64 MiB, ERR-6).
MAX_INPUT_BYTES = 64 * 1024 * 1024


def _ruleset(text: str) -> Any:
    """``--ruleset``: a preset's name, or a JSON file holding a ruleset (its canonical object)."""
    import reversis

    if text in reversis.preset_names():
        return text
    if not Path(text).expanduser().exists() and "/" not in text and not text.endswith(".json"):
        return preset_name(text)  # the usage error that lists the presets
    return ruleset_file(text).to_json()


def _json_file(text: str, what: str) -> Any:
    """JSON text, or ``@FILE`` for the JSON in a file."""
    if not text.startswith("@"):
        try:
            return json.loads(text)
        except ValueError as error:
            raise argparse.ArgumentTypeError(f"{what} is not JSON: {error}") from None
    try:
        with open(Path(text[1:]).expanduser(), "rb") as source:
            data = source.read(MAX_INPUT_BYTES + 1)
    except OSError as error:
        raise argparse.ArgumentTypeError(f"cannot read {text[1:]}: {error.strerror or error}") from None
    if len(data) > MAX_INPUT_BYTES:
        raise argparse.ArgumentTypeError(f"{text[1:]} is larger than {MAX_INPUT_BYTES:,} bytes")
    try:
        return json.loads(data.decode("utf-8"))
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"{text[1:]} is not JSON: {error}") from None


def _actions(text: str) -> list[dict[str, Any]]:
    """``--actions``: a JSON list of ACT-1 actions, or ``@FILE``."""
    value = _json_file(text, "--actions")
    if not isinstance(value, list) or not all(isinstance(action, dict) for action in value):
        raise argparse.ArgumentTypeError("--actions is a JSON list of action objects (ACT-1)")
    return value


def _record(text: str) -> dict[str, Any]:
    """``--record FILE``: a game record (REC-1) in JSON or MessagePack (REC-3)."""
    import reversis

    try:
        with open(Path(text).expanduser(), "rb") as source:
            data = source.read(MAX_INPUT_BYTES + 1)
    except OSError as error:
        raise argparse.ArgumentTypeError(f"cannot read the record {text}: {error.strerror or error}") from None
    try:
        return dict(reversis.load_record(data))
    except reversis.InvalidInputError as error:
        raise argparse.ArgumentTypeError(f"{text}: {error}") from None


def _key(text: str) -> str:
    """One decision key of ``--path`` (PERFT-4), its cards made canonical: ``qs`` is ``QS``."""
    import reversis

    if text in ("add-to-others", "subtract-from-taker"):
        return text
    try:
        cards = [reversis.parse_card(card) for card in text.split("+")]
    except reversis.InvalidInputError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a decision key: a card (QS), cards joined by + (2C+7D+QS) or a moon choice"
        ) from None
    return "+".join(sorted(cards, key=reversis.card_id))


def _path(text: str) -> list[str]:
    return [_key(word) for word in text.split()]


def _position(args: argparse.Namespace) -> Any:
    from ..conformance.perft import Position

    if args.record is not None:
        return Position.of_record(args.record, args.actions)
    start = {"seed": args.seed, "hand_number": args.hand_number}
    return Position(args.ruleset, start, list(args.actions or []))


def _describe(args: argparse.Namespace, view: dict[str, Any]) -> str:
    """The position in one line: where it comes from, its phase and who decides there."""
    if args.record is not None:
        origin = f"the record {args.record_name}"
    else:
        name = args.ruleset if isinstance(args.ruleset, str) else args.ruleset.get("name", "a ruleset")
        origin = f"{name}, seed {args.seed}, hand {args.hand_number}"
    if args.actions:
        origin += f", {len(args.actions)} actions"
    if args.path:
        origin += f", then {' '.join(args.path)}"
    phase = view["phase"]
    acting = view.get("to_act")
    if acting is None:
        acting = view["to_move"] if phase in ("play", "moon") else min(view["awaiting_pass"], default=None)
    who = f"seat {acting} to act" if acting is not None else "nobody to act"
    return f"{origin}: phase {phase}, {who}"


class _ClosedOutput:
    """Watches standard output while a count runs: a closed pipe stops the count.

    A count writes nothing for as long as it takes, so it would never learn that the reader of
    its output has gone (``reversis perft ... | head -1``). Where standard output is a pipe, a
    thread polls it, and once the reader has closed it interrupts the main thread (as Ctrl-C
    does, which the Rust core checks between positions); the count then ends as a closed pipe.
    """

    def __init__(self) -> None:
        self.closed = False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __enter__(self) -> _ClosedOutput:
        poll = getattr(select, "poll", None)
        try:
            is_pipe = stat.S_ISFIFO(os.fstat(sys.stdout.fileno()).st_mode)
        except (OSError, ValueError, AttributeError):
            is_pipe = False
        if poll is not None and is_pipe:
            self._thread = threading.Thread(target=self._watch, args=(sys.stdout.fileno(),), daemon=True)
            self._thread.start()
        return self

    def _watch(self, fd: int) -> None:
        poller = select.poll()
        poller.register(fd, 0)  # POLLERR and POLLHUP are reported whatever is asked for
        while not self._stop.is_set():
            if any(events & (select.POLLERR | select.POLLHUP) for _, events in poller.poll(100)):
                self.closed = True
                _thread.interrupt_main()
                return

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()


def _run(args: argparse.Namespace) -> int:
    from ..conformance import EngineError, EngineFault

    with _ClosedOutput() as output:
        try:
            return _count(args)
        except EngineError as error:
            # A rejected action of --actions, or a count the implementation refuses (PERFT-5).
            print(f"reversis perft: error: {error.code}: {error.message}", file=sys.stderr)
            return 1
        except EngineFault as fault:
            print(f"reversis perft: error: the implementation failed: {fault}", file=sys.stderr)
            return 1
        except KeyboardInterrupt:
            if output.closed:
                raise BrokenPipeError("standard output was closed") from None
            raise


def _count(args: argparse.Namespace) -> int:
    from ..conformance import DriverEngine, builtin_engine
    from ..conformance.perft import Walker

    engine: Any = DriverEngine(args.driver, timeout=args.timeout) if args.driver else builtin_engine(args.engine)
    try:
        walker = Walker(engine, _position(args))
        path = walker.resolve(args.path)
        view = walker.view(path)
        if args.driver:
            how = "its perft command" if walker.claims_perft else "a walk through new_game, apply and view"
            source = f"{args.driver} ({how})"
        else:
            source = f"the {args.engine} engine"
        print(f"{_describe(args, view)}; {source}")
        started = time.perf_counter()
        if args.divide:
            counts = walker.divide(path, args.depth, args.unit)
            for key, number in counts.items():
                print(f"{key}: {number}")
            total = sum(counts.values())
        else:
            total = walker.perft(path, args.depth, args.unit)
        elapsed = time.perf_counter() - started
        print(f"perft {args.depth} ({args.unit}): {total}  [{elapsed:.3f} s]")
    except BaseException:
        engine.kill()
        raise
    finally:
        engine.close()
    return 0


def _check(args: argparse.Namespace) -> str | None:
    if args.record is not None and (args.seed is not None or args.hand_number is not None):
        return "--record gives the position: it takes no --seed or --hand-number"
    if args.record is not None and args.ruleset_given:
        return "--record holds its ruleset: it takes no --ruleset"
    if args.divide and args.depth == 0:
        return "--divide needs a --depth of at least 1 (PERFT-4)"
    if args.record is None:
        args.seed = 0 if args.seed is None else args.seed
        args.hand_number = 0 if args.hand_number is None else args.hand_number
    return None


class _RecordAction(argparse.Action):
    """Reads ``--record`` and keeps its file name for the header line."""

    def __call__(self, parser: Any, namespace: argparse.Namespace, values: Any, option: Any = None) -> None:
        try:
            namespace.record = _record(str(values))
        except argparse.ArgumentTypeError as error:
            raise argparse.ArgumentError(self, str(error)) from None
        namespace.record_name = str(values)


class _RulesetAction(argparse.Action):
    def __call__(self, parser: Any, namespace: argparse.Namespace, values: Any, option: Any = None) -> None:
        namespace.ruleset = values
        namespace.ruleset_given = True


def register(commands: Any) -> None:
    """Add ``perft`` to the ``reversis`` command."""
    parser = commands.add_parser(
        "perft",
        help="count the legal sequences of decisions from a position (perft and divide, spec/perft.md)",
        description="Count the legal sequences of --depth decisions (or of decisions until --depth more "
        "tricks are complete) from a position: a seed's deal, or a record, then --actions and --path. "
        "--divide gives the count below each decision of the seat to act, by its key (PERFT-4).",
    )
    parser.add_argument(
        "--ruleset",
        type=_ruleset,
        action=_RulesetAction,
        default="hearts-4",
        metavar="PRESET|FILE",
        help="a preset's name, or a JSON file holding a ruleset (default hearts-4)",
    )
    parser.add_argument("--seed", type=seed, default=None, help="the seed that deals (0 to 2**64-1; default 0)")
    parser.add_argument(
        "--hand-number", type=count(0, 2**64 - 1, "--hand-number"), default=None, help="the first hand (default 0)"
    )
    parser.add_argument(
        "--record", action=_RecordAction, default=None, metavar="FILE", help="start from this game record (REC-1)"
    )
    parser.add_argument(
        "--actions",
        type=_actions,
        default=None,
        metavar="JSON|@FILE",
        help="ACT-1 actions applied after the deal or the record, as a JSON list",
    )
    parser.add_argument(
        "--path",
        type=_path,
        default=[],
        metavar="KEYS",
        help="then these decisions, by the keys --divide prints, space-separated ('2C 3C', '2C+5D+QS')",
    )
    parser.add_argument(
        "--depth", type=count(0, MAX_DEPTH, "--depth"), required=True, help=f"the depth, 0 to {MAX_DEPTH}"
    )
    parser.add_argument("--unit", choices=("decisions", "tricks"), default="decisions", help="what the depth counts")
    parser.add_argument("--divide", action="store_true", help="the count below each decision, by its key")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--engine", choices=("rust", "reference"), default="rust", help="a built-in engine")
    which.add_argument(
        "--driver", metavar="CMD", type=driver_command, help="an implementation through the driver protocol"
    )
    parser.add_argument(
        "--timeout",
        type=finite_float(0.0, strict=True, high=86_400.0),
        default=60.0,
        help="seconds a driver may take per request (default 60)",
    )
    parser.set_defaults(run=_run, check=_check, parser=parser, record=None, record_name=None, ruleset_given=False)
