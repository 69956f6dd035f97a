// Convolution, transposed convolution and the im2col / col2im pair (F.unfold / F.fold) they rest
// on. The forward passes are native (im2col + one GEMM per block of samples, or for float32 with
// unit strides on AVX-512 or AVX2 the direct kernel of conv_direct.h). The backward rule is
// written with im2col, col2im and matmul, which are differentiable themselves, so double backward
// works; when nothing records (no create_graph) the same gradients come from the native kernels.
#include <limits>
#include <sstream>
#include <type_traits>

#include "engine/autograd/grad_mode.h"
#include "engine/core/checked.h"
#include "engine/autograd/edge_use.h"
#include "engine/core/error.h"
#include "engine/kernels/conv.h"
#include "engine/kernels/conv_direct.h"
#include "engine/kernels/parallel.h"
#include "engine/ops/node_util.h"
#include "engine/ops/float_dispatch.h"
#include "engine/ops/ops.h"

namespace engine::ops {

namespace {

std::string list_str(const Dims& d, const char* sep = ", ") {
  std::ostringstream os;
  for (size_t i = 0; i < d.size(); ++i) os << (i ? sep : "") << d[i];
  return os.str();
}

Dims spatial_of(const Tensor& t) { return Dims(t.shape().begin() + 2, t.shape().end()); }

// The geometry of windows over `image` (spatial size) producing `positions` window positions.
kernels::ConvGeometry geometry(const Dims& image, const Dims& positions, const Dims& kernel, const Dims& stride,
                               const Dims& padding, const Dims& dilation) {
  kernels::ConvGeometry g;
  const size_t n = kernel.size(), lead = 3 - n;
  ENGINE_ASSERT(n >= 1 && n <= 3);
  for (size_t i = 0; i < n; ++i) {
    g.in[lead + i] = image[i];
    g.out[lead + i] = positions[i];
    g.kernel[lead + i] = kernel[i];
    g.stride[lead + i] = stride[i];
    g.padding[lead + i] = padding[i];
    g.dilation[lead + i] = dilation[i];
  }
  return g;
}

// Window positions along one dim: floor((in + 2p - d(k-1) - 1) / s) + 1 (may be <= 0).
int64_t positions_along(int64_t in, int64_t k, int64_t s, int64_t p, int64_t d) {
  int64_t span = checked_mul(d, k - 1, "convolution") + 1, padded = in;
  ENGINE_CHECK(add_fits(in, checked_mul(2, p, "convolution"), &padded), std::runtime_error,
               "convolution: integer addition overflow");
  const int64_t r = padded - span;
  return r < 0 ? (r + 1 - s) / s + 1 : r / s + 1;  // floor division for negative r
}

void check_window_args(const char* fname, size_t nsp, const Dims& kernel, const Dims& stride, const Dims& padding,
                       const Dims& dilation) {
  ENGINE_CHECK(nsp >= 1 && nsp <= 3 && kernel.size() == nsp && stride.size() == nsp && padding.size() == nsp &&
                   dilation.size() == nsp,
               std::runtime_error, fname, ": expected kernel_size, stride, padding and dilation with ", nsp,
               " values each");
  for (size_t i = 0; i < nsp; ++i) {
    ENGINE_CHECK(kernel[i] > 0, std::runtime_error, fname, ": kernel size should be greater than zero, but got ",
                 dims_str(kernel));
    ENGINE_CHECK(stride[i] > 0, std::runtime_error, fname, ": stride should be greater than zero, but got ",
                 dims_str(stride));
    ENGINE_CHECK(padding[i] >= 0, std::runtime_error, fname, ": padding should be non-negative, but got ",
                 dims_str(padding));
    ENGINE_CHECK(dilation[i] > 0, std::runtime_error, fname, ": dilation should be greater than zero, but got ",
                 dims_str(dilation));
  }
}

// The C type names PyTorch's dtype-mismatch messages use.
const char* type_label(DType d) { return d == DType::Float32 ? "float" : d == DType::Float64 ? "double" : scalar_type_name(d); }

void check_float(const Tensor& t, const char* fname) {
  ENGINE_CHECK(is_floating(t.dtype()), NotImplementedError, "\"", fname, "\" not implemented for '",
               scalar_type_name(t.dtype()), "'");
}

// Samples per thread task: enough elements that waking a thread pays off.
int64_t sample_grain(int64_t elements_per_sample) {
  return std::max<int64_t>(1, kernels::kParallelGrain / std::max<int64_t>(elements_per_sample, 1));
}

struct WindowArgs {
  Dims kernel, stride, padding, dilation;
};

struct Im2ColBackward0 : BuiltinNode<Im2ColBackward0> {
  static constexpr const char* kName = "Im2ColBackward0";
  WindowArgs w;
  Dims image;
  variable_list apply(variable_list&& g) override {
    return {col2im(g[0], image, w.kernel, w.dilation, w.padding, w.stride)};
  }
};

struct Col2ImBackward0 : BuiltinNode<Col2ImBackward0> {
  static constexpr const char* kName = "Col2ImBackward0";
  WindowArgs w;
  variable_list apply(variable_list&& g) override {
    return {im2col(g[0], w.kernel, w.dilation, w.padding, w.stride)};
  }
};

}  // namespace

Tensor im2col(const Tensor& x, const Dims& kernel, const Dims& dilation, const Dims& padding, const Dims& stride) {
  if (is_16bit_float(x.dtype())) {
    return to_dtype(im2col(to_dtype(x, DType::Float32), kernel, dilation, padding, stride), x.dtype());
  }
  const size_t nsp = kernel.size();
  ENGINE_CHECK(x.dim() == static_cast<int64_t>(nsp) + 2, std::runtime_error, "im2col: expected a ", nsp + 2,
               "-D input, but got input of size: ", dims_str(x.shape()));
  check_window_args("im2col", nsp, kernel, stride, padding, dilation);
  check_float(x, "im2col");
  const Dims image = spatial_of(x);
  Dims positions(nsp);
  for (size_t i = 0; i < nsp; ++i) {
    positions[i] = positions_along(image[i], kernel[i], stride[i], padding[i], dilation[i]);
    ENGINE_CHECK(positions[i] >= 1, std::runtime_error, "Given input with spatial size (", list_str(image),
                 "), kernel_size=(", list_str(kernel), "), dilation=(", list_str(dilation), "), padding=(",
                 list_str(padding), "), calculated shape of the array of sliding blocks as (", list_str(positions),
                 "), but its components must be at least one.");
  }
  const int64_t N = x.shape()[0], C = x.shape()[1];
  const int64_t K = numel_of(kernel), L = numel_of(positions);
  Tensor out = Tensor::empty({N, checked_mul(C, K, "im2col"), L}, x.dtype());
  Tensor xc = contiguous(detach(x));
  const auto geom = geometry(image, positions, kernel, stride, padding, dilation);
  const int64_t plane = numel_of(image);
  ENGINE_DISPATCH_FLOAT32_64(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* src = xc.data<T>();
    T* dst = out.data<T>();
    kernels::ReleaseInterpreterLock unlocked(out.numel());
    kernels::parallel_for(N, sample_grain(C * K * L), [&](int64_t n0, int64_t n1) {
      for (int64_t n = n0; n < n1; ++n) kernels::im2col(src + n * C * plane, C, geom, dst + n * C * K * L, L);
    });
  });
  if (auto node = make_node<Im2ColBackward0>({&x})) {
    node->w = {kernel, stride, padding, dilation};
    node->image = image;
    set_history(out, node);
  }
  return out;
}

Tensor col2im(const Tensor& cols, const Dims& output_size, const Dims& kernel, const Dims& dilation,
              const Dims& padding, const Dims& stride) {
  if (is_16bit_float(cols.dtype())) {
    return to_dtype(col2im(to_dtype(cols, DType::Float32), output_size, kernel, dilation, padding, stride),
                    cols.dtype());
  }
  const size_t nsp = kernel.size();
  ENGINE_CHECK(output_size.size() == nsp, std::runtime_error, "col2im: expected output_size with ", nsp, " values");
  ENGINE_CHECK(cols.dim() == 3, std::runtime_error, "col2im: expected a 3-D input, but got input of size: ",
               dims_str(cols.shape()));
  check_window_args("col2im", nsp, kernel, stride, padding, dilation);
  check_float(cols, "col2im");
  const int64_t K = numel_of(kernel);
  ENGINE_CHECK(cols.shape()[1] % K == 0, std::runtime_error,
               "Expected size of input's dimension 1 to be divisible by the product of kernel_size, but got "
               "input.size(1)=",
               cols.shape()[1], " and kernel_size=(", list_str(kernel), ").");
  Dims positions(nsp);
  for (size_t i = 0; i < nsp; ++i) {
    ENGINE_CHECK(output_size[i] >= 0, std::runtime_error, "col2im: output_size must be non-negative");
    positions[i] = positions_along(output_size[i], kernel[i], stride[i], padding[i], dilation[i]);
  }
  int64_t L = 1;
  for (int64_t p : positions) L = p <= 0 ? 0 : checked_mul(L, p, "col2im");
  ENGINE_CHECK(L >= 1 && cols.shape()[2] == L, std::runtime_error, "Given output_size=(", list_str(output_size),
               "), kernel_size=(", list_str(kernel), "), dilation=(", list_str(dilation), "), padding=(",
               list_str(padding), "), stride=(", list_str(stride),
               "), expected size of input's dimension 2 to match the calculated number of sliding blocks ",
               list_str(positions, " * "), " = ", L, ", but got input.size(2)=", cols.shape()[2], ".");
  const int64_t N = cols.shape()[0], C = cols.shape()[1] / K;
  Dims oshape{N, C};
  oshape.insert(oshape.end(), output_size.begin(), output_size.end());
  Tensor out = Tensor::empty(oshape, cols.dtype());
  Tensor cc = contiguous(detach(cols));
  const auto geom = geometry(output_size, positions, kernel, stride, padding, dilation);
  const int64_t plane = numel_of(output_size);
  ENGINE_DISPATCH_FLOAT32_64(cols.dtype(), [&](auto tag) {
    using T = decltype(tag);
    kernels::ReleaseInterpreterLock unlocked(cc.numel());
    kernels::parallel_for(N, sample_grain(C * K * L), [&](int64_t n0, int64_t n1) {
      for (int64_t n = n0; n < n1; ++n) {
        kernels::col2im(cc.data<T>() + n * C * K * L, L, C, geom, out.data<T>() + n * C * plane);
      }
    });
  });
  if (auto node = make_node<Col2ImBackward0>({&cols})) {
    node->w = {kernel, stride, padding, dilation};
    set_history(out, node);
  }
  return out;
}

namespace {

// Whether the input gradient can run as a forward convolution: unit strides, and the padding
// it needs, d(k-1) - p, not negative.
bool unit_stride_fits(const WindowArgs& w) {
  for (size_t i = 0; i < w.kernel.size(); ++i) {
    if (w.stride[i] != 1 || w.dilation[i] * (w.kernel[i] - 1) < w.padding[i]) return false;
  }
  return true;
}

// w (O, C/G, K) -> (C, O/G, K) with the kernel reversed, group by group: the weight of the
// convolution that maps an output gradient back to the input gradient.
template <typename T>
void flip_weight(const T* w, T* out, int64_t O, int64_t C, int64_t groups, int64_t K) {
  const int64_t Og = O / groups, Cg = C / groups;
  for (int64_t grp = 0; grp < groups; ++grp) {
    for (int64_t o = 0; o < Og; ++o) {
      for (int64_t c = 0; c < Cg; ++c) {
        const T* src = w + ((grp * Og + o) * Cg + c) * K;
        T* dst = out + ((grp * Cg + c) * Og + o) * K;
        for (int64_t k = 0; k < K; ++k) dst[k] = src[K - 1 - k];
      }
    }
  }
}

// The geometry of the flipped-kernel form of a unit-stride input gradient: the output gradient
// (spatial `gspatial`) convolved with stride 1 and padding d(k-1) - p back to `image`.
kernels::ConvGeometry flipped_geometry(const Dims& gspatial, const Dims& image, const WindowArgs& w) {
  Dims pad(w.kernel.size()), ones(w.kernel.size(), 1);
  for (size_t i = 0; i < pad.size(); ++i) pad[i] = w.dilation[i] * (w.kernel[i] - 1) - w.padding[i];
  return geometry(gspatial, image, w.kernel, ones, pad, w.dilation);
}

// Whether the flipped-kernel form of the input gradient (from `channels` = O / groups to `outputs`
// = C / groups channels) would run on the direct kernel, which reads its input in place: it then
// beats the transposed form whatever the channel counts.
template <typename T>
bool flipped_runs_direct(const kernels::ConvGeometry& flipped, const WindowArgs& w, int64_t channels, int64_t outputs) {
  if constexpr (!std::is_same_v<T, float>) {
    return false;
  } else {
    return kernels::conv_direct_fits(flipped, channels * numel_of(w.kernel), outputs);
  }
}

struct ConvArgs {
  WindowArgs w;
  bool transposed;
  Dims output_padding;
  int64_t groups;
};

// Both directions of the backward pass, written with im2col / col2im / matmul. For the plain
// convolution y = W @ im2col(x); for the transposed one y = col2im(W^T @ x). In each, the
// gradient of the column side is a product with W and the weight gradient a product with columns.
struct ConvolutionBackward0 : BuiltinNode<ConvolutionBackward0> {
  static constexpr const char* kName = "ConvolutionBackward0";
  SavedTensor input_, weight_;
  ConvArgs a;
  Dims input_shape, weight_shape;
  bool has_bias = false;
  int64_t out_channels = 0;

  void visit_saved(const SavedVisitor& visit) override {
    visit("input", input_);
    visit("weight", weight_);
  }
  // PyTorch's attributes of the node (bias_sym_sizes_opt is (0,) without a bias).
  void visit_saved_values(const SavedValueVisitor& visit) const override {
    visit("bias_sym_sizes_opt", std::vector<int64_t>{has_bias ? out_channels : 0});
    visit("dilation", saved_ints(a.w.dilation));
    visit("groups", a.groups);
    Dims output_padding = a.output_padding;
    output_padding.resize(a.w.stride.size(), 0);
    visit("output_padding", saved_ints(output_padding));
    visit("padding", saved_ints(a.w.padding));
    visit("stride", saved_ints(a.w.stride));
    visit("transposed", a.transposed);
  }

  // Whether this pass wants input i's gradient (see needs_input_grad).
  bool wants(size_t i) const { return needs_input_grad(*this, i); }

  variable_list apply(variable_list&& grads) override {
    auto me = shared_from_this();
    // The direct kernels want the gradient contiguous (a .sum()'s is an expanded scalar); the bias
    // sum below then reads the same copy at full speed.
    const Tensor g = GradMode::is_enabled() ? grads[0] : contiguous(grads[0]);
    variable_list out(has_bias ? 3 : 2);
    if (!GradMode::is_enabled()) {
      direct_gradients(me, g, out);
    } else {
      recorded_gradients(me, g, out);
    }
    if (has_bias && wants(2)) {
      std::vector<int64_t> dims{0};
      for (int64_t d = 2; d < g.dim(); ++d) dims.push_back(d);
      out[2] = sum(g, dims, false);
    }
    return out;
  }

  // Without create_graph nothing records, so the gradients come straight from the native kernels:
  // the input gradient is the other direction's forward pass, the weight gradient its own kernel.
  void direct_gradients(const std::shared_ptr<Node>& me, const Tensor& grad, variable_list& out) {
    const Tensor g = contiguous(grad);
    const WindowArgs& w = a.w;
    const Dims image(input_shape.begin() + 2, input_shape.end());
    const Dims gspatial = spatial_of(g);
    const int64_t N = input_shape[0], C = input_shape[1], O = g.shape()[1];
    // Windows always run over the larger side: the input of a plain convolution, the output of a
    // transposed one.
    const auto geom = a.transposed ? geometry(gspatial, image, w.kernel, w.stride, w.padding, w.dilation)
                                   : geometry(image, gspatial, w.kernel, w.stride, w.padding, w.dilation);
    ENGINE_DISPATCH_FLOAT32_64(g.dtype(), [&](auto tag) {
      using T = decltype(tag);
      if (wants(0)) {
        Tensor wc = contiguous(weight_.unpack(me));
        Tensor gi = Tensor::empty(input_shape, g.dtype());
        const bool unit = !a.transposed && unit_stride_fits(w);
        const auto flipped = unit ? flipped_geometry(gspatial, image, w) : geom;
        if (unit && (O <= C || flipped_runs_direct<T>(flipped, w, O / a.groups, C / a.groups))) {
          // With stride 1 the input gradient is itself a convolution: of the output gradient, by
          // the weight flipped in space with its channel roles swapped, padded by d(k-1) - p. Its
          // column buffer holds O * kernel rows per position, the transposed form's (W^T @ g,
          // then scattered back) C * kernel: the flipped form wins where the convolution does
          // not widen its channels, the transposed one where it does (32 -> 64 channels on 28x28:
          // 2.3 against 3.2 ms; 64 -> 32: 2.3 against 3.2 ms the other way). The direct kernel
          // (conv_direct.h) has no column buffer, so where it runs the flipped form always wins.
          Tensor wf = Tensor::empty({C, O / a.groups, numel_of(w.kernel)}, g.dtype());
          flip_weight<T>(wc.data<T>(), wf.data<T>(), O, C, a.groups, numel_of(w.kernel));
          kernels::conv_forward<T>(g.data<T>(), wf.data<T>(), nullptr, gi.data<T>(), N, O, C, a.groups, flipped);
        } else if (!a.transposed) {
          kernels::conv_transpose_forward<T>(g.data<T>(), wc.data<T>(), nullptr, gi.data<T>(), N, O, C, a.groups, geom);
        } else {
          kernels::conv_forward<T>(g.data<T>(), wc.data<T>(), nullptr, gi.data<T>(), N, O, C, a.groups, geom);
        }
        out[0] = gi;
      }
      if (wants(1)) {
        Tensor xc = contiguous(input_.unpack(me));
        Tensor gw = Tensor::empty(weight_shape, g.dtype());
        if (!a.transposed) {
          kernels::conv_weight_grad<T>(xc.data<T>(), g.data<T>(), gw.data<T>(), N, C, O, a.groups, geom);
        } else {
          kernels::conv_weight_grad<T>(g.data<T>(), xc.data<T>(), gw.data<T>(), N, O, C, a.groups, geom);
        }
        out[1] = gw;
      }
    });
  }

  void recorded_gradients(const std::shared_ptr<Node>& me, const Tensor& g, variable_list& out) {
    const int64_t G = a.groups, N = input_shape[0];
    const WindowArgs& w = a.w;
    const Dims image = Dims(input_shape.begin() + 2, input_shape.end());
    const Dims gspatial = spatial_of(g);
    const int64_t K = numel_of(w.kernel);
    // (N, R, L) <-> (R, N * L): the layout in which one matrix product covers the whole batch.
    auto batch_as_columns = [N](const Tensor& t3) {
      return reshape(permute(t3, {1, 0, 2}), {t3.shape()[1], N * t3.shape()[2]});
    };
    auto columns_as_batch = [N](const Tensor& m, int64_t L) {
      return permute(reshape(m, {m.shape()[0], N, L}), {1, 0, 2});
    };
    if (!a.transposed) {
      const int64_t O = weight_shape[0], Cg = weight_shape[1];
      const int64_t L = numel_of(gspatial);
      if (G == 1) {
        Tensor gm = batch_as_columns(reshape(g, {N, O, L}));  // (O, N * L)
        if (wants(0)) {
          Tensor cols = mm(t(reshape(weight_.unpack(me), {O, Cg * K})), gm);
          out[0] = col2im(columns_as_batch(cols, L), image, w.kernel, w.dilation, w.padding, w.stride);
        }
        if (wants(1)) {
          Tensor cols = batch_as_columns(im2col(input_.unpack(me), w.kernel, w.dilation, w.padding, w.stride));
          out[1] = reshape(mm(gm, t(cols)), weight_shape);
        }
      } else {
        Tensor gf = reshape(g, {N, G, O / G, L});
        if (wants(0)) {
          Tensor wg = reshape(weight_.unpack(me), {G, O / G, Cg * K});
          Tensor cols = matmul(transpose(wg, 1, 2), gf);  // (N, G, Cg*K, L)
          out[0] = col2im(reshape(cols, {N, G * Cg * K, L}), image, w.kernel, w.dilation, w.padding, w.stride);
        }
        if (wants(1)) {
          Tensor cols =
              reshape(im2col(input_.unpack(me), w.kernel, w.dilation, w.padding, w.stride), {N, G, Cg * K, L});
          out[1] = reshape(sum(matmul(gf, transpose(cols, 2, 3)), {0}, false), weight_shape);
        }
      }
    } else {
      const int64_t Cin = weight_shape[0], Og = weight_shape[1];
      const int64_t L = numel_of(image);
      // The columns of the output gradient, one per input position.
      Tensor gcols = im2col(g, w.kernel, w.dilation, w.padding, w.stride);  // (N, G*Og*K, L)
      if (G == 1) {
        Tensor cm = batch_as_columns(gcols);  // (Og*K, N * L)
        if (wants(0)) {
          Tensor gx = mm(reshape(weight_.unpack(me), {Cin, Og * K}), cm);
          out[0] = reshape(columns_as_batch(gx, L), input_shape);
        }
        if (wants(1)) {
          Tensor xm = batch_as_columns(reshape(input_.unpack(me), {N, Cin, L}));
          out[1] = reshape(mm(xm, t(cm)), weight_shape);
        }
      } else {
        Tensor cols = reshape(gcols, {N, G, Og * K, L});
        if (wants(0)) {
          Tensor wg = reshape(weight_.unpack(me), {G, Cin / G, Og * K});
          out[0] = reshape(matmul(wg, cols), input_shape);
        }
        if (wants(1)) {
          Tensor xf = reshape(input_.unpack(me), {N, G, Cin / G, L});
          out[1] = reshape(sum(matmul(xf, transpose(cols, 2, 3)), {0}, false), weight_shape);
        }
      }
    }
  }
  void release_variables() override {
    input_.reset();
    weight_.reset();
  }
};

std::string size_list(const Dims& d) { return "[" + list_str(d) + "]"; }

void check_convolution(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                       const ConvArgs& a) {
  const int64_t nd = weight.dim();
  ENGINE_CHECK(nd >= 3 && nd <= 5, std::runtime_error, "convolution: expected a 3-D, 4-D or 5-D weight, but got weight of size ",
               size_list(weight.shape()));
  const size_t nsp = static_cast<size_t>(nd - 2);
  ENGINE_CHECK(input.dim() == nd, std::runtime_error, "Expected ", nd - 1, "D (unbatched) or ", nd,
               "D (batched) input to conv", nsp, "d, but got input of size: ", size_list(input.shape()));
  auto check_len = [&](const Dims& v, const char* name) {
    ENGINE_CHECK(v.size() == nsp, std::runtime_error, "expected ", name,
                 " to be a single integer value or a list of ", nsp,
                 " values to match the convolution dimensions, but got ", name, "=", size_list(v));
  };
  check_len(a.w.stride, "stride");
  check_len(a.w.padding, "padding");
  check_len(a.w.dilation, "dilation");
  if (a.transposed) check_len(a.output_padding, "output_padding");
  for (int64_t s : a.w.stride) ENGINE_CHECK(s > 0, std::runtime_error, "non-positive stride is not supported");
  for (int64_t p : a.w.padding) ENGINE_CHECK(p >= 0, std::runtime_error, "negative padding is not supported");
  for (int64_t d : a.w.dilation) {
    ENGINE_CHECK(d > 0, std::runtime_error, "dilation should be greater than zero, but got ", size_list(a.w.dilation));
  }
  ENGINE_CHECK(a.groups > 0, std::runtime_error, "non-positive groups is not supported");
  ENGINE_CHECK(input.dtype() == weight.dtype(), std::runtime_error, "expected scalar type ",
               scalar_type_name(input.dtype()), " but found ", scalar_type_name(weight.dtype()));
  check_float(input, "convolution");
  if (bias) {
    ENGINE_CHECK(bias->dtype() == input.dtype(), std::runtime_error, "Input type (", type_label(input.dtype()),
                 ") and bias type (", type_label(bias->dtype()), ") should be the same");
  }
  ENGINE_CHECK(weight.shape()[0] % a.groups == 0, std::runtime_error, "Given groups=", a.groups,
               ", expected weight to be divisible by ", a.groups, " at dimension 0, but got weight of size [",
               size_list(weight.shape()), "] instead");
  const int64_t C = input.shape()[1];
  if (!a.transposed) {
    ENGINE_CHECK(C == checked_mul(weight.shape()[1], a.groups, "convolution"), std::runtime_error, "Given groups=",
                 a.groups, ", weight of size ", size_list(weight.shape()), ", expected input",
                 size_list(input.shape()), " to have ", weight.shape()[1] * a.groups, " channels, but got ", C,
                 " channels instead");
    const int64_t O = weight.shape()[0];
    if (bias) {
      ENGINE_CHECK(bias->dim() == 1 && bias->shape()[0] == O, std::runtime_error, "Given weight of size ",
                   size_list(weight.shape()), ", expected bias to be 1-dimensional with ", O,
                   " elements, but got bias of size ", size_list(bias->shape()), " instead");
    }
    Dims padded(nsp), kern(nsp);
    bool too_small = false;
    for (size_t i = 0; i < nsp; ++i) {
      ENGINE_CHECK(add_fits(input.shape()[2 + i], checked_mul(2, a.w.padding[i], "convolution"), &padded[i]),
                   std::runtime_error, "convolution: integer addition overflow");
      kern[i] = checked_mul(a.w.dilation[i], weight.shape()[2 + i] - 1, "convolution") + 1;
      too_small = too_small || padded[i] < kern[i];
    }
    ENGINE_CHECK(!too_small, std::runtime_error, "Calculated padded input size per channel: (",
                 list_str(padded, " x "), "). Kernel size: (", list_str(kern, " x "),
                 "). Kernel size can't be greater than actual input size");
  } else {
    ENGINE_CHECK(C == weight.shape()[0], std::runtime_error, "Given transposed=1, weight of size ",
                 size_list(weight.shape()), ", expected input", size_list(input.shape()), " to have ",
                 weight.shape()[0], " channels, but got ", C, " channels instead");
    const int64_t O = checked_mul(weight.shape()[1], a.groups, "convolution");
    if (bias) {
      ENGINE_CHECK(bias->dim() == 1 && bias->shape()[0] == O, std::runtime_error, "Given transposed=1, weight of size ",
                   size_list(weight.shape()), ", expected bias to be 1-dimensional with ", O,
                   " elements, but got bias of size ", size_list(bias->shape()), " instead");
    }
    bool bad_op = false;
    for (size_t i = 0; i < nsp; ++i) {
      bad_op = bad_op || a.output_padding[i] < 0 ||
               (a.output_padding[i] >= a.w.stride[i] && a.output_padding[i] >= a.w.dilation[i]);
    }
    ENGINE_CHECK(!bad_op, std::runtime_error, "output padding must be smaller than either stride or dilation, but got output_padding=",
                 size_list(a.output_padding), " stride=", size_list(a.w.stride), " dilation=", size_list(a.w.dilation));
  }
}

}  // namespace

Tensor convolution(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias, const Dims& stride,
                   const Dims& padding, const Dims& dilation, bool transposed, const Dims& output_padding,
                   int64_t groups) {
  ConvArgs a{{Dims(weight.shape().begin() + std::min<int64_t>(weight.dim(), 2), weight.shape().end()), stride, padding,
              dilation},
             transposed, output_padding, groups};
  check_convolution(input, weight, bias, a);
  if (is_16bit_float(input.dtype())) {  // computed in float32, rounded once at the end
    std::optional<Tensor> b32 = bias ? std::optional<Tensor>(to_dtype(*bias, DType::Float32)) : std::nullopt;
    return to_dtype(convolution(to_dtype(input, DType::Float32), to_dtype(weight, DType::Float32), b32, stride,
                                padding, dilation, transposed, output_padding, groups),
                    input.dtype());
  }
  const size_t nsp = a.w.kernel.size();
  const int64_t N = input.shape()[0], C = input.shape()[1];
  const Dims image = spatial_of(input);
  Dims out_spatial(nsp);
  if (!transposed) {
    for (size_t i = 0; i < nsp; ++i) {
      out_spatial[i] = positions_along(image[i], a.w.kernel[i], stride[i], padding[i], dilation[i]);
    }
  } else {
    bool too_small = false;
    for (size_t i = 0; i < nsp; ++i) {
      // (in - 1) * s - 2p + d(k - 1) + output_padding + 1, in 128 bits: every term is the caller's.
      const __int128 v = static_cast<__int128>(image[i] - 1) * stride[i] - 2 * static_cast<__int128>(padding[i]) +
                         static_cast<__int128>(dilation[i]) * (a.w.kernel[i] - 1) + output_padding[i] + 1;
      ENGINE_CHECK(v <= std::numeric_limits<int64_t>::max(), std::runtime_error,
                   "conv_transpose: integer multiplication overflow");
      out_spatial[i] = static_cast<int64_t>(v);
      too_small = too_small || v <= 0;
    }
    ENGINE_CHECK(!too_small, std::runtime_error, "Given input size per channel: (", list_str(image, " x "),
                 "). Calculated output size per channel: (", list_str(out_spatial, " x "),
                 "). Output size is too small");
  }
  const int64_t O = transposed ? weight.shape()[1] * groups : weight.shape()[0];
  Dims oshape{N, O};
  oshape.insert(oshape.end(), out_spatial.begin(), out_spatial.end());
  // Sizes the kernels multiply (a column buffer is channels * kernel * positions), checked even
  // when an empty batch makes the output itself empty.
  const int64_t positions = numel_of(transposed ? image : out_spatial);
  const int64_t col_rows = checked_mul(transposed ? O / groups : C / groups, numel_of(a.w.kernel), "convolution");
  checked_mul(col_rows, positions, "convolution");
  numel_of(oshape);
  numel_of(transposed ? Dims(out_spatial) : image);
  Tensor out = Tensor::empty(oshape, input.dtype());
  Tensor xc = contiguous(detach(input)), wc = contiguous(detach(weight));
  Tensor bc = bias ? contiguous(detach(*bias)) : Tensor();
  ENGINE_DISPATCH_FLOAT32_64(input.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* b = bias ? bc.data<T>() : nullptr;
    if (!transposed) {
      auto geom = geometry(image, out_spatial, a.w.kernel, stride, padding, dilation);
      kernels::conv_forward<T>(xc.data<T>(), wc.data<T>(), b, out.data<T>(), N, C, O, groups, geom);
    } else {
      auto geom = geometry(out_spatial, image, a.w.kernel, stride, padding, dilation);
      kernels::conv_transpose_forward<T>(xc.data<T>(), wc.data<T>(), b, out.data<T>(), N, C, O, groups, geom);
    }
  });
  const Tensor* bp = bias ? &*bias : nullptr;
  if (auto node = bp ? make_node<ConvolutionBackward0>({&input, &weight, bp})
                     : make_node<ConvolutionBackward0>({&input, &weight})) {
    if (node->should_compute_output(1)) node->input_ = SavedTensor(input, false);
    if (node->should_compute_output(0)) node->weight_ = SavedTensor(weight, false);
    // The transposed rule needs no input for the input gradient, the plain one none for the weight's.
    node->a = a;
    node->input_shape = input.shape();
    node->weight_shape = weight.shape();
    node->has_bias = bp != nullptr;
    node->out_channels = out.shape()[1];
    set_history(out, node);
  }
  return out;
}

}  // namespace engine::ops
