// measureCostFit: the cost model of a model at its real size from measurements at small shapes
// (full_size.h). Each shape is a whole cost-model measurement (one layer and the chain's ends)
// at that batch, sequence and vocabulary; most measure only bytes, the timed ones also times.
//
// What depends on the parameters only is measured once per vocabulary, not at every shape:
// the optimizer's state, its step's temporaries and time (an Adam step over a large layer
// takes seconds, more than the layer's own step at the small shapes), and how much slower a
// kept layer's backward is than a recomputed one's. Every other shape runs without an
// optimizer and takes those fields from the shape of its vocabulary that measured them.
#include <sys/resource.h>

#include <fstream>
#include <map>
#include <sstream>

#include "ckptlab/engine/runner.h"
#include "ckptlab/planning/full_size.h"
#include "engine/measurement_scope.h"

namespace ckptlab {
namespace {

// A kept layer's slower backward is timed on a chain of two layers, when two layers and their
// gradients fit in a quarter of the free memory; else not at all (ratio 1), which the method
// says.
int keptChainDepth(const ExperimentConfig& config, std::int64_t layerBytes) {
    const std::int64_t free = availableMemory(config.device);
    return free > 0 && 2 * 2 * layerBytes < free / 4 ? std::min(config.depth, 2) : 1;
}

std::int64_t layerParameterBytes(const CostModel& costs) {
    std::int64_t bytes = 0;
    for (int u = 0; u < costs.unitsPerBlock() && u < static_cast<int>(costs.units.size()); ++u)
        bytes += costs.units[static_cast<std::size_t>(u)].param_grad_bytes;
    return bytes;
}

std::string shapeText(const MeasuredShape& shape) {
    return "B=" + std::to_string(shape.batch) + " S=" + std::to_string(shape.seq) +
           (shape.vocab ? " V=" + std::to_string(shape.vocab) : "") +
           (shape.attention_chunk ? " chunk " + std::to_string(shape.attention_chunk) : "") +
           (shape.timed ? (shape.bytes ? " (memory and times)" : " (times)") : " (memory)");
}

// The optimizer's fields of every unit, from `from` into `to` (same units, same parameters).
void copyOptimizer(const CostModel& from, CostModel& to) {
    auto copy = [](const UnitCost& a, UnitCost& b) {
        b.optimizer_peak = a.optimizer_peak;
        b.optimizer_state_tensors = a.optimizer_state_tensors;
        b.optimizer_ms = a.optimizer_ms;
        b.allocations.optimizer = a.allocations.optimizer;
    };
    for (std::size_t u = 0; u < to.units.size() && u < from.units.size(); ++u)
        copy(from.units[u], to.units[u]);
    if (from.first && to.first) copy(*from.first, *to.first);
    if (from.last && to.last) copy(*from.last, *to.last);
    to.optimizer = from.optimizer;
}

}  // namespace

// An address-space limit (ulimit -v) fails an allocation before the memory runs out: the bytes
// measuring can take are the least of what the device gives and what the limit leaves.
std::int64_t measuringMemory(const std::string& device) {
    std::int64_t available = availableMemory(device);
    rlimit limit{};
    if (device != "cpu" || getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
        return available;
    std::ifstream status("/proc/self/status");
    std::string line;
    std::int64_t usedKib = 0;
    while (std::getline(status, line))
        if (line.rfind("VmSize:", 0) == 0) {
            std::istringstream in(line.substr(7));
            in.imbue(std::locale::classic());
            in >> usedKib;
        }
    const auto cap = static_cast<std::int64_t>(limit.rlim_cur);
    const std::int64_t left = std::max<std::int64_t>(1, cap - usedKib * 1024);
    return available > 0 ? std::min(available, left) : left;
}

void checkFitMeasurable(const ExperimentConfig& config) {
    const std::int64_t available = measuringMemory(config.device);
    if (const auto refusal = fitMeasureRefusal(config, available))
        throw MemoryError(*refusal, fitMeasurePeakEstimate(config), available);
}

CostFit measureCostFit(const ExperimentConfig& config,
                       const std::function<void(const std::string&, int, int)>& progress,
                       const std::atomic<bool>* cancel) {
    // Before anything is built: one layer too large for this machine is refused, not killed.
    checkFitMeasurable(config);
    const engine::MeasurementScope measuring(config.threads, cancel);
    const std::vector<MeasuredShape> shapes = fitShapes(config);
    const int total = static_cast<int>(shapes.size());
    std::vector<CostModel> models(shapes.size());
    // Per vocabulary, the shape whose optimizer was measured; the same for its times.
    std::map<int, std::size_t> optimizerBytes, optimizerTimes;
    int keptDepth = 0;       // 0: not decided yet (the first timed shape decides)
    double keptRatio = 1.0;  // a kept layer's backward over a recomputed one's
    const bool withOptimizer = config.optimizer != Optimizer::None;
    for (std::size_t i = 0; i < shapes.size(); ++i) {
        const MeasuredShape& shape = shapes[i];
        if (progress) progress(shapeText(shape), static_cast<int>(i), total);
        ExperimentConfig at = config;
        at.batch = shape.batch;
        at.seq = shape.seq;
        at.vocab = shape.vocab;
        if (shape.attention_chunk > 0) at.attention_chunk = shape.attention_chunk;
        auto& measuredFor = shape.timed ? optimizerTimes : optimizerBytes;
        const bool measuresOptimizer = withOptimizer && !measuredFor.count(shape.vocab);
        if (!measuresOptimizer) at.optimizer = Optimizer::None;
        at.depth = 1;
        if (shape.timed && keptDepth == 0) {
            // The kept chain's size needs a layer's bytes: a shape's measured before, or a
            // quick measurement of this one's bytes.
            ExperimentConfig bytesOnly = at;
            bytesOnly.optimizer = Optimizer::None;
            const std::int64_t layerBytes = layerParameterBytes(
                i > 0 ? models.front() : measureCostModel(bytesOnly, cancel, MeasureTimes::No));
            keptDepth = keptChainDepth(config, layerBytes);
            at.depth = keptDepth;
        }
        CostModel measured =
            measureCostModel(at, cancel, shape.timed ? MeasureTimes::Yes : MeasureTimes::No);
        measured = costModelAtDepth(measured, 1);
        // The fit is of a layer inside the chain; a sum loss's backward measured at one small
        // shape must not reach the full-size chain.
        removeChainTop(measured);
        for (UnitCost& u : measured.units) u.sum_loss.reset();
        if (shape.timed) {
            if (at.depth > 1) {
                const UnitCost& u = measured.units.front();
                keptRatio = u.backward_ms > 0 ? u.backward_kept_ms / u.backward_ms : 1.0;
            } else {
                for (UnitCost& u : measured.units) u.backward_kept_ms = u.backward_ms * keptRatio;
            }
        }
        if (measuresOptimizer)
            measuredFor[shape.vocab] = i;
        else if (withOptimizer)
            copyOptimizer(models[measuredFor.at(shape.vocab)], measured);
        models[i] = std::move(measured);
    }
    if (progress) progress("fit", total, total);
    CostFit fit = fitCosts(config, shapes, models);
    if (withOptimizer)
        fit.method +=
            "; the optimizer's state, temporaries and time measured once per vocabulary "
            "(they depend on the parameters only)";
    if (keptDepth < 2 && config.depth > 1)
        fit.method +=
            "; a kept layer's backward timed as a recomputed one's (two layers do not fit a "
            "quarter of the free memory to time it)";
    return fit;
}

}  // namespace ckptlab
