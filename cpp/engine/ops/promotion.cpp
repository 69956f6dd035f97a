#include "engine/core/error.h"
#include "engine/ops/ops.h"

namespace engine::ops {

namespace {
enum Category { kBool = 0, kInt = 1, kFloat = 2, kComplex = 3 };
Category category(DType d) {
  if (is_complex(d)) return kComplex;
  return is_floating(d) ? kFloat : (d == DType::Bool ? kBool : kInt);
}

// PyTorch's rule: tensors with dimensions decide the dtype, unless a 0-d tensor or a Python number
// belongs to a higher category (bool < integer < floating); a Python float then contributes the
// default dtype and an integer int64.
struct State {
  std::optional<DType> dim, zero, wrapped;
};
void update(State& s, const Tensor& t) {
  auto join = [](std::optional<DType>& slot, DType d) { slot = slot ? promote_types(*slot, d) : d; };
  if (t.is_wrapped_number()) {
    DType d = t.dtype();
    if (is_floating(d)) d = default_dtype();
    if (is_complex(d)) d = complex_of(default_dtype());
    join(s.wrapped, d);
  } else if (t.dim() == 0) {
    join(s.zero, t.dtype());
  } else {
    join(s.dim, t.dtype());
  }
}
std::optional<DType> combine(std::optional<DType> higher, std::optional<DType> lower) {
  if (!higher) return lower;
  if (!lower) return higher;
  if (category(*higher) >= category(*lower)) return higher;
  // A complex number or 0-d tensor with floating tensors keeps their precision (float64 * 1j is
  // complex128); with integers it gives its own dtype. 16-bit floats would give complex32.
  if (is_complex(*lower) && is_floating(*higher)) {
    ENGINE_CHECK(!is_reduced_floating(*higher), std::runtime_error, "complex32 (ComplexHalf) is not supported: ",
                 scalar_type_name(*higher), " with a complex operand would need it; convert to float32 first");
    return complex_of(*higher);
  }
  return lower;
}
}  // namespace

DType result_type(const Tensor& a, const Tensor& b) {
  State s;
  update(s, a);
  update(s, b);
  return *combine(s.dim, combine(s.zero, s.wrapped));
}

void alpha_check(DType result, DType alpha) {
  ENGINE_CHECK(result == DType::Bool || alpha != DType::Bool, std::runtime_error,
               "Boolean alpha only supported for Boolean results.");
  ENGINE_CHECK(is_floating(result) || !is_floating(alpha), std::runtime_error,
               "For integral input tensors, argument alpha must not be a floating point number.");
}

}  // namespace engine::ops
