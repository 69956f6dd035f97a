#pragma once
// Shared declarations of the binding files: one init function per API area, and the conversions
// between Python values and tensors that several areas need.
#include <pybind11/pybind11.h>

#include "engine/autograd/node.h"
#include "engine/core/tensor.h"
#include "engine/python/tensor_caster.h"

namespace engine::python {

namespace py = pybind11;

void init_dtype(py::module_& m);
void init_tensor(py::module_& m);
void init_ops(py::module_& m);
void init_autograd(py::module_& m);
void init_function(py::module_& m);
void init_random(py::module_& m);
void init_index(py::module_& m);
void init_math(py::module_& m);
void init_nn(py::module_& m);
void init_activation(py::module_& m);
void init_linalg(py::module_& m);
void init_special(py::module_& m);
void init_optim(py::module_& m);
void init_transform_dispatch(py::module_& m);
// Zero-copy exchange: DLPack capsules (py_dlpack.cpp); the buffer protocol and
// __array_interface__ on Tensor (py_buffer.cpp).
void init_dlpack(py::module_& m);
void init_buffer(py::module_& m);
// Guards every function of `m` and its classes (py_dispatch_guard.cpp): PyTorch-style messages for
// arguments that match no binding, and no method on a never-initialised object. Called once, last.
void install_dispatch_guard(py::module_& m);

// A value's type as error messages name it: "type" for a class (whose own type would read as
// pybind11's metaclass), the type's name otherwise.
inline const char* type_name(py::handle obj) {
  return PyType_Check(obj.ptr()) ? "type" : Py_TYPE(obj.ptr())->tp_name;
}
// Raises PyTorch's TypeError for a binary function whose overloads are (Tensor input, Tensor other)
// and (Tensor input, Number other) when `input` is not a tensor (eq, gt, fmod, copysign, ...).
[[noreturn]] void raise_tensor_or_number_other(const char* fname, py::handle input, py::handle other);
// Argument conversions that name the function and the argument when the value does not fit,
// and pass on the Python exception a failing __index__ / __float__ raised.
bool bool_arg(py::handle v, const char* fname, const char* arg);
int64_t int_arg(py::handle v, const char* fname, const char* arg);
double number_value(py::handle v, const char* fname, const char* arg);

// A Python value as an operand: a Tensor as is, a Python number as a wrapped 0-d tensor. Returns
// an undefined Tensor if `obj` is neither (the caller answers NotImplemented or raises).
Tensor to_operand(py::handle obj);
// Builds a tensor from nested sequences / numbers / NumPy arrays (engine.tensor).
Tensor tensor_from_data(py::handle data, std::optional<DType> dtype);
DType dtype_from_py(py::handle obj);
py::object dtype_to_py(DType d);
bool is_tensor(py::handle obj);
void set_tensor_type(py::handle type);
// The Python face of a node: the ctx object for custom Functions, a Node wrapper otherwise.
py::object node_to_py(const std::shared_ptr<Node>& node);
// Shape argument as PyTorch accepts it: f(2, 3), f((2, 3)), f([2, 3]), f(torch.Size(...)); errors
// name the function and the argument `arg`.
Dims shape_from_args(const py::args& args, const char* fname, const char* arg = "size");
// A factory's shape: positional ints, one sequence, or the size= keyword (taken out of kw, so the
// remaining keywords parse as factory options), as PyTorch's zeros/ones/empty/rand/randn take it.
Dims factory_shape(const py::args& args, py::kwargs& kw, const char* fname);
// A tuple or list of ints (anything with __index__ but floats) as Dims.
Dims dims_from_sequence(py::handle seq, const char* fname, const char* arg = "size");
// obj.__index__() as int64, with the Python error it raised (or "Overflow when unpacking long").
int64_t py_index(py::handle obj);
// The engine dtype of a NumPy array's elements; TypeError for unsupported types, ValueError for
// non-native byte order.
DType numpy_dtype(py::handle array);
// Whether a NumPy array's data pointer and strides are multiples of its element size.
bool numpy_aligned(py::handle array);
// The `alpha` of add/sub as a double, after checking it suits the result type of a and b.
double alpha_arg(py::handle alpha, const Tensor& a, const Tensor& b, const char* fname);
// `out=` of the functions: refuses it where autograd would record (PyTorch's message), then writes
// `result` into out (resized if its shape differs) and returns out; returns result when out is None.
void check_out_args(py::handle out, std::initializer_list<const Tensor*> inputs, const char* fname);
py::object write_out(py::handle out, const Tensor& result);
// out= an op already wrote in place (ops::mul_out, ...): out's version moves, out is returned.
py::object written_out(py::handle out);
// write_out for PyTorch's ops whose out= must have the result's dtype (abs, neg, sign, floor, ceil,
// trunc, round, frac): "Found dtype Double but expected Float" otherwise.
py::object write_out_same_dtype(py::handle out, const Tensor& result);
// out= of PyTorch's structured kernels (mm, bmm, mv): out must be a tensor of dtype `expected`
// ("Expected out tensor to have dtype float, but got double instead"); None passes.
void check_out_of_dtype(py::handle out, DType expected, const char* fname);

}  // namespace engine::python
