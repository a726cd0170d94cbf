#pragma once
// An optional glibc malloc setting (CKPTLAB_MALLOC_TUNING=1; used by bench/probes/): no
// trimming of the heap's top below 1 GiB and the mmap threshold at its maximum, 32 MiB, so
// memory freed in a step stays mapped and the next allocation does not page-fault it in again.
// The same for any process, the app and the CLI included, without rebuilding:
//   GLIBC_TUNABLES=glibc.malloc.trim_threshold=1073741824:glibc.malloc.mmap_threshold=33554432
// Off by default: it changes what is measured (docs/MEASUREMENTS.md, "The kept-block
// backward").
#include <cstdlib>
#include <cstring>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace ckptlab::engine {

inline bool mallocTuningRequested() {
    const char* v = std::getenv("CKPTLAB_MALLOC_TUNING");
    return v && *v && std::strcmp(v, "0") != 0;
}

// Process-wide and not undoable; returns false where glibc's mallopt is not available.
inline bool applyMallocTuning() {
#if defined(__GLIBC__)
    return mallopt(M_TRIM_THRESHOLD, 1 << 30) == 1 && mallopt(M_MMAP_THRESHOLD, 32 << 20) == 1;
#else
    return false;
#endif
}

}  // namespace ckptlab::engine
