#pragma once
// The small models the tests run, in one place for tests/core and tests/ui (plain C++: no Qt,
// no LibTorch). Several tests pin exact byte counts measured on these shapes, so change one
// only together with the numbers its tests expect.

#include "ckptlab/model/config.h"

namespace ckptlab::test {

// `depth` blocks of `width` on `batch` sequences of `seq` tokens, timed in one step without
// warm-up; transformer blocks keep the default 4 heads.
inline ExperimentConfig quickConfig(BlockKind block, int depth, int width, int seq, int batch,
                                    double dropout = ExperimentConfig{}.dropout) {
    ExperimentConfig c;
    c.block = block;
    c.depth = depth;
    c.width = width;
    c.seq = seq;
    c.batch = batch;
    c.dropout = dropout;
    c.warmup = 0;
    c.repeats = 1;
    return c;
}

// Milliseconds per sweep: the window tests' model.
inline ExperimentConfig tinyConfig() { return quickConfig(BlockKind::Ffn, 4, 32, 16, 1); }

// Milliseconds per strategy, dropout on, either block: the runner's gradient and plan tests.
inline ExperimentConfig tinyChain(BlockKind block) { return quickConfig(block, 6, 32, 32, 2, 0.2); }

// The exact peaks of test_memory: an FFN chain on one thread.
inline ExperimentConfig memoryConfig() {
    ExperimentConfig c = quickConfig(BlockKind::Ffn, 8, 64, 64, 2);
    c.threads = 1;
    return c;
}

// The cost model's predictions against measurements (test_prediction).
inline ExperimentConfig predictionConfig(BlockKind block) {
    return quickConfig(block, 8, 64, 128, 2);
}

// Small enough for a second, large enough that none's activations (about 6 MiB) dwarf the
// allocator's own noise: the memory-limit tests.
inline ExperimentConfig outOfMemoryConfig(BlockKind block = BlockKind::Ffn) {
    return quickConfig(block, 6, 64, 256, 2, 0.2);
}

// Every field away from its default and the whole still valid: a round trip through a file,
// the settings or the command line that drops or mixes up a field shows in it
// (test_config_fields, test_results_io, test_settings). A new field is changed here too.
inline ExperimentConfig everyFieldChanged() {
    ExperimentConfig c;
    c.block = BlockKind::Llama;  // the block that reads the most fields
    c.depth = 7;
    c.width = 96;
    c.seq = 33;
    c.batch = 3;
    c.heads = 6;
    c.kv_heads = 2;
    c.head_dim = 24;  // not width / heads: the field must carry it
    c.ffn_width = 200;
    c.rope_theta = 500000;
    c.rms_norm_eps = 1e-6;
    c.qkv_bias = true;
    c.dropout = 0.25;
    c.attention = AttentionKind::MemoryEfficient;
    c.attention_chunk = 16;
    c.vocab = 1000;
    c.tie_embeddings = true;
    c.loss_chunks = 3;
    c.dtype = DType::MixedBFloat16;
    c.device = "cuda:1";
    c.optimizer = Optimizer::Adam;
    c.seed = 18446744073709551615u;
    c.threads = 3;
    c.warmup = 0;
    c.repeats = 9;
    c.repeats_auto = true;
    c.time_limit_s = 30.5;
    c.memory_limit_mib = 123.5;
    c.keep_grads = true;
    c.allocator = AllocatorKind::System;
    return c;
}

}  // namespace ckptlab::test
