// The native pieces of the meta device and of the storage API: meta tensors (a Storage with a
// size and no memory, see Storage::meta) and the facts about a tensor's storage that
// engine.UntypedStorage shows. Their names start with `_meta_` or `_storage_`, which keeps them
// out of the meta routing (py_transform_dispatch.cpp): they are how the handler itself looks at
// meta tensors. Everything else about the meta device is engine._meta_dispatch, in Python.
#include <cstdint>

#include "engine/core/checked.h"
#include "engine/core/error.h"
#include "engine/python/bindings.h"

namespace engine::python {

namespace {

// Bytes a view (size, stride, offset) of `itemsize`-byte elements reaches from the storage's start.
int64_t extent_bytes(const Dims& size, const Dims& stride, int64_t offset, int64_t itemsize) {
  int64_t last = offset;
  for (size_t d = 0; d < size.size(); ++d) {
    if (size[d] == 0) return 0;
    ENGINE_CHECK(add_fits(last, checked_mul(size[d] - 1, stride[d], "meta tensor size"), &last), std::runtime_error,
                 "meta tensor size: integer addition overflow");
  }
  return checked_mul(last + 1, itemsize, "meta tensor size");
}

Tensor meta_empty_strided(py::handle size_arg, py::handle stride_arg, py::handle dtype_arg, int64_t offset) {
  const Dims size = dims_from_sequence(size_arg, "empty_strided", "size");
  const Dims stride = stride_arg.is_none() ? contiguous_strides(size) : dims_from_sequence(stride_arg, "empty_strided", "stride");
  ENGINE_CHECK(size.size() == stride.size(), std::runtime_error,
               "mismatch in length of strides and shape");
  for (size_t d = 0; d < size.size(); ++d) {
    ENGINE_CHECK(size[d] >= 0, std::runtime_error, "Trying to create tensor with negative dimension ", size[d], ": ",
                 dims_str(size));
    ENGINE_CHECK(stride[d] >= 0, std::runtime_error, "as_strided: Negative strides are not supported at the moment, got strides: ",
                 dims_str(stride));
  }
  ENGINE_CHECK(offset >= 0, std::runtime_error, "Tensor: invalid storage offset ", offset);
  const DType dtype = dtype_from_py(dtype_arg);
  const int64_t nbytes = extent_bytes(size, stride, offset, static_cast<int64_t>(itemsize(dtype)));
  return Tensor(std::make_shared<TensorImpl>(Storage::meta(static_cast<size_t>(nbytes)), size, stride, offset, dtype));
}

// A tensor over the whole of `t`'s storage as bytes (a 1-D uint8 view from the storage's start).
Tensor storage_bytes(const Tensor& t) {
  const auto& storage = t.get()->storage;
  const auto n = static_cast<int64_t>(storage->nbytes());
  return Tensor(std::make_shared<TensorImpl>(storage, Dims{n}, Dims{1}, 0, DType::UInt8));
}

}  // namespace

void init_meta(py::module_& m) {
  m.def("_meta_empty_strided",
        [](py::handle size, py::handle stride, py::handle dtype, int64_t offset) {
          py::module_::import("engine._C").attr("_enable_meta_routing")();
          return meta_empty_strided(size, stride, dtype, offset);
        },
        py::arg("size"), py::arg("stride"), py::arg("dtype"), py::arg("storage_offset") = 0,
        "A meta tensor (no memory) of the given size, strides (None: contiguous), dtype and offset.");
  m.def("_meta_alias", [](const Tensor& base, py::handle size, py::handle stride, int64_t offset) {
    const Dims sizes = dims_from_sequence(size, "as_strided", "size");
    const Dims strides = dims_from_sequence(stride, "as_strided", "stride");
    ENGINE_CHECK(sizes.size() == strides.size(), std::runtime_error, "mismatch in length of strides and shape");
    return base.as_strided(sizes, strides, offset);
  }, py::arg("base"), py::arg("size"), py::arg("stride"), py::arg("storage_offset"),
     "A view of `base`'s storage with the given layout (no autograd history).");
  m.def("_meta_is", [](const Tensor& t) { return t.is_meta(); }, py::arg("tensor"),
        "Whether `tensor` lives on the meta device.");
  m.def("_storage_id", [](const Tensor& t) { return reinterpret_cast<uintptr_t>(t.get()->storage.get()); },
        py::arg("tensor"), "An identity of `tensor`'s storage, equal for all tensors sharing it.");
  m.def("_storage_nbytes", [](const Tensor& t) { return t.get()->storage->nbytes(); }, py::arg("tensor"),
        "The size in bytes of `tensor`'s storage.");
  m.def("_storage_data_ptr", [](const Tensor& t) {
    const auto& storage = t.get()->storage;
    return storage->is_meta() ? uintptr_t{0} : reinterpret_cast<uintptr_t>(storage->data());
  }, py::arg("tensor"), "The address of `tensor`'s storage (0 on the meta device).");
  m.def("_storage_bytes", &storage_bytes, py::arg("tensor"),
        "A 1-D uint8 tensor over the whole of `tensor`'s storage, sharing it.");
}

}  // namespace engine::python
