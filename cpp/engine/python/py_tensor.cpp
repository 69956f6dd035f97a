// The Tensor class: properties, conversions to Python, and the operator protocol. Arithmetic
// dunders take `object` and convert it themselves, so no overload chain is walked per call.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>
#include <pybind11/typing.h>

#include "engine/autograd/accumulate_grad.h"
#include "engine/autograd/grad_mode.h"
#include "engine/autograd/node.h"
#include "engine/autograd/variable.h"
#include "engine/core/error.h"
#include "engine/kernels/elementwise.h"
#include "engine/ops/ops.h"
#include "engine/python/bindings.h"
#include "engine/python/factory_options.h"
#include "engine/python/py_fast_slots.h"
#include "engine/python/py_method_entry.h"
#include "engine/python/py_transform_dispatch.h"
#include "engine/python/py_tensor_grad.h"
#include "engine/python/py_tensor_set.h"

namespace engine::python {

py::object complex_element_to_py(const Tensor& z, int64_t flat);  // py_complex.cpp

namespace {

py::object scalar_to_py(const Tensor& t, int64_t flat) {
  if (is_complex(t.dtype())) return complex_element_to_py(t, flat);
  if (is_floating(t.dtype())) return py::float_(kernels::read_double(t, flat));
  if (t.dtype() == DType::Bool) return py::bool_(kernels::read_int(t, flat) != 0);
  return py::int_(kernels::read_int(t, flat));
}

// Nested lists of t's elements; along dims longer than 2*edge (edge >= 0) only the first and last
// `edge` entries are kept (what the printer needs when summarizing).
py::object nested(const Tensor& t, size_t dim, int64_t offset, int64_t edge) {
  const char* base = static_cast<const char*>(t.raw_data());
  const int64_t isz = static_cast<int64_t>(itemsize(t.dtype()));
  if (dim == t.shape().size()) {
    const char* p = base + offset * isz;
    switch (t.dtype()) {
      case DType::Float32: return py::float_(*reinterpret_cast<const float*>(p));
      case DType::Float64: return py::float_(*reinterpret_cast<const double*>(p));
      case DType::Int64: return py::int_(*reinterpret_cast<const int64_t*>(p));
      case DType::Int32: return py::int_(*reinterpret_cast<const int32_t*>(p));
      case DType::Bool: return py::bool_(*reinterpret_cast<const bool*>(p));
      case DType::UInt8: return py::int_(*reinterpret_cast<const uint8_t*>(p));
      case DType::Int8: return py::int_(*reinterpret_cast<const int8_t*>(p));
      case DType::Int16: return py::int_(*reinterpret_cast<const int16_t*>(p));
      case DType::Float16: return py::float_(static_cast<float>(*reinterpret_cast<const Half*>(p)));
      case DType::BFloat16: return py::float_(static_cast<float>(*reinterpret_cast<const BFloat16*>(p)));
      case DType::Complex64: {
        const float* c = reinterpret_cast<const float*>(p);
        return py::reinterpret_steal<py::object>(PyComplex_FromDoubles(c[0], c[1]));
      }
      case DType::Complex128: {
        const double* c = reinterpret_cast<const double*>(p);
        return py::reinterpret_steal<py::object>(PyComplex_FromDoubles(c[0], c[1]));
      }
    }
  }
  const int64_t n = t.shape()[dim], stride = t.strides()[dim];
  std::vector<int64_t> idx;
  if (edge >= 0 && edge < n && n - edge > edge) {  // n > 2 * edge, without overflow
    for (int64_t i = 0; i < edge; ++i) idx.push_back(i);
    for (int64_t i = n - edge; i < n; ++i) idx.push_back(i);
  } else {
    for (int64_t i = 0; i < n; ++i) idx.push_back(i);
  }
  py::list out(idx.size());
  for (size_t k = 0; k < idx.size(); ++k) out[k] = nested(t, dim + 1, offset + idx[k] * stride, edge);
  return std::move(out);
}

py::object tolist(const Tensor& t) { return nested(t, 0, 0, -1); }

// The Python object of `alias` (a TensorImpl that has none yet) as an instance of the subclass
// `cls`. It is built as pybind11 builds any returned object, but of `cls` rather than of Tensor
// itself, so later casts of the same TensorImpl find this object.
py::object instance_of(py::handle cls, const Tensor& alias, const char* fname) {
  const auto* tinfo = py::detail::get_type_info(typeid(TensorImpl));
  ENGINE_CHECK(PyType_Check(cls.ptr()) && PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(cls.ptr()), tinfo->type),
               engine::TypeError, fname, "(): argument 'cls' must be a subclass of Tensor, not ", type_name(cls));
  auto inst = py::reinterpret_steal<py::object>(py::detail::make_new_instance(reinterpret_cast<PyTypeObject*>(cls.ptr())));
  auto* wrapper = reinterpret_cast<py::detail::instance*>(inst.ptr());
  py::detail::values_and_holders(wrapper).begin()->value_ptr() = alias.get();
  wrapper->owned = true;
  std::shared_ptr<TensorImpl> holder = alias.impl();
  tinfo->init_instance(wrapper, &holder);
  holder->py_object = inst.ptr();  // later casts of alias find this object (see TensorImpl::py_object)
  return inst;
}

// Tensor._make_subclass(cls, data, require_grad): an instance of `cls` (such as nn.Parameter)
// aliasing data's memory, detached from its history, as PyTorch's does.
py::object make_subclass(py::handle cls, const Tensor& data, bool require_grad) {
  Tensor alias = detach(data);
  set_requires_grad(alias, require_grad);
  return instance_of(cls, alias, "_make_subclass");
}

// Tensor._alias_subclass(cls, data): an instance of `cls` that is a view of all of data and stays
// in data's graph (AliasBackward0), as PyTorch's `Sub(t)` and `t.as_subclass(Sub)` give.
py::object alias_subclass(py::handle cls, const Tensor& data) {
  Tensor alias = ops::strided_view(
      data, [](const Dims& shape, const Dims& strides, int64_t offset) { return ops::ViewGeom{shape, strides, offset}; },
      "AliasBackward0");
  return instance_of(cls, alias, "as_subclass");
}

Tensor operand_or_throw(py::handle obj, const char* fname, const char* argname = "other") {
  Tensor t = to_operand(obj);
  ENGINE_CHECK(t.defined(), engine::TypeError, fname, "(): argument '", argname, "' (position 1) must be Tensor, not ",
               type_name(obj));
  return t;
}

// a.__op__(b) for a binary op: NotImplemented lets Python try the reflected operator.
template <Tensor (*Op)(const Tensor&, const Tensor&)>
py::object dunder(const Tensor& self, py::handle other) {
  Tensor o = to_operand(other);
  if (!o.defined()) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
  return py::cast(Op(self, o));
}
// `number / t` is PyTorch's `t.reciprocal() * number` (its grad_fn is MulBackward0, and 16-bit
// tensors round the reciprocal first).
Tensor rdiv(const Tensor& other, const Tensor& self) { return ops::mul(ops::reciprocal(self), other); }

template <Tensor (*Op)(const Tensor&, const Tensor&)>
py::object rdunder(const Tensor& self, py::handle other) {
  Tensor o = to_operand(other);
  if (!o.defined()) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
  return py::cast(Op(o, self));
}
template <Tensor& (*Op)(Tensor&, const Tensor&)>
py::object idunder(Tensor self, py::handle other) {
  Tensor o = to_operand(other);
  if (!o.defined()) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
  Op(self, o);
  return py::cast(self);
}

Tensor add2(const Tensor& a, const Tensor& b) { return ops::add(a, b); }
// `number + t` and `number * t` are PyTorch's t.add(number) and t.mul(number): the number stays
// the second operand (which a 16-bit tensor's arithmetic keeps at float32 precision).
Tensor radd(const Tensor& other, const Tensor& self) { return ops::add(self, other); }
Tensor rmul(const Tensor& other, const Tensor& self) { return ops::mul(self, other); }
Tensor sub2(const Tensor& a, const Tensor& b) { return ops::sub(a, b); }
Tensor& add_2(Tensor& a, const Tensor& b) { return ops::add_(a, b); }
Tensor& sub_2(Tensor& a, const Tensor& b) { return ops::sub_(a, b); }

std::vector<int64_t> dims_arg(py::handle dim, int64_t ndim) {
  std::vector<int64_t> dims;
  if (dim.is_none()) return dims;
  if (PyLong_Check(dim.ptr())) {
    dims.push_back(py_index(dim));
  } else {
    dims = dims_from_sequence(dim, "sum", "dim");
    if (dims.empty()) {
      // An explicit empty tuple still means every dim, as in PyTorch.
      for (int64_t d = 0; d < ndim; ++d) dims.push_back(d);
    }
  }
  return dims;
}

std::optional<DType> opt_dtype(py::handle d) {
  if (d.is_none()) return std::nullopt;
  return dtype_from_py(d);
}

// Tensor.to(dtype) / .to(other) / .to("cpu"): only the dtype matters on a CPU-only engine.
Tensor to_method(const Tensor& self, py::args args, py::kwargs kwargs) {
  std::optional<DType> dt;
  auto consider = [&](py::handle a) {
    if (is_tensor(a)) {
      dt = a.cast<Tensor>().dtype();
    } else if (check_device(a)) {
      // the CPU: nothing to move
    } else if (!a.is_none()) {
      dt = dtype_from_py(a);
    }
  };
  for (auto a : args) consider(a);
  for (auto kv : kwargs) {
    std::string k = kv.first.cast<std::string>();
    if (k == "dtype" || k == "device" || k == "other") consider(kv.second);
    else ENGINE_CHECK(k == "copy" || k == "non_blocking", engine::TypeError, "to() got an unexpected keyword argument '", k, "'");
  }
  if (dt && is_complex(self.dtype()) && !is_complex(*dt) &&
      PyErr_WarnEx(PyExc_UserWarning, "Casting complex values to real discards the imaginary part", 1) < 0) {
    throw py::error_already_set();
  }
  return dt ? ops::to_dtype(self, *dt) : self;
}

// The Tensor class's own type, PyTorch's _TensorMeta: pybind11's metaclass under the name
// CPython's messages print for the class itself (`t + engine.Tensor`, `iter(engine.Tensor)`,
// `format(engine.Tensor, "x")` name 'engine._C._TensorMeta', not pybind11's internal type).
py::object tensor_metaclass(py::module_& m) {
  auto* base = reinterpret_cast<PyObject*>(py::detail::get_internals().default_metaclass);
  static PyType_Slot slots[] = {{0, nullptr}};
  static PyType_Spec spec{"engine._C._TensorMeta", 0, 0, Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE, slots};
  py::object meta = py::reinterpret_steal<py::object>(PyType_FromSpecWithBases(&spec, py::make_tuple(py::handle(base)).ptr()));
  if (!meta) throw py::error_already_set();
  m.attr("_TensorMeta") = meta;
  return meta;
}

}  // namespace

// pybind11's deallocator of Tensor objects, and ours in front of it: the object's TensorImpl stops
// pointing at it (TensorImpl::py_object) before pybind11 lets go of the TensorImpl. Subclasses made
// in Python reach it too (their deallocator calls the nearest base's).
destructor g_pybind_tensor_dealloc = nullptr;

void tensor_dealloc(PyObject* self) {
  auto* inst = reinterpret_cast<py::detail::instance*>(self);
  if (!inst->simple_layout) {
    g_pybind_tensor_dealloc(self);
    return;
  }
  using Holder = std::shared_ptr<TensorImpl>;
  py::detail::value_and_holder v_h(inst, nullptr, 0, 0);
  if (inst->simple_holder_constructed) {
    const Holder& holder = v_h.holder<Holder>();
    if (holder && holder->py_object == self) holder->py_object = nullptr;
  }
  if (inst->simple_instance_registered || inst->has_patients || !inst->simple_holder_constructed) {
    g_pybind_tensor_dealloc(self);
    return;
  }
  // pybind11_object_dealloc for the common case (one holder, not in pybind11's registry, no
  // keep-alive patients), less its per-call type lookup: the same steps in the same order.
  PyTypeObject* type = Py_TYPE(self);
  if (PyType_HasFeature(type, Py_TPFLAGS_HAVE_GC)) PyObject_GC_UnTrack(self);
#if PY_VERSION_HEX >= 0x030D0000
  if (PyType_HasFeature(type, Py_TPFLAGS_MANAGED_DICT)) PyObject_ClearManagedDict(self);
#endif
  {
    // The TensorImpl may run Python code as it goes (hooks held by its autograd state): keep a
    // pending exception aside meanwhile, as pybind11's dealloc does.
    py::error_scope scope;
    v_h.holder<Holder>().~Holder();
    v_h.set_holder_constructed(false);
    v_h.value_ptr() = nullptr;
  }
  if (inst->weakrefs) PyObject_ClearWeakRefs(self);
  if (PyObject** dict_ptr = _PyObject_GetDictPtr(self)) Py_CLEAR(*dict_ptr);
  type->tp_free(self);
  Py_DECREF(type);
}

void init_tensor(py::module_& m) {
  py::class_<TensorImpl, std::shared_ptr<TensorImpl>> cls(m, "Tensor", py::metaclass(tensor_metaclass(m)));
  set_tensor_type(cls);
  {
    auto* type = reinterpret_cast<PyTypeObject*>(cls.ptr());
    g_pybind_tensor_dealloc = type->tp_dealloc;
    type->tp_dealloc = &tensor_dealloc;
  }
  cls.def_property_readonly("_shape", [](const Tensor& t) {
       py::tuple out(t.dim());
       for (int64_t i = 0; i < t.dim(); ++i) out[i] = py::int_(t.shape()[i]);
       return out;
     })
      .def_property_readonly("dtype", [](const Tensor& t) { return dtype_to_py(t.dtype()); })
      .def_property_readonly("ndim", [](const Tensor& t) { return t.dim(); })
      .def_property_readonly("is_leaf", [](const Tensor& t) { return is_leaf(t); })
      .def_property_readonly("grad_fn", [](const Tensor& t) {
        const auto* m = autograd_meta(t);
        ENGINE_CHECK(!m || !m->history_invalid, std::runtime_error, multi_output_invalid_message(t));
        return node_to_py(grad_fn(t));
      })
      .def_property_readonly("output_nr", [](const Tensor& t) { return output_nr(t); })
      .def_property_readonly("_version", [](const Tensor& t) {
        ENGINE_CHECK(!t.get()->is_inference, std::runtime_error, "Inference tensors do not track version counter.");
        return t.version();
      })
      .def_property_readonly("_base", [](const Tensor& t) { return Tensor(t.get()->view_base); })
      .def_property_readonly("retains_grad", [](const Tensor& t) {
        auto* m = autograd_meta(t);
        return m && m->retains_grad;
      })
      .def_property("requires_grad", [](const Tensor& t) { return requires_grad(t); },
                    [](const Tensor& t, bool v) { set_requires_grad(t, v); })
      .def_property(
          "grad",
          [](const Tensor& t) {
            auto* m = autograd_meta(t);
            if (!is_leaf(t) && !(m && m->retains_grad)) {
              if (PyErr_WarnEx(PyExc_UserWarning,
                               "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its "
                               ".grad attribute won't be populated during autograd.backward(). If you indeed want the "
                               ".grad field to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf "
                               "Tensor. If you access the non-leaf Tensor by mistake, make sure you access the leaf "
                               "Tensor instead. See github.com/pytorch/pytorch/pull/30531 for more information.",
                               1) < 0) {
                throw py::error_already_set();
              }
            }
            return py::typing::Optional<Tensor>(m ? grad_object(*m) : py::none());
          },
          [](const Tensor& t, py::handle g) {
            if (g.is_none()) {
              Tensor old;  // released after the lock
              std::shared_ptr<void> old_py;
              if (auto* m = autograd_meta(t)) {
                std::lock_guard<std::mutex> lock(grad_accumulation_mutex());
                std::swap(old, m->grad);
                std::swap(old_py, m->grad_py);
              }
              return;
            }
            ENGINE_CHECK(is_tensor(g), engine::TypeError, "assigned grad expected to be a Tensor or None but got grad of type ",
                         type_name(g));
            Tensor gt = g.cast<Tensor>();
            const auto want = allowed_grad_dtype(t);  // Tensor.grad_dtype: the tensor's dtype unless set
            ENGINE_CHECK(!want || gt.dtype() == *want, std::runtime_error, "attempting to assign a gradient with dtype '",
                         cpp_type_name(gt.dtype()), "' to a tensor with grad_dtype '", scalar_type_name(*want),
                         "'. The gradient must match the tensor's grad_dtype (defaults to the tensor's dtype). You "
                         "can set the tensor's grad_dtype attribute with a specific dtype, or None to allow any dtype. "
                         "Set grad_dtype with caution. Diverging the dtypes of a tensor and its gradient may break "
                         "downstream systems that assume they match.");
            ENGINE_CHECK(gt.shape() == t.shape(), std::runtime_error, "attempting to assign a gradient of size '",
                         dims_str(gt.shape()), "' to a tensor of size '", dims_str(t.shape()),
                         "'. Please ensure that the gradient and the tensor are the same size");
            auto& meta = ensure_autograd_meta(t);
            std::shared_ptr<void> kept = keep_python_object(g);  // `t.grad is g` afterwards
            std::lock_guard<std::mutex> lock(grad_accumulation_mutex());
            std::swap(meta.grad, gt);
            std::swap(meta.grad_py, kept);  // the old ones go after the lock
          })
      .def_property(
          "data",
          [](const Tensor& t) {
            // Shares t's memory but not its version counter: writes through it go unnoticed by
            // autograd, which is what .data is for.
            Tensor d = detach(t);
            d.get()->own_version = std::make_shared<std::atomic<uint32_t>>(0);
            return d;
          },
          [](const Tensor& t, const Tensor& src) {
            // Rebinds t to src's memory and layout, keeping t's identity, autograd state and
            // version counter (which from now on is t's own, not src's storage's).
            TensorImpl* impl = t.get();
            if (!impl->own_version) impl->own_version = impl->storage->shared_counter();
            impl->storage = src.get()->storage;
            impl->shape = src.shape();
            impl->strides = src.strides();
            impl->offset = src.offset();
            impl->dtype = src.dtype();
            impl->refresh_layout();
          })
      .def("dim", [](const Tensor& t) { return t.dim(); })
      .def("numel", [](const Tensor& t) { return t.numel(); })
      .def("nelement", [](const Tensor& t) { return t.numel(); })
      .def("element_size", [](const Tensor& t) { return itemsize(t.dtype()); })
      .def("is_contiguous", [](const Tensor& t) { return t.is_contiguous(); })
      .def("is_floating_point", [](const Tensor& t) { return is_floating(t.dtype()); })
      .def("_is_view", [](const Tensor& t) { return t.is_view(); })
      .def("data_ptr", [](const Tensor& t) { return t.is_meta() ? uintptr_t{0} : reinterpret_cast<uintptr_t>(t.raw_data()); })
      .def("stride", [](const Tensor& t, py::handle dim) -> py::object {
             if (dim.is_none()) return py::tuple(py::cast(t.strides()));
             return py::int_(t.strides()[wrap_dim(int_arg(dim, "stride", "dim"), t.dim())]);
           }, py::arg("dim") = py::none())
      .def("item", [](const Tensor& t) {
        ENGINE_CHECK(t.numel() == 1, std::runtime_error, "a Tensor with ", t.numel(),
                     " elements cannot be converted to Scalar");
        return scalar_to_py(t, 0);
      })
      .def("tolist", [](const Tensor& t) { return tolist(t); })
      .def("_edge_list", [](const Tensor& t, int64_t edge) { return nested(t, 0, 0, edge); })
      .def("numpy", [](const Tensor& t, bool force) {
             // Allowed under no_grad, as in PyTorch: nothing can be recorded through the array then.
             ENGINE_CHECK(force || !requires_grad(t) || !GradMode::is_enabled(), std::runtime_error,
                          "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.");
             std::vector<py::ssize_t> shape(t.shape().begin(), t.shape().end()), strides;
             for (int64_t s : t.strides()) strides.push_back(s * static_cast<py::ssize_t>(itemsize(t.dtype())));
             ENGINE_CHECK(t.dtype() != DType::BFloat16, engine::TypeError, "Got unsupported ScalarType BFloat16");
             py::dtype dt = t.dtype() == DType::Float16      ? py::dtype("float16")
                            : t.dtype() == DType::Complex64  ? py::dtype("complex64")
                            : t.dtype() == DType::Complex128 ? py::dtype("complex128")
                                                             : ENGINE_DISPATCH_ALL(t.dtype(), [&](auto tag) {
               using T = decltype(tag);
               if constexpr (is_reduced_float_v<T>) return py::dtype("float16");  // (BFloat16 refused above)
               else return py::dtype::of<T>();
             });
             // The array shares the tensor's memory and keeps the tensor alive.
             return py::array(dt, shape, strides, t.raw_data(), py::cast(t));
           }, py::arg("force") = false)
      .def_static("_make_subclass", &make_subclass, py::arg("cls"), py::arg("data"), py::arg("require_grad") = false)
      .def_static("_alias_subclass", &alias_subclass, py::arg("cls"), py::arg("data"))
      .def("detach", [](const Tensor& t) { return detach(t); })
      .def("detach_", [](const Tensor& t) {
        ENGINE_CHECK(!t.is_view(), std::runtime_error,
                     "Can't detach views in-place. Use detach() instead. If you are using DistributedDataParallel "
                     "(DDP) for training, and gradient_as_bucket_view is set as True, gradients are views of DDP "
                     "buckets, and hence detach_() cannot be called on these gradients. To fix this error, please "
                     "refer to the Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution.");
        if (auto* m = autograd_meta(t)) {
          m->grad_fn.reset();
          m->requires_grad = false;
        }
        return t;
      })
      .def("requires_grad_", [](const Tensor& t, bool v) {
             set_requires_grad(t, v);
             return t;
           }, py::arg("requires_grad") = true)
      .def("retain_grad", [](const Tensor& t) {
        ENGINE_CHECK(requires_grad(t), std::runtime_error, "can't retain_grad on Tensor that has requires_grad=False");
        if (is_leaf(t)) return;
        auto& m = ensure_autograd_meta(t);
        if (m.retains_grad) return;
        m.retains_grad = true;
        std::lock_guard<std::mutex> lock(hooks_mutex());
        m.grad_fn->mark_hooked();
        m.grad_fn->retained_grads().emplace_back(m.output_nr, t.impl());
      })
      .def("clone", [](const Tensor& t) { return ops::clone(t); })
      .def("contiguous", [](const Tensor& t) { return ops::contiguous(t); })
      .def("to", &to_method)
      .def("float", [](const Tensor& t) { return ops::to_dtype(t, DType::Float32); })
      .def("double", [](const Tensor& t) { return ops::to_dtype(t, DType::Float64); })
      .def("long", [](const Tensor& t) { return ops::to_dtype(t, DType::Int64); })
      .def("int", [](const Tensor& t) { return ops::to_dtype(t, DType::Int32); })
      .def("bool", [](const Tensor& t) { return ops::to_dtype(t, DType::Bool); })
      .def("half", [](const Tensor& t) { return ops::to_dtype(t, DType::Float16); })
      .def("bfloat16", [](const Tensor& t) { return ops::to_dtype(t, DType::BFloat16); })
      .def("byte", [](const Tensor& t) { return ops::to_dtype(t, DType::UInt8); })
      .def("char", [](const Tensor& t) { return ops::to_dtype(t, DType::Int8); })
      .def("short", [](const Tensor& t) { return ops::to_dtype(t, DType::Int16); })
      .def("cpu", [](const Tensor& t) { return t; })
      // ---- arithmetic ----
      .def("__add__", &dunder<add2>)
      .def("__radd__", &rdunder<radd>)
      .def("__sub__", &dunder<sub2>)
      .def("__rsub__", &rdunder<sub2>)
      .def("__mul__", &dunder<ops::mul>)
      .def("__rmul__", &rdunder<rmul>)
      .def("__truediv__", &dunder<ops::div>)
      .def("__rtruediv__", &rdunder<rdiv>)
      .def("__pow__", &dunder<ops::pow>)
      .def("__rpow__", &rdunder<ops::pow>)
      .def("__matmul__", &dunder<ops::matmul>)
      .def("__rmatmul__", &rdunder<ops::matmul>)
      .def("__iadd__", &idunder<add_2>)
      .def("__isub__", &idunder<sub_2>)
      .def("__imul__", &idunder<ops::mul_>)
      .def("__itruediv__", &idunder<ops::div_>)
      .def("__neg__", [](const Tensor& t) { return ops::neg(t); })
      .def("__pos__", [](const Tensor& t) { return t; })
      .def("__abs__", [](const Tensor& t) { return ops::abs(t); })
      .def("__eq__", &dunder<ops::eq>)
      .def("__ne__", &dunder<ops::ne>)
      .def("__lt__", &dunder<ops::lt>)
      .def("__le__", &dunder<ops::le>)
      .def("__gt__", &dunder<ops::gt>)
      .def("__ge__", &dunder<ops::ge>)
      .def("__hash__", [](py::handle self) { return py::hash(py::int_(reinterpret_cast<uintptr_t>(self.ptr()))); })
      .def("__len__", [](const Tensor& t) {
        ENGINE_CHECK(t.dim() > 0, engine::TypeError, "len() of a 0-d tensor");
        return t.shape()[0];
      })
      .def("__bool__", [](const Tensor& t) {
        ENGINE_CHECK(t.numel() > 0, std::runtime_error, "Boolean value of Tensor with no values is ambiguous");
        ENGINE_CHECK(t.numel() == 1, std::runtime_error, "Boolean value of Tensor with more than one value is ambiguous");
        return kernels::read_double(t, 0) != 0.0;
      })
      .def("__float__", [](const Tensor& t) {
        ENGINE_CHECK(t.numel() == 1, ValueError, "only one element tensors can be converted to Python scalars");
        return kernels::read_double(t, 0);
      })
      .def("__int__", [](const Tensor& t) {
        ENGINE_CHECK(t.numel() == 1, ValueError, "only one element tensors can be converted to Python scalars");
        return is_floating(t.dtype()) ? static_cast<int64_t>(kernels::read_double(t, 0)) : kernels::read_int(t, 0);
      })
      .def("__index__", [](const Tensor& t) {
        ENGINE_CHECK(t.numel() == 1 && !is_floating(t.dtype()), engine::TypeError,
                     "only integer tensors of a single element can be converted to an index");
        return kernels::read_int(t, 0);
      })
      // ---- methods that mirror engine.<op> ----
      .def("add", [](const Tensor& a, py::handle b, py::handle alpha) {
             double v;
             DType nd;
             if (is_unit_alpha(alpha.ptr()) && simple_number(b.ptr(), v, nd)) return ops::add_number(a, v, nd);
             Tensor o = operand_or_throw(b, "add");
             return ops::add(a, o, alpha_arg(alpha, a, o, "add"));
           }, py::arg("other"), py::kw_only(), py::arg("alpha") = 1)
      .def("sub", [](const Tensor& a, py::handle b, py::handle alpha) {
             double v;
             DType nd;
             if (is_unit_alpha(alpha.ptr()) && simple_number(b.ptr(), v, nd)) return ops::sub_number(a, v, nd);
             Tensor o = operand_or_throw(b, "sub");
             return ops::sub(a, o, alpha_arg(alpha, a, o, "sub"));
           }, py::arg("other"), py::kw_only(), py::arg("alpha") = 1)
      .def("mul", [](const Tensor& a, py::handle b) {
             double v;
             DType nd;
             return simple_number(b.ptr(), v, nd) ? ops::mul_number(a, v, nd) : ops::mul(a, operand_or_throw(b, "mul"));
           }, py::arg("other"))
      .def("div", [](const Tensor& a, py::handle b) {
             double v;
             DType nd;
             return simple_number(b.ptr(), v, nd) ? ops::div_number(a, v, nd) : ops::div(a, operand_or_throw(b, "div"));
           }, py::arg("other"))
      .def("pow", [](const Tensor& a, py::handle b) {
             double v;
             DType nd;
             if (simple_number(b.ptr(), v, nd)) return ops::pow_number(a, v, nd);
             return ops::pow(a, operand_or_throw(b, "pow", "exponent"));
           }, py::arg("exponent"))
      .def("matmul", [](const Tensor& a, const Tensor& b) { return ops::matmul(a, b); }, py::arg("other"))
      .def("mm", [](const Tensor& a, const Tensor& b) { return ops::mm(a, b); }, py::arg("mat2"))
      .def("neg", [](const Tensor& t) { return ops::neg(t); })
      .def("exp", [](const Tensor& t) { return ops::exp(t); })
      .def("log", [](const Tensor& t) { return ops::log(t); })
      .def("sqrt", [](const Tensor& t) { return ops::sqrt(t); })
      .def("sin", [](const Tensor& t) { return ops::sin(t); })
      .def("cos", [](const Tensor& t) { return ops::cos(t); })
      .def("tanh", [](const Tensor& t) { return ops::tanh(t); })
      .def("sigmoid", [](const Tensor& t) { return ops::sigmoid(t); })
      .def("relu", [](const Tensor& t) { return ops::relu(t); })
      .def("abs", [](const Tensor& t) { return ops::abs(t); })
      .def("sign", [](const Tensor& t) { return ops::sign(t); })
      .def("sgn", [](const Tensor& t) { return ops::sgn(t); })
      .def("eq", [](const Tensor& a, py::handle b) { return ops::eq(a, operand_or_throw(b, "eq")); })
      .def("ne", [](const Tensor& a, py::handle b) { return ops::ne(a, operand_or_throw(b, "ne")); })
      .def("lt", [](const Tensor& a, py::handle b) { return ops::lt(a, operand_or_throw(b, "lt")); })
      .def("le", [](const Tensor& a, py::handle b) { return ops::le(a, operand_or_throw(b, "le")); })
      .def("gt", [](const Tensor& a, py::handle b) { return ops::gt(a, operand_or_throw(b, "gt")); })
      .def("ge", [](const Tensor& a, py::handle b) { return ops::ge(a, operand_or_throw(b, "ge")); })
      .def("sum", [](const Tensor& t, py::handle dim, bool keepdim, py::handle dtype) {
             return ops::sum(t, dims_arg(dim, t.dim()), keepdim, opt_dtype(dtype));
           }, py::arg("dim") = py::none(), py::arg("keepdim") = false, py::kw_only(), py::arg("dtype") = py::none())
      .def("mean", [](const Tensor& t, py::handle dim, bool keepdim, py::handle dtype) {
             return ops::mean(t, dims_arg(dim, t.dim()), keepdim, opt_dtype(dtype));
           }, py::arg("dim") = py::none(), py::arg("keepdim") = false, py::kw_only(), py::arg("dtype") = py::none())
      .def("reshape", [](const Tensor& t, py::args shape) { return ops::reshape(t, shape_from_args(shape, "reshape", "shape")); })
      .def("view", [](const Tensor& t, py::args shape) { return ops::view(t, shape_from_args(shape, "view")); })
      .def("view_as", [](const Tensor& t, const Tensor& o) { return ops::view(t, o.shape()); }, py::arg("other"))
      .def("reshape_as", [](const Tensor& t, const Tensor& o) { return ops::reshape(t, o.shape()); }, py::arg("other"))
      .def("expand", [](const Tensor& t, py::args shape) { return ops::expand(t, shape_from_args(shape, "expand")); })
      .def("expand_as", [](const Tensor& t, const Tensor& o) { return ops::expand(t, o.shape()); }, py::arg("other"))
      .def("permute", [](const Tensor& t, py::args dims) { return ops::permute(t, shape_from_args(dims, "permute", "dims")); })
      .def("t", [](const Tensor& t) { return ops::t(t); })
      .def("select", [](const Tensor& t, int64_t dim, int64_t index) { return ops::select(t, dim, index); },
           py::arg("dim"), py::arg("index"))
      .def("transpose", [](const Tensor& t, int64_t d0, int64_t d1) { return ops::transpose(t, d0, d1); },
           py::arg("dim0"), py::arg("dim1"))
      .def("unsqueeze", [](const Tensor& t, int64_t d) { return ops::unsqueeze(t, d); }, py::arg("dim"))
      .def("squeeze", [](const Tensor& t, std::optional<int64_t> d) { return ops::squeeze(t, d); },
           py::arg("dim") = py::none())
      .def("squeeze", [](const Tensor& t, const std::vector<int64_t>& d) { return ops::squeeze_dims(t, d); },
           py::arg("dim"))
      // ---- in place ----
      .def("add_", [](Tensor t, py::handle o, py::handle alpha) {
             double v;
             DType nd;
             if (is_unit_alpha(alpha.ptr()) && simple_number(o.ptr(), v, nd)) return ops::add_number_(t, v, nd);
             Tensor other = operand_or_throw(o, "add_");
             return ops::add_(t, other, alpha_arg(alpha, t, other, "add_"));
           }, py::arg("other"), py::kw_only(), py::arg("alpha") = 1)
      .def("sub_", [](Tensor t, py::handle o, py::handle alpha) {
             double v;
             DType nd;
             if (is_unit_alpha(alpha.ptr()) && simple_number(o.ptr(), v, nd)) return ops::sub_number_(t, v, nd);
             Tensor other = operand_or_throw(o, "sub_");
             return ops::sub_(t, other, alpha_arg(alpha, t, other, "sub_"));
           }, py::arg("other"), py::kw_only(), py::arg("alpha") = 1)
      .def("mul_", [](Tensor t, py::handle o) {
             double v;
             DType nd;
             if (simple_number(o.ptr(), v, nd)) return ops::mul_number_(t, v, nd);
             return ops::mul_(t, operand_or_throw(o, "mul_"));
           }, py::arg("other"))
      .def("div_", [](Tensor t, py::handle o) {
             double v;
             DType nd;
             if (simple_number(o.ptr(), v, nd)) return ops::div_number_(t, v, nd);
             return ops::div_(t, operand_or_throw(o, "div_"));
           }, py::arg("other"))
      .def("fill_", [](Tensor t, py::handle v) {
             // A complex value (Python or a 0-d complex tensor): written through full(), which
             // checks that a real tensor can hold it. A real tensor value records FillBackward3.
             const bool tensor_value = is_tensor(v);
             const bool complex_value =
                 PyComplex_Check(v.ptr()) || (tensor_value && is_complex(v.cast<Tensor>().dtype()));
             if (complex_value) return ops::copy_(t, ops::full(t.shape(), to_operand(v), t.dtype()));
             if (tensor_value) return ops::fill_(t, v.cast<Tensor>());
             const double d = PyFloat_AsDouble(v.ptr());
             if (d == -1.0 && PyErr_Occurred()) {
               PyErr_Clear();
               ENGINE_CHECK(false, engine::TypeError, "fill_(): argument 'value' (position 1) must be float, not ",
                            type_name(v));
             }
             return ops::fill_(t, d);
           }, py::arg("value"))
      .def("zero_", [](Tensor t) { return ops::zero_(t); })
      .def("copy_", [](Tensor t, const Tensor& src) { return ops::copy_(t, src); })
      .def("set_", [](py::object self, const py::args& args, const py::kwargs& kwargs) {
        return tensor_set(std::move(self), args, kwargs);
      });
}

namespace {

// `t.sum()` with no argument on an exact Tensor: the whole-tensor sum without the dispatcher's
// argument conversion (dim None, keepdim False, dtype None). Any other call, and a tensor a
// transform marked, takes the binding above.
PyObject* sum_entry(PyObject* self, PyObject* const* args, Py_ssize_t nargsf, PyObject* kwnames) {
  return serve_argument_free_call(self, args, nargsf, kwnames, [](const Tensor& t) {
    static const std::vector<int64_t> all_dims;
    return py::cast(ops::sum(t, all_dims, false, std::nullopt)).release().ptr();
  });
}

}  // namespace

void install_sum_entry(py::module_& m) { set_method_entry(m.attr("Tensor").attr("__dict__")["sum"], &sum_entry); }

}  // namespace engine::python
