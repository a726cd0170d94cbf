#include "engine/grad_check.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "ckptlab/model/block_kinds.h"
#include "engine/chain_ends.h"
#include "engine/model.h"

namespace ckptlab::engine {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// max that keeps a NaN from either side: std::max(worst, NaN) would keep `worst`.
double worseOf(double a, double b) {
    if (std::isnan(a) || std::isnan(b)) return kNaN;
    return a < b ? b : a;
}

// How one gradient compares with its reference, element by element.
struct PairComparison {
    double maxAbsDiff = 0;  // finite, Inf or NaN, as maxAbsDiff() documents
    std::int64_t elements = 0;
    std::int64_t nanHereOnly = 0;  // NaN in the checked run, a number in the reference
    std::int64_t nanReferenceOnly = 0;
    std::int64_t nanBoth = 0;
    std::int64_t infHere = 0;       // ±Inf in the checked run, a different number in the reference
    std::int64_t infReference = 0;  // ±Inf in the reference, a finite number in the checked run
    std::int64_t infBoth = 0;       // the same infinity in both
    bool allFinite() const {
        return nanHereOnly + nanReferenceOnly + nanBoth + infHere + infReference + infBoth == 0;
    }
};

std::int64_t count(const torch::Tensor& mask) { return mask.sum().item<std::int64_t>(); }

PairComparison comparePair(const torch::Tensor& reference, const torch::Tensor& gradient) {
    PairComparison c;
    if (!reference.defined() && !gradient.defined()) return c;
    const torch::Tensor a =
        (reference.defined() ? reference : torch::zeros_like(gradient)).to(torch::kFloat64);
    const torch::Tensor b =
        (gradient.defined() ? gradient : torch::zeros_like(reference)).to(torch::kFloat64);
    TORCH_CHECK(a.sizes() == b.sizes(), "gradient check: a gradient of shape ", b.sizes(),
                " against a reference of shape ", a.sizes());
    c.elements = a.numel();
    if (c.elements == 0) return c;
    const torch::Tensor diff = (a - b).abs();
    const double worst = diff.max().item<double>();
    // Differences of finite doubles converted from float32/bfloat16 are finite, so a finite
    // maximum means every element of both is finite.
    if (std::isfinite(worst)) {
        c.maxAbsDiff = worst;
        return c;
    }
    const torch::Tensor nanA = a.isnan(), nanB = b.isnan();
    const torch::Tensor infA = a.isinf(), infB = b.isinf();
    const torch::Tensor same = a.eq(b);  // false wherever either is NaN
    c.nanBoth = count(nanA & nanB);
    c.nanHereOnly = count(nanB & ~nanA);
    c.nanReferenceOnly = count(nanA & ~nanB);
    c.infBoth = count(infA & infB & same);
    c.infHere = count(infB & ~same & ~nanA);
    c.infReference = count(infA & ~infB & ~nanB);
    const double finiteWorst =
        diff.masked_fill(~(a.isfinite() & b.isfinite()), 0).max().item<double>();
    c.maxAbsDiff = c.nanHereOnly + c.nanReferenceOnly > 0 ? kNaN
                   : c.infHere + c.infReference > 0       ? kInf
                                                          : finiteWorst;
    return c;
}

std::vector<PairComparison> compareAll(const std::vector<torch::Tensor>& reference,
                                       const std::vector<torch::Tensor>& gradients) {
    TORCH_CHECK(reference.size() == gradients.size(), "gradient check: ", reference.size(),
                " reference gradients but ", gradients.size(), " to check");
    std::vector<PairComparison> pairs;
    pairs.reserve(reference.size());
    for (std::size_t i = 0; i < reference.size(); ++i)
        pairs.push_back(comparePair(reference[i], gradients[i]));
    return pairs;
}

double foldMaxAbsDiff(const std::vector<PairComparison>& pairs) {
    double worst = 0;
    for (const auto& c : pairs) worst = worseOf(worst, c.maxAbsDiff);
    return worst;
}

// "NaN in 12 of 4096 elements of block 3 ffn.up.weight where the reference has numbers; ..."
std::string describeNonFinite(const std::vector<PairComparison>& pairs,
                              const std::vector<std::string>& names) {
    constexpr std::size_t kMostParts = 4;
    std::vector<std::string> parts;
    std::size_t more = 0;
    auto add = [&](std::int64_t n, const PairComparison& c, const std::string& name,
                   const std::string& before, const std::string& after) {
        if (n == 0) return;
        if (parts.size() == kMostParts) {
            ++more;
            return;
        }
        parts.push_back(before + std::to_string(n) + " of " + std::to_string(c.elements) +
                        " elements of " + name + after);
    };
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        const PairComparison& c = pairs[i];
        if (c.allFinite()) continue;
        const std::string name =
            i < names.size() && !names[i].empty() ? names[i] : "gradient " + std::to_string(i);
        add(c.nanHereOnly, c, name, "NaN in ", " where the reference has numbers");
        add(c.nanReferenceOnly, c, name, "NaN in the reference in ", " where this run has numbers");
        add(c.nanBoth, c, name, "NaN in both runs in the same ", "");
        add(c.infHere, c, name, "Inf in ", " where the reference differs");
        add(c.infReference, c, name, "Inf in the reference in ", " where this run is finite");
        add(c.infBoth, c, name, "the same Inf in both runs in ", "");
    }
    std::string note;
    for (const auto& part : parts) note += (note.empty() ? "" : "; ") + part;
    if (more > 0) note += "; and " + std::to_string(more) + " more";
    return note;
}

// Every pair holds the same bits: compared as integers of the element's width, so -0 and +0
// differ and equal NaNs match. A gradient missing on one side only is not equal.
bool bitwiseEqual(const std::vector<torch::Tensor>& reference,
                  const std::vector<torch::Tensor>& gradients) {
    for (std::size_t i = 0; i < reference.size(); ++i) {
        const torch::Tensor& a = reference[i];
        const torch::Tensor& b = gradients[i];
        if (a.defined() != b.defined()) return false;
        if (!a.defined()) continue;
        if (a.scalar_type() != b.scalar_type() || a.sizes() != b.sizes()) return false;
        const auto bits = a.element_size() == 2   ? torch::kInt16
                          : a.element_size() == 4 ? torch::kInt32
                                                  : torch::kInt64;
        if (!torch::equal(a.contiguous().view(bits), b.contiguous().view(bits))) return false;
    }
    return true;
}

// Largest finite |g| of the reference gradients.
double finiteScale(const std::vector<torch::Tensor>& reference) {
    double scale = 0;
    for (const auto& g : reference) {
        if (!g.defined() || g.numel() == 0) continue;
        const torch::Tensor magnitude = g.abs().to(torch::kFloat64);
        double largest = magnitude.max().item<double>();
        if (!std::isfinite(largest))
            largest = magnitude.masked_fill(~magnitude.isfinite(), 0).max().item<double>();
        scale = worseOf(scale, largest);
    }
    return scale;
}

}  // namespace

std::vector<torch::Tensor> snapshot(const std::vector<torch::Tensor>& gradients) {
    std::vector<torch::Tensor> copies;
    for (const auto& g : gradients) copies.push_back(g.defined() ? g.detach().clone() : g);
    return copies;
}

double maxAbsDiff(const std::vector<torch::Tensor>& reference,
                  const std::vector<torch::Tensor>& gradients) {
    return foldMaxAbsDiff(compareAll(reference, gradients));
}

static GradCheckSize chainedReductions(const ExperimentConfig& config) {
    // The longest inner size of a block's products: the MLP's hidden width, the model width,
    // the attention's heads · head width, or the tokens a weight's gradient sums over.
    const BlockKindInfo& kind = blockKind(config.block);
    const std::int64_t attentionWidth =
        kind.attention ? std::int64_t{config.heads} * headDimOf(config) : 0;
    const std::int64_t reduction =
        std::max({std::int64_t{ffnWidthOf(config)}, std::int64_t{config.width}, attentionWidth,
                  std::int64_t{config.batch} * config.seq});
    const int perBlock = kind.chainedLayersPerBlock;
    if (hasChainEnds(config)) {
        // The LM head's input gradient sums over the vocabulary; the final norm and the head
        // add two layers, the embedding's gradient only gathers.
        return {config.dtype, std::max<std::int64_t>(reduction, config.vocab),
                config.depth * perBlock + 3};
    }
    return {config.dtype, reduction, config.depth * perBlock + 1};
}

GradCheckSize gradCheckSize(const ExperimentConfig& config) {
    GradCheckSize size = chainedReductions(config);
    if (config.dtype == DType::MixedBFloat16) {
        // Each block's norms, the loss, and with chain ends the final norm: autocast runs them
        // on fp32 inputs in fp32.
        const int normsPerBlock = blockKind(config.block).normsPerBlock;
        size.fp32Layers = config.depth * normsPerBlock + 1 + (hasChainEnds(config) ? 1 : 0);
    }
    return size;
}

double gradTolerance(const GradCheckSize& size, double scale) {
    constexpr double uSum = 1.0 / (1 << 24);  // float32's unit roundoff
    constexpr double lambda = 10;
    const double uOut = size.dtype == DType::Float32 ? 0.0 : 1.0 / (1 << 8);  // bf16's u
    const int rounded = size.dtype == DType::MixedBFloat16
                            ? std::max(0, size.layers - size.fp32Layers)
                            : size.layers;
    const double n = static_cast<double>(size.reduction) * size.layers;
    const double worstCase = n * uSum < 1 ? n * uSum / (1 - n * uSum) : kInf;
    const double probable = std::expm1(lambda * std::sqrt(n) * uSum + n * uSum * uSum / (1 - uSum));
    return 2 * (rounded * uOut + std::min(worstCase, probable)) * scale;
}

GradCheck checkGradients(const std::vector<torch::Tensor>& reference,
                         const std::vector<torch::Tensor>& gradients, const GradCheckSize& size,
                         const std::vector<std::string>& names) {
    const std::vector<PairComparison> pairs = compareAll(reference, gradients);
    GradCheck check;
    check.checked = true;
    check.max_abs_diff = foldMaxAbsDiff(pairs);
    check.tolerance = gradTolerance(size, finiteScale(reference));
    check.note = describeNonFinite(pairs, names);
    check.bitwise_equal = bitwiseEqual(reference, gradients);
    return check;
}

std::vector<std::string> gradientNames(const Model& model) {
    std::vector<std::string> names;
    if (!model.hasEnds()) names.push_back("input");
    if (model.hasEnds())
        for (const auto& p : model.embedding().named_parameters())
            names.push_back("embedding " + p.key());
    for (int i = 0; i < model.depth(); ++i)
        for (const auto& p : model.block(i).named_parameters())
            names.push_back("block " + std::to_string(i) + " " + p.key());
    if (model.hasEnds())
        for (const auto& p : model.head().named_parameters()) names.push_back("head " + p.key());
    return names;
}

}  // namespace ckptlab::engine
