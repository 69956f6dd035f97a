#pragma once
// Overflow-checked integer arithmetic for sizes, strides, element counts and byte counts. Every
// product or sum that a Python caller can make large goes through these: a wrapped product would
// make a small buffer look big enough for a huge shape (a read or write outside it).
#include <cstdint>

namespace engine {

// a * b and a + b, or false when the exact result does not fit in int64.
inline bool mul_fits(int64_t a, int64_t b, int64_t* out) { return !__builtin_mul_overflow(a, b, out); }
inline bool add_fits(int64_t a, int64_t b, int64_t* out) { return !__builtin_add_overflow(a, b, out); }

// a * b, raising RuntimeError("<what>: integer multiplication overflow") when it does not fit.
int64_t checked_mul(int64_t a, int64_t b, const char* what);

}  // namespace engine
