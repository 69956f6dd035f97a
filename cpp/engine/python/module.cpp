// The native module: each API area registers itself; errors map to the matching Python exceptions.
#include "engine/core/allocator.h"
#include "engine/core/error.h"
#include "engine/kernels/parallel.h"
#include "engine/kernels/simd/table.h"
#include "engine/python/bindings.h"
#include "engine/python/py_fast_slots.h"
#include "engine/python/py_method_entry.h"

namespace engine::python {

namespace {

// Kernels over large tensors run without the interpreter lock; they call these through a hook so
// that the kernel layer never sees Python.
void* release_interpreter_lock() { return PyGILState_Check() ? static_cast<void*>(PyEval_SaveThread()) : nullptr; }
void reacquire_interpreter_lock(void* token) { PyEval_RestoreThread(static_cast<PyThreadState*>(token)); }

void init_runtime(py::module_& m) {
  kernels::set_interpreter_lock_hooks(&release_interpreter_lock, &reacquire_interpreter_lock);
  m.def("get_num_threads", &kernels::num_threads, "Threads used for large elementwise and reduction kernels.");
  m.def("set_num_threads", [](int n) {
    ENGINE_CHECK(n >= 1, ValueError, "set_num_threads(): expected a positive number of threads, got ", n);
    kernels::set_num_threads(n);
  }, py::arg("n"));
  m.def("_simd_level", [] { return kernels::simd::active().name; },
        "The instruction set of the vectorised loops in use (ENGINE_SIMD=scalar forces 'baseline').");
  m.def("_cached_bytes", &cached_bytes, "Bytes of large buffers held idle by the caching allocator.");
  m.def("_release_cached_buffers", &release_cached_buffers, "Gives the allocator's idle buffers back to the system.");
}

}  // namespace

void init_as_strided(py::module_& m);  // py_as_strided.cpp
void init_view_dtype(py::module_& m);   // py_view_dtype.cpp
void init_meta(py::module_& m);         // py_meta.cpp
void init_complex(py::module_& m);      // py_complex.cpp

PYBIND11_MODULE(_C, m) {
  m.doc() = "engine's native core";
  // Both a RuntimeError (what PyTorch's allocator raises) and a MemoryError (what Python code expects).
  static PyObject* out_of_memory = PyErr_NewExceptionWithDoc(
      "engine.OutOfMemoryError", "An allocation the system refused (both a RuntimeError and a MemoryError).",
      py::make_tuple(py::handle(PyExc_RuntimeError), py::handle(PyExc_MemoryError)).ptr(), nullptr);
  if (!out_of_memory) throw py::error_already_set();
  m.attr("OutOfMemoryError") = py::handle(out_of_memory);
  // Integer division by zero: PyTorch raises RuntimeError("ZeroDivisionError"); the error is also
  // a ZeroDivisionError, so code catching Python's own type for it still does.
  static PyObject* zero_division = PyErr_NewExceptionWithDoc(
      "engine.IntegerDivisionByZeroError", "Integer division by zero (both a RuntimeError and a ZeroDivisionError).",
      py::make_tuple(py::handle(PyExc_RuntimeError), py::handle(PyExc_ZeroDivisionError)).ptr(), nullptr);
  if (!zero_division) throw py::error_already_set();
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const engine::TypeError& e) {
      PyErr_SetString(PyExc_TypeError, e.what());
    } catch (const engine::ValueError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const engine::IndexError& e) {
      PyErr_SetString(PyExc_IndexError, e.what());
    } catch (const engine::NotImplementedError& e) {
      PyErr_SetString(PyExc_NotImplementedError, e.what());
    } catch (const engine::ZeroDivisionError& e) {
      PyErr_SetString(zero_division, e.what());
    } catch (const engine::OutOfMemoryError& e) {
      PyErr_SetString(out_of_memory, e.what());
    } catch (const std::bad_alloc&) {
      PyErr_SetString(out_of_memory, "not enough memory for the operation");
    } catch (const std::length_error&) {
      // A container asked for more elements than it can hold: a sequence whose len() is absurd.
      PyErr_SetString(PyExc_ValueError, "a sequence argument is too long to be stored");
    }
  });
  init_dtype(m);
  init_tensor(m);
  init_buffer(m);
  init_dlpack(m);
  init_ops(m);
  init_autograd(m);
  init_as_strided(m);
  init_view_dtype(m);
  init_meta(m);
  init_complex(m);
  init_function(m);
  init_random(m);
  init_index(m);
  init_math(m);
  init_nn(m);
  init_activation(m);
  init_linalg(m);
  init_special(m);
  init_optim(m);
  init_runtime(m);
  init_transform_dispatch(m);
  install_fast_slots(m);
  install_dispatch_guard(m);
  install_sum_entry(m);
  install_backward_entry(m);
}

}  // namespace engine::python
