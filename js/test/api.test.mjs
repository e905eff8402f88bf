// The package's API against spec/api.md, spec/errors.md and the presets of spec/rulesets/.
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { test } from "node:test";

import * as reversis from "../src/index.js";

const {
  ERROR_CODES, Game, IllegalActionError, InvalidInputError, NUM_ACTIONS, ReversisError, Ruleset,
  actionFromIds, actionIds, actionLabel, cardId, convertError, dumpRecord, loadRecord, parseCard,
  parseJson, preset, presetNames, simulate, stringifyJson,
} = reversis;

const spec = (path) => new URL(`../../spec/${path}`, import.meta.url);
const MAX_U64 = 2n ** 64n - 1n;

/** `fn` throws `cls` with `code`. */
function throwsCode(fn, cls, code) {
  assert.throws(fn, (error) => error instanceof cls && error instanceof ReversisError && error.code === code);
}

test("ERROR_CODES lists the codes of spec/errors.md in the order of its tables", () => {
  const text = readFileSync(spec("errors.md"), "utf8");
  const tables = text.slice(text.indexOf("**ERR-2**"), text.indexOf("**ERR-4**"));
  const codes = [...tables.matchAll(/^\| `([a-z-]+)` \|/gm)].map((m) => m[1]);
  assert.ok(codes.length > 20);
  assert.deepStrictEqual([...ERROR_CODES], codes);
});

test("errors are typed: input errors and illegal actions, each with its code", () => {
  throwsCode(() => parseCard("1X"), InvalidInputError, "invalid-card");
  throwsCode(() => preset("hearts-9"), InvalidInputError, "unknown-preset");
  throwsCode(() => Ruleset.fromJson({ name: "x" }), InvalidInputError, "invalid-ruleset");
  const game = new Game(preset("hearts-4"), { seed: 7 });
  // Phase pass: a play belongs to another phase; a pass of two cards is the wrong size (PASS-2).
  throwsCode(() => game.play(game.hand(0)[0], 0), IllegalActionError, "wrong-phase");
  throwsCode(() => game.passCards(game.hand(0).slice(0, 2), 0), IllegalActionError, "wrong-pass-size");
  throwsCode(() => game.passCards(game.hand(1).slice(0, 3), 0), IllegalActionError, "card-not-held");
  throwsCode(() => game.observation(4), InvalidInputError, "invalid-action");
  const error = (() => { try { parseCard(12); } catch (e) { return e; } })();
  assert.ok(error instanceof Error);
  assert.equal(error.name, "InvalidInputError");
  assert.match(error.message, /12/);
});

test("convertError turns the module's errors into the typed classes and leaves others alone", () => {
  const thrown = Object.assign(new Error("wrong seat: 2"), { name: "IllegalActionError", code: "wrong-seat" });
  const converted = convertError(thrown);
  assert.ok(converted instanceof IllegalActionError);
  assert.equal(converted.code, "wrong-seat");
  assert.equal(converted.message, "wrong seat: 2");
  const input = convertError(Object.assign(new Error("bad"), { name: "InvalidInputError", code: "invalid-deal" }));
  assert.ok(input instanceof InvalidInputError);
  const other = new SyntaxError("not JSON");
  assert.equal(convertError(other), other);
});

test("a rejected action changes nothing (ERR-1)", () => {
  const game = new Game(preset("hearts-4"), { seed: 11 });
  for (const seat of [0, 1, 2, 3]) game.passCards(game.hand(seat).slice(0, 3), seat);
  assert.equal(game.phase, "play");
  const before = game.state();
  const twin = game.copy();
  const seat = game.toMove;
  const illegal = game.hand(seat).find((card) => !game.legalPlays().includes(card));
  throwsCode(() => game.play(illegal), IllegalActionError, "must-lead-opening-card");
  throwsCode(() => game.play(game.legalPlays()[0], (seat + 1) % 4), IllegalActionError, "wrong-seat");
  throwsCode(() => game.apply({ type: "play", seat, card: "ZZ" }), InvalidInputError, "invalid-card");
  throwsCode(() => game.applyAction(NUM_ACTIONS), InvalidInputError, "invalid-action");
  assert.deepStrictEqual(game.state(), before);
  assert.ok(game.equals(twin));
  assert.equal(game.actionCount, twin.actionCount);
});

test("undo takes back an action and its consequences, then reports nothing-to-undo (API-8)", () => {
  const game = new Game(preset("hearts-4"), { seed: 3 });
  const start = game.state();
  game.passCards(game.hand(0).slice(-3), 0);
  assert.notDeepStrictEqual(game.state(), start);
  game.undo();
  assert.deepStrictEqual(game.state(), start);
  assert.deepStrictEqual(game.events, []);
  throwsCode(() => game.undo(), IllegalActionError, "nothing-to-undo");
});

test("a copy is independent, undo history included, and keeps a subclass", () => {
  class Table extends Game {}
  const game = new Table(preset("hearts-computer"), { seed: 5 });
  const copy = game.copy();
  assert.ok(copy instanceof Table);
  assert.ok(copy.equals(game));
  const seat = copy.awaitingPass[0];
  copy.passCards(copy.hand(seat).slice(0, 3), seat);
  assert.ok(!copy.equals(game));
  assert.deepStrictEqual(game.awaitingPass, [0, 1, 2, 3]);
  copy.undo();
  assert.ok(copy.equals(game));
  assert.ok(Table.fromRecord(game.toRecord()) instanceof Table);
});

test("records round-trip through JSON and MessagePack with a seed of 2^64 - 1 (API-4, REC-3)", () => {
  const game = new Game(preset("hearts-4"), { seed: MAX_U64 });
  assert.equal(game.seed, MAX_U64);
  for (const seat of [0, 1, 2, 3]) game.passCards(game.hand(seat).slice(0, 3), seat);
  game.play(game.legalPlays()[0]);
  const record = game.toRecord();
  assert.equal(record.seed, MAX_U64);
  const json = dumpRecord(record);
  assert.equal(json[0], "{".charCodeAt(0));
  assert.match(Buffer.from(json).toString("utf8"), /18446744073709551615/);
  const msgpack = dumpRecord(record, "msgpack");
  assert.notEqual(msgpack[0], "{".charCodeAt(0));
  for (const bytes of [json, msgpack]) {
    assert.deepStrictEqual(loadRecord(bytes), record);
    const replayed = Game.fromRecord(loadRecord(bytes));
    assert.ok(replayed.equals(game));
    assert.equal(replayed.seed, MAX_U64);
  }
  throwsCode(() => dumpRecord(record, null), InvalidInputError, "invalid-record");
  throwsCode(() => dumpRecord(record, "yaml"), InvalidInputError, "invalid-record");
  throwsCode(() => loadRecord("{}"), InvalidInputError, "invalid-record");
});

test("an observation never shows a card another seat holds (OBS-1)", () => {
  for (const name of ["hearts-4", "hartenjagen", "hearts-7"]) {
    const game = new Game(preset(name), { seed: 21 });
    const players = game.ruleset.players;
    for (let seat = 0; seat < players; seat++) {
      const seen = stringifyJson(game.observation(seat));
      for (let other = 0; other < players; other++) {
        if (other === seat) continue;
        for (const card of game.hand(other)) assert.ok(!seen.includes(`"${card}"`), `${name}: seat ${seat} sees ${card}`);
      }
    }
  }
});

test("in phase play the legal action ids are the card ids of the legal plays (ACT-2, ACT-3)", () => {
  const game = new Game(preset("hearts-4"), { seed: 9 });
  for (const seat of [0, 1, 2, 3]) game.passCards(game.hand(seat).slice(0, 3), seat);
  for (let i = 0; i < 20; i++) {
    const ids = game.legalActions();
    assert.deepStrictEqual(ids, game.legalPlays().map(cardId));
    assert.ok(Array.isArray(ids));
    const mask = ids.reduce((bits, id) => bits | (1n << BigInt(id)), 0n);
    assert.equal(game.legalMask(), mask);
    game.applyAction(ids.at(-1));
  }
});

test("integer actions follow ACT-2: 0-51 play, 52-103 select toward a pass, 104-105 the moon", () => {
  assert.equal(NUM_ACTIONS, 106);
  assert.deepStrictEqual(actionIds({ type: "play", seat: 1, card: "QS" }), [cardId("QS")]);
  assert.deepStrictEqual(actionIds({ type: "pass", seat: 0, cards: ["QS", "2C", "AH"] }), ["2C", "AH", "QS"].map((c) => 52 + cardId(c)));
  assert.deepStrictEqual(actionFromIds([cardId("QS")], 2), { type: "play", seat: 2, card: "QS" });
  // Both copies of a card of two packs (RS-21) pass as the id twice; a third is no card's.
  assert.deepStrictEqual(actionFromIds([53, 53], 1), { type: "pass", seat: 1, cards: ["3C", "3C"] });
  throwsCode(() => actionFromIds([53, 53, 53], 1), InvalidInputError, "invalid-action");
  assert.equal(actionLabel(cardId("QS")), "play QS");
  assert.equal(actionLabel(52 + cardId("QS")), "pass QS");
  assert.equal(actionLabel(104), "moon add-to-others");
  throwsCode(() => actionIds({ type: "deal", hands: [] }), InvalidInputError, "invalid-action");
});

test("presets are the files of spec/rulesets/, with every field as a getter (API-2)", () => {
  const files = readdirSync(spec("rulesets/")).filter((f) => f.endsWith(".json")).map((f) => f.slice(0, -5)).sort();
  assert.deepStrictEqual(presetNames(), files);
  for (const name of files) {
    const data = parseJson(readFileSync(spec(`rulesets/${name}.json`), "utf8"));
    const ruleset = preset(name);
    assert.deepStrictEqual(ruleset.toJson(), data);
    assert.ok(ruleset.equals(Ruleset.fromJson(data)));
    assert.ok(ruleset.equals(Ruleset.fromJson(JSON.stringify(data))));
    assert.equal(ruleset.name, data.name);
    assert.equal(ruleset.title, data.title ?? null);
    assert.deepStrictEqual(ruleset.sources, data.sources ?? null);
    assert.equal(ruleset.players, data.players);
    assert.deepStrictEqual(ruleset.passing, data.passing);
    assert.equal(ruleset.openingCard, data.opening_card);
    assert.equal(ruleset.firstTrickBan, data.first_trick_ban);
    assert.equal(ruleset.heartsBreaking, data.hearts_breaking);
    assert.deepStrictEqual(ruleset.cardPoints, data.card_points);
    assert.deepStrictEqual(ruleset.moon, data.moon);
    assert.equal(ruleset.target, data.target);
    // RS-14: a card worth less than zero is never a point card.
    const positive = Object.keys(data.card_points).filter((card) => data.card_points[card] > 0);
    assert.deepStrictEqual(ruleset.pointCards, positive.sort((a, b) => cardId(a) - cardId(b)));
    assert.equal(ruleset.handSize * ruleset.players, ruleset.deck.length);
  }
  const ruleset = preset("hearts-4");
  ruleset.toJson().name = "edited";
  ruleset.cardPoints.QS = 0;
  assert.equal(ruleset.name, "hearts-4");
  assert.equal(ruleset.cardPoints.QS, 13);
  assert.throws(() => { ruleset.name = "x"; }, TypeError);
});

test("RULESET_FIELD_TABLE is the schema's table of fields, and every field of a simple kind is a getter", () => {
  const schema = JSON.parse(readFileSync(spec("schemas/ruleset.schema.json"), "utf8"));
  const table = reversis.RULESET_FIELD_TABLE;
  assert.deepStrictEqual(table.map((f) => f.name), Object.keys(schema.properties));
  assert.deepStrictEqual([...reversis.RULESET_FIELDS], Object.keys(schema.properties));
  assert.ok(Object.isFrozen(table) && table.every((f) => Object.isFrozen(f)));
  const ruleset = preset("hartenjagen-count-down");
  for (const field of table) {
    const property = schema.properties[field.name];
    // x-clause, else the clause the description opens with.
    assert.equal(field.clause, property["x-clause"] ?? property.description.match(/^RS-\d+/)[0], field.name);
    assert.equal(field.optional, !schema.required.includes(field.name), field.name);
    assert.deepStrictEqual(field.default, property.default ?? null, field.name);
    if (field.kind === "enum") assert.deepStrictEqual(field.values, property.enum, field.name);
    if (field.kind === "boolean" || field.kind === "enum") {
      const camel = field.name.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
      const written = ruleset.toJson()[field.name];
      assert.deepStrictEqual(ruleset[camel], written === undefined ? field.default : written, field.name);
    }
  }
});

test("replace takes camelCase fields and names the result <name>-custom (API-2)", () => {
  const omnibus = preset("hearts-4").replace({ cardPoints: { JD: -10 } });
  assert.equal(omnibus.name, "hearts-4-custom");
  assert.equal(omnibus.title, "Classic Hearts, 4 players (custom)");
  assert.equal(omnibus.cardPoints.JD, -10);
  assert.equal(preset("hearts-4").replace({ openingCard: null }).openingCard, null);
  assert.equal(preset("hearts-4").replace({ moonScoring: "add-to-others" }).moon.scoring, "add-to-others");
  assert.equal(preset("hearts-4").replace({ passSize: 2 }).passing.size, 2);
  throwsCode(() => preset("hearts-4").replace({ card_points: {} }), InvalidInputError, "invalid-ruleset");
  throwsCode(() => preset("hearts-4").replace({ players: 9 }), InvalidInputError, "invalid-ruleset");
});

test("new Game checks its options (API-3, ERR-6)", () => {
  throwsCode(() => new Game(preset("hearts-4").toJson()), InvalidInputError, "invalid-setup");
  throwsCode(() => new Game(preset("hearts-4"), { handNumber: null }), InvalidInputError, "invalid-setup");
  throwsCode(() => new Game(preset("hearts-4"), { hand_number: 2 }), InvalidInputError, "invalid-setup");
  throwsCode(() => new Game(preset("hearts-4"), { seed: -1 }), InvalidInputError, "invalid-setup");
  throwsCode(() => new Game(preset("hearts-4"), { seed: 2n ** 64n }), InvalidInputError, "invalid-setup");
  throwsCode(() => new Game(preset("hearts-4"), { scores: [0, 0] }), InvalidInputError, "invalid-setup");
  const unseeded = new Game(preset("hearts-4"));
  assert.equal(unseeded.phase, "deal");
  assert.equal(unseeded.seed, null);
  assert.equal(unseeded.toMove, null);
  throwsCode(() => unseeded.deal(), InvalidInputError, "no-seed");
  const later = new Game(preset("hearts-4"), { seed: 1n, handNumber: 2n ** 60n, scores: [1, 2, 3, 4] });
  assert.equal(later.handNumber, 2n ** 60n);
  assert.deepStrictEqual(later.scores, [1, 2, 3, 4]);
  // DEAL-2: the dealer is the hand number modulo the seats; PASS-1: the cycle's direction.
  assert.equal(later.dealer, Number(2n ** 60n % 4n));
  assert.equal(later.passDirection, ["left", "right", "across", "hold"][Number(2n ** 60n % 4n)]);
});

test("JSON keeps 64-bit integers exact and whole floats apart from integers (ERR-6)", () => {
  assert.equal(parseJson("18446744073709551615"), MAX_U64);
  assert.equal(parseJson("-9223372036854775808"), -(2n ** 63n));
  assert.equal(parseJson("9007199254740991"), Number.MAX_SAFE_INTEGER);
  assert.equal(stringifyJson({ seed: MAX_U64 }), '{"seed":18446744073709551615}');
  assert.equal(stringifyJson(parseJson("[4.0]")), "[4.0]");
  assert.throws(() => parseJson("{"), SyntaxError);
  // A key named __proto__ is data, not the object's prototype.
  const odd = parseJson('{"__proto__": {"a": 1}}');
  assert.deepStrictEqual(Object.keys(odd), ["__proto__"]);
  assert.equal(Object.getPrototypeOf(odd), Object.prototype);
  assert.equal(stringifyJson(odd), '{"__proto__":{"a":1}}');
  assert.throws(() => stringifyJson({ f() {} }), TypeError);
  const game = new Game(preset("hearts-4"), { seed: 1 });
  const pass = parseJson('{"type": "pass", "seat": 0.0, "cards": ["2C", "3C", "4C"]}');
  throwsCode(() => game.apply(pass), InvalidInputError, "invalid-action");
});

test("simulate plays hands × players scores; each hand's scores add up as SCORE-1 and SCORE-3 say", () => {
  const scores = simulate(preset("hearts-4"), 50, 1);
  assert.ok(scores instanceof Int32Array);
  assert.equal(scores.length, 50 * 4);
  for (let hand = 0; hand < 50; hand++) {
    const sum = scores.slice(hand * 4, hand * 4 + 4).reduce((a, b) => a + b, 0);
    // 26 points are captured; a moon adds 26 to each other seat (78) or takes 26 from the taker (-26).
    assert.ok([26, 78, -26].includes(sum), `hand ${hand} sums to ${sum}`);
  }
  assert.deepStrictEqual(simulate(preset("hearts-4"), 50, 1), scores);
  assert.equal(simulate(preset("hearts-4"), 0, 1).length, 0);
  throwsCode(() => simulate(preset("hearts-4"), -1, 1), InvalidInputError, "invalid-setup");
  throwsCode(() => simulate("hearts-4", 1, 1), InvalidInputError, "invalid-setup");
});

test("a freed game says so; freeing twice is harmless", () => {
  const game = new Game(preset("hearts-4"), { seed: 1 });
  const copy = game.copy();
  game.free();
  game.free();
  assert.throws(() => game.phase, /freed/);
  assert.throws(() => game.legalActions(), /freed/);
  assert.equal(copy.phase, "pass");
  assert.ok(!copy.equals(game));
});

test("versions: the spec's and the package's (Cargo.toml)", () => {
  const cargo = readFileSync(new URL("../../Cargo.toml", import.meta.url), "utf8");
  assert.equal(reversis.VERSION, cargo.match(/^version = "([^"]+)"/m)[1]);
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  assert.equal(pkg.version, reversis.VERSION);
  const readme = readFileSync(spec("README.md"), "utf8");
  assert.equal(reversis.SPEC_VERSION, readme.match(/This is version \*\*([0-9.]+)\*\*/)[1]);
});

test("the ERR-6 limits and the ruleset fields are the core's, as the spec and the schema state them", () => {
  const errors = readFileSync(spec("errors.md"), "utf8");
  const number = (text) => Number(text.replace(/ /g, ""));
  const said = (pattern) => number(errors.match(pattern)[1]);
  assert.equal(reversis.LIMITS.deals, said(/returns at most ([\d ]+) deals/));
  assert.equal(reversis.LIMITS.draws, said(/at most ([\d ]+) draws/));
  assert.equal(reversis.LIMITS.simulate_hands, said(/plays at most ([\d ]+) hands/));
  assert.equal(reversis.LIMITS.samples, said(/at most ([\d ]+) layouts/));
  assert.equal(reversis.LIMITS.record_actions, said(/at most ([\d ]+) actions/));
  assert.equal(reversis.LIMITS.record_bytes, said(/at most (\d+) MiB/) * 1024 * 1024);
  const schema = JSON.parse(readFileSync(spec("schemas/ruleset.schema.json"), "utf8"));
  assert.deepStrictEqual([...reversis.RULESET_FIELDS].sort(), Object.keys(schema.properties).sort());
  const optional = Object.keys(schema.properties).filter((field) => !schema.required.includes(field));
  assert.deepStrictEqual([...reversis.RULESET_OPTIONAL_FIELDS].sort(), optional.sort());
});

/** The ids of a BigInt mask, ascending. */
function maskIds(mask) {
  const ids = [];
  for (let id = 0; mask > 0n; id++, mask >>= 1n) if (mask & 1n) ids.push(id);
  return ids;
}

test("the acting seat's fast paths answer as the general ones: legal ids, the phase, applyAction", () => {
  // legalActions() and applyAction(id) for the acting seat skip the conversion of a seat and of
  // the id; with the seat given they take the general path. Both must agree everywhere.
  for (const name of ["hearts-4", "hearts-computer", "hartenjagen", "hearts-7"]) {
    const game = new Game(preset(name), { seed: 11 });
    let steps = 0;
    while (game.phase !== "over" && steps < 400) {
      const seat = game.phase === "pass" ? game.awaitingPass[0] : game.toAct;
      const fast = game.phase === "pass" ? null : game.legalActions();
      const general = game.legalActions(seat);
      if (fast !== null) {
        assert.ok(Array.isArray(fast));
        assert.deepStrictEqual(fast, general);
      }
      assert.deepStrictEqual(general, maskIds(game.legalMask(seat)));
      assert.ok(["deal", "pass", "play", "moon", "over"].includes(game.phase));
      // An id that is not legal now, through either path: the same error, nothing changed.
      const illegal = [...Array(NUM_ACTIONS).keys()].find((id) => !general.includes(id));
      if (fast !== null && illegal !== undefined) {
        const before = game.state();
        const codes = [() => game.applyAction(illegal), () => game.applyAction(illegal, seat)].map((attempt) => {
          try {
            attempt();
          } catch (error) {
            return [error.constructor.name, error.code, error.message];
          }
          return null;
        });
        assert.notStrictEqual(codes[0], null);
        assert.deepStrictEqual(codes[0], codes[1]);
        assert.deepStrictEqual(game.state(), before);
      }
      const id = general[steps % general.length];
      if (fast !== null) game.applyAction(id);
      else game.applyAction(id, seat);
      steps += 1;
    }
  }
  // Outside the fast path's domain the general checks still answer.
  const game = new Game(preset("hearts-4"), { seed: 3 });
  while (game.phase !== "play") game.applyAction(game.legalActions(game.awaitingPass[0])[0], game.awaitingPass[0]);
  for (const bad of [-1, 1.5, NUM_ACTIONS, "3", 2n ** 70n]) {
    throwsCode(() => game.applyAction(bad), InvalidInputError, "invalid-action");
  }
  const waiting = new Game(preset("hearts-4"));
  assert.strictEqual(waiting.phase, "deal");
  assert.deepStrictEqual(waiting.legalActions(), maskIds(waiting.legalMask()));
});
