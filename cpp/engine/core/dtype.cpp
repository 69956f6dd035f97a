#include "engine/core/dtype.h"

#include "engine/core/error.h"

namespace engine {

namespace {
DType g_default_dtype = DType::Float32;

// torch.promote_types over the enum's order (b1 i4 i8 f4 f8 u1 i1 i2 f2 bf), recorded from
// PyTorch 2.13: uint8 with int8 meets at int16, float16 with bfloat16 at float32, an integer with
// a 16-bit float gives the float.
constexpr DType b1 = DType::Bool, i4 = DType::Int32, i8 = DType::Int64, f4 = DType::Float32, f8 = DType::Float64,
                u1 = DType::UInt8, i1 = DType::Int8, i2 = DType::Int16, f2 = DType::Float16, bf = DType::BFloat16;
constexpr DType kPromotion[kNumDTypes][kNumDTypes] = {
    /*b1*/ {b1, i4, i8, f4, f8, u1, i1, i2, f2, bf},
    /*i4*/ {i4, i4, i8, f4, f8, i4, i4, i4, f2, bf},
    /*i8*/ {i8, i8, i8, f4, f8, i8, i8, i8, f2, bf},
    /*f4*/ {f4, f4, f4, f4, f8, f4, f4, f4, f4, f4},
    /*f8*/ {f8, f8, f8, f8, f8, f8, f8, f8, f8, f8},
    /*u1*/ {u1, i4, i8, f4, f8, u1, i2, i2, f2, bf},
    /*i1*/ {i1, i4, i8, f4, f8, i2, i1, i2, f2, bf},
    /*i2*/ {i2, i4, i8, f4, f8, i2, i2, i2, f2, bf},
    /*f2*/ {f2, f2, f2, f4, f8, f2, f2, f2, f2, f4},
    /*bf*/ {bf, bf, bf, f4, f8, bf, bf, bf, f4, bf},
};
}  // namespace

DType promote_types(DType a, DType b) { return kPromotion[static_cast<int>(a)][static_cast<int>(b)]; }

bool can_cast(DType from, DType to) {
  if (is_floating(from) && is_integral(to, true)) return false;
  if (from != DType::Bool && to == DType::Bool) return false;
  return true;
}

DType default_dtype() { return g_default_dtype; }

void set_default_dtype(DType d) {
  ENGINE_CHECK(is_floating(d), TypeError, "only floating-point types are supported as the default type");
  g_default_dtype = d;
}

}  // namespace engine
