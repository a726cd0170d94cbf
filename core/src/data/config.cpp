#include "ckptlab/config.h"

#include <cmath>

namespace ckptlab {
namespace {

void checkRange(std::vector<FieldError>& errors, const char* field, long long value,
                IntRange range) {
    if (value < range.min || value > range.max) {
        errors.push_back({field, std::string(field) + " must be between " +
                                     std::to_string(range.min) + " and " +
                                     std::to_string(range.max) + " (got " +
                                     std::to_string(value) + ")"});
    }
}

}  // namespace

std::vector<FieldError> validate(const ExperimentConfig& c) {
    std::vector<FieldError> errors;
    checkRange(errors, "depth", c.depth, limits::depth);
    checkRange(errors, "width", c.width, limits::width);
    checkRange(errors, "seq", c.seq, limits::seq);
    checkRange(errors, "batch", c.batch, limits::batch);
    checkRange(errors, "threads", c.threads, limits::threads);
    checkRange(errors, "warmup", c.warmup, limits::warmup);
    checkRange(errors, "repeats", c.repeats, limits::repeats);
    if (c.block == BlockKind::Transformer) {
        checkRange(errors, "heads", c.heads, limits::heads);
        if (c.heads >= 1 && c.width % c.heads != 0) {
            errors.push_back({"heads", "heads must divide width (width " +
                                           std::to_string(c.width) + ", heads " +
                                           std::to_string(c.heads) + ")"});
        }
    }
    if (!(c.dropout >= 0.0 && c.dropout <= limits::dropoutMax)) {
        errors.push_back({"dropout", "dropout must be between 0 and 0.9 (got " +
                                         std::to_string(c.dropout) + ")"});
    }
    if (c.device != "cpu" && c.device != "cuda" && c.device.rfind("cuda:", 0) != 0) {
        errors.push_back({"device", "device must be cpu, cuda or cuda:N (got \"" + c.device +
                                        "\")"});
    }
    return errors;
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

std::optional<Optimizer> parseOptimizer(const std::string& text) {
    if (text == "none") return Optimizer::None;
    if (text == "sgd") return Optimizer::Sgd;
    if (text == "adam") return Optimizer::Adam;
    return std::nullopt;
}

int bytesPerElement(DType dtype) { return dtype == DType::Float32 ? 4 : 2; }

}  // namespace ckptlab
