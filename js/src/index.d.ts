// Type declarations of the reversis package (src/index.js); spec/api.md, "The JavaScript API".

/** A card in canonical form (CARD-3): rank `23456789TJQKA` then suit `CDHS`, e.g. `"QS"`. */
export type Card = string;
/** A seat, 0 … players − 1. */
export type Seat = number;
/** An integer that may exceed 2^53: a BigInt beyond `Number.MAX_SAFE_INTEGER`. */
export type Int64 = number | bigint;
export type Phase = "deal" | "pass" | "play" | "moon" | "over";
export type PassDirection = "left" | "right" | "across" | "hold";
export type MoonChoice = "add-to-others" | "subtract-from-taker";

/** The actions of ACT-1. */
export type DealAction = { type: "deal"; hands: Card[][] };
export type PassAction = { type: "pass"; seat: Seat; cards: Card[] };
export type PlayAction = { type: "play"; seat: Seat; card: Card };
export type MoonAction = { type: "moon"; seat: Seat; choice: MoonChoice };
export type Action = DealAction | PassAction | PlayAction | MoonAction;

/** One card of a trick (TRICK-1). */
export interface TrickPlay {
  seat: Seat;
  card: Card;
}
/** A completed trick (TRICK-1). */
export interface Trick {
  leader: Seat;
  cards: TrickPlay[];
  winner: Seat;
  points: number;
}

/** An event of EVT-1: what an accepted action set off. */
export interface GameEvent {
  type: string;
  [key: string]: unknown;
}
/** The most recently scored hand (EVT-2). */
export interface HandSummary {
  hand_number: Int64;
  points: number[];
  scores: number[];
  moon_taker: Seat | null;
  moon_choice: MoonChoice | null;
  tricks: Trick[];
}

/** What one seat may know (OBS-1). */
export interface Observation {
  seat: Seat;
  phase: Phase;
  hand_number: Int64;
  dealer: Seat;
  pass_direction: PassDirection | null;
  hand: Card[];
  legal: Card[];
  selected: Card[];
  passed: Card[] | null;
  received: Card[] | null;
  awaiting_pass: Seat[];
  to_move: Seat | null;
  moon_taker: Seat | null;
  trick: TrickPlay[];
  tricks: Trick[];
  hearts_broken: boolean;
  count_down: boolean;
  voids: string[][];
  points: number[];
  scores: Int64[];
  [key: string]: unknown;
}

/** A game record (REC-1). */
export interface GameRecord {
  format: string;
  version: string;
  ruleset: RulesetJson;
  seed: Int64 | null;
  start: { hand_number: Int64; scores: Int64[] };
  actions: Action[];
}

/** The ruleset object of spec/ruleset.md. */
export interface RulesetJson {
  name: string;
  title?: string;
  sources?: string[];
  spec_version?: string;
  players: number;
  deck: { lowest_rank: string; removed: Card[]; packs?: 1 | 2 };
  passing: { cycle: PassDirection[]; size: number } | null;
  opening_card: Card | null;
  first_trick_ban: boolean;
  hearts_breaking: string;
  card_points: Record<Card, number>;
  moon: { scoring: string; bonus: number } | null;
  target: Int64;
  count_down?: boolean;
  cancellation?: { last_trick: "leader" | "later-highest" } | null;
}

/** The fields of Ruleset.replace (API-2), camelCase. */
export interface RulesetFields {
  name?: string;
  title?: string | null;
  sources?: string[] | null;
  specVersion?: string | null;
  players?: number;
  deck?: { lowest_rank: string; removed: Card[]; packs?: 1 | 2 };
  passing?: { cycle: PassDirection[]; size: number } | null;
  openingCard?: Card | null;
  firstTrickBan?: boolean;
  heartsBreaking?: string;
  /** Merged into the table; a value of 0 takes the card out. */
  cardPoints?: Record<Card, number>;
  moon?: { scoring: string; bonus: number } | null;
  target?: Int64;
  countDown?: boolean | null;
  cancellation?: { last_trick: "leader" | "later-highest" } | null;
  lowestRank?: string;
  removed?: Card[];
  passCycle?: PassDirection[];
  passSize?: number;
  moonScoring?: string;
  moonBonus?: number;
}

/** The code of an error of spec/errors.md. */
export type ErrorCode =
  | "invalid-card"
  | "invalid-action"
  | "invalid-ruleset"
  | "unknown-preset"
  | "invalid-deal"
  | "invalid-record"
  | "no-seed"
  | "invalid-setup"
  | "match-over"
  | "wrong-phase"
  | "moon-choice-pending"
  | "not-moon-taker"
  | "wrong-seat"
  | "already-passed"
  | "wrong-pass-size"
  | "duplicate-card"
  | "card-not-held"
  | "must-lead-opening-card"
  | "must-follow-suit"
  | "points-on-first-trick"
  | "hearts-not-broken"
  | "nothing-to-undo";

/** Base of every reversis error (ERR-5). */
export class ReversisError extends Error {
  constructor(code: ErrorCode, message: string);
  readonly code: ErrorCode;
}
/** Malformed or impossible input (ERR-2). */
export class InvalidInputError extends ReversisError {}
/** A well-formed action the rules forbid now (ERR-3). */
export class IllegalActionError extends ReversisError {}
/** Every error code, in the order of spec/errors.md's tables. */
export const ERROR_CODES: readonly ErrorCode[];
/** The typed error for a value thrown by the WebAssembly module; anything else unchanged. */
export function convertError(error: unknown): unknown;

export const SPEC_VERSION: string;
export const VERSION: string;
/** 106: ids 0–51 play a card, 52–103 select a card toward a pass, 104 and 105 the moon choices. */
export const NUM_ACTIONS: number;
/** The input limits of ERR-6 by name: the core's one table. */
export const LIMITS: Readonly<Record<string, number>>;
/** The fields of a ruleset object (spec/ruleset.md). */
export const RULESET_FIELDS: readonly string[];
/** The fields a ruleset object may leave out (RS-19). */
export const RULESET_OPTIONAL_FIELDS: readonly string[];
/** One entry of RULESET_FIELD_TABLE: a ruleset field as the schema declares it. */
export interface RulesetFieldSpec {
  /** Its key in a ruleset object. */
  readonly name: string;
  /** The clause of spec/ruleset.md that states it, `RS-n`. */
  readonly clause: string;
  /** Its JSON type: `boolean`, `string`, `integer`, `array`, `object`, or `null|object`, …. */
  readonly type: string;
  /** `boolean`, `enum`, `integer` (read from the table alone), or `other`. */
  readonly kind: "boolean" | "enum" | "integer" | "other";
  /** An enumeration's values, else null. */
  readonly values: readonly string[] | null;
  /** An integer's bounds, else null. */
  readonly minimum: number | bigint | null;
  readonly maximum: number | bigint | null;
  /** Whether a ruleset may leave it out (RS-19). */
  readonly optional: boolean;
  /** Whether it may be null. */
  readonly nullable: boolean;
  /** The value its absence means (null where none is stated). */
  readonly default: unknown;
}
/** The table of the ruleset fields (the core's, generated from the schema), in field order. */
export const RULESET_FIELD_TABLE: readonly RulesetFieldSpec[];

export function parseCard(text: string): Card;
export function cardId(card: Card): number;
export function actionIds(action: Action): number[];
export function actionFromIds(ids: number[], seat: Seat): Action;
export function actionLabel(actionId: number): string;

/** JSON text to data, integers exact (BigInt beyond 2^53); a whole float such as `4.0` as a Number object. */
export function parseJson(text: string): any;
/** JSON data to text, BigInts as exact integers. */
export function stringifyJson(value: unknown): string;

/** An immutable, validated ruleset (API-2). */
export class Ruleset {
  private constructor();
  static fromJson(data: RulesetJson | Record<string, unknown> | string): Ruleset;
  toJson(): RulesetJson;
  replace(fields: RulesetFields): Ruleset;
  readonly name: string;
  readonly title: string | null;
  readonly sources: string[] | null;
  readonly players: number;
  readonly passing: { cycle: PassDirection[]; size: number } | null;
  readonly openingCard: Card | null;
  readonly firstTrickBan: boolean;
  readonly heartsBreaking: string;
  readonly cardPoints: Record<Card, number>;
  readonly moon: { scoring: string; bonus: number } | null;
  /** The target, null where only `deals` ends the match (RS-26). */
  readonly target: Int64 | null;
  readonly countDown: boolean;
  /** The cards of the deck, sorted; with two packs a card of two copies twice (RS-21). */
  readonly deck: Card[];
  /** Cancellation Hearts (RS-22): `{last_trick}`, or null. */
  readonly cancellation: { last_trick: "leader" | "later-highest" } | null;
  readonly handSize: number;
  readonly pointCards: Card[];
  equals(other: unknown): boolean;
  /** Any other field of RULESET_FIELDS, camelCase (a field of RULESET_FIELD_TABLE of kind
   * boolean, enum or integer, read from the table alone, or an optional object): its value in
   * toJson(), or its default where left out. */
  readonly [field: string]: unknown;
}

export function preset(name: string): Ruleset;
export function presetNames(): string[];

export interface GameOptions {
  /** 0 … 2^64 − 1, or null (the default) for an unseeded game that waits in phase deal. */
  seed?: Int64 | null;
  /** The first hand's number; 0 by default. */
  handNumber?: Int64;
  /** The starting totals, one per seat; null (the default) for zeros. */
  scores?: Int64[] | null;
}

/** A match under one ruleset (API-3). */
export class Game {
  constructor(ruleset: Ruleset, options?: GameOptions);
  static fromRecord<T extends Game>(this: new (...args: any[]) => T, record: GameRecord | Record<string, unknown>): T;
  readonly ruleset: Ruleset;
  readonly seed: Int64 | null;
  readonly phase: Phase;
  readonly handNumber: Int64;
  readonly dealer: Seat;
  readonly passDirection: PassDirection | null;
  readonly toMove: Seat | null;
  readonly toAct: Seat | null;
  readonly awaitingPass: Seat[];
  readonly trick: TrickPlay[];
  readonly tricksPlayed: Trick[];
  readonly heartsBroken: boolean;
  readonly countDown: boolean;
  readonly points: number[];
  readonly scores: Int64[];
  readonly handScores: number[][];
  readonly moonTaker: Seat | null;
  readonly winners: Seat[];
  /** A fresh array each read. */
  readonly actions: Action[];
  readonly actionCount: number;
  readonly events: GameEvent[];
  readonly lastHand: HandSummary | null;
  /** Who passes to whom this hand (PASS-1, PASS-3); null where the hand has no pass. */
  readonly passPlan: PassPlan | null;
  /** How the match ends and where it stands. */
  readonly standing: MatchStanding;
  /** Why the seat to move may not play `card` now, or null where it may. */
  breach(card: Card): Breach | null;
  hand(seat: Seat): Card[];
  selected(seat: Seat): Card[];
  legalPlays(): Card[];
  legalActions(seat?: Seat | null): number[];
  legalMask(seat?: Seat | null): bigint;
  apply(action: Action): void;
  applyAction(actionId: number, seat?: Seat | null): void;
  deal(hands?: Card[][] | null): void;
  passCards(cards: Card[], seat?: Seat | null): void;
  play(card: Card, seat?: Seat | null): void;
  chooseMoon(choice: MoonChoice, seat?: Seat | null): void;
  undo(): void;
  /** Perft (spec/perft.md): the legal sequences of `depth` decisions, or until `depth` more tricks are complete. */
  perft(depth: number, unit?: "decisions" | "tricks"): number | bigint;
  /** Divide (PERFT-4): by each decision's key, the sequences `perft` counts that begin with it. */
  divide(depth: number, unit?: "decisions" | "tricks"): Record<string, number | bigint>;
  observation(seat: Seat): Observation;
  /** OBS-3 (version 3) of the seat's observation: 1435 integers. */
  observationTensor(seat: Seat): Int32Array;
  /** The position (API-9). */
  state(): Record<string, unknown>;
  toRecord(): GameRecord;
  copy(): this;
  equals(other: unknown): boolean;
  free(): void;
}

export function dumpRecord(record: GameRecord | Record<string, unknown>, format?: "json" | "msgpack"): Uint8Array;
export function loadRecord(bytes: Uint8Array | ArrayBuffer): GameRecord;
export function dealFromSeed(ruleset: Ruleset, seed: Int64, deals?: number, handNumber?: Int64): Card[][][];
export function seedDraws(seed: Int64, count: number): bigint[];
/** SEED-1's generator (the core's SplitMix64) from `seed`: each call gives the next draw. */
export function seededGenerator(seed: Int64): () => bigint;
/** OBS-3 (version 3) of a seat's observation at a table of `players`, by the core's encoder. */
export function encodeObservation(observation: Observation, players: number): Int32Array;
/** The blocks of the OBS-3 encoding, in order: name, offset, length. */
export const ENCODING_LAYOUT: readonly (readonly [string, number, number])[];

/** Who passes to whom in one hand: seat `s` passes `size` cards to `to[s]` and receives from `from[s]`. */
export interface PassPlan {
  direction: "left" | "right" | "across";
  size: number;
  to: number[];
  from: number[];
}
/** One way a match ends, named by `kind`. */
export type MatchEnd =
  | { kind: "target"; target: number }
  | {
      kind: "count-down";
      target: number;
      count_down_end: "stop-at-zero";
      /** Whether the coming or current hand is a count-down hand (MATCH-5). */
      counting: boolean;
      /** The seats at or past the target when the count-down started. */
      reached: number[];
      /** The first count-down hand's number, or null before it started. */
      first_hand: number | null;
    };
/** How a match ends (it ends when any of `ends` does) and where it stands. */
export interface MatchStanding {
  ends: MatchEnd[];
  totals: number[];
  over: boolean;
  /** The seats on the lowest total: the winners once the match is over (MATCH-3). */
  lowest: number[];
  winners: number[];
}
/** A card refused to the seat to move: the error code, the clause of game.md, the message. */
export interface Breach {
  code: string;
  rule: string;
  message: string;
}
/** `hands × players` scores, row-major. */
export function simulate(ruleset: Ruleset, hands: number, seed: Int64): Int32Array;
export function sampleHidden(ruleset: Ruleset, observation: Observation, samples: number, seed: Int64): Card[][][];
export function countLayouts(ruleset: Ruleset, observation: Observation): bigint;

export type PlayerName = "random" | "rules" | "montecarlo" | "search" | "learned";
export interface PlayerOptions {
  /** 0 … 2^64 − 1; without one each decision's seed comes from fresh entropy. */
  seed?: Int64 | null;
  /** montecarlo: playouts per legal card, 200 by default. */
  rollouts?: number;
  /** search: playouts per decision. */
  playouts?: number;
  /** search: milliseconds per decision. */
  timeMs?: number;
  /** search: what it plays for, the hand's points (the default) or the chance of winning the match. */
  objective?: "points" | "match";
  /** search: whether it also tries going for the moon once it has taken every point card so far (true by default). */
  shoot?: boolean;
  /** search: whether it defends against another seat's run at the moon in its playouts (false by default). */
  defend?: boolean;
  /** search: whether its layouts are also weighed by the pass it received (false by default). */
  weighPasses?: boolean;
  /** learned (required): the bytes of a `.rvnn` weight file (spec/learned.md). */
  weights?: Uint8Array;
  /** search: the bytes of a `.rvnn` network that plays the playouts' cards instead of the rule-based player. */
  rolloutWeights?: Uint8Array;
  /** search, with rolloutWeights: whose cards that network plays, every seat's (the default) or the searcher's own alone. */
  rolloutSeats?: "every" | "searcher";
  /** search: the bytes of a `.rvnn` network with a value (LRN-7) that ends each card's playouts at the searcher's next decision. */
  leafWeights?: Uint8Array;
}
/** A computer player deciding from an observation and the public ruleset only. */
export class Player {
  private constructor();
  readonly name: PlayerName;
  act(observation: Observation, ruleset: Ruleset): Action;
}
/** The learned player, which also gives its network's value of an observation. */
export class LearnedPlayer extends Player {
  private constructor();
  /** The network's estimate of the observing seat's points for the hand (LRN-7); null for a network without a value. */
  value(observation: Observation, ruleset: Ruleset): number | null;
}
export function createPlayer(name: "random" | "rules", options?: Pick<PlayerOptions, "seed">): Player;
export function createPlayer(name: "montecarlo", options?: Pick<PlayerOptions, "seed" | "rollouts">): Player;
export function createPlayer(name: "search", options?: Pick<PlayerOptions, "seed" | "playouts" | "timeMs" | "objective" | "shoot" | "defend" | "weighPasses" | "rolloutWeights" | "rolloutSeats" | "leafWeights">): Player;
export function createPlayer(name: "learned", options: Pick<PlayerOptions, "seed"> & { weights: Uint8Array }): LearnedPlayer;
export function actFor(game: Game, players: Player[]): Action;
/** A candidate of a reviewed decision and what it is expected to score. */
export interface Estimate {
  action: Action;
  /** The seat's expected points for the hand (what it adds to its total; lower is better). */
  points: number;
  /** The expected points minus the other seats' mean. */
  margin: number;
}
/** The review of one decision: the search player's choice beside every candidate's estimate. */
export interface Evaluation {
  /** What the search player with these playouts and this decision seed plays. */
  choice: Action;
  /** Every legal card (phase play); the search's pass, then the given one (pass); both moon
   *  choices, exact (moon). */
  estimates: Estimate[];
  /** The layouts of the hidden cards each estimate was measured on, the same for all (0 for a
   *  moon choice). */
  layouts: number;
}
/**
 * Reviews the decision the observing seat has to make, from its observation alone: the search
 * player's choice with `playouts` (4000 by default) and the decision seed `seed` (0 by default),
 * and each candidate's expected points, measured on the same layouts drawn as the search draws
 * them. `action`, where given, is the seat's own (for a pass, the one compared).
 */
export function evaluateDecision(
  ruleset: Ruleset,
  observation: Observation,
  options?: { seed?: Int64; playouts?: number; action?: Action | null },
): Evaluation;

