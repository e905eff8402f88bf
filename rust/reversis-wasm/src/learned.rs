//! The learned player's network (`reversis_players::Network`, the `.rvnn` weight format of
//! spec/learned.md) for JavaScript: read once from the weight file's bytes, then deciding action
//! ids (ACT-2) and giving its value (LRN-7) from a seat's JSON observation through the core's
//! OBS-3 encoder.

use reversis_core as core;
use reversis_core::ErrorCode;
use reversis_players as players;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::{core_result, count_arg, fail, json_arg, shown};

/// A network of the weight format.
#[wasm_bindgen(js_name = LearnedNetwork)]
pub struct WasmLearnedNetwork {
    pub(crate) inner: players::Network,
}

#[wasm_bindgen(js_class = LearnedNetwork)]
impl WasmLearnedNetwork {
    /// Reads the network from the bytes of a weight file; `invalid-setup` naming the problem.
    #[wasm_bindgen(constructor)]
    pub fn new(bytes: &JsValue) -> Result<WasmLearnedNetwork, JsValue> {
        let Some(bytes) = bytes.dyn_ref::<js_sys::Uint8Array>() else {
            return fail(
                ErrorCode::InvalidSetup,
                format!(
                    "invalid setup: invalid weights: the bytes of a weight file are a Uint8Array, not {}",
                    shown(bytes)
                ),
            );
        };
        let inner = core_result(players::Network::from_bytes(&bytes.to_vec()))?;
        Ok(WasmLearnedNetwork { inner })
    }

    /// The id among `legal` that the network scores highest for the observation (OBS-1) of a
    /// seat at a table of `players`, the lowest among equals.
    pub fn decide(
        &self,
        observation: &JsValue,
        players: &JsValue,
        legal: &[u16],
    ) -> Result<u16, JsValue> {
        let encoding = encoding_of(observation, players)?;
        let mut mask = 0u128;
        for &id in legal {
            if id >= core::NUM_ACTIONS {
                return fail(
                    ErrorCode::InvalidAction,
                    format!(
                        "invalid action: an action id is an integer from 0 to {}, not {id}",
                        core::NUM_ACTIONS - 1
                    ),
                );
            }
            mask |= 1u128 << id;
        }
        core_result(self.inner.decide(&encoding, mask))
    }

    /// The network's value (spec/learned.md, LRN-7) for the observation (OBS-1) of a seat at a
    /// table of `players`: its estimate of that seat's points for the hand; `undefined` for a
    /// network without one (format version 1).
    pub fn value(&self, observation: &JsValue, players: &JsValue) -> Result<Option<f32>, JsValue> {
        let encoding = encoding_of(observation, players)?;
        core_result(self.inner.value(&encoding))
    }
}

// The OBS-3 encoding of a seat's JSON observation at a table of `players`.
fn encoding_of(observation: &JsValue, players: &JsValue) -> Result<Vec<i32>, JsValue> {
    let value = json_arg(observation, ErrorCode::InvalidAction, "an observation")?;
    let players = count_arg(players, "a number of players", 0, u64::from(u16::MAX))?;
    let mut encoding = vec![0; core::ENCODING_LENGTH];
    core_result(core::encode_observation_json(
        &value,
        players,
        &mut encoding,
    ))?;
    Ok(encoding)
}
