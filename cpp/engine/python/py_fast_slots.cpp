// Tensor's arithmetic operators as CPython number slots.
//
// pybind11 binds `__add__`, `__mul__`, ... as Python-level methods, so CPython fills the Tensor
// type's number slots with its generic `slot_nb_*` functions: every `x * 2` looks the method up,
// enters pybind11's dispatcher, loads both arguments through its type casters and, on the way
// out, searches pybind11's instance registry. These slots (+ - * / **, and the in-place + - * /)
// do the same arithmetic directly for the calls that are most of a training loop's: an exact
// Tensor with an exact Tensor, or with a Python float, int or bool; a float or a small int is
// applied as a value, never wrapped in a 0-d tensor (ops::add_number and its kin). Every other
// case (Tensor subclasses such as nn.Parameter, NumPy values, foreign types that answer
// NotImplemented or define the reflected operator, tensors a function transform has marked) is
// handed to the generic slot CPython installed, so the dunder methods stay the one definition of
// the semantics. Assigning `Tensor.__mul__` from Python re-installs the generic slot, as for any
// class.
#include "engine/core/error.h"
#include "engine/ops/ops.h"
#include "engine/python/bindings.h"
#include "engine/python/py_fast_slots.h"
#include "engine/python/py_transform_dispatch.h"

namespace engine::python {

namespace {

PyTypeObject* g_tensor = nullptr;

// A Python number stored straight in the other operand's floating dtype when it is exact there:
// the result's dtype is that tensor's either way, and the op would otherwise convert the number
// first (a second 0-d tensor). It still shows as PyTorch's wrapped dtype (see wrapped_dtype).
bool exact_in(double v, DType tensor_dtype) {
  if (tensor_dtype == DType::Float64) return true;
  return tensor_dtype == DType::Float32 && static_cast<double>(static_cast<float>(v)) == v;
}

// A Python float, int or bool (exactly those types, not subclasses) as the operand the dunder
// methods would make of it, `tensor_dtype` being the other operand's. Returns false for anything
// else, and for ints out of int64's range (the generic path reports those).
bool number_operand(PyObject* obj, Tensor& out, DType tensor_dtype) {
  if (PyFloat_CheckExact(obj)) {
    const double v = PyFloat_AS_DOUBLE(obj);
    out = exact_in(v, tensor_dtype) ? ops::wrapped_scalar_as(v, tensor_dtype, DType::Float64)
                                    : ops::wrapped_scalar(v, DType::Float64);
    return true;
  }
  if (PyBool_Check(obj)) {
    out = ops::wrapped_scalar(obj == Py_True ? 1.0 : 0.0, DType::Bool);
    return true;
  }
  if (PyLong_CheckExact(obj)) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (overflow) return false;
    constexpr long long kExact = 1LL << 53;  // doubles hold every int up to here
    if (v > -kExact && v < kExact && exact_in(static_cast<double>(v), tensor_dtype)) {
      out = ops::wrapped_scalar_as(static_cast<double>(v), tensor_dtype, DType::Int64);
      return true;
    }
    out = ops::wrapped_scalar(0.0, DType::Int64);
    *out.data<int64_t>() = v;  // exact, not through double
    return true;
  }
  return false;
}

}  // namespace

bool simple_number(PyObject* obj, double& value, DType& number_dtype) {
  if (PyFloat_CheckExact(obj)) {
    value = PyFloat_AS_DOUBLE(obj);
    number_dtype = DType::Float64;
    return true;
  }
  if (!PyLong_CheckExact(obj)) return false;
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
  constexpr long long kExact = 1LL << 53;
  if (overflow || v <= -kExact || v >= kExact) return false;
  value = static_cast<double>(v);
  number_dtype = DType::Int64;
  return true;
}

bool is_unit_alpha(PyObject* alpha) {
  if (!PyLong_CheckExact(alpha)) return false;
  int overflow = 0;
  return PyLong_AsLongLongAndOverflow(alpha, &overflow) == 1 && !overflow;
}

namespace {

// An exact Tensor's value for the fast path (false for one without a value).
bool tensor_operand(PyObject* obj, Tensor& out) {
  const auto* holder = tensor_holder(obj);
  if (!holder || !*holder) return false;
  out = Tensor(*holder);
  return true;
}

// Whether a transform must see this call (see py_transform_dispatch.cpp).
bool transform_wants(PyObject* a, PyObject* b) {
  PyObject* args[2] = {a, b};
  return transform_dispatch_wanted(nullptr, args, 2, nullptr);
}

PyObject* to_python(Tensor&& result) {
  return py::cast(std::move(result)).release().ptr();
}

// Per operator: CPython's generic slot function (which the Tensor type had before) and ours, and
// the names of the forward and reflected methods.
enum Slot { kAdd, kSub, kMul, kDiv, kPow, kSlots };
struct SlotInfo {
  binaryfunc generic = nullptr;
  binaryfunc fast = nullptr;
  const char* name;
  const char* rname;
  PyObject* name_str = nullptr;  // interned, kept for the process
  PyObject* rname_str = nullptr;
};
SlotInfo g_slots[kSlots] = {{nullptr, nullptr, "__add__", "__radd__"},
                            {nullptr, nullptr, "__sub__", "__rsub__"},
                            {nullptr, nullptr, "__mul__", "__rmul__"},
                            {nullptr, nullptr, "__truediv__", "__rtruediv__"},
                            {nullptr, nullptr, "__pow__", "__rpow__"}};
// `**` has a ternary slot (the third operand is pow's modulus): its generic and fast functions.
ternaryfunc g_power_generic = nullptr, g_power_fast = nullptr;
// The in-place operators' generic slots (`+=` `-=` `*=` `/=`), which call __iadd__ and friends.
binaryfunc g_inplace_generic[kPow] = {};

binaryfunc slot_of(PyObject* obj, Slot s) {
  PyNumberMethods* nb = Py_TYPE(obj)->tp_as_number;
  if (!nb) return nullptr;
  switch (s) {
    case kAdd: return nb->nb_add;
    case kSub: return nb->nb_subtract;
    case kMul: return nb->nb_multiply;
    case kDiv: return nb->nb_true_divide;
    case kPow:
    case kSlots: break;
  }
  return nullptr;
}

// Whether obj's type computes this operator through its dunder methods (CPython's generic slot,
// or ours, which stands in for it).
bool uses_dunders(PyObject* obj, Slot s) {
  if (s == kPow) {
    PyNumberMethods* nb = Py_TYPE(obj)->tp_as_number;
    return nb && nb->nb_power && (nb->nb_power == g_power_generic || nb->nb_power == g_power_fast);
  }
  const binaryfunc f = slot_of(obj, s);
  return f && (f == g_slots[s].generic || f == g_slots[s].fast);
}

// type(self).<name>(self, other), or NotImplemented when the type has no such method.
PyObject* call_dunder(PyObject* self, PyObject* name, PyObject* other) {
  PyObject* meth = _PyType_Lookup(Py_TYPE(self), name);  // borrowed
  if (!meth) Py_RETURN_NOTIMPLEMENTED;
  Py_INCREF(meth);
  PyObject* bound = meth;
  if (descrgetfunc get = Py_TYPE(meth)->tp_descr_get) {
    bound = get(meth, self, reinterpret_cast<PyObject*>(Py_TYPE(self)));
    Py_DECREF(meth);
    if (!bound) return nullptr;
  }
  PyObject* result = PyObject_CallOneArg(bound, other);
  Py_DECREF(bound);
  return result;
}

// What CPython's generic slot does for `a <op> b` (Objects/typeobject.c, SLOT1BINFULL), with our
// slot counted as the generic one: a subclass operand's reflected method first, then a.__op__(b),
// then b.__rop__(a).
PyObject* generic_binary(PyObject* a, PyObject* b, Slot s) {
  const SlotInfo& info = g_slots[s];
  bool do_other = Py_TYPE(a) != Py_TYPE(b) && uses_dunders(b, s);
  if (uses_dunders(a, s)) {
    if (do_other && PyType_IsSubtype(Py_TYPE(b), Py_TYPE(a))) {
      PyObject* r = call_dunder(b, info.rname_str, a);
      if (r != Py_NotImplemented) return r;
      Py_DECREF(r);
      do_other = false;
    }
    PyObject* r = call_dunder(a, info.name_str, b);
    if (r != Py_NotImplemented || Py_TYPE(a) == Py_TYPE(b)) return r;
    Py_DECREF(r);
  }
  if (do_other) return call_dunder(b, info.rname_str, a);
  Py_RETURN_NOTIMPLEMENTED;
}

// `t <op> v` (or `v <op> t` when number_first) for a simple number v, as the dunders compute it:
// `v + t` is t.add(v), `v * t` is t.mul(v), `v / t` is t.reciprocal() * v.
template <Slot S>
Tensor with_number(const Tensor& t, double v, DType number_dtype, bool number_first) {
  if constexpr (S == kAdd) return ops::add_number(t, v, number_dtype);
  if constexpr (S == kSub) return number_first ? ops::rsub_number(v, number_dtype, t) : ops::sub_number(t, v, number_dtype);
  if constexpr (S == kMul) return ops::mul_number(t, v, number_dtype);
  if constexpr (S == kDiv) {
    return number_first ? ops::mul_number(ops::reciprocal(t), v, number_dtype) : ops::div_number(t, v, number_dtype);
  }
  if constexpr (S == kPow) {
    // v ** t: the number is PyTorch's wrapped self (PowBackward2 shows it as given).
    return number_first ? ops::pow(ops::number_as_tensor(v, number_dtype, DType::Int64), t)
                        : ops::pow_number(t, v, number_dtype);
  }
}

// `a <op> b` where exactly one side may be a number: Forward(tensor, other) computes tensor.__op__
// (other); Reflected(tensor, other) computes tensor.__rop__(other), as the dunders in
// py_tensor.cpp do.
template <Slot S, Tensor (*Forward)(const Tensor&, const Tensor&), Tensor (*Reflected)(const Tensor&, const Tensor&)>
PyObject* binary_slot(PyObject* a, PyObject* b) {
  const bool a_tensor = Py_TYPE(a) == g_tensor, b_tensor = Py_TYPE(b) == g_tensor;
  if ((a_tensor || b_tensor) && !transform_wants(a, b)) {
    try {
      Tensor x, y;
      // tensor (op) number and number (op) tensor: the number is applied as a value (ops::*_number).
      double v;
      DType number_dtype;
      if (a_tensor != b_tensor && simple_number(a_tensor ? b : a, v, number_dtype) &&
          tensor_operand(a_tensor ? a : b, x)) {
        return to_python(with_number<S>(x, v, number_dtype, /*number_first=*/b_tensor));
      }
      bool ok;
      if (a_tensor && b_tensor) {
        ok = tensor_operand(a, x) && tensor_operand(b, y);
      } else if (a_tensor) {
        ok = tensor_operand(a, x) && number_operand(b, y, S == kPow ? DType::Int64 : x.dtype());
      } else {
        // (pow's number keeps its own dtype: PowBackward0 and 2 show it as given)
        ok = tensor_operand(b, y) && number_operand(a, x, S == kPow ? DType::Int64 : y.dtype());
      }
      if (ok) return to_python(a_tensor ? Forward(x, y) : Reflected(y, x));
    } catch (...) {
      py::detail::try_translate_exceptions();
      return nullptr;
    }
  }
  return generic_binary(a, b, S);
}

Tensor add_fwd(const Tensor& t, const Tensor& o) { return ops::add(t, o); }
Tensor sub_fwd(const Tensor& t, const Tensor& o) { return ops::sub(t, o); }
Tensor div_fwd(const Tensor& t, const Tensor& o) { return ops::div(t, o); }
// Reflected forms, as in py_tensor.cpp: `number + t` is t.add(number) and `number * t` is
// t.mul(number) (the number stays second); `number - t` is sub(number, t); `number / t` is
// t.reciprocal() * number.
Tensor add_rev(const Tensor& t, const Tensor& o) { return ops::add(t, o); }
Tensor mul_rev(const Tensor& t, const Tensor& o) { return ops::mul(t, o); }
Tensor sub_rev(const Tensor& t, const Tensor& o) { return ops::sub(o, t); }
Tensor div_rev(const Tensor& t, const Tensor& o) { return ops::mul(ops::reciprocal(t), o); }

Tensor pow_rev(const Tensor& t, const Tensor& o) { return ops::pow(o, t); }

// `a ** b` (no modulus: pow(a, b, m) goes to the generic slot, which reports it).
PyObject* power_slot(PyObject* a, PyObject* b, PyObject* mod) {
  if (mod != Py_None) return g_power_generic(a, b, mod);
  return binary_slot<kPow, ops::pow, pow_rev>(a, b);
}

// `a op= b` for an exact Tensor a and an exact Tensor or Python number b; the number is applied
// as a value (ops::*_number_). Anything else goes to __iadd__ and friends.
template <Slot S>
PyObject* inplace_slot(PyObject* a, PyObject* b) {
  if (Py_TYPE(a) == g_tensor && !transform_wants(a, b)) {
    try {
      Tensor x, y;
      double v;
      DType number_dtype;
      if (tensor_operand(a, x)) {
        if (simple_number(b, v, number_dtype)) {
          if constexpr (S == kAdd) ops::add_number_(x, v, number_dtype);
          if constexpr (S == kSub) ops::sub_number_(x, v, number_dtype);
          if constexpr (S == kMul) ops::mul_number_(x, v, number_dtype);
          if constexpr (S == kDiv) ops::div_number_(x, v, number_dtype);
          Py_INCREF(a);
          return a;
        }
        if (Py_TYPE(b) == g_tensor ? tensor_operand(b, y) : number_operand(b, y, x.dtype())) {
          if constexpr (S == kAdd) ops::add_(x, y);
          if constexpr (S == kSub) ops::sub_(x, y);
          if constexpr (S == kMul) ops::mul_(x, y);
          if constexpr (S == kDiv) ops::div_(x, y);
          Py_INCREF(a);
          return a;
        }
      }
    } catch (...) {
      py::detail::try_translate_exceptions();
      return nullptr;
    }
  }
  return g_inplace_generic[S](a, b);
}

void install_inplace(binaryfunc& slot, Slot s, binaryfunc fast) {
  if (!slot) return;
  g_inplace_generic[s] = slot;
  slot = fast;
}

void intern_names(Slot s) {
  SlotInfo& info = g_slots[s];
  info.name_str = PyUnicode_InternFromString(info.name);
  info.rname_str = PyUnicode_InternFromString(info.rname);
  if (!info.name_str || !info.rname_str) throw py::error_already_set();
}

void install(binaryfunc& slot, Slot s, binaryfunc fast) {
  intern_names(s);
  SlotInfo& info = g_slots[s];
  // Only where CPython installed its generic slot (the type defines the dunders in Python's
  // sense); anything else is left as it is.
  if (!slot) return;
  info.generic = slot;
  info.fast = fast;
  slot = fast;
}

}  // namespace

void install_fast_slots(py::module_& m) {
  g_tensor = reinterpret_cast<PyTypeObject*>(m.attr("Tensor").ptr());
  g_tensor_py_type = g_tensor;
  PyNumberMethods* nb = g_tensor->tp_as_number;
  if (!nb) return;
  install(nb->nb_add, kAdd, &binary_slot<kAdd, add_fwd, add_rev>);
  install(nb->nb_subtract, kSub, &binary_slot<kSub, sub_fwd, sub_rev>);
  install(nb->nb_multiply, kMul, &binary_slot<kMul, ops::mul, mul_rev>);
  install(nb->nb_true_divide, kDiv, &binary_slot<kDiv, div_fwd, div_rev>);
  intern_names(kPow);
  if (nb->nb_power) {
    g_power_generic = nb->nb_power;
    g_power_fast = &power_slot;
    nb->nb_power = &power_slot;
  }
  install_inplace(nb->nb_inplace_add, kAdd, &inplace_slot<kAdd>);
  install_inplace(nb->nb_inplace_subtract, kSub, &inplace_slot<kSub>);
  install_inplace(nb->nb_inplace_multiply, kMul, &inplace_slot<kMul>);
  install_inplace(nb->nb_inplace_true_divide, kDiv, &inplace_slot<kDiv>);
  m.def("_fast_slots_installed", [] {
    PyNumberMethods* n = g_tensor->tp_as_number;
    return n->nb_add == &binary_slot<kAdd, add_fwd, add_rev> && n->nb_multiply == &binary_slot<kMul, ops::mul, mul_rev>;
  }, "Whether Tensor's arithmetic operators run through the native number slots (a check for tests).");
}

}  // namespace engine::python
