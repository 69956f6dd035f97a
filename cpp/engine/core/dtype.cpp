#include "engine/core/dtype.h"

#include "engine/core/error.h"

namespace engine {

namespace {
DType g_default_dtype = DType::Float32;

// torch.promote_types over the enum's order (b1 i4 i8 f4 f8 u1 i1 i2 f2 bf c8 c16), recorded from
// PyTorch 2.13: uint8 with int8 meets at int16, float16 with bfloat16 at float32, an integer with
// a 16-bit float gives the float; anything with complex64 gives complex64 except float64 (and
// complex128), which give complex128.
constexpr DType b1 = DType::Bool, i4 = DType::Int32, i8 = DType::Int64, f4 = DType::Float32, f8 = DType::Float64,
                u1 = DType::UInt8, i1 = DType::Int8, i2 = DType::Int16, f2 = DType::Float16, bf = DType::BFloat16,
                c8 = DType::Complex64, c16 = DType::Complex128;
constexpr DType kPromotion[kNumDTypes][kNumDTypes] = {
    /*b1*/ {b1, i4, i8, f4, f8, u1, i1, i2, f2, bf, c8, c16},
    /*i4*/ {i4, i4, i8, f4, f8, i4, i4, i4, f2, bf, c8, c16},
    /*i8*/ {i8, i8, i8, f4, f8, i8, i8, i8, f2, bf, c8, c16},
    /*f4*/ {f4, f4, f4, f4, f8, f4, f4, f4, f4, f4, c8, c16},
    /*f8*/ {f8, f8, f8, f8, f8, f8, f8, f8, f8, f8, c16, c16},
    /*u1*/ {u1, i4, i8, f4, f8, u1, i2, i2, f2, bf, c8, c16},
    /*i1*/ {i1, i4, i8, f4, f8, i2, i1, i2, f2, bf, c8, c16},
    /*i2*/ {i2, i4, i8, f4, f8, i2, i2, i2, f2, bf, c8, c16},
    /*f2*/ {f2, f2, f2, f4, f8, f2, f2, f2, f2, f4, c8, c16},
    /*bf*/ {bf, bf, bf, f4, f8, bf, bf, bf, f4, bf, c8, c16},
    /*c8*/ {c8, c8, c8, c8, c16, c8, c8, c8, c8, c8, c8, c16},
    /*c16*/ {c16, c16, c16, c16, c16, c16, c16, c16, c16, c16, c16, c16},
};
}  // namespace

DType promote_types(DType a, DType b) { return kPromotion[static_cast<int>(a)][static_cast<int>(b)]; }

bool can_cast(DType from, DType to) {
  if (is_complex(from) && !is_complex(to)) return false;
  if (is_floating(from) && is_integral(to, true)) return false;
  if (from != DType::Bool && to == DType::Bool) return false;
  return true;
}

DType default_dtype() { return g_default_dtype; }

void throw_not_implemented_for(const char* kernel, DType d) {
  throw NotImplementedError(str_cat("\"", kernel, "\" not implemented for '", scalar_type_name(d), "'"));
}

void set_default_dtype(DType d) {
  ENGINE_CHECK(is_floating(d), TypeError, "only floating-point types are supported as the default type");
  g_default_dtype = d;
}

}  // namespace engine
