//! `reversis._core.VectorEnv`: the core's batched environment (API-11), its buffers shared with
//! Python through the buffer protocol, so that NumPy reads them without a copy.

use std::os::raw::{c_char, c_int, c_void};
use std::sync::Arc;

use pyo3::buffer::PyBuffer;
use pyo3::exceptions::PyBufferError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyMemoryView, PyString};
use reversis_core as core;
use reversis_core::{Episode, ErrorCode, Rewards};
use reversis_players as players;

use crate::{
    core_result, count_arg, describe, fail, integer, ruleset_arg, unsigned_arg, Given, PyGame,
    PyRuleset,
};

// The most threads one `VectorEnv` steps on is simulate's (ERR-6).
use reversis_core::MAX_THREADS;

/// The buffers of a `VectorEnv`, in the order of API-11's table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Field {
    CurrentPlayer,
    LegalActionMask,
    Observation,
    Rewards,
    Terminated,
    EpisodeScores,
}

impl Field {
    /// The struct-module format of one item: `?` for the 0-or-1 bytes, so that NumPy gives
    /// `bool` arrays.
    fn format(self) -> &'static [u8] {
        match self {
            Field::CurrentPlayer | Field::Observation => b"i\0",
            Field::LegalActionMask | Field::Terminated => b"?\0",
            Field::Rewards => b"f\0",
            Field::EpisodeScores => b"q\0",
        }
    }
}

/// `num_envs` games of one ruleset stepped together by action ids (API-11).
#[pyclass(module = "reversis._core", name = "VectorEnv", subclass)]
pub struct PyVectorEnv {
    env: core::VectorEnv,
    threads: usize,
}

impl PyVectorEnv {
    /// The address, item size, and row count and width of a buffer.
    fn layout(&self, field: Field) -> (*const c_void, usize, usize, usize) {
        let env = &self.env;
        let rows = env.num_envs();
        let players = env.ruleset().players();
        let (ptr, size, width): (*const c_void, usize, usize) = match field {
            Field::CurrentPlayer => (env.current_player().as_ptr().cast(), 4, 1),
            Field::LegalActionMask => (
                env.legal_action_mask().as_ptr().cast(),
                1,
                core::NUM_ACTIONS as usize,
            ),
            Field::Observation => (env.observation().as_ptr().cast(), 4, core::ENCODING_LENGTH),
            Field::Rewards => (env.rewards().as_ptr().cast(), 4, players),
            Field::Terminated => (env.terminated().as_ptr().cast(), 1, 1),
            Field::EpisodeScores => (env.episode_scores().as_ptr().cast(), 8, players),
        };
        (ptr, size, rows, width)
    }
}

fn episode_arg(value: &Bound<'_, PyAny>) -> PyResult<Episode> {
    match value.cast::<PyString>().ok().map(|s| s.to_string()) {
        Some(s) if s == "hand" => Ok(Episode::Hand),
        Some(s) if s == "match" => Ok(Episode::Match),
        _ => fail(
            ErrorCode::InvalidSetup,
            format!(
                "episode must be \"hand\" or \"match\", not {}",
                describe(value)
            ),
        ),
    }
}

fn rewards_arg(value: &Bound<'_, PyAny>) -> PyResult<Rewards> {
    match value.cast::<PyString>().ok().map(|s| s.to_string()) {
        Some(s) if s == "hand" => Ok(Rewards::HandEnd),
        Some(s) if s == "trick" => Ok(Rewards::PerTrick),
        _ => fail(
            ErrorCode::InvalidSetup,
            format!(
                "rewards must be \"hand\" or \"trick\", not {}",
                describe(value)
            ),
        ),
    }
}

/// Game `i` of `num` games, else `invalid-action` naming the range.
fn index_arg(value: &Bound<'_, PyAny>, num: usize) -> PyResult<usize> {
    if let Some(int) = integer(value) {
        if let Ok(i) = int.extract::<u64>() {
            if (i as usize) < num {
                return Ok(i as usize);
            }
        }
    }
    fail(
        ErrorCode::InvalidAction,
        format!(
            "invalid action: a game index must be an integer from 0 to {}, not {}",
            num - 1,
            describe(value)
        ),
    )
}

/// A step's ids (out-of-range entries as `u16::MAX`), and its first entry outside 0-105 as
/// `(index, value)`.
type StepIds = (Vec<u16>, Option<(usize, i128)>);

/// The action ids of a step: any 1-D buffer of integers (a NumPy array of any integer type) or
/// an iterable of integers.
fn actions_arg(value: &Bound<'_, PyAny>) -> PyResult<StepIds> {
    fn ids<T: Copy + Into<i128>>(values: Vec<T>) -> StepIds {
        let mut first_bad = None;
        let ids = values
            .into_iter()
            .enumerate()
            .map(|(i, v)| {
                let v: i128 = v.into();
                if !(0..i128::from(core::NUM_ACTIONS)).contains(&v) {
                    first_bad.get_or_insert((i, v));
                }
                u16::try_from(v).unwrap_or(u16::MAX)
            })
            .collect();
        (ids, first_bad)
    }
    let py = value.py();
    macro_rules! from_buffer {
        ($($t:ty),*) => {$(
            if let Ok(buffer) = PyBuffer::<$t>::get(value) {
                if buffer.dimensions() == 1 {
                    return Ok(ids(buffer.to_vec(py)?));
                }
            }
        )*};
    }
    let not_ids = || {
        fail(
            ErrorCode::InvalidAction,
            format!(
                "invalid action: step takes one integer action id per game, not {}",
                describe(value)
            ),
        )
    };
    if value.is_instance_of::<PyString>() || value.is_instance_of::<PyBytes>() {
        return not_ids();
    }
    from_buffer!(i64, i32, i16, i8, u64, u32, u16, u8);
    let Ok(items) = value.try_iter() else {
        return not_ids();
    };
    let mut out = Vec::new();
    for item in items {
        let Some(item) = integer(&item?) else {
            return not_ids();
        };
        // Beyond i128 is out of range all the same.
        out.push(item.extract::<i128>().unwrap_or(i128::MAX));
    }
    Ok(ids(out))
}

#[pymethods]
impl PyVectorEnv {
    #[new]
    #[pyo3(
        signature = (ruleset, num_envs, seed, *, threads=Given(None), episode=Given(None), rewards=Given(None), history=Given(None)),
        text_signature = "(ruleset, num_envs, seed, *, threads=1, episode='hand', rewards='hand', history=False)"
    )]
    fn new(
        ruleset: &Bound<'_, PyAny>,
        num_envs: &Bound<'_, PyAny>,
        seed: &Bound<'_, PyAny>,
        threads: Given<'_>,
        episode: Given<'_>,
        rewards: Given<'_>,
        history: Given<'_>,
    ) -> PyResult<Self> {
        let rules = ruleset_arg(ruleset)?;
        let num = count_arg(num_envs, "num_envs", 1, core::MAX_ENVS as u64)?;
        let seed = unsigned_arg(seed, ErrorCode::InvalidSetup, "a seed")?;
        // An explicit None is not the default (API-11: any other bad argument is invalid-setup).
        let threads = match &threads.0 {
            Some(t) => count_arg(t, "a number of threads", 1, MAX_THREADS)?,
            None => 1,
        };
        let episode = episode.0.as_ref().map_or(Ok(Episode::Hand), episode_arg)?;
        let rewards = rewards
            .0
            .as_ref()
            .map_or(Ok(Rewards::HandEnd), rewards_arg)?;
        let history = match &history.0 {
            Some(h) => match h.cast::<PyBool>() {
                Ok(b) => b.is_true(),
                Err(_) => {
                    return fail(
                        ErrorCode::InvalidSetup,
                        format!(
                            "invalid setup: history must be True or False, not {}",
                            describe(h)
                        ),
                    )
                }
            },
            None => false,
        };
        let env = core_result(core::VectorEnv::new(rules, num, seed, episode, rewards))?;
        let env = if history { env.with_history() } else { env };
        Ok(PyVectorEnv { env, threads })
    }

    /// Abandons every game's episode and starts its next one.
    fn reset(&mut self, py: Python<'_>) {
        let env = &mut self.env;
        py.detach(|| env.reset());
    }

    /// Applies `actions[i]` to game `i` for its acting seat, without the GIL.
    fn step(&mut self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<()> {
        let (ids, out_of_range) = actions_arg(actions)?;
        if let (Some((i, v)), true) = (out_of_range, ids.len() == self.env.num_envs()) {
            return fail(
                ErrorCode::InvalidAction,
                format!(
                    "game {i}: action id {v} is illegal: an action id is an integer from 0 to {}",
                    core::NUM_ACTIONS - 1
                ),
            );
        }
        let threads = self.threads;
        let env = &mut self.env;
        core_result(py.detach(|| env.step_threads(&ids, threads)))
    }

    /// Game `i`, a copy.
    fn game(&self, index: &Bound<'_, PyAny>) -> PyResult<PyGame> {
        let i = index_arg(index, self.env.num_envs())?;
        Ok(PyGame::from_game(core_result(self.env.game(i))?))
    }

    /// Whether each game's history is kept, so that `game(i)` works.
    #[getter]
    fn history(&self) -> bool {
        self.env.has_history()
    }

    /// The episode game `i` is playing, 0 for its first.
    fn episode_index(&self, index: &Bound<'_, PyAny>) -> PyResult<u64> {
        let i = index_arg(index, self.env.num_envs())?;
        Ok(self.env.episode_index(i))
    }

    #[getter]
    fn num_envs(&self) -> usize {
        self.env.num_envs()
    }
    #[getter]
    fn ruleset(&self) -> PyRuleset {
        PyRuleset {
            inner: Arc::clone(self.env.ruleset()),
        }
    }
    #[getter]
    fn seed(&self) -> u64 {
        self.env.seed()
    }
    #[getter]
    fn threads(&self) -> usize {
        self.threads
    }
    #[getter]
    fn episode(&self) -> &'static str {
        match self.env.episode() {
            Episode::Hand => "hand",
            Episode::Match => "match",
        }
    }
    #[getter]
    fn rewards_mode(&self) -> &'static str {
        match self.env.rewards_kind() {
            Rewards::HandEnd => "hand",
            Rewards::PerTrick => "trick",
        }
    }

    #[getter]
    fn current_player<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyMemoryView>> {
        view(slf, Field::CurrentPlayer)
    }
    #[getter]
    fn legal_action_mask<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyMemoryView>> {
        view(slf, Field::LegalActionMask)
    }
    #[getter]
    fn observation<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyMemoryView>> {
        view(slf, Field::Observation)
    }
    #[getter]
    fn rewards<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyMemoryView>> {
        view(slf, Field::Rewards)
    }
    #[getter]
    fn terminated<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyMemoryView>> {
        view(slf, Field::Terminated)
    }
    #[getter]
    fn episode_scores<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyMemoryView>> {
        view(slf, Field::EpisodeScores)
    }

    fn __repr__(&self) -> String {
        format!(
            "VectorEnv({:?}, num_envs={}, seed={}, threads={}, episode={:?}, rewards={:?}, history={})",
            self.env.ruleset().name(),
            self.env.num_envs(),
            self.env.seed(),
            self.threads,
            self.episode(),
            self.rewards_mode(),
            if self.env.has_history() { "True" } else { "False" }
        )
    }
}

fn view<'py>(env: &Bound<'py, PyVectorEnv>, field: Field) -> PyResult<Bound<'py, PyMemoryView>> {
    let exporter = Bound::new(
        env.py(),
        Buffer {
            env: env.clone().unbind(),
            field,
        },
    )?;
    PyMemoryView::from(exporter.as_any())
}

/// One buffer of a `VectorEnv`, exported read-only; it keeps its environment (and so the memory)
/// alive for as long as a view of it exists.
#[pyclass(module = "reversis._core", name = "VectorEnvBuffer", frozen)]
pub struct Buffer {
    env: Py<PyVectorEnv>,
    field: Field,
}

#[pymethods]
impl Buffer {
    /// Fills `view` with the buffer's address, format and 2-D shape.
    ///
    /// # Safety
    ///
    /// The exported memory is the core's `Vec`s, allocated once by `VectorEnv::new` at their
    /// final length and never reallocated; `self.env` keeps them alive while the export lasts
    /// (the view holds this object). The core writes them only during `reset` and `step`,
    /// which take the environment's exclusive borrow, so a reader racing a step from another
    /// thread sees rows of either step, as with any NumPy array shared between threads.
    unsafe fn __getbuffer__(
        slf: Bound<'_, Self>,
        view: *mut ffi::Py_buffer,
        flags: c_int,
    ) -> PyResult<()> {
        if view.is_null() {
            return Err(PyBufferError::new_err("a buffer request without a view"));
        }
        if flags & ffi::PyBUF_WRITABLE == ffi::PyBUF_WRITABLE {
            return Err(PyBufferError::new_err(
                "the buffers of a VectorEnv are read-only: copy them to change them",
            ));
        }
        let field = slf.get().field;
        let env = slf.get().env.bind(slf.py()).try_borrow().map_err(|_| {
            PyBufferError::new_err("the VectorEnv is being stepped by another thread")
        })?;
        let (ptr, item, rows, width) = env.layout(field);
        // shape then strides, freed by __releasebuffer__.
        let dims: Box<[ffi::Py_ssize_t; 4]> = Box::new([
            rows as ffi::Py_ssize_t,
            width as ffi::Py_ssize_t,
            (width * item) as ffi::Py_ssize_t,
            item as ffi::Py_ssize_t,
        ]);
        let dims = Box::into_raw(dims) as *mut ffi::Py_ssize_t;
        let ndim = if width == 1 { 1 } else { 2 };
        // SAFETY: `view` is non-null and Python's to fill; the pointers stored in it stay valid
        // until __releasebuffer__ (see above).
        unsafe {
            (*view).obj = slf.clone().into_any().into_ptr();
            (*view).buf = ptr as *mut c_void;
            (*view).len = (rows * width * item) as ffi::Py_ssize_t;
            (*view).readonly = 1;
            (*view).itemsize = item as ffi::Py_ssize_t;
            (*view).format = if flags & ffi::PyBUF_FORMAT == ffi::PyBUF_FORMAT {
                field.format().as_ptr() as *mut c_char
            } else {
                std::ptr::null_mut()
            };
            (*view).ndim = ndim;
            (*view).shape = if flags & ffi::PyBUF_ND == ffi::PyBUF_ND {
                dims
            } else {
                std::ptr::null_mut()
            };
            (*view).strides = if flags & ffi::PyBUF_STRIDES == ffi::PyBUF_STRIDES {
                if ndim == 1 {
                    dims.add(3)
                } else {
                    dims.add(2)
                }
            } else {
                std::ptr::null_mut()
            };
            (*view).suboffsets = std::ptr::null_mut();
            (*view).internal = dims as *mut c_void;
        }
        Ok(())
    }

    /// Frees the shape and strides of `view`.
    ///
    /// # Safety
    ///
    /// `view.internal` is the allocation of `__getbuffer__`, released once.
    unsafe fn __releasebuffer__(&self, view: *mut ffi::Py_buffer) {
        // SAFETY: see above.
        unsafe {
            let dims = (*view).internal as *mut [ffi::Py_ssize_t; 4];
            if !dims.is_null() {
                drop(Box::from_raw(dims));
            }
        }
    }
}

/// The seed of episode `episode` of game `index` of a `VectorEnv` seeded with `seed` (API-11).
#[pyfunction]
pub fn episode_seed(
    seed: &Bound<'_, PyAny>,
    index: &Bound<'_, PyAny>,
    episode: &Bound<'_, PyAny>,
) -> PyResult<u64> {
    let seed = unsigned_arg(seed, ErrorCode::InvalidSetup, "a seed")?;
    let index = count_arg(index, "a game index", 0, core::MAX_ENVS as u64 - 1)?;
    let episode = unsigned_arg(episode, ErrorCode::InvalidSetup, "an episode")?;
    Ok(core::episode_seed(seed, index, episode))
}

/// For every game of `env` (a `VectorEnv`), the action id that the computer player `player`
/// (`"random"` or `"rules"`) chooses for its acting seat from what that seat may see, game `i`
/// drawing from the generator of hand `i` of a batch seeded with `seed`; on the environment's
/// threads, without the GIL.
#[pyfunction]
pub fn computer_actions(
    py: Python<'_>,
    env: &Bound<'_, PyAny>,
    player: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
) -> PyResult<Vec<u16>> {
    let Ok(env) = env.cast::<PyVectorEnv>() else {
        return fail(
            ErrorCode::InvalidSetup,
            format!(
                "invalid setup: computer players need a VectorEnv of the Rust engine, not {}",
                describe(env)
            ),
        );
    };
    let Ok(name) = player.cast::<PyString>().map(|s| s.to_string()) else {
        return fail(
            ErrorCode::InvalidSetup,
            format!(
                "invalid setup: a computer player is named by a str, not {}",
                describe(player)
            ),
        );
    };
    let player = core_result(players::Computer::from_name(&name))?;
    let seed = unsigned_arg(seed, ErrorCode::InvalidSetup, "a seed")?;
    let env = env.try_borrow().map_err(|_| {
        pyo3::exceptions::PyRuntimeError::new_err(
            "the VectorEnv is being stepped by another thread",
        )
    })?;
    let (inner, threads) = (&env.env, env.threads);
    core_result(py.detach(|| players::computer_actions(inner, player, seed, threads)))
}
