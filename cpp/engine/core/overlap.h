#pragma once
// Whether tensors share memory in a way that makes an elementwise write read its own output: the
// checks PyTorch applies before in-place ops, copy_ and out= (its "mem overlap" rules), so the
// same calls fail with the same message instead of computing from half-overwritten inputs.
#include "engine/core/tensor.h"

namespace engine {

enum class Overlap {
  None,     // no element in common
  Full,     // exactly the same elements in the same order
  Partial,  // some elements in common
  TooHard,  // same storage, layouts too irregular to decide cheaply
};

// Every element at a distinct offset and the offsets filling one contiguous range, in some order
// of dimensions (a permuted contiguous tensor qualifies; a sliced or expanded one does not).
bool non_overlapping_and_dense(const Tensor& t);
// How the elements of a and b relate (PyTorch's get_overlap_status).
Overlap overlap_status(const Tensor& a, const Tensor& b);
// True when a and b are the same elements in the same order (writing a while reading b is safe).
bool same_elements(const Tensor& a, const Tensor& b);
// "unsupported operation: more than one element of the written-to tensor refers to a single memory
// location" when `written` repeats a memory location (a stride of 0 over a size above 1).
void check_no_internal_overlap(const Tensor& written);
// "unsupported operation: some elements of the input tensor and the written-to tensor refer to a
// single memory location" when `read` partially overlaps `written`.
void check_no_partial_overlap(const Tensor& written, const Tensor& read);

}  // namespace engine
