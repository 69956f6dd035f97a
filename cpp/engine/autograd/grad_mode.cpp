#include "engine/autograd/grad_mode.h"

#include "engine/autograd/view_meta.h"
#include "engine/core/fast_tls.h"
#include "engine/core/tensor.h"

namespace engine {

namespace {
ENGINE_FAST_TLS thread_local bool t_grad_enabled = true;

uint8_t view_creation_meta_now() {
  if (inference_mode_enabled()) return static_cast<uint8_t>(CreationMeta::InferenceMode);
  if (!t_grad_enabled) return static_cast<uint8_t>(CreationMeta::NoGradMode);
  return static_cast<uint8_t>(CreationMeta::Default);
}

// Views are made in core, which knows no grad mode: tell it how to read the mode here.
const bool g_installed = [] {
  current_view_creation_meta = &view_creation_meta_now;
  return true;
}();
}  // namespace

bool GradMode::is_enabled() { return t_grad_enabled; }
void GradMode::set_enabled(bool enabled) { t_grad_enabled = enabled; }

}  // namespace engine
