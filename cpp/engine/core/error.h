#pragma once
// User errors become Python exceptions of the matching type (the bindings translate them);
// ENGINE_ASSERT guards internal invariants, whose failure is a bug in the engine itself.
#include <sstream>
#include <stdexcept>
#include <string>

namespace engine {

struct TypeError : std::runtime_error { using std::runtime_error::runtime_error; };
struct ValueError : std::runtime_error { using std::runtime_error::runtime_error; };
struct IndexError : std::runtime_error { using std::runtime_error::runtime_error; };
struct NotImplementedError : std::runtime_error { using std::runtime_error::runtime_error; };
// Integer division or remainder by zero: a RuntimeError that is also a ZeroDivisionError in Python.
struct ZeroDivisionError : std::runtime_error { using std::runtime_error::runtime_error; };
// An allocation the system refused: engine.OutOfMemoryError, both a RuntimeError (as PyTorch's
// allocator error) and a MemoryError.
struct OutOfMemoryError : std::runtime_error { using std::runtime_error::runtime_error; };
// RuntimeError is std::runtime_error itself.

namespace detail {
inline void append(std::ostringstream&) {}
template <typename T, typename... R>
void append(std::ostringstream& os, const T& v, const R&... rest) {
  os << v;
  append(os, rest...);
}
}  // namespace detail

template <typename... A>
std::string str_cat(const A&... args) {
  std::ostringstream os;
  detail::append(os, args...);
  return os.str();
}

}  // namespace engine

#define ENGINE_CHECK(cond, Exc, ...)                   \
  do {                                                 \
    if (!(cond)) throw Exc(::engine::str_cat(__VA_ARGS__)); \
  } while (0)

#define ENGINE_ASSERT(cond)                                                              \
  do {                                                                                   \
    if (!(cond))                                                                         \
      throw std::logic_error(::engine::str_cat("internal assertion failed: ", #cond, " at ", \
                                               __FILE__, ":", __LINE__));                \
  } while (0)
