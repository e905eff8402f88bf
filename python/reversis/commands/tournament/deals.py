"""The duplicate deal: its seed, the seatings it is played in, and playing it.

Deal ``i`` is a fresh seeded game started at hand number ``i`` (so the passing direction cycles
as in a match), played once per seating of :func:`seatings` to the end of that one hand and
scored with the moon rule applied. :func:`play_chunk` is the task both backends run, the local
worker pool (:mod:`.pool`) and Ray (:mod:`reversis.commands.tournament_ray`): it takes the
ruleset as its canonical JSON text (:func:`ruleset_text`), so any ruleset, not only a preset,
reaches the workers whole.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import pickle
import time
from collections.abc import Generator, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from .errors import TournamentError, WorkerError
from .players import DEFAULT_TIME_LIMIT_MS, PlayerBatch, check_players, is_command

if TYPE_CHECKING:
    from reversis import Ruleset

__all__ = [
    "MAX_SEATINGS",
    "Backend",
    "DealResult",
    "check_tournament",
    "chunks",
    "deal_json",
    "deal_seed",
    "forfeit_flags",
    "play_chunk",
    "play_chunk_task",
    "play_deal",
    "ruleset_text",
    "seatings",
]


def deal_seed(seed: int, index: int) -> int:
    """The 64-bit seed of deal ``index`` of a tournament seeded with ``seed``.

    A hash rather than ``seed + index``: seeds of neighbouring SplitMix64 states would give
    overlapping generator streams (SEED-1).
    """
    digest = hashlib.sha256(f"reversis-tournament:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "little")


#: The most seatings one deal is played in when it is played in every assignment of the players.
MAX_SEATINGS = 64


def seatings(players: Sequence[str], seats: int) -> list[list[str]]:
    """The player type at each seat in each seating a deal is played in, no seating twice.

    Every distinct assignment of the types to the seats that seats each type at least once, as
    the published duplicate evaluations of Hearts programs play them (two programs at four
    seats: the 14 seatings that are not all one program), when there are at most
    :data:`MAX_SEATINGS` of them; otherwise the distinct rotations of the assignment that repeats
    the types in order around the table. Either way every type sits at every seat equally often
    (for the rotations, where the number of types divides the seats).
    """
    if not players:
        raise TournamentError("no players")
    if len(players) > seats:
        raise TournamentError(f"{len(players)} player types do not fit a table of {seats} seats")
    kinds = list(dict.fromkeys(players))
    if len(kinds) ** seats <= 8 * MAX_SEATINGS:
        every = [list(seating) for seating in itertools.product(kinds, repeat=seats) if set(seating) == set(kinds)]
        if len(every) <= MAX_SEATINGS:
            return every
    base = [players[i % len(players)] for i in range(seats)]
    rotations = [[base[(seat - rotation) % seats] for seat in range(seats)] for rotation in range(seats)]
    return [seating for index, seating in enumerate(rotations) if seating not in rotations[:index]]


def check_tournament(players: Sequence[str], ruleset: Ruleset, hands: int, jobs: int) -> None:
    """Refuse a tournament that cannot be played, before anything is started.

    :raises TournamentError: as :func:`~.players.check_players` (a player that cannot play
        ``ruleset`` included), for more player types than ``ruleset`` has seats, and for fewer than one deal or one job.
    """
    seatings(players, ruleset.players)
    check_players(players, ruleset)
    if hands < 1:
        raise TournamentError("--hands must be at least 1")
    if jobs < 1:
        raise TournamentError("--jobs must be at least 1")


def ruleset_text(ruleset: Ruleset) -> str:
    """The canonical JSON text of ``ruleset`` (its canonical object, RS-16), as worker tasks receive it."""
    return json.dumps(ruleset.to_json(), ensure_ascii=False, separators=(",", ":"))


@dataclass
class DealResult:
    """One deal played in every rotation: each rotation's seating and hand scores, decision times, forfeits.

    ``forfeits`` lists the hands a ``cmd:`` player forfeited (PLY-7, PLY-8): ``rotation``,
    ``seat``, ``player``, and the fault's ``kind``, ``reason``, ``decision`` and ``stderr``.
    ``seed`` is the deal's game seed (:func:`deal_seed`); its hand number is ``index``.
    """

    index: int
    seatings: list[list[str]]
    scores: list[list[int]]
    times: dict[str, list[float]] = field(default_factory=dict)
    forfeits: list[dict[str, Any]] = field(default_factory=list)
    seed: int = 0


def forfeit_flags(deal: DealResult) -> list[list[bool]]:
    """Per seating and seat, whether the player there forfeited that hand."""
    flags = [[False] * len(seating) for seating in deal.seatings]
    for forfeit in deal.forfeits:
        flags[forfeit["seating"]][forfeit["seat"]] = True
    return flags


def deal_json(deal: DealResult) -> dict[str, Any]:
    """One deal as JSON data: its index, game seed and hand number, then per seating and seat the player and points.

    ``seatings``, ``scores`` and ``forfeited`` are lists of rotations, each a list of seats: the
    player type there, its hand points, and whether it forfeited that hand (the details of each
    forfeit are in ``forfeits``).
    """
    return {
        "deal": deal.index,
        "seed": deal.seed,
        "hand_number": deal.index,
        "seatings": deal.seatings,
        "scores": deal.scores,
        "forfeited": forfeit_flags(deal),
        "forfeits": deal.forfeits,
    }


def play_deal(
    ruleset: Ruleset,
    players: Sequence[str],
    seed: int,
    index: int,
    rollouts: int | None = None,
    *,
    time_limit_ms: int = DEFAULT_TIME_LIMIT_MS,
    bot_stderr: str = "capture",
) -> DealResult:
    """Play deal ``index`` under ``ruleset`` once per seating of :func:`seatings`, every seat acting on its observation.

    A ``cmd:`` player's processes live for this deal only (:func:`play_chunk` keeps them for
    a batch of deals).
    """
    with PlayerBatch(ruleset, rollouts=rollouts, time_limit_ms=time_limit_ms, bot_stderr=bot_stderr) as batch:
        return _play(batch, players, seed, index)


def _play(batch: PlayerBatch, players: Sequence[str], seed: int, index: int) -> DealResult:
    import reversis
    from reversis.players import observe

    rotations = seatings(players, batch.ruleset.players)
    scores: list[list[int]] = []
    times: dict[str, list[float]] = {name: [] for name in players}
    forfeits: list[dict[str, Any]] = []
    for rotation, seating in enumerate(rotations):
        game = reversis.Game(batch.ruleset, seed=deal_seed(seed, index), hand_number=index)
        table = [
            batch.seat(name, seat, index, deal_seed(seed, index * 1000 + rotation * 10 + seat))
            for seat, name in enumerate(seating)
        ]
        while game.hand_number == index and game.phase not in ("over", "deal"):
            phase = game.phase
            mover = game.to_act
            assert mover is not None  # phases pass, play and moon always have an acting seat (ACT-3)
            seat = int(mover)
            observation = observe(game, seat)
            start = time.perf_counter()
            action = table[seat].act(observation)
            elapsed = time.perf_counter() - start
            if phase == "play" and not getattr(table[seat], "fell_back", False):
                times[seating[seat]].append(elapsed)
            game.apply(action)
        scores.append([int(x) for x in game.hand_scores[-1]])
        for seat, name in enumerate(seating):
            if not is_command(name):
                continue
            forfeit = table[seat].forfeit
            if forfeit is not None:
                forfeits.append({"seating": rotation, "seat": seat, "player": name, **forfeit.to_json()})
            else:
                table[seat].end_hand(game.last_hand, game.scores)
    return DealResult(index, rotations, scores, times, forfeits, seed=deal_seed(seed, index))


def play_chunk(
    ruleset_json: str,
    players: Sequence[str],
    seed: int,
    indices: Sequence[int],
    rollouts: int | None,
    *,
    time_limit_ms: int = DEFAULT_TIME_LIMIT_MS,
    bot_stderr: str = "capture",
) -> list[DealResult]:
    """Play several deals in one worker task, each ``cmd:`` player's processes serving them all.

    ``ruleset_json`` is the ruleset's canonical JSON text (:func:`ruleset_text`).
    """
    import reversis

    ruleset = reversis.Ruleset.from_json(ruleset_json)
    with PlayerBatch(ruleset, rollouts=rollouts, time_limit_ms=time_limit_ms, bot_stderr=bot_stderr) as batch:
        return [_play(batch, players, seed, index) for index in indices]


def play_chunk_task(*args: Any, **kwargs: Any) -> list[DealResult]:
    """:func:`play_chunk` as a worker process or a Ray task runs it: any error it raises can be sent back.

    An error that pickle cannot rebuild would kill multiprocessing's result thread (and the
    tournament would wait for a result that never comes) or reach Ray's caller as "failed to
    deserialize": it is sent back as a :class:`~.errors.WorkerError` with its type and message.
    """
    try:
        return play_chunk(*args, **kwargs)
    except Exception as error:
        try:
            pickle.loads(pickle.dumps(error))
        except Exception:
            raise WorkerError(f"a worker failed with {type(error).__name__}: {error}") from None
        raise


def chunks(hands: int, size: int) -> Iterator[range]:
    """The deal indices ``0 … hands − 1`` in ranges of ``size``, made one at a time."""
    for first in range(0, hands, size):
        yield range(first, min(first + size, hands))


class Backend(Protocol):
    """A way to play the deals of a tournament, as :func:`reversis.commands.tournament.iter_deals` does.

    It yields deals ``0 … hands − 1`` in order, whatever it plays them on, with results that
    depend only on the players, ``ruleset``, ``seed`` and ``rollouts``. The local worker pool
    (:func:`.pool.iter_deals`) is one; Ray (:func:`reversis.commands.tournament_ray.ray_backend`)
    is another.
    """

    def __call__(
        self,
        players: Sequence[str],
        *,
        ruleset: Ruleset,
        hands: int,
        seed: int,
        jobs: int,
        rollouts: int | None,
        chunk: int | None,
        time_limit_ms: int,
        bot_stderr: str,
    ) -> Generator[DealResult, None, None]:
        """Play the deals and yield them in order; closing the iterator stops the work in flight."""
        ...
