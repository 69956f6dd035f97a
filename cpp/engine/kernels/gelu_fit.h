#pragma once
// GELU's 2 Phi(x) = erfc(-x / sqrt 2) for float32 arguments, from two least-squares polynomial
// fits in x itself (so the rounding of x / sqrt 2 never enters), evaluated in double with
// exp(-x^2 / 2) in double (x^2 is exact there) and selected without branches; with one rounding
// to float the results are within 1 ulp of float64's, the left tail included (PyTorch's float
// kernel adds 1 + erf in float and loses every digit there):
//   |x| <= 0.75:  1 + x P(x^2)                          (P fits erf(x / sqrt 2) / x)
//   x < -0.75:    exp(-x^2 / 2) R(1 / (1 + |x|))        (R fits erfc(v / sqrt 2) exp(v^2 / 2)
//   x > 0.75:     2 - exp(-x^2 / 2) R(1 / (1 + |x|))     on 0.75 <= v <= kRCap; |x| is capped
//                                                        there, where the result underflows float)
// Fitted by least squares on Chebyshev nodes against Python's math.erf / math.erfc.

namespace engine::kernels::gelu {

constexpr double kP[] = {
    0.7978845608027958, -0.13298076011217547, 0.019947113325292865,
    -0.0023746485628370743, 0.0002308278042964949, -1.8777304636870752e-05,
    1.181572837593916e-06};
constexpr double kR[] = {
    2.9690145147758278e-06, 0.7976891090591405, 0.8034393925629415,
    -0.08972684059363535, -0.6853246467014661, -7.612268986838428,
    30.355898940068762, -50.568825431278285, 38.8755147154814,
    0.9340636463085065, -26.18470939639722, 18.444123729362815,
    -4.003623333704124};
constexpr double kRCap = 14.0;
constexpr double kNormalPdf = 0.398942280401432677939946059934381868;  // 1 / sqrt(2 pi)

}  // namespace engine::kernels::gelu
