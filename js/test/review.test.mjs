// evaluateDecision: the search player's choice beside every candidate's expected points, from
// one seat's observation.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Game, InvalidInputError, createPlayer, evaluateDecision, preset, seededGenerator } from "../src/index.js";

const HEARTS = preset("hearts-4");

/** hearts-4, hand 3 (no pass): seat 2 takes the first trick with A♣ and leads Q♠, seat 3
 *  follows 2♠, and seat 0 holds A♠ and 3♠: the ace takes the queen's 13 points. */
function queenLed() {
  const game = new Game(HEARTS, { handNumber: 3 });
  game.deal([
    "3C AS 3S 2D 3D 4D 5D 6D 7D 8D 9D TD JD".split(" "),
    "2C 5C 6C 7C 8C 9C TC JC QC KC QD KD AD".split(" "),
    "AC QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH".split(" "),
    "4C 2S 4S 5S 6S 7S 8S 9S TS JS KS KH AH".split(" "),
  ]);
  for (const card of ["2C", "AC", "4C", "3C", "QS", "2S"]) game.play(card);
  assert.equal(game.toMove, 0);
  return game;
}

test("every legal card is estimated, and the one that takes the queen at its 13 points", () => {
  const game = queenLed();
  const review = evaluateDecision(HEARTS, game.observation(0), { seed: 7, playouts: 400 });
  assert.deepEqual(review.choice, { type: "play", seat: 0, card: "3S" });
  const points = Object.fromEntries(review.estimates.map((e) => [e.action.card, e.points]));
  assert.deepEqual(Object.keys(points).sort(), ["3S", "AS"]);
  assert.ok(points.AS >= 13, JSON.stringify(review));
  assert.ok(points["3S"] + 8 < points.AS, JSON.stringify(review));
  assert.equal(review.layouts, 200);
  for (const e of review.estimates) assert.equal(typeof e.margin, "number");
});

test("the choice is what a search player plays with the same seed and playouts", () => {
  const ruleset = preset("hearts-computer");
  const game = new Game(ruleset, { seed: 5, handNumber: 1 });
  const rules = createPlayer("rules", { seed: 1 });
  let reviewed = 0;
  while (game.phase !== "over" && Number(game.handNumber) === 1) {
    const seat = game.toAct;
    const observation = game.observation(seat);
    if (seat === 0 && !(observation.phase === "play" && observation.legal.length === 1)) {
      // A search player seeded with `reviewed` decides its first decision with the generator's
      // first draw.
      const seed = seededGenerator(BigInt(reviewed))();
      const review = evaluateDecision(ruleset, observation, { seed, playouts: 80 });
      const searched = createPlayer("search", { playouts: 80, seed: reviewed });
      assert.deepEqual(review.choice, searched.act(observation, ruleset));
      assert.deepEqual(review, evaluateDecision(ruleset, observation, { seed, playouts: 80 }));
      reviewed += 1;
    }
    game.apply(rules.act(observation, ruleset));
  }
  assert.ok(reviewed > 5);
});

test("a pass is compared with the search's and a moon choice is scored both ways", () => {
  const game = new Game(HEARTS, { seed: 9 });
  const observation = game.observation(0);
  const mine = { type: "pass", seat: 0, cards: observation.hand.slice(0, 3) };
  const review = evaluateDecision(HEARTS, observation, { seed: 4, playouts: 100, action: mine });
  assert.equal(review.estimates.length, 2);
  assert.deepEqual(review.estimates[0].action, review.choice);
  assert.deepEqual(new Set(review.estimates[1].action.cards), new Set(mine.cards));
  // 4 × 100 playouts over two passes, each played on by the policy and going for the moon.
  assert.equal(review.layouts, 100);

  const moon = new Game(HEARTS, { handNumber: 3 });
  moon.deal([
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC".split(" "),
    "2D 3D 4D 5D 6D 7D 8D 9D TD 2H 3H 4H 5H".split(" "),
    "JD QD KD AD 6H 7H 8H 9H TH JH QH KH AH".split(" "),
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS".split(" "),
  ]);
  const rules = createPlayer("rules");
  while (moon.phase === "play") moon.apply(rules.act(moon.observation(moon.toMove), HEARTS));
  const shot = evaluateDecision(HEARTS, moon.observation(0), { playouts: 1 });
  // SCORE-2, a moon of 26: added to each other seat, or taken from the taker.
  assert.deepEqual(
    shot.estimates.map((e) => [e.action.choice, e.points]),
    [["add-to-others", 0], ["subtract-from-taker", -26]],
  );
  assert.equal(shot.layouts, 0);
});

test("a bad observation, action or option is refused with a typed error", () => {
  const game = queenLed();
  const observation = game.observation(0);
  const { voids, ...lacking } = observation;
  assert.ok(voids);
  assert.throws(() => evaluateDecision(HEARTS, lacking), (e) => e instanceof InvalidInputError && e.code === "invalid-action" && /voids/.test(e.message));
  assert.throws(() => evaluateDecision(HEARTS, game.observation(1)), (e) => e.code === "invalid-action");
  assert.throws(
    () => evaluateDecision(HEARTS, observation, { action: { type: "play", seat: 0, card: "2D" } }),
    (e) => e.code === "invalid-action",
  );
  assert.throws(() => evaluateDecision(HEARTS, observation, { playouts: 0 }), (e) => e.code === "invalid-setup");
  assert.throws(() => evaluateDecision(HEARTS, observation, { budget: 3 }), (e) => e.code === "invalid-setup");
});
