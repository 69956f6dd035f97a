// The math API beyond the basics: more pointwise functions, bitwise / logical ops, reductions with
// values and indices, batched products, in-place variants, and `out=`. Each op is registered both as
// engine.<op>(input, ...) and as Tensor.<op>(...), with PyTorch's argument names.
#include <pybind11/stl.h>

#include "engine/autograd/grad_mode.h"
#include "engine/autograd/node.h"
#include "engine/autograd/variable.h"
#include "engine/core/error.h"
#include "engine/core/overlap.h"
#include "engine/kernels/elementwise.h"
#include "engine/ops/ops.h"
#include "engine/ops/lerp_addc_nodes.h"
#include "engine/ops/selection_nodes.h"
#include "engine/ops/selection_order.h"
#include "engine/ops/trace_repeat_dist.h"
#include "engine/python/bindings.h"

namespace engine::ops {
// Defined with div in ops/arith.cpp; only the rounding-mode div written in Python uses it.
Tensor with_div_mode_history(const Tensor& quotient, const Tensor& a, const Tensor& b,
                             const std::optional<std::string>& mode);
}  // namespace engine::ops

namespace engine::python {

namespace {

using TensorClass = py::class_<TensorImpl, std::shared_ptr<TensorImpl>>;

// Which arguments of a binary function PyTorch's overloads let be a Python number.
enum class NumberArgs { Both, Other, None };

// A tensor argument; a Python number too when `number_ok` (it becomes a wrapped 0-d tensor).
Tensor operand_arg(py::handle obj, const char* fname, const char* arg, int pos, bool number_ok = true) {
  Tensor t = number_ok ? to_operand(obj) : (is_tensor(obj) ? obj.cast<Tensor>() : Tensor());
  ENGINE_CHECK(t.defined(), engine::TypeError, fname, "(): argument '", arg, "' (position ", pos,
               ") must be Tensor, not ", type_name(obj));
  return t;
}

std::optional<Tensor> opt_operand(py::handle obj, const char* fname, const char* arg, int pos) {
  if (obj.is_none()) return std::nullopt;
  return operand_arg(obj, fname, arg, pos);
}

// dim=None -> {} (all dims); an int; or a tuple / list (an empty one also means all dims).
std::vector<int64_t> dims_of(py::handle dim, const char* fname) {
  std::vector<int64_t> dims;
  if (dim.is_none()) return dims;
  if (PyLong_Check(dim.ptr())) return {py_index(dim)};
  return dims_from_sequence(dim, fname, "dim");
}

std::optional<DType> dtype_of(py::handle d) {
  if (d.is_none()) return std::nullopt;
  return dtype_from_py(d);
}

py::object named_pair(const char* type_name, const Tensor& values, const Tensor& indices) {
  return py::module_::import("engine.return_types").attr(type_name)(values, indices);
}

// The dtype of a given out= (none when out is None); a non-tensor out raises PyTorch's TypeError.
std::optional<DType> out_dtype(py::handle out, const char* fname) {
  if (out.is_none()) return std::nullopt;
  ENGINE_CHECK(is_tensor(out), engine::TypeError, fname, "(): argument 'out' must be Tensor, not ", type_name(out));
  return out.cast<Tensor>().dtype();
}

// out= whose dtype must be the result's own (mv, bmm, argmax: PyTorch's structured kernels).
void check_out_is(std::optional<DType> out, DType expected) {
  ENGINE_CHECK(!out || *out == expected, std::runtime_error, "Expected out tensor to have dtype ",
               cpp_type_name(expected), ", but got ", cpp_type_name(*out), " instead");
}

}  // namespace

void check_out_of_dtype(py::handle out, DType expected, const char* fname) {
  check_out_is(out_dtype(out, fname), expected);
}

// `out=`: PyTorch refuses it when autograd would have to record; out is resized when its shape
// differs (with PyTorch's deprecation warning when it had elements), and keeps its dtype.
void check_out_args(py::handle out, std::initializer_list<const Tensor*> inputs, const char* fname) {
  if (out.is_none()) return;
  ENGINE_CHECK(is_tensor(out), engine::TypeError, fname, "(): argument 'out' must be Tensor, not ",
               type_name(out));
  Tensor o = out.cast<Tensor>();
  check_no_internal_overlap(o);
  for (const Tensor* t : inputs) {
    if (t->defined()) check_no_partial_overlap(o, *t);
  }
  if (!GradMode::is_enabled()) return;
  bool any = requires_grad(o);
  for (const Tensor* t : inputs) any = any || (t->defined() && requires_grad(*t));
  ENGINE_CHECK(!any, std::runtime_error, fname,
               "(): functions with out=... arguments don't support automatic differentiation, but one of the "
               "arguments requires grad.");
}

py::object write_out(py::handle out, const Tensor& result) {
  if (out.is_none()) return py::cast(result);
  Tensor o = out.cast<Tensor>();
  ENGINE_CHECK(is_floating(o.dtype()) || !is_floating(result.dtype()), std::runtime_error, "result type ",
               scalar_type_name(result.dtype()), " can't be cast to the desired output type ",
               scalar_type_name(o.dtype()));
  ENGINE_CHECK(o.dtype() != DType::Bool || result.dtype() == DType::Bool, std::runtime_error, "result type ",
               scalar_type_name(result.dtype()), " can't be cast to the desired output type Bool");
  if (o.shape() != result.shape()) {
    if (o.numel() != 0) {
      std::string msg = "An output with one or more elements was resized since it had shape " + dims_str(o.shape()) +
                        ", which does not match the required output shape " + dims_str(result.shape()) +
                        ". This behavior is deprecated, and in a future PyTorch release outputs will not be resized "
                        "unless they have zero elements. You can explicitly reuse an out tensor t by resizing it, "
                        "inplace, to zero elements with t.resize_(0).";
      if (PyErr_WarnEx(PyExc_UserWarning, msg.c_str(), 1) < 0) throw py::error_already_set();
    }
    Tensor fresh = Tensor::empty(result.shape(), o.dtype());
    TensorImpl* impl = o.get();
    impl->storage = fresh.get()->storage;
    impl->shape = fresh.shape();
    impl->strides = fresh.strides();
    impl->offset = 0;
    impl->refresh_layout();
  }
  kernels::copy(o, result);
  o.bump_version();
  return py::reinterpret_borrow<py::object>(out);
}

py::object written_out(py::handle out) {
  out.cast<Tensor>().bump_version();
  return py::reinterpret_borrow<py::object>(out);
}

py::object write_out_same_dtype(py::handle out, const Tensor& result) {
  if (!out.is_none()) {
    const DType found = out.cast<Tensor>().dtype();
    ENGINE_CHECK(found == result.dtype(), std::runtime_error, "Found dtype ", scalar_type_name(found),
                 " but expected ", scalar_type_name(result.dtype()));
  }
  return write_out(out, result);
}

namespace {

template <Tensor (*Op)(const Tensor&)>
void unary_fn(py::module_& m, TensorClass& cls, const char* name, bool same_dtype_out = false) {
  m.def(name, [name, same_dtype_out](const Tensor& t, py::handle out) {
    check_out_args(out, {&t}, name);
    return same_dtype_out ? write_out_same_dtype(out, Op(t)) : write_out(out, Op(t));
  }, py::arg("input"), py::kw_only(), py::arg("out") = py::none());
  cls.def(name, [](const Tensor& t) { return Op(t); });
}

template <Tensor (*Op)(const Tensor&)>
void inplace_method(TensorClass& cls, const char* name) {
  cls.def(name, [](Tensor t) { return ops::apply_(t, [](const Tensor& x) { return Op(x); }); });
}

template <Tensor (*Op)(const Tensor&, const Tensor&)>
void binary_fn(py::module_& m, TensorClass& cls, const char* name, const char* other = "other",
               NumberArgs numbers = NumberArgs::Both) {
  m.def(name, [name, other, numbers](py::handle a, py::handle b, py::handle out) {
    if (numbers == NumberArgs::Other && !is_tensor(a)) raise_tensor_or_number_other(name, a, b);
    Tensor x = operand_arg(a, name, "input", 1, numbers == NumberArgs::Both);
    Tensor y = operand_arg(b, name, other, 2, numbers != NumberArgs::None);
    check_out_args(out, {&x, &y}, name);
    return write_out(out, Op(x, y));
  }, py::arg("input"), py::arg(other), py::kw_only(), py::arg("out") = py::none());
  cls.def(name, [name, other, numbers](const Tensor& a, py::handle b) {
    return Op(a, operand_arg(b, name, other, 1, numbers != NumberArgs::None));
  }, py::arg(other));
}

template <Tensor (*Op)(const Tensor&, const Tensor&)>
void binary_inplace(TensorClass& cls, const char* name, const char* other = "other", bool number_ok = true) {
  cls.def(name, [name, other, number_ok](Tensor t, py::handle b) {
    Tensor o = operand_arg(b, name, other, 1, number_ok);
    return ops::apply_(t, [&](const Tensor& x) { return Op(x, o); }, &o);
  }, py::arg(other));
}

// a.__op__(b): NotImplemented for operands that are not tensors or numbers.
template <Tensor (*Op)(const Tensor&, const Tensor&)>
void dunders(TensorClass& cls, const char* op, const char* rop, const char* iop) {
  cls.def(op, [](const Tensor& self, py::handle other) -> py::object {
    Tensor o = to_operand(other);
    if (!o.defined()) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
    return py::cast(Op(self, o));
  });
  cls.def(rop, [](const Tensor& self, py::handle other) -> py::object {
    Tensor o = to_operand(other);
    if (!o.defined()) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
    return py::cast(Op(o, self));
  });
  cls.def(iop, [](Tensor self, py::handle other) -> py::object {
    Tensor o = to_operand(other);
    if (!o.defined()) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
    ops::apply_(self, [&](const Tensor& x) { return Op(x, o); }, &o);
    return py::cast(self);
  });
}

Tensor clamp_op(const Tensor& t, py::handle lo, py::handle hi, const char* name) {
  return ops::clamp(t, opt_operand(lo, name, "min", 2), opt_operand(hi, name, "max", 3));
}

// clamp_min / clamp_max: one bound, never None (PyTorch's TypeError, its method form).
Tensor one_sided_clamp(const Tensor& t, py::handle value, bool is_min) {
  const char* fname = is_min ? "clamp_min" : "clamp_max";
  const char* bound = is_min ? "min" : "max";
  auto b = opt_operand(value, fname, bound, is_min ? 2 : 3);
  ENGINE_CHECK(b, engine::TypeError, fname,
               "() received an invalid combination of arguments - got (NoneType), but expected one of:\n"
               " * (Tensor ", bound, ")\n"
               "      didn't match because some of the arguments have invalid types: (!NoneType!)\n"
               " * (Number ", bound, ")\n"
               "      didn't match because some of the arguments have invalid types: (!NoneType!)\n");
  return is_min ? ops::clamp_min(t, *b) : ops::clamp_max(t, *b);
}

// var / std: (dim, unbiased, keepdim) or (dim, *, correction, keepdim); a leading bool is `unbiased`.
double correction_of(py::handle& dim, py::handle unbiased, py::handle correction) {
  if (PyBool_Check(dim.ptr())) {
    bool u = dim.ptr() == Py_True;
    dim = py::none();
    return u ? 1.0 : 0.0;
  }
  if (!correction.is_none()) return number_value(correction, "var", "correction");
  if (!unbiased.is_none()) return bool_arg(unbiased, "var", "unbiased") ? 1.0 : 0.0;
  return 1.0;
}

double norm_p(py::handle p) {
  if (p.is_none()) return 2.0;
  if (py::isinstance<py::str>(p)) {
    std::string s = p.cast<std::string>();
    ENGINE_CHECK(s == "fro", std::runtime_error, "norm(): unsupported norm type '", s,
                 "'; expected a number or 'fro'");
    return 2.0;
  }
  return number_value(p, "norm", "p");
}

// max / min: (input) -> all elements; (input, dim, keepdim) -> (values, indices); (input, other) -> maximum.
py::object max_min(const Tensor& t, py::handle dim, bool keepdim, py::handle out, bool is_max) {
  const char* name = is_max ? "max" : "min";
  if (dim.is_none()) return write_out(out, is_max ? ops::max_all(t) : ops::min_all(t));
  if (is_tensor(dim)) {
    Tensor o = dim.cast<Tensor>();
    return write_out(out, is_max ? ops::maximum(t, o) : ops::minimum(t, o));
  }
  const int64_t d = int_arg(dim, name, "dim");
  auto [v, i] = is_max ? ops::max_dim(t, d, keepdim) : ops::min_dim(t, d, keepdim);
  return named_pair(name, v, i);
}

}  // namespace

void init_math(py::module_& m) {
  m.def(
      "_record_value_selection",
      [](const Tensor& out, const std::string& name, const Tensor& self, const Tensor& indices, int64_t dim,
         int64_t given_dim, bool keepdim) {
        const char* n = name == "MedianBackward1" ? "MedianBackward1"
                        : name == "KthvalueBackward0" ? "KthvalueBackward0"
                        : throw ValueError("_record_value_selection(): unknown node " + name);
        ops::record_value_selection(out, n, self, indices, dim, given_dim, keepdim);
        return out;
      },
      py::arg("out"), py::arg("name"), py::arg("input"), py::arg("indices"), py::arg("dim"), py::arg("given_dim"),
      py::arg("keepdim"),
      "Makes `out` (values picked along dim, computed without recording) the output of KthvalueBackward0 or "
      "MedianBackward1.");
  m.def(
      "_record_median_all",
      [](const Tensor& out, const Tensor& self) {
        ops::record_evenly_distributed(out, "MedianBackward0", self);
        return out;
      },
      py::arg("out"), py::arg("input"), "Makes `out`, median() computed without recording, the output of MedianBackward0.");
  m.def(
      "_record_masked_select",
      [](const Tensor& out, const Tensor& self, const Tensor& mask, const Tensor& positions) {
        ops::record_masked_select(out, self, mask, positions);
        return out;
      },
      py::arg("out"), py::arg("input"), py::arg("mask"), py::arg("positions"),
      "Makes `out`, masked_select computed without recording, the output of MaskedSelectBackward0.");
  m.def(
      "_record_roll",
      [](const Tensor& out, const Tensor& self, const std::vector<int64_t>& shifts, const std::vector<int64_t>& dims) {
        ops::record_roll(out, self, Dims(shifts.begin(), shifts.end()), Dims(dims.begin(), dims.end()));
        return out;
      },
      py::arg("out"), py::arg("input"), py::arg("shifts"), py::arg("dims"),
      "Makes `out`, roll computed without recording, the output of RollBackward0.");
  m.def(
      "_record_addc",
      [](const Tensor& out, bool divide, const Tensor& self, const Tensor& t1, const Tensor& t2, py::handle value) {
        const bool is_int = PyLong_Check(value.ptr());
        const double v = value.cast<double>();
        ops::record_addc(out, divide, self, t1, t2,
                         is_int ? SavedValue::scalar_int(value.cast<int64_t>()) : SavedValue(v), v);
        return out;
      },
      py::arg("out"), py::arg("divide"), py::arg("input"), py::arg("tensor1"), py::arg("tensor2"), py::arg("value"),
      "Makes `out`, addcmul (addcdiv with divide) computed without recording, the output of AddcmulBackward0 "
      "(AddcdivBackward0).");
  m.def(
      "_record_trace", [](const Tensor& out, const Tensor& self) { ops::record_trace(out, self); return out; },
      py::arg("out"), py::arg("input"), "Makes `out`, trace computed without recording, the output of TraceBackward0.");
  m.def(
      "_record_repeat",
      [](const Tensor& out, const Tensor& self, const std::vector<int64_t>& repeats) {
        ops::record_repeat(out, self, Dims(repeats.begin(), repeats.end()));
        return out;
      },
      py::arg("out"), py::arg("input"), py::arg("repeats"),
      "Makes `out`, repeat computed without recording, the output of RepeatBackward0.");
  m.def(
      "_record_dist",
      [](const Tensor& out, const Tensor& self, const Tensor& other, double p) {
        ops::record_dist(out, self, other, p);
        return out;
      },
      py::arg("out"), py::arg("input"), py::arg("other"), py::arg("p"),
      "Makes `out`, dist computed without recording, the output of DistBackward0 (finite p > 0).");

  auto cls = py::reinterpret_borrow<TensorClass>(m.attr("Tensor"));

  // ---- pointwise ----
  unary_fn<ops::exp2>(m, cls, "exp2");
  unary_fn<ops::expm1>(m, cls, "expm1");
  unary_fn<ops::log2>(m, cls, "log2");
  unary_fn<ops::log10>(m, cls, "log10");
  unary_fn<ops::log1p>(m, cls, "log1p");
  unary_fn<ops::rsqrt>(m, cls, "rsqrt");
  unary_fn<ops::reciprocal>(m, cls, "reciprocal");
  unary_fn<ops::tan>(m, cls, "tan");
  unary_fn<ops::asin>(m, cls, "asin");
  unary_fn<ops::acos>(m, cls, "acos");
  unary_fn<ops::atan>(m, cls, "atan");
  unary_fn<ops::sinh>(m, cls, "sinh");
  unary_fn<ops::cosh>(m, cls, "cosh");
  unary_fn<ops::erf>(m, cls, "erf");
  unary_fn<ops::floor>(m, cls, "floor", true);
  unary_fn<ops::ceil>(m, cls, "ceil", true);
  unary_fn<ops::trunc>(m, cls, "trunc", true);
  unary_fn<ops::bitwise_not>(m, cls, "bitwise_not", true);
  unary_fn<ops::logical_not>(m, cls, "logical_not");
  unary_fn<ops::isnan>(m, cls, "isnan");
  unary_fn<ops::isinf>(m, cls, "isinf");
  unary_fn<ops::isfinite>(m, cls, "isfinite");
  m.def("round", [](const Tensor& t, int64_t decimals, py::handle out) {
    check_out_args(out, {&t}, "round");
    return write_out_same_dtype(out, ops::round(t, decimals));
  }, py::arg("input"), py::kw_only(), py::arg("decimals") = 0, py::arg("out") = py::none());
  cls.def("round", [](const Tensor& t, int64_t decimals) { return ops::round(t, decimals); }, py::kw_only(),
          py::arg("decimals") = 0);
  cls.def("round_", [](Tensor t, int64_t decimals) {
    return ops::apply_(t, [&](const Tensor& x) { return ops::round(x, decimals); });
  }, py::kw_only(), py::arg("decimals") = 0);
  cls.def("__invert__", [](const Tensor& t) {
    ENGINE_CHECK(!is_floating(t.dtype()), engine::TypeError,
                 "~ (operator.invert) is only implemented on integer and Boolean-type tensors");
    return ops::bitwise_not(t);
  });

  // In-place forms of the pointwise functions, old and new.
  inplace_method<ops::exp>(cls, "exp_");
  inplace_method<ops::log>(cls, "log_");
  inplace_method<ops::sqrt>(cls, "sqrt_");
  inplace_method<ops::sin>(cls, "sin_");
  inplace_method<ops::cos>(cls, "cos_");
  inplace_method<ops::tanh>(cls, "tanh_");
  inplace_method<ops::sigmoid>(cls, "sigmoid_");
  inplace_method<ops::relu>(cls, "relu_");
  // threshold in place (nn.functional.threshold(..., inplace=True)): one node, which an in-place
  // write through a view runs inside CopySlices.
  m.def("_threshold_", [](Tensor t, double threshold, double value) {
    // PyTorch's threshold_ records ThresholdBackward1. Its saved self is the result, so where
    // value > threshold an overwritten element passes the gradient; engine's node keeps the input,
    // and those elements get zero, the derivative.
    return ops::apply_(t, [&](const Tensor& x) {
      Tensor out = ops::threshold(x, threshold, value);
      if (const auto& fn = grad_fn(out)) fn->set_display_name("ThresholdBackward1");
      return out;
    });
  }, py::arg("input"), py::arg("threshold"), py::arg("value"));
  inplace_method<ops::neg>(cls, "neg_");
  inplace_method<ops::abs>(cls, "abs_");
  inplace_method<ops::sign>(cls, "sign_");
  inplace_method<ops::sgn>(cls, "sgn_");
  inplace_method<ops::exp2>(cls, "exp2_");
  inplace_method<ops::expm1>(cls, "expm1_");
  inplace_method<ops::log2>(cls, "log2_");
  inplace_method<ops::log10>(cls, "log10_");
  inplace_method<ops::log1p>(cls, "log1p_");
  inplace_method<ops::rsqrt>(cls, "rsqrt_");
  inplace_method<ops::reciprocal>(cls, "reciprocal_");
  inplace_method<ops::tan>(cls, "tan_");
  inplace_method<ops::asin>(cls, "asin_");
  inplace_method<ops::acos>(cls, "acos_");
  inplace_method<ops::atan>(cls, "atan_");
  inplace_method<ops::sinh>(cls, "sinh_");
  inplace_method<ops::cosh>(cls, "cosh_");
  inplace_method<ops::erf>(cls, "erf_");
  inplace_method<ops::floor>(cls, "floor_");
  inplace_method<ops::ceil>(cls, "ceil_");
  inplace_method<ops::trunc>(cls, "trunc_");
  inplace_method<ops::bitwise_not>(cls, "bitwise_not_");
  inplace_method<ops::logical_not>(cls, "logical_not_");

  // ---- binary ----
  binary_fn<ops::atan2>(m, cls, "atan2", "other", NumberArgs::None);
  binary_fn<ops::fmod>(m, cls, "fmod", "other", NumberArgs::Other);
  binary_fn<ops::remainder>(m, cls, "remainder");
  binary_fn<ops::floor_divide>(m, cls, "floor_divide");
  // div(a, b, rounding_mode=...): the quotient engine.div computed without history gets PyTorch's
  // DivBackward2 node, with edges to a and b.
  m.def("_with_div_mode_history", [](const Tensor& quotient, const Tensor& input, py::handle other,
                                     std::optional<std::string> rounding_mode) {
    return ops::with_div_mode_history(quotient, input, to_operand(other), rounding_mode);
  }, py::arg("quotient"), py::arg("input"), py::arg("other"), py::arg("rounding_mode"));
  binary_fn<ops::bitwise_and>(m, cls, "bitwise_and");
  binary_fn<ops::bitwise_or>(m, cls, "bitwise_or");
  binary_fn<ops::bitwise_xor>(m, cls, "bitwise_xor");
  binary_fn<ops::bitwise_left_shift>(m, cls, "bitwise_left_shift");
  binary_fn<ops::bitwise_right_shift>(m, cls, "bitwise_right_shift");
  binary_fn<ops::logical_and>(m, cls, "logical_and", "other", NumberArgs::None);
  binary_fn<ops::logical_or>(m, cls, "logical_or", "other", NumberArgs::None);
  binary_fn<ops::logical_xor>(m, cls, "logical_xor", "other", NumberArgs::None);
  binary_inplace<ops::pow>(cls, "pow_", "exponent");
  // `t **= other` is t.pow_(other), in place and in t's dtype, as in PyTorch.
  cls.def("__ipow__", [](Tensor t, py::handle b) -> py::object {
    Tensor o = to_operand(b);
    if (!o.defined()) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
    ops::apply_(t, [&](const Tensor& x) { return ops::pow(x, o); }, &o);
    return py::cast(t);
  });
  binary_inplace<ops::atan2>(cls, "atan2_", "other", false);
  binary_inplace<ops::fmod>(cls, "fmod_");
  binary_inplace<ops::remainder>(cls, "remainder_");
  binary_inplace<ops::floor_divide>(cls, "floor_divide_");
  binary_inplace<ops::bitwise_and>(cls, "bitwise_and_");
  binary_inplace<ops::bitwise_or>(cls, "bitwise_or_");
  binary_inplace<ops::bitwise_xor>(cls, "bitwise_xor_");
  binary_inplace<ops::bitwise_left_shift>(cls, "bitwise_left_shift_");
  binary_inplace<ops::bitwise_right_shift>(cls, "bitwise_right_shift_");
  binary_inplace<ops::maximum>(cls, "maximum_");
  binary_inplace<ops::minimum>(cls, "minimum_");
  cls.def("maximum", [](const Tensor& a, py::handle b) { return ops::maximum(a, operand_arg(b, "maximum", "other", 1, false)); });
  cls.def("minimum", [](const Tensor& a, py::handle b) { return ops::minimum(a, operand_arg(b, "minimum", "other", 1, false)); });
  cls.def("where", [](const Tensor& self, const Tensor& cond, py::handle other) {
    return ops::where(cond, self, operand_arg(other, "where", "other", 2));
  }, py::arg("condition"), py::arg("other"));
  dunders<ops::floor_divide>(cls, "__floordiv__", "__rfloordiv__", "__ifloordiv__");
  dunders<ops::remainder>(cls, "__mod__", "__rmod__", "__imod__");
  dunders<ops::bitwise_and>(cls, "__and__", "__rand__", "__iand__");
  dunders<ops::bitwise_or>(cls, "__or__", "__ror__", "__ior__");
  dunders<ops::bitwise_xor>(cls, "__xor__", "__rxor__", "__ixor__");
  dunders<ops::bitwise_left_shift>(cls, "__lshift__", "__rlshift__", "__ilshift__");
  dunders<ops::bitwise_right_shift>(cls, "__rshift__", "__rrshift__", "__irshift__");

  for (const char* name : {"clamp", "clip"}) {
    m.def(name, [name](const Tensor& t, py::handle lo, py::handle hi, py::handle out) {
      check_out_args(out, {&t}, name);
      return write_out(out, clamp_op(t, lo, hi, name));
    }, py::arg("input"), py::arg("min") = py::none(), py::arg("max") = py::none(), py::kw_only(),
          py::arg("out") = py::none());
    cls.def(name, [name](const Tensor& t, py::handle lo, py::handle hi) { return clamp_op(t, lo, hi, name); },
            py::arg("min") = py::none(), py::arg("max") = py::none());
    cls.def((std::string(name) + "_").c_str(), [name](Tensor t, py::handle lo, py::handle hi) {
      return ops::apply_(t, [&](const Tensor& x) { return clamp_op(x, lo, hi, name); });
    }, py::arg("min") = py::none(), py::arg("max") = py::none());
  }
  cls.def("clamp_min", [](const Tensor& t, py::handle lo) { return one_sided_clamp(t, lo, true); }, py::arg("min"));
  cls.def("clamp_max", [](const Tensor& t, py::handle hi) { return one_sided_clamp(t, hi, false); }, py::arg("max"));
  m.def("lerp", [](const Tensor& a, const Tensor& b, py::handle w, py::handle out) {
    Tensor wt = operand_arg(w, "lerp", "weight", 3);
    check_out_args(out, {&a, &b, &wt}, "lerp");
    return write_out(out, ops::lerp(a, b, wt));
  }, py::arg("input"), py::arg("end"), py::arg("weight"), py::kw_only(), py::arg("out") = py::none());
  cls.def("lerp", [](const Tensor& a, const Tensor& b, py::handle w) {
    return ops::lerp(a, b, operand_arg(w, "lerp", "weight", 2));
  }, py::arg("end"), py::arg("weight"));
  cls.def("lerp_", [](Tensor a, const Tensor& b, py::handle w) {
    Tensor wt = operand_arg(w, "lerp_", "weight", 2);
    Tensor rest = ops::add(b, wt);  // only decides whether the op records
    return ops::apply_(a, [&](const Tensor& x) { return ops::lerp(x, b, wt); }, &rest);
  }, py::arg("end"), py::arg("weight"));

  // ---- reductions ----
  auto prod = [](const Tensor& t, py::handle dim, bool keepdim, py::handle dtype) {
    // PyTorch's prod reduces one dim or all of them: no tuple of dims.
    ENGINE_CHECK(!PyTuple_Check(dim.ptr()) && !PyList_Check(dim.ptr()), engine::TypeError,
                 "prod(): argument 'dim' (position 2) must be int, not ", type_name(dim));
    return ops::prod(t, dims_of(dim, "prod"), keepdim, dtype_of(dtype));
  };
  // With out=, PyTorch multiplies in out's dtype.
  m.def("prod", [prod](const Tensor& t, py::handle dim, bool keepdim, py::handle dtype, py::handle out) {
    const auto od = out_dtype(out, "prod");
    check_out_args(out, {&t}, "prod");
    return write_out(out, prod(t, dim, keepdim, od && dtype.is_none() ? dtype_to_py(*od) : dtype));
  }, py::arg("input"), py::arg("dim") = py::none(), py::arg("keepdim") = false, py::kw_only(),
        py::arg("dtype") = py::none(), py::arg("out") = py::none());
  cls.def("prod", prod, py::arg("dim") = py::none(), py::arg("keepdim") = false, py::kw_only(),
          py::arg("dtype") = py::none());
  for (bool is_max : {true, false}) {
    const char* name = is_max ? "max" : "min";
    m.def(name, [is_max](const Tensor& t, py::handle dim, bool keepdim, py::handle out) {
      return max_min(t, dim, keepdim, out, is_max);
    }, py::arg("input"), py::arg("dim") = py::none(), py::arg("keepdim") = false, py::kw_only(),
          py::arg("out") = py::none());
    cls.def(name, [is_max](const Tensor& t, py::handle dim, bool keepdim) {
      return max_min(t, dim, keepdim, py::none(), is_max);
    }, py::arg("dim") = py::none(), py::arg("keepdim") = false);
    auto amax = [is_max](const Tensor& t, py::handle dim, bool keepdim) {
      auto dims = dims_of(dim, is_max ? "amax" : "amin");
      return is_max ? ops::amax(t, dims, keepdim) : ops::amin(t, dims, keepdim);
    };
    m.def(is_max ? "amax" : "amin", [amax, is_max](const Tensor& t, py::handle dim, bool keepdim, py::handle out) {
      const char* fname = is_max ? "amax" : "amin";
      const auto od = out_dtype(out, fname);
      ENGINE_CHECK(!od || *od == t.dtype(), std::runtime_error,
                   "Expected the dtype for input and out to match, but got ", scalar_type_name(t.dtype()),
                   " for input's dtype and ", scalar_type_name(*od), " for out's dtype.");
      check_out_args(out, {&t}, fname);
      return write_out(out, amax(t, dim, keepdim));
    }, py::arg("input"), py::arg("dim") = py::tuple(), py::arg("keepdim") = false, py::kw_only(),
          py::arg("out") = py::none());
    cls.def(is_max ? "amax" : "amin", amax, py::arg("dim") = py::tuple(), py::arg("keepdim") = false);
    auto arg = [is_max](const Tensor& t, std::optional<int64_t> dim, bool keepdim) {
      return is_max ? ops::argmax(t, dim, keepdim) : ops::argmin(t, dim, keepdim);
    };
    m.def(is_max ? "argmax" : "argmin",
          [arg, is_max](const Tensor& t, std::optional<int64_t> dim, bool keepdim, py::handle out) {
            const char* fname = is_max ? "argmax" : "argmin";
            check_out_is(out_dtype(out, fname), DType::Int64);
            check_out_args(out, {&t}, fname);
            return write_out(out, arg(t, dim, keepdim));
          },
          py::arg("input"), py::arg("dim") = py::none(), py::arg("keepdim") = false, py::kw_only(),
          py::arg("out") = py::none());
    cls.def(is_max ? "argmax" : "argmin", arg, py::arg("dim") = py::none(), py::arg("keepdim") = false);
  }
  for (bool is_std : {false, true}) {
    auto fn = [is_std](const Tensor& t, py::handle dim, py::handle unbiased, bool keepdim, py::handle correction) {
      const double c = correction_of(dim, unbiased, correction);
      auto dims = dims_of(dim, is_std ? "std" : "var");
      return is_std ? ops::std(t, dims, c, keepdim) : ops::var(t, dims, c, keepdim);
    };
    const char* name = is_std ? "std" : "var";
    m.def(name, [fn, name](const Tensor& t, py::handle dim, py::handle unbiased, bool keepdim, py::handle correction,
                           py::handle out) {
      out_dtype(out, name);
      check_out_args(out, {&t}, name);
      return write_out(out, fn(t, dim, unbiased, keepdim, correction));
    }, py::arg("input"), py::arg("dim") = py::none(), py::arg("unbiased") = py::none(),
          py::arg("keepdim") = false, py::kw_only(), py::arg("correction") = py::none(), py::arg("out") = py::none());
    cls.def(name, fn, py::arg("dim") = py::none(), py::arg("unbiased") = py::none(), py::arg("keepdim") = false,
            py::kw_only(), py::arg("correction") = py::none());
  }
  // Positions PyTorch's topk / kthvalue pick within each row (python/engine/_sorting.py gathers).
  m.def("_topk_positions", &ops::topk_positions, py::arg("rows"), py::arg("k"), py::arg("largest"),
        py::arg("sorted"), "(rows, k) int64 positions of each row's top k, as PyTorch's CPU topk picks them.");
  m.def("_kthvalue_positions", &ops::kthvalue_positions, py::arg("rows"), py::arg("k"),
        "(rows,) int64 position of each row's k-th smallest value, as PyTorch's CPU kthvalue picks it.");
  // aminmax once python/engine/_scans.py checked its arguments.
  m.def("_aminmax", [](const Tensor& t, std::optional<int64_t> dim, bool keepdim) {
    auto [lo, hi] = ops::aminmax(t, dim, keepdim);
    return py::make_tuple(lo, hi);
  }, py::arg("input"), py::arg("dim"), py::arg("keepdim"));
  // var_mean / std_mean with the divisor's correction already resolved from PyTorch's spellings
  // (python/engine/_composite_ops.py); None stands for 1, shown as None on the node as PyTorch does.
  m.def("_var_mean", [](const Tensor& t, py::handle dim, py::handle correction, bool keepdim, bool is_std) {
    const char* fname = is_std ? "std_mean" : "var_mean";
    const std::vector<int64_t> dims = dims_of(dim, fname);
    const double c = correction.is_none() ? 1.0 : number_value(correction, fname, "correction");
    auto [spread, mean] = ops::var_mean(t, dims, c, keepdim, is_std);
    if (const auto& fn = grad_fn(spread)) {
      fn->saved_values.add("correction", correction.is_none() ? SavedValue() : saved_number(c));
      fn->saved_values.add("dim", dim.is_none() ? SavedValue() : SavedValue(dims));
      fn->saved_values.add("keepdim", keepdim);
    }
    return py::make_tuple(spread, mean);
  }, py::arg("input"), py::arg("dim"), py::arg("correction"), py::arg("keepdim"), py::arg("is_std"));
  auto norm = [](const Tensor& t, py::handle p, py::handle dim, bool keepdim, py::handle dtype) {
    Tensor x = dtype.is_none() ? t : ops::to_dtype(t, dtype_from_py(dtype));
    return ops::norm(x, norm_p(p), dims_of(dim, "norm"), keepdim);
  };
  m.def("norm", norm, py::arg("input"), py::arg("p") = "fro", py::arg("dim") = py::none(), py::arg("keepdim") = false,
        py::arg("dtype") = py::none());
  cls.def("norm", norm, py::arg("p") = "fro", py::arg("dim") = py::none(), py::arg("keepdim") = false,
          py::arg("dtype") = py::none());
  auto logsumexp = [](const Tensor& t, py::handle dim, bool keepdim) {
    return ops::logsumexp(t, dims_of(dim, "logsumexp"), keepdim);
  };
  // dim is required, as in PyTorch.
  m.def("logsumexp", [logsumexp](const Tensor& t, py::handle dim, bool keepdim, py::handle out) {
    const auto od = out_dtype(out, "logsumexp");
    ENGINE_CHECK(!od || is_floating(*od), std::runtime_error,
                 "logsumexp(): Expected floating point type for result tensor, but got: ", scalar_type_name(*od));
    check_out_args(out, {&t}, "logsumexp");
    return write_out(out, logsumexp(t, dim, keepdim));
  }, py::arg("input"), py::arg("dim"), py::arg("keepdim") = false, py::kw_only(), py::arg("out") = py::none());
  cls.def("logsumexp", logsumexp, py::arg("dim"), py::arg("keepdim") = false);
  for (bool is_sum : {true, false}) {
    auto fn = [is_sum](const Tensor& t, int64_t dim, py::handle dtype) {
      return is_sum ? ops::cumsum(t, dim, dtype_of(dtype)) : ops::cumprod(t, dim, dtype_of(dtype));
    };
    const char* name = is_sum ? "cumsum" : "cumprod";
    // With out=, PyTorch accumulates in out's dtype (which has no bool kernel).
    m.def(name, [is_sum, name](const Tensor& t, int64_t dim, py::handle dtype, py::handle out) {
      const auto od = out_dtype(out, name);
      std::optional<DType> in = dtype_of(dtype);
      if (od) {
        ENGINE_CHECK(*od != DType::Bool, engine::NotImplementedError, "\"", name,
                     "_out_cpu\" not implemented for 'Bool'");
        if (!in) in = od;
      }
      check_out_args(out, {&t}, name);
      return write_out(out, is_sum ? ops::cumsum(t, dim, in) : ops::cumprod(t, dim, in));
    }, py::arg("input"), py::arg("dim"), py::kw_only(), py::arg("dtype") = py::none(), py::arg("out") = py::none());
    cls.def(name, fn, py::arg("dim"), py::kw_only(), py::arg("dtype") = py::none());
  }
  for (bool is_all : {true, false}) {
    auto fn = [is_all](const Tensor& t, py::handle dim, bool keepdim) {
      if (py::isinstance<py::sequence>(dim) && py::len(dim) == 0) {
        // PyTorch's all/any over an empty dim list reduce nothing: each element's truth value
        // (a uint8 input keeps uint8), contiguous, where sum & co. over () reduce everything.
        Tensor truth = ops::ne(ops::contiguous(t), ops::full({}, 0.0, t.dtype()));
        return t.dtype() == DType::UInt8 ? ops::to_dtype(truth, DType::UInt8) : truth;
      }
      auto dims = dims_of(dim, is_all ? "all" : "any");
      return is_all ? ops::all(t, dims, keepdim) : ops::any(t, dims, keepdim);
    };
    const char* name = is_all ? "all" : "any";
    m.def(name, [fn, name](const Tensor& t, py::handle dim, bool keepdim, py::handle out) {
      const auto od = out_dtype(out, name);
      ENGINE_CHECK(!od || *od == DType::Bool || *od == DType::UInt8, std::runtime_error, name,
                   " only supports bool tensor for result, got: ", scalar_type_name(*od));
      check_out_args(out, {&t}, name);
      // Into a uint8 out PyTorch reduces the input cast to uint8 (0.5 counts as 0).
      const bool bytes = od && *od == DType::UInt8 && t.dtype() != DType::UInt8;
      return write_out(out, fn(bytes ? ops::to_dtype(t, DType::UInt8) : t, dim, keepdim));
    }, py::arg("input"), py::arg("dim") = py::none(), py::arg("keepdim") = false, py::kw_only(),
          py::arg("out") = py::none());
    cls.def(name, fn, py::arg("dim") = py::none(), py::arg("keepdim") = false);
  }

  // ---- linear algebra ----
  m.def("bmm", [](const Tensor& a, const Tensor& b, py::handle out) {
    Tensor r = ops::bmm(a, b);
    check_out_is(out_dtype(out, "bmm"), r.dtype());
    check_out_args(out, {&a, &b}, "bmm");
    return write_out(out, r);
  }, py::arg("input"), py::arg("mat2"), py::kw_only(), py::arg("out") = py::none());
  cls.def("bmm", [](const Tensor& a, const Tensor& b) { return ops::bmm(a, b); }, py::arg("mat2"));
  m.def("mv", [](const Tensor& a, const Tensor& v, py::handle out) {
    Tensor r = ops::mv(a, v);
    check_out_is(out_dtype(out, "mv"), r.dtype());
    check_out_args(out, {&a, &v}, "mv");
    return write_out(out, r);
  }, py::arg("input"), py::arg("vec"), py::kw_only(), py::arg("out") = py::none());
  cls.def("mv", [](const Tensor& a, const Tensor& v) { return ops::mv(a, v); });
  m.def("dot", [](const Tensor& a, const Tensor& b, py::handle out) {
    Tensor r = ops::dot(a, b);
    const auto od = out_dtype(out, "dot");
    ENGINE_CHECK(!od || *od == a.dtype(), std::runtime_error, "result dtype ", scalar_type_name(*od),
                 " does not match input dtype ", scalar_type_name(a.dtype()));
    check_out_args(out, {&a, &b}, "dot");
    return write_out(out, r);
  }, py::arg("input"), py::arg("tensor"), py::kw_only(), py::arg("out") = py::none());
  cls.def("dot", [](const Tensor& a, const Tensor& b) { return ops::dot(a, b); });
  m.def("outer", [](const Tensor& a, const Tensor& b, py::handle out) {
    out_dtype(out, "outer");
    check_out_args(out, {&a, &b}, "outer");
    return write_out(out, ops::outer(a, b));
  }, py::arg("input"), py::arg("vec2"), py::kw_only(), py::arg("out") = py::none());
  cls.def("outer", [](const Tensor& a, const Tensor& b) { return ops::outer(a, b); }, py::arg("vec2"));

  // ---- conversion ----
  cls.def("type_as", [](const Tensor& t, const Tensor& other) { return ops::to_dtype(t, other.dtype()); },
          py::arg("other"));
}

}  // namespace engine::python
