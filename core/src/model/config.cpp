#include "ckptlab/config.h"

#include <cmath>
#include <stdexcept>

#include "ckptlab/config_fields.h"
#include "ckptlab/number_text.h"

namespace ckptlab {

std::vector<FieldError> validate(const ExperimentConfig& c) {
    std::vector<FieldError> errors;
    // Every plain range, for every block kind (a value out of range is a typo even where the
    // block does not read it). Below memory-limit's smallest value nothing would be enforced
    // (the tracker counts whole bytes and 0 is no limit), so such a value is refused rather
    // than recorded as a limit that never applied.
    for (const ConfigField& field : configFields())
        if (auto error = rangeError(field, c)) errors.push_back(std::move(*error));
    // The rules across fields.
    if (c.block == BlockKind::Transformer && c.heads >= 1) {
        if (c.width % c.heads != 0) {
            errors.push_back({"heads",
                              {MessageCode::HeadsMustDivideWidth,
                               {std::to_string(c.width), std::to_string(c.heads)}}});
        }
        if (c.kv_heads >= 1 && c.heads % c.kv_heads != 0) {
            errors.push_back({"kv-heads",
                              {MessageCode::KvHeadsMustDivideHeads,
                               {std::to_string(c.heads), std::to_string(c.kv_heads)}}});
        }
    }
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

std::string toString(BlockKind kind) { return kind == BlockKind::Ffn ? "ffn" : "transformer"; }

std::string toString(DType dtype) { return dtype == DType::Float32 ? "float32" : "bfloat16"; }

std::string toString(Optimizer optimizer) {
    switch (optimizer) {
    case Optimizer::Sgd: return "sgd";
    case Optimizer::Adam: return "adam";
    case Optimizer::None: break;
    }
    return "none";
}

std::optional<BlockKind> parseBlockKind(const std::string& text) {
    if (text == "ffn") return BlockKind::Ffn;
    if (text == "transformer") return BlockKind::Transformer;
    return std::nullopt;
}

std::optional<DType> parseDType(const std::string& text) {
    if (text == "float32" || text == "fp32") return DType::Float32;
    if (text == "bfloat16" || text == "bf16") return DType::BFloat16;
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
