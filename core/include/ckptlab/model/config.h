#pragma once
// The experiment a user sets up: model shape, numerics, device and how to time it.
// Plain data shared by the CLI, the GUI and the core; no LibTorch types here.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ckptlab/model/core_message.h"

namespace ckptlab {

// Ffn: the seed's MLP block; Transformer: a pre-LN attention + FFN block; Llama: the Llama
// family's decoder layer (RMSNorm, rotary grouped-query attention, SwiGLU MLP). What each has
// and reads is its row of blockKinds() (block_kinds.h).
enum class BlockKind { Ffn, Transformer, Llama };
// The training precision: all fp32, all bf16 (weights, activations, gradients and optimizer
// state), or mixed: fp32 master weights and optimizer state with bf16 compute under autocast.
enum class DType { Float32, BFloat16, MixedBFloat16 };
// How attention is computed: eager materialises the S x S scores and probabilities;
// memory-efficient works over query/key chunks with an online softmax and saves only q, k, v,
// the output and each row's log-sum-exp (what FlashAttention saves), recomputing the scores in
// backward; sdpa is LibTorch's scaled_dot_product_attention (LibTorch 2.0 and later).
enum class AttentionKind { Eager, MemoryEfficient, Sdpa };
enum class Optimizer { None, Sgd, Adam };
// The CPU allocator of the measured steps: `Caching` follows CUDA's caching allocator's rules
// (ckptlab/planning/caching_allocator.h) and reports reserved bytes; `System` is the C library's
// malloc, which gives freed memory back and page-faults it in again. Runs in files from before it
// existed used `System`.
enum class AllocatorKind { Caching, System };

struct ExperimentConfig {
    BlockKind block = BlockKind::Ffn;
    int depth = 20;   // L blocks
    int width = 256;  // d, the model dimension
    int seq = 256;    // S tokens per sequence
    int batch = 2;    // B sequences
    int heads = 4;    // attention blocks (transformer, llama); must divide width unless head_dim
    // Grouped-query attention's key/value heads, 0 = as many as `heads`; must divide `heads`
    // when set. Read by the Llama-family block only: the ffn and transformer blocks ignore it.
    int kv_heads = 0;
    int head_dim = 0;   // llama: each head's width, 0 = width / heads
    int ffn_width = 0;  // the MLP's hidden width, 0 = 4 x width (ffn, transformer) or Llama's rule
    double rope_theta = 10000;   // llama: the rotary embedding's base
    double rms_norm_eps = 1e-5;  // llama and the LM head's final RMSNorm
    bool qkv_bias = false;       // llama: biases on q, k and v (the Qwen2 family)
    double dropout = 0.1;        // transformer only (attention probabilities)
    AttentionKind attention = AttentionKind::Eager;  // transformer and llama
    int attention_chunk = 128;  // memory-efficient attention: queries and keys per chunk
    // The chain's two ends: 0 = none (the input is random activations and the loss their sum,
    // the tutorial's chain); otherwise a token embedding (vocab x width) in front, and a final
    // RMSNorm, an LM head and cross-entropy over next tokens at the end.
    int vocab = 0;
    bool tie_embeddings = false;  // the LM head reuses the embedding's weight
    int loss_chunks = 1;          // the head and loss in this many sequence chunks, recomputed
    DType dtype = DType::Float32;
    std::string device = "cpu";
    Optimizer optimizer = Optimizer::None;
    std::uint64_t seed = 0;
    int threads = 0;  // intra-op threads; 0 keeps LibTorch's default
    int warmup = 1;   // untimed steps before the timed ones
    int repeats = 6;  // timed steps; medians are reported (6 is the fewest with a 95% interval)
    // --repeats auto: take rounds of timed steps (at least 6) until every median's 95%
    // interval is within +-5% of it or `time_limit_s` of rounds have passed (step_stats.h);
    // `repeats` is then not used.
    bool repeats_auto = false;
    double time_limit_s = 60;
    // Capacity of the device being modelled, in MiB; 0 = no limit. The traced step fails with
    // an out-of-memory error the moment its allocated bytes (baseline included) pass it.
    double memory_limit_mib = 0;
    // The tutorial's protocol (its question 1): `none` runs first from a clean start, and every
    // other strategy's measured step starts with the previous step's parameter and input
    // gradients still allocated (never cleared), adding its own into them.
    bool keep_grads = false;
    AllocatorKind allocator = AllocatorKind::Caching;
};

// Allowed ranges, shared by validation (through config_fields.h), the CLI help and the GUI
// widgets.
struct IntRange {
    long long min;
    long long max;
};
namespace limits {
inline constexpr IntRange depth{1, 512};
inline constexpr IntRange width{8, 16384};
inline constexpr IntRange seq{1, 65536};
inline constexpr IntRange batch{1, 4096};
inline constexpr IntRange heads{1, 256};
inline constexpr IntRange kvHeads{0, 256};
inline constexpr IntRange headDim{0, 1024};
inline constexpr IntRange ffnWidth{0, 262144};
inline constexpr IntRange attentionChunk{1, 65536};
// Token ids are int64 in LibTorch, but every published vocabulary fits in int32, and a larger
// one would have an embedding of more than 2^31 rows.
inline constexpr IntRange vocab{1, 2147483647};
inline constexpr IntRange lossChunks{1, 65536};
inline constexpr double ropeThetaMin = 1, ropeThetaMax = 1e9;
inline constexpr double rmsNormEpsMin = 1e-12, rmsNormEpsMax = 1;
inline constexpr IntRange threads{0, 512};
inline constexpr IntRange warmup{0, 100};
inline constexpr IntRange repeats{1, 1000};
inline constexpr double dropoutMax = 0.9;
inline constexpr double timeLimitMinS = 1;                       // --time-limit, seconds
inline constexpr double timeLimitMaxS = 86400;                   // a day
inline constexpr double memoryLimitMaxMib = 16.0 * 1024 * 1024;  // 16 TiB
// The smallest non-zero --memory-limit, as the smallest optimal:MiB budget: about a KiB, far
// below any model's parameters, and enforced to the byte (smaller ones round to no limit).
inline constexpr double memoryLimitMinMib = 0.001;
inline constexpr int cudaDeviceMax = 63;
}  // namespace limits

struct FieldError {
    std::string field;    // CLI-style name, e.g. "width"
    CoreMessage message;  // says the allowed range; message.english is what the CLI prints
};

// Every violated field with its allowed range; empty when the config is valid.
std::vector<FieldError> validate(const ExperimentConfig& config);
// How many times validate has run in this process: a test counts the checks of one request
// (Runner::run checks each size once).
std::uint64_t validateCalls();

// "cpu" -> -1, "cuda" -> 0, "cuda:N" -> N; nullopt for anything else (cuda:abc, cuda:-1).
std::optional<int> parseDeviceIndex(const std::string& device);

std::string toString(BlockKind kind);
std::string toString(DType dtype);
std::string toString(Optimizer optimizer);
std::string toString(AllocatorKind kind);  // "caching", "system"
std::string toString(AttentionKind kind);  // "eager", "memory-efficient", "sdpa"
std::optional<BlockKind> parseBlockKind(const std::string& text);
std::optional<DType> parseDType(const std::string& text);
std::optional<Optimizer> parseOptimizer(const std::string& text);
std::optional<AllocatorKind> parseAllocatorKind(const std::string& text);
std::optional<AttentionKind> parseAttentionKind(const std::string& text);
// A seed as typed: decimal digits only, up to 2^64 - 1 ("-1" and "1e3" are refused).
std::optional<std::uint64_t> parseSeed(const std::string& text);

// Bytes of one element the blocks compute in: 4 for fp32, 2 for bf16 and mixed-bf16.
int bytesPerElement(DType dtype);
// Bytes of one parameter element as stored (mixed-bf16 keeps fp32 master weights).
int parameterBytesPerElement(DType dtype);

// What the blocks derive from the config, in one place for the engine, the estimates and the
// FLOP counts. Attention heads' width: head_dim, or width / heads.
int headDimOf(const ExperimentConfig& config);
int kvHeadsOf(const ExperimentConfig& config);  // kv_heads, or heads
// The MLP's hidden width: ffn_width, or 4 x width (ffn, transformer), or the Llama rule
// (2/3 of 4 x width rounded up to a multiple of 256).
int ffnWidthOf(const ExperimentConfig& config);
bool hasChainEnds(const ExperimentConfig& config);  // vocab > 0: embedding, head and loss

// A comma-separated list as typed ("none,full,every:2"; spaces around items are dropped).
// An empty item is almost always a typo: throws std::invalid_argument naming `field` and the
// item's position. An empty text is an empty list.
std::vector<std::string> splitList(const std::string& text, const std::string& field);
// The same for whole numbers in [range] and for positive reals; the message names the item.
std::vector<int> parseIntList(const std::string& text, const std::string& field, IntRange range);
std::vector<double> parseNumberList(const std::string& text, const std::string& field);

}  // namespace ckptlab
