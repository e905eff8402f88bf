"""The duplicate deal and the duplicate match: their seed, the seatings they are played in, and playing them.

Deal ``i`` is a fresh seeded game started at hand number ``i`` (so the passing direction cycles
as in a match), played once per seating of :func:`seatings` to the end of that one hand and
scored with the moon rule applied. Match sequence ``i`` (``--matches``) is a game seeded as deal
``i`` but started at hand 0 with zero totals and played once per seating to the end of the
match: the game deals each hand from its seed's generator, which nothing else draws from, so
hand ``k`` is dealt the same cards in every seating while it is played.

:func:`play_chunk` is the task both backends run, the local worker pool (:mod:`.pool`) and Ray
(:mod:`reversis.commands.tournament_ray`): it takes the ruleset as its canonical JSON text
(:func:`ruleset_text`), so any ruleset, not only a preset, reaches the workers whole.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import pickle
import time
from collections.abc import Generator, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, Union

from .errors import TournamentError, WorkerError
from .players import DEFAULT_TIME_LIMIT_MS, PlayerBatch, check_players, is_command

if TYPE_CHECKING:
    from reversis import Ruleset

__all__ = [
    "MAX_SEATINGS",
    "Backend",
    "DealResult",
    "MatchResult",
    "Unit",
    "check_tournament",
    "chunks",
    "deal_json",
    "deal_seed",
    "forfeit_flags",
    "match_end",
    "match_json",
    "play_chunk",
    "play_chunk_task",
    "play_deal",
    "play_match",
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


def check_tournament(players: Sequence[str], ruleset: Ruleset, hands: int, jobs: int, *, matches: bool = False) -> None:
    """Refuse a tournament that cannot be played, before anything is started.

    ``hands`` is the number of units: deals, or match sequences where ``matches`` is true.

    :raises TournamentError: as :func:`~.players.check_players` (a player that cannot play
        ``ruleset`` included), for more player types than ``ruleset`` has seats, and for fewer than one deal or one job.
    """
    seatings(players, ruleset.players)
    check_players(players, ruleset)
    if hands < 1:
        raise TournamentError(f"{'--matches' if matches else '--hands'} must be at least 1")
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


def match_end(ruleset: Ruleset) -> str:
    """How a match of ``ruleset`` ends, in the words of a table's header: ``to 100``, ``of 6 hands``.

    Read from the fields that end a match (``target``, RS-11; ``count_down``, RS-20; ``deals``,
    RS-26); the game itself says when one is over (its phase ``over``).
    """
    ends = []
    if ruleset.target is not None:
        ends.append(f"to {ruleset.target}" + (" then counted down" if ruleset.count_down else ""))
    if ruleset.deals is not None:
        ends.append(f"of {'at most ' if ends else ''}{ruleset.deals} hands")
    return " ".join(ends)


@dataclass
class MatchResult:
    """One match sequence played in every seating: per seating its hands, totals and winners; decision times, forfeits.

    ``scores`` holds per seating the scores of each hand played (a list of hands, each a list of
    seats), ``totals`` the final totals, ``winners`` the winning seats (MATCH-3: every seat with
    the lowest total). ``forfeits`` are as :class:`DealResult`'s, with the ``hand`` number too.
    ``seed`` is the game seed (:func:`deal_seed` of the sequence ``index``); every seating starts
    at hand 0 with zero totals.
    """

    index: int
    seatings: list[list[str]]
    scores: list[list[list[int]]]
    totals: list[list[int]]
    winners: list[list[int]]
    times: dict[str, list[float]] = field(default_factory=dict)
    forfeits: list[dict[str, Any]] = field(default_factory=list)
    seed: int = 0

    def win_shares(self) -> list[list[float]]:
        """Per seating and seat, the share of the win: ``1/k`` for each of ``k`` tied winners, else 0."""
        return [
            [1 / len(winners) if seat in winners else 0.0 for seat in range(len(seating))]
            for seating, winners in zip(self.seatings, self.winners)
        ]


#: What a tournament plays and sums up: a deal (one hand in every seating) or a match sequence.
Unit = Union[DealResult, MatchResult]


def match_json(match: MatchResult) -> dict[str, Any]:
    """One match sequence as JSON data: its index and game seed, then per seating the players, hands, totals, winners.

    ``seatings`` and ``totals`` are lists of seatings, each a list of seats; ``scores`` per
    seating a list of hands, each a list of seats' scores; ``winners`` per seating the winning
    seats; ``forfeited`` per seating and seat the number of hands forfeited (details in ``forfeits``).
    """
    forfeited = [[0] * len(seating) for seating in match.seatings]
    for forfeit in match.forfeits:
        forfeited[forfeit["seating"]][forfeit["seat"]] += 1
    return {
        "match": match.index,
        "seed": match.seed,
        "seatings": match.seatings,
        "hands": [len(hands) for hands in match.scores],
        "scores": match.scores,
        "totals": match.totals,
        "winners": match.winners,
        "forfeited": forfeited,
        "forfeits": match.forfeits,
    }


def play_match(
    ruleset: Ruleset,
    players: Sequence[str],
    seed: int,
    index: int,
    rollouts: int | None = None,
    *,
    time_limit_ms: int = DEFAULT_TIME_LIMIT_MS,
    bot_stderr: str = "capture",
) -> MatchResult:
    """Play match sequence ``index`` under ``ruleset`` once per seating of :func:`seatings`, each to the match's end."""
    with PlayerBatch(ruleset, rollouts=rollouts, time_limit_ms=time_limit_ms, bot_stderr=bot_stderr) as batch:
        return _play_match(batch, players, seed, index)


def _player_seed(seed: int, index: int, seating: int, seat: int, hand: int) -> int:
    """The seed of the player at ``seat`` of ``seating`` for hand ``hand`` of match sequence ``index``."""
    digest = hashlib.sha256(f"reversis-match-player:{seed}:{index}:{seating}:{seat}:{hand}".encode()).digest()
    return int.from_bytes(digest[:8], "little")


def _play_match(batch: PlayerBatch, players: Sequence[str], seed: int, index: int) -> MatchResult:
    import reversis

    rotations = seatings(players, batch.ruleset.players)
    result = MatchResult(index, rotations, [], [], [], {name: [] for name in players}, [], deal_seed(seed, index))
    for rotation, seating in enumerate(rotations):
        game = reversis.Game(batch.ruleset, seed=result.seed)
        while game.phase != "over":
            hand = game.hand_number
            table = [
                batch.seat(name, seat, hand, _player_seed(seed, index, rotation, seat, hand))
                for seat, name in enumerate(seating)
            ]
            _play_hand(game, seating, table, result.times)
            if game.hand_number == hand and game.phase != "over":
                # A seeded game deals by itself: a hand that does not lead on would loop forever.
                raise TournamentError(f"match {index}: the game stopped in phase {game.phase!r} after hand {hand}")
            for seat, name in enumerate(seating):
                if not is_command(name):
                    continue
                forfeit = table[seat].forfeit
                if forfeit is not None:
                    result.forfeits.append(
                        {"seating": rotation, "seat": seat, "player": name, "hand": hand, **forfeit.to_json()}
                    )
                else:
                    table[seat].end_hand(game.last_hand, game.scores)
        result.scores.append([[int(x) for x in scores] for scores in game.hand_scores])
        result.totals.append([int(x) for x in game.scores])
        result.winners.append([int(seat) for seat in game.winners])
    return result


def _play_hand(game: Any, seating: Sequence[str], table: Sequence[Any], times: dict[str, list[float]]) -> None:
    """Play the hand in progress of ``game`` to its end, every seat acting on its observation.

    The time of each card decision goes to ``times``, under the player's name.
    """
    from reversis.players import observe

    hand = game.hand_number
    while game.hand_number == hand and game.phase not in ("over", "deal"):
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
        _play_hand(game, seating, table, times)
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
    matches: bool = False,
) -> list[Unit]:
    """Play several deals in one worker task, each ``cmd:`` player's processes serving them all.

    Where ``matches`` is true the indices are match sequences, each played to the end of the match.
    ``ruleset_json`` is the ruleset's canonical JSON text (:func:`ruleset_text`).
    """
    import reversis

    ruleset = reversis.Ruleset.from_json(ruleset_json)
    play = _play_match if matches else _play
    with PlayerBatch(ruleset, rollouts=rollouts, time_limit_ms=time_limit_ms, bot_stderr=bot_stderr) as batch:
        return [play(batch, players, seed, index) for index in indices]


def play_chunk_task(*args: Any, **kwargs: Any) -> list[Unit]:
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

    It yields deals ``0 … hands − 1`` in order (with ``matches`` true: the match sequences
    ``0 … hands − 1``, as :class:`MatchResult`), whatever it plays them on, with results that
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
        matches: bool = False,
    ) -> Generator[Unit, None, None]:
        """Play the deals (or match sequences) and yield them in order; closing the iterator stops the work."""
        ...
