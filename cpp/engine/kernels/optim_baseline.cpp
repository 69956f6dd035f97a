// The optimizer loops for the portable build.
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "engine/kernels/optim.h"
#include "engine/kernels/optim_isa.h"
#include "engine/kernels/parallel.h"

namespace engine::kernels::optim::baseline {
#include "engine/kernels/optim_loops.inc"
}  // namespace engine::kernels::optim::baseline
