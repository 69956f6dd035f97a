// The optimizer loops for AVX2 (chosen at run time where the CPU has it).
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "engine/kernels/optim.h"
#include "engine/kernels/optim_isa.h"
#include "engine/kernels/parallel.h"

namespace engine::kernels::optim::avx2 {
#include "engine/kernels/optim_loops.inc"
}  // namespace engine::kernels::optim::avx2
