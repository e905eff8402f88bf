/* @ts-self-types="./reversis_wasm.d.ts" */

/**
 * A game of one ruleset: a match of hands, with its history (spec/api.md).
 */
export class Game {
    static __wrap(ptr) {
        const obj = Object.create(Game.prototype);
        obj.__wbg_ptr = ptr;
        GameFinalization.register(obj, obj.__wbg_ptr, obj);
        return obj;
    }
    __destroy_into_raw() {
        const ptr = this.__wbg_ptr;
        this.__wbg_ptr = 0;
        GameFinalization.unregister(this);
        return ptr;
    }
    free() {
        const ptr = this.__destroy_into_raw();
        wasm.__wbg_game_free(ptr, 0);
    }
    /**
     * The number of accepted actions.
     * @returns {number}
     */
    get actionCount() {
        const ret = wasm.game_actionCount(this.__wbg_ptr);
        return ret >>> 0;
    }
    /**
     * Every accepted action, in order (ACT-1 objects).
     * @returns {any}
     */
    get actions() {
        const ret = wasm.game_actions(this.__wbg_ptr);
        return ret;
    }
    /**
     * Applies action id `actionId` for the acting seat: `applyAction` for an id the package has
     * already checked is an integer below `NUM_ACTIONS`, without converting a JavaScript value.
     * @param {number} action_id
     */
    applyActionId(action_id) {
        const ret = wasm.game_applyActionId(this.__wbg_ptr, action_id);
        if (ret[1]) {
            throw takeFromExternrefTable0(ret[0]);
        }
    }
    /**
     * Applies action id `actionId` (ACT-2) for `seat`, by default the acting seat (ACT-3).
     * @param {any} action_id
     * @param {any} seat
     */
    applyAction(action_id, seat) {
        const ret = wasm.game_applyAction(this.__wbg_ptr, action_id, seat);
        if (ret[1]) {
            throw takeFromExternrefTable0(ret[0]);
        }
    }
    /**
     * Applies an action of ACT-1, or throws and changes nothing.
     * @param {any} action
     */
    apply(action) {
        const ret = wasm.game_apply(this.__wbg_ptr, action);
        if (ret[1]) {
            throw takeFromExternrefTable0(ret[0]);
        }
    }
    /**
     * The seats that have not passed yet, ascending.
     * @returns {any}
     */
    get awaitingPass() {
        const ret = wasm.game_awaitingPass(this.__wbg_ptr);
        return ret;
    }
    /**
     * Chooses how the moon scores for `seat`, by default the taker (SCORE-3).
     * @param {any} choice
     * @param {any} seat
     */
    chooseMoon(choice, seat) {
        const ret = wasm.game_chooseMoon(this.__wbg_ptr, choice, seat);
        if (ret[1]) {
            throw takeFromExternrefTable0(ret[0]);
        }
    }
    /**
     * An independent copy of this game, undo history included.
     * @returns {Game}
     */
    copy() {
        const ret = wasm.game_copy(this.__wbg_ptr);
        return Game.__wrap(ret);
    }
    /**
     * Whether the hand is a count-down hand (MATCH-5).
     * @returns {boolean}
     */
    get countDown() {
        const ret = wasm.game_countDown(this.__wbg_ptr);
        return ret !== 0;
    }
    /**
     * Deals `hands`; with `null`, a deal from the seed (`no-seed` in phase `deal`).
     * @param {any} hands
     */
    deal(hands) {
        const ret = wasm.game_deal(this.__wbg_ptr, hands);
        if (ret[1]) {
            throw takeFromExternrefTable0(ret[0]);
        }
    }
    /**
     * The dealer of the hand (DEAL-2).
     * @returns {number}
     */
    get dealer() {
        const ret = wasm.game_dealer(this.__wbg_ptr);
        return ret >>> 0;
    }
    /**
     * Divide (PERFT-4): an object from each decision's key to the sequences `perft` counts that
     * begin with it, its keys in the order of the decisions.
     * @param {any} depth
     * @param {any} unit
     * @returns {any}
     */
    divide(depth, unit) {
        const ret = wasm.game_divide(this.__wbg_ptr, depth, unit);
        if (ret[2]) {
            throw takeFromExternrefTable0(ret[1]);
        }
        return takeFromExternrefTable0(ret[0]);
    }
    /**
     * Whether two games are in the same position (API-9).
     * @param {Game} other
     * @returns {boolean}
     */
    equals(other) {
        _assertClass(other, Game);
        const ret = wasm.game_equals(this.__wbg_ptr, other.__wbg_ptr);
        return ret !== 0;
    }
    /**
     * The events of the last accepted action (EVT-1).
     * @returns {any}
     */
    get events() {
        const ret = wasm.game_events(this.__wbg_ptr);
        return ret;
    }
    /**
     * Rebuilds a game from its record by replaying it (REC-2).
     * @param {any} record
     * @returns {Game}
     */
    static fromRecord(record) {
        const ret = wasm.game_fromRecord(record);
        if (ret[2]) {
            throw takeFromExternrefTable0(ret[1]);
        }
        return Game.__wrap(ret[0]);
    }
    /**
     * The number of the current (or coming) hand.
     * @returns {any}
     */
    get handNumber() {
        const ret = wasm.game_handNumber(this.__wbg_ptr);
        return ret;
    }
    /**
     * Per scored hand, the scores added to the totals.
     * @returns {any}
     */
    get handScores() {
        const ret = wasm.game_handScores(this.__wbg_ptr);
        return ret;
    }
    /**
     * The cards `seat` holds, sorted.
     * @param {any} seat
     * @returns {any}
     */
    hand(seat) {
        const ret = wasm.game_hand(this.__wbg_ptr, seat);
        if (ret[2]) {
            throw takeFromExternrefTable0(ret[1]);
        }
        return takeFromExternrefTable0(ret[0]);
    }
    /**
     * Whether hearts are broken (PLAY-6).
     * @returns {boolean}
     */
    get heartsBroken() {
        const ret = wasm.game_heartsBroken(this.__wbg_ptr);
        return ret !== 0;
    }
    /**
     * The most recently scored hand (EVT-2), or `null`.
     * @returns {any}
     */
    get lastHand() {
        const ret = wasm.game_lastHand(this.__wbg_ptr);
        return ret;
    }
    /**
     * The legal action ids of `seat` (by default the acting seat), ascending (ACT-3).
     * @param {any} seat
     * @returns {Uint16Array}
     */
    legalActions(seat) {
        const ret = wasm.game_legalActions(this.__wbg_ptr, seat);
        if (ret[3]) {
            throw takeFromExternrefTable0(ret[2]);
        }
        var v1 = getArrayU16FromWasm0(ret[0], ret[1]).slice();
        wasm.__wbindgen_free(ret[0], ret[1] * 2, 2);
        return v1;
    }
    /**
     * The acting seat's legal action ids, ascending, written to the [`legal_ids_scratch`]
     * buffer; returns how many there are. The per-step loop's form of `legalActions`: no
     * allocation on either side of the boundary.
     * @returns {number}
     */
    legalIdsToScratch() {
        const ret = wasm.game_legalIdsToScratch(this.__wbg_ptr);
        if (ret[2]) {
            throw takeFromExternrefTable0(ret[1]);
        }
        return ret[0] >>> 0;
    }
    /**
     * The legal action ids of `seat` as a `BigInt` bit mask: bit `i` for legal id `i`.
     * @param {any} seat
     * @returns {any}
     */
    legalMask(seat) {
        const ret = wasm.game_legalMask(this.__wbg_ptr, seat);
        if (ret[2]) {
            throw takeFromExternrefTable0(ret[1]);
        }
        return takeFromExternrefTable0(ret[0]);
    }
    /**
     * The cards the seat to move may play, sorted (PLAY-8).
     * @returns {any}
     */
    legalPlays() {
        const ret = wasm.game_legalPlays(this.__wbg_ptr);
        return ret;
    }
    /**
     * The seat that took every point card, in phase `moon`; else `null`.
     * @returns {number | undefined}
     */
    get moonTaker() {
        const ret = wasm.game_moonTaker(this.__wbg_ptr);
        return ret === Number.MAX_SAFE_INTEGER ? undefined : ret;
    }
    /**
     * A new game (API-3): `seed` an integer or `null` (unseeded), `handNumber` and `scores`
     * `null` for their defaults.
     * @param {Ruleset} ruleset
     * @param {any} seed
     * @param {any} hand_number
     * @param {any} scores
     */
    constructor(ruleset, seed, hand_number, scores) {
        _assertClass(ruleset, Ruleset);
        const ret = wasm.game_new(ruleset.__wbg_ptr, seed, hand_number, scores);
        if (ret[2]) {
            throw takeFromExternrefTable0(ret[1]);
        }
        this.__wbg_ptr = ret[0];
        GameFinalization.register(this, this.__wbg_ptr, this);
        return this;
    }
    /**
     * The OBS-3 encoding of `seat`'s observation (OBS-1) by the core's encoder: 1435 integers.
     * @param {any} seat
     * @returns {Int32Array}
     */
    observationTensor(seat) {
        const ret = wasm.game_observationTensor(this.__wbg_ptr, seat);
        if (ret[3]) {
            throw takeFromExternrefTable0(ret[2]);
        }
        var v1 = getArrayI32FromWasm0(ret[0], ret[1]).slice();
        wasm.__wbindgen_free(ret[0], ret[1] * 4, 4);
        return v1;
    }
    /**
     * What `seat` may know, and nothing else (OBS-1).
     * @param {any} seat
     * @returns {any}
     */
    observation(seat) {
        const ret = wasm.game_observation(this.__wbg_ptr, seat);
        if (ret[2]) {
            throw takeFromExternrefTable0(ret[1]);
        }
        return takeFromExternrefTable0(ret[0]);
    }
    /**
     * Submits the pass of `seat`, by default the acting seat (PASS-2).
     * @param {any} cards
     * @param {any} seat
     */
    passCards(cards, seat) {
        const ret = wasm.game_passCards(this.__wbg_ptr, cards, seat);
        if (ret[1]) {
            throw takeFromExternrefTable0(ret[0]);
        }
    }
    /**
     * The hand's pass direction, or `null` where the ruleset has no passing.
     * @returns {string | undefined}
     */
    get passDirection() {
        const ret = wasm.game_passDirection(this.__wbg_ptr);
        let v1;
        if (ret[0] !== 0) {
            v1 = getStringFromWasm0(ret[0], ret[1]);
            wasm.__wbindgen_free(ret[0], ret[1] * 1, 1);
        }
        return v1;
    }
    /**
     * Perft (PERFT-2, PERFT-3): the legal sequences of `depth` decisions from the position,
     * or, with `unit` `"tricks"`, of decisions until `depth` more tricks are complete; a
     * `BigInt` beyond the safe integers.
     * @param {any} depth
     * @param {any} unit
     * @returns {any}
     */
    perft(depth, unit) {
        const ret = wasm.game_perft(this.__wbg_ptr, depth, unit);
        if (ret[2]) {
            throw takeFromExternrefTable0(ret[1]);
        }
        return takeFromExternrefTable0(ret[0]);
    }
    /**
     * The phase as its index in [`PHASES`]: a per-step loop reads it every decision, and a
     * number crosses to JavaScript without the string decoding a name would cost.
     * @returns {number}
     */
    get phaseIndex() {
        const ret = wasm.game_phaseIndex(this.__wbg_ptr);
        return ret;
    }
    /**
     * Plays `card` for `seat`, by default the seat to move.
     * @param {any} card
     * @param {any} seat
     */
    play(card, seat) {
        const ret = wasm.game_play(this.__wbg_ptr, card, seat);
        if (ret[1]) {
            throw takeFromExternrefTable0(ret[0]);
        }
    }
    /**
     * Per seat, the points captured in the hand so far (SCORE-1).
     * @returns {any}
     */
    get points() {
        const ret = wasm.game_points(this.__wbg_ptr);
        return ret;
    }
    /**
     * The game's ruleset.
     * @returns {Ruleset}
     */
    get ruleset() {
        const ret = wasm.game_ruleset(this.__wbg_ptr);
        return Ruleset.__wrap(ret);
    }
    /**
     * Per seat, the match totals (SCORE-4).
     * @returns {any}
     */
    get scores() {
        const ret = wasm.game_scores(this.__wbg_ptr);
        return ret;
    }
    /**
     * The seed, or `null` for an unseeded game.
     * @returns {any}
     */
    get seed() {
        const ret = wasm.game_seed(this.__wbg_ptr);
        return ret;
    }
    /**
     * The cards `seat` has selected toward its pass, in the order selected (ACT-2).
     * @param {any} seat
     * @returns {any}
     */
    selected(seat) {
        const ret = wasm.game_selected(this.__wbg_ptr, seat);
        if (ret[2]) {
            throw takeFromExternrefTable0(ret[1]);
        }
        return takeFromExternrefTable0(ret[0]);
    }
    /**
     * The position as JSON data (API-9).
     * @returns {any}
     */
    state() {
        const ret = wasm.game_state(this.__wbg_ptr);
        return ret;
    }
    /**
     * The seat whose decision the game awaits (ACT-3), or `null`.
     * @returns {number | undefined}
     */
    get toAct() {
        const ret = wasm.game_toAct(this.__wbg_ptr);
        return ret === Number.MAX_SAFE_INTEGER ? undefined : ret;
    }
    /**
     * The seat to play, or `null`.
     * @returns {number | undefined}
     */
    get toMove() {
        const ret = wasm.game_toMove(this.__wbg_ptr);
        return ret === Number.MAX_SAFE_INTEGER ? undefined : ret;
    }
    /**
     * The game record of REC-1.
     * @returns {any}
     */
    toRecord() {
        const ret = wasm.game_toRecord(this.__wbg_ptr);
        return ret;
    }
    /**
     * The trick in progress: `{seat, card}` in the order played.
     * @returns {any}
     */
    get trick() {
        const ret = wasm.game_trick(this.__wbg_ptr);
        return ret;
    }
    /**
     * The hand's completed tricks, oldest first (TRICK-1).
     * @returns {any}
     */
    get tricksPlayed() {
        const ret = wasm.game_tricksPlayed(this.__wbg_ptr);
        return ret;
    }
    /**
     * Takes back the last accepted action with everything it set off (API-8).
     */
    undo() {
        const ret = wasm.game_undo(this.__wbg_ptr);
        if (ret[1]) {
            throw takeFromExternrefTable0(ret[0]);
        }
    }
    /**
     * The seats with the lowest total once the match is over (MATCH-3).
     * @returns {any}
     */
    get winners() {
        const ret = wasm.game_winners(this.__wbg_ptr);
        return ret;
    }
}
if (Symbol.dispose) Game.prototype[Symbol.dispose] = Game.prototype.free;

/**
 * One variant of the Hearts family: an immutable, validated ruleset (API-2).
 */
export class Ruleset {
    static __wrap(ptr) {
        const obj = Object.create(Ruleset.prototype);
        obj.__wbg_ptr = ptr;
        RulesetFinalization.register(obj, obj.__wbg_ptr, obj);
        return obj;
    }
    __destroy_into_raw() {
        const ptr = this.__wbg_ptr;
        this.__wbg_ptr = 0;
        RulesetFinalization.unregister(this);
        return ptr;
    }
    free() {
        const ptr = this.__destroy_into_raw();
        wasm.__wbg_ruleset_free(ptr, 0);
    }
    /**
     * The cards of the deck, sorted (RS-4).
     * @returns {any}
     */
    get deck() {
        const ret = wasm.ruleset_deck(this.__wbg_ptr);
        return ret;
    }
    /**
     * Whether two rulesets are the same variant (their canonical objects are equal).
     * @param {Ruleset} other
     * @returns {boolean}
     */
    equals(other) {
        _assertClass(other, Ruleset);
        const ret = wasm.ruleset_equals(this.__wbg_ptr, other.__wbg_ptr);
        return ret !== 0;
    }
    /**
     * The value of the field `name` of `rulesetFields()` in the canonical object, or its
     * default where left out (RS-19); undefined for a name that is not a field. The JavaScript
     * `Ruleset` reads every field without a getter of its own through this.
     * @param {string} name
     * @returns {any}
     */
    field(name) {
        const ptr0 = passStringToWasm0(name, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);
        const len0 = WASM_VECTOR_LEN;
        const ret = wasm.ruleset_field(this.__wbg_ptr, ptr0, len0);
        return ret;
    }
    /**
     * Builds a ruleset from its JSON object, or from JSON text (RS-13).
     * @param {any} data
     * @returns {Ruleset}
     */
    static fromJson(data) {
        const ret = wasm.ruleset_fromJson(data);
        if (ret[2]) {
            throw takeFromExternrefTable0(ret[1]);
        }
        return Ruleset.__wrap(ret[0]);
    }
    /**
     * The cards each seat is dealt (DEAL-1).
     * @returns {number}
     */
    get handSize() {
        const ret = wasm.ruleset_handSize(this.__wbg_ptr);
        return ret >>> 0;
    }
    /**
     * The ruleset's name.
     * @returns {string}
     */
    get name() {
        let deferred1_0;
        let deferred1_1;
        try {
            const ret = wasm.ruleset_name(this.__wbg_ptr);
            deferred1_0 = ret[0];
            deferred1_1 = ret[1];
            return getStringFromWasm0(ret[0], ret[1]);
        } finally {
            wasm.__wbindgen_free(deferred1_0, deferred1_1, 1);
        }
    }
    /**
     * The number of seats.
     * @returns {number}
     */
    get players() {
        const ret = wasm.ruleset_players(this.__wbg_ptr);
        return ret >>> 0;
    }
    /**
     * The cards worth points, sorted (SCORE-1).
     * @returns {any}
     */
    get pointCards() {
        const ret = wasm.ruleset_pointCards(this.__wbg_ptr);
        return ret;
    }
    /**
     * A new, validated ruleset with the fields of the object `fields` changed (API-2).
     * @param {any} fields
     * @returns {Ruleset}
     */
    replace(fields) {
        const ret = wasm.ruleset_replace(this.__wbg_ptr, fields);
        if (ret[2]) {
            throw takeFromExternrefTable0(ret[1]);
        }
        return Ruleset.__wrap(ret[0]);
    }
    /**
     * The ruleset as the canonical JSON object of spec/ruleset.md (RS-16).
     * @returns {any}
     */
    toJson() {
        const ret = wasm.ruleset_toJson(this.__wbg_ptr);
        return ret;
    }
}
if (Symbol.dispose) Ruleset.prototype[Symbol.dispose] = Ruleset.prototype.free;

/**
 * The ACT-1 action of `seat` made of `ids` (API-10).
 * @param {any} ids
 * @param {any} seat
 * @returns {any}
 */
export function actionFromIds(ids, seat) {
    const ret = wasm.actionFromIds(ids, seat);
    if (ret[2]) {
        throw takeFromExternrefTable0(ret[1]);
    }
    return takeFromExternrefTable0(ret[0]);
}

/**
 * The ids that, applied in order for the action's seat, do what `action` does (API-10).
 * @param {any} action
 * @returns {Uint16Array}
 */
export function actionIds(action) {
    const ret = wasm.actionIds(action);
    if (ret[3]) {
        throw takeFromExternrefTable0(ret[2]);
    }
    var v1 = getArrayU16FromWasm0(ret[0], ret[1]).slice();
    wasm.__wbindgen_free(ret[0], ret[1] * 2, 2);
    return v1;
}

/**
 * A name of an action id for people: `play QS`, `pass QS`, `moon add-to-others` (API-10).
 * @param {any} action_id
 * @returns {string}
 */
export function actionLabel(action_id) {
    let deferred2_0;
    let deferred2_1;
    try {
        const ret = wasm.actionLabel(action_id);
        var ptr1 = ret[0];
        var len1 = ret[1];
        if (ret[3]) {
            ptr1 = 0; len1 = 0;
            throw takeFromExternrefTable0(ret[2]);
        }
        deferred2_0 = ptr1;
        deferred2_1 = len1;
        return getStringFromWasm0(ptr1, len1);
    } finally {
        wasm.__wbindgen_free(deferred2_0, deferred2_1, 1);
    }
}

/**
 * The id of CARD-2 for a card written in any accepted form.
 * @param {any} card
 * @returns {number}
 */
export function cardId(card) {
    const ret = wasm.cardId(card);
    if (ret[2]) {
        throw takeFromExternrefTable0(ret[1]);
    }
    return ret[0];
}

/**
 * The number of layouts of the hidden cards consistent with what the observer knows, as a
 * `BigInt`.
 * @param {Ruleset} ruleset
 * @param {any} observation
 * @returns {any}
 */
export function countLayouts(ruleset, observation) {
    _assertClass(ruleset, Ruleset);
    const ret = wasm.countLayouts(ruleset.__wbg_ptr, observation);
    if (ret[2]) {
        throw takeFromExternrefTable0(ret[1]);
    }
    return takeFromExternrefTable0(ret[0]);
}

/**
 * The first `deals` deals of a game seeded with `seed` starting at `handNumber` (SEED-5).
 * @param {Ruleset} ruleset
 * @param {any} seed
 * @param {any} deals
 * @param {any} hand_number
 * @returns {any}
 */
export function dealFromSeed(ruleset, seed, deals, hand_number) {
    _assertClass(ruleset, Ruleset);
    const ret = wasm.dealFromSeed(ruleset.__wbg_ptr, seed, deals, hand_number);
    if (ret[2]) {
        throw takeFromExternrefTable0(ret[1]);
    }
    return takeFromExternrefTable0(ret[0]);
}

/**
 * Encodes a record as `"json"` or `"msgpack"` bytes (API-4).
 * @param {any} record
 * @param {any} format
 * @returns {Uint8Array}
 */
export function dumpRecord(record, format) {
    const ret = wasm.dumpRecord(record, format);
    if (ret[3]) {
        throw takeFromExternrefTable0(ret[2]);
    }
    var v1 = getArrayU8FromWasm0(ret[0], ret[1]).slice();
    wasm.__wbindgen_free(ret[0], ret[1] * 1, 1);
    return v1;
}

/**
 * The error codes of spec/errors.md, in order.
 * @returns {string[]}
 */
export function errorCodes() {
    const ret = wasm.errorCodes();
    var v1 = getArrayJsValueFromWasm0(ret[0], ret[1]);
    wasm.__wbindgen_free(ret[0], ret[1] * 4, 4);
    return v1;
}

/**
 * Whether `code` names an error of bad input (`InvalidInputError`) rather than an illegal
 * action (ERR-1).
 * @param {string} code
 * @returns {boolean}
 */
export function isInputError(code) {
    const ptr0 = passStringToWasm0(code, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);
    const len0 = WASM_VECTOR_LEN;
    const ret = wasm.isInputError(ptr0, len0);
    return ret !== 0;
}

/**
 * The address in the module's memory of the buffer [`WasmGame::legal_ids_to_scratch`] fills;
 * it never moves (a view of the memory must be made anew when the memory grows).
 * @returns {number}
 */
export function legalIdsScratch() {
    const ret = wasm.legalIdsScratch();
    return ret >>> 0;
}

/**
 * The input limits of ERR-6, by name (the core's table).
 * @returns {any}
 */
export function limits() {
    const ret = wasm.limits();
    return ret;
}

/**
 * Decodes a record from JSON or MessagePack bytes (API-4, REC-3).
 * @param {Uint8Array | number[]} data
 * @returns {any}
 */
export function loadRecord(data) {
    const ptr0 = passArray8ToWasm0(data, wasm.__wbindgen_malloc);
    const len0 = WASM_VECTOR_LEN;
    const ret = wasm.loadRecord(ptr0, len0);
    if (ret[2]) {
        throw takeFromExternrefTable0(ret[1]);
    }
    return takeFromExternrefTable0(ret[0]);
}

/**
 * The Monte Carlo player's card for the observer, who must be to play.
 * @param {Ruleset} ruleset
 * @param {any} observation
 * @param {any} rollouts
 * @param {any} seed
 * @returns {string}
 */
export function monteCarloPlay(ruleset, observation, rollouts, seed) {
    let deferred2_0;
    let deferred2_1;
    try {
        _assertClass(ruleset, Ruleset);
        const ret = wasm.monteCarloPlay(ruleset.__wbg_ptr, observation, rollouts, seed);
        var ptr1 = ret[0];
        var len1 = ret[1];
        if (ret[3]) {
            ptr1 = 0; len1 = 0;
            throw takeFromExternrefTable0(ret[2]);
        }
        deferred2_0 = ptr1;
        deferred2_1 = len1;
        return getStringFromWasm0(ptr1, len1);
    } finally {
        wasm.__wbindgen_free(deferred2_0, deferred2_1, 1);
    }
}

/**
 * The number of action ids (ACT-2).
 * @returns {number}
 */
export function numActions() {
    const ret = wasm.numActions();
    return ret;
}

/**
 * The canonical string of a card written in any accepted form (CARD-4).
 * @param {any} text
 * @returns {string}
 */
export function parseCard(text) {
    let deferred2_0;
    let deferred2_1;
    try {
        const ret = wasm.parseCard(text);
        var ptr1 = ret[0];
        var len1 = ret[1];
        if (ret[3]) {
            ptr1 = 0; len1 = 0;
            throw takeFromExternrefTable0(ret[2]);
        }
        deferred2_0 = ptr1;
        deferred2_1 = len1;
        return getStringFromWasm0(ptr1, len1);
    } finally {
        wasm.__wbindgen_free(deferred2_0, deferred2_1, 1);
    }
}

/**
 * Reads JSON text with every integer exact (beyond the safe range, a `BigInt`), as records and
 * seeds need; `JSON.parse` would round them.
 * @param {string} text
 * @returns {any}
 */
export function parseJson(text) {
    const ptr0 = passStringToWasm0(text, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);
    const len0 = WASM_VECTOR_LEN;
    const ret = wasm.parseJson(ptr0, len0);
    if (ret[2]) {
        throw takeFromExternrefTable0(ret[1]);
    }
    return takeFromExternrefTable0(ret[0]);
}

/**
 * The phases by [`WasmGame::phase_index`].
 * @returns {string[]}
 */
export function phases() {
    const ret = wasm.phases();
    var v1 = getArrayJsValueFromWasm0(ret[0], ret[1]);
    wasm.__wbindgen_free(ret[0], ret[1] * 4, 4);
    return v1;
}

/**
 * The built-in preset called `name` (API-2).
 * @param {any} name
 * @returns {Ruleset}
 */
export function preset(name) {
    const ret = wasm.preset(name);
    if (ret[2]) {
        throw takeFromExternrefTable0(ret[1]);
    }
    return Ruleset.__wrap(ret[0]);
}

/**
 * The names of the built-in presets, sorted (API-2).
 * @returns {string[]}
 */
export function presetNames() {
    const ret = wasm.presetNames();
    var v1 = getArrayJsValueFromWasm0(ret[0], ret[1]);
    wasm.__wbindgen_free(ret[0], ret[1] * 4, 4);
    return v1;
}

/**
 * The decision of the rule-based player for the observer of `observation`, as action ids:
 * exact ties to the lowest card without a `seed`, else drawn from a generator seeded with it.
 * @param {Ruleset} ruleset
 * @param {any} observation
 * @param {any} seed
 * @returns {Uint16Array}
 */
export function rulesPlay(ruleset, observation, seed) {
    _assertClass(ruleset, Ruleset);
    const ret = wasm.rulesPlay(ruleset.__wbg_ptr, observation, seed);
    if (ret[3]) {
        throw takeFromExternrefTable0(ret[2]);
    }
    var v1 = getArrayU16FromWasm0(ret[0], ret[1]).slice();
    wasm.__wbindgen_free(ret[0], ret[1] * 2, 2);
    return v1;
}

/**
 * The fields of a ruleset object (spec/ruleset.md), in the core's order.
 * @returns {string[]}
 */
export function rulesetFields() {
    const ret = wasm.rulesetFields();
    var v1 = getArrayJsValueFromWasm0(ret[0], ret[1]);
    wasm.__wbindgen_free(ret[0], ret[1] * 4, 4);
    return v1;
}

/**
 * The fields a ruleset object may leave out (RS-19).
 * @returns {string[]}
 */
export function rulesetOptionalFields() {
    const ret = wasm.rulesetOptionalFields();
    var v1 = getArrayJsValueFromWasm0(ret[0], ret[1]);
    wasm.__wbindgen_free(ret[0], ret[1] * 4, 4);
    return v1;
}

/**
 * `samples` layouts of the hidden cards drawn exactly uniformly among those consistent with
 * what the observer of `observation` (OBS-1) knows: each one sorted hand per seat.
 * @param {Ruleset} ruleset
 * @param {any} observation
 * @param {any} samples
 * @param {any} seed
 * @returns {any}
 */
export function sampleHidden(ruleset, observation, samples, seed) {
    _assertClass(ruleset, Ruleset);
    const ret = wasm.sampleHidden(ruleset.__wbg_ptr, observation, samples, seed);
    if (ret[2]) {
        throw takeFromExternrefTable0(ret[1]);
    }
    return takeFromExternrefTable0(ret[0]);
}

/**
 * The search player's decision for the observer of `observation` (OBS-1), as the action ids
 * that make it (ACT-2). The budget is `playouts` per decision, `timeMs` per decision, or both
 * (whichever runs out first; `null` for none); a pass gets four times as much.
 * @param {Ruleset} ruleset
 * @param {any} observation
 * @param {any} seed
 * @param {any} playouts
 * @param {any} time_ms
 * @returns {Uint16Array}
 */
export function searchPlay(ruleset, observation, seed, playouts, time_ms) {
    _assertClass(ruleset, Ruleset);
    const ret = wasm.searchPlay(ruleset.__wbg_ptr, observation, seed, playouts, time_ms);
    if (ret[3]) {
        throw takeFromExternrefTable0(ret[2]);
    }
    var v1 = getArrayU16FromWasm0(ret[0], ret[1]).slice();
    wasm.__wbindgen_free(ret[0], ret[1] * 2, 2);
    return v1;
}

/**
 * The first `count` draws of SEED-1 from `seed`, as `BigInt`s.
 * @param {any} seed
 * @param {any} count
 * @returns {BigUint64Array}
 */
export function seedDraws(seed, count) {
    const ret = wasm.seedDraws(seed, count);
    if (ret[3]) {
        throw takeFromExternrefTable0(ret[2]);
    }
    var v1 = getArrayU64FromWasm0(ret[0], ret[1]).slice();
    wasm.__wbindgen_free(ret[0], ret[1] * 8, 8);
    return v1;
}

/**
 * Plays `hands` random hands in the core; the per-hand scores, seat by seat, hand by hand.
 * @param {Ruleset} ruleset
 * @param {any} hands
 * @param {any} seed
 * @returns {Int32Array}
 */
export function simulateScores(ruleset, hands, seed) {
    _assertClass(ruleset, Ruleset);
    const ret = wasm.simulateScores(ruleset.__wbg_ptr, hands, seed);
    if (ret[3]) {
        throw takeFromExternrefTable0(ret[2]);
    }
    var v1 = getArrayI32FromWasm0(ret[0], ret[1]).slice();
    wasm.__wbindgen_free(ret[0], ret[1] * 4, 4);
    return v1;
}

/**
 * The version of spec/ this core implements.
 * @returns {string}
 */
export function specVersion() {
    let deferred1_0;
    let deferred1_1;
    try {
        const ret = wasm.specVersion();
        deferred1_0 = ret[0];
        deferred1_1 = ret[1];
        return getStringFromWasm0(ret[0], ret[1]);
    } finally {
        wasm.__wbindgen_free(deferred1_0, deferred1_1, 1);
    }
}

/**
 * Writes JSON data as JSON text, `BigInt`s as exact integers; `JSON.stringify` rejects them.
 * @param {any} value
 * @returns {string}
 */
export function stringifyJson(value) {
    let deferred2_0;
    let deferred2_1;
    try {
        const ret = wasm.stringifyJson(value);
        var ptr1 = ret[0];
        var len1 = ret[1];
        if (ret[3]) {
            ptr1 = 0; len1 = 0;
            throw takeFromExternrefTable0(ret[2]);
        }
        deferred2_0 = ptr1;
        deferred2_1 = len1;
        return getStringFromWasm0(ptr1, len1);
    } finally {
        wasm.__wbindgen_free(deferred2_0, deferred2_1, 1);
    }
}

/**
 * The package's version (the workspace's).
 * @returns {string}
 */
export function version() {
    let deferred1_0;
    let deferred1_1;
    try {
        const ret = wasm.version();
        deferred1_0 = ret[0];
        deferred1_1 = ret[1];
        return getStringFromWasm0(ret[0], ret[1]);
    } finally {
        wasm.__wbindgen_free(deferred1_0, deferred1_1, 1);
    }
}
function __wbg_get_imports() {
    const import0 = {
        __proto__: null,
        __wbg_BigInt_8646f9871262cc3b: function(arg0) {
            const ret = BigInt(arg0);
            return ret;
        },
        __wbg___wbindgen_bit_or_2b7e790334e12db0: function(arg0, arg1) {
            const ret = arg0 | arg1;
            return ret;
        },
        __wbg___wbindgen_boolean_get_4f1baf9a00be3c74: function(arg0) {
            const v = arg0;
            const ret = typeof(v) === 'boolean' ? v : undefined;
            return isLikeNone(ret) ? 0xFFFFFF : ret ? 1 : 0;
        },
        __wbg___wbindgen_is_bigint_5fa10641e039d3ef: function(arg0) {
            const ret = typeof(arg0) === 'bigint';
            return ret;
        },
        __wbg___wbindgen_is_function_741ff2bb612836f5: function(arg0) {
            const ret = typeof(arg0) === 'function';
            return ret;
        },
        __wbg___wbindgen_is_null_c22311b1cc228e3a: function(arg0) {
            const ret = arg0 === null;
            return ret;
        },
        __wbg___wbindgen_is_object_8b968c3ab8e96595: function(arg0) {
            const val = arg0;
            const ret = typeof(val) === 'object' && val !== null;
            return ret;
        },
        __wbg___wbindgen_is_undefined_be5b34249ff1fc15: function(arg0) {
            const ret = arg0 === undefined;
            return ret;
        },
        __wbg___wbindgen_jsval_eq_38d7bfbe4cc84039: function(arg0, arg1) {
            const ret = arg0 === arg1;
            return ret;
        },
        __wbg___wbindgen_number_get_934b640d0889af78: function(arg0, arg1) {
            const obj = arg1;
            const ret = typeof(obj) === 'number' ? obj : undefined;
            getDataViewMemory0().setFloat64((arg0 >>> 0) + 8 * 1, isLikeNone(ret) ? 0 : ret, true);
            getDataViewMemory0().setInt32((arg0 >>> 0) + 4 * 0, !isLikeNone(ret), true);
        },
        __wbg___wbindgen_shl_541d7162e30ee0d4: function(arg0, arg1) {
            const ret = arg0 << arg1;
            return ret;
        },
        __wbg___wbindgen_string_get_7ce8eee7fd327545: function(arg0, arg1) {
            const obj = arg1;
            const ret = typeof(obj) === 'string' ? obj : undefined;
            var ptr1 = isLikeNone(ret) ? 0 : passStringToWasm0(ret, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);
            var len1 = WASM_VECTOR_LEN;
            getDataViewMemory0().setInt32((arg0 >>> 0) + 4 * 1, len1, true);
            getDataViewMemory0().setInt32((arg0 >>> 0) + 4 * 0, ptr1, true);
        },
        __wbg___wbindgen_throw_4c88d8bf264fd984: function(arg0, arg1) {
            throw new Error(getStringFromWasm0(arg0, arg1));
        },
        __wbg___wbindgen_typeof_ee4990276e02f607: function(arg0) {
            const ret = typeof arg0;
            return ret;
        },
        __wbg_call_40b008ba32f73991: function() { return handleError(function (arg0, arg1) {
            const ret = arg0.call(arg1);
            return ret;
        }, arguments); },
        __wbg_defineProperty_a5a9526e5e4e6fd7: function(arg0, arg1, arg2) {
            const ret = Object.defineProperty(arg0, arg1, arg2);
            return ret;
        },
        __wbg_entries_7bb1459bd9b5c2b9: function(arg0) {
            const ret = Object.entries(arg0);
            return ret;
        },
        __wbg_from_eac91875c8a5ffa4: function(arg0) {
            const ret = Array.from(arg0);
            return ret;
        },
        __wbg_getPrototypeOf_684ea783c7170e41: function(arg0) {
            const ret = Object.getPrototypeOf(arg0);
            return ret;
        },
        __wbg_get_2080c49015e35254: function() { return handleError(function (arg0, arg1) {
            const ret = Reflect.get(arg0, arg1);
            return ret;
        }, arguments); },
        __wbg_get_d7176cfb76d71114: function(arg0, arg1) {
            const ret = arg0[arg1 >>> 0];
            return ret;
        },
        __wbg_get_unchecked_e6325ad374eff861: function(arg0, arg1) {
            const ret = arg0[arg1 >>> 0];
            return ret;
        },
        __wbg_instanceof_Number_81615f4d4e6f7707: function(arg0) {
            let result;
            try {
                result = arg0 instanceof Number;
            } catch (_) {
                result = false;
            }
            const ret = result;
            return ret;
        },
        __wbg_isArray_bcf1376d0d732d08: function(arg0) {
            const ret = Array.isArray(arg0);
            return ret;
        },
        __wbg_is_2248ff2b575d60c7: function(arg0, arg1) {
            const ret = Object.is(arg0, arg1);
            return ret;
        },
        __wbg_length_b03a0fabb109b1e9: function(arg0) {
            const ret = arg0.length;
            return ret;
        },
        __wbg_new_04b37a3a4d55f31d: function(arg0, arg1) {
            const ret = new SyntaxError(getStringFromWasm0(arg0, arg1));
            return ret;
        },
        __wbg_new_37eb45aaf5eeb820: function() {
            const ret = new Array();
            return ret;
        },
        __wbg_new_4416a2fe2fac9c65: function(arg0, arg1) {
            const ret = new TypeError(getStringFromWasm0(arg0, arg1));
            return ret;
        },
        __wbg_new_787b9fb330d55d78: function(arg0, arg1) {
            const ret = new Error(getStringFromWasm0(arg0, arg1));
            return ret;
        },
        __wbg_new_ac231c0bf4d6ca13: function(arg0) {
            const ret = new Number(arg0);
            return ret;
        },
        __wbg_new_cd4348290afae586: function() {
            const ret = new Object();
            return ret;
        },
        __wbg_now_463ac581d2fc7ea3: function() {
            const ret = Date.now();
            return ret;
        },
        __wbg_push_c9f4893fc209f768: function(arg0, arg1) {
            const ret = arg0.push(arg1);
            return ret;
        },
        __wbg_set_2793479888329cb6: function() { return handleError(function (arg0, arg1, arg2) {
            const ret = Reflect.set(arg0, arg1, arg2);
            return ret;
        }, arguments); },
        __wbg_set_name_822e3903f3184979: function(arg0, arg1, arg2) {
            arg0.name = getStringFromWasm0(arg1, arg2);
        },
        __wbg_static_accessor_GLOBAL_THIS_003ee833af9699fc: function() {
            const ret = typeof globalThis === 'undefined' ? undefined : globalThis;
            return isLikeNone(ret) ? 0 : addToExternrefTable0(ret);
        },
        __wbg_static_accessor_GLOBAL_e4293fb22cbe77da: function() {
            const ret = typeof global === 'undefined' ? undefined : global;
            return isLikeNone(ret) ? 0 : addToExternrefTable0(ret);
        },
        __wbg_static_accessor_SELF_53bb20457401453d: function() {
            const ret = typeof self === 'undefined' ? undefined : self;
            return isLikeNone(ret) ? 0 : addToExternrefTable0(ret);
        },
        __wbg_static_accessor_WINDOW_b5e0810bfecb7feb: function() {
            const ret = typeof window === 'undefined' ? undefined : window;
            return isLikeNone(ret) ? 0 : addToExternrefTable0(ret);
        },
        __wbg_toString_ac62c4a5cb3e62c7: function() { return handleError(function (arg0, arg1) {
            const ret = arg0.toString(arg1);
            return ret;
        }, arguments); },
        __wbg_valueOf_6db341d77a0b1da4: function(arg0) {
            const ret = arg0.valueOf();
            return ret;
        },
        __wbindgen_generic_0000000000000001: function(arg0) {
            // Cast intrinsic for `F64 -> Externref`.
            const ret = arg0;
            return ret;
        },
        __wbindgen_generic_0000000000000002: function(arg0) {
            // Cast intrinsic for `I64 -> Externref`.
            const ret = arg0;
            return ret;
        },
        __wbindgen_generic_0000000000000003: function(arg0, arg1) {
            // Cast intrinsic for `Ref(String) -> Externref`.
            const ret = getStringFromWasm0(arg0, arg1);
            return ret;
        },
        __wbindgen_generic_0000000000000004: function(arg0) {
            // Cast intrinsic for `U64 -> Externref`.
            const ret = BigInt.asUintN(64, arg0);
            return ret;
        },
        __wbindgen_init_externref_table: function() {
            const table = wasm.__wbindgen_externrefs;
            table.set(0, undefined);
            table.set(1024, undefined);
            table.set(1025, null);
            table.set(1026, true);
            table.set(1027, false);
        },
    };
    return {
        __proto__: null,
        "./reversis_wasm_bg.js": import0,
    };
}

const GameFinalization = (typeof FinalizationRegistry === 'undefined')
    ? { register: () => {}, unregister: () => {} }
    : new FinalizationRegistry(ptr => wasm.__wbg_game_free(ptr, 1));
const RulesetFinalization = (typeof FinalizationRegistry === 'undefined')
    ? { register: () => {}, unregister: () => {} }
    : new FinalizationRegistry(ptr => wasm.__wbg_ruleset_free(ptr, 1));

function addToExternrefTable0(obj) {
    const idx = wasm.__externref_table_alloc();
    wasm.__wbindgen_externrefs.set(idx, obj);
    return idx;
}

function _assertClass(instance, klass) {
    if (!(instance instanceof klass)) {
        throw new Error(`expected instance of ${klass.name}`);
    }
}

function getArrayI32FromWasm0(ptr, len) {
    ptr = ptr >>> 0;
    return getInt32ArrayMemory0().subarray(ptr / 4, ptr / 4 + len);
}

function getArrayJsValueFromWasm0(ptr, len) {
    ptr = ptr >>> 0;
    const mem = getDataViewMemory0();
    const result = [];
    for (let i = ptr; i < ptr + 4 * len; i += 4) {
        result.push(wasm.__wbindgen_externrefs.get(mem.getUint32(i, true)));
    }
    wasm.__externref_drop_slice(ptr, len);
    return result;
}

function getArrayU16FromWasm0(ptr, len) {
    ptr = ptr >>> 0;
    return getUint16ArrayMemory0().subarray(ptr / 2, ptr / 2 + len);
}

function getArrayU64FromWasm0(ptr, len) {
    ptr = ptr >>> 0;
    return getBigUint64ArrayMemory0().subarray(ptr / 8, ptr / 8 + len);
}

function getArrayU8FromWasm0(ptr, len) {
    ptr = ptr >>> 0;
    return getUint8ArrayMemory0().subarray(ptr / 1, ptr / 1 + len);
}

let cachedBigUint64ArrayMemory0 = null;
function getBigUint64ArrayMemory0() {
    if (cachedBigUint64ArrayMemory0 === null || cachedBigUint64ArrayMemory0.byteLength === 0) {
        cachedBigUint64ArrayMemory0 = new BigUint64Array(wasm.memory.buffer);
    }
    return cachedBigUint64ArrayMemory0;
}

let cachedDataViewMemory0 = null;
function getDataViewMemory0() {
    if (cachedDataViewMemory0 === null || cachedDataViewMemory0.buffer.detached === true || (cachedDataViewMemory0.buffer.detached === undefined && cachedDataViewMemory0.buffer !== wasm.memory.buffer)) {
        cachedDataViewMemory0 = new DataView(wasm.memory.buffer);
    }
    return cachedDataViewMemory0;
}

let cachedInt32ArrayMemory0 = null;
function getInt32ArrayMemory0() {
    if (cachedInt32ArrayMemory0 === null || cachedInt32ArrayMemory0.byteLength === 0) {
        cachedInt32ArrayMemory0 = new Int32Array(wasm.memory.buffer);
    }
    return cachedInt32ArrayMemory0;
}

function getStringFromWasm0(ptr, len) {
    ptr = ptr >>> 0;
    return decodeText(getUint8ArrayMemory0().subarray(ptr, ptr + len));
}

let cachedUint16ArrayMemory0 = null;
function getUint16ArrayMemory0() {
    if (cachedUint16ArrayMemory0 === null || cachedUint16ArrayMemory0.byteLength === 0) {
        cachedUint16ArrayMemory0 = new Uint16Array(wasm.memory.buffer);
    }
    return cachedUint16ArrayMemory0;
}

let cachedUint8ArrayMemory0 = null;
function getUint8ArrayMemory0() {
    if (cachedUint8ArrayMemory0 === null || cachedUint8ArrayMemory0.byteLength === 0) {
        cachedUint8ArrayMemory0 = new Uint8Array(wasm.memory.buffer);
    }
    return cachedUint8ArrayMemory0;
}

function handleError(f, args) {
    try {
        return f.apply(this, args);
    } catch (e) {
        const idx = addToExternrefTable0(e);
        wasm.__wbindgen_exn_store(idx);
    }
}

function isLikeNone(x) {
    return x === undefined || x === null;
}

function passArray8ToWasm0(arg, malloc) {
    const ptr = malloc(arg.length * 1, 1) >>> 0;
    getUint8ArrayMemory0().set(arg, ptr / 1);
    WASM_VECTOR_LEN = arg.length;
    return ptr;
}

function passStringToWasm0(arg, malloc, realloc) {
    if (realloc === undefined) {
        const buf = cachedTextEncoder.encode(arg);
        const ptr = malloc(buf.length, 1) >>> 0;
        getUint8ArrayMemory0().subarray(ptr, ptr + buf.length).set(buf);
        WASM_VECTOR_LEN = buf.length;
        return ptr;
    }

    let len = arg.length;
    let ptr = malloc(len, 1) >>> 0;

    const mem = getUint8ArrayMemory0();

    let offset = 0;

    for (; offset < len; offset++) {
        const code = arg.charCodeAt(offset);
        if (code > 0x7F) break;
        mem[ptr + offset] = code;
    }
    if (offset !== len) {
        if (offset !== 0) {
            arg = arg.slice(offset);
        }
        ptr = realloc(ptr, len, len = offset + arg.length * 3, 1) >>> 0;
        const view = getUint8ArrayMemory0().subarray(ptr + offset, ptr + len);
        const ret = cachedTextEncoder.encodeInto(arg, view);

        offset += ret.written;
        ptr = realloc(ptr, len, offset, 1) >>> 0;
    }

    WASM_VECTOR_LEN = offset;
    return ptr;
}

function takeFromExternrefTable0(idx) {
    const value = wasm.__wbindgen_externrefs.get(idx);
    wasm.__externref_table_dealloc(idx);
    return value;
}

let cachedTextDecoder = new TextDecoder('utf-8', { ignoreBOM: true });
cachedTextDecoder.decode();
const MAX_SAFARI_DECODE_BYTES = 2146435072;
let numBytesDecoded = 0;
function decodeText(bytes) {
    numBytesDecoded += bytes.length;
    if (numBytesDecoded >= MAX_SAFARI_DECODE_BYTES) {
        cachedTextDecoder = new TextDecoder('utf-8', { ignoreBOM: true });
        cachedTextDecoder.decode();
        numBytesDecoded = bytes.length;
    }
    return cachedTextDecoder.decode(bytes);
}

const cachedTextEncoder = new TextEncoder();

if (!('encodeInto' in cachedTextEncoder)) {
    cachedTextEncoder.encodeInto = function (arg, view) {
        const buf = cachedTextEncoder.encode(arg);
        view.set(buf);
        return {
            read: arg.length,
            written: buf.length
        };
    };
}

let WASM_VECTOR_LEN = 0;

let wasmModule, wasmInstance, wasm;
function __wbg_finalize_init(instance, module) {
    wasmInstance = instance;
    wasm = instance.exports;
    wasmModule = module;
    cachedBigUint64ArrayMemory0 = null;
    cachedDataViewMemory0 = null;
    cachedInt32ArrayMemory0 = null;
    cachedUint16ArrayMemory0 = null;
    cachedUint8ArrayMemory0 = null;
    wasm.__wbindgen_start();
    return wasm;
}

async function __wbg_load(module, imports) {
    if (typeof Response === 'function' && module instanceof Response) {
        if (!module.ok) {
            throw new Error(`failed to fetch Wasm: ${module.status} ${module.statusText} fetching '${module.url}'`);
        }

        if (typeof WebAssembly.instantiateStreaming === 'function') {
            try {
                return await WebAssembly.instantiateStreaming(module, imports);
            } catch (e) {
                const validResponse = expectedResponseType(module.type);

                if (validResponse && module.headers.get('Content-Type') !== 'application/wasm') {
                    console.warn("`WebAssembly.instantiateStreaming` failed because your server does not serve Wasm with `application/wasm` MIME type. Falling back to `WebAssembly.instantiate` which is slower. Original error:\n", e);

                } else { throw e; }
            }
        }

        const bytes = await module.arrayBuffer();
        return await WebAssembly.instantiate(bytes, imports);
    } else {
        const instance = await WebAssembly.instantiate(module, imports);

        if (instance instanceof WebAssembly.Instance) {
            return { instance, module };
        } else {
            return instance;
        }
    }

    function expectedResponseType(type) {
        switch (type) {
            case 'basic': case 'cors': case 'default': return true;
        }
        return false;
    }
}

function initSync(module) {
    if (wasm !== undefined) return wasm;


    if (module !== undefined) {
        if (Object.getPrototypeOf(module) === Object.prototype) {
            ({module} = module)
        } else {
            console.warn('using deprecated parameters for `initSync()`; pass a single object instead')
        }
    }

    const imports = __wbg_get_imports();
    if (!(module instanceof WebAssembly.Module)) {
        module = new WebAssembly.Module(module);
    }
    const instance = new WebAssembly.Instance(module, imports);
    return __wbg_finalize_init(instance, module);
}

let __wbg_init_promise;
async function __wbg_init(module_or_path) {
    if (wasm !== undefined) return wasm;
    if (__wbg_init_promise === undefined) {
        __wbg_init_promise = __wbg_init_once(module_or_path);
        __wbg_init_promise.catch(() => { __wbg_init_promise = undefined; });
    }
    return __wbg_init_promise;
}

async function __wbg_init_once(module_or_path) {

    if (module_or_path !== undefined) {
        if (Object.getPrototypeOf(module_or_path) === Object.prototype) {
            ({module_or_path} = module_or_path)
        } else {
            console.warn('using deprecated parameters for the initialization function; pass a single object instead')
        }
    }

    if (module_or_path === undefined) {
        module_or_path = new URL('reversis_wasm_bg.wasm', import.meta.url);
    }
    const imports = __wbg_get_imports();

    if (typeof module_or_path === 'string' || (typeof Request === 'function' && module_or_path instanceof Request) || (typeof URL === 'function' && module_or_path instanceof URL)) {
        module_or_path = fetch(module_or_path);
    }

    const { instance, module } = await __wbg_load(await module_or_path, imports);

    return __wbg_finalize_init(instance, module);
}

export { initSync, __wbg_init as default };
