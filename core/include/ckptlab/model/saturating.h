#pragma once
// Byte counts from user-sized shapes can pass 2^63 inside the documented ranges (a transformer
// with depth 512, 256 heads, S = 65536, B = 4096). Signed overflow is undefined and a wrapped
// negative size would pass a memory check, so size arithmetic saturates at kSaturated, which
// every capacity comparison reads as "does not fit".

#include <cstdint>
#include <limits>

namespace ckptlab::sat {

inline constexpr std::int64_t kSaturated = std::numeric_limits<std::int64_t>::max();

// Sizes are never negative; a negative operand is treated as already saturated.
inline std::int64_t mul(std::int64_t a, std::int64_t b) {
    std::int64_t out = 0;
    if (a < 0 || b < 0 || __builtin_mul_overflow(a, b, &out)) return kSaturated;
    return out;
}

inline std::int64_t add(std::int64_t a, std::int64_t b) {
    std::int64_t out = 0;
    if (a < 0 || b < 0 || __builtin_add_overflow(a, b, &out)) return kSaturated;
    return out;
}

template <typename... Rest>
std::int64_t mul(std::int64_t a, std::int64_t b, Rest... rest) {
    return mul(mul(a, b), rest...);
}

template <typename... Rest>
std::int64_t add(std::int64_t a, std::int64_t b, Rest... rest) {
    return add(add(a, b), rest...);
}

inline bool saturated(std::int64_t bytes) { return bytes == kSaturated; }

}  // namespace ckptlab::sat
