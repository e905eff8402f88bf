"""Every reversis ruleset as an OpenSpiel game, so that OpenSpiel's own algorithms and bots play it.

Importing this module registers one Python game per preset with ``pyspiel`` (:func:`register`
does the same and may be called again), named ``reversis_<preset>`` with ``-`` written ``_``:
``reversis_hearts_4``, ``reversis_hartenjagen``, …

>>> import pyspiel
>>> import reversis.adapters.openspiel_game
>>> game = pyspiel.load_game("reversis_hearts_3")
>>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()
(3, 106, 51)
>>> game = pyspiel.load_game("reversis_cancellation_10")
>>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes(), game.max_game_length()
(10, 106, 52, 131)

The presets of two packs (RS-21: ``cancellation-6``, ``cancellation-8``, ``cancellation-10``)
are registered like the others; what two packs change is said below under *Chance*, *Decisions*,
*Returns*, *Observations* and *Resampling*.

This is the opposite direction of the harness in conformance/implementations/openspiel/, which
drives OpenSpiel's own ``hearts`` through the driver protocol so that the suite measures it.

**Parameters** (all optional, as ``pyspiel.load_game(name, {...})``):

- ``episode``: ``"hand"`` (default) plays one hand from zero totals, like OpenSpiel's ``hearts``;
  ``"match"`` plays a whole match (MATCH-2).
- ``hand_number``: the number of the first (or only) hand, which fixes its dealer and pass
  direction (DEAL-2, PASS-1); default 0.
- ``rewards``: ``"hand"`` (default) or ``"trick"``, as the vector environment's (API-11):
  ``"hand"`` pays each seat minus its score on the step that scores a hand; ``"trick"`` pays a
  trick's winner minus its points on the step that completes it, and the moon's adjustment on the
  step that scores the hand. Either way a hand's rewards sum to minus its scores.
- ``max_hands``: in a match, the most hands played before the episode is cut short (returns are
  then minus the totals so far). A match need not end: under ``subtract-from-taker`` a run of moons
  lowers the totals. ``0`` (default) takes twice the hands that the points of ordinary hands need
  to bring some total to the target, and at least 10, but no more than the ruleset's ``deals``
  (MATCH-9), which alone ends a match without a target.
- ``ruleset``: the JSON text of a ruleset (spec/ruleset.md) to play instead of the preset; ``""``
  (default) plays the preset. Given as a dict parameter: a game string cannot hold JSON.

**The game.**

- *Chance.* Each deal is an explicit sequence of chance nodes (``EXPLICIT_STOCHASTIC``), one per
  card of the deck, copy by copy: the ``k``-th card dealt goes to seat ``k mod players``. Outcome
  ``i`` deals a copy of the ``i``-th distinct card of ``ruleset.deck`` (in the deck's order), with
  probability the copies of it not dealt yet over all the copies not dealt yet. With one pack
  every card has one copy: outcome ``i`` is ``ruleset.deck[i]``, drawn uniformly among the cards
  not dealt yet. With two packs (RS-21) identical cards share one outcome, as they share one id
  (CARD-2), and a card with both copies left is twice as likely as one with one copy left. Drawing
  a copy uniformly among those left, then the next, lays the copies out in a uniformly random
  order, so the hands dealt are exactly those of a well-shuffled physical deck dealt round the
  table; and two deals that differ only in which copy of a card a seat got are one chance history,
  as nothing in the game can tell them apart. After the last card the hands are given to an
  unseeded :class:`reversis.Game` as the ACT-1 ``deal``; each later hand of a match is dealt the
  same way. ``max_chance_outcomes`` is the number of distinct cards in the deck (52 for every
  two-pack preset).
- *Decisions.* The player to move is the acting seat ``to_act`` (ACT-3); actions are the 106 ids
  of ACT-2 (a pass is selected one card at a time, so seats pass in turn, lowest first), legal
  actions are ``Game.legal_actions()`` and are applied with ``Game.apply_action``. With two packs
  the two copies of a card share its id: playing or selecting the id plays or selects one copy,
  and a seat holding both may select the id twice toward its pass. ``max_game_length`` counts
  every copy of the deck: ``players × passing.size`` selections (in a hand that passes), one play
  per copy and a moon choice under ``taker-choice`` (18 + 102 + 1 = 121 for ``cancellation-6``, 105
  for ``cancellation-8``, 131 for ``cancellation-10``).
- *Returns* are minus the hand's scores (after the moon rule) in a hand episode, minus the match
  totals in a match. With a moon the scores of a hand do not have a constant sum, so the game is
  general-sum; a ruleset without a moon is constant-sum in a hand episode (zero-sum where its
  card points add up to 0). The scores are the :class:`reversis.Game`'s, so every rule of the
  ruleset (cancellation and held-over tricks, PLAY-9; the moon of 52 of two packs) comes from the
  engine. The utility bounds are the core's (``reversis._core.score_bounds``): the most and least
  a seat can score in a hand (its positive card points or the bonus of a rule that replaces the
  hand's scores; its negative card points, less the bonus where the taker may subtract it), every
  copy of a point card counted
  (SCORE-1: −52 to 52 for the two-pack presets), and in a match the target plus one hand (without
  a target, ``max_hands`` of the best hands) and ``max_hands`` of the worst hands.
  With ``rewards="trick"`` a trick held over pays nothing, and the next trick won pays its winner
  its own points and those of the tricks it captures (the EVT-1 ``trick`` event's ``points``).
  Rewards stay on the state through the chance nodes that follow them, so that the rewards read
  at successive decision nodes add up to the returns.
- *Observations.* ``observation_tensor`` is the OBS-3 encoding (1435 numbers, version 3) of the
  seat's OBS-1 observation, by the project's encoder (:func:`reversis.encoding.encode_observation`;
  the core serves OBS-3 only through the vector environment), whose card blocks count copies (2
  where a seat holds, passed or played both copies of a card) and whose ``held_over`` block holds
  the cards of tricks held over; ``observation_string`` renders that observation; while a hand is being dealt
  the observation's ``hand`` holds the cards dealt to the seat so far, and once a hand episode is
  over it is the game's after the hand (the totals hold the hand's scores). The *information
  state* is the observation together with the order in which the seat selected the cards of its
  pass this hand (OBS-1 keeps only the pass, sorted; OBS-3 not even the selection in progress):
  a tensor block of ``passing.size × 52`` one-hot rows (two rows on one card where the seat
  selected both copies). Everything else the seat has seen this
  hand follows from OBS-1 (its dealt hand is its hand, plus the cards it played and passed, less
  those it received; every play is in the tricks in order), so in a hand episode the information
  state has perfect recall, short of the order in which the seat was dealt its cards, which no
  decision of its own separates. In a match the earlier hands survive only in the totals, as in
  OBS-1: the information state does not recall them.
- *Observer types.* ``make_py_observer`` serves OpenSpiel's observation types with
  ``private_info`` of the single player or of nobody (the hand, pass, received cards, legal cards
  and pass order left out) and with or without the public information; all players' private
  information is not offered.
- *Resampling.* ``resample_from_infostate(player, sampler)`` returns a state whose history is
  consistent with everything the seat knows: its hand, its pass (and its order), the cards it
  received, every play, the totals, and the hidden cards laid out exactly uniformly among the
  layouts that agree with every seat's hand size, the revealed voids, the cards the seat passed
  (with their receiver until played) and what the legality of the plays reveals (a heart led
  before hearts were broken shows a hand of hearts; a point card discarded on the first trick
  under the first-trick ban shows a hand of point cards; before the first lead the seat to move
  holds the opening card), as the core's sampler draws them (``reversis._core.sample_consistent``,
  which reads the plays with the inverses of the rules of play). Other seats' passes are drawn
  uniformly among those that fit the layout; earlier hands of a match are replayed as they were
  (nothing of them but the totals is part of the information state). With two packs (RS-21)
  every hand is a multiset: the layouts are drawn exactly uniformly among the *physical* layouts
  (the two copies of a card told apart), so a layout of multisets is drawn in proportion to
  ``2 ** k``, ``k`` the cards whose two hidden copies it splits between two seats; the passes
  are drawn among the physical copies as well (a seat may pass both copies of a card, or pass
  one and receive the other), and the chance history replayed deals each seat's copies in a
  uniformly random order. OpenSpiel's Python ISMCTS
  (``open_spiel.python.algorithms.ismcts.ISMCTSBot``) uses it, on every preset. The C++
  ``pyspiel.ISMCTSBot`` cannot: OpenSpiel does not let a Python game override the C++ resampler,
  and that bot crashes on any Python game. ``undo_action`` is not offered either (OpenSpiel has
  no Python hook for it).
"""

from __future__ import annotations

import collections
import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
import pyspiel

import reversis
from reversis import _core
from reversis.encoding import ENCODING_LENGTH, LAYOUT, encode_observation
from reversis.players import Observation

__all__ = [
    "GAME_PREFIX",
    "PARAMETERS",
    "ReversisGame",
    "ReversisObserver",
    "ReversisState",
    "game_name",
    "register",
]

#: The prefix of every registered game's short name.
GAME_PREFIX = "reversis_"
#: Every game parameter with its default.
PARAMETERS: dict[str, Any] = {"episode": "hand", "hand_number": 0, "rewards": "hand", "max_hands": 0, "ruleset": ""}

_RANKS = "23456789TJQKA"
_SUITS = "CDHS"
_PASS_SELECT = 52  # ids 52 … 103 select a card toward a pass (ACT-2)
_MOON = 104
_RESAMPLE_ATTEMPTS = 50
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
# The OBS-3 fields a seat alone sees; every other field is public.
_PRIVATE_FIELDS = frozenset({"hand", "passed", "received", "legal"})
# The OBS-3 blocks of one row per relative seat (10 seats in version 3), shaped as such.
_SEAT_ROWS = next(length for name, _, length in LAYOUT if name == "voids") // 4
_FIELD_SHAPES = {"played": (_SEAT_ROWS, 52), "trick": (_SEAT_ROWS, 52), "voids": (_SEAT_ROWS, 4)}


def game_name(preset: str) -> str:
    """The short name under which a preset is registered: ``reversis_hearts_4`` for ``hearts-4``."""
    return GAME_PREFIX + preset.replace("-", "_")


def _card_name(card_id: int) -> str:
    """The canonical string of a card id (CARD-2, CARD-3)."""
    return _RANKS[card_id % 13] + _SUITS[card_id // 13]


# ----------------------------------------------------------------------------- configuration


@dataclass(frozen=True)
class _Config:
    """Everything fixed for one game: the ruleset and the parameters, with derived numbers.

    States share it; copying a state (OpenSpiel's ``clone`` deep-copies a state's attributes) keeps
    the one object.
    """

    preset: str
    ruleset: Any
    episode: str
    rewards: str
    hand_number: int
    max_hands: int
    #: Every copy of every card (RS-4, RS-21): with two packs a card may be listed twice.
    deck: tuple[str, ...] = field(init=False)
    #: The distinct cards of the deck in its order: chance outcome ``i`` deals a copy of ``cards[i]``.
    cards: tuple[str, ...] = field(init=False)
    #: The copies of ``cards[i]`` in the deck (1, or 2 with two packs).
    copies: tuple[int, ...] = field(init=False)
    #: A card's chance outcome: its index in ``cards``.
    card_index: dict[str, int] = field(init=False)

    def __post_init__(self) -> None:
        deck = tuple(self.ruleset.deck)
        cards = tuple(dict.fromkeys(deck))
        object.__setattr__(self, "deck", deck)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "copies", tuple(deck.count(card) for card in cards))
        object.__setattr__(self, "card_index", {card: i for i, card in enumerate(cards)})

    def __deepcopy__(self, memo: dict[int, Any]) -> _Config:
        return self

    @property
    def players(self) -> int:
        """The number of seats."""
        return int(self.ruleset.players)

    @property
    def pass_size(self) -> int:
        """The cards each seat passes, 0 for a ruleset without passing."""
        passing = self.ruleset.passing
        return int(passing["size"]) if passing else 0

    @property
    def packs(self) -> int:
        """The copies of each card shuffled together (RS-21): 1 or 2."""
        return max(self.copies)

    def score_bounds(self) -> tuple[int, int]:
        """The least and the most one seat can score in one hand (SCORE-1 … SCORE-3), from the core."""
        least, most = _core.score_bounds(self.ruleset)["hand"]
        assert least is not None and most is not None  # a hand's score is always bounded
        return least, most

    def total_bounds(self) -> tuple[int, int]:
        """The least and the most a seat's total can be in a match of ``max_hands`` hands, from the core."""
        least, most = _core.score_bounds(self.ruleset, self.max_hands)["total"]
        assert least is not None and most is not None  # a match of so many hands is bounded
        return least, most

    def hand_length(self, hand_number: int) -> int:
        """The most decisions in one hand: the selections of the passes, the plays and a moon choice."""
        # Who passes in that hand is the core's pass plan (PASS-1): none on a hold hand.
        plan = reversis.Game(self.ruleset, hand_number=hand_number).pass_plan
        passes = self.players * int(plan["size"]) if plan is not None else 0
        moon = self.ruleset.moon
        return passes + len(self.deck) + (1 if moon and moon["scoring"] == "taker-choice" else 0)

    def hands(self) -> int:
        """The most hands of one episode."""
        return 1 if self.episode == "hand" else self.max_hands


def _deck_points(ruleset: Any) -> list[int]:
    """The value of every copy in the deck (SCORE-1: each copy of a point card counts when captured)."""
    points = ruleset.card_points
    return [int(points.get(card, 0)) for card in ruleset.deck]


def _default_max_hands(ruleset: Any) -> int:
    """The default ``max_hands`` (``max_hands=0``): twice the ordinary hands to the target, at least 10.

    No more than ``deals`` (MATCH-9), which alone ends a match without a target.
    """
    deals = ruleset.deals
    if ruleset.target is None:
        return int(deals)
    per_hand = sum(_deck_points(ruleset))
    hands = 10 if per_hand <= 0 else max(10, 2 * math.ceil(ruleset.players * ruleset.target / per_hand))
    return hands if deals is None else min(hands, int(deals))


def _config(preset: str, params: dict[str, Any]) -> _Config:
    """Read and check the game parameters.

    :raises ValueError: for a parameter unknown or out of range.
    """
    unknown = set(params) - set(PARAMETERS)
    if unknown:
        raise ValueError(f"unknown parameters {sorted(unknown)}; the parameters are {sorted(PARAMETERS)}")
    values = {**PARAMETERS, **params}
    text = values["ruleset"]
    ruleset = reversis.Ruleset.from_json(text) if text else reversis.preset(preset)
    if values["episode"] not in ("hand", "match"):
        raise ValueError(f"episode must be 'hand' or 'match', not {values['episode']!r}")
    if values["rewards"] not in ("hand", "trick"):
        raise ValueError(f"rewards must be 'hand' or 'trick', not {values['rewards']!r}")
    if int(values["hand_number"]) < 0:
        raise ValueError("hand_number must be at least 0")
    if int(values["max_hands"]) < 0:
        raise ValueError("max_hands must be at least 0")
    max_hands = int(values["max_hands"]) or _default_max_hands(ruleset)
    return _Config(
        preset=preset,
        ruleset=ruleset,
        episode=str(values["episode"]),
        rewards=str(values["rewards"]),
        hand_number=int(values["hand_number"]),
        max_hands=max_hands,
    )


def _game_type(config: _Config) -> Any:
    """The OpenSpiel game type: the utility and reward model follow the ruleset and parameters."""
    utility = pyspiel.GameType.Utility.GENERAL_SUM
    if not config.ruleset.moon and config.episode == "hand":
        utility = pyspiel.GameType.Utility.CONSTANT_SUM
    if not config.ruleset.moon and sum(_deck_points(config.ruleset)) == 0:
        utility = pyspiel.GameType.Utility.ZERO_SUM
    terminal = config.episode == "hand" and config.rewards == "hand"
    title = config.ruleset.title or config.ruleset.name
    return pyspiel.GameType(
        short_name=game_name(config.preset),
        long_name=f"reversis {title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL if terminal else pyspiel.GameType.RewardModel.REWARDS,
        max_num_players=config.players,
        min_num_players=config.players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(PARAMETERS),
    )


def _game_info(config: _Config) -> Any:
    """The OpenSpiel game info: sizes, utility bounds and the longest episode."""
    if config.episode == "hand":
        least, most = config.score_bounds()
        low, high = -most, -least
        length = config.hand_length(config.hand_number)
    else:
        # Every total is below the target before the last hand, and no hand lowers it by more than `least`.
        lowest, highest = config.total_bounds()
        low, high = -highest, -lowest
        length = sum(config.hand_length(config.hand_number + h) for h in range(config.max_hands))
    if high <= low:  # a ruleset whose hands score nothing; OpenSpiel needs a range
        high = low + 1
    points = sum(_deck_points(config.ruleset))
    utility_sum: float | None = None
    game_type = _game_type(config)
    if game_type.utility == pyspiel.GameType.Utility.CONSTANT_SUM:
        utility_sum = float(-points)
    elif game_type.utility == pyspiel.GameType.Utility.ZERO_SUM:
        utility_sum = 0.0
    return pyspiel.GameInfo(
        num_distinct_actions=reversis.NUM_ACTIONS,
        max_chance_outcomes=len(config.cards),
        num_players=config.players,
        min_utility=float(low),
        max_utility=float(high),
        utility_sum=utility_sum,
        max_game_length=length,
    )


# ----------------------------------------------------------------------------- game


class ReversisGame(pyspiel.Game):
    """A reversis ruleset as an OpenSpiel game (see the module's documentation)."""

    #: The preset played unless the ``ruleset`` parameter names another; each registered game is
    #: a subclass that sets it.
    preset = "hearts-4"

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        """Build the game of :attr:`preset` (or of the ``ruleset`` parameter) with the given parameters."""
        self._config = _config(self.preset, dict(params or {}))
        super().__init__(_game_type(self._config), _game_info(self._config), dict(params or {}))

    @property
    def ruleset(self) -> Any:
        """The ruleset played."""
        return self._config.ruleset

    def new_initial_state(self) -> ReversisState:
        """The start of an episode: the first card of the deal is to come."""
        return ReversisState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> ReversisObserver:
        """An observer of the given OpenSpiel observation type (the observation by default)."""
        if isinstance(iig_obs_type, dict):  # OpenSpiel passes only the parameters when no type is asked for
            iig_obs_type, params = None, iig_obs_type
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        return ReversisObserver(self._config, iig_obs_type, params)

    def max_chance_nodes_in_history(self) -> int:
        """Every card of every deal of the longest episode."""
        return len(self._config.deck) * self._config.hands()


# ----------------------------------------------------------------------------- state


class ReversisState(pyspiel.State):
    """A position of a reversis episode: a :class:`reversis.Game` and the deal in progress."""

    def __init__(self, game: ReversisGame) -> None:
        """The first chance node of the episode's first deal."""
        super().__init__(game)
        config: _Config = game._config
        self._config = config
        self._game = reversis.Game(config.ruleset, hand_number=config.hand_number)
        self._dealt: list[int] = []  # the chance outcomes (indices in `cards`) of the deal in progress, in order
        self._hands = 0  # hands scored
        self._over = False
        n = config.players
        self._rewards = [0.0] * n
        self._returns = [0.0] * n
        # The hand in progress (or the last one): its first move in the history, who passes to
        # whom (the core's pass plan, None without a pass) and its moves as (player, action);
        # resampling rewrites them.
        self._hand_start = 0
        self._hand_plan: dict[str, Any] | None = None
        self._log: list[tuple[int, int]] = []

    # -- the OpenSpiel state API

    def current_player(self) -> int:
        """The seat to act, ``CHANCE`` while dealing, ``TERMINAL`` once the episode is over."""
        if self._over:
            return _TERMINAL
        to_act = self._game.to_act
        return _CHANCE if to_act is None else to_act

    def _legal_actions(self, player: int) -> list[int]:
        """The acting seat's legal ids (ACT-3), ascending."""
        return list(self._game.legal_actions(player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards with a copy not dealt yet, each as likely as it has copies left."""
        left = list(self._config.copies)
        for i in self._dealt:
            left[i] -= 1
        remaining = sum(left)
        return [(i, k / remaining) for i, k in enumerate(left) if k]

    def _apply_action(self, action: int) -> None:
        """Deal a card, or apply the acting seat's id."""
        config = self._config
        if self._game.phase == "deal":
            if not self._dealt:
                self._hand_start = len(self.history())
                self._hand_plan = self._game.pass_plan
                self._log = []
            self._log.append((_CHANCE, action))
            self._dealt.append(action)
            if len(self._dealt) == len(config.deck):
                n = config.players
                self._game.deal([[config.cards[i] for i in sorted(self._dealt[s::n])] for s in range(n)])
                self._dealt = []
            return
        seat = self._game.to_act
        assert seat is not None  # phases pass, play and moon always have an acting seat (ACT-3)
        self._game.apply_action(action, seat)
        self._log.append((seat, action))
        rewards = [0.0] * config.players
        for event in self._game.events:
            # A trick held over (PLAY-9) has no winner and pays nothing; the points of the tricks
            # held over come in the event of the trick whose winner captures them.
            if event["type"] == "trick" and config.rewards == "trick" and event["winner"] is not None:
                rewards[event["winner"]] -= event["points"]
            elif event["type"] == "hand":
                for s, score in enumerate(event["scores"]):
                    adjustment = event["points"][s] if config.rewards == "trick" else 0
                    rewards[s] -= score - adjustment
                self._hands += 1
                if config.episode == "hand" or self._hands >= config.max_hands:
                    self._over = True
            elif event["type"] == "over":
                self._over = True
        self._rewards = rewards
        self._returns = [total + r for total, r in zip(self._returns, rewards)]

    def _action_to_string(self, player: int, action: int) -> str:
        """``deal QS`` for a chance outcome, else the id's label (API-10): ``play QS``, ``pass QS``."""
        if player == _CHANCE:
            return f"deal {self._config.cards[action]}"
        return str(reversis.action_label(action))

    def is_terminal(self) -> bool:
        """Whether the episode is over."""
        return self._over

    def returns(self) -> list[float]:
        """Each seat's rewards so far: minus its scores."""
        return list(self._returns)

    def rewards(self) -> list[float]:
        """Each seat's reward for the last decision (kept through the chance nodes after it)."""
        return list(self._rewards)

    def __str__(self) -> str:
        """The whole position, every hand included."""
        game = self._game
        n = self._config.players
        lines = [
            f"hand {game.hand_number} dealer {game.dealer} phase {game.phase} pass {game.pass_direction or '-'}"
            f" to act {'-' if game.to_act is None else game.to_act}"
        ]
        if self._dealt:
            lines.append("dealt: " + " ".join(self._config.cards[i] for i in self._dealt))
        for s in range(n):
            selected = game.selected(s)
            line = f"seat {s}: {_cards(game.hand(s))}"
            if selected:
                line += f" | selected {_cards(selected)}"
            lines.append(line)
        lines.append(f"tricks: {_tricks(game.tricks_played)}")
        lines.append(f"trick: {_plays(game.trick)}")
        lines.append(f"points: {_numbers(game.points)} scores: {_numbers(game.scores)}")
        lines.append(f"returns: {_numbers(self._returns)} rewards: {_numbers(self._rewards)}")
        return "\n".join(lines)

    # -- reversis views

    @property
    def game(self) -> Any:
        """The :class:`reversis.Game` behind the state (do not change it)."""
        return self._game

    def observation_dict(self, seat: int) -> dict[str, Any]:
        """The seat's OBS-1 observation; during a deal its ``hand`` holds the cards dealt to it so far."""
        observation: dict[str, Any] = self._game.observation(seat)
        if self._dealt:
            observation["hand"] = [self._config.cards[i] for i in sorted(self._dealt[seat :: self._config.players])]
        return observation

    def pass_order(self, seat: int) -> list[str]:
        """The cards the seat has selected toward its pass this hand, in the order it selected them."""
        if self._game.phase not in ("pass", "play", "moon"):
            return []
        return [_card_name(a - _PASS_SELECT) for p, a in self._log if p == seat and _PASS_SELECT <= a < _MOON]

    # -- resampling

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> ReversisState:
        """A state drawn among those the seat cannot tell from this one (see the module's documentation).

        ``probability_sampler`` is called once, for a number in [0, 1) that seeds the draw.
        """
        rng = random.Random(int(probability_sampler() * 2**53))
        game: ReversisGame = self.get_game()
        base = game.new_initial_state()
        for action in self.history()[: self._hand_start]:
            base.apply_action(action)
        for _ in range(_RESAMPLE_ATTEMPTS):
            actions = self._resampled_hand(int(player_id), rng)
            state = base.clone()
            try:
                for action in actions:
                    state.apply_action(action)
            except reversis.ReversisError:
                # A play the drawn hands would make illegal. The draws already respect every such
                # inference; rejecting keeps the draw uniform among the legal layouts regardless.
                continue
            return state
        raise RuntimeError(f"no layout of the hidden cards fits seat {player_id}'s information")

    def _resampled_hand(self, player: int, rng: random.Random) -> list[int]:
        """The moves of the hand in progress with everything hidden from ``player`` drawn afresh.

        Cards are counted as multisets throughout: with two packs (RS-21) a seat may hold, play or
        pass both copies of a card. Drawing from a list in which a card held twice appears twice
        draws among the physical copies, as the core's sampler and the chance deal do.
        """
        config = self._config
        n = config.players
        deals = [a for p, a in self._log if p == _CHANCE]
        if len(deals) < len(config.deck):
            # Mid-deal: the seat knows only its own cards so far.
            left = collections.Counter({i: k for i, k in enumerate(config.copies)})
            left.subtract(a for k, a in enumerate(deals) if k % n == player)
            pool = sorted(left.elements())
            rng.shuffle(pool)
            others = iter(pool)
            return [a if k % n == player else next(others) for k, a in enumerate(deals)]
        played: list[collections.Counter[str]] = [collections.Counter() for _ in range(n)]
        selections: list[list[str]] = [[] for _ in range(n)]
        for p, a in self._log:
            if p < 0:
                continue
            if a < _PASS_SELECT:
                played[p][_card_name(a)] += 1
            elif a < _MOON:
                selections[p].append(_card_name(a - _PASS_SELECT))
        plan = self._hand_plan
        passing = plan is not None
        exchanged = passing and all(len(s) == config.pass_size for s in selections)
        new_passes: list[list[str]] = [[] for _ in range(n)]
        if passing and not exchanged:
            # Phase pass: the layout drawn is the deal's.
            dealt = self._sample_hands(player, rng)
            for s in range(n):
                if s != player:
                    new_passes[s] = rng.sample(_copies(dealt[s]), len(selections[s]))
        else:
            if sum(sum(p.values()) for p in played) < len(config.deck):
                now = self._sample_hands(player, rng)
            else:
                now = [collections.Counter() for _ in range(n)]
            after = [now[s] + played[s] for s in range(n)]  # each seat's cards just after the exchange
            dealt = after
            if plan is not None:
                giver = plan["from"][player]
                for s in range(n):
                    if s == giver:
                        new_passes[s] = rng.sample(selections[s], len(selections[s]))
                    elif s != player:
                        new_passes[s] = rng.sample(_copies(after[plan["to"][s]]), config.pass_size)
                new_passes[player] = selections[player]
                # What a seat was dealt: its cards after the exchange, less the copies it received,
                # plus those it passed (a seat may pass one copy of a card and receive the other).
                dealt = [
                    after[s] - collections.Counter(new_passes[plan["from"][s]]) + collections.Counter(new_passes[s])
                    for s in range(n)
                ]
        cards: dict[int, Iterator[int]] = {}
        passes: dict[int, Iterator[str]] = {}
        for s in range(n):
            if s != player:
                hand = [config.card_index[c] for c in _copies(dealt[s])]
                cards[s] = iter(rng.sample(hand, len(hand)))
                passes[s] = iter(new_passes[s])
        out = []
        dealt_count = 0
        for p, a in self._log:
            if p == _CHANCE:
                seat = dealt_count % n
                out.append(a if seat == player else next(cards[seat]))
                dealt_count += 1
            elif p != player and _PASS_SELECT <= a < _MOON:
                out.append(_PASS_SELECT + _core.card_id(next(passes[p])))
            else:
                out.append(a)
        return out

    def _sample_hands(self, player: int, rng: random.Random) -> list[collections.Counter[str]]:
        """Every seat's cards now (the deal's in phase pass), drawn as the seat knows them (see the module).

        Each hand is a multiset: with two packs the core's sampler lists a card held twice twice.
        """
        observation = self._game.observation(player)
        seed = rng.getrandbits(64)
        return [
            collections.Counter(hand) for hand in _core.sample_consistent(self._config.ruleset, observation, 1, seed)[0]
        ]


def _copies(cards: collections.Counter[str]) -> list[str]:
    """Every copy of a multiset of cards, by card id: a card held twice is listed twice."""
    return sorted(cards.elements(), key=_core.card_id)


# ----------------------------------------------------------------------------- text


def _cards(cards: Sequence[str]) -> str:
    return " ".join(cards) if cards else "-"


def _numbers(values: Sequence[float]) -> str:
    return " ".join(str(int(v)) if float(v).is_integer() else str(v) for v in values)


def _plays(plays: Sequence[dict[str, Any]]) -> str:
    return " ".join(f"{p['seat']}:{p['card']}" for p in plays) if plays else "-"


def _tricks(tricks: Sequence[dict[str, Any]]) -> str:
    return " | ".join(f"{_plays(t['cards'])} >{t['winner']}" for t in tricks) if tricks else "-"


def _render(observation: dict[str, Any], private: bool, public: bool, order: Sequence[str] | None) -> str:
    """An observation (OBS-1) as text: the parts of the type asked for, one line each."""
    o = observation
    lines = [f"seat {o['seat']}"]
    if public:
        lines.append(
            f"hand {o['hand_number']} dealer {o['dealer']} phase {o['phase']} pass {o['pass_direction'] or '-'}"
            f" to move {'-' if o['to_move'] is None else o['to_move']}"
            f" moon taker {'-' if o['moon_taker'] is None else o['moon_taker']}"
        )
        lines.append(f"awaiting pass: {' '.join(map(str, o['awaiting_pass'])) or '-'}")
    if private:
        lines.append(f"hand: {_cards(o['hand'])}")
        lines.append(f"selected: {_cards(o['selected'])}")
        lines.append(f"passed: {_cards(o['passed'] or [])} received: {_cards(o['received'] or [])}")
    if order is not None:
        lines.append(f"pass order: {_cards(order)}")
    if public:
        lines.append(f"tricks: {_tricks(o['tricks'])}")
        lines.append(f"trick: {_plays(o['trick'])}")
        lines.append(f"hearts broken: {'yes' if o['hearts_broken'] else 'no'}")
        lines.append("voids: " + " ".join(f"{s}:{''.join(v) or '-'}" for s, v in enumerate(o["voids"])))
        lines.append(f"points: {_numbers(o['points'])} scores: {_numbers(o['scores'])}")
    if private:
        lines.append(f"legal: {_cards(o['legal'])}")
    return "\n".join(lines)


# ----------------------------------------------------------------------------- observer


class ReversisObserver:
    """OpenSpiel's observer interface (``open_spiel/python/observation.py``) for a reversis game.

    The tensor is OBS-3 (its private or public fields left at 0 where the type leaves them out),
    followed for the information state by the pass order: ``passing.size`` rows of 52, row ``k``
    one-hot on the ``k``-th card the seat selected this hand. ``dict`` names each OBS-3 field
    (``hand``, ``played``, …, ``legal``) and ``pass_order``.
    """

    def __init__(self, config: _Config, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        """Lay out the tensor for the observation type."""
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        info = iig_obs_type.private_info
        if info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("an observation of every player's private information is not offered")
        self._private = info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self._public = bool(iig_obs_type.public_info)
        self._recall = bool(iig_obs_type.perfect_recall)
        self._config = config
        rows = config.pass_size if self._recall else 0
        self.tensor = np.zeros(ENCODING_LENGTH + rows * 52, np.float32)
        self.dict: dict[str, np.ndarray] = {}
        self._keep = np.zeros(ENCODING_LENGTH, np.float32)
        for name, offset, length in LAYOUT:
            view = self.tensor[offset : offset + length]
            self.dict[name] = view.reshape(_FIELD_SHAPES.get(name, (length,)))
            shown = self._private if name in _PRIVATE_FIELDS else self._public
            self._keep[offset : offset + length] = 1.0 if shown else 0.0
        if rows:
            self.dict["pass_order"] = self.tensor[ENCODING_LENGTH:].reshape(rows, 52)

    def set_from(self, state: ReversisState, player: int) -> None:
        """Write the player's view of ``state`` into ``tensor``."""
        observation = state.observation_dict(player)
        encoded = np.frombuffer(encode_observation(Observation(self._config.ruleset, observation)), np.int32)
        self.tensor[:ENCODING_LENGTH] = encoded * self._keep
        if "pass_order" in self.dict:
            order = self.dict["pass_order"]
            order.fill(0.0)
            if self._private:
                for k, card in enumerate(state.pass_order(player)):
                    order[k, _core.card_id(card)] = 1.0

    def string_from(self, state: ReversisState, player: int) -> str:
        """The player's view of ``state`` as text."""
        order = state.pass_order(player) if self._recall and self._private else None
        return _render(state.observation_dict(player), self._private, self._public, order)


# ----------------------------------------------------------------------------- registration


def _game_class(preset: str) -> type[ReversisGame]:
    """The game class registered for a preset.

    A class rather than a function: OpenSpiel keeps the creator until after the interpreter has
    shut down, and a class (which refers to itself) is never freed then, where a function would be.
    """
    name = "Reversis" + "".join(part.capitalize() for part in preset.split("-")) + "Game"
    return type(name, (ReversisGame,), {"preset": preset, "__doc__": f"The ``{preset}`` preset as an OpenSpiel game."})


def register() -> list[str]:
    """Register every preset's game with ``pyspiel`` (once; later calls change nothing) and return the names."""
    registered = set(pyspiel.registered_names())
    names = []
    for preset in reversis.preset_names():
        name = game_name(preset)
        if name not in registered:
            pyspiel.register_game(_game_type(_config(preset, {})), _game_class(preset))
        names.append(name)
    return names


register()
