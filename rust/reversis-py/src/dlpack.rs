//! DLPack capsules (the data-interchange protocol of the Python array API) for the buffers of a
//! `VectorEnv`, so that `numpy.from_dlpack`, `torch.from_dlpack` and `jax.dlpack.from_dlpack`
//! take them without a copy.
//!
//! The structures are those of `dlpack.h`, version 1.0 (`DLManagedTensorVersioned`, capsule
//! `dltensor_versioned`, with the read-only flag) and the earlier `DLManagedTensor` (capsule
//! `dltensor`) for consumers that do not ask for 1.0. A capsule owns one [`Export`]: the
//! structure the consumer reads, the shape and strides it points to, and what keeps the memory
//! alive (a reference to the buffer object, and through it the environment, or a copy of the
//! bytes). The consumer calls the deleter once it is done; a capsule dropped unused calls it
//! itself.

use std::os::raw::{c_char, c_int, c_void};

use pyo3::ffi;
use pyo3::prelude::*;

/// `kDLCPU`.
pub const DEVICE_CPU: i32 = 1;

// The capsule names, NUL-terminated C strings.
const LEGACY_NAME: &[u8] = b"dltensor\0";
const VERSIONED_NAME: &[u8] = b"dltensor_versioned\0";
const FLAG_READ_ONLY: u64 = 1;
const FLAG_IS_COPIED: u64 = 1 << 1;

/// The element types of the buffers, as DLPack codes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `kDLInt`.
    Int,
    /// `kDLUInt`.
    UInt,
    /// `kDLFloat`.
    Float,
    /// `kDLBool`: a byte of 0 or 1.
    Bool,
}

#[repr(C)]
#[derive(Clone, Copy)]
struct DLDevice {
    device_type: c_int,
    device_id: c_int,
}

#[repr(C)]
#[derive(Clone, Copy)]
struct DLDataType {
    code: u8,
    bits: u8,
    lanes: u16,
}

#[repr(C)]
struct DLTensor {
    data: *mut c_void,
    device: DLDevice,
    ndim: c_int,
    dtype: DLDataType,
    shape: *mut i64,
    strides: *mut i64,
    byte_offset: u64,
}

#[repr(C)]
struct DLManagedTensor {
    dl_tensor: DLTensor,
    manager_ctx: *mut c_void,
    deleter: Option<unsafe extern "C" fn(*mut DLManagedTensor)>,
}

#[repr(C)]
struct DLPackVersion {
    major: u32,
    minor: u32,
}

#[repr(C)]
struct DLManagedTensorVersioned {
    version: DLPackVersion,
    manager_ctx: *mut c_void,
    deleter: Option<unsafe extern "C" fn(*mut DLManagedTensorVersioned)>,
    flags: u64,
    dl_tensor: DLTensor,
}

/// What keeps the exported memory alive: held, never read, until the export is deleted.
#[allow(dead_code)]
pub enum Owner {
    /// The buffer object (which holds its environment): the environment's own memory.
    Shared(Py<PyAny>),
    /// A copy of the bytes, in 8-byte words so that every element type is aligned.
    Copy(Vec<u64>),
}

/// One export: the structure handed out, what it points to, and its owner.
struct Export<M> {
    managed: M,
    shape: [i64; 2],
    strides: [i64; 2],
    _owner: Owner,
}

/// The memory and the layout of one buffer.
pub struct Layout {
    pub ptr: *const c_void,
    pub kind: Kind,
    /// Bytes per item: 1, 4 or 8.
    pub item: usize,
    pub rows: usize,
    /// Items per row; 1 makes the buffer one-dimensional.
    pub width: usize,
}

impl Layout {
    fn dtype(&self) -> DLDataType {
        let code = match self.kind {
            Kind::Int => 0,
            Kind::UInt => 1,
            Kind::Float => 2,
            Kind::Bool => 6,
        };
        DLDataType {
            code,
            bits: (self.item * 8) as u8,
            lanes: 1,
        }
    }

    /// The number of bytes.
    pub fn len(&self) -> usize {
        self.rows * self.width * self.item
    }
}

/// A DLPack capsule of `layout`, versioned (1.0, flagged read-only unless a copy) or not.
///
/// # Safety
///
/// `layout.ptr` must point to `layout.len()` bytes that `owner` keeps alive and in place for as
/// long as it lives, or `owner` must be the copy that `layout.ptr` points into.
pub unsafe fn capsule(
    py: Python<'_>,
    layout: &Layout,
    owner: Owner,
    versioned: bool,
) -> PyResult<Py<PyAny>> {
    let copied = matches!(owner, Owner::Copy(_));
    let (ndim, shape, strides) = if layout.width == 1 {
        (1, [layout.rows as i64, 0], [1, 0])
    } else {
        (
            2,
            [layout.rows as i64, layout.width as i64],
            [layout.width as i64, 1],
        )
    };
    let tensor = DLTensor {
        data: layout.ptr as *mut c_void,
        device: DLDevice {
            device_type: DEVICE_CPU,
            device_id: 0,
        },
        ndim,
        dtype: layout.dtype(),
        // Set once the export is boxed and its arrays have their final address.
        shape: std::ptr::null_mut(),
        strides: std::ptr::null_mut(),
        byte_offset: 0,
    };
    let (pointer, name, destructor): (*mut c_void, &[u8], Option<ffi::PyCapsule_Destructor>) =
        if versioned {
            let export = Box::into_raw(Box::new(Export {
                managed: DLManagedTensorVersioned {
                    version: DLPackVersion { major: 1, minor: 0 },
                    manager_ctx: std::ptr::null_mut(),
                    deleter: Some(delete_versioned),
                    flags: if copied {
                        FLAG_IS_COPIED
                    } else {
                        FLAG_READ_ONLY
                    },
                    dl_tensor: tensor,
                },
                shape,
                strides,
                _owner: owner,
            }));
            // SAFETY: `export` is the live allocation just made; the pointers stored point into it.
            unsafe {
                (*export).managed.manager_ctx = export.cast();
                (*export).managed.dl_tensor.shape = (*export).shape.as_mut_ptr();
                (*export).managed.dl_tensor.strides = (*export).strides.as_mut_ptr();
                (
                    std::ptr::addr_of_mut!((*export).managed).cast(),
                    VERSIONED_NAME,
                    Some(drop_versioned_capsule),
                )
            }
        } else {
            let export = Box::into_raw(Box::new(Export {
                managed: DLManagedTensor {
                    dl_tensor: tensor,
                    manager_ctx: std::ptr::null_mut(),
                    deleter: Some(delete_legacy),
                },
                shape,
                strides,
                _owner: owner,
            }));
            // SAFETY: as above.
            unsafe {
                (*export).managed.manager_ctx = export.cast();
                (*export).managed.dl_tensor.shape = (*export).shape.as_mut_ptr();
                (*export).managed.dl_tensor.strides = (*export).strides.as_mut_ptr();
                (
                    std::ptr::addr_of_mut!((*export).managed).cast(),
                    LEGACY_NAME,
                    Some(drop_legacy_capsule),
                )
            }
        };
    // SAFETY: `pointer` is non-null and `name` a static C string; the destructor frees the
    // export only while the capsule still has its name (no consumer took it).
    let raw = unsafe { ffi::PyCapsule_New(pointer, name.as_ptr().cast::<c_char>(), destructor) };
    if raw.is_null() {
        // SAFETY: the capsule was not made, so nothing else owns the export.
        unsafe {
            if versioned {
                delete_versioned(pointer.cast());
            } else {
                delete_legacy(pointer.cast());
            }
        }
        return Err(PyErr::fetch(py));
    }
    // SAFETY: `raw` is a new reference.
    Ok(unsafe { Py::from_owned_ptr(py, raw) })
}

/// The deleter of a `DLManagedTensor`: frees its export, releasing the owner.
///
/// # Safety
///
/// `managed` is null or the tensor of a live export made by [`capsule`], deleted once.
unsafe extern "C" fn delete_legacy(managed: *mut DLManagedTensor) {
    if managed.is_null() {
        return;
    }
    // SAFETY: `manager_ctx` is the box of the export (see `capsule`). Dropping the owner's
    // `Py` without the GIL, on whatever thread the consumer deletes from, is deferred by PyO3
    // until a thread holds it.
    unsafe {
        drop(Box::from_raw(
            (*managed).manager_ctx.cast::<Export<DLManagedTensor>>(),
        ))
    };
}

/// The deleter of a `DLManagedTensorVersioned`.
///
/// # Safety
///
/// As [`delete_legacy`].
unsafe extern "C" fn delete_versioned(managed: *mut DLManagedTensorVersioned) {
    if managed.is_null() {
        return;
    }
    // SAFETY: as in `delete_legacy`.
    unsafe {
        drop(Box::from_raw(
            (*managed)
                .manager_ctx
                .cast::<Export<DLManagedTensorVersioned>>(),
        ))
    };
}

/// The destructor of an unversioned capsule: deletes the tensor unless a consumer took it (and
/// renamed the capsule `used_dltensor`).
///
/// # Safety
///
/// Called by Python, with the GIL, on a capsule made by [`capsule`].
unsafe extern "C" fn drop_legacy_capsule(capsule: *mut ffi::PyObject) {
    // SAFETY: `PyCapsule_IsValid` only reads the capsule; when it holds the name, its pointer
    // is the tensor this module stored.
    unsafe {
        if ffi::PyCapsule_IsValid(capsule, LEGACY_NAME.as_ptr().cast::<c_char>()) == 1 {
            let managed = ffi::PyCapsule_GetPointer(capsule, LEGACY_NAME.as_ptr().cast::<c_char>());
            delete_legacy(managed.cast());
        }
    }
}

/// The destructor of a versioned capsule (a consumer renames it `used_dltensor_versioned`).
///
/// # Safety
///
/// As [`drop_legacy_capsule`].
unsafe extern "C" fn drop_versioned_capsule(capsule: *mut ffi::PyObject) {
    // SAFETY: as in `drop_legacy_capsule`.
    unsafe {
        if ffi::PyCapsule_IsValid(capsule, VERSIONED_NAME.as_ptr().cast::<c_char>()) == 1 {
            let managed =
                ffi::PyCapsule_GetPointer(capsule, VERSIONED_NAME.as_ptr().cast::<c_char>());
            delete_versioned(managed.cast());
        }
    }
}
