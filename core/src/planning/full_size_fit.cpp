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

#include "ckptlab/model/number_text.h"
#include "ckptlab/planning/flops.h"
#include "ckptlab/planning/full_size.h"
#include "planning/fit_scripts.h"
#include "planning/fit_terms.h"

namespace ckptlab {
namespace {

using namespace fit;

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

}  // namespace

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
    const auto perBlock = static_cast<std::size_t>(models.front().unitsPerBlock());
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
