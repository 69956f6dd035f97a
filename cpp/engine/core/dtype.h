#pragma once
// The element types a tensor can hold, and PyTorch's promotion lattice over them.
#include <cstdint>
#include <string>
#include <type_traits>

#include "engine/core/half.h"

namespace engine {

// The first five keep their historical values; the rest follow. Order means nothing: promotion
// is the table in dtype.cpp.
enum class DType : uint8_t {
  Bool = 0, Int32 = 1, Int64 = 2, Float32 = 3, Float64 = 4,
  UInt8 = 5, Int8 = 6, Int16 = 7, Float16 = 8, BFloat16 = 9, Complex64 = 10, Complex128 = 11
};
constexpr int kNumDTypes = 12;
constexpr DType kAllDTypes[kNumDTypes] = {DType::Bool,    DType::UInt8,    DType::Int8,      DType::Int16,
                                          DType::Int32,   DType::Int64,    DType::Float16,   DType::BFloat16,
                                          DType::Float32, DType::Float64,  DType::Complex64, DType::Complex128};

inline size_t itemsize(DType d) {
  switch (d) {
    case DType::Bool: case DType::UInt8: case DType::Int8: return 1;
    case DType::Int16: case DType::Float16: case DType::BFloat16: return 2;
    case DType::Int32: case DType::Float32: return 4;
    case DType::Int64: case DType::Float64: case DType::Complex64: return 8;
    case DType::Complex128: return 16;
  }
  return 1;
}

inline bool is_floating(DType d) {
  return d == DType::Float32 || d == DType::Float64 || d == DType::Float16 || d == DType::BFloat16;
}
// complex64 and complex128: a (real, imaginary) pair of float32 or float64, stored interleaved, so
// view_as_real is a view. Kernels never see them through ENGINE_DISPATCH_ALL (which refuses them);
// complex ops compute on that real view (ops/complex_*.cpp).
inline bool is_complex(DType d) { return d == DType::Complex64 || d == DType::Complex128; }
// The dtype of each half of a complex value (float32 for complex64), and back.
inline DType complex_value_type(DType d) { return d == DType::Complex128 ? DType::Float64 : DType::Float32; }
inline DType complex_of(DType real) { return real == DType::Float64 ? DType::Complex128 : DType::Complex64; }
// float16 and bfloat16: stored in 16 bits, computed in float32.
inline bool is_reduced_floating(DType d) { return d == DType::Float16 || d == DType::BFloat16; }
inline bool is_integral(DType d, bool include_bool) {
  return d == DType::UInt8 || d == DType::Int8 || d == DType::Int16 || d == DType::Int32 || d == DType::Int64 ||
         (include_bool && d == DType::Bool);
}
// PyTorch's dtype.is_signed: false for bool and uint8 only.
inline bool is_signed(DType d) { return d != DType::Bool && d != DType::UInt8; }

// Names as PyTorch prints them, so a ported script's output does not change.
inline const char* dtype_name(DType d) {
  switch (d) {
    case DType::Bool: return "bool";
    case DType::UInt8: return "uint8";
    case DType::Int8: return "int8";
    case DType::Int16: return "int16";
    case DType::Int32: return "int32";
    case DType::Int64: return "int64";
    case DType::Float16: return "float16";
    case DType::BFloat16: return "bfloat16";
    case DType::Float32: return "float32";
    case DType::Float64: return "float64";
    case DType::Complex64: return "complex64";
    case DType::Complex128: return "complex128";
  }
  return "?";
}

// PyTorch's ScalarType names, used in its kernel error messages ("... with dtype Float").
inline const char* scalar_type_name(DType d) {
  switch (d) {
    case DType::Bool: return "Bool";
    case DType::UInt8: return "Byte";
    case DType::Int8: return "Char";
    case DType::Int16: return "Short";
    case DType::Int32: return "Int";
    case DType::Int64: return "Long";
    case DType::Float16: return "Half";
    case DType::BFloat16: return "BFloat16";
    case DType::Float32: return "Float";
    case DType::Float64: return "Double";
    case DType::Complex64: return "ComplexFloat";
    case DType::Complex128: return "ComplexDouble";
  }
  return "?";
}

// The C++ element type names PyTorch prints for a tensor's data in some messages ("dtype 'double'").
inline const char* cpp_type_name(DType d) {
  switch (d) {
    case DType::Bool: return "bool";
    case DType::UInt8: return "unsigned char";
    case DType::Int8: return "signed char";
    case DType::Int16: return "short int";
    case DType::Int32: return "int";
    case DType::Int64: return "long int";
    case DType::Float16: return "c10::Half";
    case DType::BFloat16: return "c10::BFloat16";
    case DType::Float32: return "float";
    case DType::Float64: return "double";
    case DType::Complex64: return "c10::complex<float>";
    case DType::Complex128: return "c10::complex<double>";
  }
  return "?";
}

// The legacy type names ("torch.FloatTensor"): Tensor.type() and autograd's version-counter message.
inline const char* legacy_type_name(DType d) {
  switch (d) {
    case DType::Bool: return "torch.BoolTensor";
    case DType::UInt8: return "torch.ByteTensor";
    case DType::Int8: return "torch.CharTensor";
    case DType::Int16: return "torch.ShortTensor";
    case DType::Int32: return "torch.IntTensor";
    case DType::Int64: return "torch.LongTensor";
    case DType::Float16: return "torch.HalfTensor";
    case DType::BFloat16: return "torch.BFloat16Tensor";
    case DType::Float32: return "torch.FloatTensor";
    case DType::Float64: return "torch.DoubleTensor";
    case DType::Complex64: return "torch.ComplexFloatTensor";
    case DType::Complex128: return "torch.ComplexDoubleTensor";
  }
  return "?";
}

// PyTorch's promotion lattice (torch.promote_types), as a table.
DType promote_types(DType a, DType b);
// torch.can_cast: whether a value of `from` may be written into `to` by an in-place op
// (no float -> integer, no non-bool -> bool).
bool can_cast(DType from, DType to);

// Maps a C++ element type to its DType.
template <typename T> struct dtype_of;
template <> struct dtype_of<bool> { static constexpr DType value = DType::Bool; };
template <> struct dtype_of<uint8_t> { static constexpr DType value = DType::UInt8; };
template <> struct dtype_of<int8_t> { static constexpr DType value = DType::Int8; };
template <> struct dtype_of<int16_t> { static constexpr DType value = DType::Int16; };
template <> struct dtype_of<int32_t> { static constexpr DType value = DType::Int32; };
template <> struct dtype_of<int64_t> { static constexpr DType value = DType::Int64; };
template <> struct dtype_of<Half> { static constexpr DType value = DType::Float16; };
template <> struct dtype_of<BFloat16> { static constexpr DType value = DType::BFloat16; };
template <> struct dtype_of<float> { static constexpr DType value = DType::Float32; };
template <> struct dtype_of<double> { static constexpr DType value = DType::Float64; };

DType default_dtype();
void set_default_dtype(DType d);

// Raises PyTorch's NotImplementedError (a RuntimeError) for a kernel without a path for `d` ("\"sum\" not implemented for
// 'ComplexFloat'"): the dispatch macros' answer to a dtype they do not cover.
[[noreturn]] void throw_not_implemented_for(const char* kernel, DType d);

}  // namespace engine

// Calls F with the C++ type of a dtype: DISPATCH_ALL(dt, [&](auto tag) { using T = decltype(tag); ... })
// Half and BFloat16 arrive as their storage types; kernels compute them in opmath_t<T> (float).
// Complex dtypes are refused (with the enclosing function's name): no real kernel may read them.
#define ENGINE_DISPATCH_ALL(DT, ...)                                     \
  [&, engine_dispatch_kernel_ = __func__] {                              \
    switch (DT) {                                                        \
      case ::engine::DType::Bool: return (__VA_ARGS__)(bool{});          \
      case ::engine::DType::UInt8: return (__VA_ARGS__)(uint8_t{});      \
      case ::engine::DType::Int8: return (__VA_ARGS__)(int8_t{});        \
      case ::engine::DType::Int16: return (__VA_ARGS__)(int16_t{});      \
      case ::engine::DType::Int32: return (__VA_ARGS__)(int32_t{});      \
      case ::engine::DType::Int64: return (__VA_ARGS__)(int64_t{});      \
      case ::engine::DType::Float16: return (__VA_ARGS__)(::engine::Half{});     \
      case ::engine::DType::BFloat16: return (__VA_ARGS__)(::engine::BFloat16{}); \
      case ::engine::DType::Float32: return (__VA_ARGS__)(float{});      \
      case ::engine::DType::Float64: return (__VA_ARGS__)(double{});     \
      default: ::engine::throw_not_implemented_for(engine_dispatch_kernel_, DT); \
    }                                                                    \
  }()

// The floating dtypes, 16-bit ones included.
#define ENGINE_DISPATCH_FLOAT(DT, ...)                                           \
  [&, engine_dispatch_kernel_ = __func__] {                                      \
    switch (DT) {                                                                \
      case ::engine::DType::Float16: return (__VA_ARGS__)(::engine::Half{});     \
      case ::engine::DType::BFloat16: return (__VA_ARGS__)(::engine::BFloat16{}); \
      case ::engine::DType::Float32: return (__VA_ARGS__)(float{});              \
      case ::engine::DType::Float64: return (__VA_ARGS__)(double{});             \
      default: ::engine::throw_not_implemented_for(engine_dispatch_kernel_, DT); \
    }                                                                            \
  }()
