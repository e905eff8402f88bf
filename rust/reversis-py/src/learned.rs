//! `reversis._core.LearnedPolicy`: a network of the weight format of `spec/learned.md`
//! (`reversis_players::Network`) deciding action ids from OBS-3 encodings, one at a time or a
//! vector environment's buffers at once.

use std::path::PathBuf;

use pyo3::buffer::PyBuffer;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyMemoryView, PyString};
use reversis_core as core;
use reversis_core::{ErrorCode, MAX_THREADS};
use reversis_players as players;

use crate::{core_result, count_arg, describe, fail, integer, to_python, Given};

/// Values read from a Python buffer or sequence, in the narrowest form that holds them.
enum Values {
    I32(Vec<i32>),
    U8(Vec<u8>),
    F32(Vec<f32>),
}

/// `$body` with `$v` bound to the values of `$values` as a slice of their own type: the network
/// is generic over its input type, so each call names its method once for all three.
macro_rules! on_values {
    ($values:expr, |$v:ident| $body:expr) => {
        match $values {
            Values::I32($v) => $body,
            Values::U8($v) => $body,
            Values::F32($v) => $body,
        }
    };
}

/// Encoding values: any buffer of integers or floats (an `array('i')`, a NumPy array, a
/// `VectorEnv` buffer), or a sequence of numbers; every value finite.
fn values_arg(value: &Bound<'_, PyAny>, what: &str) -> PyResult<Values> {
    let py = value.py();
    let bad = || {
        fail(
            ErrorCode::InvalidSetup,
            format!(
                "invalid setup: {what} must be a buffer or a sequence of numbers, not {}",
                describe(value)
            ),
        )
    };
    if value.is_instance_of::<PyString>() {
        return bad();
    }
    if let Ok(b) = PyBuffer::<i32>::get(value) {
        return Ok(Values::I32(b.to_vec(py)?));
    }
    if let Ok(b) = PyBuffer::<u8>::get(value) {
        return Ok(Values::U8(b.to_vec(py)?));
    }
    if let Ok(b) = PyBuffer::<f32>::get(value) {
        return finite(b.to_vec(py)?, what);
    }
    macro_rules! widened {
        ($($t:ty),*) => {$(
            if let Ok(b) = PyBuffer::<$t>::get(value) {
                return finite(b.to_vec(py)?.into_iter().map(|v| v as f32).collect(), what);
            }
        )*};
    }
    widened!(f64, i64, i16, i8, u16, u32, u64);
    let Ok(items) = value.try_iter() else {
        return bad();
    };
    let mut out = Vec::new();
    for item in items {
        let item = item?;
        let number = if item.is_instance_of::<PyBool>() {
            None
        } else {
            item.extract::<f64>().ok()
        };
        let Some(number) = number else {
            return bad();
        };
        out.push(number as f32);
    }
    finite(out, what)
}

fn finite(values: Vec<f32>, what: &str) -> PyResult<Values> {
    match values.iter().position(|v| !v.is_finite()) {
        Some(i) => fail(
            ErrorCode::InvalidSetup,
            format!("invalid setup: {what} holds a value that is not a finite number at {i}"),
        ),
        None => Ok(Values::F32(values)),
    }
}

/// Mask bytes: a buffer of `bool` (a `VectorEnv`'s `legal_action_mask`, a NumPy `bool` array)
/// or of `uint8`.
fn mask_arg(value: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    let py = value.py();
    if let Ok(b) = PyBuffer::<u8>::get(value) {
        return b.to_vec(py);
    }
    // `bool` items are bytes; a memoryview recast as unsigned bytes reads them.
    let bytes = PyMemoryView::from(value).and_then(|m| m.call_method1("cast", ("B",)));
    if let Ok(b) = bytes.and_then(|m| PyBuffer::<u8>::get(&m)) {
        return b.to_vec(py);
    }
    fail(
        ErrorCode::InvalidSetup,
        format!(
            "invalid setup: the masks must be a contiguous buffer of bool or uint8, not {}",
            describe(value)
        ),
    )
}

/// A feed-forward network of the weight format of spec/learned.md, deciding action ids (ACT-2)
/// from OBS-3 encodings.
#[pyclass(module = "reversis._core", name = "LearnedPolicy", frozen)]
pub struct PyLearnedPolicy {
    net: players::Network,
}

impl PyLearnedPolicy {
    /// The network read from the file.
    pub(crate) fn network(&self) -> &players::Network {
        &self.net
    }
}

#[pymethods]
impl PyLearnedPolicy {
    /// The network of the bytes of a weight file.
    #[new]
    fn new(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<Self> {
        let bytes = match PyBuffer::<u8>::get(data) {
            Ok(b) if !data.is_instance_of::<PyString>() => b.to_vec(py)?,
            _ => {
                return fail(
                    ErrorCode::InvalidSetup,
                    format!(
                        "invalid setup: a LearnedPolicy is made from the bytes of a weight file, \
                         not {}",
                        describe(data)
                    ),
                )
            }
        };
        let net = core_result(py.detach(|| players::Network::from_bytes(&bytes)))?;
        Ok(PyLearnedPolicy { net })
    }

    /// The network of the weight file at `path` (a `str` or `os.PathLike`).
    #[staticmethod]
    fn from_file(py: Python<'_>, path: &Bound<'_, PyAny>) -> PyResult<Self> {
        let Ok(path) = path.extract::<PathBuf>() else {
            return fail(
                ErrorCode::InvalidSetup,
                format!(
                    "invalid setup: a weight file's path is a str or os.PathLike, not {}",
                    describe(path)
                ),
            );
        };
        let read = py.detach(|| {
            let bytes = std::fs::read(&path).map_err(|e| {
                core::Error::new(
                    ErrorCode::InvalidSetup,
                    format!(
                        "invalid setup: cannot read the weight file {}: {e}",
                        path.display()
                    ),
                )
            })?;
            players::Network::from_bytes(&bytes)
        });
        Ok(PyLearnedPolicy {
            net: core_result(read)?,
        })
    }

    /// The metadata object of the file, a dict (empty where it has none).
    #[getter]
    fn metadata(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_python(py, &serde_json::Value::Object(self.net.metadata().clone()))
    }

    /// Each layer's inputs, outputs and activation (`"identity"` or `"relu"`), in order.
    #[getter]
    fn layers(&self) -> Vec<(usize, usize, &'static str)> {
        self.net
            .shapes()
            .into_iter()
            .map(|(i, o, a)| (i, o, a.name()))
            .collect()
    }

    /// The network's 106 logits for one encoding (OBS-3's 1435 values).
    fn logits(&self, py: Python<'_>, encoding: &Bound<'_, PyAny>) -> PyResult<Vec<f32>> {
        let values = values_arg(encoding, "an encoding")?;
        let net = &self.net;
        let logits = py.detach(|| on_values!(&values, |v| net.logits(v)));
        Ok(core_result(logits)?.to_vec())
    }

    /// Whether the network gives a value (format version 2, LRN-7).
    #[getter]
    fn has_value(&self) -> bool {
        self.net.has_value()
    }

    /// The network's value for one encoding (LRN-7): its estimate of the acting seat's score
    /// for the hand, lower being better; None for a network without one (format version 1).
    fn value(&self, py: Python<'_>, encoding: &Bound<'_, PyAny>) -> PyResult<Option<f32>> {
        let values = values_arg(encoding, "an encoding")?;
        let net = &self.net;
        let value = py.detach(|| on_values!(&values, |v| net.value(v)));
        core_result(value)
    }

    /// The legal id among `legal_ids` with the highest output for `encoding`, the lowest among
    /// equal ones.
    fn decide(
        &self,
        py: Python<'_>,
        encoding: &Bound<'_, PyAny>,
        legal_ids: &Bound<'_, PyAny>,
    ) -> PyResult<u16> {
        let values = values_arg(encoding, "an encoding")?;
        let not_ids = || {
            fail(
                ErrorCode::InvalidAction,
                format!(
                    "invalid action: the legal ids are integers from 0 to {}, not {}",
                    core::NUM_ACTIONS - 1,
                    describe(legal_ids)
                ),
            )
        };
        let Ok(items) = legal_ids.try_iter() else {
            return not_ids();
        };
        let mut mask = 0u128;
        for item in items {
            let id = integer(&item?).and_then(|i| i.extract::<u16>().ok());
            match id {
                Some(id) if id < core::NUM_ACTIONS => mask |= 1u128 << id,
                _ => return not_ids(),
            }
        }
        let net = &self.net;
        core_result(py.detach(|| on_values!(&values, |v| net.decide(v, mask))))
    }

    /// The decision for every row of `observations` (rows of 1435 values, `int32` or `uint8`
    /// as a `VectorEnv`'s `observation`) among the legal ids of the same row of `masks` (rows
    /// of 106 `bool`, as its `legal_action_mask`), on `threads` threads, without the GIL.
    #[pyo3(
        signature = (observations, masks, threads=Given(None)),
        text_signature = "(self, observations, masks, threads=1)"
    )]
    fn decide_batch(
        &self,
        py: Python<'_>,
        observations: &Bound<'_, PyAny>,
        masks: &Bound<'_, PyAny>,
        threads: Given<'_>,
    ) -> PyResult<Vec<u16>> {
        let threads = match &threads.0 {
            Some(t) => count_arg(t, "a number of threads", 1, MAX_THREADS)?,
            None => 1,
        };
        let values = values_arg(observations, "the observations")?;
        let masks = mask_arg(masks)?;
        let net = &self.net;
        core_result(py.detach(|| on_values!(&values, |v| net.decide_batch(v, &masks, threads))))
    }

    fn __repr__(&self) -> String {
        let mut sizes: Vec<String> = Vec::new();
        for (k, (i, o, _)) in self.net.shapes().into_iter().enumerate() {
            if k == 0 {
                sizes.push(i.to_string());
            }
            sizes.push(o.to_string());
        }
        format!("<LearnedPolicy {}>", sizes.join("-"))
    }
}
