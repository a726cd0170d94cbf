#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "ckptlab/model/config.h"
#include "ckptlab/model/strategy.h"
#include "ckptlab/planning/planner.h"

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
    // The Llama block has the same two sub-blocks.
    EXPECT_EQ(parseStrategy("attn", 20, BlockKind::Llama).name(), "attn");
    EXPECT_EQ(parseStrategy("ffn", 20, BlockKind::Llama).name(), "ffn");
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
    EXPECT_EQ(presetStrategies("seed-tradeoff"),
              parseStrategies({"none", "full", "every:2", "every:4", "segments:4", "from:10"}));
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
    EXPECT_EQ(errors[0].message.english, "width must be between 8 and 16384 (got 0)");
    EXPECT_EQ(errors[0].message.code, MessageCode::FieldOutOfRange);
    EXPECT_EQ(errors[0].message.args, (std::vector<std::string>{"width", "8", "16384", "0"}));
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

TEST(StrategyKinds, OneRowPerKindWithItsSyntax) {
    const auto& kinds = strategyKinds();
    for (std::size_t i = 0; i < kinds.size(); ++i) {
        const StrategyKindInfo& k = kinds[i];
        for (std::size_t j = i + 1; j < kinds.size(); ++j) EXPECT_NE(k.kind, kinds[j].kind);
        // The syntax is the name, and ":X" exactly when the kind takes a parameter.
        EXPECT_EQ(k.syntax.substr(0, k.syntax.find(':')), k.name);
        EXPECT_EQ(k.syntax.find(':') != std::string::npos, k.takes_param) << k.syntax;
        EXPECT_FALSE(k.description.empty()) << k.name;
        EXPECT_EQ(&strategyKindInfo(k.kind), &k);
        EXPECT_EQ(kindName(k.kind), k.name);
    }
    EXPECT_EQ(strategyKindInfo(StrategyKind::Optimal).syntax, "optimal:MiB");
    EXPECT_EQ(strategyKindInfo(StrategyKind::Revolve).default_param, 3);
}

TEST(StrategyErrors, CarryTheirCodeAndArguments) {
    try {
        parseStrategy("every:0", 20, BlockKind::Ffn);
        FAIL() << "expected StrategyError";
    } catch (const StrategyError& e) {
        EXPECT_EQ(e.message.code, MessageCode::StrategyParameterOutOfRange);
        EXPECT_EQ(e.message.args, (std::vector<std::string>{"every", "1", "20", "20", "0"}));
        EXPECT_EQ(e.what(), e.message.english);
        EXPECT_EQ(coreMessageOf(e), &e.message);
    }
    try {
        parseStrategy("bogus", 20, BlockKind::Ffn);
        FAIL() << "expected StrategyError";
    } catch (const StrategyError& e) {
        EXPECT_EQ(e.message.code, MessageCode::UnknownStrategy);
        // The known list is the kinds table's syntaxes.
        EXPECT_EQ(e.message.args.at(1).rfind("none, full, every:N,", 0), 0u) << e.what();
        EXPECT_NE(e.message.args.at(1).find("optimal:MiB"), std::string::npos) << e.what();
    }
    EXPECT_EQ(coreMessageOf(std::runtime_error("plain")), nullptr);
}

TEST(CoreMessages, EveryCodeHasItsEnglishWithEveryArgument) {
    for (int i = 0; i <= static_cast<int>(kLastMessageCode); ++i) {
        const std::string pattern = messagePattern(static_cast<MessageCode>(i));
        EXPECT_FALSE(pattern.empty()) << "code " << i;
        // Placeholders are %1..%n without gaps, so a translation can place every argument.
        int highest = 0;
        for (std::size_t p = pattern.find('%'); p != std::string::npos;
             p = pattern.find('%', p + 1))
            if (p + 1 < pattern.size() && std::isdigit(static_cast<unsigned char>(pattern[p + 1])))
                highest = std::max(highest, pattern[p + 1] - '0');
        for (int n = 1; n <= highest; ++n)
            EXPECT_NE(pattern.find("%" + std::to_string(n)), std::string::npos)
                << pattern << " lacks %" << n;
    }
}

TEST(CoreMessages, FillInOnePassAndNest) {
    EXPECT_EQ(fillPattern("%2 then %1, %3", {"a%2", "b"}), "b then a%2, %3");
    const CoreMessage inner(MessageCode::FieldOutOfRange, {"width", "8", "16384", "0"});
    const CoreMessage outer(MessageCode::AtScalingValue, {"width", "0"}, {inner});
    EXPECT_EQ(outer.english, "at width=0: width must be between 8 and 16384 (got 0)");
    ASSERT_EQ(outer.nested.size(), 1u);
    EXPECT_EQ(outer.nested[0].code, MessageCode::FieldOutOfRange);
}
