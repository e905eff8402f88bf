// The learned player: the shipped network's decisions against those of the Python package's
// LearnedPlayer, computed with its pure-Python forward pass (tests/learned_fixtures.py wrote
// them; tests/test_learned.py checks them against the Python package's Rust network too).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { Game, InvalidInputError, LearnedPlayer, actFor, actionIds, createPlayer, preset } from "../src/index.js";

const WEIGHTS = new Uint8Array(readFileSync(new URL("../../python/reversis/players/learned-hearts-computer.rvnn", import.meta.url)));
const FIXTURES = JSON.parse(readFileSync(new URL("fixtures/learned-decisions.json", import.meta.url), "utf8"));

test("the learned player decides as the Python LearnedPlayer: plays, passes card by card, moon choices", () => {
  const player = createPlayer("learned", { weights: WEIGHTS });
  const phases = new Set();
  for (const { ruleset, observation, action } of FIXTURES.cases) {
    assert.deepStrictEqual(player.act(observation, preset(ruleset)), action, `${ruleset} ${observation.phase}`);
    phases.add(observation.phase);
  }
  assert.deepStrictEqual([...phases].sort(), ["moon", "pass", "play"]);
});

test("the learned player plays whole hands legally, two packs included, and replays them", () => {
  for (const rules of ["hearts-computer", "hearts-4", "cancellation-6"]) {
    const run = () => {
      const game = new Game(preset(rules), { seed: 5 });
      const players = Array.from({ length: game.ruleset.players }, (_, seat) => createPlayer("learned", { weights: WEIGHTS, seed: seat }));
      const actions = [];
      while (game.handScores.length === 0 && game.phase !== "over") {
        const seat = game.phase === "pass" ? game.awaitingPass[0] : game.toMove;
        const legal = game.legalActions(seat);
        const action = players[seat].act(game.observation(seat), game.ruleset);
        assert.equal(action.seat, seat);
        // ACT-2: a legal pass is made of legal selections, a play or moon choice is one legal id.
        for (const id of actionIds(action)) assert.ok(legal.includes(id), JSON.stringify(action));
        game.apply(action);
        actions.push(action);
      }
      game.free();
      return actions;
    };
    const first = run();
    assert.equal(first.filter((a) => a.type === "play").length, preset(rules).deck.length);
    assert.deepStrictEqual(run(), first);
  }
});

test("the learned player needs weights, and bytes of a valid weight file", () => {
  const invalid = (fn, pattern) =>
    assert.throws(fn, (e) => e instanceof InvalidInputError && e.code === "invalid-setup" && pattern.test(e.message));
  invalid(() => createPlayer("learned"), /needs its network/);
  invalid(() => createPlayer("learned", { seed: 1 }), /needs its network/);
  invalid(() => createPlayer("learned", { weights: [1, 2, 3] }), /Uint8Array/);
  invalid(() => createPlayer("learned", { weights: "learned-hearts-computer.rvnn" }), /Uint8Array/);
  invalid(() => createPlayer("learned", { weights: new Uint8Array() }), /truncated/);
  invalid(() => createPlayer("learned", { weights: new TextEncoder().encode("NOPE and more bytes") }), /bad magic/);
  invalid(() => createPlayer("learned", { weights: WEIGHTS.subarray(0, WEIGHTS.length - 1) }), /truncated/);
  invalid(() => createPlayer("learned", { weights: WEIGHTS, rollouts: 3 }), /no option "rollouts"/);
  invalid(() => createPlayer("learned", { weights: WEIGHTS, seed: -1 }), /seed/);
});

// The shapes of a weight file's layers, [inputs, outputs] each, and where the headers start.
function layerShapes(weights) {
  const view = new DataView(weights.buffer, weights.byteOffset, weights.byteLength);
  const count = view.getUint16(6, true);
  const headers = 12 + view.getUint32(8, true);
  const shapes = Array.from({ length: count }, (_, k) => [view.getUint32(headers + 12 * k, true), view.getUint32(headers + 12 * k + 4, true)]);
  return { shapes, lastHeader: headers + 12 * (count - 1) };
}

// The shipped network (format version 2, LRN-7) without its value: the last layer's 107th
// output, its weights' row and its bias, dropped; the logits, so the decisions, are the same.
function withoutValue(weights) {
  const { shapes, lastHeader } = layerShapes(weights);
  const [inputs, outputs] = shapes[shapes.length - 1];
  assert.equal(outputs, 107);
  const lastBiases = weights.length - 2 * outputs;
  const valueRow = lastBiases - 2 * inputs;
  const out = new Uint8Array(weights.length - 2 * inputs - 2);
  out.set(weights.subarray(0, valueRow));
  out.set(weights.subarray(lastBiases, weights.length - 2), valueRow);
  const edit = new DataView(out.buffer);
  edit.setUint16(4, 1, true);
  edit.setUint32(lastHeader + 4, 106, true);
  return out;
}

test("a network with a value (format version 2) plays as the same network without one", () => {
  const valued = createPlayer("learned", { weights: WEIGHTS });
  const plain = createPlayer("learned", { weights: withoutValue(WEIGHTS) });
  for (const { ruleset, observation } of FIXTURES.cases) {
    assert.deepStrictEqual(valued.act(observation, preset(ruleset)), plain.act(observation, preset(ruleset)));
  }
  const stale = new Uint8Array(WEIGHTS);
  stale[4] = 1;
  assert.throws(
    () => createPlayer("learned", { weights: stale }),
    (e) => e instanceof InvalidInputError && /a version 1 network gives 106/.test(e.message),
  );
  const early = withoutValue(WEIGHTS);
  early[4] = 2;
  assert.throws(
    () => createPlayer("learned", { weights: early }),
    (e) => e instanceof InvalidInputError && /107/.test(e.message),
  );
});

test("a search whose playouts the network plays makes legal, reproducible hands of its own", () => {
  // Hand 0 of hearts-computer passes left: the pass is searched with the network too.
  const hand = (options) => {
    const game = new Game(preset("hearts-computer"), { seed: 8 });
    const players = [0, 1, 2, 3].map((seat) => createPlayer("search", { playouts: 30, seed: seat, ...options }));
    const actions = [];
    while (game.handNumber === 0) actions.push(actFor(game, players));
    return actions;
  };
  const rolled = hand({ rolloutWeights: WEIGHTS });
  assert.equal(rolled.filter((a) => a.type === "play").length, 52);
  assert.equal(rolled.filter((a) => a.type === "pass").length, 4);
  assert.deepStrictEqual(hand({ rolloutWeights: WEIGHTS }), rolled);
  assert.notDeepStrictEqual(hand({}), rolled);
});

test("the learned player's value is the Python package's pure-Python value of each observation", () => {
  const player = createPlayer("learned", { weights: WEIGHTS });
  assert.ok(player instanceof LearnedPlayer);
  for (const { ruleset, observation, value } of FIXTURES.cases) {
    // float32 sums of binary16 weights against Python's float64 ones.
    const got = player.value(observation, preset(ruleset));
    assert.ok(Math.abs(got - value) <= 1e-3 * Math.max(1, Math.abs(value)), `${ruleset}: ${got} against ${value}`);
  }
  const plain = createPlayer("learned", { weights: withoutValue(WEIGHTS) });
  const { ruleset, observation } = FIXTURES.cases[0];
  assert.equal(plain.value(observation, preset(ruleset)), null);
  assert.throws(() => player.value(observation, "hearts-computer"), InvalidInputError);
  assert.throws(() => player.value(null, preset(ruleset)), (e) => e instanceof InvalidInputError && e.code === "invalid-action");
  assert.throws(
    () => player.value({ ...observation, hand: ["XX"] }, preset(ruleset)),
    (e) => e instanceof InvalidInputError,
  );
});

// Seat 0's cards of hand 0 of hearts-computer (deal seed 8), seat 0 a search player of
// `options` and the others rule-based, with the actions of every seat.
function searchersHand(options) {
  const game = new Game(preset("hearts-computer"), { seed: 8 });
  const players = [createPlayer("search", { playouts: 40, seed: 3, ...options }), ...[1, 2, 3].map(() => createPlayer("rules"))];
  const actions = [];
  while (game.handNumber === 0) actions.push(actFor(game, players));
  game.free();
  return actions;
}

test("a search whose own later cards alone the network plays makes legal, reproducible hands of its own", () => {
  const mine = searchersHand({ rolloutWeights: WEIGHTS, rolloutSeats: "searcher" });
  assert.equal(mine.filter((a) => a.type === "play").length, 52);
  assert.deepStrictEqual(searchersHand({ rolloutWeights: WEIGHTS, rolloutSeats: "searcher" }), mine);
  assert.deepStrictEqual(searchersHand({ rolloutWeights: WEIGHTS, rolloutSeats: "every" }), searchersHand({ rolloutWeights: WEIGHTS }));
  assert.notDeepStrictEqual(searchersHand({ rolloutWeights: WEIGHTS }), mine);
  assert.notDeepStrictEqual(searchersHand({}), mine);
});

test("a search whose playouts the value ends makes legal, reproducible hands of its own", () => {
  const ended = searchersHand({ leafWeights: WEIGHTS });
  assert.equal(ended.filter((a) => a.type === "play").length, 52);
  assert.deepStrictEqual(searchersHand({ leafWeights: WEIGHTS }), ended);
  assert.notDeepStrictEqual(searchersHand({}), ended);
});

test("a search refuses weights that are not a network's, rollout seats without a network, and leaves without a value or that cannot judge", () => {
  const invalid = (options, pattern) =>
    assert.throws(
      () => createPlayer("search", options),
      (e) => e instanceof InvalidInputError && e.code === "invalid-setup" && pattern.test(e.message),
    );
  invalid({ rolloutWeights: "learned" }, /rolloutWeights are the bytes of a \.rvnn weight file/);
  invalid({ rolloutWeights: new Uint8Array([1, 2, 3]) }, /weight/);
  invalid({ rolloutSeats: "searcher" }, /without rolloutWeights/);
  invalid({ rolloutWeights: WEIGHTS, rolloutSeats: "mine" }, /rolloutSeats: unknown rollout seats "mine": every or searcher/);
  invalid({ rolloutWeights: WEIGHTS, rolloutSeats: 1 }, /rolloutSeats is a name, not 1/);
  invalid({ leafWeights: WEIGHTS.slice(0, 10) }, /weight/);
  invalid({ leafWeights: "learned" }, /leafWeights are the bytes of a \.rvnn weight file/);
  invalid({ leafWeights: withoutValue(WEIGHTS) }, /has no value/);
  invalid({ leafWeights: WEIGHTS, defend: true }, /defending against the moon plays another seat's run to the end/);
  const game = new Game(preset("hearts-computer"), { seed: 8 });
  const rules = createPlayer("rules");
  while (game.phase === "pass") actFor(game, [0, 1, 2, 3].map(() => rules));
  actFor(game, [0, 1, 2, 3].map(() => rules));
  const seat = game.toMove;
  const match = createPlayer("search", { playouts: 20, seed: 1, objective: "match", leafWeights: WEIGHTS });
  assert.throws(
    () => match.act(game.observation(seat), game.ruleset),
    (e) => e instanceof InvalidInputError && e.code === "invalid-setup" && /objective points/.test(e.message),
  );
  game.free();
});
