// Every case of conformance/ (cases/, generated/, seeding/, perft/) run in process through the package's
// API, so that `node --test js/test` checks the rules without Python. The expected values are the
// case files'; the view of DRV-6 is js/view.mjs, the Node driver's.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";

import {
  Game,
  ReversisError,
  dealFromSeed,
  dumpRecord,
  loadRecord,
  parseCard,
  parseJson,
  seedDraws,
} from "../src/index.js";
import { orDefault, rulesetOf, view } from "../view.mjs";
import { decodeMsgpack } from "./msgpack.test.mjs";

const root = new URL("../../conformance/", import.meta.url);

function caseFiles() {
  const files = [];
  for (const folder of ["cases", "generated", "seeding", "perft"]) {
    for (const name of readdirSync(new URL(`${folder}/`, root)).sort()) {
      if (name.endsWith(".json")) files.push(`${folder}/${name}`);
    }
  }
  return files;
}

/** `fn` must throw a ReversisError of `code`. */
function rejects(fn, code, what) {
  assert.throws(fn, (error) => {
    assert.ok(error instanceof ReversisError, `${what}: ${error}`);
    assert.equal(error.code, code, `${what}: ${error.message}`);
    return true;
  });
}

function expectView(where, expected, got) {
  for (const [key, value] of Object.entries(expected)) {
    assert.deepStrictEqual(got[key], value, `${where}: ${key}`);
  }
}

function runSteps(game, steps) {
  const saved = new Map();
  steps.forEach((step, index) => {
    const where = `step ${index}`;
    const attempt = (fn, what) => {
      if (step.error === undefined) return fn();
      const before = game.state();
      rejects(fn, step.error, `${where}: ${what}`);
      assert.deepStrictEqual(game.state(), before, `${where}: the rejected ${what} changed the state (ERR-1)`);
    };
    if ("action" in step) {
      attempt(() => game.apply(step.action), "action");
    } else if ("action_id" in step) {
      attempt(() => game.applyAction(step.action_id, orDefault(step.seat, null)), "action id");
    } else if ("undo" in step) {
      attempt(() => game.undo(), "undo");
    } else if ("record" in step) {
      const copy = Game.fromRecord(game.toRecord());
      assert.deepStrictEqual(view(copy), view(game), `${where}: the replayed record's view`);
    } else if ("observe_tensor" in step && "error" in step) {
      rejects(() => game.observationTensor(step.observe_tensor), step.error, `${where}: observation tensor`);
    } else if ("observe_tensor" in step) {
      // DRV-7: the entries named hold their values, every other entry is 0.
      const row = Array.from(game.observationTensor(step.observe_tensor));
      const expected = new Array(1435).fill(0);
      for (const [index, value] of Object.entries(step.nonzero)) expected[Number(index)] = value;
      assert.deepStrictEqual(row, expected, `${where}: observation tensor of seat ${step.observe_tensor}`);
    } else if ("observe" in step && "error" in step) {
      rejects(() => game.observation(step.observe), step.error, `${where}: observation`);
    } else if ("observe" in step) {
      const seen = game.observation(step.observe);
      saved.set(index, seen);
      if ("same_as" in step) assert.deepStrictEqual(seen, saved.get(step.same_as), `${where}: same_as`);
      else expectView(`${where}: observation of seat ${step.observe}`, step.expect, seen);
    } else {
      expectView(where, step.expect, view(game));
    }
  });
}

const KINDS = {
  card(data) {
    if ("error" in data) rejects(() => parseCard(data.text), data.error, "card");
    else assert.equal(parseCard(data.text), data.card);
  },
  ruleset(data) {
    if ("error" in data) return rejects(() => rulesetOf(data.ruleset), data.error, "ruleset");
    const ruleset = rulesetOf(data.ruleset);
    if ("hand_size" in data) assert.equal(ruleset.handSize, data.hand_size);
    if ("deck" in data) assert.deepStrictEqual(ruleset.deck, data.deck);
    if ("point_cards" in data) assert.deepStrictEqual(ruleset.pointCards, data.point_cards);
    if ("canonical" in data) assert.deepStrictEqual(ruleset.toJson(), data.canonical);
  },
  seed(data) {
    if ("draws" in data) {
      const draws = seedDraws(data.seed, data.draws.length).map((d) => `0x${d.toString(16).toUpperCase().padStart(16, "0")}`);
      assert.deepStrictEqual(draws, data.draws);
      return;
    }
    const deals = dealFromSeed(rulesetOf(data.ruleset), data.seed, data.deals.length, orDefault(data.hand_number, 0));
    assert.deepStrictEqual(deals, data.deals);
  },
  game(data) {
    const start = data.start ?? {};
    const game = new Game(rulesetOf(data.ruleset), {
      seed: orDefault(start.seed, null),
      handNumber: orDefault(start.hand_number, 0),
      scores: orDefault(start.scores, null),
    });
    runSteps(game, data.steps);
  },
  perft(data) {
    const start = data.start ?? {};
    const game = new Game(rulesetOf(data.ruleset), {
      seed: orDefault(start.seed, null),
      handNumber: orDefault(start.hand_number, 0),
      scores: orDefault(start.scores, null),
    });
    for (const step of data.steps ?? []) game.apply(step.action);
    if ("error" in data) return rejects(() => game.perft(data.depth, data.unit), data.error, "perft");
    assert.equal(Number(game.perft(data.depth, data.unit)), data.count);
    const divide = Object.fromEntries(Object.entries(game.divide(data.depth, data.unit)).map(([k, n]) => [k, Number(n)]));
    assert.deepStrictEqual(divide, data.divide);
  },
  record(data) {
    if ("error" in data) return rejects(() => Game.fromRecord(data.record), data.error, "record");
    runSteps(Game.fromRecord(data.record), data.steps);
  },
  "record-bytes"(data) {
    const bytes = new Uint8Array(Buffer.from(data.data, "base64"));
    if ("error" in data) return rejects(() => Game.fromRecord(loadRecord(bytes)), data.error, "record bytes");
    const game = Game.fromRecord(loadRecord(bytes));
    runSteps(game, data.steps);
    for (const format of data.encode ?? []) {
      const encoded = dumpRecord(game.toRecord(), format);
      assert.equal(encoded[0] === 0x7b, format === "json", `${format}: the first byte marks the format (REC-3)`);
      const decoded = format === "json" ? parseJson(Buffer.from(encoded).toString("utf8")) : decodeMsgpack(encoded);
      assert.deepStrictEqual(decoded, game.toRecord(), `${format}: the decoded bytes`);
      assert.deepStrictEqual(view(Game.fromRecord(loadRecord(encoded))), view(game), `${format}: the replayed view`);
    }
  },
};

for (const file of caseFiles()) {
  const suite = parseJson(readFileSync(new URL(file, root), "utf8"));
  test(file, async (t) => {
    assert.ok(suite.cases.length > 0, `${file} has cases`);
    for (const data of suite.cases) {
      await t.test(`${data.id}: ${data.description}`, () => {
        assert.ok(Object.hasOwn(KINDS, data.kind), `a kind of conformance/README.md: ${data.kind}`);
        KINDS[data.kind](data);
      });
    }
  });
}
