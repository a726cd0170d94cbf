#pragma once
// The terms a full-size fit solves in (full_size_fit.cpp): 1, V, S, S², B, B·S, B·S², B·S·V;
// the exact solve of the byte counts and the non-negative least squares of the times.

#include <array>
#include <cstdint>
#include <vector>

#include "ckptlab/planning/full_size.h"

namespace ckptlab::fit {

// 1, V, S, S², B, B·S, B·S², B·S·V.
constexpr int kTerms = 8;
static_assert(kTerms == kFitTerms, "full_size.h's FitCoefficients has one entry per term");

using Terms = std::array<long double, kTerms>;
using UsedTerms = std::array<bool, kTerms>;

Terms termsOf(long double b, long double s, long double v);

// Which terms a family's fit uses: without a vocabulary none of the V terms can be told apart,
// and at batch 1 none of the B terms from the others (B·S·V stands for S·V there).
UsedTerms usedTerms(bool withVocab, bool batchOne);

// Least squares over `rows` by the normal equations in long double, each column scaled to
// its largest value first. Throws when the used terms are not determined by the rows.
class Solver {
public:
    Solver(const std::vector<Terms>& rows, const UsedTerms& used);
    FitCoefficients solve(const std::vector<long double>& values) const;

private:
    std::vector<Terms> rows_;
    std::vector<int> columns_;
    std::vector<long double> scale_;
};

// Times by least squares with every coefficient at least 0 (see fit_terms.cpp).
FitCoefficients nonNegativeFit(const std::vector<Terms>& rows, const UsedTerms& used,
                               const std::vector<long double>& values);

// A fit's value at a shape: bytes rounded and never below 0, milliseconds never below 0.
std::int64_t bytesAt(const FitCoefficients& c, int b, int s, int v);
double msAt(const FitCoefficients& c, int b, int s, int v);

}  // namespace ckptlab::fit
