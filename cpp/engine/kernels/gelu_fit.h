#pragma once
// GELU's 2 Phi(x) = erfc(-x / sqrt 2) for float32 arguments, as three least-squares polynomial
// fits in x itself (so the rounding of x / sqrt 2 never enters), evaluated in double and selected
// without branches; with one rounding to float the results are within 1 ulp of float64's:
//   |x| <= 0.75:        1 + x P(x^2)                       (P fits erf(x / sqrt 2) / x)
//   -1.4 <= x < -0.75:  Q(x - kQCentre)                     (Q fits erfc(-x / sqrt 2) itself)
//   x > 0.75:           2 - exp(-x^2 / 2) R(1 / (1 + x))   (R fits erfc(x / sqrt 2) exp(x^2 / 2)
//                       up to x = 8; R's argument is capped there, where the product is far
//                       below half an ulp of 2)
// Below kTail the caller takes the C library's double erfc (the left tail: a fit in
// exp(-x^2 / 2) there would need that exponential to full relative accuracy).
// Fitted by least squares on Chebyshev nodes against Python's math.erf / math.erfc.

namespace engine::kernels::gelu {

constexpr double kP[] = {
    0.7978845608027961, -0.13298076011217633, 0.019947113325299064,
    -0.002374648562871087, 0.00023082780438021756, -1.877730472965839e-05,
    1.1815728729709402e-06};
constexpr double kQ[] = {
    0.2823747283302844, 0.4477125631281819, 0.24064550266811296,
    0.011612544273017633, -0.036986711502945635, -0.009694006778085658,
    0.003194692443398977, 0.0016442690016909896, -0.0001210652215791068,
    -0.00017054911978073756, -8.50300829902773e-06};
constexpr double kR[] = {
    -5.148392233647052e-06, 0.7980420294905629, 0.7967129157203043,
    -0.015580141195658887, -1.2098382824099005, -5.119487343154574,
    22.284450072708378, -33.00575729522719, 14.576597404194704,
    18.922503498733576, -27.6287967253411, 10.762693654922751};
constexpr double kQCentre = -1.075;
constexpr float kTail = -1.4f;
constexpr double kNormalPdf = 0.398942280401432677939946059934381868;  // 1 / sqrt(2 pi)

}  // namespace engine::kernels::gelu
