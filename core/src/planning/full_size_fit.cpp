// Cost models measured at a few small shapes, fitted so that a cost model at any batch and
// sequence can be made (full_size.h). Why the bytes are exact: every tensor of a step has a
// size that is a product of the shape's dimensions, and in the lab's blocks each one is one of
// the fit's terms. Activations are B·S·(width...), eager attention's scores B·heads·S², the
// logits B·S·V, the embedding and head weights V·width, the rotary tables S·head_dim, a
// memory-efficient attention's chunk pair of scores B·heads·chunk² once S reaches the chunk,
// the rest constant. A sum of such tensors at a peak is a polynomial in the same terms, so
// the measured byte counts determine it exactly, and a shape the solve did not use checks it.
#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>

#include "ckptlab/flops.h"
#include "ckptlab/full_size.h"
#include "ckptlab/number_text.h"

namespace ckptlab {
namespace {

// 1, V, S, S², B, B·S, B·S², B·S·V.
constexpr int kTerms = 8;
static_assert(kTerms == kFitTerms, "full_size.h's FitCoefficients has one entry per term");

std::array<long double, kTerms> termsOf(long double b, long double s, long double v) {
    return {1.0L, v, s, s * s, b, b * s, b * s * s, b * s * v};
}

// Which terms a family's fit uses: without a vocabulary none of the V terms can be told apart,
// and at batch 1 none of the B terms from the others (B·S·V stands for S·V there).
std::array<bool, kTerms> usedTerms(bool withVocab, bool batchOne) {
    return {true, withVocab, true, true, !batchOne, !batchOne, !batchOne, withVocab};
}

// Least squares over `rows` by the normal equations in long double, each column scaled to
// its largest value first. Throws when the used terms are not determined by the rows.
class Solver {
public:
    Solver(const std::vector<std::array<long double, kTerms>>& rows,
           const std::array<bool, kTerms>& used)
        : rows_(rows) {
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

    FitCoefficients solve(const std::vector<long double>& values) const {
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

private:
    std::vector<std::array<long double, kTerms>> rows_;
    std::vector<int> columns_;
    std::vector<long double> scale_;
};

long double evaluate(const FitCoefficients& c, long double b, long double s, long double v) {
    const auto t = termsOf(b, s, v);
    long double sum = 0;
    for (std::size_t j = 0; j < kTerms; ++j) sum += static_cast<long double>(c[j]) * t[j];
    return sum;
}

// Times by least squares with every coefficient at least 0: each term is work that takes
// time (a fixed cost, the tokens, attention, the head), and a negative one would make a long
// extrapolation negative. Every subset of the terms is solved and the best that has no
// negative coefficient kept (a handful of terms: at most 15 subsets).
FitCoefficients nonNegativeFit(const std::vector<std::array<long double, kTerms>>& rows,
                               const std::array<bool, kTerms>& used,
                               const std::vector<long double>& values) {
    std::vector<int> terms;
    for (int j = 0; j < kTerms; ++j)
        if (used[static_cast<std::size_t>(j)]) terms.push_back(j);
    FitCoefficients best{};
    long double bestError = -1;
    for (unsigned mask = 1; mask < (1u << terms.size()); ++mask) {
        std::array<bool, kTerms> subset{};
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

// The byte fields a fit covers, in UnitFit::bytes' order.
std::int64_t* byteField(UnitCost& c, std::size_t i) {
    std::int64_t* fields[] = {&c.output_bytes,   &c.kept_bytes,       &c.forward_peak,
                              &c.nograd_peak,    &c.backward_peak,    &c.param_grad_bytes,
                              &c.optimizer_peak, &c.weight_copy_bytes};
    return fields[i];
}
double* msField(UnitCost& c, std::size_t i) {
    double* fields[] = {&c.forward_ms, &c.nograd_ms, &c.backward_ms, &c.backward_kept_ms,
                        &c.optimizer_ms};
    return fields[i];
}

bool sameStructure(const std::vector<AllocationStep>& a, const std::vector<AllocationStep>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].frees != b[i].frees) return false;
    return true;
}

bool sameScripts(const AllocationScript& a, const AllocationScript& b) {
    return sameStructure(a.forward, b.forward) && sameStructure(a.backward, b.backward) &&
           sameStructure(a.nograd, b.nograd) && sameStructure(a.optimizer, b.optimizer) &&
           a.output == b.output && a.input_grad == b.input_grad &&
           a.nograd_output == b.nograd_output;
}

// The highest sum of a script's allocations over its prefixes, above where it starts.
// `sizes` holds the bytes of every allocation numbered so far (a backward frees the
// forward's), and grows with the script's own allocations.
std::int64_t scriptPeak(const std::vector<AllocationStep>& steps,
                        std::vector<std::int64_t>& sizes) {
    std::int64_t total = 0, peak = 0;
    for (const AllocationStep& step : steps) {
        if (step.frees < 0) {
            sizes.push_back(step.bytes);
            total += step.bytes;
        } else if (step.frees < static_cast<int>(sizes.size())) {
            total -= sizes[static_cast<std::size_t>(step.frees)];
        }
        peak = std::max(peak, total);
    }
    return peak;
}

// A unit's four peaks from its scripts, as cost_measure.cpp measures them.
struct ScriptPeaks {
    std::int64_t forward = 0, backward = 0, nograd = 0, optimizer = 0;
    bool operator==(const ScriptPeaks& o) const {
        return forward == o.forward && backward == o.backward && nograd == o.nograd &&
               optimizer == o.optimizer;
    }
};
ScriptPeaks peaksOf(const AllocationScript& a) {
    ScriptPeaks p;
    std::vector<std::int64_t> sizes;
    p.forward = scriptPeak(a.forward, sizes);
    p.backward = scriptPeak(a.backward, sizes);
    std::vector<std::int64_t> own;
    p.nograd = scriptPeak(a.nograd, own);
    own.clear();
    p.optimizer = scriptPeak(a.optimizer, own);
    return p;
}
ScriptPeaks measuredPeaks(const UnitCost& c) {
    return {c.forward_peak, c.backward_peak, c.nograd_peak, c.optimizer_peak};
}

// A unit's arithmetic as a function of the shape: its value and its coefficients in the
// terms (only B·S, B·S² and B·S·V: matmuls over the tokens, attention, the head).
struct Work {
    std::function<double(const MeasuredShape&)> at;
    FitCoefficients terms{};
};

// `flops(b, s, v)` is a polynomial a·B·S + b·B·S² + c·B·S·V; its coefficients from three
// values of it.
Work workOf(std::function<double(int, int, int)> flops) {
    Work w;
    const double s1 = flops(1, 1, 1), s2 = flops(1, 2, 1), v2 = flops(1, 1, 2);
    const double perSV = v2 - s1;           // c
    const double quad = (s2 - 2 * s1) / 2;  // b: s2 - 2·s1 = 2b (+ 0 for a and c)
    const double lin = s1 - quad - perSV;   // a
    w.terms[5] = lin;
    w.terms[6] = quad;
    w.terms[7] = perSV;
    w.at = [flops](const MeasuredShape& m) { return flops(m.batch, m.seq, m.vocab); };
    return w;
}

// The fits of one unit over the shapes. `costs[i]` is the unit measured at shape i. The byte
// shapes but the last solve the byte fits and the last checks them (its largest difference
// goes to `residual`); the timed shapes fit the times.
class UnitFitter {
public:
    UnitFitter(const std::vector<MeasuredShape>& shapes, bool withVocab, bool batchOne)
        : shapes_(shapes),
          bytesAt_(indicesOf(
              shapes,
              [&](const MeasuredShape& s) { return s.bytes && (s.batch == 1) == batchOne; })),
          timedAt_(indicesOf(shapes, [](const MeasuredShape& s) { return s.timed; })),
          bytes_(rowsOf(shapes, {bytesAt_.begin(), bytesAt_.end() - 1}),
                 usedTerms(withVocab, batchOne)) {}

    std::size_t solving() const { return bytesAt_.size() - 1; }
    std::size_t checking() const { return 1; }

    // `work`: the unit's arithmetic at a shape (its forward's matmul FLOPs), which its times
    // are taken to follow.
    UnitFit fit(const std::vector<const UnitCost*>& all, std::int64_t* residual,
                const Work& work) const {
        std::vector<const UnitCost*> costs;  // at the byte shapes
        for (std::size_t i : bytesAt_) costs.push_back(all[i]);
        UnitFit f;
        f.shape = *costs.front();
        std::int64_t unchecked = 0;  // the peaks are checked below, from the scripts or not
        for (std::size_t i = 0; i < f.bytes.size(); ++i)
            f.bytes[i] = fitBytes(costs, &unchecked, [i](const UnitCost& c) {
                return *byteField(const_cast<UnitCost&>(c), i);
            });
        for (std::size_t i = 0; i < f.ms.size(); ++i) f.ms[i] = fitTimes(all, i, work);
        f.parameter_tensors = fitVector(costs, residual, &UnitCost::parameter_tensors);
        f.optimizer_state_tensors = fitVector(costs, residual, &UnitCost::optimizer_state_tensors);
        f.scripts_fitted = std::all_of(costs.begin(), costs.end(), [&](const UnitCost* c) {
            return !c->allocations.empty() &&
                   sameScripts(c->allocations, costs.front()->allocations);
        });
        if (f.scripts_fitted) {
            f.forward_script = fitScript(costs, residual, &AllocationScript::forward);
            f.backward_script = fitScript(costs, residual, &AllocationScript::backward);
            f.nograd_script = fitScript(costs, residual, &AllocationScript::nograd);
            f.optimizer_script = fitScript(costs, residual, &AllocationScript::optimizer);
            f.peaks_from_scripts = std::all_of(costs.begin(), costs.end(), [](const UnitCost* c) {
                return peaksOf(c->allocations) == measuredPeaks(*c);
            });
        }
        for (std::size_t i = 0; i < f.bytes.size(); ++i)
            if (!f.peaks_from_scripts || !isPeak(i)) checkBytes(f.bytes[i], costs, residual, i);
        return f;
    }

private:
    template <class Keep>
    static std::vector<std::size_t> indicesOf(const std::vector<MeasuredShape>& shapes, Keep keep) {
        std::vector<std::size_t> out;
        for (std::size_t i = 0; i < shapes.size(); ++i)
            if (keep(shapes[i])) out.push_back(i);
        if (out.empty()) throw std::invalid_argument("fitCosts: no shape for a fit");
        return out;
    }
    static std::vector<std::array<long double, kTerms>> rowsOf(
        const std::vector<MeasuredShape>& shapes, const std::vector<std::size_t>& at) {
        std::vector<std::array<long double, kTerms>> rows;
        for (std::size_t i : at)
            rows.push_back(termsOf(shapes[i].batch, shapes[i].seq, shapes[i].vocab));
        return rows;
    }
    static bool isPeak(std::size_t field) { return (field >= 2 && field <= 4) || field == 6; }
    const MeasuredShape& byteShape(std::size_t k) const { return shapes_[bytesAt_[k]]; }

    // Solved on the solving shapes; `residual` grows by the largest difference at any shape.
    template <class Get>
    FitCoefficients fitBytes(const std::vector<const UnitCost*>& costs, std::int64_t* residual,
                             Get get) const {
        std::vector<long double> values;
        for (std::size_t k = 0; k < solving(); ++k)
            values.push_back(static_cast<long double>(get(*costs[k])));
        const FitCoefficients c = bytes_.solve(values);
        for (std::size_t k = 0; k < costs.size(); ++k) {
            const MeasuredShape& s = byteShape(k);
            const std::int64_t diff = bytesAt(c, s.batch, s.seq, s.vocab) - get(*costs[k]);
            *residual = std::max(*residual, diff < 0 ? -diff : diff);
        }
        return c;
    }

    void checkBytes(const FitCoefficients& c, const std::vector<const UnitCost*>& costs,
                    std::int64_t* residual, std::size_t field) const {
        for (std::size_t k = 0; k < costs.size(); ++k) {
            const MeasuredShape& s = byteShape(k);
            const std::int64_t diff = bytesAt(c, s.batch, s.seq, s.vocab) -
                                      *byteField(const_cast<UnitCost&>(*costs[k]), field);
            *residual = std::max(*residual, diff < 0 ? -diff : diff);
        }
    }

    // A fixed cost and a rate per unit of work, neither negative, by least squares over the
    // timed shapes; then written in the terms, as the work is a polynomial in them.
    FitCoefficients fitTimes(const std::vector<const UnitCost*>& all, std::size_t field,
                             const Work& work) const {
        if (!work.at) return {};
        std::vector<std::array<long double, kTerms>> rows;
        std::vector<long double> values;
        for (std::size_t i : timedAt_) {
            std::array<long double, kTerms> row{};
            row[0] = 1;
            row[1] = work.at(shapes_[i]);
            rows.push_back(row);
            values.push_back(*msField(const_cast<UnitCost&>(*all[i]), field));
        }
        const FitCoefficients rate = nonNegativeFit(rows, {true, true}, values);
        FitCoefficients c = work.terms;
        for (double& x : c) x *= rate[1];
        c[0] += rate[0];
        return c;
    }

    std::vector<FitCoefficients> fitVector(const std::vector<const UnitCost*>& costs,
                                           std::int64_t* residual,
                                           std::vector<std::int64_t> UnitCost::*member) const {
        std::vector<FitCoefficients> out;
        const std::size_t n = ((*costs.front()).*member).size();
        for (const UnitCost* c : costs)
            if ((c->*member).size() != n)
                throw std::invalid_argument("fitCosts: a unit's tensors differ between shapes");
        for (std::size_t k = 0; k < n; ++k)
            out.push_back(
                fitBytes(costs, residual, [&](const UnitCost& c) { return (c.*member)[k]; }));
        return out;
    }

    std::vector<FitCoefficients> fitScript(
        const std::vector<const UnitCost*>& costs, std::int64_t* residual,
        std::vector<AllocationStep> AllocationScript::*part) const {
        std::vector<FitCoefficients> out;
        const std::size_t n = (costs.front()->allocations.*part).size();
        for (std::size_t k = 0; k < n; ++k)
            out.push_back(fitBytes(costs, residual, [&](const UnitCost& c) {
                return (c.allocations.*part)[k].bytes;
            }));
        return out;
    }

    const std::vector<MeasuredShape>& shapes_;
    std::vector<std::size_t> bytesAt_, timedAt_;
    Solver bytes_;
};

UnitCost unitAt(const UnitFit& f, int b, int s, int v) {
    UnitCost c = f.shape;
    for (std::size_t i = 0; i < f.bytes.size(); ++i)
        *byteField(c, i) = bytesAt(f.bytes[i], b, s, v);
    for (std::size_t i = 0; i < f.ms.size(); ++i) *msField(c, i) = msAt(f.ms[i], b, s, v);
    for (std::size_t k = 0; k < f.parameter_tensors.size(); ++k)
        c.parameter_tensors[k] = bytesAt(f.parameter_tensors[k], b, s, v);
    for (std::size_t k = 0; k < f.optimizer_state_tensors.size(); ++k)
        c.optimizer_state_tensors[k] = bytesAt(f.optimizer_state_tensors[k], b, s, v);
    if (!f.scripts_fitted) {
        c.allocations = {};  // the replay places the aggregates
        return c;
    }
    auto place = [&](std::vector<AllocationStep>& steps, const std::vector<FitCoefficients>& fit) {
        for (std::size_t k = 0; k < steps.size(); ++k)
            if (steps[k].frees < 0) steps[k].bytes = bytesAt(fit[k], b, s, v);
    };
    place(c.allocations.forward, f.forward_script);
    place(c.allocations.backward, f.backward_script);
    place(c.allocations.nograd, f.nograd_script);
    place(c.allocations.optimizer, f.optimizer_script);
    if (f.peaks_from_scripts) {
        const ScriptPeaks p = peaksOf(c.allocations);
        c.forward_peak = p.forward;
        c.backward_peak = p.backward;
        c.nograd_peak = p.nograd;
        c.optimizer_peak = p.optimizer;
    }
    return c;
}

// "B=1 S=64 V=500 (timed), ..." of the shapes `keep` picks.
template <class Keep>
std::string shapeList(const std::vector<MeasuredShape>& shapes, Keep keep) {
    std::string out;
    for (const MeasuredShape& s : shapes) {
        if (!keep(s)) continue;
        out += (out.empty() ? "" : ", ") + std::string("B=") + std::to_string(s.batch) +
               " S=" + std::to_string(s.seq) + (s.vocab ? " V=" + std::to_string(s.vocab) : "") +
               (s.attention_chunk ? " chunk " + std::to_string(s.attention_chunk) : "");
    }
    return out;
}

// The sequences at which the byte shapes are measured are multiples of `step`, and the
// attention chunk of sequence S is S / chunks (0: the config's chunk).
struct SequenceStep {
    int step = 64;
    int chunks = 0;
};

// The most chunks a byte shape keeps: with more, its chunk pairs would make the measurement
// slow, and the shapes measure at the config's chunk instead (their scripts then differ).
constexpr int kMaxKeptChunks = 128;

SequenceStep sequenceStep(const ExperimentConfig& t) {
    const int lossChunks = std::max(1, t.loss_chunks);
    SequenceStep out;
    if (t.attention == AttentionKind::MemoryEfficient) {
        const int chunks = (t.seq + t.attention_chunk - 1) / t.attention_chunk;
        if (chunks <= kMaxKeptChunks) {
            int k = 1;
            while ((chunks * k) % lossChunks != 0 || chunks * k < 64) ++k;
            return {chunks * k, chunks};
        }
        out.step = std::max(out.step, t.attention_chunk);
    }
    out.step = (out.step + lossChunks - 1) / lossChunks * lossChunks;
    if (t.attention == AttentionKind::MemoryEfficient)
        while (out.step % t.attention_chunk != 0) out.step += lossChunks;
    return out;
}

// The sequences the times are measured at, at the config's own attention chunk: the
// largest as close to the target as a layer's forward and backward within kTimedFlops allow
// (the rate a matmul reaches grows with its size, so the times extrapolate from the nearest
// shape they can afford), then a half and a quarter of it, each a whole number of attention
// chunks and loss chunks.
constexpr double kTimedFlops = 1.5e12;

std::vector<int> timedSequences(const ExperimentConfig& target) {
    int step = std::max(1, target.loss_chunks);
    if (target.attention == AttentionKind::MemoryEfficient)
        while (step % target.attention_chunk != 0) step += std::max(1, target.loss_chunks);
    auto stepFlops = [&](int seq) {
        ExperimentConfig c = target;
        c.batch = 1;
        c.seq = seq;
        return 3 * blockForwardFlops(c);  // forward and backward
    };
    int largest = std::max(step, target.seq / step * step);
    while (largest > 4 * step && stepFlops(largest) > kTimedFlops)
        largest = largest / 2 / step * step;
    largest = std::max(largest, 4 * step);
    return {largest / 4 / step * step, largest / 2 / step * step, largest};
}

}  // namespace

std::vector<MeasuredShape> fitShapes(const ExperimentConfig& target) {
    const SequenceStep seq = sequenceStep(target);
    const int s = seq.step;
    const bool vocab = target.vocab > 0;
    const int v2 = vocab ? std::max(2, std::min(target.vocab, 8192)) : 0;
    const int v1 = v2 / 2;
    auto shape = [&](int b, int times, int v) {
        MeasuredShape m{b, times * s, v, false, true, 0};
        if (seq.chunks) m.attention_chunk = m.seq / seq.chunks;
        return m;
    };
    // Each family's solving shapes, then its check shape last. Batch 1 solves 1, S, S² (and
    // V, S·V); batches from 2 also the B terms.
    std::vector<MeasuredShape> shapes = {shape(1, 1, v1), shape(1, 2, v1), shape(1, 3, v1)};
    if (vocab) {
        shapes.push_back(shape(1, 1, v2));
        shapes.push_back(shape(1, 2, v2));
    }
    shapes.push_back(shape(1, vocab ? 3 : 4, vocab ? v2 : 0));
    for (const auto& [b, times] : {std::pair{2, 1}, {2, 2}, {2, 3}, {3, 1}, {3, 2}, {3, 3}})
        shapes.push_back(shape(b, times, v1));
    if (vocab) {
        shapes.push_back(shape(2, 1, v2));
        shapes.push_back(shape(2, 2, v2));
    }
    shapes.push_back(vocab ? shape(3, 2, v2) : shape(4, 2, 0));
    for (const int seqTimed : timedSequences(target))
        shapes.push_back({1, seqTimed, v2, true, false, 0});
    return shapes;
}

namespace {

// One family's fits: every unit of a block, the ends and the input.
CostFit::Family fitFamily(const ExperimentConfig& target, const std::vector<MeasuredShape>& shapes,
                          const std::vector<CostModel>& models, bool withVocab, bool batchOne,
                          std::int64_t* residual) {
    const UnitFitter fitter(shapes, withVocab, batchOne);
    auto flopsOf = [target](auto count) {
        return workOf([target, count](int b, int s, int v) {
            ExperimentConfig c = target;
            c.batch = b;
            c.seq = s;
            c.vocab = v;
            return count(c);
        });
    };
    CostFit::Family family;
    const auto perBlock = static_cast<std::size_t>(std::max(1, models.front().unitsPerBlock));
    for (std::size_t u = 0; u < perBlock; ++u) {
        std::vector<const UnitCost*> costs;
        for (const CostModel& m : models) costs.push_back(&m.units.at(u));
        const int part = static_cast<int>(u);
        family.layer.push_back(fitter.fit(
            costs, residual,
            flopsOf([part](const ExperimentConfig& c) { return unitForwardFlops(c, part); })));
    }
    if (!models.front().first || !models.front().last) return family;
    std::vector<const UnitCost*> firsts, lasts;
    for (const CostModel& m : models) {
        if (!m.first || !m.last) throw std::invalid_argument("fitCosts: ends in some shapes only");
        firsts.push_back(&*m.first);
        lasts.push_back(&*m.last);
    }
    // The embedding is a lookup: its work is the rows it copies.
    family.first = fitter.fit(firsts, residual, flopsOf([](const ExperimentConfig& c) {
                                  return double(c.batch) * c.seq * c.width;
                              }));
    family.last = fitter.fit(
        lasts, residual, flopsOf([](const ExperimentConfig& c) { return headForwardFlops(c); }));
    std::vector<UnitCost> inputs(models.size());  // the step's input as a unit's output
    std::vector<const UnitCost*> pointers;
    for (std::size_t i = 0; i < models.size(); ++i) {
        inputs[i].output_bytes = models[i].input_bytes;
        pointers.push_back(&inputs[i]);
    }
    family.input_bytes = fitter.fit(pointers, residual, Work{}).bytes[0];
    return family;
}

bool allUnits(const CostFit::Family& f, bool UnitFit::*flag) {
    return std::all_of(f.layer.begin(), f.layer.end(), [&](const UnitFit& u) { return u.*flag; }) &&
           (!f.first || ((*f.first).*flag && (*f.last).*flag));
}

}  // namespace

CostFit fitCosts(const ExperimentConfig& target, const std::vector<MeasuredShape>& shapes,
                 const std::vector<CostModel>& models) {
    if (shapes.size() != models.size() || models.empty())
        throw std::invalid_argument("fitCosts: one cost model per shape");
    const bool withVocab = target.vocab > 0;
    CostFit fit;
    fit.config = target;
    fit.shapes = shapes;
    fit.measured = models.front();
    std::int64_t residual = 0;
    fit.one = fitFamily(target, shapes, models, withVocab, true, &residual);
    fit.many = fitFamily(target, shapes, models, withVocab, false, &residual);
    fit.check_residual_bytes = residual;
    fit.check_shapes = 2;
    const bool scripts =
        allUnits(fit.one, &UnitFit::scripts_fitted) && allUnits(fit.many, &UnitFit::scripts_fitted);
    const bool peaks = allUnits(fit.one, &UnitFit::peaks_from_scripts) &&
                       allUnits(fit.many, &UnitFit::peaks_from_scripts);
    // The last byte shape of each family checks it.
    std::vector<bool> checks(shapes.size(), false);
    for (const bool one : {true, false})
        for (std::size_t i = shapes.size(); i-- > 0;)
            if (shapes[i].bytes && (shapes[i].batch == 1) == one) {
                checks[i] = true;
                break;
            }
    std::size_t at = 0;
    const std::string solving =
        shapeList(shapes, [&](const MeasuredShape& m) { return m.bytes && !checks[at++]; });
    at = 0;
    const std::string checked =
        shapeList(shapes, [&](const MeasuredShape&) { return checks[at++]; });
    fit.method =
        "one layer" + std::string(withVocab ? ", the embedding and the LM head" : "") +
        " measured at " + solving +
        "; every byte count solved exactly in the terms 1, S, S^2, B, B*S, B*S^2" +
        (withVocab ? ", V, B*S*V" : "") +
        " (batch 1 on its own: LibTorch allocates differently for one sequence)" +
        (peaks ? ", each peak replayed from the fitted allocations"
               : ", the peaks of units whose allocations differ between shapes fitted as "
                 "polynomials too, exact at the measured shapes only") +
        ", and checked at " + checked +
        "; each unit's times as a fixed cost plus its matmul FLOPs (the embedding's rows) at a "
        "rate, neither negative, by least squares over " +
        shapeList(shapes, [](const MeasuredShape& m) { return m.timed; }) + ", then extrapolated" +
        (scripts ? ""
                 : "; reserved bytes replayed from each unit's aggregates where the "
                   "shapes' allocation orders differ");
    return fit;
}

CostModel costsAt(const CostFit& fit, int batch, int seq, int depth) {
    const int v = fit.config.vocab;
    const CostFit::Family& f = batch == 1 ? fit.one : fit.many;
    CostModel c = fit.measured;
    c.units.clear();
    for (int b = 0; b < depth; ++b)
        for (const UnitFit& u : f.layer) c.units.push_back(unitAt(u, batch, seq, v));
    if (f.first) c.first = unitAt(*f.first, batch, seq, v);
    if (f.last) c.last = unitAt(*f.last, batch, seq, v);
    c.input_bytes = f.first ? bytesAt(f.input_bytes, batch, seq, v) : 0;
    return c;
}

}  // namespace ckptlab
