// Random tensors with PyTorch's streams: manual_seed, rand, randn, randint, normal_, uniform_.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "engine/autograd/grad_mode.h"
#include "engine/autograd/variable.h"
#include "engine/core/error.h"
#include "engine/kernels/complex_copy.h"
#include "engine/kernels/elementwise.h"
#include "engine/kernels/random.h"
#include "engine/ops/ops.h"
#include "engine/python/bindings.h"
#include "engine/python/factory_options.h"

namespace engine::python {

namespace {

Generator& generator_of(const py::object& g, const char* fname = "random") {
  if (g.is_none()) return default_generator();
  ENGINE_CHECK(py::isinstance<Generator>(g), engine::TypeError, fname,
               "(): argument 'generator' must be torch.Generator, not ", type_name(g));
  return g.cast<Generator&>();
}

// Fills `dst` with one draw per element in PyTorch's order: memory order (dims sorted by stride),
// which is row-major for a contiguous tensor. `fill(T*, n, vector_path_ok)` draws n values.
template <typename F>
void fill_in_memory_order(const Tensor& dst, F fill) {
  if (dst.is_contiguous()) {
    fill(dst, true);
    return;
  }
  Dims perm(dst.dim());
  std::iota(perm.begin(), perm.end(), 0);
  std::stable_sort(perm.begin(), perm.end(), [&](int64_t a, int64_t b) { return dst.strides()[a] > dst.strides()[b]; });
  Dims shape(perm.size()), strides(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) {
    shape[i] = dst.shape()[perm[i]];
    strides[i] = dst.strides()[perm[i]];
  }
  Tensor tmp = Tensor::empty(shape, dst.dtype());
  fill(tmp, false);
  kernels::copy(dst.as_strided(shape, strides, dst.offset()), tmp);
}

// Calls fill(buffer) with a float32 or float64 buffer: `dst` itself, or for float16 / bfloat16 a
// float32 one rounded into `dst` afterwards (the same draws as a float32 tensor of that shape).
template <typename F>
void through_float_buffer(const Tensor& dst, F fill) {
  if (!is_reduced_floating(dst.dtype())) return fill(dst);
  Tensor tmp = Tensor::empty(dst.shape(), DType::Float32);
  fill(tmp);
  kernels::copy(dst, tmp);
}

// A float32 draw that rounds up to `to` in R becomes `from`, so a 16-bit uniform stays in
// [from, to) as PyTorch's does.
template <typename R>
void fold_rounded_top(float* v, int64_t n, double from, double to) {
  const float top = static_cast<float>(R(static_cast<float>(to)));
  for (int64_t i = 0; i < n; ++i) {
    if (static_cast<float>(R(v[i])) == top) v[i] = static_cast<float>(from);
  }
}

// PyTorch's 16-bit normal fill draws whole blocks of 16: every block but a partial last one is
// the float32 fill of 16 * ceil(n / 16) values, and the last 16 elements are that fill's last
// block (a float32 fill of n would draw n + 16 values instead). Computed in float, rounded once.
void fill_normal_reduced(Generator& gen, const Tensor& buf, double mean, double stdv) {
  const int64_t n = buf.numel();
  const int64_t m = (n + 15) / 16 * 16;
  Tensor tmp = Tensor::empty({m}, DType::Float32);
  float* p = tmp.data<float>();
  kernels::fill_normal(gen, p, m, mean, stdv, true);
  if (m != n) std::copy(p + m - 16, p + m, p + n - 16);
  kernels::copy(buf, tmp.as_strided(buf.shape(), contiguous_strides(buf.shape()), 0));
}

// PyTorch's bounds on randint's range for the narrower dtypes, named as its messages name them.
void check_from_to_in_range(DType d, int64_t from, int64_t to_inclusive) {
  const char* name = nullptr;
  double lo = 0, hi = 0;
  switch (d) {
    case DType::UInt8: name = "unsigned char", lo = 0, hi = 255; break;
    case DType::Int8: name = "signed char", lo = -128, hi = 127; break;
    case DType::Int16: name = "short int", lo = -32768, hi = 32767; break;
    case DType::Int32: name = "int", lo = -2147483648.0, hi = 2147483647.0; break;
    case DType::Float16: name = "c10::Half", lo = -65504, hi = 65504; break;
    default: return;  // int64, float32/64 and bfloat16 hold every int64 range; bool is checked earlier
  }
  ENGINE_CHECK(static_cast<double>(from) >= lo && static_cast<double>(from) <= hi, std::runtime_error,
               "from is out of bounds for ", name);
  ENGINE_CHECK(static_cast<double>(to_inclusive) >= lo && static_cast<double>(to_inclusive) <= hi, std::runtime_error,
               "to - 1 is out of bounds for ", name);
}

// PyTorch's dispatch error for an integer or bool tensor: its uniform and normal kernels exist
// for floating dtypes only, and the message names the kernel ("check_uniform_bounds",
// "normal_kernel_cpu"), for rand / randn / *_like as for uniform_ / normal_.
void check_float(const Tensor& t, const char* kernel) {
  ENGINE_CHECK(is_floating(t.dtype()), engine::NotImplementedError, "\"", kernel, "\" not implemented for '",
               scalar_type_name(t.dtype()), "'");
}

// The in-place fills bump the version and, like any in-place op, refuse leaves that require grad.
// The factories (rand, randn, randint) fill a tensor nobody has seen yet, below autograd as in
// PyTorch, so their results start at version 0: they pass bump = false.
Tensor& start_inplace(Tensor& t) {
  if (GradMode::is_enabled() && is_leaf(t) && requires_grad(t)) {
    throw std::runtime_error("a leaf Variable that requires grad is being used in an in-place operation.");
  }
  return t;
}

Tensor& normal_(Tensor& t, double mean, double stdv, Generator& gen, bool bump = true) {
  ENGINE_CHECK(stdv >= 0.0, std::runtime_error, "normal expects std >= 0.0, but found std ", stdv);
  if (is_complex(t.dtype())) {
    // PyTorch's rule: each half drawn with std / sqrt(2), so that E|z - mean|^2 = std^2.
    start_inplace(t);
    Tensor pairs = kernels::complex_as_real(t);
    normal_(pairs, mean, stdv / std::sqrt(2.0), gen, false);
    if (bump) t.bump_version();
    return t;
  }
  // With no elements PyTorch reaches no kernel, so an integer tensor passes its dtype check.
  if (t.numel() != 0 || is_floating(t.dtype())) check_float(t, "normal_kernel_cpu");
  start_inplace(t);
  if (t.numel() == 0) {
    if (bump) t.bump_version();
    return t;
  }
  std::lock_guard<std::mutex> lock(gen.mutex());
  fill_in_memory_order(t, [&](const Tensor& buf, bool vector_ok) {
    if (is_reduced_floating(buf.dtype()) && vector_ok && buf.numel() >= 16) {
      return fill_normal_reduced(gen, buf, mean, stdv);
    }
    through_float_buffer(buf, [&](const Tensor& fb) {
      if (fb.dtype() == DType::Float32) kernels::fill_normal(gen, fb.data<float>(), fb.numel(), mean, stdv, vector_ok);
      else kernels::fill_normal(gen, fb.data<double>(), fb.numel(), mean, stdv, vector_ok);
    });
  });
  if (bump) t.bump_version();
  return t;
}

Tensor& uniform_(Tensor& t, double from, double to, Generator& gen, bool bump = true) {
  if (is_complex(t.dtype())) {  // each half uniform in [from, to), as PyTorch draws them
    start_inplace(t);
    Tensor pairs = kernels::complex_as_real(t);
    uniform_(pairs, from, to, gen, false);
    if (bump) t.bump_version();
    return t;
  }
  check_float(t, "check_uniform_bounds");
  ENGINE_CHECK(from <= to, std::runtime_error, "uniform_ expects to return a [from, to) range, but found from=", from,
               " > to=", to);
  start_inplace(t);
  std::lock_guard<std::mutex> lock(gen.mutex());
  fill_in_memory_order(t, [&](const Tensor& buf, bool) {
    through_float_buffer(buf, [&](const Tensor& fb) {
      if (fb.dtype() == DType::Float64) return kernels::fill_uniform(gen, fb.data<double>(), fb.numel(), from, to);
      kernels::fill_uniform(gen, fb.data<float>(), fb.numel(), from, to);
      if (buf.dtype() == DType::Float16) fold_rounded_top<Half>(fb.data<float>(), fb.numel(), from, to);
      if (buf.dtype() == DType::BFloat16) fold_rounded_top<BFloat16>(fb.data<float>(), fb.numel(), from, to);
    });
  });
  if (bump) t.bump_version();
  return t;
}

Tensor& random_from_to_(Tensor& t, int64_t low, int64_t high, Generator& gen, bool bump = true) {
  ENGINE_CHECK(t.dtype() != DType::Bool || (low >= 0 && high <= 2), std::runtime_error,
               "random_ expects 'from' and 'to' to be in [0, 2) for a bool tensor");
  ENGINE_CHECK(low < high, std::runtime_error, "random_ expects 'from' to be less than 'to', but got from=", low,
               " >= to=", high);
  if (t.dtype() == DType::Float32) {
    low = kernels::random_update_from_float32(low);
    high = kernels::random_update_to_float32(high);
  } else if (t.dtype() == DType::Float64) {
    low = kernels::random_update_from_float64(low);
    high = kernels::random_update_to_float64(high);
  } else if (t.dtype() == DType::Float16) {
    low = kernels::random_update_from_float16(low);
    high = kernels::random_update_to_float16(high);
  } else if (t.dtype() == DType::BFloat16) {
    low = kernels::random_update_from_bfloat16(low);
    high = kernels::random_update_to_bfloat16(high);
  }
  ENGINE_CHECK(low < high, std::runtime_error,
               "random_ expects 'from' casted to dtype to be less than 'to' casted to dtype, but got from=", low,
               " >= to=", high);
  check_from_to_in_range(t.dtype(), low, high - 1);
  std::lock_guard<std::mutex> lock(gen.mutex());
  fill_in_memory_order(t, [&](const Tensor& buf, bool) {
    switch (buf.dtype()) {
      case DType::Int64: kernels::fill_random_from_to(gen, buf.data<int64_t>(), buf.numel(), low, high); break;
      case DType::Int32: kernels::fill_random_from_to(gen, buf.data<int32_t>(), buf.numel(), low, high); break;
      case DType::Float32: kernels::fill_random_from_to(gen, buf.data<float>(), buf.numel(), low, high); break;
      case DType::Float64: kernels::fill_random_from_to(gen, buf.data<double>(), buf.numel(), low, high); break;
      default: {  // bool and the narrow types: drawn as int64 (the same draws), then converted
        Tensor tmp = Tensor::empty(buf.shape(), DType::Int64);
        kernels::fill_random_from_to(gen, tmp.data<int64_t>(), tmp.numel(), low, high);
        kernels::copy(buf, tmp);
        break;
      }
    }
  });
  if (bump) t.bump_version();
  return t;
}

}  // namespace

void init_random(py::module_& m) {
  py::class_<Generator>(m, "Generator")
      .def(py::init([](py::handle device) {
             if (!device.is_none()) {
               ENGINE_CHECK(std::string(py::str(device)) == "cpu", std::runtime_error, "engine runs on the CPU only");
             }
             return std::make_unique<Generator>();
           }), py::arg("device") = py::none())
      .def("manual_seed", [](py::object self, py::int_ seed) {
        // Seeds wrap to uint64 (manual_seed(-1) is 2**64 - 1), as in PyTorch.
        py::int_ wrapped = py::reinterpret_steal<py::int_>(
            PyNumber_And(seed.ptr(), py::int_(static_cast<unsigned long long>(~0ULL)).ptr()));
        Generator& g = self.cast<Generator&>();
        std::lock_guard<std::mutex> lock(g.mutex());
        g.manual_seed(wrapped.cast<uint64_t>());
        return self;
      })
      .def("initial_seed", [](const Generator& g) { return g.initial_seed(); })
      .def("get_state", [](Generator& g) {
        Tensor out = Tensor::empty({static_cast<int64_t>(Generator::kStateBytes)}, DType::UInt8);
        std::lock_guard<std::mutex> lock(g.mutex());
        g.get_state(out.data<uint8_t>());
        return out;
      }, "The generator's state as a uint8 tensor (PyTorch's 5056-byte layout).")
      .def("set_state", [](py::object self, const Tensor& state) {
        ENGINE_CHECK(state.dtype() == DType::UInt8, engine::TypeError, "RNG state must be a torch.ByteTensor");
        ENGINE_CHECK(state.numel() == static_cast<int64_t>(Generator::kStateBytes), std::runtime_error,
                     "Expected a CPUGeneratorImplState of size ", Generator::kStateBytes,
                     " but found the input RNG state size to be ", state.numel());
        Tensor c = ops::contiguous(state);
        Generator& g = self.cast<Generator&>();
        std::lock_guard<std::mutex> lock(g.mutex());
        g.set_state(c.data<uint8_t>());
        return self;
      }, py::arg("new_state"), "Restores a state from get_state() (or from torch's get_rng_state()).");
  m.attr("default_generator") = py::cast(&default_generator(), py::return_value_policy::reference);

  m.def("rand", [](py::args size, py::kwargs kw) {
    Dims shape = factory_shape(size, kw, "rand");
    auto o = parse_factory_kwargs(kw, "rand");
    Tensor t = ops::empty(shape, o.dtype.value_or(default_dtype()));
    uniform_(t, 0.0, 1.0, generator_of(o.generator), false);
    return finish(t, o);
  });
  m.def("randn", [](py::args size, py::kwargs kw) {
    Dims shape = factory_shape(size, kw, "randn");
    auto o = parse_factory_kwargs(kw, "randn");
    Tensor t = ops::empty(shape, o.dtype.value_or(default_dtype()));
    normal_(t, 0.0, 1.0, generator_of(o.generator), false);
    return finish(t, o);
  });
  // The permutation PyTorch's CPU randperm draws (engine.randperm shapes and converts it).
  m.def("_randperm_stream", [](int64_t n, py::object generator) {
    ENGINE_CHECK(n >= 0, std::runtime_error, "Trying to create tensor with negative dimension ", n, ": [", n, "]");
    Tensor t = ops::empty({n}, DType::Int64);
    Generator& gen = generator_of(generator, "randperm");
    std::lock_guard<std::mutex> lock(gen.mutex());
    kernels::fill_randperm(gen, t.data<int64_t>(), n);
    return t;
  }, py::arg("n"), py::arg("generator") = py::none());
  m.def("randint", [](py::args args, py::kwargs kw) {
    // randint(high, size) or randint(low, high, size); any of them may be given by name, as in PyTorch
    // (randint(0, 10, size=(4,)) is the common spelling). Positional values fill the leading slots.
    std::vector<py::object> named(3);
    const char* names[3] = {"low", "high", "size"};
    for (int i = 0; i < 3; ++i) {
      if (kw.contains(names[i])) {
        named[i] = kw[names[i]];
        PyDict_DelItemString(kw.ptr(), names[i]);
      }
    }
    const size_t given = args.size() + !!named[0] + !!named[1] + !!named[2];
    ENGINE_CHECK(given == 2 || given == 3, engine::TypeError,
                 "randint() received an invalid combination of arguments - expected (int high, tuple of ints size) "
                 "or (int low, int high, tuple of ints size)");
    std::vector<py::object> slot(3);  // low, high, size
    size_t next = 0;
    for (int i = given == 3 ? 0 : 1; i < 3; ++i) {
      if (named[i]) {
        slot[i] = named[i];
      } else {
        ENGINE_CHECK(next < args.size(), engine::TypeError, "randint() missing required argument '", names[i], "'");
        slot[i] = py::reinterpret_borrow<py::object>(args[next++]);
      }
    }
    ENGINE_CHECK(next == args.size(), engine::TypeError, "randint() got multiple values for an argument");
    const int64_t low = slot[0] ? int_arg(slot[0], "randint", "low") : 0;
    const int64_t high = int_arg(slot[1], "randint", "high");
    auto o = parse_factory_kwargs(kw, "randint");
    Tensor t = ops::empty(dims_from_sequence(slot[2], "randint"), o.dtype.value_or(DType::Int64));
    random_from_to_(t, low, high, generator_of(o.generator), false);
    return finish(t, o);
  });

  py::object tensor_cls = m.attr("Tensor");
  py::cpp_function normal_method(
      [](Tensor t, double mean, double stdv, py::object gen) { return normal_(t, mean, stdv, generator_of(gen, "normal_")); },
      py::name("normal_"), py::is_method(tensor_cls), py::arg("mean") = 0.0, py::arg("std") = 1.0, py::kw_only(),
      py::arg("generator") = py::none());
  tensor_cls.attr("normal_") = normal_method;
  py::cpp_function uniform_method(
      [](Tensor t, double from, double to, py::object gen) { return uniform_(t, from, to, generator_of(gen, "uniform_")); },
      py::name("uniform_"), py::is_method(tensor_cls), py::arg("from") = 0.0, py::arg("to") = 1.0, py::kw_only(),
      py::arg("generator") = py::none());
  tensor_cls.attr("uniform_") = uniform_method;
}

}  // namespace engine::python
