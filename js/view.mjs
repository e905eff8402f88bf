// The game view of DRV-6 (spec/driver.md), read through the package's API as the built-in
// engines' driver reads it (python/reversis/conformance/engines.py, game_view): the one copy that
// the Node driver and the in-process conformance test share.
import { Ruleset, preset } from "./src/index.js";

/** DRV-3: a string names a preset; anything else is a ruleset object for the core to judge. */
export function rulesetOf(ruleset) {
  return typeof ruleset === "string" ? preset(ruleset) : Ruleset.fromJson(ruleset);
}

/** DRV-1: an optional argument given as null is the same as the argument left out. */
export const orDefault = (value, fallback) => (value === undefined || value === null ? fallback : value);

/** The view of DRV-6 of `game`. */
export function view(game) {
  const tricks = game.tricksPlayed;
  const seats = [...Array(game.ruleset.players).keys()];
  return {
    phase: game.phase,
    hand_number: game.handNumber,
    dealer: game.dealer,
    pass_direction: game.passDirection,
    to_move: game.toMove,
    moon_taker: game.moonTaker,
    awaiting_pass: game.awaitingPass,
    legal: game.legalPlays(),
    hands: seats.map((seat) => game.hand(seat)),
    trick: game.trick,
    tricks,
    last_trick: tricks.length ? tricks[tricks.length - 1] : null,
    hearts_broken: game.heartsBroken,
    count_down: game.countDown,
    points: game.points,
    scores: game.scores,
    hand_scores: game.handScores,
    winners: game.winners,
    to_act: game.toAct,
    legal_actions: game.legalActions(),
    selected: seats.map((seat) => game.selected(seat)),
    events: game.events,
    last_hand: game.lastHand,
  };
}
