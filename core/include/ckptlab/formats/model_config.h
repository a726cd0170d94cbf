#pragma once
// A published model's shape from its Hugging Face config.json (LlamaForCausalLM,
// MistralForCausalLM, Qwen2ForCausalLM), or from a preset shipped in resources/models/, applied
// to an ExperimentConfig: the Llama block at the model's width, depth, heads, vocabulary...
// Plain C++ (ckptlab_formats): the text is read strictly, a feature the lab does not model is
// refused naming the field.

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "ckptlab/model/config.h"

namespace ckptlab {

// A config file the lab cannot use: not JSON, a field of the wrong type or out of range, an
// architecture or feature it does not model. what() names the field ("num_key_value_heads",
// "architectures[0]") and, where there is one, the allowed range.
class ModelConfigError : public std::runtime_error {
public:
    ModelConfigError(std::string field, const std::string& message)
        : std::runtime_error(message), field_(std::move(field)) {}
    const std::string& field() const { return field_; }

private:
    std::string field_;
};

// The fields the lab reads, resolved as transformers' configuration class of the architecture
// (LlamaConfig, MistralConfig, Qwen2Config) resolves them: a field the file leaves out has that
// class's default.
struct ModelDescription {
    std::string name;          // the preset's name, or the file's name without folders
    std::string architecture;  // "LlamaForCausalLM", ...
    std::string model_type;    // the architecture's: "llama", "mistral", "qwen2"
    int hidden_size = 0;
    int intermediate_size = 0;
    int num_hidden_layers = 0;
    int num_attention_heads = 0;
    int num_key_value_heads = 0;  // left out: the heads (Llama), 8 (Mistral), 32 (Qwen2)
    int head_dim = 0;             // as the file gives it; 0: hidden_size / num_attention_heads
    int vocab_size = 0;
    int max_position_embeddings = 0;  // left out: 2048 (Llama), 131072 (Mistral), 32768 (Qwen2)
    double rms_norm_eps = 1e-6;
    // rope_scaling's (or else rope_parameters') rope_theta, else the top-level one, else 10000.
    double rope_theta = 10000;
    std::string rope_scaling_type;   // "" (none), "llama3", "linear", ...
    double rope_scaling_factor = 0;  // 0: none given
    bool tie_word_embeddings = false;
    bool attention_bias = false;  // q/k/v biases (Qwen2 always has them)
    std::string torch_dtype;      // dtype, or torch_dtype without it: "bfloat16", "float32", ...
    // What the lab takes differently from the file, in words, for the output: the rope scaling
    // changes the rotary frequencies only (not memory or time), torch_dtype picks the default
    // precision, ...
    std::vector<std::string> notes;
};

// A config.json is a few kilobytes; a larger file is refused before it is read.
inline constexpr std::size_t kMaxModelConfigBytes = std::size_t{1} << 20;  // 1 MiB

// Parses a config.json text. `name` is what the description is called. Unknown fields are
// ignored; throws ModelConfigError for anything else wrong: a text over 1 MiB, a NUL byte,
// bytes that are not UTF-8, JSON nested more than 64 deep, a duplicate key (named by its path,
// "rope_scaling.factor"), a root that is not an object, a field of the wrong type (a null
// where transformers' class refuses one) or out of ExperimentConfig's range (limits::), a
// model_type that is not the architecture's, an architecture or a feature the lab does not
// model (mixture of experts, sliding-window attention in use, including Mistral's default
// 4096-token window, a rotary embedding per layer type, an activation other than silu,
// Llama's MLP or o_proj biases).
ModelDescription parseModelConfig(const std::string& text, const std::string& name);

// Sets `config`'s model fields from `model`: block llama, depth, width, heads, kv_heads,
// head_dim, ffn_width, vocab, rms_norm_eps, rope_theta, qkv_bias, tie_embeddings; the precision
// from torch_dtype (bfloat16 and float16: mixed-bf16, float32: fp32) and memory-efficient
// attention (what people train these models with). The caller applies the command line's
// options after this, so they override the file.
void applyModel(const ModelDescription& model, ExperimentConfig& config);

// The presets' names in resources/models/ ("llama-3.1-8b", ...), sorted; empty when the folder
// is not found.
std::vector<std::string> modelPresetNames(const std::string& executablePath = {});

// Where the presets are: $CKPTLAB_MODELS_DIR, the installed share/ckptlab/models next to the
// executable, or the source tree's resources/models; empty when none exists.
std::string modelsDirectory(const std::string& executablePath = {});

// Why no presets are found, in words for a message: with $CKPTLAB_MODELS_DIR set, what is wrong
// with its folder, named by its value ("no such file", "not a folder", "permission denied",
// "the folder holds no presets"); unset, the advice to set it.
std::string modelsDirectoryProblem();

// `fileOrName`: a preset's name, or a path to a config.json. Throws ModelConfigError (field
// "--model") for a name that is neither, listing the presets, and for a path that cannot be
// read, naming why (not a regular file: a FIFO, a folder, a device, a socket; permission
// denied; too many levels of symbolic links; ...); a file's errors start with its path. The
// file is opened without blocking and read at most 1 MiB + 1 byte far.
ModelDescription loadModel(const std::string& fileOrName, const std::string& executablePath = {});

// Why a path cannot be read as a config.json, from the errno of the call that failed, in
// words: "no such file", "permission denied", "too many levels of symbolic links", ...
std::string modelFileErrorText(int error);

// The model's parameters counted from its shape: the token embedding, `depth` blocks, the
// final norm and the LM head (none when tied); without a vocabulary (vocab 0) the blocks only.
// The Llama block: two RMSNorms, q/k/v/o (with q/k/v biases when qkv_bias) and the SwiGLU
// MLP's three matrices. Saturates at INT64_MAX (saturating.h).
std::int64_t modelParameterCount(const ExperimentConfig& config);

}  // namespace ckptlab
