//! `reversis._core`: the PyO3 binding of `reversis-core`.
//!
//! Each Python type wraps one core value and each method delegates to the core; the only work
//! done here is converting arguments and results, and turning core errors into the typed
//! exceptions of `reversis.errors` (in exactly one place, [`to_py_err`]).

use std::cell::{Ref, RefCell, RefMut};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use pyo3::exceptions::{PyIndexError, PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
// `GILProtected` is deprecated for the sake of free-threaded CPython, which this module does not
// support (it declares that it uses the GIL); with the GIL it is sound and costs nothing.
#[allow(deprecated)]
use pyo3::sync::GILProtected;
use pyo3::sync::PyOnceLock;
use pyo3::types::{
    PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PySlice, PyString, PyTuple, PyType,
};
use pythonize::pythonize;
use reversis_core as core;
use reversis_core::{ErrorCode, MoonChoice};
use reversis_players as players;
use serde_json::Value;

mod dlpack;
mod facts;
mod learned;
mod pool;
mod vector;

/// Converts a core error into `reversis.errors.InvalidInputError` or `IllegalActionError`,
/// carrying the spec's error code.
fn to_py_err(error: core::Error) -> PyErr {
    Python::attach(|py| {
        let class = if error.code().is_input_error() {
            "InvalidInputError"
        } else {
            "IllegalActionError"
        };
        let built = py
            .import("reversis.errors")
            .and_then(|module| module.getattr(class))
            .and_then(|class| class.call1((error.code().as_str(), error.message())));
        match built {
            Ok(exception) => PyErr::from_value(exception),
            Err(import_failed) => import_failed,
        }
    })
}

fn fail<T>(code: ErrorCode, message: String) -> PyResult<T> {
    Err(to_py_err(core::Error::new(code, message)))
}

fn core_result<T>(result: Result<T, core::Error>) -> PyResult<T> {
    result.map_err(to_py_err)
}

fn describe(value: &Bound<'_, PyAny>) -> String {
    value
        .repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| "<unprintable>".to_owned())
}

/// How deeply JSON data handed in from Python may nest (the limit of `serde_json`'s parser).
const MAX_DEPTH: usize = 128;

/// Converts a Python value into JSON data: `None`, `bool`, `int` (64-bit), finite `float`,
/// `str`, `list`/`tuple` and `dict` with `str` keys, nested at most [`MAX_DEPTH`] deep.
/// Anything else (NaN, infinities, integers beyond 64 bits, other types) is an error, never
/// silently changed (`serde_json` would turn a NaN into `null`).
fn py_to_value(value: &Bound<'_, PyAny>, depth: usize) -> Result<Value, String> {
    if depth > MAX_DEPTH {
        return Err(format!("nested more than {MAX_DEPTH} deep"));
    }
    if value.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(flag) = value.cast::<PyBool>() {
        return Ok(Value::Bool(flag.is_true()));
    }
    if value.is_instance_of::<PyInt>() {
        if let Ok(number) = value.extract::<i64>() {
            return Ok(Value::from(number));
        }
        if let Ok(number) = value.extract::<u64>() {
            return Ok(Value::from(number));
        }
        return Err(format!("integer out of range: {}", describe(value)));
    }
    if let Ok(number) = value.cast::<PyFloat>() {
        return serde_json::Number::from_f64(number.value())
            .map(Value::Number)
            .ok_or_else(|| format!("not a finite number: {}", describe(value)));
    }
    if let Ok(text) = value.cast::<PyString>() {
        return text
            .to_cow()
            .map(|text| Value::String(text.into_owned()))
            .map_err(|_| format!("not valid text: {}", describe(value)));
    }
    if let Ok(items) = value.cast::<PyList>() {
        return items
            .iter()
            .map(|item| py_to_value(&item, depth + 1))
            .collect::<Result<Vec<_>, _>>()
            .map(Value::Array);
    }
    if let Ok(items) = value.cast::<PyTuple>() {
        return items
            .iter()
            .map(|item| py_to_value(&item, depth + 1))
            .collect::<Result<Vec<_>, _>>()
            .map(Value::Array);
    }
    if let Ok(map) = value.cast::<PyDict>() {
        let mut object = serde_json::Map::new();
        for (key, item) in map.iter() {
            let Ok(key) = key.cast::<PyString>() else {
                return Err(format!("a key is not a string: {}", describe(&key)));
            };
            let key = key
                .to_cow()
                .map_err(|_| format!("a key is not valid text: {}", describe(key)))?;
            object.insert(key.into_owned(), py_to_value(&item, depth + 1)?);
        }
        return Ok(Value::Object(object));
    }
    Err(format!(
        "a {} is not JSON data",
        value
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_default()
    ))
}

/// Reads a Python value as JSON data, failing with `code` if it is not JSON-shaped.
fn json_arg(value: &Bound<'_, PyAny>, code: ErrorCode, what: &str) -> PyResult<Value> {
    py_to_value(value, 0).or_else(|error| {
        let mut shown = describe(value);
        if shown.len() > 200 {
            let mut end = 200;
            while !shown.is_char_boundary(end) {
                end -= 1;
            }
            shown.truncate(end);
            shown.push_str("...");
        }
        fail(code, format!("{what} is not JSON data: {error}: {shown}"))
    })
}

fn to_python(py: Python<'_>, value: &Value) -> PyResult<Py<PyAny>> {
    pythonize(py, value)
        .map(Bound::unbind)
        .map_err(|error| PyTypeError::new_err(error.to_string()))
}

/// An integer argument that is a real `int` (never a `bool`) in `0..=u64::MAX`.
/// `value` as an `int` when it is an integer: an `int` other than `bool`, or an object with
/// `__index__` (NumPy's integer scalars, which learning code passes for ids and seats).
fn integer<'py>(value: &Bound<'py, PyAny>) -> Option<Bound<'py, PyInt>> {
    if value.is_instance_of::<PyBool>() {
        return None;
    }
    if let Ok(int) = value.cast::<PyInt>() {
        return Some(int.clone());
    }
    if !value.hasattr("__index__").unwrap_or(false) {
        return None;
    }
    let index = value.call_method0("__index__").ok()?;
    index.cast_into::<PyInt>().ok()
}

/// A Python argument as JSON data for `core::input`: an integer (any that has `__index__`,
/// never a `bool`) as a number, anything else as `py_to_value` reads it; `None` where it is no
/// JSON data (an integer beyond 64 bits, an object of another type).
fn arg_value(value: &Bound<'_, PyAny>) -> Option<Value> {
    if let Some(int) = integer(value) {
        return int
            .extract::<i64>()
            .map(Value::from)
            .or_else(|_| int.extract::<u64>().map(Value::from))
            .ok();
    }
    py_to_value(value, 0).ok()
}

/// Reads `value` with one of the core's readers of arguments (`core::input`), which quotes it
/// as its `repr`.
fn input_arg<T>(
    value: &Bound<'_, PyAny>,
    read: impl FnOnce(Option<&Value>, &dyn Fn() -> String) -> Result<T, core::Error>,
) -> PyResult<T> {
    core_result(read(arg_value(value).as_ref(), &|| describe(value)))
}

fn unsigned_arg(value: &Bound<'_, PyAny>, code: ErrorCode, what: &str) -> PyResult<u64> {
    input_arg(value, |v, shown| {
        core::input::unsigned(v, code, what, shown)
    })
}

/// The depth and unit of `perft` and `divide` (PERFT-5): an integer depth (never a `bool`), a
/// unit named `decisions` (the default) or `tricks`; anything else is `invalid-setup`.
fn perft_args(
    depth: &Bound<'_, PyAny>,
    unit: Option<&Bound<'_, PyAny>>,
) -> PyResult<(u64, core::PerftUnit)> {
    let unit = match unit {
        None => core::PerftUnit::Decisions,
        Some(unit) => input_arg(unit, |v, shown| core::input::perft_unit(v, shown))?,
    };
    let depth = input_arg(depth, |v, shown| core::input::perft_depth(v, shown))?;
    Ok((depth, unit))
}

/// Runs a long count without the GIL, checking for signals now and then: Ctrl-C raises
/// `KeyboardInterrupt` within milliseconds instead of waiting for the count.
fn interruptible<T: Send>(
    py: Python<'_>,
    run: impl FnOnce(&mut dyn FnMut() -> bool) -> Result<Option<T>, core::Error> + Send,
) -> PyResult<T> {
    let mut raised: Option<PyErr> = None;
    let result = py.detach(|| {
        let mut stop = || match Python::attach(|py| py.check_signals()) {
            Ok(()) => false,
            Err(error) => {
                raised = Some(error);
                true
            }
        };
        run(&mut stop)
    });
    match core_result(result)? {
        Some(value) => Ok(value),
        None => Err(raised
            .unwrap_or_else(|| PyRuntimeError::new_err("the count was stopped without a signal"))),
    }
}

fn card_arg(value: &Bound<'_, PyAny>) -> PyResult<core::Card> {
    // A str that is no valid text (a lone surrogate) is a string, but no card.
    if value
        .cast::<PyString>()
        .is_ok_and(|text| text.to_cow().is_err())
    {
        return fail(
            ErrorCode::InvalidCard,
            format!("not a card: {}", describe(value)),
        );
    }
    input_arg(value, |v, shown| core::input::card(v, shown))
}

fn card_strings(cards: impl IntoIterator<Item = core::Card>) -> Vec<String> {
    cards.into_iter().map(|c| c.to_string()).collect()
}

// The 52 card names as Python strings, made once: the per-step accessors hand out these shared
// objects instead of building a new string for every card of every call.
static CARD_NAMES: PyOnceLock<Vec<Py<PyString>>> = PyOnceLock::new();

fn card_name<'py>(py: Python<'py>, card: core::Card) -> &'py Bound<'py, PyString> {
    let names = CARD_NAMES.get_or_init(py, || {
        (0..52u8)
            .map(|id| PyString::intern(py, &core::Card::new(id).to_string()).unbind())
            .collect()
    });
    names[usize::from(card.id())].bind(py)
}

fn card_list<'py>(
    py: Python<'py>,
    cards: impl IntoIterator<Item = core::Card>,
) -> PyResult<Bound<'py, PyList>> {
    let names: Vec<&Bound<'py, PyString>> =
        cards.into_iter().map(|card| card_name(py, card)).collect();
    PyList::new(py, names)
}

// A trick in progress as TRICK-1's `[{seat, card}]`, built directly.
fn plays_list<'py>(
    py: Python<'py>,
    plays: impl IntoIterator<Item = (usize, core::Card)>,
) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for (seat, card) in plays {
        let entry = PyDict::new(py);
        entry.set_item(pyo3::intern!(py, "seat"), seat)?;
        entry.set_item(pyo3::intern!(py, "card"), card_name(py, card))?;
        list.append(entry)?;
    }
    Ok(list)
}

/// The Python ints of the action ids, `0..NUM_ACTIONS`, made once: a list of ids then costs a
/// reference count per item, not a conversion.
static ACTION_INTS: PyOnceLock<Vec<Py<PyInt>>> = PyOnceLock::new();

fn action_ints(py: Python<'_>) -> &[Py<PyInt>] {
    ACTION_INTS.get_or_init(py, || {
        (0..core::NUM_ACTIONS)
            .map(|id| PyInt::new(py, id).unbind())
            .collect()
    })
}

/// An argument whose default is told apart from an explicit `None` (API-3: `hand_number=None`
/// is `invalid-setup`, the default is 0).
struct Given<'py>(Option<Bound<'py, PyAny>>);

impl<'a, 'py> FromPyObject<'a, 'py> for Given<'py> {
    type Error = PyErr;

    fn extract(value: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        Ok(Given(Some(value.to_owned())))
    }
}

/// A seat argument: `None` (the default seat) or an integer in `0..=u64::MAX` (ERR-6), else
/// `invalid-action`. Whether it is a seat of the table is the core's check (ERR-4).
fn seat_opt(seat: Option<&Bound<'_, PyAny>>) -> PyResult<Option<usize>> {
    match seat {
        None => Ok(None),
        Some(seat) => input_arg(seat, |v, shown| core::input::seat(v, shown)),
    }
}

fn moon_choice_arg(choice: &Bound<'_, PyAny>) -> PyResult<MoonChoice> {
    input_arg(choice, |v, shown| core::input::moon_choice(v, shown))
}

/// An action id argument: an `int` (never a `bool`) in `0..NUM_ACTIONS`, else `invalid-action`.
fn action_id_arg(value: &Bound<'_, PyAny>) -> PyResult<u16> {
    // An exact `int` in range first, without a detour through JSON: the per-step case.
    if value.cast_exact::<PyInt>().is_ok() {
        if let Ok(id) = value.extract::<u16>() {
            if id < core::NUM_ACTIONS {
                return Ok(id);
            }
        }
    }
    input_arg(value, |v, shown| core::input::action_id(v, shown))
}

fn action_arg(action: &Bound<'_, PyAny>) -> PyResult<core::Action> {
    let value = json_arg(action, ErrorCode::InvalidAction, "an action")?;
    core_result(core::Action::from_value(&value))
}

fn action_to_python(py: Python<'_>, action: &core::Action) -> PyResult<Py<PyAny>> {
    to_python(py, &action.to_value())
}

/// Whether `value` is a `Ruleset` of the reference engine (`reversis.reference.ruleset`).
fn is_reference_ruleset(value: &Bound<'_, PyAny>) -> bool {
    let class = value.get_type();
    let named = class.name().map(|n| n == "Ruleset").unwrap_or(false);
    let module = class
        .getattr("__module__")
        .and_then(|m| m.extract::<String>())
        .map(|m| m == "reversis.reference.ruleset")
        .unwrap_or(false);
    named && module
}

/// The ruleset of either engine (API-2: they are interchangeable); a reference ruleset is read
/// through its `to_json()`. `None` for anything else.
fn any_ruleset(value: &Bound<'_, PyAny>) -> PyResult<Option<Arc<core::Ruleset>>> {
    if let Ok(ruleset) = value.cast::<PyRuleset>() {
        return Ok(Some(ruleset.get().inner.clone()));
    }
    if is_reference_ruleset(value) {
        let data = value.call_method0("to_json")?;
        let data = json_arg(&data, ErrorCode::InvalidRuleset, "a ruleset")?;
        return Ok(Some(Arc::new(core_result(core::Ruleset::from_value(
            &data,
        ))?)));
    }
    Ok(None)
}

/// One variant of the Hearts family: an immutable, validated ruleset (API-2).
#[pyclass(module = "reversis._core", name = "Ruleset", frozen)]
pub struct PyRuleset {
    inner: Arc<core::Ruleset>,
}

#[pymethods]
impl PyRuleset {
    /// Builds a ruleset from its JSON object, or from JSON text.
    #[staticmethod]
    fn from_json(data: &Bound<'_, PyAny>) -> PyResult<Self> {
        let parsed = if let Ok(text) = data.cast::<PyString>() {
            let Ok(text) = text.to_cow() else {
                return fail(
                    ErrorCode::InvalidRuleset,
                    "ruleset text is not valid unicode".to_owned(),
                );
            };
            core::Ruleset::from_json_str(&text)
        } else if let Ok(bytes) = data.cast::<PyBytes>() {
            match std::str::from_utf8(bytes.as_bytes()) {
                Ok(text) => core::Ruleset::from_json_str(text),
                Err(error) => {
                    return fail(
                        ErrorCode::InvalidRuleset,
                        format!("ruleset is not UTF-8: {error}"),
                    )
                }
            }
        } else {
            core::Ruleset::from_value(&json_arg(data, ErrorCode::InvalidRuleset, "a ruleset")?)
        };
        Ok(PyRuleset {
            inner: Arc::new(core_result(parsed)?),
        })
    }

    /// The ruleset as the JSON object of spec/ruleset.md.
    fn to_json(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_python(py, &self.inner.to_value())
    }

    /// A new, validated ruleset with some fields changed (API-2).
    #[pyo3(signature = (**fields))]
    fn replace(&self, fields: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let fields = match fields {
            Some(fields) => json_arg(fields.as_any(), ErrorCode::InvalidRuleset, "the fields")?,
            None => Value::Object(serde_json::Map::new()),
        };
        let map = fields.as_object().cloned().unwrap_or_default();
        Ok(PyRuleset {
            inner: Arc::new(core_result(self.inner.replace(&map))?),
        })
    }

    #[getter]
    fn name(&self) -> &str {
        self.inner.name()
    }
    #[getter]
    fn title(&self) -> Option<&str> {
        self.inner.title()
    }
    #[getter]
    fn sources(&self) -> Option<Vec<String>> {
        self.inner.sources().map(<[String]>::to_vec)
    }
    #[getter]
    fn players(&self) -> usize {
        self.inner.players()
    }
    #[getter]
    fn passing<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(passing) = self.inner.passing() else {
            return Ok(None);
        };
        let dict = PyDict::new(py);
        let cycle: Vec<&str> = passing.cycle.iter().map(|d| d.as_str()).collect();
        dict.set_item("cycle", cycle)?;
        dict.set_item("size", passing.size)?;
        Ok(Some(dict))
    }
    #[getter]
    fn opening_card(&self) -> Option<String> {
        self.inner.opening_card().map(|card| card.to_string())
    }
    #[getter]
    fn first_trick_ban(&self) -> bool {
        self.inner.first_trick_ban()
    }
    #[getter]
    fn hearts_breaking(&self) -> &'static str {
        self.inner.hearts_breaking().as_str()
    }
    #[getter]
    fn card_points<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (card, value) in self.inner.card_points() {
            dict.set_item(card.to_string(), value)?;
        }
        Ok(dict)
    }
    #[getter]
    fn moon<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(moon) = self.inner.moon() else {
            return Ok(None);
        };
        let dict = PyDict::new(py);
        dict.set_item("scoring", moon.scoring.as_str())?;
        dict.set_item("bonus", moon.bonus)?;
        // 1.4.0: as `to_json()` holds it, only where not the default.
        if moon.needs != core::MoonNeeds::default() {
            dict.set_item("needs", moon.needs.as_str())?;
        }
        Ok(Some(dict))
    }
    /// RS-11: the target, None where only `deals` ends the match (RS-26).
    #[getter]
    fn target(&self) -> Option<u64> {
        self.inner.target()
    }
    #[getter]
    fn count_down(&self) -> bool {
        self.inner.count_down()
    }
    /// RS-25: how the count-down ends, `"stop-at-zero"` where the ruleset leaves it out.
    #[getter]
    fn count_down_end(&self) -> &'static str {
        self.inner.count_down_end().as_str()
    }
    /// RS-26: the number of hands after which the match is over at the latest, or None.
    #[getter]
    fn deals(&self) -> Option<u64> {
        self.inner.deals()
    }
    /// The deck's cards, sorted, each copy (a card of two copies twice, RS-21).
    #[getter]
    fn deck(&self) -> Vec<String> {
        card_strings(self.inner.deck_cards())
    }
    /// RS-22: `{"last_trick": ...}` where identical cards cancel (PLAY-9), else None.
    #[getter]
    fn cancellation<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(rule) = self.inner.cancellation() else {
            return Ok(None);
        };
        let dict = PyDict::new(py);
        dict.set_item("last_trick", rule.as_str())?;
        Ok(Some(dict))
    }
    #[getter]
    fn hand_size(&self) -> usize {
        self.inner.hand_size()
    }
    #[getter]
    fn point_cards(&self) -> Vec<String> {
        card_strings(self.inner.point_cards())
    }

    /// Any other field of `RULESET_FIELDS` (one without a getter of its own: a field of a
    /// simple kind of the core's table, or an optional object) by its name: its value in
    /// `to_json()`, or its default where left out.
    fn __getattr__(&self, py: Python<'_>, name: &str) -> PyResult<Py<PyAny>> {
        match self.inner.field(name) {
            Some(value) => to_python(py, &value),
            None => Err(pyo3::exceptions::PyAttributeError::new_err(format!(
                "'Ruleset' object has no attribute '{name}'"
            ))),
        }
    }

    /// Equal to a ruleset of either engine with the same `to_json()` (API-2).
    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        if let Ok(other) = other.cast::<PyRuleset>() {
            return Ok(PyBool::new(py, *self.inner == *other.get().inner)
                .to_owned()
                .into_any()
                .unbind());
        }
        if is_reference_ruleset(other) {
            let data = other.call_method0("to_json")?;
            let same = py_to_value(&data, 0).is_ok_and(|v| v == self.inner.to_value());
            return Ok(PyBool::new(py, same).to_owned().into_any().unbind());
        }
        Ok(py.NotImplemented())
    }

    /// Python's `hash()` of the canonical JSON text, as the reference's ruleset hashes (API-2).
    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        PyString::new(py, &self.inner.to_json_string()).hash()
    }

    /// Pickles as `Ruleset.from_json(<canonical JSON text>)`.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let from_json = py.get_type::<PyRuleset>().getattr("from_json")?;
        let args = PyTuple::new(py, [self.inner.to_json_string()])?;
        PyTuple::new(py, [from_json.into_any(), args.into_any()])
    }

    fn __repr__(&self) -> String {
        format!("Ruleset.from_json({:?})", self.inner.to_json_string())
    }

    fn __str__(&self) -> &str {
        self.inner.name()
    }
}

/// The accepted actions of a game when they were read (API-3 `actions`): a read-only
/// sequence of ACT-1 dicts, each built when it is read.
#[pyclass(module = "reversis._core", name = "ActionsView", frozen, sequence)]
pub struct PyActionsView {
    log: core::ActionLog,
}

#[pymethods]
impl PyActionsView {
    fn __len__(&self) -> usize {
        self.log.len()
    }

    fn __getitem__(&self, py: Python<'_>, index: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let len = self.log.len();
        if let Ok(slice) = index.cast::<PySlice>() {
            let ix = slice.indices(len as isize)?;
            let mut items = Vec::with_capacity(ix.slicelength);
            let mut i = ix.start;
            for _ in 0..ix.slicelength {
                if let Some(a) = self.log.get(i as usize) {
                    items.push(action_to_python(py, &a)?);
                }
                i += ix.step;
            }
            return Ok(PyList::new(py, items)?.into_any().unbind());
        }
        if index.is_instance_of::<PyBool>() || !index.is_instance_of::<PyInt>() {
            return Err(PyTypeError::new_err(format!(
                "action indices must be integers or slices, not {}",
                index.get_type().name()?
            )));
        }
        let i: i128 = index.extract().unwrap_or(i128::MAX);
        let i = if i < 0 { i + len as i128 } else { i };
        match usize::try_from(i).ok().and_then(|i| self.log.get(i)) {
            Some(a) => action_to_python(py, &a),
            None => Err(PyIndexError::new_err("action index out of range")),
        }
    }

    fn __iter__(&self) -> PyActionsIter {
        PyActionsIter {
            log: self.log.clone(),
            next: AtomicUsize::new(0),
        }
    }

    /// Equal to a list, tuple or view of the same actions.
    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let same = if let Ok(other) = other.cast::<PyActionsView>() {
            self.log == other.get().log
        } else if is_sequence(other)? {
            if other.len()? != self.log.len() {
                false
            } else {
                let mut all = true;
                for (a, b) in self.log.iter().zip(other.try_iter()?) {
                    if !action_to_python(py, &a)?.bind(py).eq(b?)? {
                        all = false;
                        break;
                    }
                }
                all
            }
        } else {
            return Ok(py.NotImplemented());
        };
        Ok(PyBool::new(py, same).to_owned().into_any().unbind())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let items = self
            .log
            .iter()
            .map(|a| action_to_python(py, &a))
            .collect::<PyResult<Vec<_>>>()?;
        Ok(PyList::new(py, items)?.repr()?.to_string())
    }
}

/// Whether `value` is a list, a tuple, or another sequence of actions (such as the reference
/// engine's view): any `collections.abc.Sequence` but text and bytes.
fn is_sequence(value: &Bound<'_, PyAny>) -> PyResult<bool> {
    if value.is_instance_of::<PyList>() || value.is_instance_of::<PyTuple>() {
        return Ok(true);
    }
    if value.is_instance_of::<PyString>() || value.is_instance_of::<PyBytes>() {
        return Ok(false);
    }
    let sequence = value.py().import("collections.abc")?.getattr("Sequence")?;
    value.is_instance(&sequence)
}

/// An iterator over an [`PyActionsView`].
#[pyclass(module = "reversis._core", name = "ActionsIterator", frozen)]
pub struct PyActionsIter {
    log: core::ActionLog,
    next: AtomicUsize,
}

#[pymethods]
impl PyActionsIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        let i = self.next.fetch_add(1, Ordering::Relaxed);
        match self.log.get(i) {
            Some(a) => Ok(Some(action_to_python(py, &a)?)),
            None => Ok(None),
        }
    }
}

/// The object `Game.__new__` is given to build a blank game, which a copy, a replay or an
/// unpickling then fills in (so that subclasses get instances of their own class).
static BLANK: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

fn blank(py: Python<'_>) -> PyResult<&Bound<'_, PyAny>> {
    BLANK
        .get_or_try_init(py, || {
            Ok::<_, PyErr>(py.import("builtins")?.getattr("object")?.call0()?.unbind())
        })
        .map(|b| b.bind(py))
}

/// A match under one ruleset, from its first deal until the target ends it (API-3).
///
/// Frozen, so that a call takes no atomic borrow flag (a tenth of a per-step loop's time): the
/// GIL guards the game, which a `RefCell` lends out.
#[pyclass(module = "reversis._core", name = "Game", subclass, frozen)]
#[allow(deprecated)] // GILProtected: see its `use`
pub struct PyGame {
    cell: GILProtected<RefCell<core::Game>>,
}

impl PyGame {
    #[allow(deprecated)] // GILProtected: see its `use`
    pub(crate) fn from_game(game: core::Game) -> PyGame {
        PyGame {
            cell: GILProtected::new(RefCell::new(game)),
        }
    }

    // The game, to read. It is only ever lent out to change inside a core call, which never
    // calls back into Python, so this borrow cannot meet that one.
    fn get<'a>(&'a self, py: Python<'a>) -> Ref<'a, core::Game> {
        self.cell.get(py).borrow()
    }

    // The game, to change: refused while Python code run during a read of this same game (a
    // conversion to Python objects) tries to change it.
    fn get_mut<'a>(&'a self, py: Python<'a>) -> PyResult<RefMut<'a, core::Game>> {
        self.cell
            .get(py)
            .try_borrow_mut()
            .map_err(|_| PyRuntimeError::new_err("the game is being read and cannot change now"))
    }
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(
        signature = (ruleset, seed=None, *, hand_number=Given(None), scores=None),
        text_signature = "(ruleset, seed=None, *, hand_number=0, scores=None)"
    )]
    fn new(
        ruleset: &Bound<'_, PyAny>,
        seed: Option<&Bound<'_, PyAny>>,
        hand_number: Given<'_>,
        scores: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        if ruleset.is(blank(ruleset.py())?) {
            // Any valid game: the copy, replay or unpickling that asked for it replaces it.
            let unfilled = core::Game::new(core_result(core::preset("hearts-4"))?, None, 0, None);
            return Ok(PyGame::from_game(core_result(unfilled)?));
        }
        let Some(ruleset) = any_ruleset(ruleset)? else {
            return fail(
                ErrorCode::InvalidSetup,
                format!("a game needs a Ruleset, not {}", describe(ruleset)),
            );
        };
        let seed = match seed {
            Some(seed) if !seed.is_none() => {
                Some(unsigned_arg(seed, ErrorCode::InvalidSetup, "a seed")?)
            }
            _ => None,
        };
        let hand_number = match hand_number.0 {
            Some(number) => unsigned_arg(&number, ErrorCode::InvalidSetup, "a hand number")?,
            None => 0,
        };
        let scores = match scores {
            Some(scores) if !scores.is_none() => Some(scores_arg(scores)?),
            _ => None,
        };
        let game = core::Game::new(ruleset, seed, hand_number, scores);
        Ok(PyGame::from_game(core_result(game)?))
    }

    #[getter]
    fn ruleset(&self, py: Python<'_>) -> PyRuleset {
        PyRuleset {
            inner: self.get(py).ruleset().clone(),
        }
    }
    #[getter]
    fn seed(&self, py: Python<'_>) -> Option<u64> {
        self.get(py).seed()
    }
    #[getter]
    fn phase<'py>(&self, py: Python<'py>) -> Bound<'py, PyString> {
        // The five names made once (`intern!` caches each), not a new string per call.
        let name = match self.get(py).phase() {
            core::Phase::Deal => pyo3::intern!(py, "deal"),
            core::Phase::Pass => pyo3::intern!(py, "pass"),
            core::Phase::Play => pyo3::intern!(py, "play"),
            core::Phase::Moon => pyo3::intern!(py, "moon"),
            core::Phase::Over => pyo3::intern!(py, "over"),
        };
        name.clone()
    }
    #[getter]
    fn hand_number(&self, py: Python<'_>) -> u64 {
        self.get(py).hand_number()
    }
    #[getter]
    fn dealer(&self, py: Python<'_>) -> usize {
        self.get(py).dealer()
    }
    #[getter]
    fn pass_direction(&self, py: Python<'_>) -> Option<&'static str> {
        self.get(py)
            .pass_direction()
            .map(|direction| direction.as_str())
    }
    #[getter]
    fn to_move(&self, py: Python<'_>) -> Option<usize> {
        self.get(py).to_move()
    }
    #[getter]
    fn to_act(&self, py: Python<'_>) -> Option<usize> {
        self.get(py).to_act()
    }
    #[getter]
    fn awaiting_pass(&self, py: Python<'_>) -> Vec<usize> {
        self.get(py).awaiting_pass()
    }
    #[getter]
    fn trick<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        plays_list(py, self.get(py).trick())
    }
    #[getter]
    fn tricks_played(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_python(py, &self.get(py).tricks_json())
    }
    #[getter]
    fn hearts_broken(&self, py: Python<'_>) -> bool {
        self.get(py).hearts_broken()
    }
    #[getter]
    fn count_down(&self, py: Python<'_>) -> bool {
        self.get(py).count_down()
    }
    #[getter]
    fn points(&self, py: Python<'_>) -> Vec<i32> {
        self.get(py).points().to_vec()
    }
    #[getter]
    fn scores(&self, py: Python<'_>) -> Vec<i64> {
        self.get(py).scores().to_vec()
    }
    #[getter]
    fn hand_scores(&self, py: Python<'_>) -> Vec<Vec<i64>> {
        self.get(py).hand_scores()
    }
    #[getter]
    fn moon_taker(&self, py: Python<'_>) -> Option<usize> {
        self.get(py).moon_taker()
    }
    #[getter]
    fn winners(&self, py: Python<'_>) -> Vec<usize> {
        self.get(py).winners()
    }
    #[getter]
    fn actions(&self, py: Python<'_>) -> PyActionsView {
        PyActionsView {
            log: self.get(py).actions(),
        }
    }
    #[getter]
    fn events(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_python(py, &self.get(py).events_json())
    }
    #[getter]
    fn last_hand(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_python(py, &self.get(py).last_hand_json())
    }

    /// The cards `seat` holds, sorted.
    fn hand<'py>(&self, py: Python<'py>, seat: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
        let seat = seat_index(seat, self.get(py).ruleset().players())?;
        card_list(py, core_result(self.get(py).hand(seat))?)
    }

    /// The cards `seat` has selected toward its pass, in the order selected (ACT-2).
    fn selected<'py>(
        &self,
        py: Python<'py>,
        seat: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        let seat = seat_index(seat, self.get(py).ruleset().players())?;
        card_list(py, core_result(self.get(py).selected(seat))?)
    }

    /// The cards the seat to move may play, sorted (PLAY-8).
    fn legal_plays<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        card_list(py, self.get(py).legal_plays())
    }

    /// The legal action ids of `seat`, by default the acting seat, ascending (ACT-3).
    #[pyo3(signature = (seat=None))]
    fn legal_actions<'py>(
        &self,
        py: Python<'py>,
        seat: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyList>> {
        // Straight from the mask into the list, of ints made once: this is called once per step
        // of every loop.
        let mut mask = core_result(self.get(py).legal_mask(seat_opt(seat)?))?;
        let ints = action_ints(py);
        let mut ids = [0u8; core::NUM_ACTIONS as usize];
        let mut count = 0;
        while mask != 0 {
            ids[count] = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            count += 1;
        }
        PyList::new(
            py,
            ids[..count]
                .iter()
                .map(|&id| ints[usize::from(id)].bind(py)),
        )
    }

    /// The legal action ids of `seat` as a bit mask: bit `i` for legal id `i`.
    #[pyo3(signature = (seat=None))]
    fn legal_mask(&self, py: Python<'_>, seat: Option<&Bound<'_, PyAny>>) -> PyResult<u128> {
        core_result(self.get(py).legal_mask(seat_opt(seat)?))
    }

    /// Applies an action of ACT-1, or raises and changes nothing.
    fn apply(&self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let action = action_arg(action)?;
        let result = self.get_mut(py)?.apply(&action);
        core_result(result)
    }

    /// Applies action id `action_id` (ACT-2) for `seat`, by default the acting seat (ACT-3).
    #[pyo3(signature = (action_id, seat=None))]
    fn apply_action(
        &self,
        py: Python<'_>,
        action_id: &Bound<'_, PyAny>,
        seat: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let id = action_id_arg(action_id)?;
        let seat = seat_opt(seat)?;
        let result = self.get_mut(py)?.apply_action(id, seat);
        core_result(result)
    }

    /// Deals `hands`; without them, a deal from the seed (`no-seed` in phase `deal`).
    #[pyo3(signature = (hands=None))]
    fn deal(&self, py: Python<'_>, hands: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let hands = match hands {
            Some(hands) if !hands.is_none() => {
                let value = json_arg(hands, ErrorCode::InvalidAction, "a deal's hands")?;
                Some(core_result(core::Action::hands_from_value(&value))?)
            }
            _ => None,
        };
        let result = self.get_mut(py)?.deal(hands);
        core_result(result)
    }

    /// Submits the pass of `seat`, by default the acting seat (PASS-2).
    #[pyo3(signature = (cards, seat=None))]
    fn pass_cards(
        &self,
        py: Python<'_>,
        cards: &Bound<'_, PyAny>,
        seat: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let seat = seat_opt(seat)?;
        let value = json_arg(cards, ErrorCode::InvalidAction, "a pass's cards")?;
        let cards = core_result(core::Action::cards_from_value(&value))?;
        let result = self.get_mut(py)?.pass_cards(cards, seat);
        core_result(result)
    }

    /// Plays `card` for `seat`, by default the seat to move.
    #[pyo3(signature = (card, seat=None))]
    fn play(
        &self,
        py: Python<'_>,
        card: &Bound<'_, PyAny>,
        seat: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let seat = seat_opt(seat)?;
        let card = card_arg(card)?;
        let result = self.get_mut(py)?.play(card, seat);
        core_result(result)
    }

    /// Chooses how the moon scores for `seat`, by default the taker (SCORE-3).
    #[pyo3(signature = (choice, seat=None))]
    fn choose_moon(
        &self,
        py: Python<'_>,
        choice: &Bound<'_, PyAny>,
        seat: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let seat = seat_opt(seat)?;
        let choice = moon_choice_arg(choice)?;
        let result = self.get_mut(py)?.choose_moon(choice, seat);
        core_result(result)
    }

    /// Takes back the last accepted action with everything it set off (API-8).
    fn undo(&self, py: Python<'_>) -> PyResult<()> {
        let result = self.get_mut(py)?.undo();
        core_result(result)
    }

    /// The number of legal sequences of `depth` decisions, or of decisions until `depth` more
    /// tricks are complete, from this position (PERFT-2, PERFT-3). Ctrl-C interrupts it.
    #[pyo3(signature = (depth, unit=None), text_signature = "($self, depth, unit='decisions')")]
    fn perft(
        &self,
        py: Python<'_>,
        depth: &Bound<'_, PyAny>,
        unit: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<u64> {
        let (depth, unit) = perft_args(depth, unit)?;
        let game = self.get(py).clone();
        interruptible(py, |stop| game.perft_until(depth, unit, stop))
    }

    /// For each decision of the acting seat, by its key (PERFT-4), the number of the sequences
    /// `perft` counts that begin with it, in the order of the decisions.
    #[pyo3(signature = (depth, unit=None), text_signature = "($self, depth, unit='decisions')")]
    fn divide<'py>(
        &self,
        py: Python<'py>,
        depth: &Bound<'py, PyAny>,
        unit: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let (depth, unit) = perft_args(depth, unit)?;
        let game = self.get(py).clone();
        let counts = interruptible(py, |stop| game.divide_until(depth, unit, stop))?;
        let out = PyDict::new(py);
        for (key, count) in counts {
            out.set_item(key, count)?;
        }
        Ok(out)
    }

    /// Who passes to whom this hand (PASS-1, PASS-3): `{"direction", "size", "to", "from"}`,
    /// `to[s]` the seat that seat `s` passes to and `from[s]` the seat it receives from; `None`
    /// where the hand has no pass.
    #[getter]
    fn pass_plan(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        match self.get(py).pass_plan() {
            Some(plan) => to_python(py, &plan.to_value()),
            None => Ok(py.None()),
        }
    }

    /// How the match ends and where it stands: `{"ends", "totals", "over", "lowest",
    /// "winners"}`, `ends` a list of endings each named by its `kind` (`target`, `count-down`).
    #[getter]
    fn standing(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_python(py, &self.get(py).standing().to_value())
    }

    /// Why the seat to move may not play `card` now: `{"code", "rule", "message"}`,
    /// or `None` where it may (or the phase is not `play`).
    fn breach(&self, py: Python<'_>, card: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let card = card_arg(card)?;
        match self.get(py).breach(card) {
            Some(b) => to_python(py, &facts::breach_value(&b)),
            None => Ok(py.None()),
        }
    }

    /// What `seat` may know, and nothing else (OBS-1).
    fn observation(&self, py: Python<'_>, seat: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let seat = seat_index(seat, self.get(py).ruleset().players())?;
        to_python(py, &core_result(self.get(py).observation(seat))?)
    }

    /// The position as JSON data (API-9).
    fn state(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_python(py, &self.get(py).state_json())
    }

    /// The game record of REC-1.
    fn to_record(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_python(py, &self.get(py).to_record())
    }

    /// Rebuilds a game from its record by replaying it (REC-2), as an instance of `cls`.
    #[classmethod]
    fn from_record(cls: &Bound<'_, PyType>, record: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let game = replay_record(record)?;
        instance_of(cls, game)
    }

    /// An independent copy of this game, undo history included.
    fn copy(slf: &Bound<'_, Self>) -> PyResult<Py<PyAny>> {
        let game = slf.get().get(slf.py()).clone();
        instance_of(&slf.get_type(), game)
    }

    fn __copy__(slf: &Bound<'_, Self>) -> PyResult<Py<PyAny>> {
        Self::copy(slf)
    }

    fn __deepcopy__(slf: &Bound<'_, Self>, _memo: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        Self::copy(slf)
    }

    /// Equal to another game exactly when their positions (`state()`) are (API-3).
    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        match other.cast::<PyGame>() {
            Ok(other) => {
                let same = *self.get(py) == *other.get().get(py);
                Ok(PyBool::new(py, same).to_owned().into_any().unbind())
            }
            Err(_) => Ok(py.NotImplemented()),
        }
    }

    /// Hashes the position, as equality compares it.
    fn __hash__(&self, py: Python<'_>) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        self.get(py).hash(&mut hasher);
        hasher.finish()
    }

    /// Pickles as the record and the pending selections, replayed on unpickling (API-3).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let (record, pending) = {
            let game = slf.get().get(py);
            (game.to_record(), game.pending_selections())
        };
        let record = to_python(py, &record)?;
        let pending: Vec<(usize, String)> = pending
            .into_iter()
            .map(|(s, c)| (s, c.to_string()))
            .collect();
        let rebuild = py.import("reversis._core")?.getattr("_unpickle_game")?;
        let args = PyTuple::new(
            py,
            [
                slf.get_type().into_any(),
                record.into_bound(py),
                pending.into_pyobject(py)?.into_any(),
            ],
        )?;
        PyTuple::new(py, [rebuild, args.into_any()])
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "<Game {} hand {} phase {} scores {:?} seed {}>",
            self.get(py).ruleset().name(),
            self.get(py).hand_number(),
            self.get(py).phase().as_str(),
            self.get(py).scores(),
            self.get(py)
                .seed()
                .map_or_else(|| "None".to_owned(), |s| s.to_string())
        )
    }
}

/// Replays a record given from Python (REC-2), refusing an oversized one before converting it.
fn replay_record(record: &Bound<'_, PyAny>) -> PyResult<core::Game> {
    if let Ok(map) = record.cast::<PyDict>() {
        if let Ok(Some(actions)) = map.get_item("actions") {
            let len = if actions.is_instance_of::<PyList>() || actions.is_instance_of::<PyTuple>() {
                actions.len().unwrap_or(0)
            } else {
                0
            };
            if len > core::MAX_RECORD_ACTIONS {
                return fail(
                    ErrorCode::InvalidRecord,
                    format!(
                        "invalid record: {len} actions, more than the limit of {}",
                        core::MAX_RECORD_ACTIONS
                    ),
                );
            }
        }
    }
    let record = json_arg(record, ErrorCode::InvalidRecord, "a record")?;
    core_result(core::Game::from_record(&record))
}

/// Builds an instance of `class` (the Python subclass, if any) holding `game`.
fn instance_of(class: &Bound<'_, PyType>, game: core::Game) -> PyResult<Py<PyAny>> {
    let py = class.py();
    let base = py.get_type::<PyGame>();
    if class.is(&base) {
        return Ok(Py::new(py, PyGame::from_game(game))?.into_any());
    }
    let instance = class.call_method1("__new__", (class, blank(py)?))?;
    *instance.cast::<PyGame>()?.get().get_mut(py)? = game;
    Ok(instance.unbind())
}

/// Unpickles a game: replays its record, then its pending selections in order.
#[pyfunction]
fn _unpickle_game(
    cls: &Bound<'_, PyType>,
    record: &Bound<'_, PyAny>,
    pending: Vec<(usize, String)>,
) -> PyResult<Py<PyAny>> {
    let mut game = replay_record(record)?;
    for (seat, card) in pending {
        let card = core_result(core::Card::parse(&card))?;
        let id = core::Decision::Select(card).id();
        core_result(game.apply_action(id, Some(seat)))?;
    }
    instance_of(cls, game)
}

/// The OBS-3 encoding of `seat`'s observation (OBS-1) of `game`, by the core's encoder: the
/// conformance driver's `observation_tensor` (DRV-7). Private because learning code reads whole
/// batches from `VectorEnv`, and `reversis.encoding` encodes one observation in Python.
#[pyfunction]
fn _encode_observation(game: &Bound<'_, PyGame>, seat: &Bound<'_, PyAny>) -> PyResult<Vec<i32>> {
    let py = game.py();
    let game = game.get().get(py);
    let seat = seat_index(seat, game.ruleset().players())?;
    let mut out = vec![0; core::ENCODING_LENGTH];
    core_result(core::encode_observation(&game, seat, &mut out))?;
    Ok(out)
}

fn seat_index(seat: &Bound<'_, PyAny>, players: usize) -> PyResult<usize> {
    input_arg(seat, |v, shown| core::input::seat_of(v, players, shown))
}

fn scores_arg(scores: &Bound<'_, PyAny>) -> PyResult<Vec<i64>> {
    // A list or a tuple (py_to_value reads both as an array) of integers, never of bools.
    input_arg(scores, |v, shown| {
        core::input::integers(v, "scores must be a list of integers", shown)
    })
}

/// The ids that, applied in order for the action's seat, do what `action` does (API-10).
#[pyfunction]
fn action_ids(action: &Bound<'_, PyAny>) -> PyResult<Vec<u16>> {
    core_result(core::action_ids(&action_arg(action)?))
}

/// The ACT-1 action of `seat` made of `ids` (API-10).
#[pyfunction]
fn action_from_ids(
    py: Python<'_>,
    ids: &Bound<'_, PyAny>,
    seat: &Bound<'_, PyAny>,
) -> PyResult<Py<PyAny>> {
    let seat = unsigned_arg(seat, ErrorCode::InvalidAction, "a seat")?;
    let seat = usize::try_from(seat).unwrap_or(usize::MAX);
    let listed = ids.is_instance_of::<PyList>() || ids.is_instance_of::<PyTuple>();
    if !listed {
        return fail(
            ErrorCode::InvalidAction,
            format!(
                "action ids are a non-empty list of integers, not {}",
                describe(ids)
            ),
        );
    }
    let ids = ids
        .try_iter()?
        .map(|id| action_id_arg(&id?))
        .collect::<PyResult<Vec<u16>>>()?;
    action_to_python(py, &core_result(core::action_from_ids(&ids, seat))?)
}

/// A name of an action id for people: `play QS`, `pass QS`, `moon add-to-others` (API-10).
#[pyfunction]
fn action_label(action_id: &Bound<'_, PyAny>) -> PyResult<String> {
    core_result(core::action_label(action_id_arg(action_id)?))
}

/// The canonical string of a card written in any accepted form (API-1).
#[pyfunction]
fn parse_card(text: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(card_arg(text)?.to_string())
}

/// The id of CARD-2 for a card written in any accepted form (API-1).
#[pyfunction]
fn card_id(card: &Bound<'_, PyAny>) -> PyResult<u8> {
    Ok(card_arg(card)?.id())
}

/// The built-in preset called `name` (API-2).
#[pyfunction]
fn preset(name: &Bound<'_, PyAny>) -> PyResult<PyRuleset> {
    let Ok(text) = name.cast::<PyString>() else {
        return fail(
            ErrorCode::UnknownPreset,
            format!("no preset named {}", describe(name)),
        );
    };
    let Ok(text) = text.to_cow() else {
        return fail(
            ErrorCode::UnknownPreset,
            format!("no preset named {}", describe(name)),
        );
    };
    Ok(PyRuleset {
        inner: core_result(core::preset(&text))?,
    })
}

/// The names of the built-in presets, sorted (API-2).
#[pyfunction]
fn preset_names() -> Vec<&'static str> {
    let mut names = core::preset_names();
    names.sort_unstable();
    names
}

// The limits of ERR-6 are the core's (one table, `core::LIMITS`).
use core::{MAX_DEALS, MAX_DRAWS, MAX_ROLLOUTS, MAX_SAMPLES, MAX_SIMULATE_HANDS, MAX_THREADS};

/// An integer argument in `low..=high`, else `invalid-setup` naming it.
fn count_arg(value: &Bound<'_, PyAny>, what: &str, low: u64, high: u64) -> PyResult<usize> {
    input_arg(value, |v, shown| {
        core::input::count(v, what, low, high, shown)
    })
}

/// A ruleset of either engine (API-2), else `invalid-setup`.
fn ruleset_arg(value: &Bound<'_, PyAny>) -> PyResult<Arc<core::Ruleset>> {
    match any_ruleset(value)? {
        Some(ruleset) => Ok(ruleset),
        None => fail(
            ErrorCode::InvalidSetup,
            format!("a Ruleset is needed, not {}", describe(value)),
        ),
    }
}

/// The first `deals` deals of a game seeded with `seed` starting at `hand_number` (API-5).
#[pyfunction]
#[pyo3(
    signature = (ruleset, seed, deals=Given(None), hand_number=Given(None)),
    text_signature = "(ruleset, seed, deals=1, hand_number=0)"
)]
fn deal_from_seed(
    ruleset: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
    deals: Given<'_>,
    hand_number: Given<'_>,
) -> PyResult<Vec<Vec<Vec<String>>>> {
    let ruleset = ruleset_arg(ruleset)?;
    let seed = unsigned_arg(seed, ErrorCode::InvalidSetup, "a seed")?;
    let deals = match deals.0 {
        Some(deals) => count_arg(&deals, "a number of deals", 0, MAX_DEALS)?,
        None => 1,
    };
    let hand_number = match hand_number.0 {
        Some(number) => unsigned_arg(&number, ErrorCode::InvalidSetup, "a hand number")?,
        None => 0,
    };
    let dealt = core::deal_from_seed(&ruleset, seed, deals, hand_number);
    Ok(dealt
        .into_iter()
        .map(|deal| deal.into_iter().map(card_strings).collect())
        .collect())
}

/// The first `count` draws of SEED-1 from `seed` (API-5).
#[pyfunction]
fn seed_draws(seed: &Bound<'_, PyAny>, count: &Bound<'_, PyAny>) -> PyResult<Vec<u64>> {
    let seed = unsigned_arg(seed, ErrorCode::InvalidSetup, "a seed")?;
    let count = count_arg(count, "a number of draws", 0, MAX_DRAWS)?;
    Ok(core::seed_draws(seed, count))
}

/// Encodes a record as `"json"` or `"msgpack"` bytes (API-4).
#[pyfunction]
#[pyo3(
    signature = (record, format=Given(None)),
    text_signature = "(record, format='json')"
)]
fn dump_record<'py>(
    py: Python<'py>,
    record: &Bound<'py, PyAny>,
    format: Given<'py>,
) -> PyResult<Bound<'py, PyBytes>> {
    let format = format.0;
    let parsed = match &format {
        None => Some(core::RecordFormat::Json),
        Some(format) => format
            .cast::<PyString>()
            .ok()
            .and_then(|text| core::RecordFormat::from_name(&text.to_cow().ok()?)),
    };
    let Some(parsed) = parsed else {
        return fail(
            ErrorCode::InvalidRecord,
            format!(
                "unknown record format {}; use 'json' or 'msgpack'",
                format.as_ref().map(describe).unwrap_or_default()
            ),
        );
    };
    let record = json_arg(record, ErrorCode::InvalidRecord, "a record")?;
    let bytes = core_result(core::dump_record(&record, parsed))?;
    Ok(PyBytes::new(py, &bytes))
}

/// Decodes a record from JSON or MessagePack bytes (API-4): `bytes`, `bytearray` or
/// `memoryview`.
#[pyfunction]
fn load_record(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    let is_bytes_like = data.is_instance_of::<PyBytes>()
        || data.is_instance_of::<pyo3::types::PyByteArray>()
        || data.is_instance_of::<pyo3::types::PyMemoryView>();
    if !is_bytes_like {
        return fail(
            ErrorCode::InvalidRecord,
            format!(
                "a record is bytes, not {}",
                data.get_type()
                    .name()
                    .map(|n| n.to_string())
                    .unwrap_or_default()
            ),
        );
    }
    let length = data.len()?;
    if length > core::MAX_RECORD_BYTES {
        return fail(
            ErrorCode::InvalidRecord,
            format!(
                "invalid record: {length} bytes, more than the limit of {}",
                core::MAX_RECORD_BYTES
            ),
        );
    }
    let bytes: Vec<u8> = if let Ok(bytes) = data.cast::<PyBytes>() {
        bytes.as_bytes().to_vec()
    } else {
        py.get_type::<PyBytes>()
            .call1((data,))?
            .cast::<PyBytes>()?
            .as_bytes()
            .to_vec()
    };
    let record = core_result(core::load_record(&bytes))?;
    to_python(py, &record)
}

fn i32_bytes<'py>(py: Python<'py>, values: &[i32]) -> Bound<'py, PyBytes> {
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_ne_bytes()).collect();
    PyBytes::new(py, &bytes)
}

/// Plays `hands` random hands in Rust without the GIL; per-hand scores as native `int32` bytes.
#[pyfunction]
#[pyo3(signature = (ruleset, hands, seed, threads=None))]
fn simulate_scores<'py>(
    py: Python<'py>,
    ruleset: &Bound<'py, PyAny>,
    hands: &Bound<'py, PyAny>,
    seed: &Bound<'py, PyAny>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let (rules, hands, seed, threads) = simulate_args(ruleset, hands, seed, threads)?;
    let scores = py.detach(|| core::simulate(&rules, hands, seed, threads));
    Ok(i32_bytes(py, &scores))
}

/// As `simulate_scores`, and the legal-card mask of every play decision as native `uint64` bytes.
#[pyfunction]
#[pyo3(signature = (ruleset, hands, seed, threads=None))]
fn simulate_scores_and_masks<'py>(
    py: Python<'py>,
    ruleset: &Bound<'py, PyAny>,
    hands: &Bound<'py, PyAny>,
    seed: &Bound<'py, PyAny>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyTuple>> {
    let (rules, hands, seed, threads) = simulate_args(ruleset, hands, seed, threads)?;
    let (scores, masks) = py.detach(|| core::simulate_with_masks(&rules, hands, seed, threads));
    let mask_bytes: Vec<u8> = masks.iter().flat_map(|m| m.to_ne_bytes()).collect();
    PyTuple::new(
        py,
        [
            i32_bytes(py, &scores).into_any(),
            PyBytes::new(py, &mask_bytes).into_any(),
        ],
    )
}

type SimulateArgs = (Arc<core::Ruleset>, usize, u64, usize);

fn simulate_args(
    ruleset: &Bound<'_, PyAny>,
    hands: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
    threads: Option<&Bound<'_, PyAny>>,
) -> PyResult<SimulateArgs> {
    let rules = ruleset_arg(ruleset)?;
    let hands = count_arg(hands, "a number of hands", 0, MAX_SIMULATE_HANDS)?;
    let seed = unsigned_arg(seed, ErrorCode::InvalidSetup, "a seed")?;
    let threads = match threads {
        Some(threads) => count_arg(threads, "a number of threads", 1, MAX_THREADS)?,
        None => 1,
    };
    Ok((rules, hands, seed, threads))
}

/// The bounds of `ruleset`'s scores, from the core's plan of scoring (`kernel::Scoring`), each a
/// pair `(least, most)`: `points`, a seat's points for a hand as captured (SCORE-1); `hand`, its
/// score for a hand outside the count-down (SCORE-2 … SCORE-4); `live_total`, its total in a
/// match from totals of 0 while the match goes on (`None` where no bound holds); `total`, its
/// total at any point of a match of at most `hands` hands (1 where `None`), its final totals
/// included.
#[pyfunction]
#[pyo3(signature = (ruleset, hands=None))]
fn score_bounds<'py>(
    py: Python<'py>,
    ruleset: &Bound<'py, PyAny>,
    hands: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let rules = ruleset_arg(ruleset)?;
    let hands = match hands {
        Some(h) => unsigned_arg(h, ErrorCode::InvalidSetup, "a number of hands")?,
        None => 1,
    };
    let scoring = core::kernel::Scoring::new(&rules);
    let dict = PyDict::new(py);
    dict.set_item("points", scoring.points_bounds())?;
    dict.set_item("hand", scoring.hand_bounds())?;
    dict.set_item("live_total", scoring.live_total_bounds())?;
    dict.set_item("total", scoring.total_bounds(hands))?;
    Ok(dict)
}

/// `samples` layouts of the hidden cards drawn exactly uniformly among those consistent with
/// what the observer of `observation` (OBS-1) knows: each one sorted hand per seat.
#[pyfunction]
fn sample_hidden(
    py: Python<'_>,
    ruleset: &Bound<'_, PyAny>,
    observation: &Bound<'_, PyAny>,
    samples: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
) -> PyResult<Vec<Vec<Vec<String>>>> {
    draw_layouts(
        py,
        ruleset,
        observation,
        samples,
        seed,
        players::sample_layouts,
    )
}

type DrawLayouts = fn(
    &core::Ruleset,
    &Value,
    usize,
    u64,
) -> Result<Vec<core::PerSeat<core::CardMultiset>>, core::Error>;

// The arguments of `sample_hidden` and `sample_consistent` read, `draw` run without the GIL,
// each layout given as its sorted hands.
fn draw_layouts(
    py: Python<'_>,
    ruleset: &Bound<'_, PyAny>,
    observation: &Bound<'_, PyAny>,
    samples: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
    draw: DrawLayouts,
) -> PyResult<Vec<Vec<Vec<String>>>> {
    let rules = ruleset_arg(ruleset)?;
    let samples = count_arg(samples, "a number of samples", 0, MAX_SAMPLES)?;
    let seed = unsigned_arg(seed, ErrorCode::InvalidSetup, "a seed")?;
    let obs = json_arg(observation, ErrorCode::InvalidAction, "an observation")?;
    let layouts = core_result(py.detach(|| draw(&rules, &obs, samples, seed)))?;
    let n = rules.players();
    Ok(layouts
        .into_iter()
        .map(|l| l.first(n).iter().map(|h| card_strings(*h)).collect())
        .collect())
}

// The arguments of `count_layouts` and `count_consistent` read, `count` run without the GIL.
fn count_layouts_with(
    py: Python<'_>,
    ruleset: &Bound<'_, PyAny>,
    observation: &Bound<'_, PyAny>,
    count: fn(&core::Ruleset, &Value) -> Result<u128, core::Error>,
) -> PyResult<u128> {
    let rules = ruleset_arg(ruleset)?;
    let obs = json_arg(observation, ErrorCode::InvalidAction, "an observation")?;
    core_result(py.detach(|| count(&rules, &obs)))
}

/// The number of layouts of the hidden cards consistent with what the observer knows.
#[pyfunction]
fn count_layouts(
    py: Python<'_>,
    ruleset: &Bound<'_, PyAny>,
    observation: &Bound<'_, PyAny>,
) -> PyResult<u128> {
    count_layouts_with(py, ruleset, observation, players::count_observation_layouts)
}

/// The Monte Carlo player's card for the observer, who must be to play.
#[pyfunction]
fn monte_carlo_play(
    py: Python<'_>,
    ruleset: &Bound<'_, PyAny>,
    observation: &Bound<'_, PyAny>,
    rollouts: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
) -> PyResult<String> {
    let rules = ruleset_arg(ruleset)?;
    let rollouts = count_arg(rollouts, "a number of rollouts", 1, MAX_ROLLOUTS)?;
    let seed = unsigned_arg(seed, ErrorCode::InvalidSetup, "a seed")?;
    let obs = json_arg(observation, ErrorCode::InvalidAction, "an observation")?;
    let card = core_result(py.detach(|| players::monte_carlo_play(&rules, &obs, rollouts, seed)))?;
    Ok(card.to_string())
}

use core::MAX_PLAYOUTS;
/// The longest one `search_play` decision may take, in milliseconds (ERR-6), as the float the
/// argument is compared with.
const MAX_SEARCH_MS: f64 = core::MAX_SEARCH_MS as f64;

/// A time budget in milliseconds: a number (not a bool) above 0 and at most `MAX_SEARCH_MS`.
fn millis_arg(value: &Bound<'_, PyAny>) -> PyResult<std::time::Duration> {
    input_arg(value, |v, shown| {
        core::input::millis(v, "time_ms", MAX_SEARCH_MS, shown)
    })
}

/// The network of a `LearnedPolicy` argument named `what`, or `None` for none.
fn network_arg(value: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Option<players::Network>> {
    match value.filter(|v| !v.is_none()) {
        None => Ok(None),
        Some(v) => match v.cast::<learned::PyLearnedPolicy>() {
            Ok(policy) => Ok(Some(policy.get().network().clone())),
            Err(_) => fail(
                ErrorCode::InvalidSetup,
                format!(
                    "invalid setup: {what} is a LearnedPolicy or None, not {}",
                    describe(v)
                ),
            ),
        },
    }
}

/// How the search player plays (`search_play`'s `style`), checked once when it is made.
#[pyclass(module = "reversis._core", name = "SearchStyle", frozen)]
struct PySearchStyle {
    inner: players::OwnedStyle,
}

#[pymethods]
impl PySearchStyle {
    /// `objective` is what the search plays for: `points` (the hand) or `match` (the chance of
    /// winning the match from the totals); with `shoot` false it never tries going for the moon.
    /// `rollouts`, a `LearnedPolicy`, plays the playouts' cards instead of the rule-based
    /// policy: every seat's, or with `rollout_seats="searcher"` the searcher's alone. `leaves`, a
    /// `LearnedPolicy` with a value, ends a card's playouts at the searcher's next decision,
    /// scored by the value of its view there. With `defend`, where another seat has captured
    /// every point card so far, half of a card's layouts have it go for the moon in the
    /// playouts. With `weigh_passes`, the layouts are also weighed by the pass the searcher
    /// received, under the rule-based policy's pass. Settings that cannot go together are refused here (`invalid-setup`); a table
    /// the style cannot play, by `search_play`.
    #[new]
    #[pyo3(signature = (objective="points", shoot=true, rollouts=None, rollout_seats="every", leaves=None, defend=false, weigh_passes=false))]
    fn new(
        objective: &str,
        shoot: bool,
        rollouts: Option<&Bound<'_, PyAny>>,
        rollout_seats: &str,
        leaves: Option<&Bound<'_, PyAny>>,
        defend: bool,
        weigh_passes: bool,
    ) -> PyResult<Self> {
        // A name the core does not know is a setting of the player's, not an action's.
        let setup = |error: core::Error| {
            to_py_err(core::Error::new(
                ErrorCode::InvalidSetup,
                error.message().to_owned(),
            ))
        };
        let inner = players::OwnedStyle {
            objective: players::Objective::from_name(objective).map_err(setup)?,
            shoot,
            rollouts: network_arg(rollouts, "rollouts")?,
            rollout_seats: players::RolloutSeats::from_name(rollout_seats).map_err(setup)?,
            leaves: network_arg(leaves, "leaves")?,
            defend,
            weigh_passes,
        };
        core_result(inner.style().check())?;
        Ok(PySearchStyle { inner })
    }
}

/// The search player's decision for the observer of `observation` (OBS-1), as the action ids
/// that make it (ACT-2): one for a card or a moon choice, the `52 + c` of each card of a pass.
/// The budget is `playouts` per decision, `time_ms` per decision, or both (whichever runs out
/// first); a pass gets four times as much. `style` is a `SearchStyle`, the default one (the
/// hand's points, rule-based playouts to the end) for `None`.
#[pyfunction]
#[pyo3(signature = (ruleset, observation, seed, playouts=None, time_ms=None, style=None))]
fn search_play(
    py: Python<'_>,
    ruleset: &Bound<'_, PyAny>,
    observation: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
    playouts: Option<&Bound<'_, PyAny>>,
    time_ms: Option<&Bound<'_, PyAny>>,
    style: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<u16>> {
    let style = match style.filter(|s| !s.is_none()) {
        None => None,
        Some(s) => match s.cast::<PySearchStyle>() {
            Ok(style) => Some(style.clone()),
            Err(_) => {
                return fail(
                    ErrorCode::InvalidSetup,
                    format!(
                        "invalid setup: style is a SearchStyle or None, not {}",
                        describe(s)
                    ),
                )
            }
        },
    };
    let rules = ruleset_arg(ruleset)?;
    let seed = unsigned_arg(seed, ErrorCode::InvalidSetup, "a seed")?;
    let playouts = match playouts.filter(|p| !p.is_none()) {
        Some(p) => Some(count_arg(p, "a number of playouts", 1, MAX_PLAYOUTS)? as u64),
        None => None,
    };
    let time = match time_ms.filter(|t| !t.is_none()) {
        Some(t) => Some(millis_arg(t)?),
        None => None,
    };
    if playouts.is_none() && time.is_none() {
        return fail(
            ErrorCode::InvalidSetup,
            "search_play needs playouts or time_ms".to_owned(),
        );
    }
    let budget = players::Budget { playouts, time };
    let obs = json_arg(observation, ErrorCode::InvalidAction, "an observation")?;
    let style = style.as_ref().map(|s| s.get());
    core_result(py.detach(|| {
        let style = style.map_or_else(players::Style::default, |s| s.inner.style());
        players::search_decision_with(&rules, &obs, budget, style, seed, &players::monotonic)
    }))
}

/// The review of the decision the observer of `observation` (OBS-1) has to make:
/// `{"choice", "estimates": [{"action", "points", "margin"}], "layouts"}`, where `choice` is the
/// search player's ACT-1 action with `playouts` and `seed` (exactly `search_play`'s), and each
/// estimate a candidate (every legal card; the search's pass and `action`; both moon choices)
/// with the observer's expected points for the hand and its expected margin over the others'
/// mean, measured on the same layouts of the hidden cards. `action` is the ACT-1 action the
/// person made, or `None`.
#[pyfunction]
#[pyo3(signature = (ruleset, observation, seed, playouts, action=None))]
fn evaluate_decision(
    py: Python<'_>,
    ruleset: &Bound<'_, PyAny>,
    observation: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
    playouts: &Bound<'_, PyAny>,
    action: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let rules = ruleset_arg(ruleset)?;
    let seed = unsigned_arg(seed, ErrorCode::InvalidSetup, "a seed")?;
    let playouts = count_arg(playouts, "a number of playouts", 1, MAX_PLAYOUTS)? as u64;
    let action = match action.filter(|a| !a.is_none()) {
        Some(a) => Some(core_result(core::action_ids(&action_arg(a)?))?),
        None => None,
    };
    let obs = json_arg(observation, ErrorCode::InvalidAction, "an observation")?;
    let review =
        core_result(py.detach(|| {
            players::evaluate_decision(&rules, &obs, playouts, seed, action.as_deref())
        }))?;
    // The observation named a seat, or the review would have been refused.
    let seat = obs["seat"].as_u64().unwrap_or(0) as usize;
    let act = |ids: &[u16]| -> PyResult<Py<PyAny>> {
        action_to_python(py, &core_result(core::action_from_ids(ids, seat))?)
    };
    let estimates = PyList::empty(py);
    for e in &review.estimates {
        let entry = PyDict::new(py);
        entry.set_item("action", act(&e.action)?)?;
        entry.set_item("points", e.points)?;
        entry.set_item("margin", e.margin)?;
        estimates.append(entry)?;
    }
    let out = PyDict::new(py);
    out.set_item("choice", act(&review.choice)?)?;
    out.set_item("estimates", estimates)?;
    out.set_item("layouts", review.layouts)?;
    Ok(out.into_any().unbind())
}

/// The decision of the search's playout policy (the rule-based player) for the observer of
/// `observation`, as `search_play` gives it: exact ties to the lowest card without a `seed`,
/// else drawn from a generator seeded with it.
#[pyfunction]
#[pyo3(signature = (ruleset, observation, seed=None))]
fn search_policy(
    py: Python<'_>,
    ruleset: &Bound<'_, PyAny>,
    observation: &Bound<'_, PyAny>,
    seed: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<u16>> {
    let rules = ruleset_arg(ruleset)?;
    let seed = match seed.filter(|s| !s.is_none()) {
        Some(s) => Some(unsigned_arg(s, ErrorCode::InvalidSetup, "a seed")?),
        None => None,
    };
    let obs = json_arg(observation, ErrorCode::InvalidAction, "an observation")?;
    core_result(py.detach(|| players::policy_decision(&rules, &obs, seed)))
}

/// `samples` layouts of the hidden cards drawn exactly uniformly among those consistent with
/// everything the observer of `observation` (OBS-1) has seen: as `sample_hidden`, and only the
/// layouts from which every play of the hand was legal (a suit not followed, a heart led before
/// hearts were broken, a point card discarded on the first trick, the first leader's opening
/// card). Each one sorted hand per seat.
#[pyfunction]
fn sample_consistent(
    py: Python<'_>,
    ruleset: &Bound<'_, PyAny>,
    observation: &Bound<'_, PyAny>,
    samples: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
) -> PyResult<Vec<Vec<Vec<String>>>> {
    draw_layouts(
        py,
        ruleset,
        observation,
        samples,
        seed,
        players::sample_consistent_layouts,
    )
}

/// The number of layouts `sample_consistent` draws among.
#[pyfunction]
fn count_consistent(
    py: Python<'_>,
    ruleset: &Bound<'_, PyAny>,
    observation: &Bound<'_, PyAny>,
) -> PyResult<u128> {
    count_layouts_with(py, ruleset, observation, players::count_consistent_layouts)
}

#[pymodule]
fn _core(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<PyRuleset>()?;
    module.add_class::<PyGame>()?;
    module.add_class::<PyActionsView>()?;
    module.add_class::<vector::PyVectorEnv>()?;
    module.add_class::<vector::Buffer>()?;
    module.add_class::<learned::PyLearnedPolicy>()?;
    module.add_class::<PySearchStyle>()?;
    module.add_function(wrap_pyfunction!(vector::episode_seed, module)?)?;
    module.add_function(wrap_pyfunction!(vector::computer_actions, module)?)?;
    module.add("NUM_ACTIONS", core::NUM_ACTIONS)?;
    let limits = PyDict::new(module.py());
    for (name, value) in core::LIMITS {
        limits.set_item(name, value)?;
    }
    module.add("LIMITS", limits)?;
    module.add(
        "RULESET_FIELDS",
        PyTuple::new(module.py(), core::RULESET_FIELDS)?,
    )?;
    module.add(
        "RULESET_OPTIONAL_FIELDS",
        PyTuple::new(module.py(), core::RULESET_OPTIONAL_FIELDS)?,
    )?;
    // The core's table of the ruleset fields (generated from the schema), one dict per field.
    let table = to_python(module.py(), &core::ruleset_field_table())?;
    module.add(
        "RULESET_FIELD_TABLE",
        PyTuple::new(
            module.py(),
            table
                .bind(module.py())
                .try_iter()?
                .collect::<PyResult<Vec<_>>>()?,
        )?,
    )?;
    let codes: Vec<&str> = ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
    module.add("ERROR_CODES", PyTuple::new(module.py(), codes)?)?;
    module.add_function(wrap_pyfunction!(action_ids, module)?)?;
    module.add_function(wrap_pyfunction!(action_from_ids, module)?)?;
    module.add_function(wrap_pyfunction!(action_label, module)?)?;
    module.add_function(wrap_pyfunction!(_unpickle_game, module)?)?;
    module.add_function(wrap_pyfunction!(_encode_observation, module)?)?;
    facts::register(module)?;
    module.add_function(wrap_pyfunction!(parse_card, module)?)?;
    module.add_function(wrap_pyfunction!(card_id, module)?)?;
    module.add_function(wrap_pyfunction!(preset, module)?)?;
    module.add_function(wrap_pyfunction!(preset_names, module)?)?;
    module.add_function(wrap_pyfunction!(deal_from_seed, module)?)?;
    module.add_function(wrap_pyfunction!(seed_draws, module)?)?;
    module.add_function(wrap_pyfunction!(dump_record, module)?)?;
    module.add_function(wrap_pyfunction!(load_record, module)?)?;
    module.add_function(wrap_pyfunction!(score_bounds, module)?)?;
    module.add_function(wrap_pyfunction!(simulate_scores, module)?)?;
    module.add_function(wrap_pyfunction!(simulate_scores_and_masks, module)?)?;
    module.add_function(wrap_pyfunction!(sample_hidden, module)?)?;
    module.add_function(wrap_pyfunction!(count_layouts, module)?)?;
    module.add_function(wrap_pyfunction!(monte_carlo_play, module)?)?;
    module.add_function(wrap_pyfunction!(search_play, module)?)?;
    module.add_function(wrap_pyfunction!(search_policy, module)?)?;
    module.add_function(wrap_pyfunction!(evaluate_decision, module)?)?;
    module.add_function(wrap_pyfunction!(sample_consistent, module)?)?;
    module.add_function(wrap_pyfunction!(count_consistent, module)?)?;
    Ok(())
}
