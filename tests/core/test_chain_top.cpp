// The chain's last unit without a head runs its backward from the sum loss's expanded
// gradient, every other unit from a dense one (cost_model.h, placeChainTop).
#include <gtest/gtest.h>

#include "ckptlab/engine/runner.h"
#include "ckptlab/planning/cost_model.h"
#include "test_configs.h"

using namespace ckptlab;

namespace {

// A unit whose plain backward peaks at `plain` and whose sum-loss backward at `top`.
UnitCost unitWith(std::int64_t plain, std::int64_t top) {
    UnitCost c;
    c.backward_peak = plain;
    c.allocations.backward = {{plain, -1}};
    c.allocations.input_grad = 0;
    c.sum_loss = SumLossBackward{top, {{top, -1}, {0, 0}}, -1};
    return c;
}

std::vector<std::int64_t> peaks(const CostModel& m) {
    std::vector<std::int64_t> out;
    for (const auto& u : m.units) out.push_back(u.backward_peak);
    return out;
}

}  // namespace

TEST(ChainTop, OnlyTheLastUnitOfAChainWithoutAHeadTakesTheSumLossBackward) {
    CostModel m;
    m.block = BlockKind::Transformer;
    m.units = {unitWith(10, 11), unitWith(20, 21), unitWith(10, 11), unitWith(20, 21)};
    placeChainTop(m);
    EXPECT_EQ(peaks(m), (std::vector<std::int64_t>{10, 20, 10, 21}));
    EXPECT_EQ(m.units.back().allocations.backward.size(), 2u);
    EXPECT_EQ(m.units.back().allocations.input_grad, -1);
    EXPECT_TRUE(m.units.back().at_chain_top);
    placeChainTop(m);  // placing twice changes nothing
    EXPECT_EQ(peaks(m), (std::vector<std::int64_t>{10, 20, 10, 21}));
    removeChainTop(m);
    EXPECT_EQ(peaks(m), (std::vector<std::int64_t>{10, 20, 10, 20}));
    EXPECT_EQ(m.units.back().allocations.input_grad, 0);
    EXPECT_FALSE(m.units.back().at_chain_top);

    m.last = UnitCost{};  // a head: the chain's output gets the head's dense gradient
    placeChainTop(m);
    EXPECT_EQ(peaks(m), (std::vector<std::int64_t>{10, 20, 10, 20}));
}

TEST(ChainTop, ADeeperChainFromAOneBlockModelMovesTheTopToItsEnd) {
    // A model measured at depth 1 has its top in its first block, which costModelAtDepth
    // repeats: the copies inside the chain must get the plain backward back.
    CostModel one;
    one.block = BlockKind::Transformer;
    one.units = {unitWith(10, 11), unitWith(20, 21)};
    placeChainTop(one);
    ASSERT_EQ(peaks(one), (std::vector<std::int64_t>{10, 21}));
    const CostModel three = costModelAtDepth(one, 3);
    EXPECT_EQ(peaks(three), (std::vector<std::int64_t>{10, 20, 10, 20, 10, 21}));
    EXPECT_EQ(peaks(costModelAtDepth(three, 1)), (std::vector<std::int64_t>{10, 21}));
}

TEST(ChainTop, MeasuredModelsCarryTheSumLossBackwardOnlyWithoutAHead) {
    ExperimentConfig c = test::predictionConfig(BlockKind::Llama);
    c.depth = 2;
    c.dtype = DType::BFloat16;
    const CostModel plain = measureCostModel(c, nullptr, MeasureTimes::No);
    ASSERT_EQ(plain.units.size(), 4u);
    for (std::size_t u = 0; u < plain.units.size(); ++u) {
        ASSERT_TRUE(plain.units[u].sum_loss) << u;
        EXPECT_EQ(plain.units[u].at_chain_top, u + 1 == plain.units.size()) << u;
    }
    // A backward from an expanded gradient never needs less than from a dense one.
    EXPECT_GE(plain.units.back().backward_peak, plain.units[1].backward_peak);
    // Inside the chain the FFN part runs the plain backward, the same in both blocks.
    EXPECT_EQ(plain.units[1].backward_peak, plain.units.back().sum_loss->backward_peak);

    c.vocab = 64;
    const CostModel withHead = measureCostModel(c, nullptr, MeasureTimes::No);
    for (const auto& unit : withHead.units) {
        EXPECT_FALSE(unit.sum_loss);
        EXPECT_FALSE(unit.at_chain_top);
    }
}
