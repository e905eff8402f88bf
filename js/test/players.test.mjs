// The computer players: legal, reproducible when seeded, deciding from an observation alone.
import assert from "node:assert/strict";
import { test } from "node:test";

import { Game, InvalidInputError, actFor, actionIds, createPlayer, preset } from "../src/index.js";

const PLAYERS = [
  ["random", {}],
  ["rules", {}],
  ["montecarlo", { rollouts: 4 }],
  ["search", { playouts: 64 }],
  ["search", { playouts: 64, objective: "match" }],
];

/** Plays `game` to the end of its first hand with `players`, checking each action is legal. */
function playHand(game, players) {
  const actions = [];
  while (game.handScores.length === 0 && game.phase !== "over") {
    const seat = game.phase === "pass" ? game.awaitingPass[0] : game.toMove;
    const legal = game.legalActions(seat);
    const observation = game.observation(seat);
    const action = players[seat].act(observation, game.ruleset);
    assert.equal(action.seat, seat);
    // ACT-2: a legal pass is made of legal selections, a play or moon choice is one legal id.
    for (const id of actionIds(action)) assert.ok(legal.includes(id), `${players[seat].name}: ${JSON.stringify(action)}`);
    game.apply(action);
    actions.push(action);
  }
  return actions;
}

for (const [name, options] of PLAYERS) {
  const label = options.objective ? `${name} (${options.objective})` : name;
  test(`the ${label} player makes only legal decisions, in every phase`, () => {
    for (const rules of ["hearts-4", "hearts-computer", "hartenjagen", "hearts-3"]) {
      const players = [0, 1, 2, 3].map((seat) => createPlayer(name, { ...options, seed: seat }));
      const actions = playHand(new Game(preset(rules), { seed: 17 }), players);
      assert.ok(actions.length >= preset(rules).deck.length);
      assert.equal(players[0].name, name);
    }
  });

  // The search playing for the match plays two packs as it plays one (Python's tests play it
  // at every preset); in WebAssembly that would take minutes.
  if (options.objective !== "match") test(`the ${label} player plays two packs (RS-21) with cancellation (RS-22), at every seat count`, () => {
    for (const rules of ["cancellation-6", "cancellation-8", "cancellation-10"]) {
      const n = preset(rules).players;
      const players = Array.from({ length: n }, (_, seat) => createPlayer(name, { ...options, seed: seat }));
      const actions = playHand(new Game(preset(rules), { seed: 23 }), players);
      assert.ok(actions.filter((a) => a.type === "play").length === preset(rules).deck.length);
    }
  });

  test(`a seeded ${label} player replays its decisions`, () => {
    const run = () => playHand(new Game(preset("hearts-4"), { seed: 4 }), [0, 1, 2, 3].map(() => createPlayer(name, { ...options, seed: 99n })));
    assert.deepStrictEqual(run(), run());
  });
}

test("a player's seed advances per decision: repeated decisions differ", () => {
  const game = new Game(preset("hearts-4"), { seed: 2 });
  const player = createPlayer("random", { seed: 1 });
  const passes = new Set();
  for (let i = 0; i < 20; i++) passes.add(JSON.stringify(player.act(game.observation(0), game.ruleset).cards));
  assert.ok(passes.size > 1);
});

test("the moon choice is decided by the taker's player (SCORE-3)", () => {
  // Seat 0 holds the top clubs, the top hearts, QS and AS: leading from the top it takes
  // every point card, and the hand waits for its moon choice (SCORE-3).
  const hands = [
    ["AC", "KC", "QC", "JC", "AH", "KH", "QH", "JH", "TH", "9H", "8H", "QS", "AS"],
    ["2C", "3C", "4C", "5C", "2D", "3D", "4D", "5D", "6D", "7H", "2S", "3S", "4S"],
    ["6C", "7C", "8C", "9C", "7D", "8D", "9D", "TD", "JD", "6H", "5S", "6S", "7S"],
    ["TC", "QD", "KD", "AD", "2H", "3H", "4H", "5H", "8S", "9S", "TS", "JS", "KS"],
  ];
  const game = new Game(preset("hearts-4").replace({ passing: null, openingCard: null }));
  game.deal(hands);
  const players = [0, 1, 2, 3].map(() => createPlayer("rules"));
  while (game.phase === "play") actFor(game, players);
  assert.equal(game.phase, "moon");
  assert.equal(game.moonTaker, 0);
  const action = actFor(game, players);
  assert.deepStrictEqual([action.type, action.seat], ["moon", 0]);
  assert.ok(["add-to-others", "subtract-from-taker"].includes(action.choice));
  assert.equal(game.handScores.length, 1);
});

test("the search player given timeMs answers within a generous bound", () => {
  const game = new Game(preset("hearts-4"), { seed: 8 });
  for (const seat of [0, 1, 2, 3]) game.passCards(game.hand(seat).slice(0, 3), seat);
  while (game.legalPlays().length < 2) game.play(game.legalPlays()[0]);
  const player = createPlayer("search", { timeMs: 50, seed: 1 });
  const start = performance.now();
  const action = player.act(game.observation(game.toMove), game.ruleset);
  const elapsed = performance.now() - start;
  assert.ok(game.legalPlays().includes(action.card));
  assert.ok(elapsed < 2000, `${elapsed} ms`);
});

test("actFor asks the acting seat, and refuses where no seat acts", () => {
  const game = new Game(preset("hearts-4"), { seed: 6 });
  const players = [0, 1, 2, 3].map((seat) => createPlayer("random", { seed: seat }));
  const first = actFor(game, players);
  assert.equal(first.type, "pass");
  assert.equal(first.seat, 0);
  assert.deepStrictEqual(game.awaitingPass, [1, 2, 3]);
  assert.throws(() => actFor(new Game(preset("hearts-4")), players), (e) => e.code === "wrong-phase");
});

test("createPlayer rejects unknown names, unknown options and bad values", () => {
  const invalid = (fn) => assert.throws(fn, (e) => e instanceof InvalidInputError && e.code === "invalid-setup");
  invalid(() => createPlayer("minimax"));
  invalid(() => createPlayer("random", { rollouts: 5 }));
  invalid(() => createPlayer("montecarlo", { rollouts: 0 }));
  invalid(() => createPlayer("search", { timeMs: -1 }));
  invalid(() => createPlayer("search", { time_ms: 5 }));
  invalid(() => createPlayer("search", { objective: "hand" }));
  invalid(() => createPlayer("search", { objective: 1 }));
  invalid(() => createPlayer("search", { shoot: "yes" }));
  invalid(() => createPlayer("search", { shoot: 1 }));
  invalid(() => createPlayer("search", { defend: "yes" }));
  invalid(() => createPlayer("search", { weighPasses: 1 }));
  invalid(() => createPlayer("rules", { seed: -1 }));
  invalid(() => createPlayer("rules", { seed: 1.5 }));
  const game = new Game(preset("hearts-4"), { seed: 1 });
  invalid(() => createPlayer("rules").act(game.observation(0), preset("hearts-4").toJson()));
});

// Each switch of the search makes a player of its own: the defence against the moon, and the
// pass received weighed in its belief (hand 0 passes to the left).
for (const option of ["defend", "weighPasses"]) {
  test(`the search player with ${option} plays legal, reproducible hands of its own`, () => {
    const hand = (options) => {
      const players = [0, 1, 2, 3].map((seat) => createPlayer("search", { playouts: 64, seed: seat, ...options }));
      return playHand(new Game(preset("hearts-computer"), { seed: 3 }), players);
    };
    const switched = hand({ [option]: true });
    assert.equal(switched.filter((a) => a.type === "play").length, 52);
    assert.deepStrictEqual(hand({ [option]: true }), switched);
    assert.deepStrictEqual(hand({ [option]: false }), hand({}));
    assert.notDeepStrictEqual(hand({}), switched);
  });
}

test("the search player that never tries the moon plays legal hands", () => {
  const players = [0, 1, 2, 3].map((seat) => createPlayer("search", { playouts: 64, shoot: false, seed: seat }));
  const plays = playHand(new Game(preset("hearts-computer"), { seed: 3 }), players).filter((a) => a.type === "play");
  assert.equal(plays.length, 52);
});
