#pragma once
// How far apart two floating-point results of the same arithmetic may be, derived from the
// type and the size of the computation, in one place for every test (plain C++: no Qt, no
// LibTorch; tensor_tolerance.h applies it to tensors). A comparison either uses these, or
// claims bitwise equality with a one-line reason (the same kernels in the same order).
//
// The rule: a sum of n terms, in any order, is off by at most gamma_n = n·u / (1 − n·u) of the
// sum of the terms' magnitudes, u being the type's unit roundoff (Higham, "Accuracy and
// Stability of Numerical Algorithms", 2002, §3.1); with rounding errors that are independent
// and of mean zero, by at most exp(λ·√n·u + n·u²/(1 − u)) − 1 except with probability
// 2n·exp(−λ²(1 − u)²/2) (Higham & Mary, SIAM J. Sci. Comput. 41(5), 2019, Thm 2.4), tighter for
// large n; λ = 10 makes that chance below 1e-12 up to n = 2.6e9. The bound is
// the smaller of the two. A chain of `layers` reductions counts as one of layers × n terms. Two
// kernels that sum in different orders are each within the bound of the exact value, so within
// twice the bound of each other.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace ckptlab::test::tolerance {

// Unit roundoff: half the distance from 1 to the next number.
inline constexpr double kFloat64 = std::numeric_limits<double>::epsilon() / 2;  // 2^-53
inline constexpr double kFloat32 = std::numeric_limits<float>::epsilon() / 2;   // 2^-24
inline constexpr double kBFloat16 = 1.0 / 256;                                  // 2^-8

// The bound of the rule above for n terms of unit roundoff u, relative to their magnitudes.
inline double sumBound(double n, double u) {
    constexpr double lambda = 10;
    const double worstCase =
        n * u < 1 ? n * u / (1 - n * u) : std::numeric_limits<double>::infinity();
    const double probable = std::expm1(lambda * std::sqrt(n) * u + n * u * u / (1 - u));
    return std::min(worstCase, probable);
}

// Two evaluations of `layers` chained reductions of at most `reduction` terms each, in
// different orders: the largest |difference| relative to the magnitudes summed.
inline double relative(double u, std::int64_t reduction, int layers = 1) {
    return 2 * sumBound(static_cast<double>(reduction) * layers, u);
}

// A double formula of `operations` roundings (each +, −, ×, ÷ rounds once) written in another
// order than the code's, with intermediates up to `magnitude`: the |difference| allowed.
inline double formula(double magnitude, int operations) {
    return relative(kFloat64, operations) * std::abs(magnitude);
}

}  // namespace ckptlab::test::tolerance
