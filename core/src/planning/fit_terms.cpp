// The fit's terms, its exact solve and its non-negative least squares (fit_terms.h).
#include "planning/fit_terms.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ckptlab::fit {

Terms termsOf(long double b, long double s, long double v) {
    return {1.0L, v, s, s * s, b, b * s, b * s * s, b * s * v};
}

UsedTerms usedTerms(bool withVocab, bool batchOne) {
    return {true, withVocab, true, true, !batchOne, !batchOne, !batchOne, withVocab};
}

Solver::Solver(const std::vector<Terms>& rows, const UsedTerms& used) : rows_(rows) {
    for (int j = 0; j < kTerms; ++j)
        if (used[static_cast<std::size_t>(j)]) columns_.push_back(j);
    for (int j : columns_) {
        long double m = 0;
        for (const auto& r : rows_) m = std::max(m, std::fabs(r[static_cast<std::size_t>(j)]));
        scale_.push_back(m > 0 ? m : 1);
    }
    if (rows_.size() < columns_.size())
        throw std::invalid_argument("fitCosts: fewer shapes than terms");
}

FitCoefficients Solver::solve(const std::vector<long double>& values) const {
    const std::size_t n = columns_.size();
    std::vector<std::vector<long double>> a(n, std::vector<long double>(n + 1, 0));
    for (std::size_t r = 0; r < rows_.size(); ++r) {
        for (std::size_t i = 0; i < n; ++i) {
            const long double xi = rows_[r][static_cast<std::size_t>(columns_[i])] / scale_[i];
            for (std::size_t j = 0; j < n; ++j)
                a[i][j] += xi * rows_[r][static_cast<std::size_t>(columns_[j])] / scale_[j];
            a[i][n] += xi * values[r];
        }
    }
    for (std::size_t c = 0; c < n; ++c) {  // Gauss-Jordan with partial pivoting
        std::size_t pivot = c;
        for (std::size_t r = c + 1; r < n; ++r)
            if (std::fabs(a[r][c]) > std::fabs(a[pivot][c])) pivot = r;
        if (std::fabs(a[pivot][c]) < 1e-12L)
            throw std::invalid_argument("fitCosts: the shapes do not determine every term");
        std::swap(a[c], a[pivot]);
        for (std::size_t r = 0; r < n; ++r) {
            if (r == c) continue;
            const long double f = a[r][c] / a[c][c];
            for (std::size_t k = c; k <= n; ++k) a[r][k] -= f * a[c][k];
        }
    }
    FitCoefficients out{};
    for (std::size_t i = 0; i < n; ++i)
        out[static_cast<std::size_t>(columns_[i])] =
            static_cast<double>(a[i][n] / a[i][i] / scale_[i]);
    return out;
}

namespace {

long double evaluate(const FitCoefficients& c, long double b, long double s, long double v) {
    const auto t = termsOf(b, s, v);
    long double sum = 0;
    for (std::size_t j = 0; j < kTerms; ++j) sum += static_cast<long double>(c[j]) * t[j];
    return sum;
}

}  // namespace

// Times by least squares with every coefficient at least 0: each term is work that takes
// time (a fixed cost, the tokens, attention, the head), and a negative one would make a long
// extrapolation negative. Every subset of the terms is solved and the best that has no
// negative coefficient kept (a handful of terms: at most 15 subsets).
FitCoefficients nonNegativeFit(const std::vector<Terms>& rows, const UsedTerms& used,
                               const std::vector<long double>& values) {
    std::vector<int> terms;
    for (int j = 0; j < kTerms; ++j)
        if (used[static_cast<std::size_t>(j)]) terms.push_back(j);
    FitCoefficients best{};
    long double bestError = -1;
    for (unsigned mask = 1; mask < (1u << terms.size()); ++mask) {
        UsedTerms subset{};
        for (std::size_t k = 0; k < terms.size(); ++k)
            subset[static_cast<std::size_t>(terms[k])] = (mask >> k) & 1u;
        FitCoefficients c;
        try {
            c = Solver(rows, subset).solve(values);
        } catch (const std::invalid_argument&) {
            continue;
        }
        if (std::any_of(c.begin(), c.end(), [](double x) { return x < 0; })) continue;
        long double error = 0;
        for (std::size_t r = 0; r < rows.size(); ++r) {
            long double fitted = 0;
            for (std::size_t j = 0; j < kTerms; ++j) fitted += c[j] * rows[r][j];
            error += (fitted - values[r]) * (fitted - values[r]);
        }
        if (bestError < 0 || error < bestError) {
            bestError = error;
            best = c;
        }
    }
    return best;
}

std::int64_t bytesAt(const FitCoefficients& c, int b, int s, int v) {
    return std::max<std::int64_t>(0, static_cast<std::int64_t>(std::llround(evaluate(c, b, s, v))));
}

double msAt(const FitCoefficients& c, int b, int s, int v) {
    return std::max(0.0, static_cast<double>(evaluate(c, b, s, v)));
}

}  // namespace ckptlab::fit
