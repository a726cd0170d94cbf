// The table of ExperimentConfig's fields (config_fields.h): one entry per field, in the
// results file's key order. A new field is an entry here plus its meaning (docs/ARCHITECTURE.md,
// "Add a config field").
#include "ckptlab/config_fields.h"

namespace ckptlab {
namespace {

// One entry, written field by field so the table reads as a list of named attributes.
class Entry {
public:
    Entry(const char* key, FieldMember member, const char* label, unsigned changes) {
        f_.key = key;
        f_.member = member;
        f_.label = label;
        f_.cli = "";
        f_.cli_word = "";
        f_.help = "";
        f_.settings = "";
        f_.json = "";
        f_.json_presence = JsonPresence::Always;
        f_.json_along = "";
        f_.json_absent = "";
        f_.zero_means = "";
        f_.unit = "";
        f_.range_message = MessageCode::FieldOutOfRange;
        f_.transformer_only = false;
        f_.in_lessons = true;
        f_.changes = changes | kChangesIdentity;  // every field tells one run from another
    }
    Entry& cli(const char* option, const char* help) {
        f_.cli = option;
        f_.help = help;
        return *this;
    }
    Entry& cliWord(const char* option, const char* word, const char* help) {
        f_.cli_word = word;
        return cli(option, help);
    }
    Entry& stored(const char* settingsKey, const char* jsonKey,
                  JsonPresence presence = JsonPresence::Always, const char* along = "") {
        f_.settings = settingsKey;
        f_.json = jsonKey;
        f_.json_presence = presence;
        f_.json_along = along;
        return *this;
    }
    // With JsonPresence::UnlessAbsentValue: the value older files' runs had.
    Entry& absentMeans(const char* valueText) {
        f_.json_absent = valueText;
        return *this;
    }
    Entry& range(double min, double max) {
        f_.range = FieldRange{min, max};
        return *this;
    }
    Entry& range(IntRange r) { return range(double(r.min), double(r.max)); }
    Entry& zeroMeans(const char* text) {
        f_.zero_means = text;
        return *this;
    }
    Entry& unit(const char* text, MessageCode message) {
        f_.unit = text;
        f_.range_message = message;
        return *this;
    }
    Entry& transformerOnly() {
        f_.transformer_only = true;
        return *this;
    }
    Entry& notInLessons() {
        f_.in_lessons = false;
        return *this;
    }
    operator ConfigField() const { return f_; }

private:
    ConfigField f_{};
};

using C = ExperimentConfig;
constexpr unsigned kCost = kChangesCost, kWork = kChangesWork, kMachine = kChangesMachine;

std::vector<ConfigField> makeTable() {
    return {
        Entry("block", &C::block, "block", kCost | kWork)
            .cli("--block", "Block kind: ffn (the seed's block) or transformer")
            .stored("block", "block"),
        // Not part of the cost key itself: the cost model measures a chain of
        // costMeasurementDepth(config) blocks, which the key holds instead.
        Entry("depth", &C::depth, "depth", kWork)
            .cli("--depth", "Number of blocks L")
            .stored("depth", "depth")
            .range(limits::depth),
        Entry("width", &C::width, "width", kCost | kWork)
            .cli("--width", "Model width d")
            .stored("width", "width")
            .range(limits::width),
        Entry("seq", &C::seq, "seq", kCost | kWork)
            .cli("--seq", "Sequence length S")
            .stored("seq", "seq")
            .range(limits::seq),
        Entry("batch", &C::batch, "batch", kCost | kWork)
            .cli("--batch", "Batch size B")
            .stored("batch", "batch")
            .range(limits::batch),
        Entry("heads", &C::heads, "heads", kCost | kWork)
            .cli("--heads", "Attention heads (transformer)")
            .stored("heads", "heads")
            .range(limits::heads)
            .transformerOnly(),
        // Grouped-query attention's key/value heads, for the Llama-family block; no block of
        // today reads it, so it changes no work yet (only the run it names and, to be safe,
        // the cost key).
        Entry("kv-heads", &C::kv_heads, "key/value heads", kCost)
            .cli("--kv-heads",
                 "Key/value heads of grouped-query attention, for the Llama block (ffn and "
                 "transformer blocks do not use it); 0 = as many as --heads, else it must "
                 "divide --heads")
            .stored("kvHeads", "kv_heads", JsonPresence::UnlessDefault)
            .range(limits::kvHeads)
            .zeroMeans("same as heads")
            .transformerOnly(),
        Entry("dropout", &C::dropout, "dropout", kCost | kWork)
            .cli("--dropout", "Attention dropout (transformer)")
            .stored("dropout", "dropout")
            .range(0, limits::dropoutMax)
            .transformerOnly(),
        Entry("dtype", &C::dtype, "dtype", kCost | kWork)
            .cli("--dtype", "float32 or bfloat16")
            .stored("dtype", "dtype"),
        Entry("device", &C::device, "device", kCost | kMachine)
            .cli("--device", "cpu, or cuda / cuda:N when LibTorch has CUDA")
            .stored("device", "device")
            .notInLessons(),
        // The CPU allocator of the measured steps (engine/caching_cpu_allocator.h); on CUDA the
        // device's own caching allocator serves either way. Files from before the field were
        // measured with the C library's malloc, so an absent key reads as "system". Lessons
        // run with the default.
        Entry("allocator", &C::allocator, "allocator", kCost | kWork)
            .cli("--allocator",
                 "CPU memory allocator: caching (CUDA's caching allocator's rules: freed blocks "
                 "stay reserved for the next allocation, and reserved bytes are reported, as on "
                 "a GPU) or system (the C library's malloc, which gives freed memory back and "
                 "page-faults it in again)")
            .stored("allocator", "allocator", JsonPresence::UnlessAbsentValue)
            .absentMeans("system")
            .notInLessons(),
        Entry("optimizer", &C::optimizer, "optimizer", kCost | kWork)
            .cli("--optimizer", "none, sgd or adam (adds its state and step)")
            .stored("optimizer", "optimizer"),
        Entry("seed", &C::seed, "seed", kCost)
            .cli("--seed", "Seed of weights, input and dropout [0, 2^64-1]")
            .stored("seed", "seed"),
        Entry("threads", &C::threads, "threads", kCost | kMachine)
            .cli("--threads", "Intra-op threads, 0 = LibTorch default")
            .stored("threads", "threads")
            .range(limits::threads)
            .zeroMeans("default"),
        Entry("warmup", &C::warmup, "warmup", kCost)
            .cli("--warmup", "Untimed steps per strategy")
            .stored("warmup", "warmup")
            .range(limits::warmup),
        Entry("repeats", &C::repeats, "repeats", kCost)
            .cli("--repeats",
                 "Timed steps per strategy, taken in rounds interleaving the strategies, medians "
                 "reported")
            .stored("repeats", "repeats")
            .range(limits::repeats),
        Entry("memory-limit", &C::memory_limit_mib, "memory limit", 0)
            .cli("--memory-limit",
                 "Capacity of the modelled device in MiB (a run whose step passes it fails with "
                 "out of memory where it happened, the others go on):")
            .stored("memoryLimitMib", "memory_limit_mib", JsonPresence::UnlessDefault)
            .range(limits::memoryLimitMinMib, limits::memoryLimitMaxMib)
            .zeroMeans("no limit")
            .unit("MiB", MessageCode::FieldZeroOrRangeMib),
        Entry("keep-grads", &C::keep_grads, "kept gradients", kWork)
            .cli("--keep-grads",
                 "The tutorial's protocol: none runs first from a clean start and every other "
                 "strategy's measured step starts with the previous step's gradients still "
                 "allocated, adding its own into them; savings then compare whole peaks")
            .stored("keepGrads", "keep_grads", JsonPresence::UnlessDefault),
        Entry("repeats-auto", &C::repeats_auto, "adaptive repeats", 0)
            .cliWord("--repeats", "auto",
                     "rounds (at least 6) until every median's 95% interval is within +-5% or "
                     "--time-limit passes")
            .stored("repeatsAuto", "repeats_auto", JsonPresence::UnlessDefault)
            .notInLessons(),
        Entry("time-limit", &C::time_limit_s, "time limit", 0)
            .cli("--time-limit", "Seconds of timed rounds --repeats auto may take")
            .stored("timeLimitS", "time_limit_s", JsonPresence::WithJsonAlong, "repeats-auto")
            .range(limits::timeLimitMinS, limits::timeLimitMaxS)
            .unit("seconds", MessageCode::FieldOutOfRangeSeconds)
            .notInLessons(),
    };
}

}  // namespace

const std::vector<ConfigField>& configFields() {
    static const std::vector<ConfigField> table = makeTable();
    return table;
}

}  // namespace ckptlab
