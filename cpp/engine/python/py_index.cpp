// Indexing, strided views and joining: engine.<op>(...) and the matching Tensor methods. Python
// (engine/_indexing.py) builds __getitem__ / __setitem__ on these.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "engine/core/error.h"
#include "engine/ops/ops.h"
#include "engine/python/bindings.h"

namespace engine::python {

namespace {

// engine.name(input, ...) and Tensor.name(...), one body.
template <typename F, typename... Extra>
void def_both(py::module_& m, py::object cls, const char* name, F f, const Extra&... extra) {
  m.def(name, f, py::arg("input"), extra...);
  cls.attr(name) = py::cpp_function(f, py::name(name), py::is_method(cls), extra...);
}

TensorList tensor_list(py::handle seq, const char* fname) {
  ENGINE_CHECK(py::isinstance<py::sequence>(seq) && !is_tensor(seq), engine::TypeError, fname,
               "(): argument 'tensors' (position 1) must be tuple of Tensors, not ", type_name(seq));
  TensorList out;
  size_t i = 0;
  for (auto item : seq) {
    ENGINE_CHECK(is_tensor(item), engine::TypeError, "expected Tensor as element ", i, " in argument 0, but got ",
                 type_name(item));
    out.push_back(item.cast<Tensor>());
    ++i;
  }
  return out;
}

// scatter's src: a tensor, or a number written at every index position (PyTorch's `value` form).
Tensor src_or_value(py::handle src, const Tensor& self, const Tensor& index, const char* fname) {
  if (is_tensor(src)) return src.cast<Tensor>();
  Tensor v = to_operand(src);
  ENGINE_CHECK(v.defined(), engine::TypeError, fname, "(): argument 'src' must be Tensor or Number, not ",
               type_name(src));
  return ops::expand(ops::to_dtype(v, self.dtype()), index.shape());
}

}  // namespace

void init_index(py::module_& m) {
  py::object cls = m.attr("Tensor");
  def_both(m, cls, "narrow", [](const Tensor& t, int64_t dim, int64_t start, int64_t length) {
    return ops::narrow(t, dim, start, length);
  }, py::arg("dim"), py::arg("start"), py::arg("length"));
  def_both(m, cls, "diagonal", [](const Tensor& t, int64_t offset, int64_t d1, int64_t d2) {
    return ops::diagonal(t, offset, d1, d2);
  }, py::arg("offset") = 0, py::arg("dim1") = 0, py::arg("dim2") = 1);
  def_both(m, cls, "index_select", [](const Tensor& t, int64_t dim, const Tensor& index) {
    return ops::index_select(t, dim, index);
  }, py::arg("dim"), py::arg("index"));
  def_both(m, cls, "index_add", [](const Tensor& t, int64_t dim, const Tensor& index, const Tensor& src, double alpha) {
    return ops::index_add(t, dim, index, src, alpha);
  }, py::arg("dim"), py::arg("index"), py::arg("source"), py::kw_only(), py::arg("alpha") = 1.0);
  def_both(m, cls, "index_copy", [](const Tensor& t, int64_t dim, const Tensor& index, const Tensor& src) {
    return ops::index_copy(t, dim, index, src);
  }, py::arg("dim"), py::arg("index"), py::arg("source"));
  def_both(m, cls, "gather", [](const Tensor& t, int64_t dim, const Tensor& index) {
    return ops::gather(t, dim, index);
  }, py::arg("dim"), py::arg("index"));
  // scatter(dim, index, src) or scatter(dim, index, value): PyTorch's two overloads, either by name. Its
  // deprecated reduce= ('add' / 'multiply') is composed in Python (engine/_scatter_reduce_kwarg.py).
  def_both(m, cls, "scatter", [](const Tensor& t, int64_t dim, const Tensor& index, py::handle src, py::handle value,
                                 py::handle reduce) -> py::object {
    if (!reduce.is_none()) {
      return py::module_::import("engine._scatter_reduce_kwarg")
          .attr("reduced")(py::cast(t), dim, py::cast(index), src, value, reduce);
    }
    ENGINE_CHECK(src.is_none() != value.is_none(), engine::TypeError,
                 "scatter() received an invalid combination of arguments - expected (int dim, Tensor index, Tensor src) "
                 "or (int dim, Tensor index, Number value)");
    if (src.is_none() || !is_tensor(src)) {
      return py::cast(ops::scatter_value(t, dim, index, src_or_value(src.is_none() ? value : src, t, index, "scatter")));
    }
    return py::cast(ops::scatter(t, dim, index, src.cast<Tensor>(), false));
  }, py::arg("dim"), py::arg("index"), py::arg("src") = py::none(), py::kw_only(), py::arg("value") = py::none(),
           py::arg("reduce") = py::none());
  def_both(m, cls, "scatter_add", [](const Tensor& t, int64_t dim, const Tensor& index, const Tensor& src) {
    return ops::scatter(t, dim, index, src, true);
  }, py::arg("dim"), py::arg("index"), py::arg("src"));
  m.def("_slice", [](const Tensor& t, int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end,
                     int64_t step) { return ops::slice(t, dim, start, end, step); });
  m.def("_normal_cdf", [](const Tensor& t) { return ops::normal_cdf(t); });
  m.def("_record_index", [](const Tensor& out, const Tensor& self, const Tensor& positions,
                            const std::vector<int64_t>& gather_order, const std::vector<int64_t>& flat_shape,
                            const std::vector<int64_t>& out_perm, const std::vector<std::optional<Tensor>>& indices) {
    auto dims = [](const std::vector<int64_t>& v) { return Dims(v.begin(), v.end()); };
    ops::record_index(out, self, positions, dims(gather_order), dims(flat_shape), dims(out_perm), indices);
  });
  m.def("from_numpy", [](py::array arr) {
    const DType dt = numpy_dtype(arr);
    const auto isz = arr.itemsize();
    Dims shape, strides;
    for (py::ssize_t d = 0; d < arr.ndim(); ++d) {
      ENGINE_CHECK(arr.strides(d) >= 0, ValueError,
                   "At least one stride in the given numpy array is negative, and tensors with negative strides are "
                   "not currently supported. (You can probably work around this by making a copy of your array  with "
                   "array.copy().) ");
      ENGINE_CHECK(arr.strides(d) % isz == 0, ValueError,
                   "given numpy array strides not a multiple of the element byte size. Copy the numpy array to "
                   "reallocate the memory.");
      shape.push_back(arr.shape(d));
      strides.push_back(arr.strides(d) / isz);
    }
    const int64_t extent = storage_extent(shape, strides, 0);
    ENGINE_CHECK(numpy_aligned(arr) || arr.size() == 0, ValueError,
                 "given numpy array is not aligned to its element size; the tensor would share its memory, "
                 "so make an aligned copy first (array.copy())");
    PyObject* owner = arr.ptr();
    Py_INCREF(owner);
    auto storage = std::make_shared<Storage>(arr.mutable_data(), static_cast<size_t>(extent) * isz, [owner] {
      py::gil_scoped_acquire gil;
      Py_DECREF(owner);
    });
    return Tensor(std::make_shared<TensorImpl>(std::move(storage), shape, strides, 0, dt));
  });
  m.def("cat", [](py::handle ts, int64_t dim) { return ops::cat(tensor_list(ts, "cat"), dim); },
        py::arg("tensors"), py::arg("dim") = 0);
  m.def("stack", [](py::handle ts, int64_t dim) { return ops::stack(tensor_list(ts, "stack"), dim); },
        py::arg("tensors"), py::arg("dim") = 0);
}

}  // namespace engine::python
