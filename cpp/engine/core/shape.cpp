#include "engine/core/shape.h"

#include "engine/core/checked.h"
#include "engine/core/error.h"

namespace engine {

int64_t checked_mul(int64_t a, int64_t b, const char* what) {
  int64_t r = 0;
  ENGINE_CHECK(mul_fits(a, b, &r), std::runtime_error, what, ": integer multiplication overflow");
  return r;
}

int64_t numel_of(const Dims& shape) {
  int64_t n = 1;
  bool overflow = false;
  for (int64_t s : shape) {
    if (s == 0) return 0;
    overflow = overflow || s < 0 || !mul_fits(n, s, &n);
  }
  // PyTorch multiplies the sizes as unsigned numbers: a negative size reads as an overflow too.
  ENGINE_CHECK(!overflow, std::runtime_error, "numel: integer multiplication overflow");
  return n;
}

Dims contiguous_strides(const Dims& shape) {
  Dims strides(shape.size());
  int64_t s = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i] = s;
    ENGINE_CHECK(mul_fits(s, shape[i] > 0 ? shape[i] : 1, &s), std::runtime_error, "Stride calculation overflowed");
  }
  return strides;
}

namespace {
[[noreturn]] void storage_overflow(const Dims& shape, const Dims* strides) {
  std::string msg = "Storage size calculation overflowed with sizes=" + dims_str(shape);
  if (strides) msg += " and strides=" + dims_str(*strides);
  throw std::runtime_error(msg);
}
}  // namespace

int64_t storage_extent(const Dims& shape, const Dims& strides, int64_t offset) {
  int64_t last = offset;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 0) return 0;
    int64_t step = 0;
    if (!mul_fits(shape[i] - 1, strides[i], &step) || !add_fits(last, step, &last)) storage_overflow(shape, &strides);
  }
  if (!add_fits(last, 1, &last)) storage_overflow(shape, &strides);
  return last;
}

int64_t contiguous_nbytes(const Dims& shape, int64_t itemsize) {
  int64_t n = 1;
  for (int64_t s : shape) {
    if (s == 0) return 0;
    if (!mul_fits(n, s, &n)) storage_overflow(shape, nullptr);
  }
  // Keep well inside ptrdiff_t: kernels index bytes with signed offsets, and the allocator rounds up.
  if (!mul_fits(n, itemsize, &n) || n > (int64_t(1) << 62)) storage_overflow(shape, nullptr);
  return n;
}

std::string dims_str(const Dims& d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(d[i]);
  }
  return s + "]";
}

Dims broadcast_shapes(const Dims& a, const Dims& b) {
  size_t n = std::max(a.size(), b.size());
  Dims out(n);
  // From the last dim backwards, as PyTorch's infer_size: the mismatch it reports is the last one.
  for (size_t i = n; i-- > 0;) {
    int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
    int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (da == db || db == 1) {
      out[i] = da;
    } else if (da == 1) {
      out[i] = db;
    } else {
      // PyTorch counts the non-singleton dimension from the right-aligned position.
      throw std::runtime_error(str_cat("The size of tensor a (", da, ") must match the size of tensor b (",
                                       db, ") at non-singleton dimension ", i));
    }
  }
  return out;
}

bool is_expandable_to(const Dims& from, const Dims& to) {
  if (from.size() > to.size()) return false;
  size_t off = to.size() - from.size();
  for (size_t i = 0; i < from.size(); ++i) {
    if (from[i] != to[i + off] && from[i] != 1) return false;
  }
  return true;
}

int64_t wrap_dim(int64_t dim, int64_t ndim) {
  int64_t lo = ndim > 0 ? -ndim : -1, hi = ndim > 0 ? ndim - 1 : 0;
  ENGINE_CHECK(dim >= lo && dim <= hi, IndexError, "Dimension out of range (expected to be in range of [",
               lo, ", ", hi, "], but got ", dim, ")");
  return dim < 0 ? dim + (ndim > 0 ? ndim : 1) : dim;
}

}  // namespace engine
