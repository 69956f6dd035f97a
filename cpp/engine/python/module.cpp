// The native module: each API area registers itself; errors map to the matching Python exceptions.
#include "engine/core/error.h"
#include "engine/python/bindings.h"

namespace engine::python {

PYBIND11_MODULE(_C, m) {
  m.doc() = "engine's native core";
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
    }
  });
  init_dtype(m);
  init_tensor(m);
  init_ops(m);
  init_autograd(m);
  init_function(m);
  init_random(m);
  init_index(m);
  init_math(m);
}

}  // namespace engine::python
