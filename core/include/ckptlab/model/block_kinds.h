#pragma once
// One row per block kind. What code asks of a kind (its name, its checkpointable units, whether
// it has attention, its norms, the config fields it reads) it reads here instead of comparing
// the enum, so a new kind is a row. What a kind *does* differently (the engine's modules, the
// estimate's shapes, the parameter count) is an exhaustive `switch`, which -Werror=switch makes
// every build name when a kind is added (docs/ARCHITECTURE.md, "Add a block kind").

#include <string_view>
#include <vector>

#include "ckptlab/model/config.h"

namespace ckptlab {

enum class NormKind { LayerNorm, RmsNorm };

struct BlockKindInfo {
    BlockKind kind;
    const char* name;  // in files, on the CLI and in the form
    // Its checkpointable units in chain order, by the names the cost table prints.
    std::vector<const char*> units;
    bool attention;  // the first unit is an attention sub-block
    NormKind norm;
    int normsPerBlock;
    int mlpMatrices;  // 2: up and down; 3: a gated MLP's gate, up and down
    // The MLP's hidden width when the config leaves ffn_width at 0.
    int (*defaultFfnWidth)(int width);
    // Products and norms one block puts in a gradient's path (the gradient check's tolerance).
    int chainedLayersPerBlock;
    // The config fields beyond the common ones that this kind reads (registry keys); the form
    // shows them, validation checks them and the effective values honour them only here.
    std::vector<const char*> fields;

    int unitsPerBlock() const { return static_cast<int>(units.size()); }
    bool uses(std::string_view field) const;
};

// Every kind, in the order the CLI, the form and the docs list them.
const std::vector<BlockKindInfo>& blockKinds();
// The row of `kind`.
const BlockKindInfo& blockKind(BlockKind kind);

}  // namespace ckptlab
