// CUDA's caching allocator as bookkeeping (ckptlab/planning/caching_allocator.h). The rules follow
// PyTorch's c10/cuda/CUDACachingAllocator.cpp at pytorch/pytorch commit
// 001074d25084fdb87a799823e395a50f5ec044d3 (the newest version of the file the project's source
// index holds; it holds no release tag of it), with the default settings:
// - roundSize            = round_size (kMinBlockSize 512; roundup_power2_divisions unset);
//                          CachingAllocator::allocate skips size 0, so 0 stays 0 here;
// - segmentSizeFor       = get_allocation_size (kSmallBuffer, kLargeBuffer, kRoundLarge);
// - the pool             = get_pool (size <= kSmallSize: the small pool);
// - takeFree             = get_free_block: lower_bound on the pool's set ordered by
//                          BlockComparatorSize (stream, size, address); the two max_split_size
//                          refusals never fire with max_split_size unlimited (the default);
// - handOut              = should_split + alloc_found_block: split when the remainder is
//                          >= kMinBlockSize in the small pool, > kSmallSize in the large one
//                          (size < max_split_size always holds); allocated_bytes grows by the
//                          block's size, the whole block when it was not split;
// - reserveSegment       = alloc_block (cudaMalloc of get_allocation_size; reserved_bytes);
// - free                 = free + free_block + try_merge_blocks with prev and next;
// - emptyCache           = release_cached_blocks -> release_blocks: every cached block with no
//                          prev and no next, i.e. a whole segment with nothing allocated.
// Not modelled: streams and events (one stream), expandable segments, garbage collection,
// CUDA graphs' private pools, and malloc's retries after a failed cudaMalloc.
#include "ckptlab/planning/caching_allocator.h"

#include <limits>
#include <stdexcept>

namespace ckptlab {

namespace caching {

std::int64_t roundSize(std::int64_t bytes) {
    if (bytes < 0 || bytes > kMaxRequest)
        throw std::invalid_argument("caching allocator: request of " + std::to_string(bytes) +
                                    " bytes is outside 0 to " + std::to_string(kMaxRequest));
    if (bytes == 0) return 0;
    if (bytes < kMinBlockSize) return kMinBlockSize;
    return kMinBlockSize * ((bytes + kMinBlockSize - 1) / kMinBlockSize);
}

std::int64_t segmentSizeFor(std::int64_t roundedBytes) {
    if (roundedBytes <= kSmallSize) return kSmallBuffer;
    if (roundedBytes < kMinLargeAlloc) return kLargeBuffer;
    return kRoundLarge * ((roundedBytes + kRoundLarge - 1) / kRoundLarge);
}

}  // namespace caching

namespace {

bool shouldSplit(bool smallPool, std::int64_t remaining) {
    return smallPool ? remaining >= caching::kMinBlockSize : remaining > caching::kSmallSize;
}

std::string where(int segment, std::int64_t offset) {
    return "segment " + std::to_string(segment) + " offset " + std::to_string(offset);
}

}  // namespace

CachingAllocatorModel::Block CachingAllocatorModel::allocate(std::int64_t bytes) {
    const std::int64_t size = caching::roundSize(bytes);
    if (size == 0) return {};
    const bool small = caching::isSmall(size);
    std::set<FreeKey>& pool = small ? smallFree_ : largeFree_;
    const auto fit = pool.lower_bound(
        {size, std::numeric_limits<int>::min(), std::numeric_limits<std::int64_t>::min()});
    if (fit != pool.end()) {
        const FreeKey key = *fit;
        pool.erase(fit);
        return handOut(key.segment, pieces_[key.segment].find(key.offset), size);
    }
    const int segment = reserveSegment(caching::segmentSizeFor(size), small);
    return handOut(segment, pieces_[segment].begin(), size);
}

int CachingAllocatorModel::reserveSegment(std::int64_t size, bool small) {
    const int index = static_cast<int>(segments_.size());
    segments_.push_back({size, small, false});
    pieces_.emplace_back();
    pieces_.back().emplace(0, PieceState{size, false});
    live_.push_back(0);
    reserved_ += size;
    if (reserved_ > peakReserved_) peakReserved_ = reserved_;
    return index;
}

// `piece` is free and already out of its pool.
CachingAllocatorModel::Block CachingAllocatorModel::handOut(int segment, PieceMap::iterator piece,
                                                            std::int64_t size) {
    PieceState& state = piece->second;
    const std::int64_t remaining = state.size - size;
    if (shouldSplit(segments_[segment].small_pool, remaining)) {
        state.size = size;
        pieces_[segment].emplace_hint(std::next(piece), piece->first + size,
                                      PieceState{remaining, false});
        poolOf(segment).insert({remaining, segment, piece->first + size});
    }
    state.allocated = true;
    ++live_[segment];
    allocated_ += state.size;
    if (allocated_ > peakAllocated_) peakAllocated_ = allocated_;
    return {segment, piece->first, state.size};
}

void CachingAllocatorModel::free(const Block& block) {
    if (block.empty()) return;
    auto refuse = [&](const char* why) {
        throw std::invalid_argument("caching allocator: cannot free the block at " +
                                    where(block.segment, block.offset) + ": " + why);
    };
    if (block.segment >= static_cast<int>(segments_.size())) refuse("no such segment");
    if (segments_[block.segment].released) refuse("its segment was released");
    PieceMap& pieces = pieces_[block.segment];
    auto it = pieces.find(block.offset);
    if (it == pieces.end() || !it->second.allocated) refuse("no allocated block starts there");
    if (it->second.size != block.size) refuse("the block there has another size");

    std::set<FreeKey>& pool = poolOf(block.segment);
    it->second.allocated = false;
    --live_[block.segment];
    allocated_ -= it->second.size;
    // try_merge_blocks with the previous block, then the next.
    if (it != pieces.begin()) {
        auto prev = std::prev(it);
        if (!prev->second.allocated) {
            pool.erase({prev->second.size, block.segment, prev->first});
            prev->second.size += it->second.size;
            pieces.erase(it);
            it = prev;
        }
    }
    if (auto next = std::next(it); next != pieces.end() && !next->second.allocated) {
        pool.erase({next->second.size, block.segment, next->first});
        it->second.size += next->second.size;
        pieces.erase(next);
    }
    pool.insert({it->second.size, block.segment, it->first});
}

std::vector<int> CachingAllocatorModel::emptyCache() {
    std::vector<int> released;
    for (int s = 0; s < static_cast<int>(segments_.size()); ++s) {
        Segment& segment = segments_[s];
        if (segment.released || live_[s] > 0) continue;
        // Nothing allocated: its frees merged it back into one block, unsplit.
        poolOf(s).erase({segment.size, s, 0});
        pieces_[s].clear();
        segment.released = true;
        reserved_ -= segment.size;
        released.push_back(s);
    }
    return released;
}

void CachingAllocatorModel::resetPeaks() {
    peakAllocated_ = allocated_;
    peakReserved_ = reserved_;
}

std::vector<CachingAllocatorModel::Piece> CachingAllocatorModel::pieces(int segment) const {
    std::vector<Piece> out;
    if (segment < 0 || segment >= static_cast<int>(pieces_.size())) return out;
    for (const auto& [offset, state] : pieces_[segment])
        out.push_back({offset, state.size, state.allocated});
    return out;
}

std::string CachingAllocatorModel::checkConsistency() const {
    std::int64_t allocated = 0, reserved = 0;
    std::size_t freePieces = 0;
    for (int s = 0; s < static_cast<int>(segments_.size()); ++s) {
        const Segment& segment = segments_[s];
        if (segment.released) {
            if (!pieces_[s].empty()) return "released segment " + std::to_string(s) + " has pieces";
            continue;
        }
        reserved += segment.size;
        std::int64_t end = 0;
        bool previousFree = false;
        int live = 0;
        for (const auto& [offset, state] : pieces_[s]) {
            if (offset != end) return "a gap or an overlap at " + where(s, offset);
            if (state.size <= 0) return "an empty piece at " + where(s, offset);
            end = offset + state.size;
            if (state.allocated) {
                ++live;
                allocated += state.size;
            } else {
                if (previousFree) return "two free pieces touch at " + where(s, offset);
                const auto& pool = segment.small_pool ? smallFree_ : largeFree_;
                if (!pool.count({state.size, s, offset}))
                    return "the free piece at " + where(s, offset) + " is not in its pool";
                ++freePieces;
            }
            previousFree = !state.allocated;
        }
        if (end != segment.size) return "segment " + std::to_string(s) + "'s pieces end early";
        if (live != live_[s]) return "segment " + std::to_string(s) + "'s live count is off";
    }
    if (freePieces != smallFree_.size() + largeFree_.size())
        return "the pools hold blocks that are not free pieces";
    if (allocated != allocated_) return "allocated() differs from the allocated pieces";
    if (reserved != reserved_) return "reserved() differs from the live segments";
    if (peakAllocated_ < allocated_ || peakReserved_ < reserved_) return "a peak below its count";
    return {};
}

}  // namespace ckptlab
