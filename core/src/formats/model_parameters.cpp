// What a described model sets in an ExperimentConfig, and how many parameters that model has.
#include "ckptlab/formats/model_config.h"
#include "ckptlab/model/block_kinds.h"
#include "ckptlab/model/saturating.h"

namespace ckptlab {

void applyModel(const ModelDescription& model, ExperimentConfig& config) {
    config.block = BlockKind::Llama;
    config.depth = model.num_hidden_layers;
    config.width = model.hidden_size;
    config.heads = model.num_attention_heads;
    // Only key/value heads the heads do not already imply, as for head_dim below.
    config.kv_heads =
        model.num_key_value_heads == model.num_attention_heads ? 0 : model.num_key_value_heads;
    // Only a head width the heads do not already imply, so a --width override keeps it derived.
    const bool implied = model.num_attention_heads > 0 &&
                         model.head_dim * model.num_attention_heads == model.hidden_size;
    config.head_dim = implied ? 0 : model.head_dim;
    config.ffn_width = model.intermediate_size;
    config.vocab = model.vocab_size;
    config.tie_embeddings = model.tie_word_embeddings;
    config.rms_norm_eps = model.rms_norm_eps;
    config.rope_theta = model.rope_theta;
    config.qkv_bias = model.attention_bias;
    config.dtype = model.torch_dtype == "float32" ? DType::Float32 : DType::MixedBFloat16;
    config.attention = AttentionKind::MemoryEfficient;
}

std::int64_t modelParameterCount(const ExperimentConfig& c) {
    using sat::add;
    using sat::mul;
    const std::int64_t d = c.width, f = ffnWidthOf(c);
    // LayerNorm, d->f and f->d with biases: the seed's MLP, the ffn block and the
    // transformer's second half.
    const std::int64_t mlp = add(mul(2, d), mul(2, d, f), f, d);
    std::int64_t block = 0;
    switch (c.block) {
    case BlockKind::Ffn: block = mlp; break;
    case BlockKind::Transformer:  // the attention's LayerNorm, q, k, v, o and their biases
        block = add(mlp, mul(2, d), mul(4, d, d), mul(4, d));
        break;
    case BlockKind::Llama: {
        const std::int64_t dh = headDimOf(c), h = c.heads, g = kvHeadsOf(c);
        // q and o (h heads), k and v (g heads), the two RMSNorms, gate, up and down.
        const std::int64_t attention =
            add(mul(2, d, dh, add(h, g)), c.qkv_bias ? mul(dh, add(h, mul(2, g))) : 0);
        block = add(mul(2, d), attention, mul(3, d, f));
        break;
    }
    }
    std::int64_t ends = 0;
    if (hasChainEnds(c)) {
        const std::int64_t table = mul(c.vocab, d);
        ends = add(table, c.tie_embeddings ? 0 : table, d);  // embedding, head, final RMSNorm
    }
    return add(mul(block, c.depth), ends);
}

}  // namespace ckptlab
