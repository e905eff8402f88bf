// Two packs (RS-21), 8 to 10 seats (RS-3) and cancellation (RS-22, PLAY-9) through the package.
import assert from "node:assert/strict";
import { test } from "node:test";

import { Game, InvalidInputError, Ruleset, preset, simulate } from "../src/index.js";

test("the cancellation presets have ten seats at most and decks of both copies", () => {
  const r = preset("cancellation-10");
  assert.equal(r.players, 10);
  // 104 cards less one each of 2C, 3C, 2D, 3D (D-17): 10 each, the 2C once, the 4C twice.
  assert.equal(r.deck.length, 100);
  assert.equal(r.handSize, 10);
  assert.deepEqual(r.deck.slice(0, 4), ["2C", "3C", "4C", "4C"]);
  assert.deepEqual(r.cancellation, { last_trick: "leader" });
  assert.equal(preset("hearts-4").cancellation, null);
  assert.equal(r.toJson().deck.packs, 2);
  assert.equal("packs" in preset("hearts-4").toJson().deck, false);
});

test("a ruleset with cancellation and one pack is refused", () => {
  const json = preset("hearts-4").toJson();
  json.cancellation = { last_trick: "leader" };
  assert.throws(() => Ruleset.fromJson(json), (e) => e instanceof InvalidInputError && e.code === "invalid-ruleset");
});

test("a two-pack match plays to its end by action ids, held-over tricks included", () => {
  for (const name of ["cancellation-6", "cancellation-8"]) {
    const game = new Game(preset(name), { seed: 11 });
    let state = 1;
    const next = (n) => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return state % n;
    };
    let steps = 0;
    while (game.phase !== "over" && steps < 100000) {
      const ids = game.legalActions();
      game.applyAction(ids[next(ids.length)]);
      steps += 1;
    }
    assert.equal(game.phase, "over", name);
    // Each hand is worth 52, or a moon's bonus (D-18).
    for (const row of game.handScores) {
      const sum = row.reduce((a, b) => a + Number(b), 0);
      const n = preset(name).players;
      assert.ok([52, 52 * (n - 1), -52].includes(sum), `${name} ${row}`);
    }
  }
});

test("simulate plays two-pack hands", () => {
  const scores = simulate(preset("cancellation-8"), 50, 3);
  assert.equal(scores.length, 50 * 8);
});
