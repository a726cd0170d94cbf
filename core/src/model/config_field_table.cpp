// The table of ExperimentConfig's fields (config_fields.h): one entry per field, in the
// results file's key order. A new field is an entry here plus its meaning (docs/ARCHITECTURE.md,
// "Add a config field").
#include "ckptlab/model/block_kinds.h"
#include "ckptlab/model/config_fields.h"

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
        f_.applies = nullptr;
        f_.zero_is_unset = false;
        f_.in_lessons = true;
        f_.changes = changes | kChangesIdentity;  // every field tells one run from another
        f_.effective = nullptr;
        f_.shown = 0;
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
    Entry& appliesWhen(bool (*applies)(const ExperimentConfig&)) {
        f_.applies = applies;
        return *this;
    }
    Entry& zeroIsUnset(const char* text) {
        f_.zero_is_unset = true;
        return zeroMeans(text);
    }
    Entry& shownIn(unsigned shown) {
        f_.shown = shown;
        return *this;
    }
    Entry& effectiveAs(int (*effective)(const ExperimentConfig&)) {
        f_.effective = effective;
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

// Which configs read a field: the kind-specific fields are those blockKinds() lists.
template <const char* Field>
bool kindReads(const C& c) {
    return blockKind(c.block).uses(Field);
}
constexpr char kHeads[] = "heads", kKvHeads[] = "kv-heads", kHeadDim[] = "head-dim",
               kRopeTheta[] = "rope-theta", kQkvBias[] = "qkv-bias", kDropout[] = "dropout",
               kAttention[] = "attention";
bool memoryEfficientAttention(const C& c) {
    return blockKind(c.block).uses("attention-chunk") &&
           c.attention == AttentionKind::MemoryEfficient;
}
// The LM head's final norm is an RMSNorm too.
bool rmsNorms(const C& c) { return blockKind(c.block).uses("rms-norm-eps") || hasChainEnds(c); }

constexpr unsigned kCost = kChangesCost, kWork = kChangesWork, kMachine = kChangesMachine;

std::vector<ConfigField> makeTable() {
    return {
        Entry("block", &C::block, "block", kCost | kWork)
            .shownIn(kShownModel)
            .cli("--block",
                 "Block kind: ffn (the seed's block), transformer (pre-LN attention and FFN) or "
                 "llama (RMSNorm, rotary grouped-query attention, SwiGLU MLP)")
            .stored("block", "block"),
        // Not part of the cost key itself: the cost model measures a chain of
        // costMeasurementDepth(config) blocks, which the key holds instead.
        Entry("depth", &C::depth, "depth", kWork)
            .shownIn(kShownModel)
            .cli("--depth", "Number of blocks L")
            .stored("depth", "depth")
            .range(limits::depth),
        Entry("width", &C::width, "width", kCost | kWork)
            .shownIn(kShownModel)
            .cli("--width", "Model width d")
            .stored("width", "width")
            .range(limits::width),
        Entry("seq", &C::seq, "seq", kCost | kWork)
            .shownIn(kShownModel)
            .cli("--seq", "Sequence length S")
            .stored("seq", "seq")
            .range(limits::seq),
        Entry("batch", &C::batch, "batch", kCost | kWork)
            .shownIn(kShownModel)
            .cli("--batch", "Batch size B")
            .stored("batch", "batch")
            .range(limits::batch),
        Entry("heads", &C::heads, "heads", kCost | kWork)
            .shownIn(kShownModel)
            .cli("--heads", "Attention heads (transformer, llama)")
            .stored("heads", "heads")
            .range(limits::heads)
            .appliesWhen(kindReads<kHeads>),
        Entry("kv-heads", &C::kv_heads, "key/value heads", kCost | kWork)
            .shownIn(kShownModel)
            .effectiveAs(kvHeadsOf)
            .cli("--kv-heads",
                 "Key/value heads of grouped-query attention (llama); 0 = as many as --heads, "
                 "else it must divide --heads")
            .stored("kvHeads", "kv_heads", JsonPresence::UnlessDefault)
            .range(limits::kvHeads)
            .zeroMeans("same as heads")
            .appliesWhen(kindReads<kKvHeads>),
        Entry("head-dim", &C::head_dim, "head width", kCost | kWork)
            .shownIn(kShownModel)
            .effectiveAs(headDimOf)
            .cli("--head-dim", "Width of each attention head (llama); 0 = width / heads")
            .stored("headDim", "head_dim", JsonPresence::UnlessDefault)
            .range(limits::headDim)
            .zeroMeans("width / heads")
            .appliesWhen(kindReads<kHeadDim>),
        Entry("ffn-width", &C::ffn_width, "MLP width", kCost | kWork)
            .shownIn(kShownModel)
            .effectiveAs(ffnWidthOf)
            .cli("--ffn-width",
                 "Hidden width of the MLP; 0 = 4 x width (ffn, transformer) or Llama's rule, "
                 "8/3 x width rounded up to a multiple of 256 (llama)")
            .stored("ffnWidth", "ffn_width", JsonPresence::UnlessDefault)
            .range(limits::ffnWidth)
            .zeroMeans("the block's default"),
        Entry("rope-theta", &C::rope_theta, "rotary base", kCost | kWork)
            .shownIn(kShownModel)
            .cli("--rope-theta", "Base of the rotary position embeddings (llama)")
            .stored("ropeTheta", "rope_theta", JsonPresence::UnlessDefault)
            .range(limits::ropeThetaMin, limits::ropeThetaMax)
            .appliesWhen(kindReads<kRopeTheta>),
        Entry("rms-norm-eps", &C::rms_norm_eps, "RMSNorm epsilon", kCost | kWork)
            .shownIn(kShownModel)
            .cli("--rms-norm-eps", "Epsilon of the RMSNorms (llama, and the LM head's)")
            .stored("rmsNormEps", "rms_norm_eps", JsonPresence::UnlessDefault)
            .range(limits::rmsNormEpsMin, limits::rmsNormEpsMax)
            .appliesWhen(rmsNorms),
        Entry("qkv-bias", &C::qkv_bias, "q/k/v bias", kCost | kWork)
            .shownIn(kShownModel)
            .cli("--qkv-bias", "Biases on the q, k and v projections, as in Qwen2 (llama)")
            .stored("qkvBias", "qkv_bias", JsonPresence::UnlessDefault)
            .appliesWhen(kindReads<kQkvBias>),
        Entry("dropout", &C::dropout, "dropout", kCost | kWork)
            .shownIn(kShownModel)
            .cli("--dropout", "Attention dropout (transformer)")
            .stored("dropout", "dropout")
            .range(0, limits::dropoutMax)
            .appliesWhen(kindReads<kDropout>),
        Entry("attention", &C::attention, "attention", kCost | kWork)
            .shownIn(kShownModel)
            .cli("--attention",
                 "How attention is computed (transformer, llama): eager (the S x S scores kept "
                 "for backward), memory-efficient (query/key chunks with an online softmax, "
                 "scores recomputed in backward, as FlashAttention) or sdpa (LibTorch's "
                 "scaled_dot_product_attention, LibTorch 2.0 and later)")
            .stored("attention", "attention", JsonPresence::UnlessDefault)
            .appliesWhen(kindReads<kAttention>),
        Entry("attention-chunk", &C::attention_chunk, "attention chunk", kCost | kWork)
            .shownIn(kShownModel)
            .cli("--attention-chunk", "Queries and keys per chunk of memory-efficient attention")
            .stored("attentionChunk", "attention_chunk", JsonPresence::UnlessDefault)
            .range(limits::attentionChunk)
            .appliesWhen(memoryEfficientAttention),
        Entry("vocab", &C::vocab, "vocabulary", kCost | kWork)
            .shownIn(kShownModel)
            .cli("--vocab",
                 "Vocabulary size: a token embedding in front and a final RMSNorm, LM head and "
                 "cross-entropy at the end; left out, the chain has neither (random activations "
                 "in, their sum as the loss)")
            .stored("vocab", "vocab", JsonPresence::UnlessDefault)
            .range(limits::vocab)
            .zeroIsUnset("no embedding or LM head"),
        Entry("tie-embeddings", &C::tie_embeddings, "tied embeddings", kCost | kWork)
            .shownIn(kShownModel)
            .cli("--tie-embeddings", "The LM head reuses the embedding's weight (needs --vocab)")
            .stored("tieEmbeddings", "tie_embeddings", JsonPresence::UnlessDefault)
            .appliesWhen(hasChainEnds),
        Entry("loss-chunks", &C::loss_chunks, "loss chunks", kCost | kWork)
            .shownIn(kShownModel)
            .cli("--loss-chunks",
                 "The LM head and loss in this many sequence chunks, each recomputed in "
                 "backward, so the whole logits never exist at once (needs --vocab)")
            .stored("lossChunks", "loss_chunks", JsonPresence::UnlessDefault)
            .range(limits::lossChunks)
            .appliesWhen(hasChainEnds),
        // Called precision on the command line and in the app; the results file keeps the key
        // dtype and the names float32 and bfloat16, so every older file reads as it did.
        Entry("precision", &C::dtype, "precision", kCost | kWork)
            .shownIn(kShownNumerics)
            .cli("--precision",
                 "float32 (fp32), bfloat16 (bf16: weights, activations, gradients and optimizer "
                 "state) or mixed-bf16 (fp32 master weights and optimizer state, bf16 compute "
                 "under autocast)")
            .stored("dtype", "dtype"),
        Entry("device", &C::device, "device", kCost | kMachine)
            .shownIn(kShownProtocol)
            .cli("--device", "cpu, or cuda / cuda:N when LibTorch has CUDA")
            .stored("device", "device")
            .notInLessons(),
        // The CPU allocator of the measured steps (engine/caching_cpu_allocator.h); on CUDA the
        // device's own caching allocator serves either way. Files from before the field were
        // measured with the C library's malloc, so an absent key reads as "system". Lessons
        // run with the default.
        Entry("allocator", &C::allocator, "allocator", kCost | kWork)
            .shownIn(kShownNumerics)
            .cli("--allocator",
                 "CPU memory allocator: caching (CUDA's caching allocator's rules: freed blocks "
                 "stay reserved for the next allocation, and reserved bytes are reported, as on "
                 "a GPU) or system (the C library's malloc, which gives freed memory back and "
                 "page-faults it in again)")
            .stored("allocator", "allocator", JsonPresence::UnlessAbsentValue)
            .absentMeans("system")
            .notInLessons(),
        Entry("optimizer", &C::optimizer, "optimizer", kCost | kWork)
            .shownIn(kShownNumerics)
            .cli("--optimizer", "none, sgd or adam (adds its state and step)")
            .stored("optimizer", "optimizer"),
        Entry("seed", &C::seed, "seed", kCost)
            .shownIn(kShownProtocol)
            .cli("--seed", "Seed of weights, input and dropout [0, 2^64-1]")
            .stored("seed", "seed"),
        Entry("threads", &C::threads, "threads", kCost | kMachine)
            .shownIn(kShownProtocol)
            .cli("--threads", "Intra-op threads, 0 = LibTorch default")
            .stored("threads", "threads")
            .range(limits::threads)
            .zeroMeans("default"),
        Entry("warmup", &C::warmup, "warmup", kCost)
            .shownIn(kShownProtocol)
            .cli("--warmup", "Untimed steps per strategy")
            .stored("warmup", "warmup")
            .range(limits::warmup),
        Entry("repeats", &C::repeats, "repeats", kCost)
            .shownIn(kShownProtocol)
            .cli("--repeats",
                 "Timed steps per strategy, taken in rounds interleaving the strategies, medians "
                 "reported")
            .stored("repeats", "repeats")
            .range(limits::repeats),
        Entry("memory-limit", &C::memory_limit_mib, "memory limit", 0)
            .shownIn(kShownNumerics)
            .cli("--memory-limit",
                 "Capacity of the modelled device in MiB (a run whose step passes it fails with "
                 "out of memory where it happened, the others go on):")
            .stored("memoryLimitMib", "memory_limit_mib", JsonPresence::UnlessDefault)
            .range(limits::memoryLimitMinMib, limits::memoryLimitMaxMib)
            .zeroMeans("no limit")
            .unit("MiB", MessageCode::FieldZeroOrRangeMib),
        Entry("keep-grads", &C::keep_grads, "kept gradients", kWork)
            .shownIn(kShownNumerics)
            .cli("--keep-grads",
                 "The tutorial's protocol: none runs first from a clean start and every other "
                 "strategy's measured step starts with the previous step's gradients still "
                 "allocated, adding its own into them; savings then compare whole peaks")
            .stored("keepGrads", "keep_grads", JsonPresence::UnlessDefault),
        Entry("repeats-auto", &C::repeats_auto, "adaptive repeats", 0)
            .shownIn(kShownProtocol)
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
