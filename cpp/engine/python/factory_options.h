#pragma once
// The keyword arguments shared by factory functions (dtype=, requires_grad=, device=, generator=).
#include "engine/autograd/variable.h"
#include "engine/core/error.h"
#include "engine/kernels/random.h"
#include "engine/python/bindings.h"

namespace engine::python {

// A device argument (a string or an engine.device): engine._device.check_cpu accepts the CPU and
// raises PyTorch's errors for anything else. True when `v` was a device at all.
inline bool check_device(py::handle v) {
  static py::handle device_type = py::object(py::module_::import("engine._device").attr("device")).release();
  if (!py::isinstance<py::str>(v) && !py::isinstance(v, device_type)) return false;
  py::module_::import("engine._device").attr("check_cpu")(v);
  return true;
}

struct FactoryOptions {
  std::optional<DType> dtype;
  bool requires_grad = false;
  py::object generator = py::none();
};

inline FactoryOptions parse_factory_kwargs(const py::kwargs& kwargs, const char* fname) {
  FactoryOptions o;
  for (auto kv : kwargs) {
    const std::string key = kv.first.cast<std::string>();
    py::handle v = kv.second;
    if (key == "dtype") {
      if (!v.is_none()) o.dtype = dtype_from_py(v);
    } else if (key == "requires_grad") {
      o.requires_grad = v.is_none() ? false : bool_arg(v, fname, "requires_grad");
    } else if (key == "device") {
      ENGINE_CHECK(v.is_none() || check_device(v), engine::TypeError, fname,
                   "(): argument 'device' must be torch.device, not ", type_name(v));
    } else if (key == "generator") {
      ENGINE_CHECK(v.is_none() || py::isinstance<Generator>(v), engine::TypeError, fname,
                   "(): argument 'generator' must be torch.Generator, not ", type_name(v));
      o.generator = py::reinterpret_borrow<py::object>(v);
    } else if (key == "layout" || key == "pin_memory" || key == "memory_format") {
      // Accepted for compatibility: every tensor is strided, on the CPU, in pageable memory.
    } else {
      throw engine::TypeError(str_cat(fname, "() got an unexpected keyword argument '", key, "'"));
    }
  }
  return o;
}

// A factory's result with requires_grad= applied (PyTorch's error for non-floating dtypes).
inline Tensor finish(Tensor t, const FactoryOptions& o) {
  if (o.requires_grad) {
    ENGINE_CHECK(is_floating(t.dtype()) || is_complex(t.dtype()), std::runtime_error,
                 "Only Tensors of floating point and complex dtype can require gradients");
    set_requires_grad(t, true);
  }
  return t;
}

}  // namespace engine::python
