#include "engine/kernels/parallel.h"

#include "engine/core/fast_tls.h"

#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace engine::kernels {

namespace {

void* (*g_release)() = nullptr;
void (*g_reacquire)(void*) = nullptr;

ENGINE_FAST_TLS thread_local bool t_in_parallel = false;

int default_threads() {
  if (const char* env = std::getenv("ENGINE_NUM_THREADS")) {
    const int n = std::atoi(env);
    if (n >= 1) return std::min(n, 64);
  }
  const unsigned hw = std::thread::hardware_concurrency();
  return hw == 0 ? 1 : static_cast<int>(std::min(hw, 64u));
}

std::atomic<int> g_threads{0};

// Waits for `ready()` by spinning for up to `micros` microseconds; true when it came. Parallel
// kernels come in runs (an optimizer's parameters one after another, the ops of a layer), and
// waking a sleeping thread through the kernel costs tens of microseconds on a virtual machine:
// more than a chunk of work. So workers keep watching for the next job a little while after each
// one, and the caller for the workers' last chunks, before they sleep (as OpenMP runtimes do).
template <typename Ready>
bool spin_until(Ready ready, int64_t micros) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::microseconds(micros);
  while (true) {
    for (int i = 0; i < 64; ++i) {
      if (ready()) return true;
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
    }
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::yield();  // a thread with real work on this core (BLAS's, the caller's) goes first
  }
}

constexpr int64_t kWorkerSpinMicros = 200, kCallerSpinMicros = 1000;

// One job at a time: workers sleep on a generation counter and, when it moves, claim chunks of
// the current job with an atomic counter until none is left.
class Pool {
 public:
  explicit Pool(int workers) {
    for (int i = 0; i < workers; ++i) threads_.emplace_back([this] { work(); });
  }
  int workers() const { return static_cast<int>(threads_.size()); }

  // Returns false (having done nothing) when another caller holds the pool.
  bool run(int64_t chunks, const std::function<void(int64_t)>& body) {
    std::unique_lock<std::mutex> busy(busy_, std::try_to_lock);
    if (!busy.owns_lock()) return false;
    {
      std::lock_guard<std::mutex> lock(mu_);
      body_ = &body;
      chunks_ = chunks;
      next_.store(0);
      pending_ = chunks;
      error_ = nullptr;
      ++generation_;
    }
    wake_.notify_all();
    drain();
    spin_until([this] { return pending_.load() == 0; }, kCallerSpinMicros);
    std::unique_lock<std::mutex> lock(mu_);
    done_.wait(lock, [this] { return pending_.load() == 0; });
    body_ = nullptr;
    if (error_) std::rethrow_exception(error_);
    return true;
  }

 private:
  void drain() {
    const bool was = t_in_parallel;
    t_in_parallel = true;
    int64_t finished = 0;
    std::exception_ptr err;
    for (int64_t c; (c = next_.fetch_add(1)) < chunks_;) {
      try {
        (*body_)(c);
      } catch (...) {
        if (!err) err = std::current_exception();
      }
      ++finished;
    }
    t_in_parallel = was;
    if (finished == 0 && !err) return;
    std::lock_guard<std::mutex> lock(mu_);
    if (err && !error_) error_ = err;
    if (pending_.fetch_sub(finished) == finished) done_.notify_all();
  }

  void work() {
    uint64_t seen = 0;
    while (true) {
      spin_until([&] { return generation_.load() != seen; }, kWorkerSpinMicros);
      {
        std::unique_lock<std::mutex> lock(mu_);
        wake_.wait(lock, [&] { return generation_ != seen; });
        seen = generation_;
        if (!body_) continue;
      }
      drain();
    }
  }

  std::vector<std::thread> threads_;
  std::mutex busy_, mu_;
  std::condition_variable wake_, done_;
  const std::function<void(int64_t)>* body_ = nullptr;
  int64_t chunks_ = 0;
  std::atomic<int64_t> next_{0}, pending_{0};
  std::atomic<uint64_t> generation_{0};
  std::exception_ptr error_;
};

std::mutex g_pool_mu;
Pool* g_pool = nullptr;  // leaked on purpose: workers never join at interpreter exit

void forget_pool_after_fork() {
  // The child has none of the parent's threads; it builds a fresh pool when it needs one.
  new (&g_pool_mu) std::mutex();
  g_pool = nullptr;
}

Pool* pool(int workers) {
  std::lock_guard<std::mutex> lock(g_pool_mu);
  if (!g_pool || g_pool->workers() < workers) {
    static bool registered = [] { return pthread_atfork(nullptr, nullptr, forget_pool_after_fork) == 0; }();
    (void)registered;
    g_pool = new Pool(workers);  // a smaller pool from before is simply abandoned (idle)
  }
  return g_pool;
}

}  // namespace

int num_threads() {
  int n = g_threads.load(std::memory_order_relaxed);
  if (n == 0) {
    n = default_threads();
    g_threads.store(n, std::memory_order_relaxed);
  }
  return n;
}

void set_num_threads(int n) { g_threads.store(std::max(1, std::min(n, 64)), std::memory_order_relaxed); }

void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& f) {
  if (n <= 0) return;
  grain = std::max<int64_t>(grain, 1);
  const int threads = num_threads();
  if (n <= grain || threads <= 1 || t_in_parallel) {
    f(0, n);
    return;
  }
  const int64_t chunks = std::min<int64_t>(threads, (n + grain - 1) / grain);
  const int64_t step = (n + chunks - 1) / chunks;
  std::function<void(int64_t)> body = [&](int64_t c) {
    const int64_t b = c * step, e = std::min(n, b + step);
    if (b < e) f(b, e);
  };
  if (!pool(threads - 1)->run(chunks, body)) f(0, n);
}

void parallel_for_items(int64_t n, const std::function<void(int64_t)>& f) {
  const int threads = num_threads();
  if (n <= 1 || threads <= 1 || t_in_parallel || !pool(threads - 1)->run(n, f)) {
    for (int64_t i = 0; i < n; ++i) f(i);
  }
}

bool in_parallel_region() { return t_in_parallel; }

void set_interpreter_lock_hooks(void* (*release)(), void (*reacquire)(void*)) {
  g_release = release;
  g_reacquire = reacquire;
}

ReleaseInterpreterLock::ReleaseInterpreterLock(int64_t numel) {
  if (numel >= kReleaseLockNumel && g_release) token_ = g_release();
}

ReleaseInterpreterLock::~ReleaseInterpreterLock() {
  if (token_) g_reacquire(token_);
}

}  // namespace engine::kernels
