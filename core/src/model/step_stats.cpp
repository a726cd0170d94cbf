// Step-time statistics: the order-statistic interval of a median, the coefficient of
// variation, and when adaptive repeats stop (step_stats.h).
#include "ckptlab/model/step_stats.h"

#include <algorithm>
#include <cmath>

#include "ckptlab/model/result.h"
#include "ckptlab/model/statistics.h"

namespace ckptlab {
namespace {

std::vector<double> finite(const std::vector<double>& samples) {
    std::vector<double> out;
    out.reserve(samples.size());
    for (double s : samples)
        if (std::isfinite(s)) out.push_back(s);
    return out;
}

// P(Bin(n, 1/2) <= j), summed in logs so that n = 1000 neither underflows nor overflows.
double binomialTail(int n, int j) {
    double sum = 0;
    for (int i = 0; i <= j; ++i) {
        const double logTerm = std::lgamma(n + 1.0) - std::lgamma(i + 1.0) -
                               std::lgamma(n - i + 1.0) - n * std::log(2.0);
        sum += std::exp(logTerm);
    }
    return sum;
}

}  // namespace

int orderStatisticRank(int n, double confidence) {
    if (n < 1 || !(confidence > 0 && confidence < 1)) return 0;
    const double alphaHalf = (1.0 - confidence) / 2.0;
    int rank = 0;
    // The interval [x(k), x(n+1-k)] misses the median with probability 2 P(B <= k-1).
    for (int k = 1; k <= (n + 1) / 2; ++k) {
        if (binomialTail(n, k - 1) <= alphaHalf + 1e-12) {
            rank = k;
        } else {
            break;
        }
    }
    return rank;
}

std::optional<MedianInterval> medianInterval(const std::vector<double>& samples) {
    std::vector<double> xs = finite(samples);
    if (xs.empty()) return std::nullopt;
    std::sort(xs.begin(), xs.end());
    const int n = static_cast<int>(xs.size());
    const int k = orderStatisticRank(n);
    MedianInterval interval;
    if (k > 0) {
        interval.low = xs[static_cast<std::size_t>(k - 1)];
        interval.high = xs[static_cast<std::size_t>(n - k)];
        interval.is95 = true;
        interval.coverage = 1.0 - 2.0 * binomialTail(n, k - 1);
    } else {
        interval.low = xs.front();
        interval.high = xs.back();
        interval.is95 = false;
        interval.coverage = n >= 2 ? 1.0 - 2.0 * binomialTail(n, 0) : 0.0;
    }
    return interval;
}

double coefficientOfVariation(const std::vector<double>& samples) {
    const std::vector<double> xs = finite(samples);
    if (xs.size() < 2) return 0;
    double mean = 0;
    for (double x : xs) mean += x;
    mean /= static_cast<double>(xs.size());
    if (!(mean > 0)) return 0;
    double squares = 0;
    for (double x : xs) squares += (x - mean) * (x - mean);
    return std::sqrt(squares / static_cast<double>(xs.size() - 1)) / mean;
}

StepStats stepStats(const Metrics& metrics) {
    StepStats stats;
    const std::vector<double> xs = finite(metrics.step_samples_ms);
    stats.samples = static_cast<int>(xs.size());
    stats.median = metrics.step_ms;
    stats.interval = metrics.step_ms_ci ? metrics.step_ms_ci : medianInterval(xs);
    stats.cv = metrics.step_ms_cv ? *metrics.step_ms_cv : coefficientOfVariation(xs);
    stats.fastest = xs.empty() ? metrics.step_ms : *std::min_element(xs.begin(), xs.end());
    return stats;
}

bool withinNoise(const MedianInterval& a, const MedianInterval& b) {
    return a.low <= b.high && b.low <= a.high;
}

std::optional<bool> withinNoise(const Metrics& a, const Metrics& b) {
    const auto x = stepStats(a).interval;
    const auto y = stepStats(b).interval;
    if (!x || !y) return std::nullopt;
    return withinNoise(*x, *y);
}

void recordStepSpread(Metrics& metrics) {
    metrics.step_ms_ci = medianInterval(metrics.step_samples_ms);
    metrics.step_ms_cv = coefficientOfVariation(metrics.step_samples_ms);
}

bool preciseEnough(const std::vector<double>& samples, double precision) {
    const auto interval = medianInterval(samples);
    if (!interval || !interval->is95) return false;
    const double m = median(finite(samples));
    if (!(m > 0)) return false;
    return m - interval->low <= precision * m && interval->high - m <= precision * m;
}

std::string toString(RoundsStop stop) {
    switch (stop) {
    case RoundsStop::Continue: return "continue";
    case RoundsStop::Repeats: return "repeats";
    case RoundsStop::Precision: return "precision";
    case RoundsStop::TimeLimit: return "time limit";
    case RoundsStop::RoundLimit: return "round limit";
    case RoundsStop::Cancelled: return "cancelled";
    }
    return "repeats";
}

std::optional<RoundsStop> parseRoundsStop(const std::string& text) {
    for (RoundsStop stop : {RoundsStop::Repeats, RoundsStop::Precision, RoundsStop::TimeLimit,
                            RoundsStop::RoundLimit, RoundsStop::Cancelled}) {
        if (text == toString(stop)) return stop;
    }
    return std::nullopt;
}

RoundsStop autoRoundsStop(const std::vector<std::vector<double>>& samplesPerRun, int rounds,
                          double elapsedSeconds, double timeLimitSeconds, int maxRounds) {
    if (rounds < kAutoMinRounds) return RoundsStop::Continue;
    bool precise = true;
    for (const auto& samples : samplesPerRun) precise = precise && preciseEnough(samples);
    if (precise) return RoundsStop::Precision;
    if (elapsedSeconds >= timeLimitSeconds) return RoundsStop::TimeLimit;
    if (rounds >= maxRounds) return RoundsStop::RoundLimit;
    return RoundsStop::Continue;
}

}  // namespace ckptlab
