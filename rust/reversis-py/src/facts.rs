//! The facts the core derives from the rules (`reversis_core`'s `facts` module), for Python:
//! the OBS-3 encoder of a seat's JSON observation and its layout, and a breach as JSON. The
//! `Game` methods (`pass_plan`, `standing`, `breach`) are in `lib.rs` with the class.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};
use reversis_core as core;
use reversis_core::ErrorCode;
use serde_json::{json, Value};

use crate::{core_result, i32_bytes, json_arg, unsigned_arg};

/// A breach as JSON: `{"code", "rule", "message"}` (the stage is the core's own name).
pub(crate) fn breach_value(breach: &core::Breach) -> Value {
    json!({
        "code": breach.code.as_str(),
        "rule": breach.rule,
        "message": breach.message,
    })
}

/// The OBS-3 encoding of `observation`, the OBS-1 observation (a JSON-shaped dict) a seat of a
/// table of `players` sees, as the native bytes of 1435 `int32`: the core's encoder, the one
/// `VectorEnv` writes with. `reversis.encoding.encode_observation` wraps it.
#[pyfunction]
fn encode_observation_json<'py>(
    observation: &Bound<'py, PyAny>,
    players: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyBytes>> {
    let value = json_arg(observation, ErrorCode::InvalidAction, "an observation")?;
    let players = unsigned_arg(players, ErrorCode::InvalidSetup, "players")?;
    let players = usize::try_from(players).unwrap_or(usize::MAX);
    let mut out = vec![0; core::ENCODING_LENGTH];
    core_result(core::encode_observation_json(&value, players, &mut out))?;
    Ok(i32_bytes(observation.py(), &out))
}

pub(crate) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = module.py();
    module.add_function(wrap_pyfunction!(encode_observation_json, module)?)?;
    module.add("ENCODING_LENGTH", core::ENCODING_LENGTH)?;
    module.add("ENCODING_VERSION", core::ENCODING_VERSION)?;
    let layout: Vec<Bound<'_, PyTuple>> = core::ENCODING_LAYOUT
        .iter()
        .map(|&(name, at, len)| (name, at, len).into_pyobject(py))
        .collect::<PyResult<_>>()?;
    module.add("ENCODING_LAYOUT", PyTuple::new(py, layout)?)?;
    Ok(())
}
