// The Python buffer protocol (memoryview(t), bytes(t), np.asarray(t)) and NumPy's
// __array_interface__ on Tensor: both describe the tensor's own memory, so nothing is copied and
// writes through either side are seen by the other.
//
// Rules (PyTorch has no buffer protocol; these follow its rules for the nearest paths):
// - a tensor that requires grad is refused, as Tensor.numpy() and Tensor.__dlpack__ refuse it;
// - bfloat16 has no buffer format character nor NumPy type: refused with a clear error;
// - the buffer is always writable (engine has no read-only tensors), and strided: a consumer that
//   asks for a contiguous buffer of a non-contiguous tensor is refused, as CPython's own types do.
#include "engine/autograd/variable.h"
#include "engine/core/checked.h"
#include "engine/core/error.h"
#include "engine/python/bindings.h"

namespace engine::python {

namespace {

// The PEP 3118 format character of each dtype (native byte order and size); 'q' rather than 'l'
// for int64, which is 32 bits on some platforms.
const char* buffer_format(DType d) {
  switch (d) {
    case DType::Bool: return "?";
    case DType::UInt8: return "B";
    case DType::Int8: return "b";
    case DType::Int16: return "h";
    case DType::Int32: return "i";
    case DType::Int64: return "q";
    case DType::Float16: return "e";
    case DType::Float32: return "f";
    case DType::Float64: return "d";
    case DType::BFloat16: return nullptr;
    case DType::Complex64: return "Zf";
    case DType::Complex128: return "Zd";
  }
  return nullptr;
}

// An empty tensor may have no allocation at all; buffer and array consumers expect a non-NULL,
// aligned pointer even when no element is read.
alignas(64) char g_empty_data[64];

void* data_pointer(const Tensor& t) {
  void* p = t.raw_data();
  return p ? p : static_cast<void*>(g_empty_data);
}

// Whether the elements, visited in row-major (C) or column-major (Fortran) order, are packed
// back to back; dims of size 1 never move, so their strides do not matter.
bool is_packed(const Tensor& t, bool row_major) {
  if (t.numel() <= 1) return true;
  int64_t expected = 1;
  const int64_t n = t.dim();
  for (int64_t k = 0; k < n; ++k) {
    const int64_t d = row_major ? n - 1 - k : k;
    if (t.shape()[d] == 1) continue;
    if (t.strides()[d] != expected) return false;
    expected *= t.shape()[d];
  }
  return true;
}

// A stride in bytes. Steps the view takes fit (they stay inside the storage); a dim of size 0 or 1
// is never stepped along and may carry any stride, so there it is reported as 0 if it overflows.
int64_t byte_stride(const Tensor& t, int64_t d) {
  int64_t bytes = 0;
  if (mul_fits(t.strides()[d], static_cast<int64_t>(itemsize(t.dtype())), &bytes)) return bytes;
  ENGINE_ASSERT(t.shape()[d] <= 1 || t.numel() == 0);
  return 0;
}

// What a buffer view points into, kept until the consumer releases the view: the storage (which a
// later resize_ of the tensor could otherwise free) and the shape and strides arrays.
struct BufferHold {
  std::shared_ptr<Storage> storage;
  std::vector<Py_ssize_t> shape, strides;
};

int refuse(PyObject* type, const std::string& message) {
  PyErr_SetString(type, message.c_str());
  return -1;
}

int tensor_getbuffer(PyObject* self, Py_buffer* view, int flags) {
  view->obj = nullptr;
  try {
    const Tensor t = py::handle(self).cast<Tensor>();
    if (requires_grad(t)) return refuse(PyExc_BufferError, "Can't export tensors that require gradient, use tensor.detach()");
    const char* format = buffer_format(t.dtype());
    if (!format) {
      return refuse(PyExc_BufferError, "bfloat16 has no buffer format character: convert the tensor first "
                                       "(tensor.float()) or exchange it through DLPack (engine.utils.dlpack)");
    }
    const bool c_packed = is_packed(t, true);
    const bool want_strides = (flags & PyBUF_STRIDES) == PyBUF_STRIDES;
    // Without strides (or without a shape) the consumer reads the memory as one C-ordered block.
    if ((!want_strides || (flags & PyBUF_C_CONTIGUOUS) == PyBUF_C_CONTIGUOUS) && !c_packed) {
      return refuse(PyExc_BufferError, "memoryview: underlying buffer is not C-contiguous");
    }
    if ((flags & PyBUF_F_CONTIGUOUS) == PyBUF_F_CONTIGUOUS && !is_packed(t, false)) {
      return refuse(PyExc_BufferError, "memoryview: underlying buffer is not Fortran contiguous");
    }
    if ((flags & PyBUF_ANY_CONTIGUOUS) == PyBUF_ANY_CONTIGUOUS && !c_packed && !is_packed(t, false)) {
      return refuse(PyExc_BufferError, "memoryview: underlying buffer is not contiguous");
    }
    const auto isz = static_cast<Py_ssize_t>(itemsize(t.dtype()));
    auto hold = std::make_unique<BufferHold>();
    hold->storage = t.impl()->storage;
    hold->shape.assign(t.shape().begin(), t.shape().end());
    for (int64_t d = 0; d < t.dim(); ++d) hold->strides.push_back(static_cast<Py_ssize_t>(byte_stride(t, d)));
    view->buf = data_pointer(t);
    view->len = static_cast<Py_ssize_t>(t.numel()) * isz;
    view->readonly = 0;
    view->itemsize = isz;
    view->format = (flags & PyBUF_FORMAT) == PyBUF_FORMAT ? const_cast<char*>(format) : nullptr;
    view->ndim = static_cast<int>(t.dim());
    view->shape = (flags & PyBUF_ND) == PyBUF_ND ? hold->shape.data() : nullptr;
    view->strides = want_strides ? hold->strides.data() : nullptr;
    view->suboffsets = nullptr;
    view->internal = hold.release();
    view->obj = self;
    Py_INCREF(self);
    return 0;
  } catch (const py::error_already_set& e) {
    py::error_already_set(e).restore();
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_BufferError, e.what());
  }
  return -1;
}

void tensor_releasebuffer(PyObject*, Py_buffer* view) { delete static_cast<BufferHold*>(view->internal); }

// NumPy's typestr: byte order, kind, bytes ('<f4'); '|' where order does not apply.
std::string typestr(DType d) {
  const char order = itemsize(d) == 1 ? '|' : (PY_BIG_ENDIAN ? '>' : '<');
  const char kind = d == DType::Bool      ? 'b'
                    : is_complex(d)         ? 'c'
                    : is_floating(d)        ? 'f'
                    : d == DType::UInt8     ? 'u'
                                            : 'i';
  return str_cat(order, kind, itemsize(d));
}

// __array_interface__ (version 3): NumPy keeps the tensor as the base of the array it makes, so
// the memory outlives the array's use.
py::dict array_interface(const Tensor& t) {
  ENGINE_CHECK(!requires_grad(t), std::runtime_error,
               "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.");
  ENGINE_CHECK(t.dtype() != DType::BFloat16, engine::TypeError, "Got unsupported ScalarType BFloat16");
  const std::string ts = typestr(t.dtype());
  py::dict out;
  out["shape"] = py::tuple(py::cast(t.shape()));
  out["typestr"] = ts;
  py::list descr;
  descr.append(py::make_tuple("", ts));
  out["descr"] = descr;
  out["data"] = py::make_tuple(reinterpret_cast<uintptr_t>(data_pointer(t)), false);
  if (is_packed(t, true)) {
    out["strides"] = py::none();  // C-contiguous
  } else {
    py::tuple strides(t.dim());
    for (int64_t d = 0; d < t.dim(); ++d) strides[d] = byte_stride(t, d);
    out["strides"] = strides;
  }
  out["version"] = 3;
  return out;
}

}  // namespace

void init_buffer(py::module_& m) {
  auto* type = reinterpret_cast<PyTypeObject*>(m.attr("Tensor").ptr());
  // pybind11 classes are heap types, whose buffer slots live in the type object itself.
  ENGINE_ASSERT(PyType_HasFeature(type, Py_TPFLAGS_HEAPTYPE));
  auto* heap = reinterpret_cast<PyHeapTypeObject*>(type);
  heap->as_buffer.bf_getbuffer = &tensor_getbuffer;
  heap->as_buffer.bf_releasebuffer = &tensor_releasebuffer;
  type->tp_as_buffer = &heap->as_buffer;
  PyType_Modified(type);
  py::reinterpret_borrow<py::class_<TensorImpl, std::shared_ptr<TensorImpl>>>(m.attr("Tensor"))
      .def_property_readonly("__array_interface__", [](const Tensor& t) { return array_interface(t); },
                             "The tensor's memory described for NumPy (version 3 of the array interface).");
}

}  // namespace engine::python
