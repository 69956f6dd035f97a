// Python values to tensors: operands of arithmetic, engine.tensor(data), shapes.
#include <pybind11/numpy.h>

#include <limits>

#include "engine/core/error.h"
#include "engine/kernels/complex_copy.h"
#include "engine/kernels/elementwise.h"
#include "engine/ops/ops.h"
#include "engine/python/bindings.h"

namespace engine::python {

namespace {
// The Tensor type, set once the class is registered: a pointer comparison (or a subtype check)
// is much cheaper than pybind11's type-registry lookup, and this test runs on every operand.
PyTypeObject* g_tensor_type = nullptr;

bool numpy_loaded() { return PyDict_GetItemString(PyImport_GetModuleDict(), "numpy") != nullptr; }

bool is_ndarray(py::handle obj) { return numpy_loaded() && py::isinstance<py::array>(obj); }
}  // namespace

void set_tensor_type(py::handle type) { g_tensor_type = reinterpret_cast<PyTypeObject*>(type.ptr()); }

bool is_tensor(py::handle obj) {
  if (g_tensor_type) return PyObject_TypeCheck(obj.ptr(), g_tensor_type);
  return py::isinstance<TensorImpl>(obj);
}

void raise_tensor_or_number_other(const char* fname, py::handle input, py::handle other) {
  auto shown = [](py::handle v) { return is_tensor(v) ? "Tensor" : type_name(v); };
  throw engine::TypeError(std::string(fname) + "() received an invalid combination of arguments - got (" +
                          shown(input) + ", " + shown(other) +
                          "), but expected one of:\n * (Tensor input, Tensor other, *, Tensor out = None)\n"
                          " * (Tensor input, Number other, *, Tensor out = None)\n");
}

namespace {
// A Python complex number as the 0-d complex128 tensor PyTorch wraps it in.
Tensor wrapped_complex(double re, double im) {
  Tensor t = Tensor::empty({}, DType::Complex128);
  kernels::fill_complex(t, re, im);
  t.get()->is_wrapped_number = true;
  t.get()->wrapped_dtype = DType::Complex128;
  return t;
}
}  // namespace

Tensor to_operand(py::handle obj) {
  PyObject* p = obj.ptr();
  if (PyBool_Check(p)) return ops::wrapped_scalar(p == Py_True ? 1.0 : 0.0, DType::Bool);
  if (PyFloat_Check(p)) return ops::wrapped_scalar(PyFloat_AS_DOUBLE(p), DType::Float64);
  if (PyComplex_Check(p)) return wrapped_complex(PyComplex_RealAsDouble(p), PyComplex_ImagAsDouble(p));
  if (PyLong_Check(p)) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(p, &overflow);
    ENGINE_CHECK(!overflow, std::runtime_error, "Overflow when unpacking long");
    Tensor t = ops::wrapped_scalar(0.0, DType::Int64);
    *t.data<int64_t>() = v;  // exact, not through double
    return t;
  }
  if (is_tensor(obj)) return obj.cast<Tensor>();
  // A NumPy array is a tensor operand of its own dtype (PyTorch reaches the same result through
  // ndarray.__radd__ and __array_wrap__).
  if (is_ndarray(obj)) return tensor_from_data(obj, std::nullopt);
  // NumPy scalars and other numbers: integers first (they define __index__), then floats.
  if (PyIndex_Check(p)) return to_operand(py::int_(py_index(obj)));
  // A class (engine.Tensor itself, say) has a __float__ attribute but is no number.
  if (!PyType_Check(p) && PyObject_HasAttrString(p, "__float__") && !PySequence_Check(p)) {
    const double d = PyFloat_AsDouble(p);
    if (d == -1.0 && PyErr_Occurred()) throw py::error_already_set();
    return ops::wrapped_scalar(d, DType::Float64);
  }
  return Tensor();
}

double alpha_arg(py::handle alpha, const Tensor& a, const Tensor& b, const char* fname) {
  Tensor s = to_operand(alpha);
  ENGINE_CHECK(s.defined() && s.is_wrapped_number(), engine::TypeError, fname,
               "(): argument 'alpha' must be Number, not ", type_name(alpha));
  ops::alpha_check(ops::result_type(a, b), s.dtype());
  return kernels::read_double(s, 0);
}

int64_t py_index(py::handle obj) {
  // PyNumber_Index reports a failing or missing __index__ by returning NULL with the error set:
  // that error (the user's own exception included) is what the caller sees.
  PyObject* i = PyNumber_Index(obj.ptr());
  if (!i) throw py::error_already_set();
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(i, &overflow);
  Py_DECREF(i);
  if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
  ENGINE_CHECK(!overflow, ValueError, "Overflow when unpacking long long");
  return v;
}

namespace {
// An int for a size or dim: Python ints, NumPy integers and one-element integer tensors (anything
// with __index__), but never a float, which __index__ would refuse with a less clear message.
bool is_index_like(py::handle item) {
  PyObject* p = item.ptr();
  return PyLong_Check(p) || (PyIndex_Check(p) && !PyFloat_Check(p) && !(is_tensor(item) && item.cast<Tensor>().dim() > 0));
}
}  // namespace

bool bool_arg(py::handle v, const char* fname, const char* arg) {
  PyObject* p = v.ptr();
  if (PyBool_Check(p)) return p == Py_True;
  ENGINE_CHECK(std::string(Py_TYPE(p)->tp_name) == "numpy.bool_", engine::TypeError, fname, "(): argument '", arg,
               "' must be bool, not ", type_name(v));
  const int truth = PyObject_IsTrue(p);
  if (truth < 0) throw py::error_already_set();
  return truth == 1;
}

int64_t int_arg(py::handle v, const char* fname, const char* arg) {
  ENGINE_CHECK(is_index_like(v), engine::TypeError, fname, "(): argument '", arg, "' must be int, not ", type_name(v));
  return py_index(v);
}

double number_value(py::handle v, const char* fname, const char* arg) {
  PyObject* p = v.ptr();
  ENGINE_CHECK(!PyUnicode_Check(p) && !PyBytes_Check(p) && !PyType_Check(p) && (PyFloat_Check(p) || PyIndex_Check(p) ||
                                                            PyObject_HasAttrString(p, "__float__")),
               engine::TypeError, fname, "(): argument '", arg, "' must be Number, not ", type_name(v));
  const double d = PyFloat_AsDouble(p);
  if (d == -1.0 && PyErr_Occurred()) throw py::error_already_set();
  return d;
}

Dims dims_from_sequence(py::handle seq, const char* fname, const char* arg) {
  ENGINE_CHECK(PyTuple_Check(seq.ptr()) || PyList_Check(seq.ptr()), engine::TypeError, fname, "(): argument '", arg,
               "' (position 1) must be tuple of ints, not ", type_name(seq));
  // A list can change while an element's __index__ runs: take a tuple snapshot first.
  py::tuple items = py::reinterpret_steal<py::tuple>(PySequence_Tuple(seq.ptr()));
  if (!items) throw py::error_already_set();
  Dims out;
  for (size_t i = 0; i < items.size(); ++i) {
    py::handle item = items[i];
    ENGINE_CHECK(is_index_like(item), engine::TypeError, fname, "(): argument '", arg,
                 "' (position 1) must be tuple of ints, but found element of type ", type_name(item),
                 " at pos ", i);
    out.push_back(py_index(item));
  }
  return out;
}

Dims shape_from_args(const py::args& args, const char* fname, const char* arg) {
  if (args.size() == 1 && !is_index_like(args[0])) return dims_from_sequence(args[0], fname, arg);
  return dims_from_sequence(args, fname, arg);
}

Dims factory_shape(const py::args& args, py::kwargs& kw, const char* fname) {
  if (!kw.contains("size")) return shape_from_args(args, fname);
  ENGINE_CHECK(args.size() == 0, engine::TypeError, fname, "() got multiple values for argument 'size'");
  py::object size = kw["size"];
  PyDict_DelItemString(kw.ptr(), "size");
  ENGINE_CHECK(!is_index_like(size), engine::TypeError, fname, "(): argument 'size' must be tuple of ints, not ",
               type_name(size));
  return dims_from_sequence(size, fname);
}

namespace {

enum class Kind { Bool = 0, Int = 1, Float = 2, Complex = 3 };

struct Scan {
  Dims shape;
  Kind kind = Kind::Bool;
  bool any = false;
};

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
  if (PyComplex_Check(p)) return Kind::Complex;
  if (is_numpy_bool(obj)) return Kind::Bool;
  if (is_tensor(obj)) {
    Tensor t = obj.cast<Tensor>();
    if (is_complex(t.dtype())) return Kind::Complex;
    return is_floating(t.dtype()) ? Kind::Float : t.dtype() == DType::Bool ? Kind::Bool : Kind::Int;
  }
  if (PyIndex_Check(p)) return Kind::Int;  // NumPy integers
  if (!PyType_Check(p) && PyObject_HasAttrString(p, "__float__")) return Kind::Float;
  if (!PyType_Check(p) && PyObject_HasAttrString(p, "__complex__")) return Kind::Complex;
  std::string where = index.empty() ? "" : " at data" + position_str(index);
  throw engine::TypeError(str_cat("new(): invalid data type '", type_name(obj), "'", where));
}

// Walks the nested data once: infers the shape from the first element at each depth and checks
// every sequence against it, so a ragged list is reported where it happens.
void scan(py::handle obj, size_t depth, Scan& s, Dims& index) {
  // PyTorch's bound on dimensions; it also keeps a hostile 100,000-deep list off the C stack.
  constexpr size_t kMaxDims = 64;
  ENGINE_CHECK(depth <= kMaxDims, ValueError, "too many dimensions '", type_name(obj), "'");
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
                 type_name(obj), " of length ", n, ")");
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
    v = py_index(obj);
  }
  // Unsigned types also take negatives down to -max, which wrap (-1 is 255 in uint8), as in PyTorch.
  const int64_t lowest = std::is_unsigned_v<T> ? -int64_t(std::numeric_limits<T>::max()) : int64_t(std::numeric_limits<T>::min());
  ENGINE_CHECK(v >= lowest && v <= int64_t(std::numeric_limits<T>::max()), std::runtime_error,
               "value cannot be converted to type ", dtype_name(dtype_of<T>::value), " without overflow");
  return static_cast<T>(v);
}

// The items of the sequence `obj` at `depth` (a tensor or array as its list), checked against the
// length scan() measured: the walk of fill_leaves and fill_complex_leaves.
py::tuple items_at(py::handle obj, const Dims& shape, size_t depth) {
  py::tuple seq = py::reinterpret_steal<py::tuple>(
      PySequence_Tuple((is_tensor(obj) || is_ndarray(obj) ? obj.attr("tolist")() : py::reinterpret_borrow<py::object>(obj)).ptr()));
  if (!seq) throw py::error_already_set();
  ENGINE_CHECK(static_cast<int64_t>(seq.size()) == shape[depth], ValueError,
               "tensor(): the data changed while it was being read");
  return seq;
}

// Writes the leaves in order. The data is read a second time here, and an element's __float__ or
// __index__ may have changed a list since scan() measured it: every length is checked again, so a
// changed list is an error, never a write past the buffer.
template <typename T>
void fill_leaves(py::handle obj, const Dims& shape, size_t depth, T*& out) {
  ENGINE_CHECK(is_sequence(obj) == (depth < shape.size()), ValueError,
               "tensor(): the data changed while it was being read");
  if (depth == shape.size()) {
    PyObject* p = obj.ptr();
    if constexpr (std::is_same_v<T, bool>) {
      *out++ = is_tensor(obj) ? kernels::read_double(obj.cast<Tensor>(), 0) != 0.0 : PyObject_IsTrue(p) == 1;
    } else if constexpr (std::is_integral_v<T>) {
      *out++ = checked_int<T>(obj);
    } else if (is_tensor(obj)) {
      *out++ = static_cast<T>(static_cast<opmath_t<T>>(kernels::read_double(obj.cast<Tensor>(), 0)));
    } else {
      // PyFloat_AsDouble rounds integers of any size (2**64 becomes 1.8e19, as in PyTorch).
      const double d = PyFloat_AsDouble(p);
      if (d == -1.0 && PyErr_Occurred()) throw py::error_already_set();
      *out++ = static_cast<T>(static_cast<opmath_t<T>>(d));
    }
    return;
  }
  for (py::handle item : items_at(obj, shape, depth)) fill_leaves<T>(item, shape, depth + 1, out);
}

// The leaves of a complex tensor, as (real, imaginary) pairs of V; the same checks as fill_leaves.
template <typename V>
void fill_complex_leaves(py::handle obj, const Dims& shape, size_t depth, V*& out) {
  ENGINE_CHECK(is_sequence(obj) == (depth < shape.size()), ValueError,
               "tensor(): the data changed while it was being read");
  if (depth == shape.size()) {
    double re = 0.0, im = 0.0;
    if (is_tensor(obj)) {
      const Tensor t = obj.cast<Tensor>();
      if (is_complex(t.dtype())) {
        re = kernels::read_double(kernels::complex_part(t, 0), 0);
        im = kernels::read_double(kernels::complex_part(t, 1), 0);
      } else {
        re = kernels::read_double(t, 0);
      }
    } else {
      // Any number: complex, float, int, bool, or an object with __complex__ / __float__ / __index__.
      const Py_complex c = PyComplex_AsCComplex(obj.ptr());
      if (c.real == -1.0 && PyErr_Occurred()) throw py::error_already_set();
      re = c.real;
      im = c.imag;
    }
    *out++ = static_cast<V>(re);
    *out++ = static_cast<V>(im);
    return;
  }
  for (py::handle item : items_at(obj, shape, depth)) fill_complex_leaves<V>(item, shape, depth + 1, out);
}

Tensor from_numpy_copy(const py::array& given, std::optional<DType> dtype) {
  const std::optional<DType> src_dtype = numpy_dtype(given);
  // Kernels read elements through typed pointers: an array whose data is not aligned to its
  // element size (np.frombuffer at an odd offset, say) is first copied by NumPy into one that is.
  const py::array arr = numpy_aligned(given) ? given : py::array(given.attr("copy")());
  Dims shape(arr.shape(), arr.shape() + arr.ndim());
  Dims strides(arr.ndim());
  const int64_t isz = static_cast<int64_t>(itemsize(*src_dtype));
  for (py::ssize_t i = 0; i < arr.ndim(); ++i) {
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

bool numpy_aligned(py::handle array) {
  const py::array a = py::reinterpret_borrow<py::array>(array);
  const auto isz = static_cast<uintptr_t>(a.itemsize());
  if (reinterpret_cast<uintptr_t>(a.data()) % isz != 0) return false;
  for (py::ssize_t i = 0; i < a.ndim(); ++i) {
    if (a.strides(i) % static_cast<py::ssize_t>(isz) != 0) return false;
  }
  return true;
}

DType numpy_dtype(py::handle array) {
  const py::dtype dt = py::reinterpret_borrow<py::array>(array).dtype();
  // '=' native, '|' not applicable (one byte): anything else is the other byte order, which the
  // kernels would read as garbage.
  ENGINE_CHECK(dt.byteorder() == '=' || dt.byteorder() == '|' ||
                   dt.byteorder() == (PY_BIG_ENDIAN ? '>' : '<'),
               ValueError, "given numpy array has byte order different from the native byte order. Conversion "
               "between byte orders is currently not supported.");
  const char k = dt.kind();
  const auto sz = dt.itemsize();
  if (k == 'f' && sz == 4) return DType::Float32;
  if (k == 'f' && sz == 8) return DType::Float64;
  if (k == 'i' && sz == 8) return DType::Int64;
  if (k == 'i' && sz == 4) return DType::Int32;
  if (k == 'b') return DType::Bool;
  if (k == 'f' && sz == 2) return DType::Float16;
  if (k == 'i' && sz == 2) return DType::Int16;
  if (k == 'i' && sz == 1) return DType::Int8;
  if (k == 'u' && sz == 1) return DType::UInt8;
  if (k == 'c' && sz == 8) return DType::Complex64;
  if (k == 'c' && sz == 16) return DType::Complex128;
  throw engine::TypeError(str_cat("can't convert np.ndarray of type numpy.", std::string(py::str(dt)),
                                  ". The only supported types are: float64, float32, float16, complex64, complex128, int64, "
                                  "int32, int16, int8, uint8, and bool."));
}

Tensor tensor_from_data(py::handle data, std::optional<DType> dtype) {
  if (is_tensor(data)) {
    // PyTorch warns on every copy construction: torch.tensor(t) silently detaches, which
    // usually surprises whoever wrote it.
    if (PyErr_WarnEx(PyExc_UserWarning,
                     "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or "
                     "sourceTensor.detach().clone().requires_grad_(True), rather than torch.tensor(sourceTensor).",
                     1) < 0)
      throw py::error_already_set();
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
                   : (s.kind == Kind::Complex ? complex_of(default_dtype())
                      : s.kind == Kind::Float ? default_dtype()
                      : s.kind == Kind::Int   ? DType::Int64
                                              : DType::Bool);
  if (!s.any && !dtype) dt = default_dtype();
  Tensor out = Tensor::empty(s.shape, dt);
  if (is_complex(dt)) {
    if (dt == DType::Complex64) {
      float* p = kernels::complex_as_real(out).data<float>();
      fill_complex_leaves<float>(data, s.shape, 0, p);
    } else {
      double* p = kernels::complex_as_real(out).data<double>();
      fill_complex_leaves<double>(data, s.shape, 0, p);
    }
    return out;
  }
  ENGINE_CHECK(s.kind != Kind::Complex, engine::TypeError, "must be real number, not complex");
  ENGINE_DISPATCH_ALL(dt, [&](auto tag) {
    using T = decltype(tag);
    T* p = out.data<T>();
    fill_leaves<T>(data, s.shape, 0, p);
  });
  return out;
}

}  // namespace engine::python
