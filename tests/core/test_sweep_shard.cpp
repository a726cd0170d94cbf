// One sweep dealt to shards (sweep_shard.h): the deal, the baselines each shard runs, and the
// identity of a sweep.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "ckptlab/model/config_fields.h"
#include "ckptlab/planning/sweep_shard.h"
#include "strategy_text.h"
#include "test_configs.h"

using namespace ckptlab;

namespace {

std::vector<Strategy> strategies(const std::vector<std::string>& texts) {
    return parseStrategies(texts);
}

std::vector<int> positions(const std::vector<ShardItem>& items, bool owned) {
    std::vector<int> out;
    for (const ShardItem& item : items)
        if (item.owned == owned) out.push_back(item.position);
    return out;
}

}  // namespace

// Round robin by position; `none` in every shard, owned by the one the deal gives it to.
TEST(SweepShard, DealsRoundRobinAndEveryShardRunsTheNone) {
    const auto work = sweepWork(strategies({"none", "full", "every:2", "sqrt", "from:2"}));
    ASSERT_EQ(work.size(), 5u);
    const auto zero = shardItems(work, {0, 3});
    const auto one = shardItems(work, {1, 3});
    const auto two = shardItems(work, {2, 3});
    EXPECT_EQ(positions(zero, true), (std::vector<int>{0, 3}));
    EXPECT_EQ(positions(zero, false), (std::vector<int>{}));
    EXPECT_EQ(positions(one, true), (std::vector<int>{1, 4}));
    EXPECT_EQ(positions(one, false), (std::vector<int>{0}));  // its own none, unowned
    EXPECT_EQ(positions(two, true), (std::vector<int>{2}));
    EXPECT_EQ(positions(two, false), (std::vector<int>{0}));
    // In position order: the none first, as the unsharded sweep runs it.
    EXPECT_EQ(one.front().position, 0);
}

// Without a none in the list no shard runs one: the unsharded sweep has no baseline either.
TEST(SweepShard, NoNoneListedNoneAdded) {
    const auto work = sweepWork(strategies({"full", "every:2", "sqrt"}));
    for (int k = 0; k < 2; ++k)
        EXPECT_TRUE(positions(shardItems(work, {k, 2}), false).empty()) << k;
}

// Every position is owned by exactly one shard, for any count, also with more shards than
// items (those shards run nothing); a shard's unowned items are nones of sizes it measures.
TEST(SweepShard, EveryItemOwnedOnceForEveryCount) {
    const auto list = strategies({"none", "full", "every:2"});
    for (int sizes : {1, 3}) {
        const auto work = sweepWork(list, sizes);
        ASSERT_EQ(work.size(), list.size() * sizes);
        for (int count = 1; count <= 12; ++count) {
            std::map<int, int> owners;
            for (int k = 0; k < count; ++k) {
                const auto items = shardItems(work, {k, count});
                std::set<int> measured;
                for (const ShardItem& item : items)
                    if (item.owned) {
                        ++owners[item.position];
                        measured.insert(work[item.position].size);
                        EXPECT_EQ(item.position % count, k);
                    }
                for (const ShardItem& item : items) {
                    if (item.owned) continue;
                    EXPECT_TRUE(isBaseline(work[item.position].strategy));
                    EXPECT_EQ(measured.count(work[item.position].size), 1u);
                }
                if (k >= static_cast<int>(work.size())) {
                    EXPECT_TRUE(items.empty()) << k << " of " << count;
                }
            }
            EXPECT_EQ(owners.size(), work.size()) << count;
            for (const auto& [position, n] : owners) EXPECT_EQ(n, 1) << position;
        }
    }
}

// A scaling sweep's items are (size, strategy), size-major; a shard that owns nothing at a size
// runs no none there.
TEST(SweepShard, ScalingSweepsDealPairsAndBaselinesPerSize) {
    const auto work = sweepWork(strategies({"none", "full", "every:2"}), 2);
    EXPECT_EQ(work[3].size, 1);
    EXPECT_TRUE(isBaseline(work[3].strategy));
    // 4 shards: shard 3 owns only position 3 (none at size 1).
    const auto three = shardItems(work, {3, 4});
    ASSERT_EQ(three.size(), 1u);
    EXPECT_EQ(three[0].position, 3);
    EXPECT_TRUE(three[0].owned);
    // Shard 2 owns position 2 (every:2 at size 0): it runs size 0's none, not size 1's.
    const auto two = shardItems(work, {2, 4});
    EXPECT_EQ(positions(two, true), (std::vector<int>{2}));
    EXPECT_EQ(positions(two, false), (std::vector<int>{0}));
    // Shard 0 owns 0 and 4 (full at size 1): size 1's none is shard 3's, so it runs a copy.
    const auto zero = shardItems(work, {0, 4});
    EXPECT_EQ(positions(zero, true), (std::vector<int>{0, 4}));
    EXPECT_EQ(positions(zero, false), (std::vector<int>{3}));
}

TEST(SweepShard, ShardsOutsideTheRangeAreRefused) {
    EXPECT_TRUE(validShard({0, 1}));
    EXPECT_TRUE(validShard({1023, kShardMaxCount}));
    for (const ShardSpec& bad :
         {ShardSpec{3, 3}, ShardSpec{-1, 3}, ShardSpec{0, 0}, ShardSpec{0, kShardMaxCount + 1}}) {
        EXPECT_FALSE(validShard(bad));
        EXPECT_THROW(shardItems(sweepWork(strategies({"none"})), bad), std::invalid_argument);
    }
}

// The id is the sweep's: the same request gives the same id; every field of the config, the
// strategies and their order, the kind, the points, the axis, the values and the version
// change it.
TEST(SweepShard, TheSweepIdNamesEverythingThatDefinesTheSweep) {
    SweepRequestData base;
    base.config = test::everyFieldChanged();
    base.checked = strategies({"none", "full", "every:2"});
    const std::string id = sweepId(base, "1.0.0");
    EXPECT_EQ(id.size(), 16u);
    EXPECT_EQ(id.find_first_not_of("0123456789abcdef"), std::string::npos);
    EXPECT_EQ(sweepId(base, "1.0.0"), id);

    std::set<std::string> ids{id};
    const auto differs = [&](const SweepRequestData& other, const std::string& what) {
        EXPECT_TRUE(ids.insert(sweepId(other, "1.0.0")).second) << what;
    };
    for (const ConfigField& field : configFields()) {
        SweepRequestData other = base;
        other.config = ExperimentConfig{};  // everyFieldChanged differs from it in every key
        for (const ConfigField& f : configFields())
            if (f.key != std::string(field.key)) setValue(f, other.config, valueOf(f, base.config));
        differs(other, field.key);
    }
    SweepRequestData order = base;
    order.checked = strategies({"full", "none", "every:2"});
    differs(order, "order");
    SweepRequestData fewer = base;
    fewer.checked.pop_back();
    differs(fewer, "fewer strategies");
    SweepRequestData pareto = base;
    pareto.kind = SweepKind::Pareto;
    differs(pareto, "pareto");
    pareto.paretoPoints = 7;
    differs(pareto, "points");
    SweepRequestData scaling = base;
    scaling.kind = SweepKind::Scaling;
    scaling.values = {4, 8};
    differs(scaling, "scaling");
    scaling.axis = ScalingAxis::Seq;
    differs(scaling, "axis");
    scaling.values = {4, 16};
    differs(scaling, "values");
    EXPECT_NE(sweepId(base, "1.0.1"), id);
}

TEST(SweepShard, TheWorkIdFollowsTheResolvedList) {
    const auto a = sweepWork(strategies({"none", "optimal:1.5"}));
    const auto b = sweepWork(strategies({"none", "optimal:1.75"}));
    EXPECT_EQ(workId(a), workId(sweepWork(strategies({"none", "optimal:1.5"}))));
    EXPECT_NE(workId(a), workId(b));
    EXPECT_NE(workId(sweepWork(strategies({"none", "full"}), 2)),
              workId(sweepWork(strategies({"none", "full", "none", "full"}))));
}
