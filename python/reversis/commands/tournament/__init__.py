"""Duplicate tournaments between computer players: the library behind ``reversis tournament``.

Every deal is played once per seating, so each player type sits at each seat with each deal
and luck of the cards cancels out of the comparison. The unit is the **hand**: deal ``i`` is a
fresh seeded game started at hand number ``i`` (so the passing direction cycles as in a match),
played to the end of that one hand under the tournament's :class:`reversis.Ruleset` (a preset
or any other) and scored with the moon rule applied. The numbers are mean points per hand with
95% intervals clustered by deal, paired differences per deal, and the median decision time.

With ``matches`` (``--matches``) the unit is the whole **match** instead: match sequence ``i`` is
a game seeded as deal ``i``, from hand 0 with zero totals, played in every seating to the end of
the match (hand ``k`` dealt the same cards in every seating); the numbers are each type's
match-win rate (ties shared), beside the share under equal play, and its points per hand, with
intervals clustered by match sequence, and per pair the difference of win rates.

Deals stream: they are generated, played and summed up in order, a bounded number at a time,
so memory does not grow with the number of deals. A player named ``cmd:COMMAND`` is a program
in any language speaking the player protocol of spec/player.md; its faults forfeit hands
(PLY-7), which the fallback finishes and which count as played and are reported (PLY-8).

The modules, each with one job, in the order a deal goes through them:

- :mod:`.players`: the names of ``--players`` checked and turned into players at a table;
- :mod:`.deals`: a deal's seed, the seatings it is played in, and playing it (the task every
  backend runs, given the ruleset as its canonical JSON text);
- :mod:`.pool`: the local backend, deals in worker processes (:func:`iter_deals`); the Ray
  backend is :mod:`reversis.commands.tournament_ray`, which only :mod:`.cli` imports;
- :mod:`.stats`: the intervals and the running tally of the deals (:class:`TournamentResult`);
- :mod:`.run`: :func:`run_tournament`, all of the above as one call;
- :mod:`.reports`: the table, the ``--json`` and ``--csv`` reports, the ``--chart``;
- :mod:`.cli`: the ``reversis tournament`` command, the only module that imports Ray's, and
  only for ``--ray``.

>>> import reversis
>>> result = run_tournament(["random", "rules"], ruleset=reversis.preset("hearts-4"), hands=2, seed=1)
>>> [stat.hands for stat in result.stats]
[28, 28]
"""

from __future__ import annotations

from .deals import (
    MAX_SEATINGS,
    Backend,
    DealResult,
    MatchResult,
    check_tournament,
    deal_json,
    deal_seed,
    match_end,
    match_json,
    play_deal,
    play_match,
    seatings,
)
from .errors import TournamentError
from .players import (
    COMMAND_PREFIX,
    DEFAULT_TIME_LIMIT_MS,
    OPTION_SEPARATOR,
    PLAYER_CLASSES,
    load_player_class,
    player_options,
    resolve_players,
    split_players,
)
from .pool import iter_deals
from .reports import (
    CHART_FORMATS,
    CSV_COLUMNS,
    MATCH_CSV_COLUMNS,
    chart_format,
    deal_rows,
    format_table,
    match_rows,
    write_chart,
)
from .run import run_tournament
from .stats import (
    INTERVAL_METHOD,
    MATCH_INTERVAL_METHOD,
    MatchPairStats,
    MatchStats,
    PairStats,
    PlayerStats,
    TournamentResult,
    interval,
    t_quantile,
)

__all__ = [
    "CHART_FORMATS",
    "COMMAND_PREFIX",
    "CSV_COLUMNS",
    "DEFAULT_TIME_LIMIT_MS",
    "INTERVAL_METHOD",
    "MATCH_CSV_COLUMNS",
    "MATCH_INTERVAL_METHOD",
    "MAX_SEATINGS",
    "OPTION_SEPARATOR",
    "PLAYER_CLASSES",
    "Backend",
    "DealResult",
    "MatchPairStats",
    "MatchResult",
    "MatchStats",
    "PairStats",
    "PlayerStats",
    "TournamentError",
    "TournamentResult",
    "chart_format",
    "check_tournament",
    "deal_json",
    "deal_rows",
    "deal_seed",
    "format_table",
    "interval",
    "iter_deals",
    "load_player_class",
    "match_end",
    "match_json",
    "match_rows",
    "play_deal",
    "play_match",
    "player_options",
    "resolve_players",
    "run_tournament",
    "seatings",
    "split_players",
    "t_quantile",
    "write_chart",
]
