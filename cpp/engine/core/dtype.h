#pragma once
// The element types a tensor can hold, and PyTorch's promotion lattice over them.
#include <cstdint>
#include <string>

namespace engine {

enum class DType : uint8_t { Bool = 0, Int32 = 1, Int64 = 2, Float32 = 3, Float64 = 4 };
constexpr int kNumDTypes = 5;

inline size_t itemsize(DType d) {
  switch (d) {
    case DType::Bool: return 1;
    case DType::Int32: return 4;
    case DType::Int64: return 8;
    case DType::Float32: return 4;
    case DType::Float64: return 8;
  }
  return 1;
}

inline bool is_floating(DType d) { return d == DType::Float32 || d == DType::Float64; }
inline bool is_integral(DType d, bool include_bool) {
  return d == DType::Int32 || d == DType::Int64 || (include_bool && d == DType::Bool);
}

// Names as PyTorch prints them, so a ported script's output does not change.
inline const char* dtype_name(DType d) {
  switch (d) {
    case DType::Bool: return "bool";
    case DType::Int32: return "int32";
    case DType::Int64: return "int64";
    case DType::Float32: return "float32";
    case DType::Float64: return "float64";
  }
  return "?";
}

// PyTorch's ScalarType names, used in its kernel error messages ("... with dtype Float").
inline const char* scalar_type_name(DType d) {
  switch (d) {
    case DType::Bool: return "Bool";
    case DType::Int32: return "Int";
    case DType::Int64: return "Long";
    case DType::Float32: return "Float";
    case DType::Float64: return "Double";
  }
  return "?";
}

// The legacy type names used in autograd's version-counter message ("torch.FloatTensor").
inline const char* legacy_type_name(DType d) {
  switch (d) {
    case DType::Bool: return "torch.BoolTensor";
    case DType::Int32: return "torch.IntTensor";
    case DType::Int64: return "torch.LongTensor";
    case DType::Float32: return "torch.FloatTensor";
    case DType::Float64: return "torch.DoubleTensor";
  }
  return "?";
}

// The enum order is the promotion order for the types we support: the larger wins.
inline DType promote_types(DType a, DType b) { return a > b ? a : b; }

// Maps a C++ element type to its DType.
template <typename T> struct dtype_of;
template <> struct dtype_of<bool> { static constexpr DType value = DType::Bool; };
template <> struct dtype_of<int32_t> { static constexpr DType value = DType::Int32; };
template <> struct dtype_of<int64_t> { static constexpr DType value = DType::Int64; };
template <> struct dtype_of<float> { static constexpr DType value = DType::Float32; };
template <> struct dtype_of<double> { static constexpr DType value = DType::Float64; };

DType default_dtype();
void set_default_dtype(DType d);

}  // namespace engine

// Calls F with the C++ type of a dtype: DISPATCH_ALL(dt, [&](auto tag) { using T = decltype(tag); ... })
#define ENGINE_DISPATCH_ALL(DT, ...)                                  \
  [&] {                                                               \
    switch (DT) {                                                     \
      case ::engine::DType::Bool: return (__VA_ARGS__)(bool{});       \
      case ::engine::DType::Int32: return (__VA_ARGS__)(int32_t{});   \
      case ::engine::DType::Int64: return (__VA_ARGS__)(int64_t{});   \
      case ::engine::DType::Float32: return (__VA_ARGS__)(float{});   \
      default: return (__VA_ARGS__)(double{});                        \
    }                                                                 \
  }()

#define ENGINE_DISPATCH_FLOAT(DT, ...)                                \
  [&] {                                                               \
    if ((DT) == ::engine::DType::Float32) return (__VA_ARGS__)(float{}); \
    return (__VA_ARGS__)(double{});                                   \
  }()
