#pragma once
// Custom autograd Functions: the ctx object's native state and PyNode, the graph node that calls
// the user's Python `backward`.
#include <pybind11/pybind11.h>

#include <atomic>

#include "engine/autograd/node.h"
#include "engine/autograd/saved_tensor.h"
#include "engine/core/small_vector.h"
#include "engine/python/tensor_caster.h"

namespace engine::python {

namespace py = pybind11;
class PyNode;

// A saved tensor kept as what a saved_tensors_hooks pack hook returned: unpacking calls
// `unpack(packed)` (defined with the graph bindings, which pack built-in ops' saved tensors alike).
std::shared_ptr<PackedTensor> hook_packed_tensor(py::object unpack, py::object packed);

// The native part of a ctx (the Python object is an instance of a subclass named <Fn>Backward,
// whose __dict__ holds the user's attributes).
//
// The ctx owns its node. Every shared_ptr the graph holds to that node shares one control block
// whose deleter releases a reference to the ctx instead of deleting the node: the graph keeps the
// ctx (and so the node) alive, a Python reference to `y.grad_fn` keeps the node alive after the
// outputs are gone, as in PyTorch, and no reference cycle forms.
struct FunctionCtx : PooledObject {  // one per apply: pooled (see allocate_object)
  FunctionCtx();
  ~FunctionCtx();

  std::unique_ptr<PyNode> owned_node;  // null when apply built no node
  std::weak_ptr<PyNode> node;          // the live control block, if any (see share_node)
  py::tuple needs_input_grad;
  // What save_for_backward was given, kept as Python objects until the outputs are wrapped; then
  // converted to SavedTensors (outputs saved without a cycle).
  py::tuple to_save;
  std::vector<SavedTensor> saved;
  // Atomic: the backward pass reads it without the GIL, to skip taking the GIL for a node that
  // saved nothing (only forward, holding the GIL, writes it).
  std::atomic<bool> has_saved{false};
  bool saved_released = false;
  bool materialize_grads = true;
  py::tuple non_differentiable;
  py::tuple dirty;
  // saved_intermediate[i]: saved[i] is neither an input nor an output (a value computed in forward).
  std::vector<bool> saved_intermediate;
  // subclass_saved[i]: the Python object of an intermediate saved[i] whose type is a Tensor
  // subclass (a sparse tensor, say), kept so saved_tensors gives that object back as PyTorch
  // does; null otherwise. An intermediate has no history, so this forms no cycle.
  std::vector<py::object> subclass_saved;
  // Tensor-valued attributes (ctx.x = t), kept like saved tensors once apply has finished: no
  // reference cycle through a stored output, and a version check when read. See CtxTensorAttr.
  struct Attr {
    py::object name;
    SavedTensor value;
    bool intermediate = false;
  };
  std::vector<Attr> attrs;
  bool in_backward = false;  // the node's backward is running (values read now may be differentiated)

  py::tuple saved_tensors(const std::shared_ptr<Node>& owner);
  // Unpacks a saved value for a read; under a differentiable backward, a value computed in forward
  // comes back wrapped in an ErrorNode (see error_node.h), `what` naming it in the message.
  Tensor unpack(const SavedTensor& s, bool intermediate, const std::shared_ptr<Node>& owner, const std::string& what);
};

// saved_tensors_hooks(pack, unpack) in force on this thread, innermost last.
std::vector<std::pair<py::object, py::object>>& saved_tensors_hooks_stack();

// A Python callable held by native hooks: released with the GIL held, wherever the last copy dies.
struct PyFn {
  explicit PyFn(py::object f) : fn(std::move(f)) {}
  ~PyFn() {
    if (!Py_IsInitialized()) {
      fn.release();
      return;
    }
    py::gil_scoped_acquire gil;
    fn = py::object();
  }
  py::object fn;
};

// Hooks that keep Python objects, for the cycle GC: note_python_hook records one on its node;
// traverse_node_hooks visits them (and the node's metadata dict); clear_node_hooks drops the
// node's hooks and metadata (tp_clear). Need the GIL.
void note_python_hook(Node& node, const std::shared_ptr<PyFn>& fn);
int traverse_node_hooks(Node& node, visitproc visit, void* arg);
void clear_node_hooks(Node& node);

// py_graph.cpp: the Python object of a built-in node (an instance of its own class, named for
// the node); a tensor or GradientEdge given as `inputs=` as a graph edge; the graph API bindings.
py::object builtin_node_to_py(const std::shared_ptr<Node>& node);
Edge edge_from_py(py::handle obj);
void init_graph(py::module_& m);
// grad_fn._raw_saved_<name>: a torch._C._autograd.SavedTensor handle on `owner`'s saved tensor `name`.
py::object raw_saved_tensor_ref(const std::shared_ptr<Node>& owner, const std::string& name);
// A copy of `name` that lives as long as the process (one per distinct name), for tensors' metadata.
const char* interned_name(const std::string& name);

// A shared_ptr to the ctx's node (null if it has none), holding a reference to the ctx. Needs the GIL.
std::shared_ptr<PyNode> share_node(FunctionCtx& c);

class PyNode : public Node {
 public:
  // `ctx` is borrowed: the ctx owns this node (see FunctionCtx). `name` and `forward_name` live in
  // `info`, the class's _engine_info object, which the node keeps: no string is copied per call.
  PyNode(PyObject* ctx, FunctionCtx* native, py::object info, const std::string* name,
         const std::string* forward_name);

  variable_list apply(variable_list&& grads) override;
  std::string name() const override { return *name_; }
  std::string producer_name() const override { return *forward_name_; }
  void release_variables() override;
  bool skips_undefined_inputs() const override { return false; }
  // ctx.save_for_backward's tensors, named by position ("0", "1", ...): ctx._raw_saved_tensors.
  void visit_saved(const SavedVisitor& visit) override;

  // A new reference to the ctx object (y.grad_fn).
  py::object ctx() const { return py::reinterpret_borrow<py::object>(ctx_); }
  FunctionCtx* native() const { return native_; }

  // Per-position flags, inline for the few inputs and outputs a Function has (no allocation).
  using Flags = SmallVector<bool, 8>;
  // Filled by apply(): for every forward input position, whether it is a tensor (has an edge).
  Flags input_is_tensor;
  // For every forward output position: whether it is a tensor, and its metadata slot.
  Flags output_is_tensor;
  // For every forward output position: whether it has no gradient (marked non-differentiable, or
  // not of a floating type).
  Flags output_non_differentiable;
  // The class's backward (vjp), looked up once per class. Dropped with the node, which happens
  // only when the ctx is deallocated, so with the GIL held.
  py::object backward_fn;

 private:
  PyObject* ctx_;
  FunctionCtx* native_;
  py::object info_;
  const std::string* name_;
  const std::string* forward_name_;
};

}  // namespace engine::python
