// What a user types, checked before any work: lists, devices, sizes that overflow, outputs.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "ckptlab/formats/output_paths.h"
#include "ckptlab/model/config.h"
#include "ckptlab/model/result.h"
#include "ckptlab/model/saturating.h"
#include "ckptlab/model/strategy.h"
#include "ckptlab/planning/estimate.h"
#include "ckptlab/planning/planner.h"

using namespace ckptlab;

TEST(Lists, AnEmptyItemIsRejectedWithItsPosition) {
    EXPECT_EQ(splitList("none, full ,every:2", "--strategies"),
              (std::vector<std::string>{"none", "full", "every:2"}));
    EXPECT_TRUE(splitList("", "--strategies").empty());
    for (const char* bad : {"none,,full", "none,", ",none", "none, ,full"}) {
        try {
            splitList(bad, "--strategies");
            ADD_FAILURE() << bad << " was accepted";
        } catch (const std::invalid_argument& e) {
            const std::string message = e.what();
            EXPECT_NE(message.find("--strategies: item "), std::string::npos) << message;
            EXPECT_NE(message.find("is empty"), std::string::npos) << message;
        }
    }
    try {
        splitList("none,,full", "--strategies");
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("item 2"), std::string::npos) << e.what();
    }
}

TEST(Lists, NumbersAreWholeAndInRange) {
    EXPECT_EQ(parseIntList("4,8,16", "--values", limits::depth), (std::vector<int>{4, 8, 16}));
    EXPECT_THROW(parseIntList("4,8x", "--values", limits::depth), std::invalid_argument);
    EXPECT_THROW(parseIntList("4,513", "--values", limits::depth), std::invalid_argument);
    EXPECT_THROW(parseIntList("4,99999999999999999999", "--values", limits::depth),
                 std::invalid_argument);
    EXPECT_THROW(parseNumberList("1,nan", "--budgets"), std::invalid_argument);
    EXPECT_THROW(parseNumberList("1,inf", "--budgets"), std::invalid_argument);
    EXPECT_EQ(parseNumberList("1.5, 2", "--budgets"), (std::vector<double>{1.5, 2}));
}

TEST(Devices, OnlyCpuCudaAndCudaWithAnIndex) {
    EXPECT_EQ(parseDeviceIndex("cpu"), -1);
    EXPECT_EQ(parseDeviceIndex("cuda"), 0);
    EXPECT_EQ(parseDeviceIndex("cuda:3"), 3);
    for (const char* bad : {"cuda:abc", "cuda:-1", "cuda:", "cuda:1x", "cuda:64", "gpu", "CUDA"})
        EXPECT_FALSE(parseDeviceIndex(bad)) << bad;
    ExperimentConfig c;
    c.device = "cuda:abc";
    const auto errors = validate(c);
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0].field, "device");
    EXPECT_NE(errors[0].message.english.find("cuda:N with N from 0 to 63"), std::string::npos);
}

TEST(MemoryLimit, RangeIsChecked) {
    ExperimentConfig c;
    for (double bad : {-1.0, 1e12, std::nan("")}) {
        c.memory_limit_mib = bad;
        const auto errors = validate(c);
        ASSERT_EQ(errors.size(), 1u) << bad;
        EXPECT_EQ(errors[0].field, "memory-limit");
    }
    c.memory_limit_mib = 512;
    EXPECT_TRUE(validate(c).empty());
}

TEST(SizeArithmetic, SaturatesInsteadOfWrapping) {
    EXPECT_EQ(sat::mul(std::int64_t{1} << 40, std::int64_t{1} << 30), sat::kSaturated);
    EXPECT_EQ(sat::add(sat::kSaturated, 1), sat::kSaturated);
    EXPECT_EQ(sat::mul(3, 4, 5), 60);
    // The documented maximum: 4096 x 256 heads x 65536^2 x 4 bytes of scores per block, times
    // 512 blocks, passes 2^63. It must read as "does not fit", never as a small or negative size.
    ExperimentConfig c;
    c.block = BlockKind::Transformer;
    c.depth = 512;
    c.heads = 256;
    c.width = 16384;
    c.seq = 65536;
    c.batch = 4096;
    // validate names the field instead of letting the sizes saturate unexplained.
    const auto errors = validate(c);
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0].field, "seq");
    EXPECT_EQ(errors[0].message.code, MessageCode::AttentionScoresOverflow);
    c.depth = 170;  // the scores of 170 layers still fit in 2^63 bytes
    EXPECT_TRUE(validate(c).empty());
    c.depth = 512;
    const MemoryEstimate none = estimateMemory(c, makePlan(Strategy{}, c.depth));
    EXPECT_EQ(none.total(), sat::kSaturated);
    EXPECT_GT(none.activations, 0);
    EXPECT_GT(none.peak, 0);
    // A small model is untouched by saturation.
    ExperimentConfig small;
    EXPECT_LT(estimateMemory(small, makePlan(Strategy{}, small.depth)).total(),
              std::int64_t{1} << 40);
}

TEST(PlannerLimits, NamedUpFront) {
    ExperimentConfig c;
    c.depth = 300;
    const auto error = plannerLimitError(c, "optimal:10");
    ASSERT_TRUE(error);
    EXPECT_EQ(error->code, MessageCode::PlannerTooManyUnits);
    EXPECT_EQ(error->args,
              (std::vector<std::string>{"optimal:10", "128", "300", "ffn", "300", "128"}));
    EXPECT_NE(error->english.find("depth 300 of ffn blocks is 300 units: use depth 1 to 128"),
              std::string::npos)
        << error->english;
    EXPECT_NE(error->english.find("at most 128 units"), std::string::npos) << error->english;
    c.depth = 128;
    EXPECT_FALSE(plannerLimitError(c, "plan"));
    c.block = BlockKind::Transformer;
    EXPECT_TRUE(plannerLimitError(c, "plan"));  // 256 units
    const auto pareto = paretoPlannerLimitError(c);
    ASSERT_TRUE(pareto);
    EXPECT_EQ(pareto->english.rfind("a Pareto sweep plans at most 128 units", 0), 0u);
    EXPECT_NE(
        pareto->english.find("depth 128 of transformer blocks is 256 units: use depth 1 to 64"),
        std::string::npos)
        << pareto->english;
}

TEST(OutputPaths, CheckedBeforeAnyWork) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / "ckptlab-output-paths-test";
    fs::remove_all(dir);
    fs::create_directories(dir);
    EXPECT_EQ(checkOutputFile((dir / "out.json").string(), "--json"), "");
    const std::string missing = checkOutputFile((dir / "no/such/out.json").string(), "--json");
    EXPECT_NE(missing.find("--json: folder"), std::string::npos) << missing;
    EXPECT_NE(missing.find("does not exist"), std::string::npos) << missing;
    EXPECT_NE(checkOutputFile(dir.string(), "--csv").find("is a folder"), std::string::npos);
    // A folder to be created is fine when its parent exists; a file in the way is not.
    EXPECT_EQ(checkOutputDir((dir / "charts").string(), "--png"), "");
    EXPECT_EQ(checkOutputDir((dir / "charts/").string(), "--png"), "");
    EXPECT_EQ(checkOutputDir(dir.string(), "--svg"), "");
    std::ofstream(dir / "file").put('x');
    EXPECT_NE(checkOutputDir((dir / "file").string(), "--svg").find("not a folder"),
              std::string::npos);
    EXPECT_NE(checkOutputDir((dir / "a/b/c").string(), "--png").find("does not exist"),
              std::string::npos);
    // The probe leaves nothing behind.
    int entries = 0;
    for (const auto& entry : fs::directory_iterator(dir))
        entries += entry.path().filename() != "file";
    EXPECT_EQ(entries, 0);
    fs::remove_all(dir);
}

TEST(OutOfMemoryText, TheRequestedSizeIsReadFromEitherAllocator) {
    EXPECT_EQ(requestedBytesIn("DefaultCPUAllocator: can't allocate memory: you tried to "
                               "allocate 16777216 bytes. Error code 12"),
              16777216);
    EXPECT_EQ(requestedBytesIn("CUDA out of memory. Tried to allocate 146.00 MiB (GPU 0; 79.3 "
                               "GiB total capacity)"),
              146LL * 1024 * 1024);
    EXPECT_EQ(requestedBytesIn("CUDA out of memory. Tried to allocate 2.50 GiB"),
              static_cast<std::int64_t>(2.5 * 1024 * 1024 * 1024));
    EXPECT_EQ(requestedBytesIn("something else"), 0);
}

TEST(Seeds, DigitsUpTo2To64Minus1) {
    EXPECT_EQ(parseSeed("0"), 0u);
    EXPECT_EQ(parseSeed("18446744073709551615"), UINT64_MAX);
    for (const char* bad :
         {"-1", "18446744073709551616", "99999999999999999999999", "1e3", "", " 1", "0x10"})
        EXPECT_FALSE(parseSeed(bad)) << bad;
}
