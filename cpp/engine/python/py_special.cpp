// Bindings of the special and less common pointwise functions (ops/special.cpp), registered as
// engine.<op>(input, ...) and Tensor.<op>(...), and the two generic in-place entry points that
// python/engine/_method_aliases.py builds every `<op>_` method from.
#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include "engine/core/error.h"
#include "engine/ops/ops.h"
#include "engine/python/bindings.h"

namespace engine::python {

namespace {

using TensorClass = py::class_<TensorImpl, std::shared_ptr<TensorImpl>>;

// A tensor argument; Python numbers are accepted only where PyTorch has a Scalar overload.
Tensor tensor_arg(py::handle obj, const char* fname, const char* arg, int pos, bool scalar_ok) {
  Tensor t = scalar_ok ? to_operand(obj) : (is_tensor(obj) ? obj.cast<Tensor>() : Tensor());
  ENGINE_CHECK(t.defined(), engine::TypeError, fname, "(): argument '", arg, "' (position ", pos,
               ") must be Tensor, not ", type_name(obj));
  return t;
}

template <Tensor (*Op)(const Tensor&)>
void unary(py::module_& m, TensorClass& cls, const char* name, bool same_dtype_out = false) {
  m.def(name, [name, same_dtype_out](py::handle a, py::handle out) {
    Tensor t = tensor_arg(a, name, "input", 1, false);
    check_out_args(out, {&t}, name);
    return same_dtype_out ? write_out_same_dtype(out, Op(t)) : write_out(out, Op(t));
  }, py::arg("input"), py::kw_only(), py::arg("out") = py::none());
  cls.def(name, [](const Tensor& t) { return Op(t); });
}

template <Tensor (*Op)(const Tensor&, const Tensor&)>
void binary(py::module_& m, TensorClass& cls, const char* name, const char* other, bool scalar_ok,
            bool scalar_input_ok = false) {
  m.def(name, [=](py::handle a, py::handle b, py::handle out) {
    // PyTorch's overloads: copysign takes a number as `other` only, xlogy on either side.
    if (scalar_ok && !scalar_input_ok && !is_tensor(a)) raise_tensor_or_number_other(name, a, b);
    Tensor x = tensor_arg(a, name, "input", 1, scalar_input_ok), y = tensor_arg(b, name, other, 2, scalar_ok);
    check_out_args(out, {&x, &y}, name);
    return write_out(out, Op(x, y));
  }, py::arg("input"), py::arg(other), py::kw_only(), py::arg("out") = py::none());
  cls.def(name, [=](const Tensor& a, py::handle b) { return Op(a, tensor_arg(b, name, other, 1, scalar_ok)); },
          py::arg(other));
}

Tensor call_returning_tensor(const py::function& fn, const Tensor& x, const char* what) {
  py::object r = fn(x);
  ENGINE_CHECK(is_tensor(r), engine::TypeError, what, ": the out-of-place operation returned ", type_name(r),
               ", not a Tensor");
  return r.cast<Tensor>();
}

}  // namespace

void init_special(py::module_& m) {
  auto cls = py::reinterpret_borrow<TensorClass>(m.attr("Tensor"));

  unary<ops::acosh>(m, cls, "acosh");
  unary<ops::asinh>(m, cls, "asinh");
  unary<ops::atanh>(m, cls, "atanh");
  unary<ops::lgamma>(m, cls, "lgamma");
  unary<ops::digamma>(m, cls, "digamma");
  unary<ops::erfc>(m, cls, "erfc");
  unary<ops::erfinv>(m, cls, "erfinv");
  unary<ops::i0>(m, cls, "i0");
  unary<ops::special_i1>(m, cls, "_special_i1");
  unary<ops::sinc>(m, cls, "sinc");
  unary<ops::signbit>(m, cls, "signbit");
  unary<ops::frac>(m, cls, "frac", true);
  unary<ops::deg2rad>(m, cls, "deg2rad");
  unary<ops::rad2deg>(m, cls, "rad2deg");

  m.def("polygamma", [](int64_t n, py::handle a, py::handle out) {
    Tensor t = tensor_arg(a, "polygamma", "input", 2, false);
    check_out_args(out, {&t}, "polygamma");
    return write_out(out, ops::polygamma(n, t));
  }, py::arg("n"), py::arg("input"), py::kw_only(), py::arg("out") = py::none());
  cls.def("polygamma", [](const Tensor& t, int64_t n) { return ops::polygamma(n, t); }, py::arg("n"));

  auto frexp = [](const Tensor& t) {
    auto [mantissa, exponent] = ops::frexp(t);
    return py::module_::import("engine.return_types").attr("frexp")(mantissa, exponent);
  };
  m.def("frexp", [frexp](py::handle a) { return frexp(tensor_arg(a, "frexp", "input", 1, false)); },
        py::arg("input"));
  cls.def("frexp", frexp);

  binary<ops::copysign>(m, cls, "copysign", "other", true);
  binary<ops::heaviside>(m, cls, "heaviside", "values", false);
  binary<ops::nextafter>(m, cls, "nextafter", "other", false);
  binary<ops::fmax>(m, cls, "fmax", "other", false);
  binary<ops::fmin>(m, cls, "fmin", "other", false);
  binary<ops::igamma>(m, cls, "igamma", "other", false);
  binary<ops::igammac>(m, cls, "igammac", "other", false);
  binary<ops::logaddexp>(m, cls, "logaddexp", "other", false);
  binary<ops::logaddexp2>(m, cls, "logaddexp2", "other", false);
  binary<ops::hypot>(m, cls, "hypot", "other", false);
  binary<ops::xlogy>(m, cls, "xlogy", "other", true, true);
  m.def("logit", [](py::handle a, std::optional<double> eps, py::handle out) {
    Tensor t = tensor_arg(a, "logit", "input", 1, false);
    check_out_args(out, {&t}, "logit");
    return write_out(out, ops::logit(t, eps));
  }, py::arg("input"), py::arg("eps") = py::none(), py::kw_only(), py::arg("out") = py::none());
  cls.def("logit", [](const Tensor& t, std::optional<double> eps) { return ops::logit(t, eps); },
          py::arg("eps") = py::none());
  binary<ops::gcd>(m, cls, "gcd", "other", false);
  binary<ops::lcm>(m, cls, "lcm", "other", false);

  // self = fn(self) in place, through the native in-place path (dtype check, version bump, leaf
  // check, history); `others` are the op's further tensor inputs.
  m.def("_inplace_apply", [](Tensor self, const py::function& fn, const TensorList& others) {
    return ops::apply_(self, [&](const Tensor& x) { return call_returning_tensor(fn, x, "in-place operation"); },
                       others);
  }, py::arg("self"), py::arg("fn"), py::arg("others"));
  // self takes the geometry and history of fn(self), a view of it (t_, squeeze_, transpose_ ...).
  m.def("_restride_", [](Tensor self, const py::function& fn) {
    return ops::restride_(self, [&](const Tensor& x) { return call_returning_tensor(fn, x, "in-place view"); });
  }, py::arg("self"), py::arg("fn"));
}

}  // namespace engine::python
