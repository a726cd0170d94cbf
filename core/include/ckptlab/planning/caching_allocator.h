#pragma once
// CUDA's caching allocator as bookkeeping, without a GPU: which reserved segment and offset
// each allocation gets, when a segment is reserved and when it is given back. The rules are
// those of PyTorch's c10/cuda/CUDACachingAllocator.cpp, read at pytorch/pytorch commit
// 001074d25084fdb87a799823e395a50f5ec044d3 (caching_allocator.cpp says which functions), on one
// stream and with its default settings (no PYTORCH_CUDA_ALLOC_CONF):
// - sizes round up to 512 bytes (no roundup_power2_divisions);
// - requests up to 1 MiB come from the small pool, whose segments are 2 MiB; larger ones from
//   the large pool, whose segments are 20 MiB below 10 MiB and the request rounded up to 2 MiB
//   from 10 MiB on;
// - the smallest free block of the pool that fits is taken (best fit, then the lowest address;
//   max_split_size, unlimited by default, plays no part) and split when what remains is at
//   least 512 bytes (small pool) or more than 1 MiB (large pool); an unsplit block is handed
//   out whole and counts whole in allocated();
// - a freed block goes back to its pool, merged with free neighbours of its segment;
// - nothing is given back until emptyCache(), which releases the segments with nothing
//   allocated in them.
// The device never runs out here: CUDA's retries after a failed cudaMalloc (releasing cached
// blocks, then all unsplit ones) never happen, nor do expandable segments, streams, events or
// CUDA graphs' private pools.
//
// "Address" order is the order segments were reserved, then the offset in the segment. On a GPU
// a later cudaMalloc may return a lower address, so where two free blocks of the same size tie
// for the best fit, the GPU may take the other one: allocated() and the peaks of a replay stay
// the same, but which segment ends up empty (what emptyCache() gives back) and the later splits
// may differ.
//
// The engine's CPU allocator (engine/caching_cpu_allocator.h) backs the segments with real
// memory; the planner replays predicted allocations through it for reserved bytes (predict.cpp).

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace ckptlab {

namespace caching {
inline constexpr std::int64_t kMinBlockSize = 512;        // every size rounds up to this
inline constexpr std::int64_t kSmallSize = 1 << 20;       // largest small-pool request
inline constexpr std::int64_t kSmallBuffer = 2 << 20;     // a small-pool segment
inline constexpr std::int64_t kLargeBuffer = 20 << 20;    // a large-pool segment below...
inline constexpr std::int64_t kMinLargeAlloc = 10 << 20;  // ...this request size
inline constexpr std::int64_t kRoundLarge = 2 << 20;      // large segments' rounding
// The largest request allocate() takes: CUDA refuses 1 EiB and more.
inline constexpr std::int64_t kMaxRequest = (std::int64_t{1} << 60) - 1;

// A request rounded as the allocator hands it out (0 stays 0: CUDA makes no block for an empty
// tensor, although its round_size alone would say 512). A negative request or one above
// kMaxRequest throws std::invalid_argument.
std::int64_t roundSize(std::int64_t bytes);
// The segment reserved for a rounded request that no cached block fits.
std::int64_t segmentSizeFor(std::int64_t roundedBytes);
// Whether a rounded request comes from the small pool.
inline bool isSmall(std::int64_t roundedBytes) { return roundedBytes <= kSmallSize; }
}  // namespace caching

class CachingAllocatorModel {
public:
    struct Block {
        int segment = -1;         // index into the segments reserved so far (never reused)
        std::int64_t offset = 0;  // bytes from the segment's start
        std::int64_t size = 0;    // rounded size; more when a block was handed out unsplit
        bool empty() const { return segment < 0; }
    };
    struct Segment {
        std::int64_t size = 0;
        bool small_pool = false;
        bool released = false;  // given back by emptyCache()
    };
    // A run of bytes in a segment, allocated or free; a segment's pieces tile it in order.
    struct Piece {
        std::int64_t offset = 0;
        std::int64_t size = 0;
        bool allocated = false;
    };

    // Places an allocation of `bytes`: a cached block when one fits, else a new segment (check
    // segments().size() before and after to see whether one was reserved). 0 bytes give an
    // empty Block and change nothing; a negative size or one above caching::kMaxRequest throws
    // std::invalid_argument.
    Block allocate(std::int64_t bytes);
    // Returns a block allocate() handed out; it is merged with free neighbours. An empty Block
    // does nothing; a block that is not allocated as given throws std::invalid_argument.
    void free(const Block& block);
    // Releases every segment with nothing allocated in it, as torch.cuda.empty_cache();
    // returns their indices in increasing order.
    std::vector<int> emptyCache();

    std::int64_t allocated() const { return allocated_; }  // sizes of live blocks
    std::int64_t reserved() const { return reserved_; }    // sizes of segments not released
    std::int64_t peakAllocated() const { return peakAllocated_; }
    std::int64_t peakReserved() const { return peakReserved_; }
    // Peaks start again from the current values (torch.cuda.reset_peak_memory_stats()).
    void resetPeaks();

    const std::vector<Segment>& segments() const { return segments_; }
    // The pieces of a segment by offset (none once released); for tests and charts.
    std::vector<Piece> pieces(int segment) const;
    // Empty when the bookkeeping holds together (the pieces tile each live segment, no two free
    // pieces touch, the free pools hold exactly the free pieces, the counts match the pieces),
    // else what is wrong. Walks everything: for tests.
    std::string checkConsistency() const;

private:
    struct FreeKey {  // a free piece in its pool: best fit by size, then address
        std::int64_t size;
        int segment;
        std::int64_t offset;
        bool operator<(const FreeKey& o) const {
            return std::tie(size, segment, offset) < std::tie(o.size, o.segment, o.offset);
        }
    };
    struct PieceState {
        std::int64_t size = 0;
        bool allocated = false;
    };
    using PieceMap = std::map<std::int64_t, PieceState>;  // by offset

    std::set<FreeKey>& poolOf(int segment) {
        return segments_[segment].small_pool ? smallFree_ : largeFree_;
    }
    Block takeFree(std::set<FreeKey>& pool, std::int64_t size);
    int reserveSegment(std::int64_t size, bool small);
    Block handOut(int segment, PieceMap::iterator piece, std::int64_t size);

    std::vector<Segment> segments_;
    std::vector<PieceMap> pieces_;  // per segment
    std::vector<int> live_;         // allocated pieces per segment
    std::set<FreeKey> smallFree_, largeFree_;
    std::int64_t allocated_ = 0;
    std::int64_t reserved_ = 0;
    std::int64_t peakAllocated_ = 0;
    std::int64_t peakReserved_ = 0;
};

}  // namespace ckptlab
