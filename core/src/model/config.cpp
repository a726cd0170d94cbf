#include "ckptlab/model/config.h"

#include <atomic>
#include <cmath>
#include <stdexcept>

#include "ckptlab/model/block_kinds.h"
#include "ckptlab/model/config_fields.h"
#include "ckptlab/model/number_text.h"
#include "ckptlab/model/saturating.h"

namespace ckptlab {
namespace {

// Heads against width, grouped-query heads against heads, the rotary head width and dropout
// against the attention kind, each for the kinds that read those fields (blockKinds()).
void attentionRules(const ExperimentConfig& c, std::vector<FieldError>& errors) {
    const BlockKindInfo& kind = blockKind(c.block);
    if (!kind.attention || c.heads < 1) return;
    // Without a head width of its own, a head is width / heads wide.
    if (c.width % c.heads != 0 && !(kind.uses("head-dim") && c.head_dim > 0)) {
        if (kind.uses("head-dim"))
            errors.push_back({"head-dim",
                              {MessageCode::HeadDimNotFormed,
                               {std::to_string(c.width), std::to_string(c.heads)}}});
        else
            errors.push_back({"heads",
                              {MessageCode::HeadsMustDivideWidth,
                               {std::to_string(c.width), std::to_string(c.heads)}}});
    } else if (kind.uses("rope-theta") && headDimOf(c) % 2 != 0) {
        // Rotary embeddings turn pairs of a head's channels.
        errors.push_back(
            {"head-dim", {MessageCode::HeadDimMustBeEven, {std::to_string(headDimOf(c))}}});
    }
    if (kind.uses("kv-heads") && c.kv_heads >= 1 && c.heads % c.kv_heads != 0) {
        errors.push_back({"kv-heads",
                          {MessageCode::KvHeadsMustDivideHeads,
                           {std::to_string(c.heads), std::to_string(c.kv_heads)}}});
    }
    // Our memory-efficient kernel and LibTorch's sdpa would draw dropout masks the checkpoint
    // cannot replay from the run's generator, so both run without dropout.
    if (kind.uses("dropout") && c.attention != AttentionKind::Eager && c.dropout > 0) {
        errors.push_back({"dropout",
                          {MessageCode::AttentionWithoutDropout,
                           {toString(c.attention), formatShortest(c.dropout)}}});
    }
}

// The LM head's options need a vocabulary, and its sequence chunks at least a token each.
void chainEndRules(const ExperimentConfig& c, std::vector<FieldError>& errors) {
    if (!hasChainEnds(c)) {
        if (c.loss_chunks != 1)
            errors.push_back(
                {"loss-chunks",
                 {MessageCode::NeedsVocab, {"loss-chunks", std::to_string(c.loss_chunks)}}});
        if (c.tie_embeddings)
            errors.push_back(
                {"tie-embeddings", {MessageCode::NeedsVocab, {"tie-embeddings", "true"}}});
        return;
    }
    if (c.loss_chunks > c.seq)
        errors.push_back({"loss-chunks",
                          {MessageCode::LossChunksAboveTokens,
                           {std::to_string(c.seq), std::to_string(c.loss_chunks)}}});
}

// Byte counts that would pass 2^63 inside the plain ranges: no single tensor does (eager scores
// are at most 2^54 bytes, the logits below 2^63 with their gradients), but the scores eager
// attention keeps of all layers together can, and a saturated estimate would only say "does not
// fit" without saying why.
void overflowRules(const ExperimentConfig& c, std::vector<FieldError>& errors) {
    using sat::mul;
    // The scores, the probabilities and a dropout mask per layer, at 4 bytes, the widest.
    if (blockKind(c.block).attention && c.attention == AttentionKind::Eager &&
        sat::saturated(mul(c.depth, mul(c.batch, c.heads, c.seq, c.seq), 4, 3)))
        errors.push_back({"seq", {MessageCode::AttentionScoresOverflow, {"seq"}}});
}

}  // namespace

namespace {
std::atomic<std::uint64_t> validations{0};
}  // namespace

std::uint64_t validateCalls() { return validations.load(std::memory_order_relaxed); }

std::vector<FieldError> validate(const ExperimentConfig& c) {
    validations.fetch_add(1, std::memory_order_relaxed);
    std::vector<FieldError> errors;
    // Every plain range, for every block kind (a value out of range is a typo even where the
    // block does not read it). Below memory-limit's smallest value nothing would be enforced
    // (the tracker counts whole bytes and 0 is no limit), so such a value is refused rather
    // than recorded as a limit that never applied.
    for (const ConfigField& field : configFields())
        if (auto error = rangeError(field, c)) errors.push_back(std::move(*error));
    // The rules across fields.
    attentionRules(c, errors);
    chainEndRules(c, errors);
    overflowRules(c, errors);
    if (!parseDeviceIndex(c.device)) {
        errors.push_back(
            {"device",
             {MessageCode::DeviceUnknown, {std::to_string(limits::cudaDeviceMax), c.device}}});
    }
    return errors;
}

std::optional<int> parseDeviceIndex(const std::string& device) {
    if (device == "cpu") return -1;
    if (device == "cuda") return 0;
    const std::string prefix = "cuda:";
    if (device.rfind(prefix, 0) != 0) return std::nullopt;
    const std::string digits = device.substr(prefix.size());
    if (digits.empty() || digits.size() > 2) return std::nullopt;
    for (char ch : digits)
        if (ch < '0' || ch > '9') return std::nullopt;
    const auto index = parseInteger(digits);
    if (!index || *index > limits::cudaDeviceMax) return std::nullopt;
    return static_cast<int>(*index);
}

std::string toString(BlockKind kind) { return blockKind(kind).name; }

// Files keep the names they always had for fp32 and bf16, so older files read the same.
std::string toString(DType dtype) {
    switch (dtype) {
    case DType::BFloat16: return "bfloat16";
    case DType::MixedBFloat16: return "mixed-bf16";
    case DType::Float32: break;
    }
    return "float32";
}

std::string toString(AttentionKind kind) {
    switch (kind) {
    case AttentionKind::MemoryEfficient: return "memory-efficient";
    case AttentionKind::Sdpa: return "sdpa";
    case AttentionKind::Eager: break;
    }
    return "eager";
}

std::optional<AttentionKind> parseAttentionKind(const std::string& text) {
    if (text == "eager") return AttentionKind::Eager;
    if (text == "memory-efficient") return AttentionKind::MemoryEfficient;
    if (text == "sdpa") return AttentionKind::Sdpa;
    return std::nullopt;
}

std::string toString(Optimizer optimizer) {
    switch (optimizer) {
    case Optimizer::Sgd: return "sgd";
    case Optimizer::Adam: return "adam";
    case Optimizer::None: break;
    }
    return "none";
}

std::optional<BlockKind> parseBlockKind(const std::string& text) {
    for (const BlockKindInfo& row : blockKinds())
        if (text == row.name) return row.kind;
    return std::nullopt;
}

std::optional<DType> parseDType(const std::string& text) {
    if (text == "float32" || text == "fp32") return DType::Float32;
    if (text == "bfloat16" || text == "bf16") return DType::BFloat16;
    if (text == "mixed-bf16") return DType::MixedBFloat16;
    return std::nullopt;
}

std::optional<std::uint64_t> parseSeed(const std::string& text) {
    if (text.empty() || text.size() > 20) return std::nullopt;
    std::uint64_t value = 0;
    for (char ch : text) {
        if (ch < '0' || ch > '9') return std::nullopt;
        const std::uint64_t digit = static_cast<std::uint64_t>(ch - '0');
        if (value > (UINT64_MAX - digit) / 10) return std::nullopt;
        value = value * 10 + digit;
    }
    return value;
}

std::optional<Optimizer> parseOptimizer(const std::string& text) {
    if (text == "none") return Optimizer::None;
    if (text == "sgd") return Optimizer::Sgd;
    if (text == "adam") return Optimizer::Adam;
    return std::nullopt;
}

std::string toString(AllocatorKind kind) {
    return kind == AllocatorKind::System ? "system" : "caching";
}

std::optional<AllocatorKind> parseAllocatorKind(const std::string& text) {
    if (text == "caching") return AllocatorKind::Caching;
    if (text == "system") return AllocatorKind::System;
    return std::nullopt;
}

int bytesPerElement(DType dtype) { return dtype == DType::Float32 ? 4 : 2; }

int parameterBytesPerElement(DType dtype) { return dtype == DType::BFloat16 ? 2 : 4; }

// The effective values: a field counts only for the kinds that read it (blockKinds()).
int headDimOf(const ExperimentConfig& c) {
    if (c.head_dim > 0 && blockKind(c.block).uses("head-dim")) return c.head_dim;
    return c.heads > 0 ? c.width / c.heads : 0;
}

int kvHeadsOf(const ExperimentConfig& c) {
    return c.kv_heads > 0 && blockKind(c.block).uses("kv-heads") ? c.kv_heads : c.heads;
}

int ffnWidthOf(const ExperimentConfig& c) {
    return c.ffn_width > 0 ? c.ffn_width : blockKind(c.block).defaultFfnWidth(c.width);
}

bool hasChainEnds(const ExperimentConfig& c) { return c.vocab > 0; }

std::vector<std::string> splitList(const std::string& text, const std::string& field) {
    std::vector<std::string> items;
    if (text.find_first_not_of(" \t") == std::string::npos) return items;
    std::size_t start = 0;
    for (int position = 1;; ++position) {
        const std::size_t comma = text.find(',', start);
        std::string item = text.substr(start, comma == std::string::npos ? comma : comma - start);
        const auto first = item.find_first_not_of(" \t");
        const auto last = item.find_last_not_of(" \t");
        item = first == std::string::npos ? "" : item.substr(first, last - first + 1);
        if (item.empty())
            throw std::invalid_argument(field + ": item " + std::to_string(position) + " of \"" +
                                        text + "\" is empty (a doubled or trailing comma?)");
        items.push_back(item);
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return items;
}

std::vector<int> parseIntList(const std::string& text, const std::string& field, IntRange range) {
    std::vector<int> values;
    const auto items = splitList(text, field);
    for (std::size_t i = 0; i < items.size(); ++i) {
        const std::string& item = items[i];
        const auto value = parseInteger(item);
        if (!value || *value < range.min || *value > range.max)
            throw std::invalid_argument(field + ": item " + std::to_string(i + 1) + " (\"" + item +
                                        "\") must be a whole number between " +
                                        std::to_string(range.min) + " and " +
                                        std::to_string(range.max));
        values.push_back(static_cast<int>(*value));
    }
    return values;
}

std::vector<double> parseNumberList(const std::string& text, const std::string& field) {
    std::vector<double> values;
    const auto items = splitList(text, field);
    for (std::size_t i = 0; i < items.size(); ++i) {
        const std::string& item = items[i];
        const auto value = parseDecimal(item);
        if (!value || !std::isfinite(*value))
            throw std::invalid_argument(field + ": item " + std::to_string(i + 1) + " (\"" + item +
                                        "\") is not a number");
        values.push_back(*value);
    }
    return values;
}

}  // namespace ckptlab
