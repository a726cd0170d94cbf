// The results file's run.allocator (result.h): CUDA's caching allocator statistics of the
// traced step, written only when present, read back exactly, refused when malformed, and
// absent from older files. (Filling it needs a GPU: bench/gpu/README.md.)
#include <gtest/gtest.h>

#include <string>

#include "ckptlab/formats/results_io.h"
#include "strategy_text.h"

namespace ckptlab {
namespace {

ResultSet oneRun() {
    ResultSet set;
    RunResult run;
    run.config.depth = 2;
    run.strategy = test::strategy("none");
    run.schedule = "0 1";
    run.forward_counts = {1, 1};
    run.metrics.step_ms = 1;
    run.metrics.step_samples_ms = {1};
    set.runs = {run};
    return set;
}

TEST(CudaAllocatorIo, WrittenOnlyWhenPresentAndReadBack) {
    ResultSet set = oneRun();
    EXPECT_EQ(resultsToJson(set).find("cuda_allocator"), std::string::npos);
    EXPECT_FALSE(resultsFromJson(resultsToJson(set)).runs[0].allocator);

    // Figures of the shape a CUDA run gives: the peak above the start equals the tracker's.
    set.runs[0].allocator =
        AllocatorStats{AllocatorSource::Cuda, 2719215616, 7081956352, 2751463424, 7419723776};
    const ResultSet loaded = resultsFromJson(resultsToJson(set));
    ASSERT_TRUE(loaded.runs[0].allocator);
    const AllocatorStats& c = *loaded.runs[0].allocator;
    EXPECT_EQ(c.allocated_start, 2719215616);
    EXPECT_EQ(c.allocated_peak, 7081956352);
    EXPECT_EQ(c.reserved_start, 2751463424);
    EXPECT_EQ(c.reserved_peak, 7419723776);
}

TEST(CudaAllocatorIo, MalformedIsRefusedWithItsPlace) {
    ResultSet set = oneRun();
    set.runs[0].allocator = AllocatorStats{AllocatorSource::Cuda, 1, 2, 3, 4};
    std::string text = resultsToJson(set);
    const auto at = text.find("\"reserved_peak\"");
    ASSERT_NE(at, std::string::npos);
    text.insert(text.find_first_of("0123456789", text.find(':', at)), "-");
    try {
        resultsFromJson(text);
        FAIL() << "a negative reserved_peak loaded";
    } catch (const ResultsFileError& e) {
        EXPECT_NE(std::string(e.what()).find("runs[0].allocator.reserved_peak"), std::string::npos)
            << e.what();
    }
}

}  // namespace
}  // namespace ckptlab
