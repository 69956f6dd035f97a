// DLPack exchange without copies: tensors out as capsules (_to_dlpack, _to_dlpack_versioned) and
// capsules in as tensors (_from_dlpack). engine.utils.dlpack and Tensor.__dlpack__ are the Python
// face (python/engine/_dlpack.py); the structures are in dlpack.h.
//
// Lifetimes. An exported capsule holds the tensor's storage until the consumer calls the deleter
// (or, if nobody consumed it, until the capsule dies). An imported tensor's storage holds the
// producer's capsule and calls the producer's deleter when the last view of it is gone. Either
// end may be dropped from a thread without the interpreter lock, and dropping may run Python (a
// storage borrowed from a NumPy array releases that array), so both take the lock themselves.
#include <cstring>

#include "engine/core/checked.h"
#include "engine/core/error.h"
#include "engine/kernels/elementwise.h"
#include "engine/python/bindings.h"
#include "engine/python/dlpack.h"

namespace engine::python {

namespace {

using dlpack::DLDataType;
using dlpack::DLManagedTensor;
using dlpack::DLManagedTensorVersioned;
using dlpack::DLTensor;

// Runs `fn` holding the interpreter lock. After the interpreter has shut down nothing may touch
// it: the memory is then left to the operating system, which is about to reclaim it anyway.
template <typename F>
void with_interpreter_lock(F&& fn) {
  if (!Py_IsInitialized()) return;
  const PyGILState_STATE state = PyGILState_Ensure();
  fn();
  PyGILState_Release(state);
}

// ---------------------------------------------------------------------------------------------
// Export.

DLDataType dl_dtype(DType d) {
  const auto bits = static_cast<uint8_t>(itemsize(d) * 8);
  switch (d) {
    case DType::Bool: return {dlpack::kDLBool, 8, 1};
    case DType::UInt8: return {dlpack::kDLUInt, 8, 1};
    case DType::Int8: case DType::Int16: case DType::Int32: case DType::Int64: return {dlpack::kDLInt, bits, 1};
    case DType::BFloat16: return {dlpack::kDLBfloat, 16, 1};
    case DType::Float16: case DType::Float32: case DType::Float64: return {dlpack::kDLFloat, bits, 1};
    case DType::Complex64: case DType::Complex128: return {dlpack::kDLComplex, bits, 1};
  }
  return {dlpack::kDLOpaqueHandle, 0, 0};
}

// What an exported capsule owns: the managed tensor handed to the consumer, the storage its data
// points into, and the shape and strides arrays it points at.
template <typename Managed>
struct Export {
  Managed managed{};
  std::shared_ptr<Storage> storage;
  std::vector<int64_t> shape, strides;
};

template <typename Managed>
void delete_export(Managed* self) {
  if (!self) return;
  auto* owner = static_cast<Export<Managed>*>(self->manager_ctx);
  with_interpreter_lock([owner] { delete owner; });
}

// The capsule's destructor: a capsule still under its unused name was never consumed, so its
// tensor is freed here; a consumer that renamed it owns the tensor and calls the deleter itself.
template <typename Managed>
void capsule_destructor(PyObject* capsule) {
  const char* name = std::is_same_v<Managed, DLManagedTensor> ? dlpack::kCapsuleName : dlpack::kVersionedCapsuleName;
  if (!PyCapsule_IsValid(capsule, name)) return;
  // The destructor may run while an exception is being raised: leave it untouched.
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);
  auto* managed = static_cast<Managed*>(PyCapsule_GetPointer(capsule, name));
  if (managed && managed->deleter) managed->deleter(managed);
  PyErr_Restore(type, value, traceback);
}

// dl_device of __dlpack__: None, or a (device_type, device_id) pair naming the CPU (whose id is
// 0; PyTorch accepts any id for the CPU, and so does engine).
void check_dl_device(py::handle dl_device) {
  if (dl_device.is_none()) return;
  ENGINE_CHECK(PyTuple_Check(dl_device.ptr()), engine::TypeError,
               "_to_dlpack(): argument 'dl_device' must be tuple of ints, not ", type_name(dl_device));
  const auto pair = py::reinterpret_borrow<py::tuple>(dl_device);
  for (py::handle item : pair) {
    ENGINE_CHECK(PyLong_Check(item.ptr()), engine::TypeError,
                 "_to_dlpack(): argument 'dl_device' must be tuple of ints, but found element of type ",
                 type_name(item));
  }
  ENGINE_CHECK(pair.size() == 2, ValueError, "_to_dlpack(): argument 'dl_device' must be a pair "
               "(device_type, device_id), got ", pair.size(), " elements");
  const int64_t type = py_index(pair[0]);
  if (type != dlpack::kDLCPU) {
    throw py::buffer_error(str_cat("__dlpack__(): engine tensors live on the CPU (kDLCPU = 1) and cannot be "
                                   "exported to device type ", type, ": copy the tensor on the consumer's side"));
  }
}

template <typename Managed>
py::capsule export_tensor(const Tensor& given, py::handle dl_device, py::handle copy) {
  check_dl_device(dl_device);
  const bool copied = !copy.is_none() && bool_arg(copy, "_to_dlpack", "copy");
  Tensor t = given;
  if (copied) {
    // copy=True: the consumer gets memory of its own, never aliased by engine.
    t = Tensor::empty(given.shape(), given.dtype());
    kernels::copy(t, given);
  }
  auto owner = std::make_unique<Export<Managed>>();
  owner->storage = t.impl()->storage;
  owner->shape.assign(t.shape().begin(), t.shape().end());
  owner->strides.assign(t.strides().begin(), t.strides().end());
  Managed& m = owner->managed;
  m.manager_ctx = owner.get();
  m.deleter = &delete_export<Managed>;
  DLTensor& dl = m.dl_tensor;
  // The data pointer is the first element itself: engine has no alignment contract for the base
  // pointer that a consumer could rely on beyond the element size.
  dl.data = t.numel() == 0 ? owner->storage->data() : t.raw_data();
  dl.device = {dlpack::kDLCPU, 0};
  dl.ndim = static_cast<int32_t>(t.dim());
  dl.dtype = dl_dtype(t.dtype());
  dl.shape = owner->shape.data();
  dl.strides = owner->strides.data();
  dl.byte_offset = 0;
  if constexpr (std::is_same_v<Managed, DLManagedTensorVersioned>) {
    m.version = {dlpack::kMajorVersion, dlpack::kMinorVersion};
    // Engine tensors are always writable; the flag tells the consumer it may keep a copy for itself.
    m.flags = copied ? dlpack::kFlagIsCopied : 0;
  }
  const char* name = std::is_same_v<Managed, DLManagedTensor> ? dlpack::kCapsuleName : dlpack::kVersionedCapsuleName;
  PyObject* capsule = PyCapsule_New(&m, name, &capsule_destructor<Managed>);
  if (!capsule) throw py::error_already_set();
  owner.release();  // the capsule (then its consumer) owns it now
  return py::reinterpret_steal<py::capsule>(capsule);
}

// ---------------------------------------------------------------------------------------------
// Import.

// A DLPack element type as an engine dtype; a TypeError naming the type for the ones engine lacks.
DType engine_dtype(const DLDataType& t) {
  ENGINE_CHECK(t.lanes == 1, engine::TypeError, "from_dlpack(): vector element types (lanes = ", t.lanes,
               ") are not supported");
  switch (t.code) {
    case dlpack::kDLBool:
      if (t.bits == 8) return DType::Bool;
      break;
    case dlpack::kDLUInt:
      if (t.bits == 8) return DType::UInt8;
      break;
    case dlpack::kDLInt:
      if (t.bits == 8) return DType::Int8;
      if (t.bits == 16) return DType::Int16;
      if (t.bits == 32) return DType::Int32;
      if (t.bits == 64) return DType::Int64;
      break;
    case dlpack::kDLFloat:
      if (t.bits == 16) return DType::Float16;
      if (t.bits == 32) return DType::Float32;
      if (t.bits == 64) return DType::Float64;
      break;
    case dlpack::kDLBfloat:
      if (t.bits == 16) return DType::BFloat16;
      break;
    case dlpack::kDLComplex:
      if (t.bits == 64) return DType::Complex64;
      if (t.bits == 128) return DType::Complex128;
      break;
    default:
      break;
  }
  static const char* const kCodeNames[] = {"int", "uint", "float", "opaque handle", "bfloat", "complex", "bool"};
  const std::string code = t.code < 7 ? kCodeNames[t.code] : "type code " + std::to_string(t.code);
  throw engine::TypeError(str_cat("from_dlpack(): engine has no dtype for DLPack ", code, " of ", int(t.bits),
                                  " bits; the supported types are: bool, uint8, int8, int16, int32, int64, float16, "
                                  "bfloat16, float32, float64"));
}

// What an imported tensor needs from the capsule, checked before the capsule is marked used, so a
// refused capsule stays with its producer (whose destructor frees it).
struct ImportLayout {
  DType dtype;
  Dims shape, strides;
  char* data;
  int64_t nbytes;
};

ImportLayout read_layout(const DLTensor& dl) {
  ENGINE_CHECK(dl.device.device_type == dlpack::kDLCPU, py::buffer_error,
               "from_dlpack(): engine tensors live on the CPU (kDLCPU = 1), but the DLPack tensor is on device "
               "type ", dl.device.device_type, ": move it to the CPU first");
  // PyTorch's bound on dimensions, which also keeps the arrays read below small.
  ENGINE_CHECK(dl.ndim >= 0 && dl.ndim <= 64, ValueError, "from_dlpack(): invalid number of dimensions ", dl.ndim);
  ImportLayout out{engine_dtype(dl.dtype), {}, {}, nullptr, 0};
  ENGINE_CHECK(dl.ndim == 0 || dl.shape, ValueError, "from_dlpack(): the DLPack tensor has no shape array");
  for (int32_t i = 0; i < dl.ndim; ++i) {
    ENGINE_CHECK(dl.shape[i] >= 0, ValueError, "from_dlpack(): negative dimension ", dl.shape[i], " in the shape");
    out.shape.push_back(dl.shape[i]);
  }
  const int64_t isz = static_cast<int64_t>(itemsize(out.dtype));
  if (dl.strides) {
    out.strides.assign(dl.strides, dl.strides + dl.ndim);
  } else {
    out.strides = contiguous_strides(out.shape);  // NULL strides: compact row-major
  }
  if (numel_of(out.shape) == 0) return out;  // nothing to share: the caller makes a fresh tensor
  for (size_t i = 0; i < out.strides.size(); ++i) {
    ENGINE_CHECK(out.strides[i] >= 0 || out.shape[i] == 1, ValueError,
                 "from_dlpack(): the DLPack tensor has a negative stride (strides ", dims_str(out.strides),
                 "), and engine tensors cannot have negative strides; make a copy on the producer's side first");
    if (out.shape[i] == 1) out.strides[i] = std::max<int64_t>(out.strides[i], 0);  // never stepped along
  }
  const int64_t extent = storage_extent(out.shape, out.strides, 0);
  ENGINE_CHECK(mul_fits(extent, isz, &out.nbytes), ValueError, "from_dlpack(): the DLPack tensor's extent overflows");
  ENGINE_CHECK(dl.data != nullptr, ValueError, "from_dlpack(): the DLPack tensor's data pointer is NULL");
  ENGINE_CHECK(dl.byte_offset <= static_cast<uint64_t>(INT64_MAX), ValueError,
               "from_dlpack(): invalid byte_offset ", dl.byte_offset);
  out.data = static_cast<char*>(dl.data) + dl.byte_offset;
  // Kernels read elements through typed pointers: they must be aligned to the element size.
  ENGINE_CHECK(reinterpret_cast<uintptr_t>(out.data) % static_cast<uintptr_t>(isz) == 0, ValueError,
               "from_dlpack(): the DLPack tensor's data is not aligned to its element size (", isz,
               " bytes); the tensor would share its memory, so make an aligned copy first");
  return out;
}

// The storage of an engine export, when the capsule came from engine itself: sharing it (rather
// than wrapping the memory again) keeps one version counter for in-place checks.
template <typename Managed>
std::shared_ptr<Storage> engine_storage(Managed* m) {
  if (m->deleter != &delete_export<Managed>) return nullptr;
  return static_cast<Export<Managed>*>(m->manager_ctx)->storage;
}

template <typename Managed>
Tensor import_capsule(py::handle capsule, const char* name, const char* used_name) {
  auto* m = static_cast<Managed*>(PyCapsule_GetPointer(capsule.ptr(), name));
  if (!m) throw py::error_already_set();
  if constexpr (std::is_same_v<Managed, DLManagedTensorVersioned>) {
    if (m->version.major > dlpack::kMajorVersion) {
      throw py::buffer_error(str_cat("from_dlpack(): the capsule holds DLPack ", m->version.major, ".",
                                     m->version.minor, ", newer than the version engine reads (",
                                     dlpack::kMajorVersion, ".x)"));
    }
  }
  ImportLayout layout = read_layout(m->dl_tensor);
  bool read_only = false;
  if constexpr (std::is_same_v<Managed, DLManagedTensorVersioned>) read_only = (m->flags & dlpack::kFlagReadOnly) != 0;
  if (read_only) {
    // Engine has no read-only tensors: say so, as PyTorch does for a read-only NumPy array.
    if (PyErr_WarnEx(PyExc_UserWarning,
                     "The given DLPack tensor is read-only, and engine does not support non-writable tensors. This "
                     "means writing to this tensor will result in undefined behavior. You may want to copy the data "
                     "to protect it or make it writable before converting it to a tensor.",
                     1) < 0) {
      throw py::error_already_set();
    }
  }
  Tensor out;
  if (layout.data == nullptr) {
    // An empty tensor: no memory to share. The producer's tensor is released right away.
    out = Tensor::empty(layout.shape, layout.dtype);
    if (PyCapsule_SetName(capsule.ptr(), used_name) < 0) throw py::error_already_set();
    if (m->deleter) m->deleter(m);
    return out;
  }
  std::shared_ptr<Storage> storage = engine_storage(m);
  std::function<void()> release;
  if (storage) {
    // Engine's own export: view the same storage, and let the capsule's tensor go now.
    const auto base = static_cast<char*>(storage->data());
    const int64_t offset_bytes = layout.data - base;
    const int64_t isz = static_cast<int64_t>(itemsize(layout.dtype));
    out = Tensor(std::make_shared<TensorImpl>(storage, layout.shape, layout.strides, offset_bytes / isz,
                                              layout.dtype));
    if (PyCapsule_SetName(capsule.ptr(), used_name) < 0) throw py::error_already_set();
    m->deleter(m);
    return out;
  }
  // Another producer's memory: the storage keeps its capsule alive and, when the last view is
  // gone, calls the producer's deleter (under the interpreter lock: it may free Python objects).
  PyObject* keep = capsule.ptr();
  storage = std::make_shared<Storage>(layout.data, static_cast<size_t>(layout.nbytes), [keep, m] {
    with_interpreter_lock([keep, m] {
      if (m->deleter) m->deleter(m);
      Py_DECREF(keep);
    });
  });
  Py_INCREF(keep);
  out = Tensor(std::make_shared<TensorImpl>(std::move(storage), layout.shape, layout.strides, 0, layout.dtype));
  // Only now is the capsule consumed: every check above left it with its producer.
  if (PyCapsule_SetName(capsule.ptr(), used_name) < 0) throw py::error_already_set();
  return out;
}

Tensor from_dlpack_capsule(py::handle obj) {
  PyObject* p = obj.ptr();
  if (PyCapsule_IsValid(p, dlpack::kVersionedCapsuleName)) {
    return import_capsule<DLManagedTensorVersioned>(obj, dlpack::kVersionedCapsuleName,
                                                    dlpack::kUsedVersionedCapsuleName);
  }
  if (PyCapsule_IsValid(p, dlpack::kCapsuleName)) {
    return import_capsule<DLManagedTensor>(obj, dlpack::kCapsuleName, dlpack::kUsedCapsuleName);
  }
  throw std::runtime_error(
      "from_dlpack received an invalid capsule. Note that DLTensor capsules can be consumed only once, so you might "
      "have already constructed a tensor from it once.");
}

}  // namespace

void init_dlpack(py::module_& m) {
  m.def("_to_dlpack", [](const Tensor& data, py::handle dl_device, py::handle copy) {
          return export_tensor<DLManagedTensor>(data, dl_device, copy);
        }, py::arg("data"), py::kw_only(), py::arg("dl_device") = py::none(), py::arg("copy") = py::none(),
        "The tensor as a DLPack capsule named 'dltensor' (DLPack < 1.0), sharing its memory.");
  m.def("_to_dlpack_versioned", [](const Tensor& data, py::handle dl_device, py::handle copy) {
          return export_tensor<DLManagedTensorVersioned>(data, dl_device, copy);
        }, py::arg("data"), py::kw_only(), py::arg("dl_device") = py::none(), py::arg("copy") = py::none(),
        "The tensor as a DLPack capsule named 'dltensor_versioned' (DLPack 1.0), sharing its memory.");
  m.def("_from_dlpack", &from_dlpack_capsule, py::arg("data"),
        "A tensor sharing the memory of a DLPack capsule, which it consumes.");
}

}  // namespace engine::python
