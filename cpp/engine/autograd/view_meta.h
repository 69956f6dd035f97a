#pragma once
// How a view was created (PyTorch's CreationMeta). Recorded on every view (TensorImpl's
// view_creation_meta) so that an in-place write through it can be refused when its history could
// not be rebuilt unambiguously.
#include <cstdint>

namespace engine {

enum class CreationMeta : uint8_t {
  Default = 0,
  NoGradMode = 1,      // made under no_grad
  InferenceMode = 2,   // made under inference_mode from a normal tensor
  MultiOutput = 3,     // one of several views returned by one op (unbind, split, chunk)
  InCustomFunction = 4,
};

}  // namespace engine
