// Module-level functions: factories (engine.tensor, zeros, arange, ...) and engine.<op>(...).
#include <pybind11/stl.h>

#include "engine/autograd/variable.h"
#include "engine/core/error.h"
#include "engine/core/layout.h"
#include "engine/kernels/elementwise.h"
#include "engine/ops/complex.h"
#include "engine/ops/ops.h"
#include "engine/python/bindings.h"
#include "engine/python/factory_options.h"

namespace engine::python {

namespace {

// `arg` is "input" (position 1) or "other" (position 2), as PyTorch's signatures name them.
Tensor operand(py::handle obj, const char* fname, const char* arg) {
  Tensor t = to_operand(obj);
  ENGINE_CHECK(t.defined(), engine::TypeError, fname, "(): argument '", arg, "' (position ",
               std::string(arg) == "input" ? 1 : 2, ") must be Tensor, not ", type_name(obj));
  return t;
}

// A number argument (Python, NumPy or 0-d tensor) as a 0-d tensor, exact for 64-bit integers.
Tensor number_arg(py::handle v, const char* fname, const char* arg, int pos) {
  Tensor t = to_operand(v);
  ENGINE_CHECK(t.defined() && t.dim() == 0, engine::TypeError, fname, "(): argument '", arg, "' (position ", pos,
               ") must be Number, not ", type_name(v));
  return t;
}

// The dtype PyTorch infers from a fill value: its category, with floats at the default dtype.
DType category_dtype(const Tensor& v) {
  if (is_complex(v.dtype())) return default_dtype() == DType::Float64 ? DType::Complex128 : DType::Complex64;
  return is_floating(v.dtype()) ? default_dtype() : v.dtype() == DType::Bool ? DType::Bool : DType::Int64;
}

// `Into`: the op's out= that writes straight into out where it can, as def_binary's (below).
using IntoUnary = bool (*)(const Tensor& out, const Tensor& a);
bool never_into_unary(const Tensor&, const Tensor&) { return false; }
template <kernels::UnaryOp K>
bool unary_into(const Tensor& out, const Tensor& a) { return ops::unary_out(K, out, a); }

template <Tensor (*Op)(const Tensor&), IntoUnary Into = never_into_unary>
void def_unary(py::module_& m, const char* name, bool same_dtype_out = false) {
  m.def(name, [name, same_dtype_out](const Tensor& t, py::handle out) {
    check_out_args(out, {&t}, name);
    if (!out.is_none() && Into(out.cast<Tensor>(), t)) return written_out(out);
    return same_dtype_out ? write_out_same_dtype(out, Op(t)) : write_out(out, Op(t));
  }, py::arg("input"), py::kw_only(), py::arg("out") = py::none());
}

// `Into`: the op's out= that writes straight into out where it can (ops::mul_out); without it, or
// where it declines, the result is computed fresh and copied into out.
using IntoBinary = bool (*)(const Tensor& out, const Tensor& a, const Tensor& b);
bool never_into(const Tensor&, const Tensor&, const Tensor&) { return false; }

template <Tensor (*Op)(const Tensor&, const Tensor&), IntoBinary Into = never_into>
void def_binary(py::module_& m, const char* name, bool number_input = true, bool number_other = true) {
  m.def(name, [=](py::handle a, py::handle b, py::handle out) {
    if (!number_input && number_other && !is_tensor(a)) raise_tensor_or_number_other(name, a, b);
    Tensor x = number_input || is_tensor(a) ? operand(a, name, "input") : Tensor();
    Tensor y = number_other || is_tensor(b) ? operand(b, name, "other") : Tensor();
    ENGINE_CHECK(x.defined(), engine::TypeError, name, "(): argument 'input' (position 1) must be Tensor, not ",
                 type_name(a));
    ENGINE_CHECK(y.defined(), engine::TypeError, name, "(): argument 'other' (position 2) must be Tensor, not ",
                 type_name(b));
    check_out_args(out, {&x, &y}, name);
    if (!out.is_none() && Into(out.cast<Tensor>(), x, y)) return written_out(out);
    return write_out(out, Op(x, y));
  }, py::arg("input"), py::arg("other"), py::kw_only(), py::arg("out") = py::none());
}

// PyTorch's preserve_format for the *_like factories: a dense input's strides, else dense strides
// in the input's dimension order (as an elementwise result is laid out). `out` is fresh and
// constant (or uninitialised), and a constant's bytes are the same in every dense layout, so it
// only takes the strides: no second buffer, no copy.
Tensor layout_like(const Tensor& t, Tensor out) {
  if (t.is_contiguous() || out.numel() == 0) return out;
  Dims strides = elementwise_strides(t.shape(), {&t});
  if (strides.empty()) return out;
  out.get()->strides = std::move(strides);
  out.get()->refresh_layout();
  return out;
}

}  // namespace

void init_ops(py::module_& m) {
  m.def("tensor", [](py::handle data, py::kwargs kwargs) {
    FactoryOptions o = parse_factory_kwargs(kwargs, "tensor");
    return finish(tensor_from_data(data, o.dtype), o);
  }, py::arg("data"));  // named, so tensor(data=[1, 2]) works as in PyTorch
  m.def("empty", [](py::args size, py::kwargs kw) {
    Dims shape = factory_shape(size, kw, "empty");
    auto o = parse_factory_kwargs(kw, "empty");
    return finish(ops::empty(shape, o.dtype.value_or(default_dtype())), o);
  });
  m.def("zeros", [](py::args size, py::kwargs kw) {
    Dims shape = factory_shape(size, kw, "zeros");
    auto o = parse_factory_kwargs(kw, "zeros");
    return finish(ops::zeros(shape, o.dtype.value_or(default_dtype())), o);
  });
  m.def("ones", [](py::args size, py::kwargs kw) {
    Dims shape = factory_shape(size, kw, "ones");
    auto o = parse_factory_kwargs(kw, "ones");
    return finish(ops::ones(shape, o.dtype.value_or(default_dtype())), o);
  });
  m.def("full", [](py::handle size, py::handle value, py::kwargs kw) {
    auto o = parse_factory_kwargs(kw, "full");
    Dims shape = PyLong_Check(size.ptr()) ? Dims{py_index(size)} : dims_from_sequence(size, "full");
    Tensor v = number_arg(value, "full", "fill_value", 2);
    return finish(ops::full(shape, v, o.dtype.value_or(category_dtype(v))), o);
  }, py::arg("size"), py::arg("fill_value"));
  auto like = [](const char* name, double value, bool fill) {
    return [name, value, fill](const Tensor& t, py::kwargs kw) {
      auto o = parse_factory_kwargs(kw, name);
      DType dt = o.dtype.value_or(t.dtype());
      return finish(layout_like(t, fill ? ops::full(t.shape(), value, dt) : ops::empty(t.shape(), dt)), o);
    };
  };
  m.def("zeros_like", like("zeros_like", 0.0, true), py::arg("input"));
  m.def("ones_like", like("ones_like", 1.0, true), py::arg("input"));
  m.def("empty_like", like("empty_like", 0.0, false), py::arg("input"));
  m.def("full_like", [](const Tensor& t, py::handle value, py::kwargs kw) {
    auto o = parse_factory_kwargs(kw, "full_like");
    return finish(
        layout_like(t, ops::full(t.shape(), number_arg(value, "full_like", "fill_value", 2), o.dtype.value_or(t.dtype()))),
        o);
  }, py::arg("input"), py::arg("fill_value"));
  m.def("arange", [](py::args args, py::kwargs kw) {
    std::vector<py::object> vals;
    py::kwargs rest;
    for (auto a : args) vals.push_back(py::reinterpret_borrow<py::object>(a));
    py::object start, end, step;
    for (auto kv : kw) {
      std::string k = kv.first.cast<std::string>();
      if (k == "start") start = py::reinterpret_borrow<py::object>(kv.second);
      else if (k == "end") end = py::reinterpret_borrow<py::object>(kv.second);
      else if (k == "step") step = py::reinterpret_borrow<py::object>(kv.second);
      else rest[kv.first] = kv.second;
    }
    if (vals.size() == 1 && !end) end = vals[0];
    if (vals.size() >= 2) { start = vals[0]; end = vals[1]; }
    if (vals.size() == 3) step = vals[2];
    ENGINE_CHECK(vals.size() <= 3 && end, engine::TypeError, "arange() received an invalid combination of arguments");
    if (!start) start = py::int_(0);
    if (!step) step = py::int_(1);
    auto o = parse_factory_kwargs(rest, "arange");
    bool all_int = true;
    const char* names[] = {"start", "end", "step"};
    Tensor v[3];
    for (int i = 0; i < 3; ++i) {
      py::object& a = i == 0 ? start : i == 1 ? end : step;
      v[i] = number_arg(a, "arange", names[i], vals.size() == 1 ? 1 : i + 1);
      all_int = all_int && !is_floating(v[i].dtype());
    }
    DType dt = o.dtype.value_or(all_int ? DType::Int64 : default_dtype());
    if (all_int) {
      return finish(ops::arange(kernels::read_int(v[0], 0), kernels::read_int(v[1], 0), kernels::read_int(v[2], 0), dt), o);
    }
    return finish(ops::arange(kernels::read_double(v[0], 0), kernels::read_double(v[1], 0), kernels::read_double(v[2], 0), dt), o);
  });
  m.def("linspace", [](py::handle start, py::handle end, int64_t steps, py::kwargs kw) {
    auto o = parse_factory_kwargs(kw, "linspace");
    const Tensor a = number_arg(start, "linspace", "start", 1), b = number_arg(end, "linspace", "end", 2);
    if (is_complex(a.dtype()) || is_complex(b.dtype()) || (o.dtype && is_complex(*o.dtype))) {
      const DType dt = o.dtype.value_or(default_dtype() == DType::Float64 ? DType::Complex128 : DType::Complex64);
      return finish(ops::complex_linspace(a, b, steps, dt), o);
    }
    return finish(ops::linspace(kernels::read_double(a, 0), kernels::read_double(b, 0), steps,
                                o.dtype.value_or(default_dtype())), o);
  }, py::arg("start"), py::arg("end"), py::arg("steps"));

  def_binary<ops::mul, ops::mul_out>(m, "mul");
  def_binary<ops::div, ops::div_out>(m, "div");
  def_binary<ops::pow>(m, "pow");
  // PyTorch's overloads: maximum / minimum take tensors only, comparisons a number as `other` only.
  def_binary<ops::maximum>(m, "maximum", false, false);
  def_binary<ops::minimum>(m, "minimum", false, false);
  def_binary<ops::eq>(m, "eq", false);
  def_binary<ops::ne>(m, "ne", false);
  def_binary<ops::lt>(m, "lt", false);
  def_binary<ops::le>(m, "le", false);
  def_binary<ops::gt>(m, "gt", false);
  def_binary<ops::ge>(m, "ge", false);
  m.def("add", [](py::handle a, py::handle b, py::handle alpha, py::handle out) {
    Tensor x = operand(a, "add", "input"), y = operand(b, "add", "other");
    check_out_args(out, {&x, &y}, "add");
    const double s = alpha_arg(alpha, x, y, "add");
    if (!out.is_none() && ops::add_out(out.cast<Tensor>(), x, y, s)) return written_out(out);
    return write_out(out, ops::add(x, y, s));
  }, py::arg("input"), py::arg("other"), py::kw_only(), py::arg("alpha") = 1, py::arg("out") = py::none());
  m.def("sub", [](py::handle a, py::handle b, py::handle alpha, py::handle out) {
    Tensor x = operand(a, "sub", "input"), y = operand(b, "sub", "other");
    check_out_args(out, {&x, &y}, "sub");
    const double s = alpha_arg(alpha, x, y, "sub");
    if (!out.is_none() && ops::sub_out(out.cast<Tensor>(), x, y, s)) return written_out(out);
    return write_out(out, ops::sub(x, y, s));
  }, py::arg("input"), py::arg("other"), py::kw_only(), py::arg("alpha") = 1, py::arg("out") = py::none());
  m.def("where", [](const Tensor& c, py::handle a, py::handle b) -> py::object {
    // where(condition) alone is nonzero(condition, as_tuple=True), as in PyTorch.
    if (a.is_none() && b.is_none()) {
      return py::module_::import("engine").attr("nonzero")(c, py::arg("as_tuple") = true);
    }
    ENGINE_CHECK(!a.is_none() && !b.is_none(), engine::TypeError,
                 "where() received an invalid combination of arguments - got (Tensor, ",
                 a.is_none() ? type_name(b) : "Tensor",
                 "), but expected one of:\n * (Tensor condition)\n * (Tensor condition, Tensor input, Tensor other, *, "
                 "Tensor out = None)\n * (Tensor condition, Tensor input, Number other)\n"
                 " * (Tensor condition, Number input, Tensor other)\n * (Tensor condition, Number input, Number other)\n");
    return py::cast(ops::where(c, operand(a, "where", "input"), operand(b, "where", "other")));
  }, py::arg("condition"), py::arg("input") = py::none(), py::arg("other") = py::none());
  m.def("matmul", [](const Tensor& a, const Tensor& b, py::handle out) {
    check_out_args(out, {&a, &b}, "matmul");
    return write_out(out, ops::matmul(a, b));
  }, py::arg("input"), py::arg("other"), py::kw_only(), py::arg("out") = py::none());
  m.def("mm", [](const Tensor& a, const Tensor& b, py::handle out) {
    Tensor r = ops::mm(a, b);
    check_out_of_dtype(out, r.dtype(), "mm");
    check_out_args(out, {&a, &b}, "mm");
    return write_out(out, r);
  }, py::arg("input"), py::arg("mat2"), py::kw_only(), py::arg("out") = py::none());
  def_unary<ops::neg>(m, "neg", true);
  def_unary<ops::exp, unary_into<kernels::UnaryOp::Exp>>(m, "exp");
  def_unary<ops::log, unary_into<kernels::UnaryOp::Log>>(m, "log");
  def_unary<ops::sqrt, unary_into<kernels::UnaryOp::Sqrt>>(m, "sqrt");
  def_unary<ops::sin, unary_into<kernels::UnaryOp::Sin>>(m, "sin");
  def_unary<ops::cos, unary_into<kernels::UnaryOp::Cos>>(m, "cos");
  def_unary<ops::tanh, unary_into<kernels::UnaryOp::Tanh>>(m, "tanh");
  def_unary<ops::sigmoid, unary_into<kernels::UnaryOp::Sigmoid>>(m, "sigmoid");
  m.def("relu", [](const Tensor& t) { return ops::relu(t); }, py::arg("input"));  // no out=, as in PyTorch
  def_unary<ops::abs>(m, "abs", true);
  def_unary<ops::sign>(m, "sign", true);
  def_unary<ops::sgn>(m, "sgn", true);
  def_unary<ops::clone>(m, "clone");
  m.def("detach", [](const Tensor& t) { return detach(t); });
  m.def("t", [](const Tensor& t) { return ops::t(t); });
  m.def("select", [](const Tensor& t, int64_t dim, int64_t index) { return ops::select(t, dim, index); },
        py::arg("input"), py::arg("dim"), py::arg("index"));
  m.def("transpose", [](const Tensor& t, int64_t a, int64_t b) { return ops::transpose(t, a, b); }, py::arg("input"),
        py::arg("dim0"), py::arg("dim1"));
  m.def("unsqueeze", [](const Tensor& t, int64_t d) { return ops::unsqueeze(t, d); }, py::arg("input"), py::arg("dim"));
  m.def("squeeze", [](const Tensor& t, std::optional<int64_t> d) { return ops::squeeze(t, d); },
        py::arg("input"), py::arg("dim") = py::none());
  m.def("squeeze", [](const Tensor& t, const std::vector<int64_t>& d) { return ops::squeeze_dims(t, d); },
        py::arg("input"), py::arg("dim"));
  m.def("reshape", [](const Tensor& t, py::handle shape) { return ops::reshape(t, dims_from_sequence(shape, "reshape", "shape")); },
        py::arg("input"), py::arg("shape"));
  m.def("permute", [](const Tensor& t, py::handle dims) { return ops::permute(t, dims_from_sequence(dims, "permute", "dims")); },
        py::arg("input"), py::arg("dims"));
  // The pieces of split / chunk / unbind and their unsafe_ variants, one node for all of them (the
  // Python functions work out the lengths from PyTorch's several spellings).
  m.def("_unbind", [](const Tensor& t, int64_t dim) { return py::tuple(py::cast(ops::unbind(t, dim))); },
        py::arg("input"), py::arg("dim"));
  m.def("_split_pieces", [](const Tensor& t, const std::vector<int64_t>& lengths, int64_t dim, int kind,
                            int64_t split_size) {
    ENGINE_CHECK(kind >= 0 && kind <= 3, std::invalid_argument, "_split_pieces: kind must be 0..3");
    return py::tuple(py::cast(ops::split_pieces(t, lengths, dim, static_cast<ops::SplitKind>(kind), split_size)));
  }, py::arg("input"), py::arg("lengths"), py::arg("dim"), py::arg("kind"), py::arg("split_size") = 0);
  m.def("is_tensor", [](py::handle o) { return is_tensor(o); });
  m.def("numel", [](const Tensor& t) { return t.numel(); });
  m.def("result_type", [](py::handle a, py::handle b) {
    return dtype_to_py(ops::result_type(operand(a, "result_type", "input"), operand(b, "result_type", "other")));
  });
}

}  // namespace engine::python
