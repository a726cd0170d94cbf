#pragma once
// A run's caching-allocator keys in the results file, written and read in one place (result.h:
// AllocatorStats, AllocatorTrace). Both optional, written only when set:
// - "allocator": {"source": "cuda" | "caching-model", "allocated_start", "allocated_peak",
//   "reserved_start", "reserved_peak"}. Files from before the CPU model hold CUDA's counts as
//   "cuda_allocator" without a source; it still reads, as source "cuda".
// - "allocator_trace": the CPU model's segments and blocks of the traced step, as rows of
//   values under a header that names the columns (a traced step can list thousands of blocks):
//   {"phase_codes": [...], "segment_columns": ["size", "small_pool", "created_ms",
//   "released_ms"], "segments": [[...], ...], "block_columns": ["segment", "offset", "size",
//   "requested", "allocated_ms", "freed_ms", "phase", "block"], "blocks": [[...], ...]} and
//   "unlisted_blocks" when the step allocated more than kMaxAllocatorTraceBlocks. A time is null
//   where it fell outside the step. A value the program could not have written (a negative size,
//   a block outside its segment, a segment index out of range, a peak below its start) refuses
//   the file naming its place as if the rows were objects:
//   runs[0].allocator_trace.blocks[3].offset.

#include <nlohmann/json.hpp>

#include "ckptlab/model/result.h"
#include "formats/json_values.h"

namespace ckptlab::detail {

void writeAllocator(const RunResult& run, nlohmann::ordered_json& json);

// `f` reads the run at `at`; its config (the block range) is read already.
void readAllocator(const Fields& f, const Path& at, RunResult& run);

}  // namespace ckptlab::detail
