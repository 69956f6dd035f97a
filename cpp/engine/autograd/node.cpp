#include "engine/autograd/node.h"

#include "engine/core/fast_tls.h"

#include <atomic>

namespace engine {

namespace {
std::atomic<uint64_t> g_next_sequence_nr{0};

// Dropping the last reference to a long chain would recurse once per node in the destructors and
// overflow the stack. Instead, a destructor running inside another hands its edges to this
// per-thread list, and only the outermost destructor drains it, in a loop.
struct Pending {
  std::vector<std::shared_ptr<Node>> nodes;
  std::vector<std::unique_ptr<DeferredRelease>> others;
  std::vector<std::pair<void (*)(void*), void*>> calls;  // see defer_release_call
};
ENGINE_FAST_TLS thread_local Pending* t_pending = nullptr;

// Runs `seed` as the outermost teardown and drains everything nested destructors defer.
template <typename Seed>
void run_teardown(Seed seed) {
  Pending pending;
  t_pending = &pending;
  seed(pending);
  while (!pending.nodes.empty() || !pending.others.empty() || !pending.calls.empty()) {
    if (!pending.calls.empty()) {
      auto [release, arg] = pending.calls.back();
      pending.calls.pop_back();
      release(arg);
    } else if (!pending.others.empty()) {
      std::unique_ptr<DeferredRelease> r = std::move(pending.others.back());
      pending.others.pop_back();
      r.reset();
    } else {
      std::shared_ptr<Node> n = std::move(pending.nodes.back());
      pending.nodes.pop_back();
      n.reset();  // may run another ~Node, which only appends to `pending`
    }
  }
  t_pending = nullptr;
}
}  // namespace

void defer_release(std::unique_ptr<DeferredRelease> r) {
  if (t_pending) {
    t_pending->others.push_back(std::move(r));
    return;
  }
  run_teardown([&](Pending& p) { p.others.push_back(std::move(r)); });
}

// defer_release for a plain function and its argument: no DeferredRelease object is allocated (a
// custom Function's node gives its ctx back this way, once per node). Declared where it is used.
void defer_release_call(void (*release)(void*), void* arg) {
  if (t_pending) {
    t_pending->calls.emplace_back(release, arg);
    return;
  }
  run_teardown([&](Pending&) { release(arg); });
}

std::mutex& hooks_mutex() {
  static std::mutex mu;
  return mu;
}

Node::Node() : sequence_nr_(g_next_sequence_nr.fetch_add(1, std::memory_order_relaxed)) {}

Node::~Node() {
  auto hand_over = [this](Pending& p) {
    for (auto& e : next_edges_) {
      if (e.function) p.nodes.push_back(std::move(e.function));
    }
  };
  if (t_pending) {
    hand_over(*t_pending);
  } else {
    run_teardown(hand_over);
  }
}

uint32_t Node::add_input_metadata(const Tensor& t) {
  input_metadata_.push_back(InputMetadata{t.shape(), t.dtype()});
  return static_cast<uint32_t>(input_metadata_.size() - 1);
}

}  // namespace engine
