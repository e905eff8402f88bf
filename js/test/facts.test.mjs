// The facts the core derives from the rules, as the package serves them: SEED-1's generator
// against the seed vectors, who passes to whom (PASS-1), how the match ends and where it stands
// (MATCH-2, MATCH-5), why a card is refused (PLAY-8), and OBS-3 of a seat's observation.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import {
  ENCODING_LAYOUT, Game, InvalidInputError, encodeObservation, parseJson, preset, seededGenerator,
} from "../src/index.js";

// parseJson keeps the 64-bit seeds exact (the largest is 2**64 - 1).
const vectors = parseJson(readFileSync(new URL("../../conformance/seeding/vectors.json", import.meta.url), "utf8"));

test("the seeded generator gives the draws of the seed vectors", () => {
  const cases = vectors.cases.filter((c) => "draws" in c);
  assert.ok(cases.length > 0);
  for (const c of cases) {
    const next = seededGenerator(BigInt(c.seed));
    const draws = c.draws.map(() => `0x${next().toString(16).toUpperCase().padStart(16, "0")}`);
    assert.deepStrictEqual(draws, c.draws, c.id);
  }
  assert.throws(() => seededGenerator(-1), (e) => e instanceof InvalidInputError && e.code === "invalid-setup");
});

test("hearts passes left, right, across, then holds", () => {
  const plans = [0, 1, 2, 3].map((h) => new Game(preset("hearts-4"), { seed: 1, handNumber: h }).passPlan);
  assert.deepStrictEqual(plans[0], { direction: "left", size: 3, to: [1, 2, 3, 0], from: [3, 0, 1, 2] });
  assert.deepStrictEqual(plans[2].to, [2, 3, 0, 1]);
  assert.equal(plans[3], null);
});

test("the count-down's standing names who reached the target", () => {
  const rules = preset("hartenjagen-count-down");
  const t = rules.target;
  const fresh = new Game(rules, { seed: 2 }).standing;
  assert.equal(fresh.ends[0].kind, "count-down");
  assert.equal(fresh.ends[0].counting, false);
  const started = new Game(rules, { seed: 2, handNumber: 6, scores: [t + 3, 10, t, 4] }).standing;
  assert.deepStrictEqual(started.ends[0].reached, [0, 2]);
  assert.equal(started.ends[0].first_hand, 6);
  assert.deepStrictEqual(started.lowest, [3]);
  assert.deepStrictEqual(new Game(preset("hearts-4"), { seed: 2 }).standing.ends, [{ kind: "target", target: 100 }]);
});

test("a refused card names its rule, with the error's own message", () => {
  const game = new Game(preset("hartenjagen"), { seed: 3 });
  const held = game.hand(game.toMove);
  const refused = held.find((card) => !game.legalPlays().includes(card));
  const breach = game.breach(refused);
  assert.equal(breach.rule, "PLAY-1");
  assert.throws(() => game.copy().play(refused), (e) => e.code === breach.code && e.message === breach.message);
  assert.equal(game.breach(game.legalPlays()[0]), null);
});

test("OBS-3 of a seat's observation is the game's own encoding", () => {
  assert.deepStrictEqual(ENCODING_LAYOUT[1], ["played", 52, 520]);
  const game = new Game(preset("hearts-4"), { seed: 4 });
  for (let step = 0; step < 40; step += 1) {
    for (let seat = 0; seat < 4; seat += 1) {
      assert.deepStrictEqual(encodeObservation(game.observation(seat), 4), game.observationTensor(seat));
    }
    game.applyAction(game.legalActions()[0]);
  }
  assert.throws(() => encodeObservation({ seat: 0 }, 4), (e) => e instanceof InvalidInputError && e.code === "invalid-action");
});
