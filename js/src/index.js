// The JavaScript API of reversis (spec/api.md, "The JavaScript API") over the WebAssembly
// build of the Rust core (rust/reversis-wasm). Every rule is decided in the core; this module
// only shapes values (camelCase names, options objects, plain arrays, null for "none") and turns
// the core's thrown errors into typed ones, in one place (`call`).

import init, * as wasm from "../wasm/reversis_wasm.js";

const wasmUrl = new URL("../wasm/reversis_wasm_bg.wasm", import.meta.url);
// Node's fetch cannot read file: URLs; browsers and workers never take that branch, so they
// never resolve the node: import.
const wasmExports =
  wasmUrl.protocol === "file:"
    ? await init({ module_or_path: await (await import("node:fs/promises")).readFile(wasmUrl) })
    : await init({ module_or_path: wasmUrl });

// The per-step calls (phase, legalActions, applyAction on the acting seat) take paths that
// allocate nothing and convert no value across the boundary: a phase crosses as its index, the
// legal ids through one buffer in the module's memory, an id the package has checked as a number.
const PHASES = Object.freeze(Array.from(wasm.phases()));
const LEGAL_IDS = wasm.legalIdsScratch();
let memoryBytes = new Uint8Array(wasmExports.memory.buffer);

/** The module's memory as bytes; a view is detached when the memory grows, so made anew then. */
function moduleBytes() {
  if (memoryBytes.byteLength === 0) memoryBytes = new Uint8Array(wasmExports.memory.buffer);
  return memoryBytes;
}

// ---------------------------------------------------------------------------------------------
// Errors (API-6, ERR-5)

/**
 * Base of every reversis error. `code` is one of {@link ERROR_CODES} (spec/errors.md); match on
 * it, never on the message.
 */
export class ReversisError extends Error {
  /**
   * @param {string} code the spec's error code
   * @param {string} message what is wrong, quoting the input
   */
  constructor(code, message) {
    super(message);
    /** @type {string} */
    this.code = code;
  }

  get name() {
    return this.constructor.name;
  }
}

/** The input is malformed or impossible in itself (ERR-2): a bad card, action, ruleset, … */
export class InvalidInputError extends ReversisError {}

/** The action is well formed but the rules forbid it now (ERR-3). */
export class IllegalActionError extends ReversisError {}

/** Every error code of spec/errors.md, in the order of its tables (API-6). */
export const ERROR_CODES = Object.freeze(Array.from(wasm.errorCodes()));

/**
 * A typed error of `code`, of the class its code belongs to.
 * @param {string} code
 * @param {string} message
 * @returns {ReversisError}
 */
function typedError(code, message) {
  return wasm.isInputError(code) ? new InvalidInputError(code, message) : new IllegalActionError(code, message);
}

/**
 * Runs `fn`, turning an error the core threw into its typed class. This is the one place where
 * wasm errors are converted; every call into the module goes through it.
 * @template T
 * @param {() => T} fn
 * @returns {T}
 */
function call(fn) {
  try {
    return fn();
  } catch (error) {
    throw convertError(error);
  }
}

/**
 * The typed error for a value thrown by the WebAssembly module; anything that is not a core
 * error (a JSON syntax error, a bug) is returned unchanged. Exported for the tests of this
 * conversion only.
 * @param {unknown} error
 * @returns {unknown}
 */
export function convertError(error) {
  if (
    error instanceof Error &&
    !(error instanceof ReversisError) &&
    (error.name === "InvalidInputError" || error.name === "IllegalActionError") &&
    typeof error.code === "string"
  ) {
    return typedError(error.code, error.message);
  }
  return error;
}

/** A short JSON-ish rendering of `value` for a message. */
function shown(value) {
  let text;
  try {
    text = typeof value === "string" ? JSON.stringify(value) : stringifyJson(value);
  } catch {
    text = typeof value === "function" ? "a function" : String(value);
  }
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/** Throws `invalid-setup` unless `options` is a plain object whose keys are all in `allowed`. */
function checkOptions(options, allowed, what) {
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw new InvalidInputError("invalid-setup", `${what} takes an options object, not ${shown(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (!allowed.includes(key)) {
      throw new InvalidInputError(
        "invalid-setup",
        `${what} has no option ${JSON.stringify(key)}; its options are ${allowed.join(", ") || "none"}`,
      );
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Versions, cards, action ids (API-1, API-10)

/** The version of spec/ this package implements, in the form of RS-17. */
export const SPEC_VERSION = wasm.specVersion();
/** The package's version (one for the package, the crates and the driver's `hello`). */
export const VERSION = wasm.version();
/** The size of the action space of ACT-2: ids 0 … NUM_ACTIONS − 1. */
export const NUM_ACTIONS = wasm.numActions();

/**
 * The input limits of ERR-6 by name (`deals`, `draws`, `simulate_hands`, `samples`, `rollouts`,
 * `playouts`, `search_ms`, `record_actions`, `record_bytes`, …): the core's one table.
 * @type {Readonly<Record<string, number>>}
 */
export const LIMITS = Object.freeze(wasm.limits());

/** The fields of a ruleset object (spec/ruleset.md), and those it may leave out (RS-19). */
export const RULESET_FIELDS = Object.freeze(Array.from(wasm.rulesetFields()));
export const RULESET_OPTIONAL_FIELDS = Object.freeze(Array.from(wasm.rulesetOptionalFields()));

/**
 * The table of the ruleset fields (the core's, generated from spec/schemas/ruleset.schema.json):
 * one frozen entry per field, in the order of RULESET_FIELDS.
 * @type {ReadonlyArray<Readonly<import("./index").RulesetFieldSpec>>}
 */
export const RULESET_FIELD_TABLE = Object.freeze(
  Array.from(wasm.rulesetFieldTable(), (entry) => Object.freeze(entry)),
);

/**
 * The canonical string of a card written in any accepted form (CARD-4): `"10h"` → `"TH"`.
 * @param {string} text
 * @returns {string}
 * @throws {InvalidInputError} `invalid-card`
 */
export function parseCard(text) {
  return call(() => wasm.parseCard(text));
}

/**
 * The id of a card (CARD-2), 0 … 51.
 * @param {string} card
 * @returns {number}
 * @throws {InvalidInputError} `invalid-card`
 */
export function cardId(card) {
  return call(() => wasm.cardId(card));
}

/**
 * The action ids that, applied in order for the action's seat, do what the ACT-1 `action` does
 * (API-10): one for a play or a moon choice, one per card, ascending, for a pass.
 * @param {object} action
 * @returns {number[]}
 * @throws {InvalidInputError} `invalid-action` (a deal has no ids), `invalid-card`
 */
export function actionIds(action) {
  return Array.from(call(() => wasm.actionIds(action)));
}

/**
 * The ACT-1 action of `seat` made of `ids`: one play id, one moon id, or distinct pass ids.
 * @param {number[]} ids
 * @param {number} seat
 * @returns {object}
 * @throws {InvalidInputError} `invalid-action`
 */
export function actionFromIds(ids, seat) {
  return call(() => wasm.actionFromIds(ids, seat));
}

/**
 * A name of an action id for people: `"play QS"`, `"pass QS"`, `"moon add-to-others"`.
 * @param {number} actionId
 * @returns {string}
 * @throws {InvalidInputError} `invalid-action`
 */
export function actionLabel(actionId) {
  return call(() => wasm.actionLabel(actionId));
}

// ---------------------------------------------------------------------------------------------
// JSON with exact integers

/**
 * Reads JSON text keeping every integer exact: beyond `Number.MAX_SAFE_INTEGER` an integer is
 * a `BigInt` (`JSON.parse` would round it). A number written with a fraction or an exponent
 * whose value is whole (`4.0`) is a `Number` object, so that it is never taken for an integer
 * (ERR-6).
 * @param {string} text
 * @returns {any}
 * @throws {SyntaxError} for text that is not JSON
 */
export function parseJson(text) {
  if (typeof text !== "string") {
    throw new TypeError(`parseJson reads a string, not ${typeof text}`);
  }
  return wasm.parseJson(text);
}

/**
 * Writes JSON data as JSON text, `BigInt`s as exact integers (`JSON.stringify` rejects them).
 * @param {any} value
 * @returns {string}
 * @throws {TypeError} for a value that is not JSON data (a function, NaN, a BigInt beyond 64 bits, …)
 */
export function stringifyJson(value) {
  return wasm.stringifyJson(value);
}

// ---------------------------------------------------------------------------------------------
// Rulesets (API-2)

const INNER = Symbol("reversis.inner");
const RULESET = Symbol("reversis.ruleset");

/** A ruleset field's name in camelCase: `first_trick_ban` is `firstTrickBan`. */
function camelCase(field) {
  return field.replace(/_([a-z])/g, (_, letter) => letter.toUpperCase());
}

/**
 * replace()'s camelCase keys and the Python API's keywords they stand for: every field of
 * {@link RULESET_FIELDS} and the shorthands of nested fields.
 */
const REPLACE_KEYS = Object.freeze(
  Object.fromEntries(
    [...RULESET_FIELDS, "lowest_rank", "removed", "pass_cycle", "pass_size", "moon_scoring", "moon_bonus"].map(
      (keyword) => [camelCase(keyword), keyword],
    ),
  ),
);

/** A deep copy of JSON data, so that no caller can edit a ruleset's cached object. */
function copyJson(value) {
  return value === undefined ? undefined : structuredClone(value);
}

/**
 * One variant of the Hearts family: an immutable, validated ruleset (API-2). Build one with
 * {@link preset} or {@link Ruleset.fromJson}; the constructor is not public.
 */
export class Ruleset {
  /** @private */
  constructor(inner, token) {
    if (token !== INNER) {
      throw new TypeError("use preset(name) or Ruleset.fromJson(data) to get a Ruleset");
    }
    this[INNER] = inner;
    Object.freeze(this);
  }

  /**
   * A ruleset from its JSON object (ruleset.md) or JSON text.
   * @param {object|string} data
   * @returns {Ruleset}
   * @throws {InvalidInputError} `invalid-ruleset` naming the problem
   */
  static fromJson(data) {
    return new Ruleset(
      call(() => wasm.Ruleset.fromJson(data)),
      INNER,
    );
  }

  /**
   * The canonical JSON object of ruleset.md (RS-16); a fresh copy each call.
   * @returns {object}
   */
  toJson() {
    return copyJson(this.#json());
  }

  #json() {
    // A frozen instance cannot take a new property, so the cache lives in a WeakMap.
    let cache = rulesetJson.get(this);
    if (cache === undefined) {
      cache = this[INNER].toJson();
      rulesetJson.set(this, cache);
    }
    return cache;
  }

  /**
   * A new, validated ruleset with some fields changed (API-2). The keys are camelCase:
   * `name`, `title`, `sources`, `players`, `deck`, `passing`, `openingCard`, `firstTrickBan`,
   * `heartsBreaking`, `cardPoints` (merged into the table; a value of 0 takes the card out),
   * `moon`, `target`, and the shorthands `lowestRank`, `removed`, `passCycle`, `passSize`,
   * `moonScoring`, `moonBonus`. Unless `name` is given the result is named `<name>-custom`.
   * @param {object} fields
   * @returns {Ruleset}
   * @throws {InvalidInputError} `invalid-ruleset` for an unknown key or an invalid result
   */
  replace(fields) {
    if (fields === null || typeof fields !== "object" || Array.isArray(fields)) {
      throw new InvalidInputError("invalid-ruleset", `replace() takes an object of fields, not ${shown(fields)}`);
    }
    const keywords = {};
    for (const [key, value] of Object.entries(fields)) {
      if (!Object.hasOwn(REPLACE_KEYS, key)) {
        throw new InvalidInputError("invalid-ruleset", `replace() got an unknown field ${JSON.stringify(key)}`);
      }
      keywords[REPLACE_KEYS[key]] = value;
    }
    return new Ruleset(
      call(() => this[INNER].replace(keywords)),
      INNER,
    );
  }

  /** The ruleset's name. @type {string} */
  get name() {
    return this[INNER].name;
  }
  /** Its title, or null. @type {string|null} */
  get title() {
    return this.#json().title ?? null;
  }
  /** The documents and decisions it follows, or null. @type {string[]|null} */
  get sources() {
    return copyJson(this.#json().sources) ?? null;
  }
  /** The number of seats, 3 … 10. @type {number} */
  get players() {
    return this[INNER].players;
  }
  /** `{cycle, size}`, or null without passing. @type {{cycle: string[], size: number}|null} */
  get passing() {
    return copyJson(this.#json().passing) ?? null;
  }
  /** The card that must lead the first trick, or null for a free lead. @type {string|null} */
  get openingCard() {
    return this.#json().opening_card ?? null;
  }
  /** Whether point cards may not be discarded on the first trick (PLAY-5). @type {boolean} */
  get firstTrickBan() {
    return this.#json().first_trick_ban;
  }
  /** How hearts are broken (PLAY-6). @type {string} */
  get heartsBreaking() {
    return this.#json().hearts_breaking;
  }
  /** Card strings to their points. @type {Record<string, number>} */
  get cardPoints() {
    return copyJson(this.#json().card_points);
  }
  /** `{scoring, bonus}`, or null without a moon rule. @type {{scoring: string, bonus: number}|null} */
  get moon() {
    return copyJson(this.#json().moon) ?? null;
  }
  /** The total that ends the match (MATCH-1); a BigInt beyond 2^53. @type {number|bigint} */
  get target() {
    return this.#json().target;
  }
  /** Whether reaching the target starts the count-down (RS-20, MATCH-5). @type {boolean} */
  get countDown() {
    return this.#json().count_down ?? false;
  }
  /** The cards of the deck, sorted, a card of two copies twice (RS-4, RS-21). @type {string[]} */
  get deck() {
    return this[INNER].deck;
  }
  /** `{last_trick}` where identical cards cancel (RS-22, PLAY-9), else null. @type {{last_trick: string}|null} */
  get cancellation() {
    return copyJson(this.#json().cancellation) ?? null;
  }
  /** The cards each seat is dealt (DEAL-1). @type {number} */
  get handSize() {
    return this[INNER].handSize;
  }
  /** The cards worth points, sorted (SCORE-1). @type {string[]} */
  get pointCards() {
    return this[INNER].pointCards;
  }

  static {
    // Every other field of RULESET_FIELDS (a field of a rule of legality, declared in the core's
    // kernel, or an optional object) as a camelCase getter: its value in toJson(), or its
    // default where left out, so that a new field needs no getter of its own.
    for (const field of RULESET_FIELDS) {
      const key = camelCase(field);
      if (!(key in Ruleset.prototype)) {
        Object.defineProperty(Ruleset.prototype, key, {
          get() {
            return this[INNER].field(field);
          },
          configurable: true,
        });
      }
    }
  }

  /**
   * Whether `other` is a ruleset with the same canonical object.
   * @param {unknown} other
   * @returns {boolean}
   */
  equals(other) {
    return other instanceof Ruleset && this[INNER].equals(other[INNER]);
  }

  /** @returns {string} */
  toString() {
    return `Ruleset(${this.name})`;
  }
}

const rulesetJson = new WeakMap();

/**
 * The built-in preset called `name` (spec/rulesets/).
 * @param {string} name
 * @returns {Ruleset}
 * @throws {InvalidInputError} `unknown-preset`
 */
export function preset(name) {
  return new Ruleset(
    call(() => wasm.preset(name)),
    INNER,
  );
}

/**
 * The names of the built-in presets, sorted.
 * @returns {string[]}
 */
export function presetNames() {
  return Array.from(wasm.presetNames());
}

/** The wasm ruleset of `ruleset`, or `invalid-setup` naming what was given instead (ERR-6). */
function rulesetArg(ruleset, what) {
  if (!(ruleset instanceof Ruleset)) {
    throw new InvalidInputError("invalid-setup", `${what} needs a Ruleset, not ${shown(ruleset)}`);
  }
  return ruleset[INNER];
}

// ---------------------------------------------------------------------------------------------
// Games (API-3, API-8, API-9)

/** null for the wasm binding's undefined ("none"), as the view and Python's None have it. */
const orNull = (value) => (value === undefined ? null : value);

/** A seat argument: left out or null means the acting seat. */
const seatArg = (seat) => (seat === undefined ? null : seat);

/**
 * The wasm game of `game`, or a clear error once it has been freed. (A function, not a private
 * getter: games made by copy() and fromRecord() are built without the constructor, so they carry
 * no private fields.)
 */
function gameOf(game) {
  const inner = game[INNER];
  if (inner === null) {
    throw new TypeError("this Game has been freed");
  }
  if (inner === undefined) {
    throw new TypeError("not a Game");
  }
  return inner;
}

/** A Game of class `cls` around the wasm game `inner`, built without running a constructor. */
function wrapGame(cls, inner) {
  const game = Object.create(cls.prototype);
  game[INNER] = inner;
  game[RULESET] = undefined;
  return game;
}

/**
 * A match under one ruleset, from its first deal until the target ends it (API-3).
 *
 * Lists of ids are plain arrays; integers beyond 2^53 (a seed, a hand number) are BigInts; "none"
 * is null. A rejected action throws and leaves the game exactly as it was (ERR-1). The game's
 * memory lives in the WebAssembly module: {@link Game#free} releases it at once, and otherwise it
 * is released when the game is garbage-collected.
 */
export class Game {
  /**
   * Starts a match. With a seed it deals at once from the seed (SEED-5) and deals every later
   * hand the same way; without one it waits in phase `deal`.
   * @param {Ruleset} ruleset
   * @param {{seed?: number|bigint|null, handNumber?: number|bigint, scores?: Array<number|bigint>|null}} [options]
   *   `seed` 0 … 2^64 − 1 (null: unseeded); `handNumber` the first hand's number (0 by default;
   *   null is `invalid-setup`, as in Python); `scores` the starting totals (null: zeros)
   * @throws {InvalidInputError} `invalid-setup`
   */
  constructor(ruleset, options = {}) {
    checkOptions(options, ["seed", "handNumber", "scores"], "new Game()");
    const { seed = null, handNumber = 0, scores = null } = options;
    const rules = rulesetArg(ruleset, "a game");
    if (handNumber === null) {
      throw new InvalidInputError("invalid-setup", "handNumber must be an integer, not null");
    }
    this[INNER] = call(() => new wasm.Game(rules, seed, handNumber, scores));
    this[RULESET] = ruleset;
  }

  /**
   * Rebuilds a game from its record by replaying it (REC-1, REC-2); undo works as on the
   * original, except that a pass built by selections is taken back whole (API-8).
   * @param {object} record
   * @returns {Game}
   * @throws {InvalidInputError} `invalid-record`
   */
  static fromRecord(record) {
    return wrapGame(this, call(() => wasm.Game.fromRecord(record)));
  }

  /** The ruleset. @type {Ruleset} */
  get ruleset() {
    if (this[RULESET] === undefined) {
      const inner = gameOf(this).ruleset;
      this[RULESET] = new Ruleset(inner, INNER);
    }
    return this[RULESET];
  }
  /** The seed, or null for an unseeded game. @type {number|bigint|null} */
  get seed() {
    return gameOf(this).seed;
  }
  /** `"deal"`, `"pass"`, `"play"`, `"moon"` or `"over"`. @type {string} */
  get phase() {
    return PHASES[gameOf(this).phaseIndex];
  }
  /** The current (or coming) hand's number (DEAL-2). @type {number|bigint} */
  get handNumber() {
    return gameOf(this).handNumber;
  }
  /** The hand's dealer (DEAL-2). @type {number} */
  get dealer() {
    return gameOf(this).dealer;
  }
  /** `"left"`, `"right"`, `"across"`, `"hold"`, or null without passing (PASS-1). @type {string|null} */
  get passDirection() {
    return orNull(gameOf(this).passDirection);
  }
  /** The seat to play (phase play) or to choose (phase moon), else null. @type {number|null} */
  get toMove() {
    return orNull(gameOf(this).toMove);
  }
  /** The seat the integer API acts for by default (ACT-3), else null. @type {number|null} */
  get toAct() {
    return orNull(gameOf(this).toAct);
  }
  /** The seats that must still pass, ascending. @type {number[]} */
  get awaitingPass() {
    return gameOf(this).awaitingPass;
  }
  /** The trick in progress, `{seat, card}` in playing order (TRICK-1). @type {Array<{seat: number, card: string}>} */
  get trick() {
    return gameOf(this).trick;
  }
  /** The completed tricks of this hand, oldest first (TRICK-1). @type {object[]} */
  get tricksPlayed() {
    return gameOf(this).tricksPlayed;
  }
  /** Whether hearts are broken (PLAY-6). @type {boolean} */
  get heartsBroken() {
    return gameOf(this).heartsBroken;
  }
  /** Whether the hand (the coming one in phase deal) is a count-down hand (MATCH-5). @type {boolean} */
  get countDown() {
    return gameOf(this).countDown;
  }
  /** Each seat's points captured so far this hand. @type {number[]} */
  get points() {
    return gameOf(this).points;
  }
  /** The match totals. @type {Array<number|bigint>} */
  get scores() {
    return gameOf(this).scores;
  }
  /** The scores of every completed hand, oldest first. @type {number[][]} */
  get handScores() {
    return gameOf(this).handScores;
  }
  /** The seat that shot the moon, in phase moon (SCORE-3), else null. @type {number|null} */
  get moonTaker() {
    return orNull(gameOf(this).moonTaker);
  }
  /** The seats with the lowest total once over (MATCH-3), else []. @type {number[]} */
  get winners() {
    return gameOf(this).winners;
  }
  /**
   * Every accepted action so far, canonical ACT-1 objects: a fresh array each read, built in
   * time proportional to the match's length (use {@link Game#actionCount} for the count).
   * @type {object[]}
   */
  get actions() {
    return gameOf(this).actions;
  }
  /** The number of accepted actions, at a constant cost. @type {number} */
  get actionCount() {
    return gameOf(this).actionCount;
  }
  /** What the last accepted action set off (EVT-1); [] before any and after undo(). @type {object[]} */
  get events() {
    return gameOf(this).events;
  }
  /** The most recently scored hand (EVT-2), or null. @type {object|null} */
  get lastHand() {
    return gameOf(this).lastHand;
  }
  /**
   * Who passes to whom this hand (PASS-1, PASS-3): `{direction, size, to, from}`, seat `s`
   * passing to `to[s]` and receiving from `from[s]`; null where the hand has no pass.
   * @type {{direction: string, size: number, to: number[], from: number[]}|null}
   */
  get passPlan() {
    return gameOf(this).passPlan;
  }
  /**
   * How the match ends and where it stands: `{ends, totals, over, lowest, winners}`, `ends`
   * the ways the match ends, each named by its `kind` (`target`, `count-down`).
   * @type {object}
   */
  get standing() {
    return gameOf(this).standing;
  }

  /**
   * Why the seat to move may not play `card` now: `{code, rule, message}` (the error code, the
   * clause of game.md that refuses it, the error's message), or null where it may.
   * @param {string} card
   * @returns {{code: string, rule: string, message: string}|null}
   * @throws {InvalidInputError} `invalid-card` for a string that is not a card
   */
  breach(card) {
    return call(() => gameOf(this).breach(card));
  }

  /**
   * The seat's cards, sorted.
   * @param {number} seat
   * @returns {string[]}
   * @throws {InvalidInputError} `invalid-action` for a seat not at the table
   */
  hand(seat) {
    return call(() => gameOf(this).hand(seat));
  }

  /**
   * The cards the seat has selected toward its pass, in the order selected (ACT-2).
   * @param {number} seat
   * @returns {string[]}
   * @throws {InvalidInputError} `invalid-action`
   */
  selected(seat) {
    return call(() => gameOf(this).selected(seat));
  }

  /**
   * The legal cards of the seat to move (PLAY-8), sorted; [] outside phase play.
   * @returns {string[]}
   */
  legalPlays() {
    return gameOf(this).legalPlays();
  }

  /**
   * The legal action ids of `seat` (by default the acting seat, ACT-3), ascending.
   * @param {number|null} [seat]
   * @returns {number[]}
   * @throws {InvalidInputError} `invalid-action`
   */
  legalActions(seat = null) {
    const inner = gameOf(this);
    if (seat === null || seat === undefined) {
      const count = call(() => inner.legalIdsToScratch());
      const bytes = moduleBytes();
      const ids = new Array(count);
      for (let i = 0; i < count; i++) ids[i] = bytes[LEGAL_IDS + i];
      return ids;
    }
    const ids = call(() => inner.legalActions(seat));
    const list = new Array(ids.length);
    for (let i = 0; i < ids.length; i++) list[i] = ids[i];
    return list;
  }

  /**
   * The legal action ids of `seat` as a bit mask: bit `i` set for legal id `i`.
   * @param {number|null} [seat]
   * @returns {bigint}
   * @throws {InvalidInputError} `invalid-action`
   */
  legalMask(seat = null) {
    return call(() => gameOf(this).legalMask(seatArg(seat)));
  }

  /**
   * Applies an ACT-1 action; a rejected one changes nothing (ERR-1).
   * @param {object} action
   * @throws {InvalidInputError|IllegalActionError}
   */
  apply(action) {
    call(() => gameOf(this).apply(action));
  }

  /**
   * Applies an action id (ACT-2) for `seat`, by default the acting seat (ACT-3).
   * @param {number} actionId
   * @param {number|null} [seat]
   * @throws {InvalidInputError|IllegalActionError}
   */
  applyAction(actionId, seat = null) {
    const inner = gameOf(this);
    if ((seat === null || seat === undefined) && Number.isInteger(actionId) && actionId >= 0 && actionId < NUM_ACTIONS) {
      call(() => inner.applyActionId(actionId));
    } else {
      call(() => inner.applyAction(actionId, seatArg(seat)));
    }
  }

  /**
   * Applies a deal of `hands`; without hands, on a game in phase deal, `no-seed` (DEAL-3).
   * @param {string[][]|null} [hands]
   * @throws {InvalidInputError|IllegalActionError}
   */
  deal(hands = null) {
    call(() => gameOf(this).deal(hands));
  }

  /**
   * Applies the pass of `cards` by `seat` (default: the acting seat).
   * @param {string[]} cards
   * @param {number|null} [seat]
   * @throws {InvalidInputError|IllegalActionError}
   */
  passCards(cards, seat = null) {
    call(() => gameOf(this).passCards(cards, seatArg(seat)));
  }

  /**
   * Plays `card` for `seat` (default: the seat to move).
   * @param {string} card
   * @param {number|null} [seat]
   * @throws {InvalidInputError|IllegalActionError}
   */
  play(card, seat = null) {
    call(() => gameOf(this).play(card, seatArg(seat)));
  }

  /**
   * The moon taker's choice, `"add-to-others"` or `"subtract-from-taker"` (SCORE-3).
   * @param {string} choice
   * @param {number|null} [seat]
   * @throws {InvalidInputError|IllegalActionError}
   */
  chooseMoon(choice, seat = null) {
    call(() => gameOf(this).chooseMoon(choice, seatArg(seat)));
  }

  /**
   * Takes back the last accepted action with everything it set off (API-8).
   * @throws {IllegalActionError} `nothing-to-undo`
   */
  undo() {
    call(() => gameOf(this).undo());
  }

  /**
   * Perft (spec/perft.md, PERFT-2, PERFT-3): the legal sequences of `depth` decisions from the
   * position, or with `unit` `"tricks"` of decisions until `depth` more tricks are complete.
   * @param {number} depth 0 to `LIMITS.perft_depth`
   * @param {"decisions" | "tricks"} [unit] `"decisions"` by default
   * @returns {number | bigint} a `BigInt` beyond `Number.MAX_SAFE_INTEGER`
   * @throws {InvalidInputError} `invalid-setup` for a bad depth or unit
   * @throws {IllegalActionError} `wrong-phase` in phase `deal`, `match-over` in phase `over`
   */
  perft(depth, unit = "decisions") {
    return call(() => gameOf(this).perft(depth, unit));
  }

  /**
   * Divide (PERFT-4): for each decision of the acting seat, by its key (`QS`, `2C+7D+QS`,
   * `add-to-others`), the sequences `perft` counts that begin with it, in the decisions' order.
   * @param {number} depth 1 to `LIMITS.perft_depth`
   * @param {"decisions" | "tricks"} [unit] `"decisions"` by default
   * @returns {Record<string, number | bigint>}
   * @throws {InvalidInputError} `invalid-setup` for a bad depth or unit
   * @throws {IllegalActionError} `wrong-phase` in phase `deal`, `match-over` in phase `over`
   */
  divide(depth, unit = "decisions") {
    return call(() => gameOf(this).divide(depth, unit));
  }

  /**
   * What `seat` may know, and nothing else (OBS-1).
   * @param {number} seat
   * @returns {object}
   * @throws {InvalidInputError} `invalid-action` for a seat not at the table
   */
  observation(seat) {
    return call(() => gameOf(this).observation(seat));
  }

  /**
   * The OBS-3 encoding (version 3) of `seat`'s observation: 1435 integers (spec/records.md).
   * @param {number} seat
   * @returns {Int32Array}
   * @throws {InvalidInputError} `invalid-action` for a seat not at the table
   */
  observationTensor(seat) {
    return call(() => gameOf(this).observationTensor(seat));
  }

  /**
   * The position as JSON data (API-9): equal before and after a rejected action.
   * @returns {object}
   */
  state() {
    return gameOf(this).state();
  }

  /**
   * The game's record (REC-1).
   * @returns {object}
   */
  toRecord() {
    return gameOf(this).toRecord();
  }

  /**
   * An independent copy, undo history included, of this game's class.
   * @returns {this}
   */
  copy() {
    return wrapGame(this.constructor, gameOf(this).copy());
  }

  /**
   * Whether `other` is a game in the same position (equal `state()`, API-3).
   * @param {unknown} other
   * @returns {boolean}
   */
  equals(other) {
    return other instanceof Game && other[INNER] !== null && gameOf(this).equals(other[INNER]);
  }

  /**
   * Releases the game's WebAssembly memory now; the game cannot be used afterwards. Safe to
   * call twice.
   */
  free() {
    const inner = this[INNER];
    this[INNER] = null;
    if (inner !== null) inner.free();
  }
}

if (typeof Symbol.dispose === "symbol") {
  // `using game = new Game(...)` frees it at the end of the block.
  Game.prototype[Symbol.dispose] = Game.prototype.free;
}

// ---------------------------------------------------------------------------------------------
// Records, seeds, batches (API-4, API-5)

/**
 * Encodes a record (REC-1) as JSON or MessagePack bytes (REC-3).
 * @param {object} record
 * @param {"json"|"msgpack"} [format]
 * @returns {Uint8Array}
 * @throws {InvalidInputError} `invalid-record`, also for any other format (null included)
 */
export function dumpRecord(record, format = "json") {
  return call(() => wasm.dumpRecord(record, format));
}

/**
 * Decodes a record from its bytes: JSON if the first byte is `{`, else MessagePack (API-4).
 * @param {Uint8Array|ArrayBuffer} bytes
 * @returns {object}
 * @throws {InvalidInputError} `invalid-record`
 */
export function loadRecord(bytes) {
  let data = bytes;
  if (data instanceof ArrayBuffer) data = new Uint8Array(data);
  if (!(data instanceof Uint8Array)) {
    throw new InvalidInputError("invalid-record", `a record's bytes are a Uint8Array, not ${shown(bytes)}`);
  }
  return call(() => wasm.loadRecord(data));
}

/**
 * The first `deals` deals of a game seeded with `seed` from hand `handNumber` (SEED-5): each a
 * list of hands, seat 0 first.
 * @param {Ruleset} ruleset
 * @param {number|bigint} seed
 * @param {number} [deals] 0 … 10 000
 * @param {number|bigint} [handNumber]
 * @returns {string[][][]}
 * @throws {InvalidInputError} `invalid-setup`
 */
export function dealFromSeed(ruleset, seed, deals = 1, handNumber = 0) {
  const rules = rulesetArg(ruleset, "dealFromSeed");
  return call(() => wasm.dealFromSeed(rules, seed, deals, handNumber));
}

/**
 * The first `count` draws of SEED-1's generator from `seed`, each a BigInt of 64 bits.
 * @param {number|bigint} seed
 * @param {number} count 0 … 1 000 000
 * @returns {bigint[]}
 * @throws {InvalidInputError} `invalid-setup`
 */
export function seedDraws(seed, count) {
  return Array.from(call(() => wasm.seedDraws(seed, count)));
}

/**
 * Plays `hands` independent hands in the core, every seat playing uniformly at random, and
 * returns their scores: `hands × players` values, row-major (hand 0's seats first).
 * @param {Ruleset} ruleset
 * @param {number} hands 0 … 1 000 000
 * @param {number|bigint} seed
 * @returns {Int32Array}
 * @throws {InvalidInputError} `invalid-setup`
 */
export function simulate(ruleset, hands, seed) {
  const rules = rulesetArg(ruleset, "simulate");
  return call(() => wasm.simulateScores(rules, hands, seed));
}

/**
 * `samples` layouts of the hidden cards, drawn exactly uniformly among those consistent with
 * what the observer of `observation` (OBS-1) knows; each a sorted hand per seat.
 * @param {Ruleset} ruleset
 * @param {object} observation
 * @param {number} samples 0 … 100 000
 * @param {number|bigint} seed
 * @returns {string[][][]}
 * @throws {InvalidInputError}
 */
export function sampleHidden(ruleset, observation, samples, seed) {
  const rules = rulesetArg(ruleset, "sampleHidden");
  return call(() => wasm.sampleHidden(rules, observation, samples, seed));
}

/**
 * The number of layouts of the hidden cards consistent with what the observer knows.
 * @param {Ruleset} ruleset
 * @param {object} observation
 * @returns {bigint}
 * @throws {InvalidInputError}
 */
export function countLayouts(ruleset, observation) {
  const rules = rulesetArg(ruleset, "countLayouts");
  return call(() => wasm.countLayouts(rules, observation));
}

// ---------------------------------------------------------------------------------------------
// Computer players (python/reversis/players/)

const MASK64 = (1n << 64n) - 1n;

/** A seed of 64 bits from the platform's entropy, for a player given none. */
function freshSeed() {
  const words = new BigUint64Array(1);
  globalThis.crypto.getRandomValues(words);
  return words[0];
}

/**
 * SEED-1's generator (SplitMix64), the core's, from `seed`: a function giving the next 64-bit
 * draw as a BigInt, the draws `seedDraws(seed, n)` lists.
 * @param {number|bigint} seed an integer from 0 to 2**64-1
 * @returns {() => bigint}
 * @throws {InvalidInputError} `invalid-setup` for a seed that is not one
 */
export function seededGenerator(seed) {
  // The core checks the seed (the step it takes for that is dropped): the draws start at it.
  call(() => wasm.splitMix64Step(seed));
  let state = BigInt(seed);
  return () => {
    const [next, draw] = wasm.splitMix64Step(state);
    state = next;
    return draw;
  };
}

/**
 * The OBS-3 encoding of `observation`, the OBS-1 observation (as `game.observation(seat)` gives
 * it) of a seat at a table of `players`, by the core's encoder: 1435 integers. It reads the
 * observation only, so it reveals nothing the observation hides (OBS-2).
 * @param {object} observation
 * @param {number} players
 * @returns {Int32Array}
 * @throws {InvalidInputError} `invalid-action` naming the key of a malformed observation
 */
export function encodeObservation(observation, players) {
  return call(() => wasm.encodeObservation(observation, players));
}

/** The blocks of the OBS-3 encoding, in order: `[name, offset, length]`. */
export const ENCODING_LAYOUT = Object.freeze(Array.from(wasm.encodingLayout(), (block) => Object.freeze(block)));

/** A player's seed: a 64-bit integer (number or BigInt), or `invalid-setup`. */
function playerSeed(seed, name) {
  const integral = typeof seed === "bigint" || (typeof seed === "number" && Number.isSafeInteger(seed));
  if (!integral || BigInt(seed) < 0n || BigInt(seed) > MASK64) {
    throw new InvalidInputError("invalid-setup", `the ${name} player's seed must be an integer from 0 to 2**64-1, not ${shown(seed)}`);
  }
  return BigInt(seed);
}

/** The bytes of a weight file given as option `what`, or `invalid-setup` naming it. */
function weightsArg(value, what) {
  if (!(value instanceof Uint8Array)) {
    throw new InvalidInputError(
      "invalid-setup",
      `${what} are the bytes of a .rvnn weight file as a Uint8Array, not ${shown(value)}`,
    );
  }
  return value;
}

/** A count option: an integer of at least 1, or `invalid-setup` naming it. */
function positiveInteger(value, what) {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new InvalidInputError("invalid-setup", `${what} must be an integer of at least 1, not ${shown(value)}`);
  }
  return value;
}

/** The Monte Carlo player's playouts per legal card when `rollouts` is not given. */
const DEFAULT_ROLLOUTS = 200;
/** The search player's playouts per decision when neither `playouts` nor `timeMs` is given. */
const DEFAULT_PLAYOUTS = 4000;

/**
 * The computer player `name`, deciding from one seat's observation and the public ruleset only
 * (001 ¶9): never the game, the other hands or the deal's seed.
 *
 * - `"random"`: a uniformly random legal action. Options: `seed`.
 * - `"rules"`: the rule-based player; without a seed exact ties go to the lowest card, with one
 *   they are drawn. Options: `seed`.
 * - `"montecarlo"`: plays the card with the best mean over `rollouts` random layouts of the hidden
 *   cards per legal card (200 by default); passes and moon choices are the rule-based player's.
 *   Options: `rollouts`, `seed`.
 * - `"search"`: the search player of python/reversis/players/search.py, bounded by `playouts`
 *   and/or `timeMs` per decision (4000 playouts when neither is given; a pass gets four times as
 *   much). Options: `playouts`, `timeMs`, `seed`, `objective` (`"points"`, the default: the
 *   fewest points each hand; `"match"`: the greatest chance of winning the match from the totals),
 *   `shoot` (false: never tries the moon), `defend` (true: where another seat has captured every
 *   point card so far, half of a card's layouts have it go for the moon in the playouts, which the
 *   rule-based player never does), `weighPasses` (true: a card's layouts are also weighed by the
 *   pass the searcher received, by how much of it the rule-based player would have passed from the
 *   passer's hand in each), `rolloutWeights` (the bytes of a `.rvnn` network, as
 *   `weights` below, that plays the playouts' cards instead of the rule-based player, read once,
 *   here), `rolloutSeats` (whose cards that network plays: `"every"` seat's, the default, or the
 *   `"searcher"`'s own later cards alone, the others the rule-based player's), `leafWeights` (the
 *   bytes of a network with a value, LRN-7: each card's playouts end at the searcher's next
 *   decision, scored by that value; objective `"points"`, one pack).
 *
 * - `"learned"`: the learned player of python/reversis/players/learned.py, a network of the
 *   `.rvnn` weight format (spec/learned.md) scoring the 106 action ids from the seat's OBS-3
 *   encoding ({@link encodeObservation}); it takes the legal id scored highest, the lowest among
 *   equals. A pass is chosen one card at a time, the network run once per card with the cards
 *   chosen so far in the observation's `selected`; a moon choice is the better scored of ids 104
 *   and 105. `weights` (required) is the bytes of the weight file as a `Uint8Array`, e.g. the
 *   network the Python package ships, python/reversis/players/learned-hearts-computer.rvnn (2.0 MB,
 *   trained on `hearts-computer`); they are read once, here. Deterministic: `seed` is
 *   accepted and unused. Options: `weights`, `seed`.
 *   A {@link LearnedPlayer}: it also gives its network's value of an observation.
 *
 * Each decision draws its seed from a generator seeded with `seed` (fresh entropy without one),
 * so repeated decisions differ while a seeded player replays exactly (the search player given
 * `timeMs` excepted: how far it gets depends on the clock).
 *
 * @param {"random"|"rules"|"montecarlo"|"search"|"learned"} name
 * @param {{seed?: number|bigint, rollouts?: number, playouts?: number, timeMs?: number, objective?: "points"|"match", shoot?: boolean, defend?: boolean, weighPasses?: boolean, weights?: Uint8Array, rolloutWeights?: Uint8Array, rolloutSeats?: "every"|"searcher", leafWeights?: Uint8Array}} [options]
 * @returns {Player}
 * @throws {InvalidInputError} `invalid-setup` for an unknown name or option, or a bad value
 *   (for `"learned"`: missing weights, or bytes that are not a valid weight file, naming the problem;
 *   for `"search"`: `rolloutSeats` without `rolloutWeights`, `leafWeights` of a network without a value
 *   or with `defend`)
 */
export function createPlayer(name, options = {}) {
  const allowed = {
    random: ["seed"],
    rules: ["seed"],
    montecarlo: ["rollouts", "seed"],
    search: ["playouts", "timeMs", "seed", "objective", "shoot", "defend", "weighPasses", "rolloutWeights", "rolloutSeats", "leafWeights"],
    learned: ["weights", "seed"],
  };
  if (typeof name !== "string" || !Object.hasOwn(allowed, name)) {
    throw new InvalidInputError(
      "invalid-setup",
      `no player named ${shown(name)}; the players are ${Object.keys(allowed).join(", ")}`,
    );
  }
  checkOptions(options, allowed[name], `the ${name} player`);
  const seeded = options.seed !== undefined && options.seed !== null;
  const nextSeed = seededGenerator(seeded ? playerSeed(options.seed, name) : freshSeed());
  switch (name) {
    case "random":
      return new Player(name, (observation, ruleset) => randomAction(observation, ruleset, nextSeed));
    case "rules":
      // Unseeded, the rule-based player is a pure function of its observation, as in Python.
      return new Player(name, (observation, ruleset) =>
        rulesAction(observation, ruleset, seeded ? nextSeed() : null),
      );
    case "montecarlo": {
      const rollouts = options.rollouts === undefined ? DEFAULT_ROLLOUTS : positiveInteger(options.rollouts, "rollouts");
      return new Player(name, (observation, ruleset) => {
        if (observation.phase !== "play") return rulesAction(observation, ruleset, seeded ? nextSeed() : null);
        const seed = nextSeed();
        const legal = observation.legal;
        if (legal.length === 1) return { type: "play", seat: observation.seat, card: legal[0] };
        const card = call(() => wasm.monteCarloPlay(ruleset[INNER], observation, rollouts, seed));
        return { type: "play", seat: observation.seat, card };
      });
    }
    case "search": {
      let playouts = options.playouts === undefined ? null : positiveInteger(options.playouts, "playouts");
      const timeMs = options.timeMs === undefined ? null : options.timeMs;
      if (timeMs !== null && !(typeof timeMs === "number" && timeMs > 0 && Number.isFinite(timeMs))) {
        throw new InvalidInputError("invalid-setup", `timeMs must be a number above 0, not ${shown(timeMs)}`);
      }
      if (playouts === null && timeMs === null) playouts = DEFAULT_PLAYOUTS;
      const objective = options.objective === undefined ? "points" : options.objective;
      if (objective !== "points" && objective !== "match") {
        throw new InvalidInputError("invalid-setup", `objective must be "points" or "match", not ${shown(objective)}`);
      }
      const style = call(() => new wasm.SearchStyle(objective, options.shoot, options.defend, options.weighPasses));
      // A network plays the playouts' cards; without one the rule-based policy does.
      const rolloutWeights = options.rolloutWeights;
      const rolloutSeats = options.rolloutSeats;
      if (rolloutWeights !== undefined) {
        const network = call(() => new wasm.LearnedNetwork(weightsArg(rolloutWeights, "rolloutWeights")));
        call(() => style.rolloutsBy(network, rolloutSeats));
      } else if (rolloutSeats !== undefined) {
        throw new InvalidInputError(
          "invalid-setup",
          "rolloutSeats says whose cards the network of rolloutWeights plays; without rolloutWeights the rule-based player plays them all",
        );
      }
      if (options.leafWeights !== undefined) {
        const network = call(() => new wasm.LearnedNetwork(weightsArg(options.leafWeights, "leafWeights")));
        call(() => style.leavesBy(network));
      }
      return new Player(name, (observation, ruleset) => {
        const seed = nextSeed();
        if (observation.phase === "play" && observation.legal.length === 1) {
          return { type: "play", seat: observation.seat, card: observation.legal[0] };
        }
        const ids = call(() => wasm.searchPlay(ruleset[INNER], observation, seed, playouts, timeMs, style));
        return actionFromIds(Array.from(ids), observation.seat);
      });
    }
    case "learned": {
      const weights = options.weights;
      if (!(weights instanceof Uint8Array)) {
        throw new InvalidInputError(
          "invalid-setup",
          weights === undefined
            ? "the learned player needs its network: weights, the bytes of a .rvnn weight file as a Uint8Array"
            : `the learned player's weights are the bytes of a .rvnn weight file as a Uint8Array, not ${shown(weights)}`,
        );
      }
      return new LearnedPlayer(call(() => new wasm.LearnedNetwork(weights)));
    }
  }
}

/**
 * Reviews the decision the observing seat of `observation` (OBS-1) has to make, from the
 * observation alone: what the search player would choose and what each candidate is expected
 * to score.
 *
 * `choice` is the ACT-1 action of the search player's `searchPlay` with `playouts` and the
 * decision seed `seed` (what a search player bounded by `playouts` plays when it draws that
 * seed). Each estimate is a candidate with `points`, the seat's expected points for the hand
 * (what the hand adds to its total, the moon rule included; lower is better), and `margin`,
 * its expected points minus the other seats' mean. The candidates: in phase `play` every legal
 * card; in phase `pass` the search's pass, then `action` (the seat's own pass) where given and
 * different; in phase `moon` both choices, scored exactly. Cards and passes are played in the
 * same `layouts` layouts of the hidden cards, drawn as the search draws them (and the hand
 * finished by the search's playout policy), so that the estimates compare; a card is measured
 * on `playouts / (distinct legal cards)` layouts, a pass on `4 × playouts / candidates`.
 *
 * @param {Ruleset} ruleset
 * @param {object} observation
 * @param {{seed?: number|bigint, playouts?: number, action?: object|null}} [options]
 *   `seed` 0 … 2^64 − 1 (0 by default); `playouts` (4000 by default); `action` an ACT-1 action of
 *   the observing seat, or null
 * @returns {{choice: object, estimates: {action: object, points: number, margin: number}[], layouts: number}}
 * @throws {InvalidInputError} `invalid-action` for an observation with no decision to make or
 *   an action the seat may not make; `invalid-setup` for a bad option
 */
export function evaluateDecision(ruleset, observation, options = {}) {
  const rules = rulesetArg(ruleset, "evaluateDecision");
  checkOptions(options, ["seed", "playouts", "action"], "evaluateDecision");
  const { seed = 0, playouts = DEFAULT_PLAYOUTS, action = null } = options;
  return call(() => wasm.evaluateDecision(rules, observation, seed, positiveInteger(playouts, "playouts"), action));
}

/** The first action id of a pass (ACT-2): a passed card's id is this plus its card id. */
const PASS_BASE = 52;
/** The moon choices by their action id (ACT-2). */
const MOON_CHOICES = new Map([
  [104, "add-to-others"],
  [105, "subtract-from-taker"],
]);

/**
 * The learned player's action, as python/reversis/players/learned.py's `LearnedPlayer.act`
 * decides it: the best scored legal id, a pass one card at a time.
 */
function learnedAction(network, observation, ruleset) {
  const seat = observation.seat;
  const players = ruleset.players;
  // The legal ids `byId` maps to what they stand for: the network's choice among them.
  const decide = (seen, byId) => byId.get(call(() => network.decide(seen, players, Uint16Array.from(byId.keys()))));
  if (observation.phase === "play") {
    return { type: "play", seat, card: decide(observation, new Map(observation.legal.map((c) => [cardId(c), c]))) };
  }
  if (observation.phase === "moon") return { type: "moon", seat, choice: decide(observation, MOON_CHOICES) };
  if (observation.phase !== "pass") {
    throw new IllegalActionError("wrong-phase", `no decision for seat ${seat} in phase ${JSON.stringify(observation.phase)}`);
  }
  const count = (cards) => cards.reduce((counts, c) => counts.set(c, (counts.get(c) ?? 0) + 1), new Map());
  const held = count(observation.hand);
  const selected = [...(observation.selected ?? [])];
  while (selected.length < ruleset.passing.size) {
    // The seat's observation as the vector environment shows it at this selection (ACT-2): a
    // card held twice (two packs) stays legal until both copies are chosen.
    const chosen = count(selected);
    const legal = new Map();
    for (const [c, n] of held) if (n > (chosen.get(c) ?? 0)) legal.set(PASS_BASE + cardId(c), c);
    selected.push(decide({ ...observation, selected: [...selected] }, legal));
  }
  return { type: "pass", seat, cards: selected };
}

/** A uniformly random legal action of the observing seat. */
function randomAction(observation, ruleset, nextSeed) {
  const below = (n) => Number(nextSeed() % BigInt(n));
  const seat = observation.seat;
  if (observation.phase === "pass") {
    const hand = [...observation.hand];
    const cards = [];
    for (let i = 0; i < ruleset.passing.size; i++) cards.push(hand.splice(below(hand.length), 1)[0]);
    return { type: "pass", seat, cards };
  }
  if (observation.phase === "moon") {
    return { type: "moon", seat, choice: below(2) ? "subtract-from-taker" : "add-to-others" };
  }
  const legal = observation.legal;
  if (observation.phase !== "play" || legal.length === 0) {
    throw new IllegalActionError("wrong-phase", `no decision for seat ${seat} in phase ${JSON.stringify(observation.phase)}`);
  }
  return { type: "play", seat, card: legal[below(legal.length)] };
}

/** The rule-based player's action; `seed` null for ties to the lowest card. */
function rulesAction(observation, ruleset, seed) {
  const ids = call(() => wasm.rulesPlay(ruleset[INNER], observation, seed));
  return actionFromIds(Array.from(ids), observation.seat);
}

/** A computer player: from an observation to an ACT-1 action of the observing seat. */
export class Player {
  /** @private */
  constructor(name, decide) {
    /** The player's name, as given to {@link createPlayer}. @type {string} */
    this.name = name;
    this.#decide = decide;
    Object.freeze(this);
  }

  #decide;

  /**
   * The observing seat's action (its pass, play or moon choice) from its observation (OBS-1)
   * and the public ruleset.
   * @param {object} observation
   * @param {Ruleset} ruleset
   * @returns {object} an ACT-1 action
   * @throws {InvalidInputError} for an observation that is not one of this ruleset
   */
  act(observation, ruleset) {
    observed(observation, ruleset, `the ${this.name} player`);
    return this.#decide(observation, ruleset);
  }
}

/** Checks a player's arguments: a Ruleset, and an object that looks like an observation. */
function observed(observation, ruleset, who) {
  rulesetArg(ruleset, who);
  if (observation === null || typeof observation !== "object" || typeof observation.phase !== "string") {
    throw new InvalidInputError("invalid-action", `an observation is an object of OBS-1, not ${shown(observation)}`);
  }
}

/**
 * The learned player ({@link createPlayer} `"learned"`), which also gives its network's value,
 * as python/reversis/players/learned.py's `LearnedPlayer.value`.
 */
export class LearnedPlayer extends Player {
  /** @private */
  constructor(network) {
    super("learned", (observation, ruleset) => learnedAction(network, observation, ruleset));
    this.#network = network;
  }

  #network;

  /**
   * The network's estimate of the observing seat's points for the hand (LRN-7), from its
   * observation (OBS-1) and the public ruleset; null for a network without a value (format
   * version 1). The network shipped with the Python package has one; its play does not read it.
   * @param {object} observation
   * @param {Ruleset} ruleset
   * @returns {number|null}
   * @throws {InvalidInputError} for an observation that is not one of this ruleset
   */
  value(observation, ruleset) {
    observed(observation, ruleset, "the learned player");
    return call(() => this.#network.value(observation, ruleset.players)) ?? null;
  }
}

/**
 * Asks the player of the acting seat (`game.toAct`, ACT-3: in phase pass the lowest seat still
 * to pass, in phases play and moon the seat to move) and applies its action to `game`. The
 * player sees that seat's observation and the ruleset only.
 * @param {Game} game
 * @param {Player[]} players one per seat
 * @returns {object} the action applied
 * @throws {IllegalActionError} `wrong-phase` in phases deal and over, where no seat acts
 */
export function actFor(game, players) {
  const seat = game.toAct;
  if (seat === null) throw new IllegalActionError("wrong-phase", `no seat acts in phase ${JSON.stringify(game.phase)}`);
  const action = players[seat].act(game.observation(seat), game.ruleset);
  game.apply(action);
  return action;
}
