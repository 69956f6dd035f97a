#pragma once
// A tiny persistent thread pool for large elementwise and reduction work, and the hook through
// which kernels over large tensors let go of the Python interpreter lock while they run.
#include <cstdint>
#include <functional>

namespace engine::kernels {

// Elements below which work stays on the calling thread: waking a worker costs a few
// microseconds, about what one thread needs for this many simple elementwise operations.
constexpr int64_t kParallelGrain = 1 << 16;
// Elements above which a kernel releases the interpreter lock while it runs.
constexpr int64_t kReleaseLockNumel = 1 << 15;

// Threads used by parallel_for (the caller included): ENGINE_NUM_THREADS, else the hardware's.
int num_threads();
void set_num_threads(int n);

// Calls f(begin, end) over disjoint chunks covering [0, n), each at least `grain` long (the last
// may be shorter), on up to num_threads() threads. Runs inline when n <= grain, when called from
// inside a parallel region, or while the pool is busy with another caller. Exceptions thrown by
// f reach the caller.
void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& f);

// Calls f(i) for every i in [0, n), the threads claiming items one at a time: for a few large
// items of uneven cost, where a thread that starts late should leave its share to the others.
// Runs inline in the same cases as parallel_for.
void parallel_for_items(int64_t n, const std::function<void(int64_t)>& f);

// Whether this thread runs a chunk of a parallel_for: nested work (a BLAS call included) then
// stays on it, since every thread already has its share.
bool in_parallel_region();

// Hooks installed by the Python bindings: `release` gives up the interpreter lock if this thread
// holds it (returning a token, or null), `reacquire` takes it back. Kernels stay Python-free.
void set_interpreter_lock_hooks(void* (*release)(), void (*reacquire)(void*));

// Releases the interpreter lock for the guard's lifetime when `numel` is large.
class ReleaseInterpreterLock {
 public:
  explicit ReleaseInterpreterLock(int64_t numel);
  ~ReleaseInterpreterLock();
  ReleaseInterpreterLock(const ReleaseInterpreterLock&) = delete;
  ReleaseInterpreterLock& operator=(const ReleaseInterpreterLock&) = delete;

 private:
  void* token_ = nullptr;
};

}  // namespace engine::kernels
