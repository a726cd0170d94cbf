// The block-kind table (block_kinds.h): each row is consistent with itself, with the config
// registry and with what the rest of core derives from it.
#include "ckptlab/model/block_kinds.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "ckptlab/model/config_fields.h"
#include "ckptlab/planning/cost_model.h"
#include "ckptlab/planning/planner.h"

using namespace ckptlab;

TEST(BlockKinds, EachRowIsFoundByItsKindAndItsName) {
    std::set<std::string> names;
    for (const BlockKindInfo& row : blockKinds()) {
        EXPECT_EQ(&blockKind(row.kind), &row) << row.name;
        EXPECT_EQ(toString(row.kind), row.name);
        EXPECT_EQ(parseBlockKind(row.name), row.kind) << row.name;
        EXPECT_TRUE(names.insert(row.name).second) << row.name << " twice";
    }
    EXPECT_FALSE(parseBlockKind("Llama"));  // names are exact, as in files
}

TEST(BlockKinds, UnitsNormsAndAttentionAgree) {
    for (const BlockKindInfo& row : blockKinds()) {
        ASSERT_GE(row.unitsPerBlock(), 1) << row.name;
        EXPECT_EQ(unitsPerBlockOf(row.kind), row.unitsPerBlock()) << row.name;
        CostModel costs;
        costs.block = row.kind;
        EXPECT_EQ(costs.unitsPerBlock(), row.unitsPerBlock()) << row.name;
        // An attention block's first unit is its attention, and it reads the heads.
        EXPECT_EQ(row.attention, std::string(row.units.front()) == "attention") << row.name;
        EXPECT_EQ(row.attention, row.uses("heads")) << row.name;
        EXPECT_EQ(row.attention, row.uses("attention")) << row.name;
        EXPECT_EQ(row.normsPerBlock, row.unitsPerBlock()) << row.name << ": one norm per unit";
        EXPECT_TRUE(row.mlpMatrices == 2 || row.mlpMatrices == 3) << row.name;
        EXPECT_GT(row.defaultFfnWidth(256), 0) << row.name;
    }
}

// The fields a kind reads are registry fields, shown (applies) for that kind and no other.
TEST(BlockKinds, TheFieldsAKindReadsApplyToItAlone) {
    for (const BlockKindInfo& row : blockKinds()) {
        ExperimentConfig config;
        config.block = row.kind;
        config.attention = AttentionKind::MemoryEfficient;  // attention-chunk applies only then
        for (const char* key : row.fields) {
            const ConfigField* field = findConfigField(key);
            ASSERT_NE(field, nullptr) << row.name << " reads " << key << ", no registry field";
            ASSERT_NE(field->applies, nullptr) << key << " applies to every kind";
            EXPECT_TRUE(field->applies(config)) << key << " hidden for " << row.name;
        }
    }
    for (const ConfigField& field : configFields()) {
        for (const BlockKindInfo& row : blockKinds()) {
            if (row.uses(field.key) || !field.applies) continue;
            ExperimentConfig config;  // no vocabulary: the LM head's RMSNorm is not there
            config.block = row.kind;
            config.attention = AttentionKind::MemoryEfficient;
            bool readByAKind = false;
            for (const BlockKindInfo& other : blockKinds()) readByAKind |= other.uses(field.key);
            if (readByAKind) {
                EXPECT_FALSE(field.applies(config)) << field.key << " shown for " << row.name;
            }
        }
    }
}

// A field a kind does not read does not change what core derives for it.
TEST(BlockKinds, EffectiveValuesIgnoreTheFieldsAKindDoesNotRead) {
    for (const BlockKindInfo& row : blockKinds()) {
        ExperimentConfig config;
        config.block = row.kind;
        config.width = 256;
        config.heads = 8;
        config.kv_heads = 2;
        config.head_dim = 64;
        EXPECT_EQ(kvHeadsOf(config), row.uses("kv-heads") ? 2 : 8) << row.name;
        EXPECT_EQ(headDimOf(config), row.uses("head-dim") ? 64 : 32) << row.name;
        config.ffn_width = 0;
        EXPECT_EQ(ffnWidthOf(config), row.defaultFfnWidth(256)) << row.name;
        config.ffn_width = 100;
        EXPECT_EQ(ffnWidthOf(config), 100) << row.name;
    }
    EXPECT_EQ(blockKind(BlockKind::Llama).defaultFfnWidth(4096), 11008);  // Llama-2-7B's MLP
    EXPECT_EQ(blockKind(BlockKind::Transformer).defaultFfnWidth(4096), 16384);
}
