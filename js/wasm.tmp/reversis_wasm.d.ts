/* tslint:disable */
/* eslint-disable */

/**
 * A game of one ruleset: a match of hands, with its history (spec/api.md).
 */
export class Game {
    free(): void;
    [Symbol.dispose](): void;
    /**
     * Applies action id `actionId` for the acting seat: `applyAction` for an id the package has
     * already checked is an integer below `NUM_ACTIONS`, without converting a JavaScript value.
     */
    applyActionId(action_id: number): void;
    /**
     * Applies action id `actionId` (ACT-2) for `seat`, by default the acting seat (ACT-3).
     */
    applyAction(action_id: any, seat: any): void;
    /**
     * Applies an action of ACT-1, or throws and changes nothing.
     */
    apply(action: any): void;
    /**
     * Chooses how the moon scores for `seat`, by default the taker (SCORE-3).
     */
    chooseMoon(choice: any, seat: any): void;
    /**
     * An independent copy of this game, undo history included.
     */
    copy(): Game;
    /**
     * Deals `hands`; with `null`, a deal from the seed (`no-seed` in phase `deal`).
     */
    deal(hands: any): void;
    /**
     * Divide (PERFT-4): an object from each decision's key to the sequences `perft` counts that
     * begin with it, its keys in the order of the decisions.
     */
    divide(depth: any, unit: any): any;
    /**
     * Whether two games are in the same position (API-9).
     */
    equals(other: Game): boolean;
    /**
     * Rebuilds a game from its record by replaying it (REC-2).
     */
    static fromRecord(record: any): Game;
    /**
     * The cards `seat` holds, sorted.
     */
    hand(seat: any): any;
    /**
     * The legal action ids of `seat` (by default the acting seat), ascending (ACT-3).
     */
    legalActions(seat: any): Uint16Array;
    /**
     * The acting seat's legal action ids, ascending, written to the [`legal_ids_scratch`]
     * buffer; returns how many there are. The per-step loop's form of `legalActions`: no
     * allocation on either side of the boundary.
     */
    legalIdsToScratch(): number;
    /**
     * The legal action ids of `seat` as a `BigInt` bit mask: bit `i` for legal id `i`.
     */
    legalMask(seat: any): any;
    /**
     * The cards the seat to move may play, sorted (PLAY-8).
     */
    legalPlays(): any;
    /**
     * A new game (API-3): `seed` an integer or `null` (unseeded), `handNumber` and `scores`
     * `null` for their defaults.
     */
    constructor(ruleset: Ruleset, seed: any, hand_number: any, scores: any);
    /**
     * The OBS-3 encoding of `seat`'s observation (OBS-1) by the core's encoder: 1435 integers.
     */
    observationTensor(seat: any): Int32Array;
    /**
     * What `seat` may know, and nothing else (OBS-1).
     */
    observation(seat: any): any;
    /**
     * Submits the pass of `seat`, by default the acting seat (PASS-2).
     */
    passCards(cards: any, seat: any): void;
    /**
     * Perft (PERFT-2, PERFT-3): the legal sequences of `depth` decisions from the position,
     * or, with `unit` `"tricks"`, of decisions until `depth` more tricks are complete; a
     * `BigInt` beyond the safe integers.
     */
    perft(depth: any, unit: any): any;
    /**
     * Plays `card` for `seat`, by default the seat to move.
     */
    play(card: any, seat: any): void;
    /**
     * The cards `seat` has selected toward its pass, in the order selected (ACT-2).
     */
    selected(seat: any): any;
    /**
     * The position as JSON data (API-9).
     */
    state(): any;
    /**
     * The game record of REC-1.
     */
    toRecord(): any;
    /**
     * Takes back the last accepted action with everything it set off (API-8).
     */
    undo(): void;
    /**
     * The number of accepted actions.
     */
    readonly actionCount: number;
    /**
     * Every accepted action, in order (ACT-1 objects).
     */
    readonly actions: any;
    /**
     * The seats that have not passed yet, ascending.
     */
    readonly awaitingPass: any;
    /**
     * Whether the hand is a count-down hand (MATCH-5).
     */
    readonly countDown: boolean;
    /**
     * The dealer of the hand (DEAL-2).
     */
    readonly dealer: number;
    /**
     * The events of the last accepted action (EVT-1).
     */
    readonly events: any;
    /**
     * The number of the current (or coming) hand.
     */
    readonly handNumber: any;
    /**
     * Per scored hand, the scores added to the totals.
     */
    readonly handScores: any;
    /**
     * Whether hearts are broken (PLAY-6).
     */
    readonly heartsBroken: boolean;
    /**
     * The most recently scored hand (EVT-2), or `null`.
     */
    readonly lastHand: any;
    /**
     * The seat that took every point card, in phase `moon`; else `null`.
     */
    readonly moonTaker: number | undefined;
    /**
     * The hand's pass direction, or `null` where the ruleset has no passing.
     */
    readonly passDirection: string | undefined;
    /**
     * The phase as its index in [`PHASES`]: a per-step loop reads it every decision, and a
     * number crosses to JavaScript without the string decoding a name would cost.
     */
    readonly phaseIndex: number;
    /**
     * Per seat, the points captured in the hand so far (SCORE-1).
     */
    readonly points: any;
    /**
     * The game's ruleset.
     */
    readonly ruleset: Ruleset;
    /**
     * Per seat, the match totals (SCORE-4).
     */
    readonly scores: any;
    /**
     * The seed, or `null` for an unseeded game.
     */
    readonly seed: any;
    /**
     * The seat whose decision the game awaits (ACT-3), or `null`.
     */
    readonly toAct: number | undefined;
    /**
     * The seat to play, or `null`.
     */
    readonly toMove: number | undefined;
    /**
     * The trick in progress: `{seat, card}` in the order played.
     */
    readonly trick: any;
    /**
     * The hand's completed tricks, oldest first (TRICK-1).
     */
    readonly tricksPlayed: any;
    /**
     * The seats with the lowest total once the match is over (MATCH-3).
     */
    readonly winners: any;
}

/**
 * One variant of the Hearts family: an immutable, validated ruleset (API-2).
 */
export class Ruleset {
    private constructor();
    free(): void;
    [Symbol.dispose](): void;
    /**
     * Whether two rulesets are the same variant (their canonical objects are equal).
     */
    equals(other: Ruleset): boolean;
    /**
     * The value of the field `name` of `rulesetFields()` in the canonical object, or its
     * default where left out (RS-19); undefined for a name that is not a field. The JavaScript
     * `Ruleset` reads every field without a getter of its own through this.
     */
    field(name: string): any;
    /**
     * Builds a ruleset from its JSON object, or from JSON text (RS-13).
     */
    static fromJson(data: any): Ruleset;
    /**
     * A new, validated ruleset with the fields of the object `fields` changed (API-2).
     */
    replace(fields: any): Ruleset;
    /**
     * The ruleset as the canonical JSON object of spec/ruleset.md (RS-16).
     */
    toJson(): any;
    /**
     * The cards of the deck, sorted (RS-4).
     */
    readonly deck: any;
    /**
     * The cards each seat is dealt (DEAL-1).
     */
    readonly handSize: number;
    /**
     * The ruleset's name.
     */
    readonly name: string;
    /**
     * The number of seats.
     */
    readonly players: number;
    /**
     * The cards worth points, sorted (SCORE-1).
     */
    readonly pointCards: any;
}

/**
 * The ACT-1 action of `seat` made of `ids` (API-10).
 */
export function actionFromIds(ids: any, seat: any): any;

/**
 * The ids that, applied in order for the action's seat, do what `action` does (API-10).
 */
export function actionIds(action: any): Uint16Array;

/**
 * A name of an action id for people: `play QS`, `pass QS`, `moon add-to-others` (API-10).
 */
export function actionLabel(action_id: any): string;

/**
 * The id of CARD-2 for a card written in any accepted form.
 */
export function cardId(card: any): number;

/**
 * The number of layouts of the hidden cards consistent with what the observer knows, as a
 * `BigInt`.
 */
export function countLayouts(ruleset: Ruleset, observation: any): any;

/**
 * The first `deals` deals of a game seeded with `seed` starting at `handNumber` (SEED-5).
 */
export function dealFromSeed(ruleset: Ruleset, seed: any, deals: any, hand_number: any): any;

/**
 * Encodes a record as `"json"` or `"msgpack"` bytes (API-4).
 */
export function dumpRecord(record: any, format: any): Uint8Array;

/**
 * The error codes of spec/errors.md, in order.
 */
export function errorCodes(): string[];

/**
 * Whether `code` names an error of bad input (`InvalidInputError`) rather than an illegal
 * action (ERR-1).
 */
export function isInputError(code: string): boolean;

/**
 * The address in the module's memory of the buffer [`WasmGame::legal_ids_to_scratch`] fills;
 * it never moves (a view of the memory must be made anew when the memory grows).
 */
export function legalIdsScratch(): number;

/**
 * The input limits of ERR-6, by name (the core's table).
 */
export function limits(): any;

/**
 * Decodes a record from JSON or MessagePack bytes (API-4, REC-3).
 */
export function loadRecord(data: Uint8Array | number[]): any;

/**
 * The Monte Carlo player's card for the observer, who must be to play.
 */
export function monteCarloPlay(ruleset: Ruleset, observation: any, rollouts: any, seed: any): string;

/**
 * The number of action ids (ACT-2).
 */
export function numActions(): number;

/**
 * The canonical string of a card written in any accepted form (CARD-4).
 */
export function parseCard(text: any): string;

/**
 * Reads JSON text with every integer exact (beyond the safe range, a `BigInt`), as records and
 * seeds need; `JSON.parse` would round them.
 */
export function parseJson(text: string): any;

/**
 * The phases by [`WasmGame::phase_index`].
 */
export function phases(): string[];

/**
 * The built-in preset called `name` (API-2).
 */
export function preset(name: any): Ruleset;

/**
 * The names of the built-in presets, sorted (API-2).
 */
export function presetNames(): string[];

/**
 * The decision of the rule-based player for the observer of `observation`, as action ids:
 * exact ties to the lowest card without a `seed`, else drawn from a generator seeded with it.
 */
export function rulesPlay(ruleset: Ruleset, observation: any, seed: any): Uint16Array;

/**
 * The fields of a ruleset object (spec/ruleset.md), in the core's order.
 */
export function rulesetFields(): string[];

/**
 * The fields a ruleset object may leave out (RS-19).
 */
export function rulesetOptionalFields(): string[];

/**
 * `samples` layouts of the hidden cards drawn exactly uniformly among those consistent with
 * what the observer of `observation` (OBS-1) knows: each one sorted hand per seat.
 */
export function sampleHidden(ruleset: Ruleset, observation: any, samples: any, seed: any): any;

/**
 * The search player's decision for the observer of `observation` (OBS-1), as the action ids
 * that make it (ACT-2). The budget is `playouts` per decision, `timeMs` per decision, or both
 * (whichever runs out first; `null` for none); a pass gets four times as much.
 */
export function searchPlay(ruleset: Ruleset, observation: any, seed: any, playouts: any, time_ms: any): Uint16Array;

/**
 * The first `count` draws of SEED-1 from `seed`, as `BigInt`s.
 */
export function seedDraws(seed: any, count: any): BigUint64Array;

/**
 * Plays `hands` random hands in the core; the per-hand scores, seat by seat, hand by hand.
 */
export function simulateScores(ruleset: Ruleset, hands: any, seed: any): Int32Array;

/**
 * The version of spec/ this core implements.
 */
export function specVersion(): string;

/**
 * Writes JSON data as JSON text, `BigInt`s as exact integers; `JSON.stringify` rejects them.
 */
export function stringifyJson(value: any): string;

/**
 * The package's version (the workspace's).
 */
export function version(): string;

export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;

export interface InitOutput {
    readonly memory: WebAssembly.Memory;
    readonly __wbg_game_free: (a: number, b: number) => void;
    readonly __wbg_ruleset_free: (a: number, b: number) => void;
    readonly actionFromIds: (a: any, b: any) => [number, number, number];
    readonly actionIds: (a: any) => [number, number, number, number];
    readonly actionLabel: (a: any) => [number, number, number, number];
    readonly cardId: (a: any) => [number, number, number];
    readonly countLayouts: (a: number, b: any) => [number, number, number];
    readonly dealFromSeed: (a: number, b: any, c: any, d: any) => [number, number, number];
    readonly dumpRecord: (a: any, b: any) => [number, number, number, number];
    readonly errorCodes: () => [number, number];
    readonly game_actionCount: (a: number) => number;
    readonly game_actions: (a: number) => any;
    readonly game_apply: (a: number, b: any) => [number, number];
    readonly game_applyAction: (a: number, b: any, c: any) => [number, number];
    readonly game_applyActionId: (a: number, b: number) => [number, number];
    readonly game_awaitingPass: (a: number) => any;
    readonly game_chooseMoon: (a: number, b: any, c: any) => [number, number];
    readonly game_copy: (a: number) => number;
    readonly game_countDown: (a: number) => number;
    readonly game_deal: (a: number, b: any) => [number, number];
    readonly game_dealer: (a: number) => number;
    readonly game_divide: (a: number, b: any, c: any) => [number, number, number];
    readonly game_equals: (a: number, b: number) => number;
    readonly game_events: (a: number) => any;
    readonly game_fromRecord: (a: any) => [number, number, number];
    readonly game_hand: (a: number, b: any) => [number, number, number];
    readonly game_handNumber: (a: number) => any;
    readonly game_handScores: (a: number) => any;
    readonly game_heartsBroken: (a: number) => number;
    readonly game_lastHand: (a: number) => any;
    readonly game_legalActions: (a: number, b: any) => [number, number, number, number];
    readonly game_legalIdsToScratch: (a: number) => [number, number, number];
    readonly game_legalMask: (a: number, b: any) => [number, number, number];
    readonly game_legalPlays: (a: number) => any;
    readonly game_moonTaker: (a: number) => number;
    readonly game_new: (a: number, b: any, c: any, d: any) => [number, number, number];
    readonly game_observation: (a: number, b: any) => [number, number, number];
    readonly game_observationTensor: (a: number, b: any) => [number, number, number, number];
    readonly game_passCards: (a: number, b: any, c: any) => [number, number];
    readonly game_passDirection: (a: number) => [number, number];
    readonly game_perft: (a: number, b: any, c: any) => [number, number, number];
    readonly game_phaseIndex: (a: number) => number;
    readonly game_play: (a: number, b: any, c: any) => [number, number];
    readonly game_points: (a: number) => any;
    readonly game_ruleset: (a: number) => number;
    readonly game_scores: (a: number) => any;
    readonly game_seed: (a: number) => any;
    readonly game_selected: (a: number, b: any) => [number, number, number];
    readonly game_state: (a: number) => any;
    readonly game_toAct: (a: number) => number;
    readonly game_toMove: (a: number) => number;
    readonly game_toRecord: (a: number) => any;
    readonly game_trick: (a: number) => any;
    readonly game_tricksPlayed: (a: number) => any;
    readonly game_undo: (a: number) => [number, number];
    readonly game_winners: (a: number) => any;
    readonly isInputError: (a: number, b: number) => number;
    readonly legalIdsScratch: () => number;
    readonly limits: () => any;
    readonly loadRecord: (a: number, b: number) => [number, number, number];
    readonly monteCarloPlay: (a: number, b: any, c: any, d: any) => [number, number, number, number];
    readonly numActions: () => number;
    readonly parseCard: (a: any) => [number, number, number, number];
    readonly parseJson: (a: number, b: number) => [number, number, number];
    readonly phases: () => [number, number];
    readonly preset: (a: any) => [number, number, number];
    readonly presetNames: () => [number, number];
    readonly rulesPlay: (a: number, b: any, c: any) => [number, number, number, number];
    readonly rulesetFields: () => [number, number];
    readonly rulesetOptionalFields: () => [number, number];
    readonly ruleset_deck: (a: number) => any;
    readonly ruleset_equals: (a: number, b: number) => number;
    readonly ruleset_field: (a: number, b: number, c: number) => any;
    readonly ruleset_fromJson: (a: any) => [number, number, number];
    readonly ruleset_handSize: (a: number) => number;
    readonly ruleset_name: (a: number) => [number, number];
    readonly ruleset_players: (a: number) => number;
    readonly ruleset_pointCards: (a: number) => any;
    readonly ruleset_replace: (a: number, b: any) => [number, number, number];
    readonly ruleset_toJson: (a: number) => any;
    readonly sampleHidden: (a: number, b: any, c: any, d: any) => [number, number, number];
    readonly searchPlay: (a: number, b: any, c: any, d: any, e: any) => [number, number, number, number];
    readonly seedDraws: (a: any, b: any) => [number, number, number, number];
    readonly simulateScores: (a: number, b: any, c: any) => [number, number, number, number];
    readonly specVersion: () => [number, number];
    readonly stringifyJson: (a: any) => [number, number, number, number];
    readonly version: () => [number, number];
    readonly __wbindgen_malloc: (a: number, b: number) => number;
    readonly __wbindgen_realloc: (a: number, b: number, c: number, d: number) => number;
    readonly __wbindgen_free: (a: number, b: number, c: number) => void;
    readonly __wbindgen_exn_store: (a: number) => void;
    readonly __externref_table_alloc: () => number;
    readonly __wbindgen_externrefs: WebAssembly.Table;
    readonly __externref_table_dealloc: (a: number) => void;
    readonly __externref_drop_slice: (a: number, b: number) => void;
    readonly __wbindgen_start: () => void;
}

export type SyncInitInput = BufferSource | WebAssembly.Module;

/**
 * Instantiates the given `module`, which can either be bytes or
 * a precompiled `WebAssembly.Module`.
 *
 * @param {{ module: SyncInitInput }} module - Passing `SyncInitInput` directly is deprecated.
 *
 * @returns {InitOutput}
 */
export function initSync(module: { module: SyncInitInput } | SyncInitInput): InitOutput;

/**
 * If `module_or_path` is {RequestInfo} or {URL}, makes a request and
 * for everything else, calls `WebAssembly.instantiate` directly.
 *
 * @param {{ module_or_path: InitInput | Promise<InitInput> }} module_or_path - Passing `InitInput` directly is deprecated.
 *
 * @returns {Promise<InitOutput>}
 */
export default function __wbg_init (module_or_path?: { module_or_path: InitInput | Promise<InitInput> } | InitInput | Promise<InitInput>): Promise<InitOutput>;
