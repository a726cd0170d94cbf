// The caching CPU allocator (engine/caching_cpu_allocator.h): it changes where the memory comes
// from and what is reserved, never the bytes the exact tracker counts; it is installed only for
// the measured work and put back after it, also after an exception or a cancel; it keeps a
// modelled out-of-memory as it was and leaks nothing; its memory does not page-fault in again.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <thread>
#include <vector>

#include "ckptlab/engine/runner.h"
#include "ckptlab/model/strategy.h"
#include "ckptlab/planning/cost_model.h"
#include "engine/caching_cpu_allocator.h"
#include "engine/memory_tracker.h"
#include "run_requests.h"
#include "same_breakdown.h"
#include "test_configs.h"

using namespace ckptlab;
using engine::CachingCpuAllocator;

namespace {

CachingCpuAllocator& cpuCache() { return CachingCpuAllocator::instance(); }

ExperimentConfig withAllocator(ExperimentConfig c, AllocatorKind kind) {
    c.allocator = kind;
    return c;
}

ResultSet sweep(const ExperimentConfig& c, const std::vector<std::string>& strategies,
                const RunnerHooks& hooks = {}) {
    return test::sweep(c, parseStrategies(strategies), hooks);
}

// The exact tracker's view of a run: everything but the times.
void expectSameBytes(const RunResult& a, const RunResult& b) {
    SCOPED_TRACE(a.strategy.name());
    EXPECT_EQ(a.metrics.peak_bytes, b.metrics.peak_bytes);
    EXPECT_EQ(a.metrics.activation_bytes, b.metrics.activation_bytes);
    EXPECT_EQ(a.metrics.baseline_bytes, b.metrics.baseline_bytes);
    expectSameBreakdown(a.breakdown, b.breakdown);
    ASSERT_EQ(a.timeline.size(), b.timeline.size());
    for (std::size_t i = 0; i < a.timeline.size(); ++i) {
        EXPECT_EQ(a.timeline[i].delta, b.timeline[i].delta) << i;
        EXPECT_EQ(a.timeline[i].total, b.timeline[i].total) << i;
        EXPECT_EQ(a.timeline[i].phase, b.timeline[i].phase) << i;
        EXPECT_EQ(a.timeline[i].block, b.timeline[i].block) << i;
    }
    ASSERT_EQ(a.blocks.size(), b.blocks.size());
    for (std::size_t i = 0; i < a.blocks.size(); ++i)
        EXPECT_EQ(a.blocks[i].bytes, b.blocks[i].bytes) << i;
    EXPECT_EQ(a.grad_check.max_abs_diff, b.grad_check.max_abs_diff);
}

void expectNothingHeld() {
    const CachingCpuAllocator::Counts c = cpuCache().counts();
    EXPECT_EQ(c.liveBlocks, 0u);
    EXPECT_EQ(c.allocated, 0);
    EXPECT_EQ(c.reserved, 0);
    EXPECT_EQ(c.segments, 0u);
}

}  // namespace

TEST(CachingCpuAllocator, HandsOutAlignedWritableBlocksAndKeepsThemUntilEmptyCache) {
    c10::Allocator* before = c10::GetAllocator(c10::DeviceType::CPU);
    {
        const engine::CpuAllocatorScope scope(AllocatorKind::Caching, torch::kCPU);
        EXPECT_TRUE(cpuCache().isCurrent());
        auto a = torch::full({1000}, 2.0f);  // 4000 bytes: one 4096-byte block, small pool
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a.data_ptr()) % 512, 0u);
        auto b = torch::empty({3 << 20}, torch::kUInt8);  // 3 MiB: a 20 MiB large segment
        b.fill_(7);
        EXPECT_EQ(b.sum().item<std::int64_t>(), std::int64_t{7} * (3 << 20));
        EXPECT_EQ(a.sum().item<float>(), 2000.0f);
        auto none = torch::empty({0});  // no block, as c10 does
        EXPECT_EQ(none.data_ptr(), nullptr);

        CachingCpuAllocator::Counts c = cpuCache().counts();
        EXPECT_GE(c.liveBlocks, 2u);
        EXPECT_GE(c.reserved, (2 << 20) + (20 << 20));
        const std::int64_t reserved = c.reserved;
        a.reset();
        b.reset();
        // Freed blocks stay reserved until emptyCache, as on a GPU.
        EXPECT_EQ(cpuCache().counts().reserved, reserved);
        auto again = torch::empty({3 << 20}, torch::kUInt8);  // the cached block
        EXPECT_EQ(cpuCache().counts().reserved, reserved);
        again.reset();
        cpuCache().emptyCache();
        EXPECT_LT(cpuCache().counts().reserved, reserved);
    }
    EXPECT_EQ(c10::GetAllocator(c10::DeviceType::CPU), before);
    expectNothingHeld();
}

// A tensor may outlive the scope that allocated it: its deleter still works, and the segment
// it held is given back at once.
TEST(CachingCpuAllocator, ATensorFreedAfterTheScopeGoesBack) {
    torch::Tensor kept;
    {
        const engine::CpuAllocatorScope scope(AllocatorKind::Caching, torch::kCPU);
        kept = torch::ones({1 << 20});
    }
    EXPECT_FALSE(cpuCache().isCurrent());
    EXPECT_EQ(cpuCache().counts().liveBlocks, 1u);
    EXPECT_EQ(kept.sum().item<float>(), float(1 << 20));
    kept.reset();
    expectNothingHeld();
}

TEST(CachingCpuAllocator, SystemAndCudaLeaveLibTorchsAllocatorAlone) {
    c10::Allocator* before = c10::GetAllocator(c10::DeviceType::CPU);
    {
        const engine::CpuAllocatorScope system(AllocatorKind::System, torch::kCPU);
        EXPECT_EQ(c10::GetAllocator(c10::DeviceType::CPU), before);
        const engine::CpuAllocatorScope cuda(AllocatorKind::Caching, torch::Device("cuda:0"));
        EXPECT_EQ(c10::GetAllocator(c10::DeviceType::CPU), before);
    }
    EXPECT_EQ(c10::GetAllocator(c10::DeviceType::CPU), before);
}

// Intra-op threads allocate too: many threads at once leave the bookkeeping whole.
TEST(CachingCpuAllocator, ThreadsAllocatingAtOnceLeaveNothingBehind) {
    {
        const engine::CpuAllocatorScope scope(AllocatorKind::Caching, torch::kCPU);
        std::vector<std::thread> threads;
        std::atomic<std::int64_t> sum{0};
        for (int t = 0; t < 4; ++t) {
            threads.emplace_back([&, t] {
                for (int i = 0; i < 300; ++i) {
                    auto x = torch::full({(i % 7 + 1) * 1000 + t}, 1.0f);
                    auto y = torch::empty({(i % 3) << 18});
                    sum += x.sum().item<std::int64_t>() + y.numel() * 0;
                }
            });
        }
        for (auto& thread : threads) thread.join();
        std::int64_t expected = 0;
        for (int t = 0; t < 4; ++t)
            for (int i = 0; i < 300; ++i) expected += (i % 7 + 1) * 1000 + t;
        EXPECT_EQ(sum.load(), expected);
        EXPECT_EQ(cpuCache().counts().liveBlocks, 0u);
        EXPECT_EQ(cpuCache().counts().allocated, 0);
    }
    expectNothingHeld();
}

// The tracker's running total follows the allocator's reports byte for byte, as it does for
// DefaultCPUAllocator (test_memory), and a known allocation is seen at its requested size.
TEST(CachingCpuAllocator, ReportsTheRequestedBytesToTheTracker) {
    const engine::CpuAllocatorScope scope(AllocatorKind::Caching, torch::kCPU);
    auto tracker = std::make_shared<engine::MemoryTracker>(c10::DeviceType::CPU);
    {
        engine::TrackingScope tracking(tracker);
        auto t = torch::empty({1000, 3}, torch::kFloat32);
        EXPECT_EQ(tracker->total(), 12000);  // not the 12288 the block holds
        auto a = torch::randn({64, 64}, torch::requires_grad());
        auto b = torch::matmul(a, a).relu().sum();
        b.backward();
        t.reset();
    }
    const auto& records = tracker->records();
    ASSERT_GT(records.size(), 4u);
    EXPECT_EQ(records[0].delta, 12000);
    const std::int64_t offset = records[0].allocatorTotal - records[0].total;
    for (const auto& r : records) EXPECT_EQ(r.allocatorTotal - offset, r.total);
}

// The measured bytes are the allocator's business only for reserved: a sweep's peaks, timeline
// and breakdown are the same to the byte under both allocators.
TEST(CachingCpuAllocator, ASweepMeasuresTheSameBytesAsUnderTheSystemAllocator) {
    const ExperimentConfig c = test::memoryConfig();  // one thread: one tracker sees it all
    const std::vector<std::string> strategies = {"none", "full", "every:2"};
    const ResultSet system = sweep(withAllocator(c, AllocatorKind::System), strategies);
    const ResultSet cached = sweep(withAllocator(c, AllocatorKind::Caching), strategies);
    ASSERT_EQ(system.runs.size(), 3u);
    ASSERT_EQ(cached.runs.size(), 3u);
    for (std::size_t i = 0; i < 3; ++i) {
        const RunResult &s = system.runs[i], &r = cached.runs[i];
        ASSERT_TRUE(s.ok() && r.ok()) << r.strategy.name();
        expectSameBytes(s, r);
        EXPECT_FALSE(s.allocator);  // the C library's malloc counts nothing of its own
        EXPECT_FALSE(s.allocator_trace);

        ASSERT_TRUE(r.allocator && r.allocator_trace) << r.strategy.name();
        const AllocatorStats& a = *r.allocator;
        EXPECT_EQ(a.source, AllocatorSource::CachingModel);
        EXPECT_GE(a.reserved_start, a.allocated_start);
        EXPECT_GE(a.reserved_peak, a.allocated_peak);
        EXPECT_GE(a.reserved_peak, a.reserved_start);
        // Parameters, input (and no optimizer state here) live in its segments already.
        EXPECT_GE(a.allocated_start, r.metrics.baseline_bytes);
        EXPECT_GE(a.reserved_start, r.metrics.baseline_bytes);
        // Rounded to 512 bytes: the step's blocks hold at least what they asked for.
        EXPECT_GE(a.allocated_peak - a.allocated_start, r.metrics.peak_bytes);

        // The trace: the blocks the step began with add up to allocated_start, each block lies
        // in its segment, and the step's own blocks are the tracker's allocations in order,
        // with their sizes and labels.
        const AllocatorTrace& trace = *r.allocator_trace;
        EXPECT_EQ(trace.unlisted_blocks, 0);
        std::int64_t atStart = 0, requestedAtStart = 0, reservedAtStart = 0;
        for (const SegmentRecord& s : trace.segments)
            if (!s.created_ms) reservedAtStart += s.size;
        EXPECT_EQ(reservedAtStart, a.reserved_start);
        std::vector<const TimelineEvent*> allocations;
        for (const TimelineEvent& e : r.timeline)
            if (e.delta > 0) allocations.push_back(&e);
        std::size_t k = 0;
        for (const SegmentBlock& b : trace.blocks) {
            ASSERT_GE(b.segment, 0);
            ASSERT_LT(b.segment, static_cast<int>(trace.segments.size()));
            EXPECT_LE(b.offset + b.size, trace.segments[b.segment].size);
            EXPECT_GE(b.size, b.requested);
            EXPECT_EQ(b.size % 512, 0);
            if (!b.allocated_ms) {
                atStart += b.size;
                requestedAtStart += b.requested;
                continue;
            }
            ASSERT_LT(k, allocations.size());
            EXPECT_EQ(b.requested, allocations[k]->delta) << k;
            EXPECT_EQ(b.phase, allocations[k]->phase) << k;
            EXPECT_EQ(b.block, allocations[k]->block) << k;
            // Both read the tracker's clock, the allocator's placing before the profiler hook
            // it then calls, and before the next allocation's hook: an order, not a gap in ms,
            // which a loaded machine stretches.
            EXPECT_LE(*b.allocated_ms, allocations[k]->t_ms) << k;
            if (k > 0) EXPECT_GE(*b.allocated_ms, allocations[k - 1]->t_ms) << k;
            if (b.freed_ms) EXPECT_GE(*b.freed_ms, *b.allocated_ms);
            ++k;
        }
        EXPECT_EQ(k, allocations.size());
        EXPECT_EQ(atStart, a.allocated_start);
        // What a training script holds when its step begins, and nothing of the lab's own (the
        // initial weights, the reference gradients: SystemAllocatorScope).
        EXPECT_EQ(requestedAtStart, r.metrics.baseline_bytes);
    }
    expectNothingHeld();
}

// Installed for the sweep, put back after it: when it ends, when a hook throws out of it and
// when it is cancelled; each time nothing stays allocated or reserved.
TEST(CachingCpuAllocator, TheSweepPutsThePreviousAllocatorBack) {
    c10::Allocator* before = c10::GetAllocator(c10::DeviceType::CPU);
    const ExperimentConfig c = test::tinyConfig();
    bool installedDuring = false;
    RunnerHooks hooks;
    hooks.traced = [&](const RunResult&) { installedDuring = cpuCache().isCurrent(); };
    const ResultSet done = sweep(c, {"none", "full"}, hooks);
    EXPECT_TRUE(installedDuring);
    EXPECT_EQ(c10::GetAllocator(c10::DeviceType::CPU), before);
    expectNothingHeld();

    hooks.traced = [](const RunResult&) { throw std::runtime_error("a hook failed"); };
    EXPECT_THROW(sweep(c, {"none", "full"}, hooks), std::runtime_error);
    EXPECT_EQ(c10::GetAllocator(c10::DeviceType::CPU), before);
    expectNothingHeld();

    std::atomic<bool> cancel{false};
    hooks.cancel = &cancel;
    hooks.traced = [&](const RunResult&) { cancel = true; };
    const ResultSet cancelled = sweep(c, {"none", "full", "every:2"}, hooks);
    EXPECT_TRUE(cancelled.cancelled);
    EXPECT_EQ(c10::GetAllocator(c10::DeviceType::CPU), before);
    expectNothingHeld();

    // And the cost model measured on its own (the app's forecast).
    measureCostModel(c);
    EXPECT_EQ(c10::GetAllocator(c10::DeviceType::CPU), before);
    expectNothingHeld();
}

// --memory-limit under the caching allocator: the same out-of-memory at the same place (the
// tracker throws from inside the allocation, which hands the block back first), and nothing
// leaks: the cache empties to where it started.
TEST(CachingCpuAllocator, AModelledOutOfMemoryIsTheSameAndLeaksNothing) {
    ExperimentConfig c = test::outOfMemoryConfig();
    c.threads = 1;
    const ResultSet free = sweep(c, {"none", "full"});
    const std::int64_t none = free.runs[0].metrics.baseline_bytes + free.runs[0].metrics.peak_bytes;
    const std::int64_t full = free.runs[1].metrics.baseline_bytes + free.runs[1].metrics.peak_bytes;
    c.memory_limit_mib = (none + full) / 2.0 / (1024.0 * 1024.0);
    const ResultSet system = sweep(withAllocator(c, AllocatorKind::System), {"none", "full"});
    const ResultSet cached = sweep(withAllocator(c, AllocatorKind::Caching), {"none", "full"});
    ASSERT_TRUE(system.runs[0].out_of_memory && cached.runs[0].out_of_memory);
    const OutOfMemory &s = *system.runs[0].out_of_memory, &r = *cached.runs[0].out_of_memory;
    EXPECT_EQ(r.requested_bytes, s.requested_bytes);
    EXPECT_EQ(r.allocated_bytes, s.allocated_bytes);
    EXPECT_EQ(r.limit_bytes, s.limit_bytes);
    EXPECT_EQ(r.phase, s.phase);
    EXPECT_EQ(r.block, s.block);
    EXPECT_EQ(*cached.runs[0].error, *system.runs[0].error);
    expectSameBytes(system.runs[0], cached.runs[0]);
    ASSERT_TRUE(cached.runs[1].ok());
    expectSameBytes(system.runs[1], cached.runs[1]);
    // The run that ran out has its allocator view up to there.
    ASSERT_TRUE(cached.runs[0].allocator && cached.runs[0].allocator_trace);
    EXPECT_GE(cached.runs[0].allocator->reserved_peak, cached.runs[0].allocator->allocated_peak);
    expectNothingHeld();
}

// The memory glibc gives back is page-faulted in again by the next step; the caching
// allocator's segments stay mapped. glibc maps a block above 32 MiB (the ceiling of its dynamic
// mmap threshold) on its own and unmaps it when freed, so a step whose hidden activation is
// 36 MiB faults it in every time under the system allocator, on any heap state; narrow (width
// 8), the step does little arithmetic.
// Left out of the asan preset (CMakePresets.json): under ASan, malloc is ASan's own allocator,
// not the glibc whose faults this compares.
TEST(CachingCpuAllocator, ItsStepsDoNotPageFaultTheirMemoryInAgain) {
    ExperimentConfig c = test::quickConfig(BlockKind::Ffn, 1, 8, 32768, 9);
    c.repeats = 3;
    const ResultSet cached = sweep(withAllocator(c, AllocatorKind::Caching), {"none"});
    const ResultSet system = sweep(withAllocator(c, AllocatorKind::System), {"none"});
    ASSERT_TRUE(cached.runs[0].metrics.minor_faults_per_step);
    ASSERT_TRUE(system.runs[0].metrics.minor_faults_per_step);
    const double cachedFaults = *cached.runs[0].metrics.minor_faults_per_step;
    const double systemFaults = *system.runs[0].metrics.minor_faults_per_step;
    std::printf("median minor faults per step: caching %.0f, system %.0f\n", cachedFaults,
                systemFaults);
    EXPECT_LT(cachedFaults, 50);
    EXPECT_GT(systemFaults, 50);
}

// Two threads measuring at once: the measurement scope lets one in at a time, each under its
// own allocator, and each gets what it gets alone.
TEST(CachingCpuAllocator, TwoThreadsMeasuringAtOnceGetTheirOwnNumbers) {
    const ExperimentConfig c = test::memoryConfig();
    const ExperimentConfig cachedConfig = withAllocator(c, AllocatorKind::Caching);
    const ExperimentConfig systemConfig = withAllocator(c, AllocatorKind::System);
    const std::vector<std::string> strategies = {"none", "full"};
    const ResultSet cachedAlone = sweep(cachedConfig, strategies);
    const ResultSet systemAlone = sweep(systemConfig, strategies);
    ResultSet cachedTogether, systemTogether;
    std::thread a([&] { cachedTogether = sweep(cachedConfig, strategies); });
    std::thread b([&] { systemTogether = sweep(systemConfig, strategies); });
    a.join();
    b.join();
    ASSERT_EQ(cachedTogether.runs.size(), 2u);
    ASSERT_EQ(systemTogether.runs.size(), 2u);
    for (std::size_t i = 0; i < 2; ++i) {
        expectSameBytes(cachedAlone.runs[i], cachedTogether.runs[i]);
        expectSameBytes(systemAlone.runs[i], systemTogether.runs[i]);
        EXPECT_FALSE(systemTogether.runs[i].allocator);
        ASSERT_TRUE(cachedTogether.runs[i].allocator);
        const AllocatorStats &alone = *cachedAlone.runs[i].allocator,
                             &together = *cachedTogether.runs[i].allocator;
        EXPECT_EQ(together.allocated_start, alone.allocated_start);
        EXPECT_EQ(together.allocated_peak, alone.allocated_peak);
        EXPECT_EQ(together.reserved_start, alone.reserved_start);
        EXPECT_EQ(together.reserved_peak, alone.reserved_peak);
    }
    expectNothingHeld();
}
