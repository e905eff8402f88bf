#!/usr/bin/env node
// The driver protocol of spec/driver.md over the JavaScript package, so that
// `reversis conformance --driver "node js/driver.mjs"` runs the suite against it.
//
// It answers exactly as the built-in engines' driver does (python/reversis/conformance/
// driver.py and engines.py): requests are read with the package's parseJson, so a seed beyond
// 2^53 stays exact, a value beyond 2^64 reaches the core to be rejected there, and a whole
// number written as a float (`0.0`) stays a float; answers are written with stringifyJson.

import {
  Game,
  ReversisError,
  SPEC_VERSION,
  VERSION,
  dealFromSeed,
  dumpRecord,
  loadRecord,
  parseCard,
  parseJson,
  presetNames,
  seedDraws,
  stringifyJson,
} from "./src/index.js";
import { orDefault, rulesetOf, view } from "./view.mjs";

const INVALID_REQUEST = "invalid-request";
const KINDS = ["card", "ruleset", "seed", "game", "record", "record-bytes", "perft"];

/** A request the driver cannot read, answered `invalid-request` with this message (DRV-1). */
class Rejected extends Error {}

/** A value quoted as JSON for a message, cut to 80 characters. */
function quoted(value) {
  let text;
  try {
    text = stringifyJson(value);
  } catch {
    text = "an unreadable value";
  }
  return text.length <= 80 ? text : `${text.slice(0, 79)}…`;
}

const games = new Map();
let nextGame = 0;

function keep(game) {
  nextGame += 1;
  games.set(nextGame, game);
  return { game: nextGame };
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Every command of DRV-3 but quit: its arguments (true for required ones) and its answer. */
const COMMANDS = {
  hello: [{}, () => ({
    name: "reversis (javascript)",
    protocol: 1,
    spec_version: SPEC_VERSION,
    version: VERSION,
    capabilities: {
      players: [3, 4, 5, 6, 7, 8, 9, 10],
      presets: presetNames(),
      custom_rulesets: true,
      kinds: KINDS,
      observations: true,
      error_codes: true,
      action_ids: true,
      observation_tensor: true,
      perft: true,
    },
  })],
  parse_card: [{ text: true }, ({ text }) => ({ card: parseCard(text) })],
  ruleset: [{ ruleset: true }, ({ ruleset }) => {
    const value = rulesetOf(ruleset);
    return { ruleset: value.toJson(), hand_size: value.handSize, deck: value.deck, point_cards: value.pointCards };
  }],
  seed_draws: [{ seed: true, count: true }, ({ seed, count }) => ({
    draws: seedDraws(seed, count).map((draw) => `0x${draw.toString(16).toUpperCase().padStart(16, "0")}`),
  })],
  deal_from_seed: [{ ruleset: true, seed: true, deals: true, hand_number: false }, (args) => ({
    deals: dealFromSeed(rulesetOf(args.ruleset), args.seed, args.deals, orDefault(args.hand_number, 0)),
  })],
  new_game: [{ ruleset: true, seed: false, hand_number: false, scores: false }, (args) => keep(
    new Game(rulesetOf(args.ruleset), {
      seed: orDefault(args.seed, null),
      handNumber: orDefault(args.hand_number, 0),
      scores: orDefault(args.scores, null),
    }),
  )],
  apply: [{ game: true, action: true }, ({ game, action }) => {
    games.get(game).apply(action);
    return {};
  }],
  apply_action: [{ game: true, action: true, seat: false }, ({ game, action, seat }) => {
    games.get(game).applyAction(action, orDefault(seat, null));
    return {};
  }],
  undo: [{ game: true }, ({ game }) => {
    games.get(game).undo();
    return {};
  }],
  view: [{ game: true }, ({ game }) => ({ view: view(games.get(game)) })],
  state: [{ game: true }, ({ game }) => ({ state: games.get(game).state() })],
  observation: [{ game: true, seat: true }, ({ game, seat }) => ({ observation: games.get(game).observation(seat) })],
  observation_tensor: [{ game: true, seat: true }, ({ game, seat }) => ({
    tensor: Array.from(games.get(game).observationTensor(seat)),
  })],
  perft: [{ game: true, depth: true, unit: true, divide: false }, ({ game, depth, unit, divide }) => {
    // DRV-8: the unit is required here, null included; with divide the count is its sum (PERFT-4).
    if (typeof unit !== "string") throw new ReversisError("invalid-setup", `a perft unit is 'decisions' or 'tricks', not ${quoted(unit)}`);
    const wanted = orDefault(divide, false);
    if (typeof wanted !== "boolean") throw new ReversisError("invalid-setup", `divide is true or false, not ${quoted(divide)}`);
    const position = games.get(game);
    if (!wanted) return { count: position.perft(depth, unit) };
    const counts = position.divide(depth, unit);
    return { count: Object.values(counts).reduce((sum, n) => sum + BigInt(n), 0n), divide: counts };
  }],
  record: [{ game: true }, ({ game }) => ({ record: games.get(game).toRecord() })],
  load_record: [{ record: true }, ({ record }) => keep(Game.fromRecord(record))],
  load_record_bytes: [{ data: true }, ({ data }) => {
    // Python's b64decode(validate=True): the alphabet and the padding exactly; pad bits are
    // ignored, as Buffer ignores them (DRV-3).
    if (typeof data !== "string" || !BASE64.test(data)) {
      throw new Rejected("'data' must be base64 text (RFC 4648)");
    }
    return keep(Game.fromRecord(loadRecord(new Uint8Array(Buffer.from(data, "base64")))));
  }],
  record_bytes: [{ game: true, format: true }, ({ game, format }) => ({
    data: Buffer.from(dumpRecord(games.get(game).toRecord(), format)).toString("base64"),
  })],
  drop: [{ game: true }, ({ game }) => {
    games.get(game)?.free();
    games.delete(game);
    return {};
  }],
};

const failure = (code, message) => ({ ok: false, error: code, message });

/** Rejects unknown and missing arguments, and games this process does not hold (DRV-1). */
function checkArguments(command, expected, given) {
  const unknown = Object.keys(given).filter((name) => !Object.hasOwn(expected, name)).sort();
  if (unknown.length) throw new Rejected(`${command} takes no argument ${unknown.map(quoted).join(", ")}`);
  const missing = Object.keys(expected).filter((name) => expected[name] && !Object.hasOwn(given, name));
  if (missing.length) throw new Rejected(`${command} needs the argument ${missing.map(quoted).join(", ")}`);
  if (Object.hasOwn(expected, "game") && !(typeof given.game === "number" && games.has(given.game))) {
    throw new Rejected(`no game ${quoted(given.game)}`);
  }
}

/** The answer's body for a request that is an object, its id already taken out. */
function handle(request) {
  const { cmd: command, ...args } = request;
  if (typeof command !== "string") {
    const which = command === undefined ? "has no cmd" : `has the cmd ${quoted(command)}, not a string`;
    return failure(INVALID_REQUEST, `a request is an object with a cmd string; this one ${which}`);
  }
  if (!Object.hasOwn(COMMANDS, command)) return failure(INVALID_REQUEST, `unknown command ${quoted(command)}`);
  const [expected, run] = COMMANDS[command];
  try {
    checkArguments(command, expected, args);
    return { ok: true, ...run(args) };
  } catch (error) {
    if (error instanceof Rejected) return failure(INVALID_REQUEST, error.message);
    if (error instanceof ReversisError) return failure(error.code, error.message);
    // A value of the right name but an unusable kind, refused by JavaScript rather than by the
    // rules; what JavaScript says about it names the package's internals, not the request.
    return failure(INVALID_REQUEST, `the arguments of ${command} have values it cannot use`);
  }
}

function answer(id, body) {
  try {
    return stringifyJson({ id, ...body });
  } catch {
    // An id that cannot be written back as JSON: answer without echoing it.
    return stringifyJson({ id: null, ...body });
  }
}

/** One answer line for one request line (without its newline); null for a blank line. */
function serveLine(bytes, decoder, first) {
  let text;
  try {
    text = decoder.decode(bytes);
    if (first && text.startsWith("\ufeff")) text = text.slice(1);
  } catch {
    return { line: answer(null, failure(INVALID_REQUEST, "the line is not UTF-8")) };
  }
  if (!text.trim()) return null;
  let request;
  try {
    request = parseJson(text);
  } catch (error) {
    return { line: answer(null, failure(INVALID_REQUEST, `not JSON: ${error.message}`)) };
  }
  if (request === null || typeof request !== "object" || Array.isArray(request) || request instanceof Number) {
    return { line: answer(null, failure(INVALID_REQUEST, "a request is a JSON object")) };
  }
  // DRV-1: the id is echoed whenever it can be read, also when the rest cannot.
  const { id = null, ...rest } = request;
  if (rest.cmd === "quit") return { line: answer(id, { ok: true }), quit: true };
  return { line: answer(id, handle(rest)) };
}

/** Writes one line, waiting while the pipe is full so that memory stays bounded. */
async function write(line) {
  if (!process.stdout.write(`${line}\n`)) {
    await new Promise((resolve) => process.stdout.once("drain", resolve));
  }
}

async function serve() {
  // ignoreBOM keeps a byte order mark in the text: only the first line's is dropped (as the
  // Python driver does), by serveLine.
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  let pending = [];
  let first = true;
  for await (const chunk of process.stdin) {
    let start = 0;
    let newline;
    while ((newline = chunk.indexOf(10, start)) >= 0) {
      pending.push(chunk.subarray(start, newline));
      start = newline + 1;
      const bytes = Buffer.concat(pending);
      pending = [];
      const served = serveLine(bytes, decoder, first);
      first = false;
      if (served === null) continue;
      await write(served.line);
      if (served.quit) {
        process.stdout.end(() => process.exit(0));
        return;
      }
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  }
  if (pending.length) {
    const served = serveLine(Buffer.concat(pending), decoder, first);
    if (served !== null) await write(served.line);
  }
}

// A closed output pipe ends the driver quietly: nobody is left to read its answers.
process.stdout.on("error", (error) => {
  process.exit(error.code === "EPIPE" ? 0 : 1);
});

await serve();
