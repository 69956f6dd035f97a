#include "engine/core/dtype.h"

#include "engine/core/error.h"

namespace engine {

namespace {
DType g_default_dtype = DType::Float32;
}

DType default_dtype() { return g_default_dtype; }

void set_default_dtype(DType d) {
  ENGINE_CHECK(is_floating(d), TypeError, "only floating-point types are supported as the default type");
  g_default_dtype = d;
}

}  // namespace engine
