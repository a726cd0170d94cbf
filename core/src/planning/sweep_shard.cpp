// One sweep spread over several processes: the deal of its work list and its identity
// (sweep_shard.h).
#include "ckptlab/planning/sweep_shard.h"

#include <algorithm>
#include <cstdint>
#include <set>
#include <stdexcept>

#include "ckptlab/model/config_fields.h"
#include "ckptlab/planning/scaling.h"

namespace ckptlab {
namespace {

// 64-bit FNV-1a over text fed piece by piece; each piece ends with a byte no text of ours
// holds, so "ab"+"c" and "a"+"bc" differ.
class Fnv1a {
public:
    void add(std::string_view text) {
        for (const char c : text) mix(static_cast<unsigned char>(c));
        mix(0x1f);
    }
    std::string hex() const {
        static constexpr char kDigits[] = "0123456789abcdef";
        std::string out(16, '0');
        for (int i = 0; i < 16; ++i) out[15 - i] = kDigits[(hash_ >> (4 * i)) & 0xf];
        return out;
    }

private:
    void mix(unsigned char byte) {
        hash_ ^= byte;
        hash_ *= 0x100000001b3ull;
    }
    std::uint64_t hash_ = 0xcbf29ce484222325ull;
};

const char* kindText(SweepKind kind) {
    switch (kind) {
    case SweepKind::Sweep: return "sweep";
    case SweepKind::Pareto: return "pareto";
    case SweepKind::Scaling: return "scaling";
    }
    return "sweep";
}

}  // namespace

bool validShard(const ShardSpec& shard) {
    return shard.count >= 1 && shard.count <= kShardMaxCount && shard.index >= 0 &&
           shard.index < shard.count;
}

std::vector<WorkItem> sweepWork(const std::vector<Strategy>& strategies, int sizes) {
    std::vector<WorkItem> work;
    work.reserve(strategies.size() * static_cast<std::size_t>(std::max(sizes, 0)));
    for (int size = 0; size < sizes; ++size)
        for (const Strategy& strategy : strategies) work.push_back({size, strategy});
    return work;
}

std::vector<ShardItem> shardItems(const std::vector<WorkItem>& work, const ShardSpec& shard) {
    if (!validShard(shard))
        throw std::invalid_argument("shard " + std::to_string(shard.index) + " of " +
                                    std::to_string(shard.count) + " is not a shard");
    std::set<int> measured;  // the sizes at which this shard owns an item
    for (std::size_t p = 0; p < work.size(); ++p)
        if (static_cast<int>(p % shard.count) == shard.index) measured.insert(work[p].size);
    std::vector<ShardItem> items;
    for (std::size_t p = 0; p < work.size(); ++p) {
        const bool owned = static_cast<int>(p % shard.count) == shard.index;
        const bool baseline = isBaseline(work[p].strategy) && measured.count(work[p].size) > 0;
        if (owned || baseline) items.push_back({static_cast<int>(p), owned});
    }
    return items;
}

std::string sweepId(const SweepRequestData& request, std::string_view version) {
    Fnv1a hash;
    hash.add("ckptlab sweep");
    hash.add(version);
    hash.add(kindText(request.kind));
    for (const ConfigField& field : configFields()) {
        hash.add(field.key);
        hash.add(valueText(field, request.config));
    }
    hash.add("strategies");
    for (const Strategy& strategy : request.checked) hash.add(strategy.name());
    if (request.kind == SweepKind::Pareto) {
        hash.add("points");
        hash.add(std::to_string(request.paretoPoints));
    }
    if (request.kind == SweepKind::Scaling) {
        hash.add(toString(request.axis));
        for (const int value : request.values) hash.add(std::to_string(value));
    }
    return hash.hex();
}

std::string workId(const std::vector<WorkItem>& work) {
    Fnv1a hash;
    hash.add("ckptlab work");
    for (const WorkItem& item : work) {
        hash.add(std::to_string(item.size));
        hash.add(item.strategy.name());
    }
    return hash.hex();
}

}  // namespace ckptlab
