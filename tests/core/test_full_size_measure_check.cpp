// The memory check before a full-size measurement (full_size.h): the estimate of what measuring
// the small shapes holds is never below what they really held, nor far above it, and a layer
// too large for the memory there is refused before anything is built.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <fstream>
#include <sstream>
#include <string>

#include "ckptlab/engine/runner.h"
#include "ckptlab/planning/full_size.h"
#include "engine/caching_cpu_allocator.h"
#include "test_configs.h"

using namespace ckptlab;

namespace {

// The caching CPU allocator's highest allocation and reservation while measureCostFit
// measures `config`, above what it held before: each shape's measurement gives its cache back
// when it ends (its allocator scope), which this outer scope would prevent, so the cache is
// emptied as each shape starts.
struct Peaks {
    std::int64_t allocated = 0;
    std::int64_t reserved = 0;
};
Peaks measuredPeaks(const ExperimentConfig& config) {
    using engine::CachingCpuAllocator;
    const engine::CpuAllocatorScope caching(AllocatorKind::Caching, c10::Device("cpu"));
    CachingCpuAllocator& allocator = CachingCpuAllocator::instance();
    allocator.emptyCache();
    allocator.resetPeaks();
    const CachingCpuAllocator::Counts before = allocator.counts();
    measureCostFit(config, [&](const std::string&, int, int) { allocator.emptyCache(); });
    const CachingCpuAllocator::Counts after = allocator.counts();
    return {after.peakAllocated - before.allocated, after.peakReserved - before.reserved};
}

// The models measured: each kind of block, with and without the chain's ends and Adam, in
// each precision; a layer large enough that its weights and activations, not the allocator's
// fixed costs, make the peak.
std::vector<std::pair<std::string, ExperimentConfig>> measuredModels() {
    ExperimentConfig llama = test::quickConfig(BlockKind::Llama, 1, 256, 64, 2, 0.0);
    llama.heads = 4;
    llama.kv_heads = 2;
    llama.vocab = 2000;
    llama.optimizer = Optimizer::Adam;
    llama.threads = 1;
    ExperimentConfig transformer = test::quickConfig(BlockKind::Transformer, 1, 256, 64, 2, 0.0);
    transformer.threads = 1;
    ExperimentConfig ffn = test::quickConfig(BlockKind::Ffn, 1, 512, 32, 2, 0.0);
    ffn.vocab = 3000;
    ffn.tie_embeddings = true;
    ffn.optimizer = Optimizer::Adam;
    ffn.threads = 1;
    return {{"llama adam", llama}, {"transformer", transformer}, {"ffn adam tied", ffn}};
}

// A Llama 3.1 405B layer: width 16384, MLP 53248, 128 heads over 8 key/value heads, its
// vocabulary; 3.2 billion parameters a layer.
ExperimentConfig llama405bLike() {
    ExperimentConfig c = test::quickConfig(BlockKind::Llama, 126, 16384, 64, 1, 0.0);
    c.heads = 128;
    c.kv_heads = 8;
    c.ffn_width = 53248;
    c.vocab = 128256;
    c.optimizer = Optimizer::Adam;
    return c;
}

}  // namespace

TEST(FitMeasureEstimate, IsNeverBelowTheMeasuredPeakNorTwiceAboveIt) {
    for (const auto& [name, config] : measuredModels()) {
        const std::int64_t estimate = fitMeasurePeakEstimate(config);
        const Peaks peak = measuredPeaks(config);
        ASSERT_GT(peak.allocated, 0) << name;
        std::cout << name << ": estimated " << estimate << " B, measured " << peak.allocated
                  << " B allocated, " << peak.reserved << " B reserved\n";
        EXPECT_GE(estimate, peak.allocated) << name;
        EXPECT_LE(estimate, 2 * peak.allocated) << name;
    }
}

TEST(FitMeasureEstimate, GrowsWithTheLayerAndIsZeroForARefusedConfig) {
    ExperimentConfig small = llama405bLike();
    small.width = 1024;
    small.heads = 8;
    small.ffn_width = 4096;
    const std::int64_t smallNeed = fitMeasurePeakEstimate(small);
    const std::int64_t bigNeed = fitMeasurePeakEstimate(llama405bLike());
    // Weights, gradients and Adam's two moments of the 3.2 billion parameters at least.
    EXPECT_GT(bigNeed, 4 * 4 * 3'000'000'000LL);
    EXPECT_LT(smallNeed, bigNeed / 100);
    ExperimentConfig bad = small;
    bad.seq = 0;
    EXPECT_EQ(fitMeasurePeakEstimate(bad), 0);
}

TEST(FitMeasureRefusal, SaysWhatOneLayerNeedsAndWhatIsAvailable) {
    const ExperimentConfig big = llama405bLike();
    const std::int64_t need = fitMeasurePeakEstimate(big);
    const auto refusal = fitMeasureRefusal(big, 20'000'000'000LL);
    ASSERT_TRUE(refusal);
    EXPECT_EQ(refusal->code, MessageCode::FitMeasureTooLarge);
    EXPECT_EQ(refusal->args.at(1), "20.00");
    // The need in GB with two decimals: within half a hundredth of a GB of the estimate.
    ASSERT_EQ(refusal->args.at(0).find('.'), refusal->args[0].size() - 3) << refusal->english;
    EXPECT_NEAR(std::stod(refusal->args[0]) * 1e9, double(need), 0.005e9) << refusal->english;
    EXPECT_EQ(refusal->english,
              "one layer needs " + refusal->args[0] + " GB to measure, 20.00 GB are available");
    EXPECT_FALSE(fitMeasureRefusal(big, 0));  // unknown: no refusal
    EXPECT_FALSE(fitMeasureRefusal(big, need));
    EXPECT_TRUE(fitMeasureRefusal(big, need - 1));
    // Sizes that round alike get the decimals that tell them apart.
    const auto close = fitMeasureRefusal(big, need - 10'000);
    ASSERT_TRUE(close);
    EXPECT_NE(close->args[0], close->args[1]) << close->english;
}

// Under an address-space limit (ulimit -v) the measurement is refused before it builds the
// layer, whatever memory the machine has.
TEST(FitMeasureRefusal, MeasureCostFitRefusesBeforeBuildingAnything) {
    rlimit saved{};
    ASSERT_EQ(getrlimit(RLIMIT_AS, &saved), 0);
    std::ifstream status("/proc/self/status");
    std::string line;
    std::int64_t usedKib = 0;
    while (std::getline(status, line))
        if (line.rfind("VmSize:", 0) == 0) std::istringstream(line.substr(7)) >> usedKib;
    ASSERT_GT(usedKib, 0);
    rlimit lowered = saved;
    lowered.rlim_cur = static_cast<rlim_t>(usedKib * 1024 + (1LL << 30));  // 1 GiB to spare
    if (saved.rlim_max != RLIM_INFINITY && lowered.rlim_cur > saved.rlim_max)
        GTEST_SKIP() << "the hard limit is below what this test sets";
    ASSERT_EQ(setrlimit(RLIMIT_AS, &lowered), 0);
    std::string what;
    std::int64_t predicted = 0, available = 0;
    try {
        measureCostFit(llama405bLike());
    } catch (const MemoryError& e) {
        what = e.what();
        predicted = e.predicted;
        available = e.available;
    }
    ASSERT_EQ(setrlimit(RLIMIT_AS, &saved), 0);
    EXPECT_EQ(what.rfind("one layer needs ", 0), 0u) << what;
    EXPECT_EQ(predicted, fitMeasurePeakEstimate(llama405bLike()));
    EXPECT_GT(available, 0);
    EXPECT_LE(available, 1LL << 30);
    // Building the layer under this limit fails in the allocator (a c10::Error, not a
    // MemoryError): the refusal above shows the check came first. ctest's timeout catches a hang.
}
