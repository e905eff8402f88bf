"""``simulate`` (API-5): many independent hands played through the reference :class:`Game`.

Every seat chooses uniformly at random among its legal action ids (ACT-3): its plays, the cards
of its pass one selection at a time, and the taker's moon choice. Hand ``i`` of a batch depends
only on the seed and ``i``: its generator is SplitMix64 (SEED-1) started from the first draw of
a SplitMix64 whose state is ``seed XOR (i × 0xD1B54A32D192ED03 mod 2**64)``; the hand's deal is
the seeded deal (SEED-5) from that generator's first draw, and the choices come from the rest.
It is played as hand number ``i``, so the dealer and the pass direction rotate along the batch.
The random choices are this engine's own: the Rust engine's results are not the same (API-5).
"""

from __future__ import annotations

from array import array

from ..errors import InvalidInputError, shown
from ..simulation import Simulation
from .game import Game
from .ruleset import Ruleset, as_ruleset
from .seeding import SplitMix64, check_count

#: ERR-6: the most hands one call plays, and the most threads it may be asked to use.
MAX_HANDS = 1_000_000
MAX_THREADS = 256
_MASK64 = (1 << 64) - 1
_HAND_STRIDE = 0xD1B54A32D192ED03


def hand_generator(seed: int, index: int) -> SplitMix64:
    """The generator of hand ``index`` of a batch seeded with ``seed`` (see the module)."""
    start = SplitMix64(seed ^ (index * _HAND_STRIDE & _MASK64))
    return SplitMix64(start.next())


def simulate(ruleset: Ruleset, hands: int, seed: int, *, threads: int = 1, legal_masks: bool = False) -> Simulation:
    """Play ``hands`` independent hands, every seat choosing uniformly at random (API-5).

    ``scores`` has shape ``(hands, players)`` of ``int32`` (each hand's scores after the moon
    rule); with ``legal_masks`` also the legal-card mask of every play decision, shape
    ``(hands, deck size)`` of ``uint64``. For ``hands=0`` both have the shape ``(0,)``. The
    reference plays on one thread whatever ``threads`` says; the results never depend on it.

    >>> from .ruleset import preset
    >>> result = simulate(preset("hartenjagen"), 2, seed=7)
    >>> result.scores.shape, sum(result.scores.tolist()[0])
    ((2, 4), 15)

    :raises InvalidInputError: ``invalid-setup`` for a ruleset that is not one, ``hands`` not
        in 0 … 1 000 000, a seed not in 0 … 2**64-1 or ``threads`` not in 1 … 256 (ERR-6).
    """
    checked = as_ruleset(ruleset)
    if checked is None:
        raise InvalidInputError("invalid-setup", f"a Ruleset is needed, not {shown(ruleset)}")
    hands = check_count(hands, "a number of hands", 0, MAX_HANDS)
    seed = check_count(seed, "a seed", 0, _MASK64)
    threads = check_count(threads, "a number of threads", 1, MAX_THREADS)
    scores = array("i")
    masks = array("Q") if legal_masks else None
    for index in range(hands):
        rng = hand_generator(seed, index)
        game = Game.__new__(Game)
        game._keep_undo = False  # nothing is undone here
        Game.__init__(game, checked, rng.next(), hand_number=index % (_MASK64 + 1))
        while game._last_hand is None:
            legal = game.legal_actions()
            if masks is not None and game.phase == "play":
                masks.append(game.legal_mask())
            game.apply_action(legal[rng.below(len(legal))])
        scores.extend(game._last_hand["scores"])
    return Simulation.from_bytes(
        scores.tobytes(),
        None if masks is None else masks.tobytes(),
        hands=hands,
        players=checked.players,
        deck_size=checked.hand_size * checked.players,
    )
