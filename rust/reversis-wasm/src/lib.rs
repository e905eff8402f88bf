//! The wasm-bindgen binding of `reversis-core` and `reversis-players`: the WebAssembly module
//! under the JavaScript package (`js/`).
//!
//! As thin as the PyO3 binding: each export converts its arguments, calls the core or the
//! players, and converts the result. JavaScript values cross as JSON data ([`from_js`],
//! [`to_js`]), with integers kept exact: an integer beyond `Number.MAX_SAFE_INTEGER` is a
//! `BigInt` both ways. A core error is thrown as an `Error` whose `name` is
//! `InvalidInputError` or `IllegalActionError` and whose `code` is the spec's error code
//! (spec/errors.md); the package turns it into its typed errors.
#![forbid(unsafe_code)]

use std::sync::Arc;
use std::time::Duration;

use js_sys::{Array, BigInt, Object, Reflect};
use reversis_core as core;
use reversis_core::{ErrorCode, MoonChoice};
use reversis_players as players;
use serde_json::{Map, Number, Value};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

mod facts;
mod learned;

/// The largest integer a JavaScript number holds exactly (`Number.MAX_SAFE_INTEGER`).
const MAX_SAFE: f64 = 9_007_199_254_740_991.0;
/// How deeply JSON data handed in from JavaScript may nest (as in the PyO3 binding).
const MAX_DEPTH: usize = 128;

// The limits of ERR-6 are the core's (one table, `core::LIMITS`).
use reversis_core::{
    MAX_DEALS, MAX_DRAWS, MAX_PLAYOUTS, MAX_ROLLOUTS, MAX_SAMPLES, MAX_SIMULATE_HANDS,
};
/// The longest one `searchPlay` decision may take, in milliseconds, as the float it is compared with.
const MAX_SEARCH_MS: f64 = reversis_core::MAX_SEARCH_MS as f64;

fn to_js_err(error: core::Error) -> JsValue {
    let class = if error.code().is_input_error() {
        "InvalidInputError"
    } else {
        "IllegalActionError"
    };
    let thrown = js_sys::Error::new(error.message());
    thrown.set_name(class);
    // Setting a property of a fresh Error cannot fail.
    let _ = Reflect::set(&thrown, &"code".into(), &error.code().as_str().into());
    thrown.into()
}

fn fail<T>(code: ErrorCode, message: String) -> Result<T, JsValue> {
    Err(to_js_err(core::Error::new(code, message)))
}

fn core_result<T>(result: Result<T, core::Error>) -> Result<T, JsValue> {
    result.map_err(to_js_err)
}

/// A value quoted for a message, cut to 200 characters.
fn describe(value: &Value) -> String {
    let mut shown = value.to_string();
    if shown.len() > 200 {
        let mut end = 200;
        while !shown.is_char_boundary(end) {
            end -= 1;
        }
        shown.truncate(end);
        shown.push_str("...");
    }
    shown
}

/// A JavaScript value quoted for a message: its JSON form, or `null` where it has none.
fn shown(value: &JsValue) -> String {
    describe(&value_of(value, 0).unwrap_or(Value::Null))
}

/// A 128-bit count or mask as a `BigInt`.
fn big(value: u128) -> JsValue {
    let low = BigInt::from(value as u64);
    let high = BigInt::from((value >> 64) as u64);
    (high << BigInt::from(64u32) | low).into()
}

/// Converts a JavaScript value into JSON data: `null` and `undefined`, booleans, finite numbers
/// (integral ones within the safe range as integers), `BigInt`s of 64 bits, strings, arrays and
/// plain objects, nested at most [`MAX_DEPTH`] deep. Anything else (NaN, infinities, functions,
/// symbols, larger `BigInt`s) is an error, never silently changed.
fn value_of(value: &JsValue, depth: usize) -> Result<Value, String> {
    if depth > MAX_DEPTH {
        return Err(format!("nested more than {MAX_DEPTH} deep"));
    }
    if value.is_null() || value.is_undefined() {
        return Ok(Value::Null);
    }
    if let Some(flag) = value.as_bool() {
        return Ok(Value::Bool(flag));
    }
    if let Some(number) = value.as_f64() {
        if !number.is_finite() {
            return Err(format!("{number} is not a JSON number"));
        }
        if number.fract() == 0.0 && number.abs() <= MAX_SAFE {
            // Exact: the number is an integer of at most 53 bits.
            return Ok(Value::Number(Number::from(number as i64)));
        }
        return Ok(Number::from_f64(number).map_or(Value::Null, Value::Number));
    }
    if value.is_instance_of::<js_sys::Number>() {
        // A Number object is how [`to_js`] hands out a whole number written with a fraction or
        // an exponent (`4.0`): it comes back as that float, never as the integer 4 (ERR-6).
        let number = value.unchecked_ref::<js_sys::Number>().value_of();
        return match Number::from_f64(number) {
            Some(float) => Ok(Value::Number(float)),
            None => Err(format!("{number} is not a JSON number")),
        };
    }
    if value.is_bigint() {
        let text: String = BigInt::from(value.clone())
            .to_string(10)
            .map(String::from)
            .unwrap_or_default();
        if let Ok(unsigned) = text.parse::<u64>() {
            return Ok(Value::Number(unsigned.into()));
        }
        if let Ok(signed) = text.parse::<i64>() {
            return Ok(Value::Number(signed.into()));
        }
        return Err(format!("the integer {text} has more than 64 bits"));
    }
    if let Some(text) = value.as_string() {
        return Ok(Value::String(text));
    }
    if Array::is_array(value) {
        let array: &Array = value.unchecked_ref();
        let mut items = Vec::with_capacity(array.length() as usize);
        for item in array.iter() {
            items.push(value_of(&item, depth + 1)?);
        }
        return Ok(Value::Array(items));
    }
    if value.is_object() && !value.is_function() {
        let object: &Object = value.unchecked_ref();
        let prototype = Object::get_prototype_of(object);
        let plain = prototype.is_null() || prototype == Object::get_prototype_of(&Object::new());
        if plain {
            let mut map = Map::new();
            for entry in Object::entries(object).iter() {
                let pair: Array = entry.unchecked_into();
                let key = pair.get(0).as_string().unwrap_or_default();
                map.insert(key, value_of(&pair.get(1), depth + 1)?);
            }
            return Ok(Value::Object(map));
        }
    }
    let kind = value.js_typeof().as_string().unwrap_or_default();
    Err(format!("a value of type {kind} is not JSON data"))
}

/// JSON data from JavaScript, else an error of `code` naming `what`.
fn json_arg(value: &JsValue, code: ErrorCode, what: &str) -> Result<Value, JsValue> {
    value_of(value, 0).or_else(|error| fail(code, format!("{what} is not JSON data: {error}")))
}

/// JSON data as a JavaScript value: plain objects and arrays; integers beyond the safe range as
/// `BigInt`s; a float with a whole value as a `Number` object, so that it stays a float.
fn to_js(value: &Value) -> JsValue {
    match value {
        Value::Null => JsValue::NULL,
        Value::Bool(flag) => JsValue::from_bool(*flag),
        Value::Number(number) => {
            if let Some(unsigned) = number.as_u64() {
                if unsigned as f64 <= MAX_SAFE {
                    JsValue::from_f64(unsigned as f64)
                } else {
                    BigInt::from(unsigned).into()
                }
            } else if let Some(signed) = number.as_i64() {
                if (signed as f64).abs() <= MAX_SAFE {
                    JsValue::from_f64(signed as f64)
                } else {
                    BigInt::from(signed).into()
                }
            } else {
                let float = number.as_f64().unwrap_or(f64::NAN);
                if float.fract() == 0.0 {
                    // A whole float (`4.0`, `-0.0`) as a primitive would read back as an
                    // integer; a Number object keeps it a float (see `value_of`).
                    boxed_number(float)
                } else {
                    JsValue::from_f64(float)
                }
            }
        }
        Value::String(text) => JsValue::from_str(text),
        Value::Array(items) => items.iter().map(to_js).collect::<Array>().into(),
        Value::Object(map) => {
            let object = Object::new();
            for (key, item) in map {
                let key = JsValue::from_str(key);
                if key == "__proto__" {
                    // Assigning `__proto__` would set the object's prototype and drop the key;
                    // JSON data keeps it as an ordinary property.
                    let descriptor = Object::new();
                    let _ = Reflect::set(&descriptor, &"value".into(), &to_js(item));
                    for flag in ["writable", "enumerable", "configurable"] {
                        let _ = Reflect::set(&descriptor, &flag.into(), &JsValue::TRUE);
                    }
                    Object::define_property(&object, &key, &descriptor);
                } else {
                    // Setting a property of a fresh plain object cannot fail.
                    let _ = Reflect::set(&object, &key, &to_js(item));
                }
            }
            object.into()
        }
    }
}

/// `new Number(value)`: a Number object, not the primitive that `Number::from` gives.
#[allow(deprecated)]
fn boxed_number(value: f64) -> JsValue {
    js_sys::Number::new(&JsValue::from_f64(value)).into()
}

fn strings(cards: impl IntoIterator<Item = core::Card>) -> JsValue {
    let names: Vec<String> = cards.into_iter().map(|c| c.to_string()).collect();
    to_js(&Value::from(names))
}

/// An integer in `0..=u64::MAX`, else `code` naming `what`.
fn unsigned_arg(value: &JsValue, code: ErrorCode, what: &str) -> Result<u64, JsValue> {
    let data = json_arg(value, code, what)?;
    core_result(core::input::unsigned(Some(&data), code, what, || {
        describe(&data)
    }))
}

/// An optional integer in `0..=u64::MAX`: `null` and `undefined` are `None`.
fn optional_unsigned(value: &JsValue, code: ErrorCode, what: &str) -> Result<Option<u64>, JsValue> {
    if value.is_null() || value.is_undefined() {
        return Ok(None);
    }
    unsigned_arg(value, code, what).map(Some)
}

/// An integer in `low..=high`, else `invalid-setup` naming it.
fn count_arg(value: &JsValue, what: &str, low: u64, high: u64) -> Result<usize, JsValue> {
    let data = json_arg(value, ErrorCode::InvalidSetup, what)?;
    core_result(core::input::count(Some(&data), what, low, high, || {
        describe(&data)
    }))
}

/// The depth and unit of `perft` and `divide` (PERFT-5): an integer depth from 0 to the
/// core's bound, and `"decisions"` (also for `null` and `undefined`) or `"tricks"`; anything
/// else is `invalid-setup`.
fn perft_args(depth: &JsValue, unit: &JsValue) -> Result<(u64, core::PerftUnit), JsValue> {
    let name = if unit.is_undefined() {
        Some(Value::Null)
    } else {
        unit.as_string()
            .map(Value::String)
            .or(unit.is_null().then_some(Value::Null))
    };
    let unit = core_result(core::input::perft_unit(name.as_ref(), || shown(unit)))?;
    let data = json_arg(depth, ErrorCode::InvalidSetup, "the depth")?;
    let depth = core_result(core::input::perft_depth(Some(&data), || describe(&data)))?;
    Ok((depth, unit))
}

/// A seat argument: `null`/`undefined` (the default seat) or an integer in `0..=u64::MAX`
/// (ERR-6), else `invalid-action`. Whether it is a seat of the table is the core's check.
fn seat_opt(seat: &JsValue) -> Result<Option<usize>, JsValue> {
    let data = json_arg(seat, ErrorCode::InvalidAction, "a seat")?;
    core_result(core::input::seat(Some(&data), || describe(&data)))
}

/// A seat of a table of `players`, else `invalid-action`.
fn seat_index(seat: &JsValue, players: usize) -> Result<usize, JsValue> {
    let data = json_arg(seat, ErrorCode::InvalidAction, "a seat")?;
    core_result(core::input::seat_of(Some(&data), players, || {
        describe(&data)
    }))
}

fn card_arg(value: &JsValue) -> Result<core::Card, JsValue> {
    let text = value.as_string().map(Value::String);
    core_result(core::input::card(text.as_ref(), || shown(value)))
}

/// An action id: an integer in `0..NUM_ACTIONS`, else `invalid-action`.
fn action_id_arg(value: &JsValue) -> Result<u16, JsValue> {
    let data = json_arg(value, ErrorCode::InvalidAction, "an action id")?;
    core_result(core::input::action_id(Some(&data), || describe(&data)))
}

fn moon_choice_arg(choice: &JsValue) -> Result<MoonChoice, JsValue> {
    let name = choice.as_string().map(Value::String);
    core_result(core::input::moon_choice(name.as_ref(), || shown(choice)))
}

fn action_arg(action: &JsValue) -> Result<core::Action, JsValue> {
    let value = json_arg(action, ErrorCode::InvalidAction, "an action")?;
    core_result(core::Action::from_value(&value))
}

fn scores_arg(scores: &JsValue) -> Result<Option<Vec<i64>>, JsValue> {
    if scores.is_null() || scores.is_undefined() {
        return Ok(None);
    }
    let data = json_arg(scores, ErrorCode::InvalidSetup, "scores")?;
    core_result(core::input::integers(
        Some(&data),
        "scores must be an array of integers",
        || describe(&data),
    ))
    .map(Some)
}

/// One variant of the Hearts family: an immutable, validated ruleset (API-2).
#[wasm_bindgen(js_name = Ruleset)]
pub struct WasmRuleset {
    inner: Arc<core::Ruleset>,
}

#[wasm_bindgen(js_class = Ruleset)]
impl WasmRuleset {
    /// Builds a ruleset from its JSON object, or from JSON text (RS-13).
    #[wasm_bindgen(js_name = fromJson)]
    pub fn from_json(data: &JsValue) -> Result<WasmRuleset, JsValue> {
        let parsed = match data.as_string() {
            Some(text) => core::Ruleset::from_json_str(&text),
            None => {
                core::Ruleset::from_value(&json_arg(data, ErrorCode::InvalidRuleset, "a ruleset")?)
            }
        };
        Ok(WasmRuleset {
            inner: Arc::new(core_result(parsed)?),
        })
    }

    /// The ruleset as the canonical JSON object of spec/ruleset.md (RS-16).
    #[wasm_bindgen(js_name = toJson)]
    pub fn to_json(&self) -> JsValue {
        to_js(&self.inner.to_value())
    }

    /// The value of the field `name` of `rulesetFields()` in the canonical object, or its
    /// default where left out (RS-19); undefined for a name that is not a field. The JavaScript
    /// `Ruleset` reads every field without a getter of its own through this.
    pub fn field(&self, name: &str) -> JsValue {
        self.inner
            .field(name)
            .map_or(JsValue::UNDEFINED, |value| to_js(&value))
    }

    /// A new, validated ruleset with the fields of the object `fields` changed (API-2).
    pub fn replace(&self, fields: &JsValue) -> Result<WasmRuleset, JsValue> {
        let fields = json_arg(fields, ErrorCode::InvalidRuleset, "the fields")?;
        let Value::Object(map) = fields else {
            return fail(
                ErrorCode::InvalidRuleset,
                format!("the fields are an object, not {}", describe(&fields)),
            );
        };
        Ok(WasmRuleset {
            inner: Arc::new(core_result(self.inner.replace(&map))?),
        })
    }

    /// The ruleset's name.
    #[wasm_bindgen(getter)]
    pub fn name(&self) -> String {
        self.inner.name().to_owned()
    }

    /// The number of seats.
    #[wasm_bindgen(getter)]
    pub fn players(&self) -> usize {
        self.inner.players()
    }

    /// The cards of the deck, sorted (RS-4).
    #[wasm_bindgen(getter)]
    pub fn deck(&self) -> JsValue {
        to_js(&Value::from(self.inner.deck_cards().to_strings()))
    }

    /// The cards each seat is dealt (DEAL-1).
    #[wasm_bindgen(getter, js_name = handSize)]
    pub fn hand_size(&self) -> usize {
        self.inner.hand_size()
    }

    /// The cards worth points, sorted (SCORE-1).
    #[wasm_bindgen(getter, js_name = pointCards)]
    pub fn point_cards(&self) -> JsValue {
        to_js(&Value::from(self.inner.point_cards().to_strings()))
    }

    /// Whether two rulesets are the same variant (their canonical objects are equal).
    pub fn equals(&self, other: &WasmRuleset) -> bool {
        self.inner == other.inner
    }
}

/// The phases by [`WasmGame::phase_index`].
#[wasm_bindgen]
pub fn phases() -> Vec<String> {
    ["deal", "pass", "play", "moon", "over"]
        .iter()
        .map(|&name| name.to_owned())
        .collect()
}

thread_local! {
    /// Where [`WasmGame::legal_ids_to_scratch`] writes: one buffer for the module, which runs on
    /// one thread, large enough for every action id.
    static LEGAL_IDS: std::cell::RefCell<[u8; core::NUM_ACTIONS as usize]> =
        const { std::cell::RefCell::new([0; core::NUM_ACTIONS as usize]) };
}

/// The address in the module's memory of the buffer [`WasmGame::legal_ids_to_scratch`] fills;
/// it never moves (a view of the memory must be made anew when the memory grows).
#[wasm_bindgen(js_name = legalIdsScratch)]
pub fn legal_ids_scratch() -> usize {
    LEGAL_IDS.with(|ids| ids.as_ptr() as usize)
}

/// A game of one ruleset: a match of hands, with its history (spec/api.md).
#[wasm_bindgen(js_name = Game)]
pub struct WasmGame {
    inner: core::Game,
}

#[wasm_bindgen(js_class = Game)]
impl WasmGame {
    /// A new game (API-3): `seed` an integer or `null` (unseeded), `handNumber` and `scores`
    /// `null` for their defaults.
    #[wasm_bindgen(constructor)]
    pub fn new(
        ruleset: &WasmRuleset,
        seed: &JsValue,
        hand_number: &JsValue,
        scores: &JsValue,
    ) -> Result<WasmGame, JsValue> {
        let seed = optional_unsigned(seed, ErrorCode::InvalidSetup, "a seed")?;
        let hand_number = optional_unsigned(hand_number, ErrorCode::InvalidSetup, "a hand number")?;
        let scores = scores_arg(scores)?;
        let game = core::Game::new(
            ruleset.inner.clone(),
            seed,
            hand_number.unwrap_or(0),
            scores,
        );
        Ok(WasmGame {
            inner: core_result(game)?,
        })
    }

    /// Rebuilds a game from its record by replaying it (REC-2).
    #[wasm_bindgen(js_name = fromRecord)]
    pub fn from_record(record: &JsValue) -> Result<WasmGame, JsValue> {
        let record = json_arg(record, ErrorCode::InvalidRecord, "a record")?;
        Ok(WasmGame {
            inner: core_result(core::Game::from_record(&record))?,
        })
    }

    /// The game's ruleset.
    #[wasm_bindgen(getter)]
    pub fn ruleset(&self) -> WasmRuleset {
        WasmRuleset {
            inner: self.inner.ruleset().clone(),
        }
    }

    /// The seed, or `null` for an unseeded game.
    #[wasm_bindgen(getter)]
    pub fn seed(&self) -> JsValue {
        self.inner
            .seed()
            .map_or(JsValue::NULL, |seed| to_js(&Value::from(seed)))
    }

    /// The phase as its index in [`PHASES`]: a per-step loop reads it every decision, and a
    /// number crosses to JavaScript without the string decoding a name would cost.
    #[wasm_bindgen(getter, js_name = phaseIndex)]
    pub fn phase_index(&self) -> u8 {
        match self.inner.phase() {
            core::Phase::Deal => 0,
            core::Phase::Pass => 1,
            core::Phase::Play => 2,
            core::Phase::Moon => 3,
            core::Phase::Over => 4,
        }
    }

    /// The number of the current (or coming) hand.
    #[wasm_bindgen(getter, js_name = handNumber)]
    pub fn hand_number(&self) -> JsValue {
        to_js(&Value::from(self.inner.hand_number()))
    }

    /// The dealer of the hand (DEAL-2).
    #[wasm_bindgen(getter)]
    pub fn dealer(&self) -> usize {
        self.inner.dealer()
    }

    /// The hand's pass direction, or `null` where the ruleset has no passing.
    #[wasm_bindgen(getter, js_name = passDirection)]
    pub fn pass_direction(&self) -> Option<String> {
        self.inner
            .pass_direction()
            .map(|direction| direction.as_str().to_owned())
    }

    /// The seat to play, or `null`.
    #[wasm_bindgen(getter, js_name = toMove)]
    pub fn to_move(&self) -> Option<usize> {
        self.inner.to_move()
    }

    /// The seat whose decision the game awaits (ACT-3), or `null`.
    #[wasm_bindgen(getter, js_name = toAct)]
    pub fn to_act(&self) -> Option<usize> {
        self.inner.to_act()
    }

    /// The seats that have not passed yet, ascending.
    #[wasm_bindgen(getter, js_name = awaitingPass)]
    pub fn awaiting_pass(&self) -> JsValue {
        to_js(&Value::from(self.inner.awaiting_pass()))
    }

    /// The trick in progress: `{seat, card}` in the order played.
    #[wasm_bindgen(getter)]
    pub fn trick(&self) -> JsValue {
        let plays: Vec<Value> = self
            .inner
            .trick()
            .iter()
            .map(|&(seat, card)| serde_json::json!({"seat": seat, "card": card.to_string()}))
            .collect();
        to_js(&Value::Array(plays))
    }

    /// The hand's completed tricks, oldest first (TRICK-1).
    #[wasm_bindgen(getter, js_name = tricksPlayed)]
    pub fn tricks_played(&self) -> JsValue {
        to_js(&self.inner.tricks_json())
    }

    /// Whether hearts are broken (PLAY-6).
    #[wasm_bindgen(getter, js_name = heartsBroken)]
    pub fn hearts_broken(&self) -> bool {
        self.inner.hearts_broken()
    }

    /// Whether the hand is a count-down hand (MATCH-5).
    #[wasm_bindgen(getter, js_name = countDown)]
    pub fn count_down(&self) -> bool {
        self.inner.count_down()
    }

    /// Per seat, the points captured in the hand so far (SCORE-1).
    #[wasm_bindgen(getter)]
    pub fn points(&self) -> JsValue {
        to_js(&Value::from(self.inner.points().to_vec()))
    }

    /// Per seat, the match totals (SCORE-4).
    #[wasm_bindgen(getter)]
    pub fn scores(&self) -> JsValue {
        to_js(&Value::from(self.inner.scores().to_vec()))
    }

    /// Per scored hand, the scores added to the totals.
    #[wasm_bindgen(getter, js_name = handScores)]
    pub fn hand_scores(&self) -> JsValue {
        to_js(&Value::from(self.inner.hand_scores()))
    }

    /// The seat that took every point card, in phase `moon`; else `null`.
    #[wasm_bindgen(getter, js_name = moonTaker)]
    pub fn moon_taker(&self) -> Option<usize> {
        self.inner.moon_taker()
    }

    /// The seats with the lowest total once the match is over (MATCH-3).
    #[wasm_bindgen(getter)]
    pub fn winners(&self) -> JsValue {
        to_js(&Value::from(self.inner.winners()))
    }

    /// Every accepted action, in order (ACT-1 objects).
    #[wasm_bindgen(getter)]
    pub fn actions(&self) -> JsValue {
        self.inner
            .actions()
            .iter()
            .map(|action| to_js(&action.to_value()))
            .collect::<Array>()
            .into()
    }

    /// The number of accepted actions.
    #[wasm_bindgen(getter, js_name = actionCount)]
    pub fn action_count(&self) -> usize {
        self.inner.actions().len()
    }

    /// The events of the last accepted action (EVT-1).
    #[wasm_bindgen(getter)]
    pub fn events(&self) -> JsValue {
        to_js(&self.inner.events_json())
    }

    /// The most recently scored hand (EVT-2), or `null`.
    #[wasm_bindgen(getter, js_name = lastHand)]
    pub fn last_hand(&self) -> JsValue {
        to_js(&self.inner.last_hand_json())
    }

    /// The cards `seat` holds, sorted.
    pub fn hand(&self, seat: &JsValue) -> Result<JsValue, JsValue> {
        let seat = seat_index(seat, self.inner.ruleset().players())?;
        Ok(strings(core_result(self.inner.hand(seat))?))
    }

    /// The cards `seat` has selected toward its pass, in the order selected (ACT-2).
    pub fn selected(&self, seat: &JsValue) -> Result<JsValue, JsValue> {
        let seat = seat_index(seat, self.inner.ruleset().players())?;
        let cards = core_result(self.inner.selected(seat))?;
        Ok(to_js(&Value::from(
            cards.iter().map(ToString::to_string).collect::<Vec<_>>(),
        )))
    }

    /// The cards the seat to move may play, sorted (PLAY-8).
    #[wasm_bindgen(js_name = legalPlays)]
    pub fn legal_plays(&self) -> JsValue {
        strings(self.inner.legal_plays())
    }

    /// The legal action ids of `seat` (by default the acting seat), ascending (ACT-3).
    #[wasm_bindgen(js_name = legalActions)]
    pub fn legal_actions(&self, seat: &JsValue) -> Result<Vec<u16>, JsValue> {
        let mut mask = core_result(self.inner.legal_mask(seat_opt(seat)?))?;
        let mut ids = Vec::with_capacity(mask.count_ones() as usize);
        while mask != 0 {
            ids.push(mask.trailing_zeros() as u16);
            mask &= mask - 1;
        }
        Ok(ids)
    }

    /// The acting seat's legal action ids, ascending, written to the [`legal_ids_scratch`]
    /// buffer; returns how many there are. The per-step loop's form of `legalActions`: no
    /// allocation on either side of the boundary.
    #[wasm_bindgen(js_name = legalIdsToScratch)]
    pub fn legal_ids_to_scratch(&self) -> Result<usize, JsValue> {
        let mut mask = core_result(self.inner.legal_mask(None))?;
        LEGAL_IDS.with(|ids| {
            let mut ids = ids.borrow_mut();
            let mut count = 0;
            while mask != 0 {
                ids[count] = mask.trailing_zeros() as u8;
                count += 1;
                mask &= mask - 1;
            }
            Ok(count)
        })
    }

    /// Applies action id `actionId` for the acting seat: `applyAction` for an id the package has
    /// already checked is an integer below `NUM_ACTIONS`, without converting a JavaScript value.
    #[wasm_bindgen(js_name = applyActionId)]
    pub fn apply_action_id(&mut self, action_id: u8) -> Result<(), JsValue> {
        core_result(self.inner.apply_action(u16::from(action_id), None))
    }

    /// The legal action ids of `seat` as a `BigInt` bit mask: bit `i` for legal id `i`.
    #[wasm_bindgen(js_name = legalMask)]
    pub fn legal_mask(&self, seat: &JsValue) -> Result<JsValue, JsValue> {
        Ok(big(core_result(self.inner.legal_mask(seat_opt(seat)?))?))
    }

    /// Applies an action of ACT-1, or throws and changes nothing.
    pub fn apply(&mut self, action: &JsValue) -> Result<(), JsValue> {
        let action = action_arg(action)?;
        core_result(self.inner.apply(&action))
    }

    /// Applies action id `actionId` (ACT-2) for `seat`, by default the acting seat (ACT-3).
    #[wasm_bindgen(js_name = applyAction)]
    pub fn apply_action(&mut self, action_id: &JsValue, seat: &JsValue) -> Result<(), JsValue> {
        let id = action_id_arg(action_id)?;
        let seat = seat_opt(seat)?;
        core_result(self.inner.apply_action(id, seat))
    }

    /// Deals `hands`; with `null`, a deal from the seed (`no-seed` in phase `deal`).
    pub fn deal(&mut self, hands: &JsValue) -> Result<(), JsValue> {
        let hands = if hands.is_null() || hands.is_undefined() {
            None
        } else {
            let value = json_arg(hands, ErrorCode::InvalidAction, "a deal's hands")?;
            Some(core_result(core::Action::hands_from_value(&value))?)
        };
        core_result(self.inner.deal(hands))
    }

    /// Submits the pass of `seat`, by default the acting seat (PASS-2).
    #[wasm_bindgen(js_name = passCards)]
    pub fn pass_cards(&mut self, cards: &JsValue, seat: &JsValue) -> Result<(), JsValue> {
        let seat = seat_opt(seat)?;
        let value = json_arg(cards, ErrorCode::InvalidAction, "a pass's cards")?;
        let cards = core_result(core::Action::cards_from_value(&value))?;
        core_result(self.inner.pass_cards(cards, seat))
    }

    /// Plays `card` for `seat`, by default the seat to move.
    pub fn play(&mut self, card: &JsValue, seat: &JsValue) -> Result<(), JsValue> {
        let seat = seat_opt(seat)?;
        let card = card_arg(card)?;
        core_result(self.inner.play(card, seat))
    }

    /// Chooses how the moon scores for `seat`, by default the taker (SCORE-3).
    #[wasm_bindgen(js_name = chooseMoon)]
    pub fn choose_moon(&mut self, choice: &JsValue, seat: &JsValue) -> Result<(), JsValue> {
        let seat = seat_opt(seat)?;
        let choice = moon_choice_arg(choice)?;
        core_result(self.inner.choose_moon(choice, seat))
    }

    /// Takes back the last accepted action with everything it set off (API-8).
    pub fn undo(&mut self) -> Result<(), JsValue> {
        core_result(self.inner.undo())
    }

    /// Perft (PERFT-2, PERFT-3): the legal sequences of `depth` decisions from the position,
    /// or, with `unit` `"tricks"`, of decisions until `depth` more tricks are complete; a
    /// `BigInt` beyond the safe integers.
    pub fn perft(&self, depth: &JsValue, unit: &JsValue) -> Result<JsValue, JsValue> {
        let (depth, unit) = perft_args(depth, unit)?;
        let count = core_result(self.inner.perft(depth, unit))?;
        Ok(to_js(&Value::from(count)))
    }

    /// Divide (PERFT-4): an object from each decision's key to the sequences `perft` counts that
    /// begin with it, its keys in the order of the decisions.
    pub fn divide(&self, depth: &JsValue, unit: &JsValue) -> Result<JsValue, JsValue> {
        let (depth, unit) = perft_args(depth, unit)?;
        let counts = core_result(self.inner.divide(depth, unit))?;
        let out = Object::new();
        for (key, count) in counts {
            // Setting a property of a fresh plain object cannot fail.
            let _ = Reflect::set(&out, &key.into(), &to_js(&Value::from(count)));
        }
        Ok(out.into())
    }

    /// What `seat` may know, and nothing else (OBS-1).
    pub fn observation(&self, seat: &JsValue) -> Result<JsValue, JsValue> {
        let seat = seat_index(seat, self.inner.ruleset().players())?;
        Ok(to_js(&core_result(self.inner.observation(seat))?))
    }

    /// The OBS-3 encoding of `seat`'s observation (OBS-1) by the core's encoder: 1435 integers.
    #[wasm_bindgen(js_name = observationTensor)]
    pub fn observation_tensor(&self, seat: &JsValue) -> Result<Vec<i32>, JsValue> {
        let seat = seat_index(seat, self.inner.ruleset().players())?;
        let mut out = vec![0; core::ENCODING_LENGTH];
        core_result(core::encode_observation(&self.inner, seat, &mut out))?;
        Ok(out)
    }

    /// The position as JSON data (API-9).
    pub fn state(&self) -> JsValue {
        to_js(&self.inner.state_json())
    }

    /// The game record of REC-1.
    #[wasm_bindgen(js_name = toRecord)]
    pub fn to_record(&self) -> JsValue {
        to_js(&self.inner.to_record())
    }

    /// An independent copy of this game, undo history included.
    pub fn copy(&self) -> WasmGame {
        WasmGame {
            inner: self.inner.clone(),
        }
    }

    /// Whether two games are in the same position (API-9).
    pub fn equals(&self, other: &WasmGame) -> bool {
        self.inner == other.inner
    }
}

/// The input limits of ERR-6, by name (the core's table).
#[wasm_bindgen]
pub fn limits() -> JsValue {
    let table: Map<String, Value> = core::LIMITS
        .iter()
        .map(|&(name, value)| (name.to_owned(), Value::from(value)))
        .collect();
    to_js(&Value::Object(table))
}

/// The fields of a ruleset object (spec/ruleset.md), in the core's order.
#[wasm_bindgen(js_name = rulesetFields)]
pub fn ruleset_fields() -> Vec<String> {
    core::RULESET_FIELDS.iter().map(|&f| f.to_owned()).collect()
}

/// The fields a ruleset object may leave out (RS-19).
#[wasm_bindgen(js_name = rulesetOptionalFields)]
pub fn ruleset_optional_fields() -> Vec<String> {
    core::RULESET_OPTIONAL_FIELDS
        .iter()
        .map(|&f| f.to_owned())
        .collect()
}

/// The table of the ruleset fields (the core's, generated from the schema): one object per
/// field with its name, clause, JSON type, kind, values, bounds, optional, nullable, default.
#[wasm_bindgen(js_name = rulesetFieldTable)]
pub fn ruleset_field_table() -> JsValue {
    to_js(&core::ruleset_field_table())
}

/// The number of action ids (ACT-2).
#[wasm_bindgen(js_name = numActions)]
pub fn num_actions() -> u16 {
    core::NUM_ACTIONS
}

/// The error codes of spec/errors.md, in order.
#[wasm_bindgen(js_name = errorCodes)]
pub fn error_codes() -> Vec<String> {
    ErrorCode::ALL
        .iter()
        .map(|code| code.as_str().to_owned())
        .collect()
}

/// Whether `code` names an error of bad input (`InvalidInputError`) rather than an illegal
/// action (ERR-1).
#[wasm_bindgen(js_name = isInputError)]
pub fn is_input_error(code: &str) -> bool {
    ErrorCode::ALL
        .iter()
        .any(|known| known.as_str() == code && known.is_input_error())
}

/// The version of spec/ this core implements.
#[wasm_bindgen(js_name = specVersion)]
pub fn spec_version() -> String {
    core::SPEC_VERSION.to_owned()
}

/// The package's version (the workspace's).
#[wasm_bindgen(js_name = version)]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_owned()
}

/// The built-in preset called `name` (API-2).
#[wasm_bindgen]
pub fn preset(name: &JsValue) -> Result<WasmRuleset, JsValue> {
    match name.as_string() {
        Some(text) => Ok(WasmRuleset {
            inner: core_result(core::preset(&text))?,
        }),
        None => fail(
            ErrorCode::UnknownPreset,
            format!("no preset named {}", shown(name)),
        ),
    }
}

/// The names of the built-in presets, sorted (API-2).
#[wasm_bindgen(js_name = presetNames)]
pub fn preset_names() -> Vec<String> {
    let mut names = core::preset_names();
    names.sort_unstable();
    names.into_iter().map(str::to_owned).collect()
}

/// The canonical string of a card written in any accepted form (CARD-4).
#[wasm_bindgen(js_name = parseCard)]
pub fn parse_card(text: &JsValue) -> Result<String, JsValue> {
    Ok(card_arg(text)?.to_string())
}

/// The id of CARD-2 for a card written in any accepted form.
#[wasm_bindgen(js_name = cardId)]
pub fn card_id(card: &JsValue) -> Result<u8, JsValue> {
    Ok(card_arg(card)?.id())
}

/// The ids that, applied in order for the action's seat, do what `action` does (API-10).
#[wasm_bindgen(js_name = actionIds)]
pub fn action_ids(action: &JsValue) -> Result<Vec<u16>, JsValue> {
    core_result(core::action_ids(&action_arg(action)?))
}

/// The ACT-1 action of `seat` made of `ids` (API-10).
#[wasm_bindgen(js_name = actionFromIds)]
pub fn action_from_ids(ids: &JsValue, seat: &JsValue) -> Result<JsValue, JsValue> {
    let seat = unsigned_arg(seat, ErrorCode::InvalidAction, "a seat")?;
    let seat = usize::try_from(seat).unwrap_or(usize::MAX);
    if !Array::is_array(ids) {
        return fail(
            ErrorCode::InvalidAction,
            format!(
                "action ids are a non-empty array of integers, not {}",
                shown(ids)
            ),
        );
    }
    let ids = Array::from(ids)
        .iter()
        .map(|id| action_id_arg(&id))
        .collect::<Result<Vec<u16>, JsValue>>()?;
    Ok(to_js(
        &core_result(core::action_from_ids(&ids, seat))?.to_value(),
    ))
}

/// A name of an action id for people: `play QS`, `pass QS`, `moon add-to-others` (API-10).
#[wasm_bindgen(js_name = actionLabel)]
pub fn action_label(action_id: &JsValue) -> Result<String, JsValue> {
    core_result(core::action_label(action_id_arg(action_id)?))
}

/// The first `deals` deals of a game seeded with `seed` starting at `handNumber` (SEED-5).
#[wasm_bindgen(js_name = dealFromSeed)]
pub fn deal_from_seed(
    ruleset: &WasmRuleset,
    seed: &JsValue,
    deals: &JsValue,
    hand_number: &JsValue,
) -> Result<JsValue, JsValue> {
    let seed = unsigned_arg(seed, ErrorCode::InvalidSetup, "a seed")?;
    let deals = if deals.is_undefined() {
        1
    } else {
        count_arg(deals, "a number of deals", 0, MAX_DEALS)?
    };
    let hand_number = if hand_number.is_undefined() {
        0
    } else {
        unsigned_arg(hand_number, ErrorCode::InvalidSetup, "a hand number")?
    };
    let dealt = core::deal_from_seed(&ruleset.inner, seed, deals, hand_number);
    let value: Vec<Vec<Vec<String>>> = dealt
        .into_iter()
        .map(|deal| deal.into_iter().map(|hand| hand.to_strings()).collect())
        .collect();
    Ok(to_js(&Value::from(
        value
            .into_iter()
            .map(|deal| Value::from(deal.into_iter().map(Value::from).collect::<Vec<_>>()))
            .collect::<Vec<_>>(),
    )))
}

/// The first `count` draws of SEED-1 from `seed`, as `BigInt`s.
#[wasm_bindgen(js_name = seedDraws)]
pub fn seed_draws(seed: &JsValue, count: &JsValue) -> Result<Vec<u64>, JsValue> {
    let seed = unsigned_arg(seed, ErrorCode::InvalidSetup, "a seed")?;
    let count = count_arg(count, "a number of draws", 0, MAX_DRAWS)?;
    Ok(core::seed_draws(seed, count))
}

/// Encodes a record as `"json"` or `"msgpack"` bytes (API-4).
#[wasm_bindgen(js_name = dumpRecord)]
pub fn dump_record(record: &JsValue, format: &JsValue) -> Result<Vec<u8>, JsValue> {
    // Only a missing format is the default: `null` is no format (API-4).
    let parsed = if format.is_undefined() {
        Some(core::RecordFormat::Json)
    } else {
        format
            .as_string()
            .and_then(|name| core::RecordFormat::from_name(&name))
    };
    let Some(parsed) = parsed else {
        return fail(
            ErrorCode::InvalidRecord,
            format!(
                "unknown record format {}; use 'json' or 'msgpack'",
                shown(format)
            ),
        );
    };
    let record = json_arg(record, ErrorCode::InvalidRecord, "a record")?;
    core_result(core::dump_record(&record, parsed))
}

/// Decodes a record from JSON or MessagePack bytes (API-4, REC-3).
#[wasm_bindgen(js_name = loadRecord)]
pub fn load_record(data: &[u8]) -> Result<JsValue, JsValue> {
    if data.len() > core::MAX_RECORD_BYTES {
        return fail(
            ErrorCode::InvalidRecord,
            format!(
                "invalid record: {} bytes, more than the limit of {}",
                data.len(),
                core::MAX_RECORD_BYTES
            ),
        );
    }
    Ok(to_js(&core_result(core::load_record(data))?))
}

/// Reads JSON text with every integer exact (beyond the safe range, a `BigInt`), as records and
/// seeds need; `JSON.parse` would round them.
#[wasm_bindgen(js_name = parseJson)]
pub fn parse_json(text: &str) -> Result<JsValue, JsValue> {
    match serde_json::from_str::<Value>(text) {
        Ok(value) => Ok(to_js(&value)),
        Err(error) => Err(js_sys::SyntaxError::new(&error.to_string()).into()),
    }
}

/// Writes JSON data as JSON text, `BigInt`s as exact integers; `JSON.stringify` rejects them.
#[wasm_bindgen(js_name = stringifyJson)]
pub fn stringify_json(value: &JsValue) -> Result<String, JsValue> {
    match value_of(value, 0) {
        Ok(data) => Ok(data.to_string()),
        Err(error) => Err(js_sys::TypeError::new(&error).into()),
    }
}

/// Plays `hands` random hands in the core; the per-hand scores, seat by seat, hand by hand.
#[wasm_bindgen(js_name = simulateScores)]
pub fn simulate_scores(
    ruleset: &WasmRuleset,
    hands: &JsValue,
    seed: &JsValue,
) -> Result<Vec<i32>, JsValue> {
    let hands = count_arg(hands, "a number of hands", 0, MAX_SIMULATE_HANDS)?;
    let seed = unsigned_arg(seed, ErrorCode::InvalidSetup, "a seed")?;
    // One thread: wasm32-unknown-unknown has none to spawn.
    Ok(core::simulate(&ruleset.inner, hands, seed, 1))
}

/// `samples` layouts of the hidden cards drawn exactly uniformly among those consistent with
/// what the observer of `observation` (OBS-1) knows: each one sorted hand per seat.
#[wasm_bindgen(js_name = sampleHidden)]
pub fn sample_hidden(
    ruleset: &WasmRuleset,
    observation: &JsValue,
    samples: &JsValue,
    seed: &JsValue,
) -> Result<JsValue, JsValue> {
    let samples = count_arg(samples, "a number of samples", 0, MAX_SAMPLES)?;
    let seed = unsigned_arg(seed, ErrorCode::InvalidSetup, "a seed")?;
    let obs = json_arg(observation, ErrorCode::InvalidAction, "an observation")?;
    let layouts = core_result(players::sample_layouts(&ruleset.inner, &obs, samples, seed))?;
    let n = ruleset.inner.players();
    let value: Vec<Value> = layouts
        .into_iter()
        .map(|layout| {
            Value::from(
                layout
                    .first(n)
                    .iter()
                    .map(|hand| Value::from(hand.to_strings()))
                    .collect::<Vec<_>>(),
            )
        })
        .collect();
    Ok(to_js(&Value::Array(value)))
}

/// The number of layouts of the hidden cards consistent with what the observer knows, as a
/// `BigInt`.
#[wasm_bindgen(js_name = countLayouts)]
pub fn count_layouts(ruleset: &WasmRuleset, observation: &JsValue) -> Result<JsValue, JsValue> {
    let obs = json_arg(observation, ErrorCode::InvalidAction, "an observation")?;
    Ok(big(core_result(players::count_observation_layouts(
        &ruleset.inner,
        &obs,
    ))?))
}

/// The Monte Carlo player's card for the observer, who must be to play.
#[wasm_bindgen(js_name = monteCarloPlay)]
pub fn monte_carlo_play(
    ruleset: &WasmRuleset,
    observation: &JsValue,
    rollouts: &JsValue,
    seed: &JsValue,
) -> Result<String, JsValue> {
    let rollouts = count_arg(rollouts, "a number of rollouts", 1, MAX_ROLLOUTS)?;
    let seed = unsigned_arg(seed, ErrorCode::InvalidSetup, "a seed")?;
    let obs = json_arg(observation, ErrorCode::InvalidAction, "an observation")?;
    let card = core_result(players::monte_carlo_play(
        &ruleset.inner,
        &obs,
        rollouts,
        seed,
    ))?;
    Ok(card.to_string())
}

/// The host's monotonic clock: `performance.now()` where there is one (browsers, workers,
/// Node), else `Date.now()`.
fn host_clock() -> Duration {
    let performance = Reflect::get(&js_sys::global(), &"performance".into()).ok();
    let millis = performance
        .filter(|p| p.is_object())
        .and_then(|p| {
            let now = Reflect::get(&p, &"now".into()).ok()?;
            let now: &js_sys::Function = now.dyn_ref()?;
            now.call0(&p).ok()?.as_f64()
        })
        .unwrap_or_else(js_sys::Date::now);
    Duration::from_secs_f64(millis.max(0.0) / 1000.0)
}

/// The option `what` given by name: `default` for `null`, else the value `from_name` reads from
/// a string; `invalid-setup` naming the option and quoting the value otherwise.
fn named<T>(
    value: &JsValue,
    what: &str,
    default: T,
    from_name: impl Fn(&str) -> Result<T, core::Error>,
) -> Result<T, JsValue> {
    if value.is_null() || value.is_undefined() {
        return Ok(default);
    }
    match value.as_string().map(|name| from_name(&name)) {
        Some(Ok(named)) => Ok(named),
        Some(Err(error)) => fail(
            ErrorCode::InvalidSetup,
            format!("{what}: {}", error.message()),
        ),
        None => fail(
            ErrorCode::InvalidSetup,
            format!("{what} is a name, not {}", shown(value)),
        ),
    }
}

/// The switch `what`: `default` for `null`, else a boolean; `invalid-setup` otherwise.
fn switch(value: &JsValue, what: &str, default: bool) -> Result<bool, JsValue> {
    if value.is_null() || value.is_undefined() {
        return Ok(default);
    }
    match value.as_bool() {
        Some(on) => Ok(on),
        None => fail(
            ErrorCode::InvalidSetup,
            format!("{what} must be true or false, not {}", shown(value)),
        ),
    }
}

/// How a search player plays (`reversis_players::Style`), built once for a player: what it plays
/// for, whether it may go for the moon, and the networks that play its playouts' cards or end
/// them. `searchPlay` takes it.
#[wasm_bindgen(js_name = SearchStyle)]
pub struct WasmSearchStyle {
    inner: players::OwnedStyle,
}

#[wasm_bindgen(js_class = SearchStyle)]
impl WasmSearchStyle {
    /// `objective` is what the search plays for: `"points"` (the hand; also for `null`) or
    /// `"match"` (the chance of winning the match from the totals); with `shoot` false (`null`
    /// is true) it never tries going for the moon; with `defend` true (`null` is false), where
    /// another seat has captured every point card so far, half of a card's layouts have that seat
    /// go for the moon in the playouts; with `weighPasses` true (`null` is false) the layouts are
    /// also weighed by the pass the searcher received, under the rule-based policy's pass. Its
    /// playouts are the rule-based policy's and run to the end of the hand until `rolloutsBy` or
    /// `leavesBy` says otherwise.
    #[wasm_bindgen(constructor)]
    pub fn new(
        objective: &JsValue,
        shoot: &JsValue,
        defend: &JsValue,
        weigh_passes: &JsValue,
    ) -> Result<WasmSearchStyle, JsValue> {
        let objective = named(
            objective,
            "objective",
            players::Objective::Points,
            players::Objective::from_name,
        )?;
        Ok(WasmSearchStyle {
            inner: players::OwnedStyle {
                objective,
                shoot: switch(shoot, "shoot", true)?,
                defend: switch(defend, "defend", false)?,
                weigh_passes: switch(weigh_passes, "weighPasses", false)?,
                ..Default::default()
            },
        })
    }

    /// Has `network` play the playouts' cards: every seat's for `seats` `"every"` (also `null`),
    /// the searcher's own later cards alone for `"searcher"` (the other seats following the
    /// rule-based policy).
    #[wasm_bindgen(js_name = rolloutsBy)]
    pub fn rollouts_by(
        &mut self,
        network: &learned::WasmLearnedNetwork,
        seats: &JsValue,
    ) -> Result<(), JsValue> {
        self.inner.rollout_seats = named(
            seats,
            "rolloutSeats",
            players::RolloutSeats::Every,
            players::RolloutSeats::from_name,
        )?;
        self.inner.rollouts = Some(network.inner.clone());
        Ok(())
    }

    /// Ends each card's playouts at the searcher's next decision, scored by `network`'s value
    /// there (spec/learned.md, LRN-7); `invalid-setup` for a network without a value or a style
    /// that defends against the moon, the style left as it was. A table the value cannot judge
    /// (objective `"match"` or a count-down hand, two packs) is refused by `searchPlay`.
    #[wasm_bindgen(js_name = leavesBy)]
    pub fn leaves_by(&mut self, network: &learned::WasmLearnedNetwork) -> Result<(), JsValue> {
        let previous = self.inner.leaves.replace(network.inner.clone());
        if let Err(error) = self.inner.style().check() {
            self.inner.leaves = previous;
            return core_result(Err(error));
        }
        Ok(())
    }
}

/// The search player's decision for the observer of `observation` (OBS-1), as the action ids
/// that make it (ACT-2), played as `style` says. The budget is `playouts` per decision,
/// `timeMs` per decision, or both (whichever runs out first; `null` for none); a pass gets four
/// times as much.
#[wasm_bindgen(js_name = searchPlay)]
pub fn search_play(
    ruleset: &WasmRuleset,
    observation: &JsValue,
    seed: &JsValue,
    playouts: &JsValue,
    time_ms: &JsValue,
    style: &WasmSearchStyle,
) -> Result<Vec<u16>, JsValue> {
    let seed = unsigned_arg(seed, ErrorCode::InvalidSetup, "a seed")?;
    let playouts = if playouts.is_null() || playouts.is_undefined() {
        None
    } else {
        Some(count_arg(playouts, "playouts", 1, MAX_PLAYOUTS)? as u64)
    };
    let time = if time_ms.is_null() || time_ms.is_undefined() {
        None
    } else {
        let ms = time_ms
            .as_f64()
            .and_then(Number::from_f64)
            .map(Value::Number);
        Some(core_result(core::input::millis(
            ms.as_ref(),
            "timeMs",
            MAX_SEARCH_MS,
            || shown(time_ms),
        ))?)
    };
    if playouts.is_none() && time.is_none() {
        return fail(
            ErrorCode::InvalidSetup,
            "searchPlay needs playouts or timeMs".to_owned(),
        );
    }
    let budget = players::Budget { playouts, time };
    let obs = json_arg(observation, ErrorCode::InvalidAction, "an observation")?;
    core_result(players::search_decision_with(
        &ruleset.inner,
        &obs,
        budget,
        style.inner.style(),
        seed,
        &host_clock,
    ))
}

/// The decision of the rule-based player for the observer of `observation`, as action ids:
/// exact ties to the lowest card without a `seed`, else drawn from a generator seeded with it.
#[wasm_bindgen(js_name = rulesPlay)]
pub fn rules_play(
    ruleset: &WasmRuleset,
    observation: &JsValue,
    seed: &JsValue,
) -> Result<Vec<u16>, JsValue> {
    let seed = optional_unsigned(seed, ErrorCode::InvalidSetup, "a seed")?;
    let obs = json_arg(observation, ErrorCode::InvalidAction, "an observation")?;
    core_result(players::policy_decision(&ruleset.inner, &obs, seed))
}

/// The review of the decision the observer of `observation` (OBS-1) has to make:
/// `{choice, estimates: [{action, points, margin}], layouts}`, where `choice` is the search
/// player's ACT-1 action with `playouts` and `seed` (exactly `searchPlay`'s), and each estimate
/// a candidate (every legal card; the search's pass and `action`; both moon choices) with the
/// observer's expected points for the hand and its expected margin over the others' mean,
/// measured on the same layouts of the hidden cards (`reversis_players::evaluate_decision`).
/// `action` is the ACT-1 action the person made, or `null`.
#[wasm_bindgen(js_name = evaluateDecision)]
pub fn evaluate_decision(
    ruleset: &WasmRuleset,
    observation: &JsValue,
    seed: &JsValue,
    playouts: &JsValue,
    action: &JsValue,
) -> Result<JsValue, JsValue> {
    let seed = unsigned_arg(seed, ErrorCode::InvalidSetup, "a seed")?;
    let playouts = count_arg(playouts, "playouts", 1, MAX_PLAYOUTS)? as u64;
    let action = if action.is_null() || action.is_undefined() {
        None
    } else {
        Some(core_result(core::action_ids(&action_arg(action)?))?)
    };
    let obs = json_arg(observation, ErrorCode::InvalidAction, "an observation")?;
    let review = core_result(players::evaluate_decision(
        &ruleset.inner,
        &obs,
        playouts,
        seed,
        action.as_deref(),
    ))?;
    // The observation named a seat, or the review would have been refused.
    let seat = obs["seat"].as_u64().unwrap_or(0) as usize;
    let act = |ids: &[u16]| -> Result<JsValue, JsValue> {
        Ok(to_js(
            &core_result(core::action_from_ids(ids, seat))?.to_value(),
        ))
    };
    // Plain numbers, not `to_js`'s Number objects for whole floats: an estimate is a mean, of
    // no integer kind to keep.
    let object = |entries: &[(&str, JsValue)]| {
        let object = Object::new();
        for (key, value) in entries {
            // Setting a property of a fresh plain object cannot fail.
            let _ = Reflect::set(&object, &JsValue::from_str(key), value);
        }
        JsValue::from(object)
    };
    let estimates = Array::new();
    for e in &review.estimates {
        estimates.push(&object(&[
            ("action", act(&e.action)?),
            ("points", JsValue::from_f64(e.points)),
            ("margin", JsValue::from_f64(e.margin)),
        ]));
    }
    Ok(object(&[
        ("choice", act(&review.choice)?),
        ("estimates", estimates.into()),
        ("layouts", JsValue::from_f64(review.layouts as f64)),
    ]))
}
