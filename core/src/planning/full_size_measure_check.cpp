// What measuring a model's cost fit holds at its peak, estimated before anything runs, and the
// one memory check every full-size measurement makes with it (full_size.h). Arithmetic only:
// the CLI and the app ask it before they measure, measureCostFit before it builds anything.
#include <algorithm>
#include <cmath>
#include <set>

#include "ckptlab/model/number_text.h"
#include "ckptlab/model/saturating.h"
#include "ckptlab/planning/estimate.h"
#include "ckptlab/planning/full_size.h"

namespace ckptlab {
namespace {

// What measureCostFit's probes hold (measureCostModel at depth 1): the model of one layer and
// the chain's ends, and, one probe at a time (a part of the layer, the embedding, the head),
// that probe's gradients, optimizer state and step. The largest probe's parameters are at most
// a layer's, or a table's with the final norm.
struct Probes {
    std::int64_t largest = 0;      // one probe's parameter bytes, at most
    std::int64_t temporaries = 0;  // Adam's two tensors of a parameter's size, at most
};

Probes probesOf(const ExperimentConfig& target, int vocab) {
    ExperimentConfig layer = target;
    layer.depth = 1;
    layer.vocab = 0;
    const std::int64_t layerBytes = estimateMemory(layer, makePlan(Strategy{}, 1)).parameters;
    const std::int64_t element = parameterBytesPerElement(target.dtype);
    const std::int64_t table = sat::mul(vocab, target.width, element);
    // A layer's largest tensor is at most half of it (every block has two at least as large).
    return {std::max(layerBytes, sat::add(table, sat::mul(target.width, element))),
            std::max(layerBytes, sat::mul(2, table))};
}

// One shape: the analytic estimate of a one-layer chain without checkpoints and without an
// optimizer, its gradients of every parameter swapped for one probe's, with that probe's Adam
// moments and step temporaries where the shape measures the optimizer, and autocast's bf16
// copies of its weights with mixed-bf16.
std::int64_t shapeEstimate(const ExperimentConfig& target, const MeasuredShape& shape,
                           bool optimizer) {
    ExperimentConfig at = target;
    at.depth = 1;
    at.batch = shape.batch;
    at.seq = shape.seq;
    at.vocab = shape.vocab;
    if (shape.attention_chunk > 0) at.attention_chunk = shape.attention_chunk;
    at.optimizer = Optimizer::None;
    const MemoryEstimate m = estimateMemory(at, makePlan(Strategy{}, 1));
    const Probes probes = probesOf(target, shape.vocab);
    std::int64_t bytes = sat::add(m.total() - m.parameters, probes.largest);
    if (optimizer && target.optimizer == Optimizer::Adam)
        bytes = sat::add(bytes, sat::mul(2, probes.largest), probes.temporaries);
    if (target.dtype == DType::MixedBFloat16) bytes = sat::add(bytes, probes.largest / 2);
    return bytes;
}

// Sizes in GB with enough decimals to show both and tell them apart: two, up to six.
std::vector<std::string> gbTexts(std::int64_t need, std::int64_t available) {
    const double a = static_cast<double>(need) / 1e9, b = static_cast<double>(available) / 1e9;
    int decimals = 2;
    while (decimals < 6 && (formatFixed(a, decimals) == formatFixed(b, decimals) ||
                            a < 10 * std::pow(10, -decimals)))
        ++decimals;
    return {formatFixed(a, decimals), formatFixed(b, decimals)};
}

}  // namespace

std::int64_t fitMeasurePeakEstimate(const ExperimentConfig& target) {
    if (!validate(target).empty()) return 0;
    const std::vector<MeasuredShape> shapes = fitShapes(target);
    // measureCostFit measures the optimizer once per vocabulary, on the first shape of each
    // vocabulary among the byte shapes and again among the timed ones.
    const bool withOptimizer = target.optimizer != Optimizer::None;
    std::set<std::pair<bool, int>> optimizerMeasured;
    std::int64_t peak = 0;
    for (const MeasuredShape& shape : shapes) {
        const bool optimizer =
            withOptimizer && optimizerMeasured.insert({shape.timed, shape.vocab}).second;
        peak = std::max(peak, shapeEstimate(target, shape, optimizer));
    }
    return peak;
}

std::optional<CoreMessage> fitMeasureRefusal(const ExperimentConfig& target,
                                             std::int64_t available) {
    if (available <= 0) return std::nullopt;
    const std::int64_t need = fitMeasurePeakEstimate(target);
    if (need <= available) return std::nullopt;
    return CoreMessage(MessageCode::FitMeasureTooLarge, gbTexts(need, available));
}

}  // namespace ckptlab
