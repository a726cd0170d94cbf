// A config described from the registry (config_fields.h, describeConfig): the fields each
// description shows, their effective values, and the short form that leaves defaults out.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "ckptlab/model/block_kinds.h"
#include "ckptlab/model/config_fields.h"

using namespace ckptlab;

namespace {

ExperimentConfig smallLlama() {
    ExperimentConfig c;
    c.block = BlockKind::Llama;
    c.depth = 2;
    c.width = 96;
    c.seq = 16;
    c.batch = 3;
    c.heads = 6;
    c.kv_heads = 0;   // derived: as many as the heads
    c.head_dim = 0;   // derived: width / heads
    c.ffn_width = 0;  // derived: Llama's rule
    return c;
}

std::set<std::string> keysOf(const std::vector<DescribedField>& fields) {
    std::set<std::string> keys;
    for (const DescribedField& d : fields) keys.insert(d.field->key);
    return keys;
}

}  // namespace

TEST(ConfigDescription, DerivedValuesAreResolved) {
    const ExperimentConfig c = smallLlama();
    const ExperimentConfig e = effectiveConfig(c);
    EXPECT_EQ(e.kv_heads, 6);
    EXPECT_EQ(e.head_dim, 16);
    EXPECT_EQ(e.ffn_width, ffnWidthOf(c));
    EXPECT_GT(e.ffn_width, 0);
    // Spelled out or derived, the same step: equal after resolving.
    ExperimentConfig spelled = c;
    spelled.kv_heads = 6;
    spelled.head_dim = 16;
    spelled.ffn_width = ffnWidthOf(c);
    EXPECT_TRUE(sameFields(effectiveConfig(spelled), e, kChangesWork | kChangesCost));
    EXPECT_FALSE(sameFields(spelled, c, kChangesWork));
}

TEST(ConfigDescription, TheModelLineNamesEveryFieldTheBlockReads) {
    const std::string line = configLine(smallLlama(), kShownModel);
    EXPECT_EQ(line.rfind("block=llama depth=2 width=96 seq=16 batch=3 heads=6 kv-heads=6 "
                         "head-dim=16 ffn-width=" +
                             std::to_string(ffnWidthOf(smallLlama())) + " rope-theta=",
                         0),
              0u)
        << line;
    EXPECT_NE(line.find(" attention=eager"), std::string::npos) << line;
    // qkv-bias is off: a flag that is off has no word; no vocabulary: no vocab, no LM head's.
    for (const char* absent : {"qkv-bias", "vocab", "tie-embeddings", "loss-chunks", "dropout"})
        EXPECT_EQ(line.find(absent), std::string::npos) << absent << " in " << line;

    ExperimentConfig ffn;  // the tutorial's block reads neither heads nor attention
    EXPECT_EQ(keysOf(describeConfig(ffn, kShownModel)),
              (std::set<std::string>{"block", "depth", "width", "seq", "batch", "ffn-width"}));
}

TEST(ConfigDescription, EachFieldShowsWhereItsBitsSay) {
    // Every field with `shown` bits appears under its bits for a config that reads it and sets
    // it away from 0 and its default, and under no other description.
    for (const ConfigField& field : configFields()) {
        if (!field.shown) continue;
        ExperimentConfig c = smallLlama();
        c.vocab = 64;                                  // the chain ends' fields apply
        c.attention = AttentionKind::MemoryEfficient;  // the chunk applies
        c.repeats_auto = true;
        c.memory_limit_mib = 512;
        c.threads = 2;
        c.keep_grads = true;
        c.qkv_bias = true;
        c.tie_embeddings = true;
        if (!fieldApplies(field, c)) c.block = BlockKind::Transformer;  // dropout
        ASSERT_TRUE(fieldApplies(field, c)) << field.key;
        for (unsigned bit : {kShownModel, kShownNumerics, kShownProtocol}) {
            const bool listed = keysOf(describeConfig(c, bit)).count(field.key) > 0;
            EXPECT_EQ(listed, (field.shown & bit) != 0) << field.key << " under bit " << bit;
        }
    }
}

TEST(ConfigDescription, TheShortFormLeavesDefaultsAndOffSwitchesOut) {
    ExperimentConfig c;
    EXPECT_EQ(configLine(c, kShownNumerics, true), "");
    // Without changedOnly the numerics are all there, the limit's 0 ("no limit") left out.
    EXPECT_EQ(configLine(c, kShownNumerics), "precision=float32 allocator=caching optimizer=none");
    c.dtype = DType::MixedBFloat16;
    c.optimizer = Optimizer::Adam;
    c.keep_grads = true;
    c.memory_limit_mib = 64.5;
    EXPECT_EQ(configLine(c, kShownNumerics, true),
              "precision=mixed-bf16 optimizer=adam memory-limit=64.5 keep-grads");
}

TEST(ConfigDescription, TheProtocolLeavesTheDefaultThreadsOut) {
    ExperimentConfig c;
    c.seed = 7;
    EXPECT_EQ(configLine(c, kShownProtocol),
              "device=cpu seed=7 warmup=" + std::to_string(c.warmup) +
                  " repeats=" + std::to_string(c.repeats));
    c.threads = 2;
    c.repeats_auto = true;
    EXPECT_NE(configLine(c, kShownProtocol).find("threads=2"), std::string::npos);
    EXPECT_NE(configLine(c, kShownProtocol).find(" repeats-auto"), std::string::npos);
}
