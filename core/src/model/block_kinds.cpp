#include "ckptlab/model/block_kinds.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ckptlab {
namespace {

int fourTimesWidth(int width) { return 4 * width; }

// Llama's reference code: 2/3 of 4 x width, rounded up to a multiple of 256.
int llamaFfnWidth(int width) {
    const long long hidden = 2LL * 4 * width / 3;
    return static_cast<int>((hidden + 255) / 256 * 256);
}

std::vector<BlockKindInfo> makeTable() {
    return {
        // The seed's block: LayerNorm, d->f, ReLU, f->d.
        {BlockKind::Ffn, "ffn", {"ffn"}, false, NormKind::LayerNorm, 1, 2, fourTimesWidth, 3, {}},
        // Pre-LN attention (fused qkv, eager or chunked) and the seed's MLP.
        {BlockKind::Transformer,
         "transformer",
         {"attention", "ffn"},
         true,
         NormKind::LayerNorm,
         2,
         2,
         fourTimesWidth,
         9,
         {"heads", "dropout", "attention", "attention-chunk"}},
        // The Llama family's decoder layer: RMSNorm, rotary grouped-query attention, SwiGLU.
        {BlockKind::Llama,
         "llama",
         {"attention", "mlp"},
         true,
         NormKind::RmsNorm,
         2,
         3,
         llamaFfnWidth,
         9,
         {"heads", "kv-heads", "head-dim", "rope-theta", "rms-norm-eps", "qkv-bias", "attention",
          "attention-chunk"}},
    };
}

}  // namespace

bool BlockKindInfo::uses(std::string_view field) const {
    return std::any_of(fields.begin(), fields.end(),
                       [&](const char* name) { return field == name; });
}

const std::vector<BlockKindInfo>& blockKinds() {
    static const std::vector<BlockKindInfo> table = makeTable();
    return table;
}

const BlockKindInfo& blockKind(BlockKind kind) {
    for (const BlockKindInfo& row : blockKinds())
        if (row.kind == kind) return row;
    throw std::logic_error("block kind " + std::to_string(static_cast<int>(kind)) +
                           " has no row in blockKinds()");
}

}  // namespace ckptlab
