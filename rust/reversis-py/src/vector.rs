//! `reversis._core.VectorEnv`: the core's batched environment (API-11), its buffers shared with
//! Python without a copy, through the buffer protocol (NumPy) and DLPack (PyTorch, JAX, NumPy).

use std::os::raw::{c_char, c_int, c_void};
use std::sync::Arc;

use pyo3::buffer::PyBuffer;
use pyo3::exceptions::PyBufferError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyMemoryView, PyString, PyTuple};
use reversis_core as core;
use reversis_core::{Episode, ErrorCode, ObservationDtype, Observations, Rewards};
use reversis_players as players;

use crate::dlpack::{self, Kind, Layout, Owner};
use crate::pool::Pool;
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
    fn name(self) -> &'static str {
        match self {
            Field::CurrentPlayer => "current_player",
            Field::LegalActionMask => "legal_action_mask",
            Field::Observation => "observation",
            Field::Rewards => "rewards",
            Field::Terminated => "terminated",
            Field::EpisodeScores => "episode_scores",
        }
    }
}

/// The struct-module format of one item of `kind` and `size` bytes: `?` for the 0-or-1 bytes,
/// so that NumPy gives `bool` arrays.
fn format(kind: Kind, size: usize) -> &'static [u8] {
    match (kind, size) {
        (Kind::Bool, _) => b"?\0",
        (Kind::UInt, _) => b"B\0",
        (Kind::Float, _) => b"f\0",
        (Kind::Int, 8) => b"q\0",
        (Kind::Int, _) => b"i\0",
    }
}

/// `num_envs` games of one ruleset stepped together by action ids (API-11).
#[pyclass(module = "reversis._core", name = "VectorEnv", subclass)]
pub struct PyVectorEnv {
    env: core::VectorEnv,
    threads: usize,
    pool: Pool,
}

impl PyVectorEnv {
    /// The address, element type and shape of a buffer.
    fn layout(&self, field: Field) -> Layout {
        let env = &self.env;
        let rows = env.num_envs();
        let players = env.ruleset().players();
        let (ptr, kind, item, width): (*const c_void, Kind, usize, usize) = match field {
            Field::CurrentPlayer => (env.current_player().as_ptr().cast(), Kind::Int, 4, 1),
            Field::LegalActionMask => (
                env.legal_action_mask().as_ptr().cast(),
                Kind::Bool,
                1,
                core::NUM_ACTIONS as usize,
            ),
            Field::Observation => match env.observation() {
                Observations::Int32(o) => (o.as_ptr().cast(), Kind::Int, 4, core::ENCODING_LENGTH),
                Observations::Uint8(o) => (o.as_ptr().cast(), Kind::UInt, 1, core::ENCODING_LENGTH),
            },
            Field::Rewards => (env.rewards().as_ptr().cast(), Kind::Float, 4, players),
            Field::Terminated => (env.terminated().as_ptr().cast(), Kind::Bool, 1, 1),
            Field::EpisodeScores => (env.episode_scores().as_ptr().cast(), Kind::Int, 8, players),
        };
        Layout {
            ptr,
            kind,
            item,
            rows,
            width,
        }
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

fn dtype_arg(value: &Bound<'_, PyAny>) -> PyResult<ObservationDtype> {
    match value
        .cast::<PyString>()
        .ok()
        .and_then(|s| ObservationDtype::from_name(&s.to_string()))
    {
        Some(dtype) => Ok(dtype),
        None => fail(
            ErrorCode::InvalidSetup,
            format!(
                "invalid setup: observation_dtype must be \"int32\" or \"uint8\", not {}",
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
        signature = (ruleset, num_envs, seed, *, threads=Given(None), episode=Given(None), rewards=Given(None), history=Given(None), observation_dtype=Given(None)),
        text_signature = "(ruleset, num_envs, seed, *, threads=1, episode='hand', rewards='hand', history=False, observation_dtype='int32')"
    )]
    #[allow(clippy::too_many_arguments)]
    fn new(
        ruleset: &Bound<'_, PyAny>,
        num_envs: &Bound<'_, PyAny>,
        seed: &Bound<'_, PyAny>,
        threads: Given<'_>,
        episode: Given<'_>,
        rewards: Given<'_>,
        history: Given<'_>,
        observation_dtype: Given<'_>,
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
        let dtype = observation_dtype
            .0
            .as_ref()
            .map_or(Ok(ObservationDtype::Int32), dtype_arg)?;
        let env = core_result(core::VectorEnv::new(rules, num, seed, episode, rewards))?;
        let env = core_result(env.with_observation_dtype(dtype))?;
        let env = if history { env.with_history() } else { env };
        Ok(PyVectorEnv {
            env,
            threads,
            pool: Pool::default(),
        })
    }

    /// Abandons every game's episode and starts its next one.
    fn reset(&mut self, py: Python<'_>) {
        let env = &mut self.env;
        py.detach(|| env.reset());
    }

    /// Applies `actions[i]` to game `i` for its acting seat, without the GIL, on the
    /// calling thread and up to `threads − 1` threads kept from step to step.
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
        let num = self.env.num_envs();
        self.pool
            .reserve(num.div_ceil(core::VectorEnv::run_size(num, threads)));
        let (env, pool) = (&mut self.env, &self.pool);
        core_result(py.detach(|| env.step_with(&ids, threads, pool)))
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
    fn observation_dtype(&self) -> &'static str {
        self.env.observation_dtype().as_str()
    }
    #[getter]
    fn rewards_mode(&self) -> &'static str {
        match self.env.rewards_kind() {
            Rewards::HandEnd => "hand",
            Rewards::PerTrick => "trick",
        }
    }

    #[getter]
    fn current_player(slf: &Bound<'_, Self>) -> PyResult<Buffer> {
        Ok(buffer(slf, Field::CurrentPlayer))
    }
    #[getter]
    fn legal_action_mask(slf: &Bound<'_, Self>) -> PyResult<Buffer> {
        Ok(buffer(slf, Field::LegalActionMask))
    }
    #[getter]
    fn observation(slf: &Bound<'_, Self>) -> PyResult<Buffer> {
        Ok(buffer(slf, Field::Observation))
    }
    #[getter]
    fn rewards(slf: &Bound<'_, Self>) -> PyResult<Buffer> {
        Ok(buffer(slf, Field::Rewards))
    }
    #[getter]
    fn terminated(slf: &Bound<'_, Self>) -> PyResult<Buffer> {
        Ok(buffer(slf, Field::Terminated))
    }
    #[getter]
    fn episode_scores(slf: &Bound<'_, Self>) -> PyResult<Buffer> {
        Ok(buffer(slf, Field::EpisodeScores))
    }

    fn __repr__(&self) -> String {
        format!(
            "VectorEnv({:?}, num_envs={}, seed={}, threads={}, episode={:?}, rewards={:?}, history={}, observation_dtype={:?})",
            self.env.ruleset().name(),
            self.env.num_envs(),
            self.env.seed(),
            self.threads,
            self.episode(),
            self.rewards_mode(),
            if self.env.has_history() { "True" } else { "False" },
            self.observation_dtype()
        )
    }
}

fn buffer(env: &Bound<'_, PyVectorEnv>, field: Field) -> Buffer {
    Buffer {
        env: env.clone().unbind(),
        field,
    }
}

/// One buffer of a `VectorEnv`: read-only, its memory the environment's, which every step
/// rewrites in place. It is exported through the buffer protocol (`numpy.asarray`,
/// `memoryview`) and DLPack (`numpy.from_dlpack`, `torch.from_dlpack`, `jax.dlpack`), and
/// reads like a `memoryview`. It keeps its environment (and so the memory) alive for as long
/// as it or any array made from it exists.
#[pyclass(module = "reversis._core", name = "VectorEnvBuffer", frozen)]
pub struct Buffer {
    env: Py<PyVectorEnv>,
    field: Field,
}

impl Buffer {
    /// The layout of the buffer, while no step runs (the environment is borrowed mutably only
    /// by a step, which releases the GIL: another thread may ask meanwhile).
    fn layout(&self, py: Python<'_>) -> PyResult<Layout> {
        let env = self.env.bind(py).try_borrow().map_err(|_| {
            PyBufferError::new_err("the VectorEnv is being stepped by another thread")
        })?;
        Ok(env.layout(self.field))
    }

    fn memoryview<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyMemoryView>> {
        PyMemoryView::from(slf.as_any())
    }
}

#[pymethods]
impl Buffer {
    /// Fills `view` with the buffer's address, format and 2-D shape.
    ///
    /// # Safety
    ///
    /// The exported memory is the core's `Vec`s, allocated once by `VectorEnv::new` (or
    /// `with_observation_dtype`, before the Python object exists) at their final length and
    /// never reallocated; `self.env` keeps them alive while the export lasts (the view holds
    /// this object). The core writes them only during `reset` and `step`, which take the
    /// environment's exclusive borrow, and never reads them back, so a reader racing a step
    /// from another thread sees rows of either step, as with any NumPy array shared between
    /// threads.
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
        let layout = slf.get().layout(slf.py())?;
        let (rows, width, item) = (layout.rows, layout.width, layout.item);
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
            (*view).buf = layout.ptr as *mut c_void;
            (*view).len = layout.len() as ffi::Py_ssize_t;
            (*view).readonly = 1;
            (*view).itemsize = item as ffi::Py_ssize_t;
            (*view).format = if flags & ffi::PyBUF_FORMAT == ffi::PyBUF_FORMAT {
                format(layout.kind, item).as_ptr() as *mut c_char
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

    /// A DLPack capsule of the buffer (the array API's `__dlpack__`), sharing its memory:
    /// version 1.0 and flagged read-only when the consumer asks for `max_version` 1.0 or
    /// later, else the unversioned structure; a copy of its own with `copy=True`.
    #[pyo3(signature = (*, stream=None, max_version=None, dl_device=None, copy=None))]
    fn __dlpack__(
        slf: &Bound<'_, Self>,
        stream: Option<&Bound<'_, PyAny>>,
        max_version: Option<(u32, u32)>,
        dl_device: Option<(i32, i32)>,
        copy: Option<bool>,
    ) -> PyResult<Py<PyAny>> {
        let py = slf.py();
        if let Some(stream) = stream {
            // -1 asks for no synchronisation, which memory on the CPU never needs.
            if stream.extract::<i64>().ok() != Some(-1) {
                return Err(PyBufferError::new_err(format!(
                    "a VectorEnv buffer is in memory on the CPU, which has no streams: stream must be None, not {}",
                    describe(stream)
                )));
            }
        }
        if let Some(device) = dl_device {
            if device != (dlpack::DEVICE_CPU, 0) {
                return Err(PyBufferError::new_err(format!(
                    "a VectorEnv buffer is in memory on the CPU, device (1, 0), not {device:?}: copy it to the device after"
                )));
            }
        }
        let versioned = max_version.is_some_and(|(major, _)| major >= 1);
        let mut layout = slf.get().layout(py)?;
        let owner = if copy == Some(true) {
            let mut words = vec![0u64; layout.len().div_ceil(8)];
            // SAFETY: `layout.ptr` points to `layout.len()` bytes of the environment, which the
            // borrow taken by `layout` showed no step was writing, and the GIL, held here,
            // keeps any from starting; `words` holds at least as many bytes, and is new.
            unsafe {
                std::ptr::copy_nonoverlapping(
                    layout.ptr.cast::<u8>(),
                    words.as_mut_ptr().cast::<u8>(),
                    layout.len(),
                );
            }
            layout.ptr = words.as_ptr().cast();
            Owner::Copy(words)
        } else {
            Owner::Shared(slf.clone().into_any().unbind())
        };
        // SAFETY: a shared export points into the environment's buffers, which the owner (this
        // object, holding the environment) keeps alive and in place (see __getbuffer__); a copy
        // points into its own words, which move with the `Vec` but do not move in memory.
        unsafe { dlpack::capsule(py, &layout, owner, versioned) }
    }

    /// `(1, 0)`: DLPack's CPU device (`kDLCPU`), device 0.
    fn __dlpack_device__(&self) -> (i32, i32) {
        (dlpack::DEVICE_CPU, 0)
    }

    /// The buffer's name in its environment (`observation`, `legal_action_mask`, …).
    #[getter]
    fn name(&self) -> &'static str {
        self.field.name()
    }

    /// `(num_envs,)` or `(num_envs, width)`, as a `memoryview` of it has.
    #[getter]
    fn shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let layout = self.layout(py)?;
        if layout.width == 1 {
            PyTuple::new(py, [layout.rows])
        } else {
            PyTuple::new(py, [layout.rows, layout.width])
        }
    }

    /// The number of dimensions, 1 or 2.
    #[getter]
    fn ndim(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(if self.layout(py)?.width == 1 { 1 } else { 2 })
    }

    /// The struct-module format of an item: `i`, `B`, `?`, `f` or `q`.
    #[getter]
    fn format(&self, py: Python<'_>) -> PyResult<&'static str> {
        let layout = self.layout(py)?;
        let bytes = format(layout.kind, layout.item);
        Ok(std::str::from_utf8(&bytes[..1]).unwrap_or("B"))
    }

    /// The bytes of an item.
    #[getter]
    fn itemsize(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(self.layout(py)?.item)
    }

    /// The bytes of the whole buffer.
    #[getter]
    fn nbytes(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(self.layout(py)?.len())
    }

    /// Always `True`: the environment alone writes its buffers.
    #[getter]
    fn readonly(&self) -> bool {
        true
    }

    /// The number of rows, `num_envs`.
    fn __len__(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(self.layout(py)?.rows)
    }

    /// Items or rows, as `memoryview(buffer)[key]` gives them.
    fn __getitem__<'py>(
        slf: &Bound<'py, Self>,
        key: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        Buffer::memoryview(slf)?.get_item(key)
    }

    /// The items as nested lists, as `memoryview.tolist` gives them.
    fn tolist<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        Buffer::memoryview(slf)?.call_method0("tolist")
    }

    /// The bytes, a copy.
    fn tobytes<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        Buffer::memoryview(slf)?.call_method0("tobytes")
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let layout = self.layout(py)?;
        let dtype = match (layout.kind, layout.item) {
            (Kind::Bool, _) => "bool",
            (Kind::UInt, _) => "uint8",
            (Kind::Float, _) => "float32",
            (Kind::Int, 8) => "int64",
            (Kind::Int, _) => "int32",
        };
        let shape = if layout.width == 1 {
            format!("({},)", layout.rows)
        } else {
            format!("({}, {})", layout.rows, layout.width)
        };
        Ok(format!(
            "<VectorEnvBuffer {} {dtype} {shape}>",
            self.field.name()
        ))
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
