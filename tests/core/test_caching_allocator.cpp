// The model of CUDA's caching allocator (caching_allocator.h) against cases worked out by hand
// from the rules of c10/cuda/CUDACachingAllocator.cpp, and a randomized run against a reference
// that recomputes every choice from the segments' pieces.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <stdexcept>
#include <vector>

#include "ckptlab/planning/caching_allocator.h"

namespace ckptlab {
namespace {

using Block = CachingAllocatorModel::Block;
using caching::roundSize;
using caching::segmentSizeFor;

constexpr std::int64_t KiB = 1024;
constexpr std::int64_t MiB = 1024 * 1024;

TEST(CachingAllocator, RoundsUpTo512Bytes) {
    EXPECT_EQ(roundSize(1), 512);
    EXPECT_EQ(roundSize(511), 512);
    EXPECT_EQ(roundSize(512), 512);
    EXPECT_EQ(roundSize(513), 1024);
    EXPECT_EQ(roundSize(3 * MiB + 1), 3 * MiB + 512);
    // An empty tensor gets no block at all (CUDA's allocate skips size 0).
    EXPECT_EQ(roundSize(0), 0);
    EXPECT_THROW(roundSize(-1), std::invalid_argument);
    EXPECT_THROW(roundSize(caching::kMaxRequest + 1), std::invalid_argument);

    CachingAllocatorModel a;
    const Block none = a.allocate(0);
    EXPECT_TRUE(none.empty());
    EXPECT_EQ(a.reserved(), 0);
    EXPECT_TRUE(a.segments().empty());
    a.free(none);  // nothing to give back
    EXPECT_THROW(a.allocate(-5), std::invalid_argument);
}

TEST(CachingAllocator, SegmentSizes) {
    // 1 MiB is the largest small request: a 2 MiB small-pool segment.
    EXPECT_EQ(segmentSizeFor(roundSize(1 * MiB)), 2 * MiB);
    // One byte more rounds to 1 MiB + 512: large pool, below 10 MiB -> a 20 MiB segment.
    EXPECT_EQ(roundSize(1 * MiB + 1), 1 * MiB + 512);
    EXPECT_EQ(segmentSizeFor(roundSize(1 * MiB + 1)), 20 * MiB);
    EXPECT_EQ(segmentSizeFor(roundSize(10 * MiB - 512)), 20 * MiB);
    // From 10 MiB on, the request rounded up to 2 MiB.
    EXPECT_EQ(segmentSizeFor(roundSize(10 * MiB - 1)), 10 * MiB);
    EXPECT_EQ(segmentSizeFor(roundSize(10 * MiB)), 10 * MiB);
    EXPECT_EQ(segmentSizeFor(roundSize(10 * MiB + 1)), 12 * MiB);
    EXPECT_EQ(segmentSizeFor(roundSize(33 * MiB)), 34 * MiB);

    // Each request alone in a fresh allocator: the segment it reserves and the block it gets.
    struct Placed {
        CachingAllocatorModel::Segment segment;
        Block block;
        std::size_t pieces;
    };
    auto alone = [](std::int64_t bytes) {
        CachingAllocatorModel a;
        const Block b = a.allocate(bytes);
        EXPECT_EQ(a.segments().size(), 1u);
        EXPECT_EQ(a.reserved(), a.segments()[0].size);
        EXPECT_EQ(a.allocated(), b.size);
        return Placed{a.segments()[0], b, a.pieces(0).size()};
    };
    const Placed small = alone(1 * MiB);
    EXPECT_EQ(small.segment.size, 2 * MiB);
    EXPECT_TRUE(small.segment.small_pool);
    EXPECT_EQ(small.block.size, 1 * MiB);
    const Placed large = alone(1 * MiB + 1);
    EXPECT_EQ(large.segment.size, 20 * MiB);
    EXPECT_FALSE(large.segment.small_pool);
    EXPECT_EQ(large.block.size, 1 * MiB + 512);
    const Placed exact = alone(10 * MiB);  // the segment is the block: nothing remains
    EXPECT_EQ(exact.segment.size, 10 * MiB);
    EXPECT_EQ(exact.block.size, 10 * MiB);
    EXPECT_EQ(exact.pieces, 1u);
    // 10 MiB + 512 in a 12 MiB segment: 2 MiB - 512 remain, more than 1 MiB, so it splits.
    const Placed above = alone(10 * MiB + 1);
    EXPECT_EQ(above.segment.size, 12 * MiB);
    EXPECT_EQ(above.block.size, 10 * MiB + 512);
    EXPECT_EQ(above.pieces, 2u);
}

TEST(CachingAllocator, SmallBlocksShareASegmentAndAreReused) {
    CachingAllocatorModel a;
    // Two 512 KiB tensors: the first reserves a 2 MiB segment and splits it (1.5 MiB remain,
    // at least 512 bytes); the second is cut from that remainder, right after the first.
    const Block first = a.allocate(512 * KiB);
    const Block second = a.allocate(512 * KiB);
    EXPECT_EQ(a.segments().size(), 1u);
    EXPECT_EQ(first.segment, 0);
    EXPECT_EQ(first.offset, 0);
    EXPECT_EQ(second.segment, 0);
    EXPECT_EQ(second.offset, 512 * KiB);
    EXPECT_EQ(a.reserved(), 2 * MiB);
    EXPECT_EQ(a.allocated(), 1 * MiB);
    // Freed, the first's block is the best fit for the same size again: free pieces are
    // 512 KiB at 0 and 1 MiB at 1 MiB.
    a.free(first);
    const Block again = a.allocate(512 * KiB);
    EXPECT_EQ(again.segment, 0);
    EXPECT_EQ(again.offset, 0);
    EXPECT_EQ(a.segments().size(), 1u);
    // Two 1 MiB tensors fill a small segment exactly: the second takes the 1 MiB left whole.
    CachingAllocatorModel b;
    b.allocate(1 * MiB);
    const Block full = b.allocate(1 * MiB);
    EXPECT_EQ(full.offset, 1 * MiB);
    EXPECT_EQ(b.reserved(), 2 * MiB);
    EXPECT_EQ(b.pieces(0).size(), 2u);
}

TEST(CachingAllocator, BestFitTakesTheSmallestFreeBlockNotTheFirst) {
    CachingAllocatorModel a;
    const Block big = a.allocate(100 * KiB);  // [0, 100K)
    a.allocate(4 * KiB);                      // [100K, 104K) stays, a wall between the holes
    const Block hole = a.allocate(40 * KiB);  // [104K, 144K)
    a.allocate(4 * KiB);                      // [144K, 148K)
    a.free(big);
    a.free(hole);
    // Free: 100 KiB at 0, 40 KiB at 104 KiB, 1900 KiB at 148 KiB. 30 KiB fits all three; the
    // smallest that fits is the 40 KiB hole, not the first by address.
    const Block b = a.allocate(30 * KiB);
    EXPECT_EQ(b.segment, 0);
    EXPECT_EQ(b.offset, 104 * KiB);
    // The 10 KiB left of the hole is split off (at least 512 bytes) and is the next best fit.
    const Block c = a.allocate(10 * KiB);
    EXPECT_EQ(c.offset, 134 * KiB);
    EXPECT_EQ(a.checkConsistency(), "");
}

TEST(CachingAllocator, EqualSizesTieToTheEarlierSegmentThenTheLowerOffset) {
    CachingAllocatorModel a;
    std::vector<Block> blocks;
    for (int i = 0; i < 4; ++i) blocks.push_back(a.allocate(1 * MiB));  // two small segments
    ASSERT_EQ(a.segments().size(), 2u);
    a.free(blocks[3]);  // segment 1, offset 1 MiB
    a.free(blocks[1]);  // segment 0, offset 1 MiB
    const Block b = a.allocate(1 * MiB);
    EXPECT_EQ(b.segment, 0);
    EXPECT_EQ(b.offset, 1 * MiB);
}

TEST(CachingAllocator, FreedNeighboursMerge) {
    CachingAllocatorModel a;
    const Block first = a.allocate(256 * KiB);   // [0, 256K)
    const Block second = a.allocate(256 * KiB);  // [256K, 512K)
    const Block third = a.allocate(256 * KiB);   // [512K, 768K); 1280 KiB free after it
    a.free(first);
    a.free(second);  // merges with the free block before it
    const auto pieces = a.pieces(0);
    ASSERT_EQ(pieces.size(), 3u);
    EXPECT_EQ(pieces[0].offset, 0);
    EXPECT_EQ(pieces[0].size, 512 * KiB);
    EXPECT_FALSE(pieces[0].allocated);
    EXPECT_TRUE(pieces[1].allocated);
    // One block big enough for both: 512 KiB lands at 0 (exact fit beats the 1280 KiB block).
    const Block both = a.allocate(512 * KiB);
    EXPECT_EQ(both.offset, 0);
    EXPECT_EQ(both.size, 512 * KiB);
    a.free(both);
    a.free(third);  // merges with both neighbours: the segment is one free block again
    ASSERT_EQ(a.pieces(0).size(), 1u);
    EXPECT_EQ(a.pieces(0)[0].size, 2 * MiB);
    EXPECT_EQ(a.allocated(), 0);
    EXPECT_EQ(a.reserved(), 2 * MiB);  // cached, not given back
    EXPECT_EQ(a.checkConsistency(), "");
}

TEST(CachingAllocator, LargeBlocksSplitOnlyWhenMoreThan1MiBRemains) {
    {
        // 19.5 MiB -> a 20 MiB segment (rounded up to 2 MiB). 0.5 MiB would remain, not more
        // than 1 MiB: the block is not split and the whole 20 MiB is handed out; allocated
        // counts the block's size (alloc_found_block adds block->size to allocated_bytes).
        CachingAllocatorModel a;
        const Block b = a.allocate(19 * MiB + 512 * KiB);
        EXPECT_EQ(a.segments()[0].size, 20 * MiB);
        EXPECT_EQ(b.size, 20 * MiB);
        EXPECT_EQ(a.allocated(), 20 * MiB);
        EXPECT_EQ(a.pieces(0).size(), 1u);
        a.free(b);
        EXPECT_EQ(a.allocated(), 0);
    }
    {
        // 2 MiB takes a 20 MiB segment and leaves 18 MiB free. 17 MiB would leave exactly
        // 1 MiB, not more: the 18 MiB block goes whole. allocated = 2 + 18 MiB.
        CachingAllocatorModel a;
        a.allocate(2 * MiB);
        const Block b = a.allocate(17 * MiB);
        EXPECT_EQ(b.offset, 2 * MiB);
        EXPECT_EQ(b.size, 18 * MiB);
        EXPECT_EQ(a.allocated(), 20 * MiB);
        EXPECT_EQ(a.reserved(), 20 * MiB);
    }
    {
        // 512 bytes less leaves 1 MiB + 512: split.
        CachingAllocatorModel a;
        a.allocate(2 * MiB);
        const Block b = a.allocate(17 * MiB - 512);
        EXPECT_EQ(b.size, 17 * MiB - 512);
        EXPECT_EQ(a.allocated(), 19 * MiB - 512);
        EXPECT_EQ(a.pieces(0).size(), 3u);
    }
}

TEST(CachingAllocator, PoolsDoNotLend) {
    CachingAllocatorModel a;
    a.free(a.allocate(3 * MiB));  // a cached 20 MiB large block
    const Block small = a.allocate(512);
    EXPECT_EQ(small.segment, 1);  // a new 2 MiB small segment, not a piece of the large one
    EXPECT_EQ(a.reserved(), 22 * MiB);
    // ... and a large request does not take small blocks, however many are free.
    CachingAllocatorModel b;
    std::vector<Block> smalls;
    for (int i = 0; i < 4; ++i) smalls.push_back(b.allocate(1 * MiB));
    for (const Block& s : smalls) b.free(s);
    b.allocate(1 * MiB + 1);
    EXPECT_EQ(b.reserved(), (2 + 2 + 20) * MiB);
}

TEST(CachingAllocator, PeaksAndTheirReset) {
    CachingAllocatorModel a;
    a.allocate(1 * MiB);                  // small segment, 2 MiB
    const Block b = a.allocate(3 * MiB);  // large segment, 20 MiB
    EXPECT_EQ(a.peakAllocated(), 4 * MiB);
    EXPECT_EQ(a.peakReserved(), 22 * MiB);
    a.free(b);
    EXPECT_EQ(a.allocated(), 1 * MiB);
    EXPECT_EQ(a.peakAllocated(), 4 * MiB);  // a peak stays
    a.resetPeaks();
    EXPECT_EQ(a.peakAllocated(), 1 * MiB);
    EXPECT_EQ(a.peakReserved(), 22 * MiB);  // nothing was given back
    a.allocate(512);
    EXPECT_EQ(a.peakAllocated(), 1 * MiB + 512);
    a.emptyCache();  // releases the empty 20 MiB segment
    EXPECT_EQ(a.reserved(), 2 * MiB);
    EXPECT_EQ(a.peakReserved(), 22 * MiB);
    a.resetPeaks();
    EXPECT_EQ(a.peakReserved(), 2 * MiB);
}

TEST(CachingAllocator, EmptyCacheReleasesOnlyEmptySegments) {
    CachingAllocatorModel a;
    const Block keep = a.allocate(4 * KiB);  // segment 0, stays allocated
    const Block gone = a.allocate(5 * MiB);  // segment 1
    // 16 MiB does not fit the 15 MiB left in segment 1: segment 2, 16 MiB, taken whole.
    const Block part = a.allocate(16 * MiB);
    a.free(gone);
    const Block other = a.allocate(600 * KiB);  // segment 0 again
    a.free(other);                              // segment 0 still holds `keep`
    EXPECT_EQ(a.emptyCache(), std::vector<int>{1});
    EXPECT_TRUE(a.segments()[1].released);
    EXPECT_FALSE(a.segments()[0].released);
    EXPECT_EQ(a.reserved(), (2 + 16) * MiB);
    EXPECT_TRUE(a.pieces(1).empty());
    EXPECT_THROW(a.free(gone), std::invalid_argument);  // its segment is gone
    // A new segment gets a new index; released ones are never reused.
    const Block fresh = a.allocate(5 * MiB);
    EXPECT_EQ(fresh.segment, 3);
    EXPECT_EQ(part.segment, 2);
    a.free(part);
    a.free(keep);
    EXPECT_EQ(a.emptyCache(), (std::vector<int>{0, 2}));
    EXPECT_EQ(a.reserved(), 20 * MiB);
    EXPECT_EQ(a.checkConsistency(), "");
}

TEST(CachingAllocator, FragmentationKeepsMoreReservedThanAllocated) {
    CachingAllocatorModel a;
    const Block x = a.allocate(6 * MiB);  // [0, 6M) of a 20 MiB segment
    a.allocate(6 * MiB);                  // [6M, 12M)
    const Block z = a.allocate(6 * MiB);  // [12M, 18M); 2 MiB free after it
    a.free(x);                            // 6 MiB free at 0
    a.free(z);                            // merges with the tail: 8 MiB free at 12 MiB
    // 14 MiB are free in the segment, but no piece holds 9 MiB: a second 20 MiB segment.
    const Block nine = a.allocate(9 * MiB);
    EXPECT_EQ(nine.segment, 1);
    EXPECT_EQ(a.allocated(), 15 * MiB);
    EXPECT_EQ(a.reserved(), 40 * MiB);
    EXPECT_EQ(a.reserved() - a.allocated(), 25 * MiB);  // 14 MiB in holes, 11 MiB of tail
}

TEST(CachingAllocator, RefusesBlocksItDidNotHandOut) {
    CachingAllocatorModel a;
    const Block b = a.allocate(1000);
    EXPECT_THROW(a.free({b.segment, b.offset + 512, b.size}), std::invalid_argument);
    EXPECT_THROW(a.free({b.segment, b.offset, b.size + 512}), std::invalid_argument);
    EXPECT_THROW(a.free({7, 0, 512}), std::invalid_argument);
    a.free(b);
    EXPECT_THROW(a.free(b), std::invalid_argument);  // twice
    EXPECT_EQ(a.checkConsistency(), "");
}

// ---- Randomized, against a reference --------------------------------------------------------

// The invariants, recomputed from the pieces alone: they tile each live segment, no two free
// pieces touch, the allocated pieces are the live blocks and add up to allocated().
void expectTiling(const CachingAllocatorModel& a, const std::vector<Block>& live) {
    std::int64_t allocated = 0, reserved = 0;
    std::size_t allocatedPieces = 0;
    for (int s = 0; s < static_cast<int>(a.segments().size()); ++s) {
        if (a.segments()[s].released) continue;
        reserved += a.segments()[s].size;
        std::int64_t end = 0;
        bool previousFree = false;
        for (const auto& p : a.pieces(s)) {
            ASSERT_EQ(p.offset, end) << "segment " << s;
            ASSERT_GT(p.size, 0);
            ASSERT_FALSE(previousFree && !p.allocated) << "free neighbours in segment " << s;
            previousFree = !p.allocated;
            end += p.size;
            if (p.allocated) {
                allocated += p.size;
                ++allocatedPieces;
                const bool isLive = std::any_of(live.begin(), live.end(), [&](const Block& b) {
                    return b.segment == s && b.offset == p.offset && b.size == p.size;
                });
                ASSERT_TRUE(isLive) << "an allocated piece no one holds";
            }
        }
        ASSERT_EQ(end, a.segments()[s].size);
    }
    ASSERT_EQ(allocatedPieces, live.size());
    ASSERT_EQ(allocated, a.allocated());
    ASSERT_EQ(reserved, a.reserved());
}

// What CUDA's rules pick for a request, worked out from the pieces by a linear scan: the
// smallest free piece of the request's pool that fits, ties to the earlier segment and then
// the lower offset; none means a new segment.
std::optional<Block> expectedPlace(const CachingAllocatorModel& a, std::int64_t rounded) {
    std::optional<Block> best;
    for (int s = 0; s < static_cast<int>(a.segments().size()); ++s) {
        const auto& segment = a.segments()[s];
        if (segment.released || segment.small_pool != caching::isSmall(rounded)) continue;
        for (const auto& p : a.pieces(s)) {
            if (p.allocated || p.size < rounded) continue;
            if (!best || p.size < best->size) best = Block{s, p.offset, p.size};
        }
    }
    return best;
}

std::int64_t randomRequest(std::mt19937_64& rng) {
    switch (std::uniform_int_distribution<int>(0, 9)(rng)) {
    case 0: return std::uniform_int_distribution<std::int64_t>(10 * MiB, 40 * MiB)(rng);
    case 1:
    case 2: return std::uniform_int_distribution<std::int64_t>(1 * MiB + 1, 10 * MiB)(rng);
    case 3: return std::uniform_int_distribution<std::int64_t>(0, 600)(rng);
    default: return std::uniform_int_distribution<std::int64_t>(1, 1 * MiB)(rng);
    }
}

TEST(CachingAllocator, RandomOperationsKeepTheInvariantsAndFollowTheRules) {
    for (std::uint64_t seed : {1u, 2u, 3u, 42u}) {
        std::mt19937_64 rng(seed);
        CachingAllocatorModel a;
        std::vector<Block> live;
        std::int64_t peakAllocated = 0, peakReserved = 0;
        for (int step = 0; step < 3000; ++step) {
            const int op = std::uniform_int_distribution<int>(0, 99)(rng);
            if (op < 55 || live.empty()) {
                const std::int64_t bytes = randomRequest(rng);
                const std::int64_t rounded = roundSize(bytes);
                const auto expected = rounded ? expectedPlace(a, rounded) : std::nullopt;
                const std::size_t segmentsBefore = a.segments().size();
                const Block b = a.allocate(bytes);
                if (bytes == 0) {
                    ASSERT_TRUE(b.empty());
                    continue;
                }
                ASSERT_GE(b.size, rounded);
                if (expected) {
                    ASSERT_EQ(a.segments().size(), segmentsBefore);
                    ASSERT_EQ(b.segment, expected->segment);
                    ASSERT_EQ(b.offset, expected->offset);
                } else {
                    ASSERT_EQ(a.segments().size(), segmentsBefore + 1);
                    ASSERT_EQ(a.segments().back().size, segmentSizeFor(rounded));
                    ASSERT_EQ(b.offset, 0);
                }
                // Handed out unsplit only when the remainder was too small to split.
                const std::int64_t extra = b.size - rounded;
                ASSERT_LE(extra, caching::isSmall(rounded) ? caching::kMinBlockSize - 1
                                                           : caching::kSmallSize);
                live.push_back(b);
            } else if (op < 97) {
                const std::size_t i =
                    std::uniform_int_distribution<std::size_t>(0, live.size() - 1)(rng);
                a.free(live[i]);
                live.erase(live.begin() + static_cast<std::ptrdiff_t>(i));
            } else {
                for (int s : a.emptyCache()) {
                    for (const Block& b : live) ASSERT_NE(b.segment, s);
                }
                // Whatever is left reserved holds something allocated.
                for (int s = 0; s < static_cast<int>(a.segments().size()); ++s) {
                    if (a.segments()[s].released) continue;
                    const auto pieces = a.pieces(s);
                    ASSERT_TRUE(std::any_of(pieces.begin(), pieces.end(),
                                            [](const auto& p) { return p.allocated; }));
                }
            }
            peakAllocated = std::max(peakAllocated, a.allocated());
            peakReserved = std::max(peakReserved, a.reserved());
            ASSERT_EQ(a.peakAllocated(), peakAllocated);
            ASSERT_EQ(a.peakReserved(), peakReserved);
            ASSERT_EQ(a.checkConsistency(), "") << "seed " << seed << " step " << step;
            expectTiling(a, live);
            if (HasFatalFailure()) return;
        }
        for (const Block& b : live) a.free(b);
        EXPECT_EQ(a.allocated(), 0);
        a.emptyCache();
        EXPECT_EQ(a.reserved(), 0);
    }
}

// A traced step does tens of thousands of allocations; the pools are ordered sets, so this
// runs in well under a second (a linear scan of the free blocks would not).
TEST(CachingAllocator, ManyAllocationsStayCheap) {
    std::mt19937_64 rng(7);
    CachingAllocatorModel a;
    std::vector<Block> live;
    for (int step = 0; step < 200000; ++step) {
        if (live.size() < 5000 && (live.size() < 100 || rng() % 2)) {
            live.push_back(a.allocate(randomRequest(rng)));
        } else {
            const std::size_t i = rng() % live.size();
            a.free(live[i]);
            live[i] = live.back();
            live.pop_back();
        }
    }
    EXPECT_EQ(a.checkConsistency(), "");
    for (const Block& b : live) a.free(b);
    EXPECT_EQ(a.allocated(), 0);
}

}  // namespace
}  // namespace ckptlab
