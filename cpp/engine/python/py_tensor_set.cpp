// Tensor.set_, PyTorch's overloads over tensor sources (engine has no separate storage objects):
//   set_()                                   empty memory, shape (0,)
//   set_(source)                             source's memory and geometry
//   set_(source, storage_offset, size, stride=None)
// The tensor keeps its identity, autograd state and version counter (bumped once); a leaf gets a
// new gradient accumulator, so graphs recorded before no longer count as using it.
#include "engine/python/py_tensor_set.h"

#include <stdexcept>

#include "engine/autograd/grad_mode.h"
#include "engine/autograd/variable.h"
#include "engine/core/checked.h"
#include "engine/core/error.h"

namespace engine::python {

namespace {

// The node of a set_ that involves tensors requiring grad: PyTorch has no derivative for it.
class SetNotImplemented : public Node {
 public:
  explicit SetNotImplemented(edge_list next) { next_edges_ = std::move(next); }
  variable_list apply(variable_list&&) override {
    throw std::runtime_error("derivative for set_ is not implemented");
  }
  std::string name() const override { return "torch::autograd::NotImplemented"; }
};

[[noreturn]] void raise_no_overload(const py::args& args, const py::kwargs& kwargs) {
  std::string got;
  for (py::handle a : args) got += std::string(got.empty() ? "" : ", ") + (is_tensor(a) ? "Tensor" : type_name(a));
  for (auto kv : kwargs) {
    got += std::string(got.empty() ? "" : ", ") + py::str(kv.first).cast<std::string>() + "=" +
           (is_tensor(kv.second) ? "Tensor" : type_name(kv.second));
  }
  throw engine::TypeError(
      "set_() received an invalid combination of arguments - got (" + got +
      "), but expected one of:\n"
      " * ()\n"
      " * (Tensor source)\n"
      " * (Tensor source, int storage_offset, tuple of ints size, tuple of ints stride = None)\n");
}

// The bytes a geometry reaches in its memory (0 for no elements), as PyTorch's setStorage checks;
// PyTorch's overflow message (which negative strides also get) when it cannot be computed.
int64_t bytes_needed(const Dims& size, const Dims& stride, int64_t offset, int64_t item) {
  int64_t last = offset;
  bool fits = true;
  for (size_t i = 0; i < size.size(); ++i) {
    if (size[i] == 0) return 0;
    int64_t extent = 0;
    fits = fits && stride[i] >= 0 && mul_fits(size[i] - 1, stride[i], &extent) && add_fits(last, extent, &last);
  }
  int64_t bytes = 0;
  fits = fits && add_fits(last, 1, &last) && mul_fits(last, item, &bytes);
  ENGINE_CHECK(fits, std::runtime_error, "Storage size calculation overflowed with sizes=", dims_str(size),
               " and strides=", dims_str(stride));
  return bytes;
}

// Rebinds self to `storage` with the given geometry, as an in-place op: its version moves on.
void rebind(const Tensor& self, std::shared_ptr<Storage> storage, Dims size, Dims stride, int64_t offset) {
  TensorImpl* impl = self.get();
  // The counter stays self's (and its views'), not the new memory's, as in PyTorch.
  if (!impl->own_version) impl->own_version = impl->storage->shared_counter();
  impl->storage = std::move(storage);
  impl->shape = std::move(size);
  impl->strides = std::move(stride);
  impl->offset = offset;
  impl->refresh_layout();
  self.bump_version();
}

}  // namespace

py::object tensor_set(py::object self_obj, const py::args& args, const py::kwargs& kwargs) {
  if (!is_tensor(self_obj)) {  // Tensor.set_(not_a_tensor, ...): Python's descriptor message
    throw py::type_error(std::string("descriptor 'set_' for 'engine._C.Tensor' objects doesn't apply to a '") +
                         Py_TYPE(self_obj.ptr())->tp_name + "' object");
  }
  const Tensor self = self_obj.cast<Tensor>();
  // The overload, read from positional and keyword arguments alike.
  static const char* const names[] = {"source", "storage_offset", "size", "stride"};
  py::object given[4];
  if (args.size() > 4) raise_no_overload(args, kwargs);
  for (size_t i = 0; i < args.size(); ++i) given[i] = py::reinterpret_borrow<py::object>(args[i]);
  for (auto kv : kwargs) {
    const std::string key = py::str(kv.first).cast<std::string>();
    size_t i = 0;
    while (i < 4 && key != names[i]) ++i;
    if (i == 4 || given[i]) raise_no_overload(args, kwargs);
    given[i] = py::reinterpret_borrow<py::object>(kv.second);
  }
  const bool has_source = bool(given[0]);
  const bool has_geometry = given[1] || given[2] || given[3];
  if ((has_geometry && !(given[1] && given[2])) || (has_geometry && !has_source)) raise_no_overload(args, kwargs);
  if (has_source && !is_tensor(given[0])) raise_no_overload(args, kwargs);
  if (given[1] && !PyIndex_Check(given[1].ptr())) raise_no_overload(args, kwargs);
  if (given[2] && !(PyTuple_Check(given[2].ptr()) || PyList_Check(given[2].ptr()))) raise_no_overload(args, kwargs);
  if (given[3] && !given[3].is_none() && !(PyTuple_Check(given[3].ptr()) || PyList_Check(given[3].ptr()))) {
    raise_no_overload(args, kwargs);
  }

  std::shared_ptr<Storage> storage;
  Dims size{0}, stride{1};
  int64_t offset = 0;
  Tensor source;
  if (!has_source) {
    storage = Tensor::empty({0}, self.dtype()).get()->storage;
  } else {
    source = given[0].cast<Tensor>();
    ENGINE_CHECK(source.dtype() == self.dtype(), std::runtime_error, "Could not set tensor of type ",
                 cpp_type_name(source.dtype()), " to a tensor of type ", cpp_type_name(self.dtype()));
    storage = source.get()->storage;
    if (!has_geometry) {
      size = source.shape();
      stride = source.strides();
      offset = source.offset();
    } else {
      offset = int_arg(given[1], "set_", "storage_offset");
      size = dims_from_sequence(given[2], "set_", "size");
      const bool strided = given[3] && !given[3].is_none();
      if (strided) stride = dims_from_sequence(given[3], "set_", "stride");
      ENGINE_CHECK(!strided || stride.size() == size.size(), std::runtime_error, "unequal size length (",
                   size.size(), ") and stride length (", stride.size(), ")");
      ENGINE_CHECK(offset >= 0, std::runtime_error, "Tensor: invalid storage offset ", offset);
      for (int64_t s : size) ENGINE_CHECK(s >= 0, std::runtime_error, "numel: integer multiplication overflow");
      const Dims shown = strided ? stride : Dims{};
      if (!strided) stride = contiguous_strides(size);
      const int64_t item = static_cast<int64_t>(itemsize(self.dtype()));
      const int64_t need = bytes_needed(size, stride, offset, item);
      ENGINE_CHECK(need <= static_cast<int64_t>(storage->nbytes()), std::runtime_error, "setStorage: sizes ",
                   dims_str(size), ", strides ", dims_str(shown), ", storage offset ", offset, ", and itemsize ",
                   item, " requiring a storage size of ", need, " are out of bounds for storage of size ",
                   storage->nbytes());
    }
  }

  // Autograd: the rules of an in-place op, with no derivative to record.
  const bool grad_on = GradMode::is_enabled();
  ENGINE_CHECK(!grad_on || !(is_leaf(self) && requires_grad(self)), std::runtime_error,
               "a leaf Variable that requires grad is being used in an in-place operation.");
  const bool records = compute_requires_grad({&self, &source});
  edge_list next = records ? collect_next_edges({&self, &source}) : edge_list{};
  rebind(self, std::move(storage), std::move(size), std::move(stride), offset);
  if (auto* m = autograd_meta(self); m && is_leaf(self)) m->grad_accumulator.reset();
  if (records) {
    ensure_autograd_meta(self).grad_fn.reset();
    set_history(self, std::make_shared<SetNotImplemented>(std::move(next)));
  }
  return self_obj;
}

}  // namespace engine::python
