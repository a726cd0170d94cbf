#include <gtest/gtest.h>

#include "ckptlab/config.h"
#include "ckptlab/planner.h"
#include "ckptlab/strategy.h"

using namespace ckptlab;

namespace {

std::string parseError(const std::string& text, int depth = 20, BlockKind block = BlockKind::Ffn) {
    try {
        parseStrategy(text, depth, block);
    } catch (const StrategyError& e) {
        return e.what();
    }
    return "no error";
}

std::vector<bool> checkpointedBlocks(const Plan& plan, int depth) {
    std::vector<bool> flags(depth, false);
    for (const auto& s : plan.segments)
        for (int i = s.begin; i < s.end; ++i) flags[i] = s.checkpointed;
    return flags;
}

std::vector<bool> checkedBlocksOf(const std::string& text, int depth) {
    return checkpointedBlocks(makePlan(parseStrategy(text, depth, BlockKind::Ffn), depth), depth);
}

}  // namespace

TEST(Strategy, ParsesEveryKindAndPrintsItBack) {
    for (const std::string text :
         {"none", "full", "every:2", "segments:4", "from:10", "sqrt", "seed-bug:3"}) {
        EXPECT_EQ(parseStrategy(text, 20, BlockKind::Ffn).name(), text);
    }
    EXPECT_EQ(parseStrategy("attn", 20, BlockKind::Transformer).name(), "attn");
    EXPECT_EQ(parseStrategy("revolve:3", 20, BlockKind::Ffn).name(), "revolve:3");
    EXPECT_EQ(parseStrategy("optimal:64", 20, BlockKind::Ffn).name(), "optimal:64");
    EXPECT_EQ(parseStrategy("optimal:12.5", 20, BlockKind::Ffn).budget_mib, 12.5);
    EXPECT_EQ(parseStrategy("optimal:1.465", 20, BlockKind::Ffn).name(), "optimal:1.465");
    EXPECT_EQ(parseStrategy("ffn", 20, BlockKind::Transformer).name(), "ffn");
}

TEST(Strategy, RejectsBadTextWithTheAllowedRange) {
    EXPECT_EQ(parseError("every:0"), "every:N needs N between 1 and 20 for depth 20 (got 0)");
    EXPECT_EQ(parseError("segments:99"),
              "segments:N needs N between 1 and 20 for depth 20 (got 99)");
    EXPECT_EQ(parseError("from:-1"), "from:N needs N between 0 and 19 for depth 20 (got -1)");
    EXPECT_NE(parseError("bogus").find("unknown strategy \"bogus\""), std::string::npos);
    EXPECT_NE(parseError("every").find("needs an integer parameter"), std::string::npos);
    EXPECT_NE(parseError("every:2x").find("needs an integer parameter"), std::string::npos);
    EXPECT_NE(parseError("full:3").find("takes no parameter"), std::string::npos);
    EXPECT_NE(parseError("attn").find("use block transformer"), std::string::npos);
    EXPECT_NE(parseError("").find("unknown strategy"), std::string::npos);
    EXPECT_NE(parseError("optimal:0").find("optimal:MiB needs a memory budget"), std::string::npos);
    EXPECT_NE(parseError("optimal:abc").find("optimal:MiB needs"), std::string::npos);
    EXPECT_EQ(parseError("revolve:0"), "revolve:N needs N between 1 and 20 for depth 20 (got 0)");
}

TEST(Strategy, PlansMatchTheSeedExperiments) {
    const int L = 8;
    auto every2 = checkpointedBlocks(makePlan(parseStrategy("every:2", L, BlockKind::Ffn), L), L);
    EXPECT_EQ(every2, (std::vector<bool>{1, 0, 1, 0, 1, 0, 1, 0}));
    auto from5 = checkpointedBlocks(makePlan(parseStrategy("from:5", L, BlockKind::Ffn), L), L);
    EXPECT_EQ(from5, (std::vector<bool>{0, 0, 0, 0, 0, 1, 1, 1}));

    Plan segments = makePlan(parseStrategy("segments:3", 20, BlockKind::Ffn), 20);
    ASSERT_EQ(segments.segments.size(), 3u);
    EXPECT_EQ(segments.segments[0].begin, 0);
    EXPECT_EQ(segments.segments[0].end, 6);
    EXPECT_EQ(segments.segments[2].end, 20);
    for (const auto& s : segments.segments) {
        EXPECT_TRUE(s.checkpointed);
        EXPECT_GE(s.end - s.begin, 6);
        EXPECT_LE(s.end - s.begin, 7);
    }
    EXPECT_EQ(makePlan(parseStrategy("sqrt", 20, BlockKind::Ffn), 20).segments.size(), 5u);
    EXPECT_EQ(makePlan(parseStrategy("sqrt", 16, BlockKind::Ffn), 16).segments.size(), 4u);
    EXPECT_TRUE(makePlan(parseStrategy("seed-bug:2", 8, BlockKind::Ffn), 8).recomputeLastSegment);
}

TEST(Strategy, PresetsAreTheSeedsSets) {
    EXPECT_EQ(
        presetStrategies("seed-tradeoff"),
        (std::vector<std::string>{"none", "full", "every:2", "every:4", "segments:4", "from:10"}));
    EXPECT_EQ(presetStrategies("experiment-3").size(), 5u);
    EXPECT_TRUE(presetStrategies("nope").empty());
}

TEST(Config, ValidationNamesTheFieldAndRange) {
    ExperimentConfig c;
    EXPECT_TRUE(validate(c).empty());
    c.width = 0;
    c.batch = 100000;
    auto errors = validate(c);
    ASSERT_EQ(errors.size(), 2u);
    EXPECT_EQ(errors[0].field, "width");
    EXPECT_EQ(errors[0].message, "width must be between 8 and 16384 (got 0)");
    EXPECT_EQ(errors[1].field, "batch");

    ExperimentConfig t;
    t.block = BlockKind::Transformer;
    t.width = 100;
    t.heads = 3;
    errors = validate(t);
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0].field, "heads");
}

TEST(Strategy, UpToIsTheComplementOfFrom) {
    const int L = 8;
    EXPECT_EQ(parseStrategy("upto:3", L, BlockKind::Ffn).name(), "upto:3");
    EXPECT_EQ(parseError("upto:0", L), "upto:N needs N between 1 and 8 for depth 8 (got 0)");
    EXPECT_EQ(parseError("upto:9", L), "upto:N needs N between 1 and 8 for depth 8 (got 9)");
    for (int k = 1; k < L; ++k) {
        const auto upto = checkedBlocksOf("upto:" + std::to_string(k), L);
        const auto from = checkedBlocksOf("from:" + std::to_string(k), L);
        for (int i = 0; i < L; ++i) EXPECT_NE(upto[i], from[i]) << "k " << k << " block " << i;
        EXPECT_TRUE(upto[0]);
    }
    EXPECT_EQ(checkedBlocksOf("upto:8", L), std::vector<bool>(L, true));  // = full
}
