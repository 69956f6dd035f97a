// In-place operations. The value is computed out of place (recording history if needed), written
// into self's memory, the version bumped, and self's history moved onto the new node.
#include "engine/autograd/grad_mode.h"
#include "engine/autograd/view_meta.h"
#include "engine/core/error.h"
#include "engine/core/overlap.h"
#include "engine/kernels/elementwise.h"
#include "engine/ops/complex.h"
#include "engine/ops/node_util.h"
#include "engine/ops/ops.h"

namespace engine {
// The forward op's name of a node ("View" for ViewBackward0), as PyTorch's view errors print it
// (defined with the other view messages in autograd/variable.cpp).
std::string forward_name_of(const Node& fn);
}  // namespace engine

namespace engine::ops {

namespace {

// PyTorch's handle_view_on_rebase: a view whose history could not be rebuilt unambiguously may not
// be written in place when the write involves anything that requires grad.
void check_view_creation(const Tensor& self, bool records) {
  Tensor base(self.get()->view_base);
  if (!requires_grad(base) && !records) return;
  const auto meta = static_cast<CreationMeta>(self.get()->view_creation_meta);
  if (meta == CreationMeta::Default) return;
  const auto* m = autograd_meta(self);
  const std::shared_ptr<Node> fn = m ? m->grad_fn : nullptr;
  // A view with no history of its own is described by how it was made; one with history by the
  // op that made it.
  const std::string no_grad_prefix =
      "A view was created in no_grad mode and is being modified inplace with grad mode enabled.";
  switch (meta) {
    case CreationMeta::NoGradMode:
    case CreationMeta::InferenceMode: {
      const bool inference = meta == CreationMeta::InferenceMode;
      std::string prefix = fn ? str_cat("Output ", m->output_nr, " of ", forward_name_of(*fn),
                                        " is a view of a view which was created in")
                              : std::string("A view was created in");
      throw std::runtime_error(str_cat(
          prefix,
          inference ? " inference mode and is being modified inplace in normal mode."
                    : " no_grad mode and is being modified inplace with grad mode enabled.",
          " Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your code by "
          "moving both the view and the inplace either both inside the ",
          inference ? "inference_mode" : "no_grad",
          " block (if you don't want the inplace to be tracked) or both outside (if you want the inplace to be "
          "tracked)."));
    }
    case CreationMeta::MultiOutput:
      if (!fn) {
        throw std::runtime_error(str_cat(
            no_grad_prefix,
            " This view is the output of a function that returns multiple views. Such functions do not allow the "
            "output views to be modified inplace. You should replace the inplace operation by an out-of-place "
            "one."));
      }
      throw std::runtime_error(multi_output_inplace_message(self));
    case CreationMeta::InCustomFunction: {
      const std::string prefix =
          fn ? str_cat("Output ", m->multi_output_nr, " of ", m->multi_output_fn ? m->multi_output_fn : "?",
                       " is a view and is being modified inplace.")
             : no_grad_prefix;
      throw std::runtime_error(str_cat(
          prefix,
          " This view was created inside a custom Function (or because an input was returned as-is) and the "
          "autograd logic to handle view+inplace would override the custom backward associated with the custom "
          "Function, leading to incorrect gradients. This behavior is forbidden. You can fix this by cloning the "
          "output of the custom Function."));
    }
    default:
      return;
  }
}

void check_inplace(const Tensor& self, bool records) {
  ENGINE_CHECK(!self.get()->is_inference || inference_mode_enabled(), std::runtime_error,
               "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone to get a "
               "normal tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 for more "
               "details.");
  if (!GradMode::is_enabled()) {
    // Written under no_grad, a multi-output view of a tensor that requires grad loses its history.
    if (self.is_view() && self.get()->view_creation_meta == static_cast<uint8_t>(CreationMeta::MultiOutput) &&
        requires_grad(Tensor(self.get()->view_base))) {
      ensure_autograd_meta(self).history_invalid = true;
    }
    return;
  }
  if (self.is_view() && !inference_mode_enabled()) check_view_creation(self, records);
  // A view is judged by its base first (a view without history of its own is itself a leaf).
  if (self.is_view()) {
    Tensor base(self.get()->view_base);
    if (is_leaf(base) && requires_grad(base)) {
      throw std::runtime_error("a view of a leaf Variable that requires grad is being used in an in-place operation.");
    }
  }
  if (is_leaf(self) && requires_grad(self)) {
    throw std::runtime_error("a leaf Variable that requires grad is being used in an in-place operation.");
  }
  (void)records;
}

// A tensor's history moved to a new node: retain_grad() follows it (the tensor's .grad is the
// gradient of its current value, as in PyTorch), while hooks stay with the old version.
void move_retained_grad(const Tensor& self, const std::shared_ptr<Node>& old_fn) {
  auto* m = autograd_meta(self);
  if (!m || !m->retains_grad || !m->grad_fn || m->grad_fn == old_fn) return;
  std::lock_guard<std::mutex> lock(hooks_mutex());
  if (old_fn) {
    for (auto& [nr, weak] : old_fn->retained_grads()) {
      if (weak.lock() == self.impl()) weak.reset();
    }
  }
  m->grad_fn->mark_hooked();
  m->grad_fn->retained_grads().emplace_back(m->output_nr, self.impl());
}

// The view's geometry inside its base, as a function of the base's (offsets relative to it).
ViewFn geometry_in_base(const Tensor& view, const Tensor& base) {
  const Dims vshape = view.shape(), vstrides = view.strides();
  const int64_t rel = view.offset() - base.offset();
  return [vshape, vstrides, rel](const Dims&, const Dims&, int64_t off) { return ViewGeom{vshape, vstrides, off + rel}; };
}

// After the base's history was rebased onto the write, the view's history becomes a strided view
// of the base's new node; retain_grad() follows it.
void take_history_from_base(Tensor& view, const Tensor& base, const ViewFn& fn) {
  Tensor fresh = strided_view(base, fn);
  if (const auto& node = grad_fn(fresh)) {
    // PyTorch's AsStridedBackward0 here shows the view's geometry in the base's storage.
    node->saved_values.set("size", saved_ints(view.shape()));
    node->saved_values.set("stride", saved_ints(view.strides()));
    node->saved_values.set("storage_offset", view.offset());
  }
  auto& m = ensure_autograd_meta(view);
  std::shared_ptr<Node> old_fn = m.grad_fn;
  m.grad_fn = grad_fn(fresh);
  m.output_nr = output_nr(fresh);
  note_view_history(view);
  move_retained_grad(view, old_fn);
}

// Before an in-place op reads a view it is about to overwrite: when the write will move into the
// base (commit_view), the op reads the view as a fresh strided view of the base's current
// history, not through the view's own node. That node, and the hooks registered on it, then drop
// out of the graph, as in PyTorch, whose CopySlices takes the write's place of the view's node.
void read_view_through_base(Tensor& self, bool records) {
  if (!records || !self.is_view() || !grad_fn(self)) return;
  Tensor base(self.get()->view_base);
  if (!requires_grad(base) || !base.is_contiguous()) return;
  take_history_from_base(self, base, geometry_in_base(self, base));
}

// PyTorch's CopySlices for a write made by one op: the base's new node runs the write's own node
// inside itself on the view's region of the gradient, so the graph (and the graph of a second
// derivative) holds the write's node and its backward, not a strided read of the old base.
struct CopySlicesWithWrite : Node {
  ViewFn fn;
  std::shared_ptr<Node> write;  // its input 0 is the view's old value
  std::string name() const override { return "CopySlices"; }
  variable_list apply(variable_list&& g) override {
    // A fresh contiguous buffer of the base's gradient; the view's region is then replaced by the
    // gradient the write passes to its input 0 (PyTorch's result / grad_slice).
    Tensor result = g[0].is_contiguous() ? clone(g[0]) : contiguous(g[0]);
    Tensor grad_slice = strided_view(result, fn);
    // The write may save its gradient for a second derivative: it gets a copy of the region.
    variable_list res = write->apply({clone(grad_slice)});
    variable_list out(num_outputs());
    if (should_compute_output(0)) {
      if (!res.empty() && res[0].defined()) {
        copy_(grad_slice, res[0]);
      } else {
        fill_(grad_slice, 0.0);
      }
      out[0] = result;
    }
    for (size_t i = 1; i < out.size() && i < res.size(); ++i) {
      if (should_compute_output(i)) out[i] = res[i];
    }
    return out;
  }
  void release_variables() override { write->release_variables(); }
};

bool same_edge(const Edge& a, const Edge& b) { return a.function == b.function && a.input_nr == b.input_nr; }

// Whether `e` leads to the clone an in-place op read self through (made before the write
// overwrites self, so that what the op saves stays valid), with self's history `self_edge`.
bool is_read_clone(const Edge& e, const Edge& self_edge) {
  return e.is_valid() && e.input_nr == 0 && e.function->num_outputs() == 1 &&
         same_edge(e.function->next_edges()[0], self_edge) && e.function->name() == "CloneBackward0";
}

// An op that saves its input reads self through a clone (self is about to be overwritten), so the
// clone's node sits between the op's node and self's history. The saved copy keeps that clone (a
// second derivative reaches self through it); the gradient need not, and PyTorch's graph links the
// op's node straight to self's history: its input-0 edge is pointed past the clone. Only recording
// writes get here, and the test is a few pointer compares.
void skip_read_clone(const Tensor& self, const Tensor& result) {
  const std::shared_ptr<Node>& fn = grad_fn(result);
  if (!fn || fn->num_outputs() == 0 || !GradMode::is_enabled()) return;
  Edge& e0 = fn->mutable_next_edges()[0];
  const Edge self_edge = gradient_edge(self);
  if (self_edge.is_valid() && is_read_clone(e0, self_edge)) e0 = self_edge;
}

// The node `result` was made by, when its input 0 is `self` as it is now (or the read clone of
// it): then that node alone is the write, and CopySlices can run it.
std::shared_ptr<Node> single_write_node(const Tensor& self, const Tensor& result) {
  const std::shared_ptr<Node>& fn = grad_fn(result);
  if (!fn || output_nr(result) != 0 || fn->num_outputs() == 0) return nullptr;
  const Edge self_edge = gradient_edge(self);
  const Edge& e0 = fn->next_edges()[0];
  if (!self_edge.is_valid()) return nullptr;
  if (same_edge(e0, self_edge) || is_read_clone(e0, self_edge)) return fn;
  return nullptr;
}

// An in-place write through a view whose base has (or gets) history: the base's history becomes
// "base with this region replaced by `result`" (PyTorch's CopySlices), and the view's history a
// strided view of that. Returns false when the plain path applies. `fold_write`: whether the node
// that made `result` may run inside CopySlices (not for copy_, whose source is not a write of self).
bool commit_view(Tensor& self, const Tensor& result, bool fold_write = true) {
  if (!GradMode::is_enabled() || !self.is_view()) return false;
  Tensor base(self.get()->view_base);
  if (!requires_grad(base) && !requires_grad(result)) return false;
  ENGINE_CHECK(base.is_contiguous(), std::runtime_error,
               "in-place modification of a view of a non-contiguous base tensor that requires grad is not "
               "supported; apply the operation to a clone");
  const ViewFn fn = geometry_in_base(self, base);
  std::shared_ptr<Node> write = fold_write ? single_write_node(self, result) : nullptr;
  kernels::copy(self, result);
  self.bump_version();
  if (write) {
    auto node = std::make_shared<CopySlicesWithWrite>();
    node->fn = fn;
    node->write = std::move(write);
    edge_list edges = collect_next_edges({&base});
    edges.insert(edges.end(), node->write->next_edges().begin() + 1, node->write->next_edges().end());
    node->mutable_next_edges() = std::move(edges);
    set_history(base, node);
  } else {
    rebase_history_of_view(base, result, fn);
  }
  take_history_from_base(self, base, fn);
  return true;
}

// Writes `result` (self's shape) into self and gives self result's history.
Tensor& commit(Tensor& self, const Tensor& result) {
  ENGINE_CHECK(result.shape() == self.shape(), std::runtime_error, "output with shape ", dims_str(self.shape()),
               " doesn't match the broadcast shape ", dims_str(result.shape()));
  ENGINE_CHECK(can_cast(result.dtype(), self.dtype()), std::runtime_error, "result type ",
               scalar_type_name(result.dtype()), " can't be cast to the desired output type ",
               scalar_type_name(self.dtype()));
  skip_read_clone(self, result);
  if (commit_view(self, result)) return self;
  kernels::copy(self, result);
  self.bump_version();
  if (const auto& fn = grad_fn(result); fn && GradMode::is_enabled()) {
    // `result` is a fresh tensor: its node's only output is slot 0, which now belongs to self.
    auto& m = ensure_autograd_meta(self);
    std::shared_ptr<Node> old_fn = m.grad_fn;
    m.grad_fn = fn;
    m.output_nr = output_nr(result);
    note_view_history(self);
    move_retained_grad(self, old_fn);
  }
  return self;
}

// Whether `other` can be read while `self` is written element by element: separate memory, or
// exactly the same elements in the same order.
bool reads_safely(const Tensor& self, const Tensor& other) {
  return self.get()->storage != other.get()->storage || same_elements(self, other);
}

// Without history to record, the kernel writes straight into self when the result has self's
// dtype and shape and no element of self is read after another one was written.
bool direct_ok(const Tensor& self, const Tensor& other) {
  if (self.dtype() == DType::Bool || other.dtype() == DType::Bool) return false;  // keeps the ops' own checks
  if (is_complex(self.dtype()) || is_complex(other.dtype())) return false;  // computed through the real view
  if (result_type(self, other) != self.dtype()) return false;
  // A 16-bit self with another operand type computes in float32 (see ops::add), not in the kernel.
  if (is_reduced_floating(self.dtype()) && other.dtype() != self.dtype()) return false;
  if (broadcast_shapes(self.shape(), other.shape()) != self.shape()) return false;
  return reads_safely(self, other);
}

// `alpha`: add_ / sub_'s factor on other, applied in the same pass (self + alpha * other).
template <typename F>
Tensor& inplace(Tensor& self, const Tensor& other, F op, kernels::BinaryOp direct_op, bool direct = true,
                double alpha = 1.0) {
  const bool records = compute_requires_grad({&self, &other});
  check_inplace(self, records);
  check_no_internal_overlap(self);
  check_no_partial_overlap(self, other);
  read_view_through_base(self, records);
  if (direct && !records && direct_ok(self, other)) {
    Tensor o = other;
    if (o.dtype() != self.dtype()) {
      o = Tensor::empty(other.shape(), self.dtype());
      kernels::copy(o, other);
    }
    if (alpha == 1.0) {
      kernels::binary(direct_op, self, self, o);
    } else {
      kernels::add_scaled(self, self, o, direct_op == kernels::BinaryOp::Sub ? -alpha : alpha);
    }
    self.bump_version();
    return self;
  }
  return commit(self, op());
}

}  // namespace

// A view an autograd.Function wrote in place (ctx.mark_dirty), just given that Function's node as
// its history: the history moves into the base as a built-in in-place op's does (commit_view),
// so gradients that reach the base, or any other view of it, pass through the Function's backward.
void rebase_dirty_view(Tensor& view) {
  if (!GradMode::is_enabled() || !view.is_view() || !grad_fn(view)) return;
  Tensor base(view.get()->view_base);
  ENGINE_CHECK(base.is_contiguous(), std::runtime_error,
               "in-place modification of a view of a non-contiguous base tensor that requires grad is not "
               "supported; apply the operation to a clone");
  const ViewFn fn = geometry_in_base(view, base);
  // The Function's output, as an alias carrying its history: the source of the base's new node.
  Tensor src = detach(view);
  auto& sm = ensure_autograd_meta(src);
  sm.grad_fn = grad_fn(view);
  sm.output_nr = output_nr(view);
  rebase_history_of_view(base, src, fn);
  take_history_from_base(view, base, fn);
}

// With alpha, the 16-bit floats round alpha * other to their own type before adding (ops::add):
// they keep the fresh path; every other dtype fuses the product into the one pass.
Tensor& add_(Tensor& self, const Tensor& other, double alpha) {
  return inplace(self, other, [&] { return add(self, other, alpha); }, kernels::BinaryOp::Add,
                 alpha == 1.0 || !is_reduced_floating(self.dtype()), alpha);
}
Tensor& sub_(Tensor& self, const Tensor& other, double alpha) {
  return inplace(self, other, [&] { return sub(self, other, alpha); }, kernels::BinaryOp::Sub,
                 alpha == 1.0 || !is_reduced_floating(self.dtype()), alpha);
}
// mul and div save their inputs for backward; overwriting self would invalidate the saved copy, so
// when recording they read self through a (differentiable) clone, as PyTorch saves original_self.
static Tensor saved_self(const Tensor& self, const Tensor& other) {
  return compute_requires_grad({&other}) ? clone(self) : self;
}
Tensor& mul_(Tensor& self, const Tensor& other) {
  return inplace(self, other, [&] { return mul(saved_self(self, other), other); }, kernels::BinaryOp::Mul);
}
Tensor& div_(Tensor& self, const Tensor& other) {
  return inplace(self, other, [&] { return div(saved_self(self, other), other); }, kernels::BinaryOp::Div,
                 is_floating(self.dtype()));
}

namespace {
// self (op)= v for a Python number v. A float32 / float64 self takes the number as a value: written
// straight into its memory when nothing records, else the fresh op (`fresh`, which saves no copy
// of self) is committed as every in-place op's result is. Other dtypes keep the wrapped 0-d operand
// (`wrapped`), whose promotion rules and result-type errors they need.
template <typename Fresh, typename Wrapped>
Tensor& inplace_number(Tensor& self, kernels::BinaryOp op, double v, DType number_dtype, Fresh fresh, Wrapped wrapped) {
  const DType dt = self.dtype();
  if (dt != DType::Float32 && dt != DType::Float64) return wrapped(number_as_tensor(v, number_dtype, dt));
  const bool records = compute_requires_grad({&self});
  check_inplace(self, records);
  check_no_internal_overlap(self);
  read_view_through_base(self, records);
  if (records) return commit(self, fresh());
  const double rounded = dt == DType::Float32 ? static_cast<double>(static_cast<float>(v)) : v;
  if (!kernels::binary_number(op, self, self, rounded)) kernels::binary(op, self, self, wrapped_scalar(rounded, dt));
  self.bump_version();
  return self;
}
}  // namespace

Tensor& add_number_(Tensor& self, double v, DType number_dtype) {
  return inplace_number(self, kernels::BinaryOp::Add, v, number_dtype, [&] { return add_number(self, v, number_dtype); },
                        [&](const Tensor& n) -> Tensor& { return add_(self, n); });
}
Tensor& sub_number_(Tensor& self, double v, DType number_dtype) {
  return inplace_number(self, kernels::BinaryOp::Sub, v, number_dtype, [&] { return sub_number(self, v, number_dtype); },
                        [&](const Tensor& n) -> Tensor& { return sub_(self, n); });
}
Tensor& mul_number_(Tensor& self, double v, DType number_dtype) {
  return inplace_number(self, kernels::BinaryOp::Mul, v, number_dtype, [&] { return mul_number(self, v, number_dtype); },
                        [&](const Tensor& n) -> Tensor& { return mul_(self, n); });
}
Tensor& div_number_(Tensor& self, double v, DType number_dtype) {
  return inplace_number(self, kernels::BinaryOp::Div, v, number_dtype, [&] { return div_number(self, v, number_dtype); },
                        [&](const Tensor& n) -> Tensor& { return div_(self, n); });
}

Tensor& apply_(Tensor& self, const std::function<Tensor(const Tensor&)>& f, const Tensor* other) {
  const bool records = compute_requires_grad({&self, other ? other : &self});
  check_inplace(self, records);
  check_no_internal_overlap(self);
  if (other) check_no_partial_overlap(self, *other);
  read_view_through_base(self, records);
  // A recording op may save its input; it must see a copy, since self is about to be overwritten.
  return commit(self, f(records ? clone(self) : self));
}

Tensor& apply_(Tensor& self, const std::function<Tensor(const Tensor&)>& f, const TensorList& others) {
  bool records = compute_requires_grad({&self});
  for (const Tensor& o : others) records = records || compute_requires_grad({&o});
  check_inplace(self, records);
  check_no_internal_overlap(self);
  for (const Tensor& o : others) check_no_partial_overlap(self, o);
  read_view_through_base(self, records);
  return commit(self, f(records ? clone(self) : self));
}

Tensor& restride_(Tensor& self, const std::function<Tensor(const Tensor&)>& view_fn) {
  check_inplace(self, compute_requires_grad({&self}));
  const Tensor view = view_fn(self);
  // The view function is the caller's (a Python callable through _restride_): another tensor's
  // memory is a usage error, not a broken invariant.
  ENGINE_CHECK(view.defined() && view.get()->storage == self.get()->storage, ValueError,
               "_restride_(): the view function must return a view of the tensor it was given");
  // Read before the version moves: afterwards the view's history would count as stale.
  const std::shared_ptr<Node> fn = grad_fn(view);
  TensorImpl* impl = self.get();
  impl->shape = view.shape();
  impl->strides = view.strides();
  impl->offset = view.offset();
  impl->refresh_layout();
  self.bump_version();
  if (fn && GradMode::is_enabled()) {
    // The view's node reads self's old history; self now stands for the view's output.
    auto& m = ensure_autograd_meta(self);
    m.grad_fn = fn;
    m.output_nr = output_nr(view);
    note_view_history(self);
  }
  return self;
}

namespace {

// The node of an in-place write that replaces every value of self (PyTorch's ZeroBackward0,
// FillBackward2, FillBackward3, CopyBackwards): self's old value gets a zero gradient (it no
// longer matters, but its graph still runs, as in PyTorch); the source, if any, the gradient
// itself (the engine sums it back to the source's shape) or, for fill_'s 0-d value, its sum.
struct OverwriteBackward : Node {
  enum class Source : uint8_t { None, Whole, Summed };
  const char* node_name = "";
  Source source = Source::None;
  bool source_real = false;  // a real source copied into a complex self takes the real part back
  std::string name() const override { return node_name; }
  variable_list apply(variable_list&& g) override {
    variable_list out(num_outputs());
    if (should_compute_output(0)) out[0] = zeros(g[0].shape(), g[0].dtype());
    if (source != Source::None && should_compute_output(1)) {
      Tensor gs = source_real && is_complex(g[0].dtype()) ? real(g[0]) : g[0];
      out[1] = source == Source::Summed ? sum_to(gs, Dims{}) : gs;
    }
    return out;
  }
};

// `values` (self's shape and dtype, fresh) written into self as the result of `node_name`, whose
// node links self's old history and, when given, the source's.
Tensor& commit_overwrite(Tensor& self, Tensor values, const char* node_name, const Tensor* source,
                         OverwriteBackward::Source kind) {
  const Tensor* inputs[2] = {&self, source ? source : &self};
  auto node = std::make_shared<OverwriteBackward>();
  node->node_name = node_name;
  node->source = source ? kind : OverwriteBackward::Source::None;
  node->source_real = source && !is_complex(source->dtype());
  node->mutable_next_edges() = source ? collect_next_edges({inputs[0], inputs[1]}) : collect_next_edges({&self});
  set_history(values, node);
  return commit(self, values);
}

}  // namespace

Tensor& fill_(Tensor& self, double value) {
  const bool records = compute_requires_grad({&self});
  check_inplace(self, records);
  if (records) {
    return commit_overwrite(self, full(self.shape(), value, self.dtype()), "FillBackward2",
                            nullptr, OverwriteBackward::Source::None);
  }
  if (commit_view(self, full(self.shape(), value, self.dtype()))) return self;
  kernels::fill(self, value);
  self.bump_version();
  if (GradMode::is_enabled() && grad_fn(self)) {
    // The new value no longer depends on the old history.
    ensure_autograd_meta(self).grad_fn.reset();
  }
  return self;
}

Tensor& fill_(Tensor& self, const Tensor& value) {
  ENGINE_CHECK(value.dim() == 0, std::runtime_error,
               "fill_ only supports 0-dimension value tensor but got tensor with ", value.dim(), " dimensions.");
  const bool records = compute_requires_grad({&self, &value});
  check_inplace(self, records);
  Tensor values = full(self.shape(), detach(value), self.dtype());
  if (records) return commit_overwrite(self, std::move(values), "FillBackward3", &value, OverwriteBackward::Source::Summed);
  if (commit_view(self, values)) return self;
  kernels::copy(self, values);
  self.bump_version();
  if (GradMode::is_enabled() && grad_fn(self)) ensure_autograd_meta(self).grad_fn.reset();
  return self;
}

Tensor& zero_(Tensor& self) {
  const bool records = compute_requires_grad({&self});
  if (!records) return fill_(self, 0.0);
  check_inplace(self, records);
  return commit_overwrite(self, zeros(self.shape(), self.dtype()), "ZeroBackward0", nullptr,
                          OverwriteBackward::Source::None);
}

Tensor& copy_(Tensor& self, const Tensor& src) {
  ENGINE_CHECK(is_expandable_to(src.shape(), self.shape()), std::runtime_error, "output with shape ",
               dims_str(self.shape()), " doesn't match the broadcast shape ",
               dims_str(broadcast_shapes(self.shape(), src.shape())));
  const bool records = compute_requires_grad({&self, &src});
  check_inplace(self, records);
  check_no_internal_overlap(self);
  check_no_partial_overlap(self, src);
  if (!records) {
    if (commit_view(self, expand(src, self.shape()))) return self;
    // Layouts too irregular to compare may still share elements: read from a copy then.
    const Tensor from = overlap_status(self, src) == Overlap::TooHard ? clone(detach(src)) : src;
    kernels::copy(self, from);
    self.bump_version();
    if (GradMode::is_enabled() && grad_fn(self)) ensure_autograd_meta(self).grad_fn.reset();
    return self;
  }
  // d(self)/d(src) is the identity (summed over broadcast dims): PyTorch's CopyBackwards, which
  // gives self's old value a zero gradient; through a view CopySlices runs it on the region.
  Tensor values = Tensor::empty(self.shape(), self.dtype());
  kernels::copy(values, src);
  return commit_overwrite(self, std::move(values), "CopyBackwards", &src, OverwriteBackward::Source::Whole);
}

}  // namespace engine::ops
