//! The facts the core derives from the rules (`reversis_core`'s `facts` module), for
//! JavaScript: a game's pass plan, standing and breach, the OBS-3 encoder of a seat's JSON
//! observation, and SEED-1's generator, so that the package restates none of them.

use reversis_core as core;
use reversis_core::ErrorCode;
use serde_json::json;
use wasm_bindgen::prelude::*;

use crate::{card_arg, core_result, count_arg, json_arg, to_js, unsigned_arg, WasmGame};

#[wasm_bindgen(js_class = Game)]
impl WasmGame {
    /// Who passes to whom this hand (PASS-1, PASS-3): `{direction, size, to, from}`, or `null`
    /// where the hand has no pass.
    #[wasm_bindgen(getter, js_name = passPlan)]
    pub fn pass_plan(&self) -> JsValue {
        self.inner
            .pass_plan()
            .map_or(JsValue::NULL, |plan| to_js(&plan.to_value()))
    }

    /// How the match ends and where it stands: `{ends, totals, over, lowest, winners}`.
    #[wasm_bindgen(getter)]
    pub fn standing(&self) -> JsValue {
        to_js(&self.inner.standing().to_value())
    }

    /// Why the seat to move may not play `card` now: `{code, rule, message}`, or `null`.
    pub fn breach(&self, card: &JsValue) -> Result<JsValue, JsValue> {
        let card = card_arg(card)?;
        Ok(self.inner.breach(card).map_or(JsValue::NULL, |b| {
            to_js(&json!({"code": b.code.as_str(), "rule": b.rule, "message": b.message}))
        }))
    }
}

/// The OBS-3 encoding of `observation`, the OBS-1 observation a seat of a table of `players`
/// sees, by the core's encoder: 1435 integers.
#[wasm_bindgen(js_name = encodeObservation)]
pub fn encode_observation(observation: &JsValue, players: &JsValue) -> Result<Vec<i32>, JsValue> {
    let value = json_arg(observation, ErrorCode::InvalidAction, "an observation")?;
    let players = count_arg(players, "a number of players", 0, u64::from(u16::MAX))?;
    let mut out = vec![0; core::ENCODING_LENGTH];
    core_result(core::encode_observation_json(&value, players, &mut out))?;
    Ok(out)
}

/// The blocks of the OBS-3 encoding, in order: `[[name, offset, length], ...]`.
#[wasm_bindgen(js_name = encodingLayout)]
pub fn encoding_layout() -> JsValue {
    to_js(&json!(core::ENCODING_LAYOUT
        .iter()
        .map(|&(name, at, len)| json!([name, at, len]))
        .collect::<Vec<_>>()))
}

/// One step of SEED-1's generator (SplitMix64) from `state`: `[next state, output]`.
#[wasm_bindgen(js_name = splitMix64Step)]
pub fn split_mix64_step(state: &JsValue) -> Result<Vec<u64>, JsValue> {
    let state = unsigned_arg(state, ErrorCode::InvalidSetup, "a generator state")?;
    let mut rng = core::SplitMix64::new(state);
    let out = rng.next_u64();
    Ok(vec![rng.state(), out])
}
