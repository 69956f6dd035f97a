// Python values to tensors: operands of arithmetic, engine.tensor(data), shapes.
#include <pybind11/numpy.h>

#include <limits>

#include "engine/core/error.h"
#include "engine/kernels/elementwise.h"
#include "engine/ops/ops.h"
#include "engine/python/bindings.h"

namespace engine::python {

namespace {
// The Tensor type, set once the class is registered: a pointer comparison (or a subtype check)
// is much cheaper than pybind11's type-registry lookup, and this test runs on every operand.
PyTypeObject* g_tensor_type = nullptr;
}  // namespace

void set_tensor_type(py::handle type) { g_tensor_type = reinterpret_cast<PyTypeObject*>(type.ptr()); }

bool is_tensor(py::handle obj) {
  if (g_tensor_type) return PyObject_TypeCheck(obj.ptr(), g_tensor_type);
  return py::isinstance<TensorImpl>(obj);
}

Tensor to_operand(py::handle obj) {
  PyObject* p = obj.ptr();
  if (PyBool_Check(p)) return ops::wrapped_scalar(p == Py_True ? 1.0 : 0.0, DType::Bool);
  if (PyFloat_Check(p)) return ops::wrapped_scalar(PyFloat_AS_DOUBLE(p), DType::Float64);
  if (PyLong_Check(p)) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(p, &overflow);
    ENGINE_CHECK(!overflow, std::runtime_error, "Overflow when unpacking long");
    Tensor t = ops::wrapped_scalar(0.0, DType::Int64);
    *t.data<int64_t>() = v;  // exact, not through double
    return t;
  }
  if (is_tensor(obj)) return obj.cast<Tensor>();
  // NumPy scalars and other numbers: integers first (they define __index__), then floats.
  if (PyIndex_Check(p)) return to_operand(py::reinterpret_steal<py::object>(PyNumber_Index(p)));
  if (PyObject_HasAttrString(p, "__float__") && !PySequence_Check(p)) {
    return ops::wrapped_scalar(py::reinterpret_borrow<py::object>(obj).cast<double>(), DType::Float64);
  }
  return Tensor();
}

double alpha_arg(py::handle alpha, const Tensor& a, const Tensor& b, const char* fname) {
  Tensor s = to_operand(alpha);
  ENGINE_CHECK(s.defined() && s.is_wrapped_number(), engine::TypeError, fname,
               "(): argument 'alpha' must be Number, not ", Py_TYPE(alpha.ptr())->tp_name);
  ops::alpha_check(ops::result_type(a, b), s.dtype());
  return kernels::read_double(s, 0);
}

Dims dims_from_sequence(py::handle seq, const char* fname) {
  Dims out;
  for (py::handle item : seq) {
    ENGINE_CHECK(PyLong_Check(item.ptr()) || PyIndex_Check(item.ptr()), engine::TypeError, fname,
                 "(): argument 'size' must be tuple of ints, but found element of type ", Py_TYPE(item.ptr())->tp_name);
    out.push_back(py::cast<int64_t>(py::reinterpret_steal<py::object>(PyNumber_Index(item.ptr()))));
  }
  return out;
}

Dims shape_from_args(const py::args& args, const char* fname) {
  if (args.size() == 1 && (PyTuple_Check(args[0].ptr()) || PyList_Check(args[0].ptr()))) {
    return dims_from_sequence(args[0], fname);
  }
  return dims_from_sequence(args, fname);
}

namespace {

enum class Kind { Bool = 0, Int = 1, Float = 2 };

struct Scan {
  Dims shape;
  Kind kind = Kind::Bool;
  bool any = false;
};

bool numpy_loaded() { return PyDict_GetItemString(PyImport_GetModuleDict(), "numpy") != nullptr; }

bool is_ndarray(py::handle obj) { return numpy_loaded() && py::isinstance<py::array>(obj); }

// numpy.bool_ has neither __index__ nor a Python bool base, but it is a bool to PyTorch.
bool is_numpy_bool(py::handle obj) {
  if (!numpy_loaded()) return false;
  PyObject* np = PyDict_GetItemString(PyImport_GetModuleDict(), "numpy");
  py::object bool_type = py::reinterpret_steal<py::object>(PyObject_GetAttrString(np, "bool_"));
  return bool_type && PyObject_TypeCheck(obj.ptr(), reinterpret_cast<PyTypeObject*>(bool_type.ptr()));
}

bool is_sequence(py::handle obj) {
  return PyList_Check(obj.ptr()) || PyTuple_Check(obj.ptr()) || is_ndarray(obj) ||
         (is_tensor(obj) && obj.cast<Tensor>().dim() > 0);
}

std::string position_str(const Dims& index) {
  std::string s;
  for (int64_t i : index) s += "[" + std::to_string(i) + "]";
  return s;
}

// A leaf value: its kind, or an error naming the offending element.
Kind leaf_kind(py::handle obj, const Dims& index) {
  PyObject* p = obj.ptr();
  if (PyBool_Check(p)) return Kind::Bool;
  if (PyLong_Check(p)) return Kind::Int;
  if (PyFloat_Check(p)) return Kind::Float;
  if (is_numpy_bool(obj)) return Kind::Bool;
  if (is_tensor(obj)) {
    Tensor t = obj.cast<Tensor>();
    return is_floating(t.dtype()) ? Kind::Float : t.dtype() == DType::Bool ? Kind::Bool : Kind::Int;
  }
  if (PyIndex_Check(p)) return Kind::Int;  // NumPy integers
  if (PyObject_HasAttrString(p, "__float__")) return Kind::Float;
  std::string where = index.empty() ? "" : " at data" + position_str(index);
  throw engine::TypeError(str_cat("new(): invalid data type '", Py_TYPE(p)->tp_name, "'", where));
}

// Walks the nested data once: infers the shape from the first element at each depth and checks
// every sequence against it, so a ragged list is reported where it happens.
void scan(py::handle obj, size_t depth, Scan& s, Dims& index) {
  if (!is_sequence(obj)) {
    ENGINE_CHECK(depth == s.shape.size(), ValueError, "expected sequence of length ", s.shape[depth],
                 " at dim ", depth, " (got a scalar at data", position_str(index), ")");
    Kind k = leaf_kind(obj, index);
    s.kind = static_cast<Kind>(std::max(static_cast<int>(s.kind), static_cast<int>(k)));
    s.any = true;
    return;
  }
  py::sequence seq = py::reinterpret_borrow<py::sequence>(is_tensor(obj) || is_ndarray(obj) ? obj.attr("tolist")() : obj);
  const int64_t n = static_cast<int64_t>(py::len(seq));
  if (depth == s.shape.size() && !s.any) {
    s.shape.push_back(n);
  } else {
    ENGINE_CHECK(depth < s.shape.size(), ValueError, "expected a number at data", position_str(index), " (got ",
                 Py_TYPE(obj.ptr())->tp_name, " of length ", n, ")");
    ENGINE_CHECK(n == s.shape[depth], ValueError, "expected sequence of length ", s.shape[depth], " at dim ",
                 depth, " (got ", n, ")");
  }
  for (int64_t i = 0; i < n; ++i) {
    index.push_back(i);
    scan(seq[i], depth + 1, s, index);
    index.pop_back();
  }
}

// An integer element for an integer tensor: out-of-range values are errors, never wrapped.
template <typename T>
T checked_int(py::handle obj) {
  PyObject* p = obj.ptr();
  int64_t v = 0;
  if (is_tensor(obj) && !is_floating(obj.cast<Tensor>().dtype())) {
    v = kernels::read_int(obj.cast<Tensor>(), 0);
  } else if (is_tensor(obj) || PyFloat_Check(p) || !PyIndex_Check(p)) {
    // Floats truncate toward zero, as in a C cast, but only when the result fits.
    const double d = is_tensor(obj) ? kernels::read_double(obj.cast<Tensor>(), 0) : py::cast<double>(obj);
    ENGINE_CHECK(d > -9223372036854775808.0 && d < 9223372036854775808.0, std::runtime_error,
                 "value cannot be converted to type ", dtype_name(dtype_of<T>::value), " without overflow");
    v = static_cast<int64_t>(d);
  } else {
    py::object i = py::reinterpret_steal<py::object>(PyNumber_Index(p));
    int overflow = 0;
    v = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
    ENGINE_CHECK(!overflow, ValueError, "Overflow when unpacking long long");
  }
  ENGINE_CHECK(v >= std::numeric_limits<T>::min() && v <= std::numeric_limits<T>::max(), std::runtime_error,
               "value cannot be converted to type ", dtype_name(dtype_of<T>::value), " without overflow");
  return static_cast<T>(v);
}

template <typename T>
void fill_leaves(py::handle obj, T*& out) {
  if (!is_sequence(obj)) {
    PyObject* p = obj.ptr();
    if constexpr (std::is_same_v<T, bool>) {
      *out++ = is_tensor(obj) ? kernels::read_double(obj.cast<Tensor>(), 0) != 0.0 : PyObject_IsTrue(p) == 1;
    } else if constexpr (std::is_integral_v<T>) {
      *out++ = checked_int<T>(obj);
    } else if (is_tensor(obj)) {
      *out++ = static_cast<T>(kernels::read_double(obj.cast<Tensor>(), 0));
    } else {
      // PyFloat_AsDouble rounds integers of any size (2**64 becomes 1.8e19, as in PyTorch).
      const double d = PyFloat_AsDouble(p);
      if (d == -1.0 && PyErr_Occurred()) throw py::error_already_set();
      *out++ = static_cast<T>(d);
    }
    return;
  }
  py::sequence seq = py::reinterpret_borrow<py::sequence>(is_tensor(obj) || is_ndarray(obj) ? obj.attr("tolist")() : obj);
  for (py::handle item : seq) fill_leaves<T>(item, out);
}

std::optional<DType> dtype_of_numpy(const py::array& a) {
  const char k = a.dtype().kind();
  const auto sz = a.dtype().itemsize();
  if (k == 'f' && sz == 4) return DType::Float32;
  if (k == 'f' && sz == 8) return DType::Float64;
  if (k == 'i' && sz == 8) return DType::Int64;
  if (k == 'i' && sz == 4) return DType::Int32;
  if (k == 'b') return DType::Bool;
  return std::nullopt;
}

Tensor from_numpy_copy(const py::array& arr, std::optional<DType> dtype) {
  auto src_dtype = dtype_of_numpy(arr);
  ENGINE_CHECK(src_dtype, engine::TypeError, "can't convert np.ndarray of type numpy.", std::string(py::str(arr.dtype())),
               ". The only supported types are: float64, float32, int64, int32, and bool.");
  Dims shape(arr.shape(), arr.shape() + arr.ndim());
  Dims strides(arr.ndim());
  const int64_t isz = static_cast<int64_t>(itemsize(*src_dtype));
  for (py::ssize_t i = 0; i < arr.ndim(); ++i) {
    ENGINE_CHECK(arr.strides(i) % isz == 0, ValueError, "tensor(): NumPy array strides must be multiples of the item size");
    strides[i] = arr.strides(i) / isz;
  }
  // A temporary borrowed view of the array's memory, copied into a fresh tensor of the target dtype.
  py::object keep = py::reinterpret_borrow<py::object>(arr);
  auto storage = std::make_shared<Storage>(const_cast<void*>(arr.data()), static_cast<size_t>(arr.nbytes()), [] {});
  Tensor view(std::make_shared<TensorImpl>(storage, shape, strides, 0, *src_dtype));
  Tensor out = Tensor::empty(shape, dtype ? *dtype : *src_dtype);
  kernels::copy(out, view);
  return out;
}

}  // namespace

Tensor tensor_from_data(py::handle data, std::optional<DType> dtype) {
  if (is_tensor(data)) {
    Tensor src = data.cast<Tensor>();
    Tensor out = Tensor::empty(src.shape(), dtype ? *dtype : src.dtype());
    kernels::copy(out, src);
    return out;
  }
  if (is_ndarray(data)) return from_numpy_copy(py::reinterpret_borrow<py::array>(data), dtype);
  Scan s;
  Dims index;
  scan(data, 0, s, index);
  DType dt = dtype ? *dtype
                   : (s.kind == Kind::Float ? default_dtype() : s.kind == Kind::Int ? DType::Int64 : DType::Bool);
  if (!s.any && !dtype) dt = default_dtype();
  Tensor out = Tensor::empty(s.shape, dt);
  ENGINE_DISPATCH_ALL(dt, [&](auto tag) {
    using T = decltype(tag);
    T* p = out.data<T>();
    fill_leaves<T>(data, p);
  });
  return out;
}

}  // namespace engine::python
