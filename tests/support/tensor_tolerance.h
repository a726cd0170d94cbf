#pragma once
// Tensors computed two ways (e.g. with and without checkpointing, where the graphs differ and
// so do the kernels' summation orders): equal within tolerance.h's bound for their dtype and
// the computation's size. Tests that link LibTorch only.

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <string>

#include "tolerance.h"

namespace ckptlab::test {

// Unit roundoff of a tensor's dtype.
inline double unitRoundoff(torch::ScalarType type) {
    switch (type) {
    case torch::kFloat64: return tolerance::kFloat64;
    case torch::kFloat32: return tolerance::kFloat32;
    case torch::kBFloat16: return tolerance::kBFloat16;
    default: ADD_FAILURE() << "no unit roundoff for " << type; return 0;
    }
}

// The size of what produced a tensor: at most `reduction` terms summed per value, through
// `layers` chained reductions (matmuls, their backward and double backward).
struct ComputationSize {
    std::int64_t reduction = 1;
    int layers = 1;
};

// max |expected − actual| within tolerance::relative(...) of max |expected|: the tensor's
// largest value stands for the magnitudes summed (a norm-wise bound, not per element, since
// an element that cancels to near zero keeps the rounding of its large terms).
inline ::testing::AssertionResult closeForItsSize(const torch::Tensor& expected,
                                                  const torch::Tensor& actual,
                                                  ComputationSize size) {
    if (!expected.defined() || !actual.defined())
        return ::testing::AssertionFailure() << "a tensor is missing";
    if (expected.sizes() != actual.sizes())
        return ::testing::AssertionFailure()
               << "shapes " << expected.sizes() << " and " << actual.sizes();
    const auto e = expected.to(torch::kFloat64), a = actual.to(torch::kFloat64);
    if (!e.isfinite().all().item<bool>() || !a.isfinite().all().item<bool>())
        return ::testing::AssertionFailure() << "a value is NaN or infinite";
    const double scale = e.abs().max().item<double>();
    const double diff = (e - a).abs().max().item<double>();
    const double bound =
        tolerance::relative(unitRoundoff(expected.scalar_type()), size.reduction, size.layers) *
        scale;
    if (diff <= bound) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure()
           << "max |diff| " << diff << " > " << bound << " (max |expected| " << scale << ", "
           << size.reduction << " terms x " << size.layers << " layers)";
}

}  // namespace ckptlab::test
