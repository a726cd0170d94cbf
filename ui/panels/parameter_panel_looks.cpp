// How the parameter panel shows each config field beyond its type and range (the registry's):
// its label with the keyboard shortcut, its tip, and the texts of its special values and
// choices, in the user's language. A table of texts: a field missing here still gets its widget,
// under its registry label.
#include "ckptlab/engine/runner.h"
#include "panels/parameter_panel.h"

namespace ckptlab::ui {
namespace {

using Look = ParameterPanel::FieldLook;

Look labelled(const QString& label, const QString& tip) {
    Look look;
    look.label = label;
    look.tip = tip;
    return look;
}

Look withZero(Look look, const QString& zeroText) {
    look.zeroText = zeroText;
    return look;
}

Look real(Look look, int decimals, double step) {
    look.decimals = decimals;
    look.step = step;
    return look;
}

}  // namespace

ParameterPanel::FieldLook ParameterPanel::lookOf(std::string_view key) {
    if (key == "block")
        return labelled(
            tr("&Block"),
            tr("ffn: LayerNorm + MLP blocks (the seed's model); transformer: pre-LN attention + "
               "MLP blocks; llama: the Llama family's decoder layer (RMSNorm, rotary "
               "grouped-query attention, SwiGLU MLP)"));
    if (key == "depth") return labelled(tr("&Depth"), tr("Number of blocks L in the chain"));
    if (key == "width") return labelled(tr("&Width"), tr("Model dimension d"));
    if (key == "seq") return labelled(tr("&Sequence"), tr("Tokens per sequence S"));
    if (key == "batch") return labelled(tr("B&atch"), tr("Sequences per step B"));
    if (key == "heads")
        return labelled(tr("&Heads"), tr("Attention heads (transformer, llama); in a transformer "
                                         "they must divide the width"));
    if (key == "kv-heads")
        return withZero(
            labelled(tr("Ke&y/value heads"),
                     tr("Key/value heads of grouped-query attention (llama): \"same as heads\" "
                        "(0) gives every head its own keys and values; fewer, which must divide "
                        "the heads, shrink the key and value projections and the keys and "
                        "values kept for backward")),
            tr("same as heads"));
    if (key == "head-dim")
        return withZero(labelled(tr("Head w&idth"),
                                 tr("Width of each attention head (llama): \"width / heads\" "
                                    "(0) divides the model width among the heads. Rotary "
                                    "embeddings turn pairs of features, so it must be even")),
                        tr("width / heads"));
    if (key == "ffn-width")
        return withZero(
            labelled(tr("M&LP width"),
                     tr("Hidden width of the MLP: \"block's default\" (0) is 4 x width in ffn "
                        "and transformer blocks and Llama's rule in llama blocks, 8/3 x width "
                        "rounded up to a multiple of 256")),
            tr("block's default"));
    if (key == "rope-theta")
        return real(labelled(tr("Rotary base"),
                             tr("Base of the rotary position embeddings (llama); larger bases "
                                "turn more slowly, for longer contexts. It changes the values, "
                                "not the memory")),
                    1, 1);
    if (key == "rms-norm-eps")
        return real(labelled(tr("RMSNorm epsilon"), tr("Epsilon of the RMSNorms: the llama "
                                                       "blocks' and the LM head's final norm")),
                    12, 1e-6);
    if (key == "qkv-bias")
        return labelled(tr("&Q/K/V bias"), tr("Biases on the query, key and value projections "
                                              "(llama), as in the Qwen2 family"));
    if (key == "dropout")
        return real(labelled(tr("Dro&pout"), tr("Dropout on attention probabilities "
                                                "(transformer only); recompute must reproduce "
                                                "the same mask")),
                    2, 0.05);
    if (key == "attention") {
        Look look =
            labelled(tr("Atte&ntion"), tr("How attention is computed (transformer, llama)"));
        look.items = {
            {QString(), tr("The S x S scores and probabilities are kept for backward: their "
                           "memory grows with the square of the sequence")},
            {QString(), tr("Queries and keys in chunks with an online softmax, as "
                           "FlashAttention: only q, k, v, the output and each row's log-sum-exp "
                           "are kept, the scores recomputed in backward. Runs without dropout")},
            {QString(), tr("LibTorch's scaled_dot_product_attention, in LibTorch 2.0 and later. "
                           "Runs without dropout")}};
        return look;
    }
    if (key == "attention-chunk")
        return labelled(tr("Attention chunk"),
                        tr("Queries and keys per chunk of memory-efficient attention: smaller "
                           "chunks hold smaller tiles of scores at a time"));
    if (key == "vocab") {
        // The check box's text and tip; the vocabulary's own box says what the number is.
        Look look = labelled(
            tr("Embeddin&g and LM head"),
            tr("A token embedding in front of the chain, and a final RMSNorm, an LM head and "
               "cross-entropy over the next tokens at its end, with this vocabulary. Off, the "
               "chain takes random activations and its loss is their sum, as the tutorial's"));
        look.switchName = QStringLiteral("chainEnds");
        look.firstValue = 32000;  // Llama 2's, a common size to start from
        return look;
    }
    if (key == "tie-embeddings")
        return labelled(tr("Tied embeddings"), tr("The LM head reuses the embedding's weight: "
                                                  "one vocab x width matrix and its gradient "
                                                  "fewer"));
    if (key == "loss-chunks")
        return labelled(tr("Loss chunks"),
                        tr("The LM head and loss in this many sequence chunks, each recomputed "
                           "in backward, so the whole logits never exist at once; at most the "
                           "sequence length"));
    if (key == "precision") {
        Look look = labelled(tr("P&recision"),
                             tr("The training precision: float32, bfloat16 or mixed-bf16 (mixed "
                                "precision as training frameworks run it)"));
        look.items = {
            {QString(), tr("Everything in 32-bit floats")},
            {QString(), tr("Weights, activations, gradients and optimizer state all in bf16: "
                           "half the bytes")},
            {QString(), tr("fp32 master weights and optimizer state, bf16 compute under "
                           "autocast: the activations take half the bytes, the weights a bf16 "
                           "copy besides their fp32 one")}};
        return look;
    }
    if (key == "device") {
        Look look = labelled(tr("De&vice"), QString());
        look.choices = availableDevices;
        return look;
    }
    if (key == "allocator") {
        Look look = labelled(
            tr("Allo&cator"),
            tr("The CPU allocator of the measured steps. caching follows the rules of CUDA's "
               "caching allocator, so it measures what a GPU would reserve (its reserved peak and "
               "segments) and keeps page faults out of the step times; system measures the C "
               "library's malloc, as LibTorch on the CPU does by default. On CUDA the device's "
               "own caching allocator serves either way."));
        look.items = {
            {tr("caching (as CUDA)"),
             tr("Freed blocks stay reserved for the next tensor, as on a GPU: the table shows the "
                "reserved peak beside the allocated one and the Reserved segments chart the "
                "fragmentation")},
            {tr("system (malloc)"),
             tr("The C library's malloc: freed memory goes back to the system and is faulted in "
                "again; no reserved bytes, no segments")}};
        return look;
    }
    if (key == "optimizer")
        return labelled(tr("&Optimizer"),
                        tr("Adam keeps two state tensors per parameter: more baseline memory"));
    if (key == "seed") return labelled(tr("S&eed"), tr("Weights, input and dropout"));
    if (key == "threads")
        return withZero(
            labelled(tr("&Threads"), tr("Intra-op threads; auto keeps LibTorch's default")),
            tr("auto"));
    if (key == "warmup") return labelled(tr("Warm-&up"), tr("Untimed steps before the timed ones"));
    if (key == "repeats" || key == "repeats-auto" || key == "time-limit") {
        Look look = labelled(key == "repeats" ? tr("Repeats") : tr("Time limit"), QString());
        look.inRepeatsField = true;
        return look;
    }
    if (key == "memory-limit") {
        // MiB with up to three decimals (a KiB or so, for the tiny models of a class).
        Look look = real(
            labelled(tr("&Memory limit"),
                     tr("The capacity of the device being modelled, in MiB (0 = no limit, up to "
                        "%1 MiB): parameters, input and optimizer state count against it. A run "
                        "whose step passes it fails with \"out of memory\" where it happened, in "
                        "the table and on the charts, and the other runs go on. Set it between "
                        "the totals of full and none to see none fail and full fit.")
                         .arg(qlonglong(limits::memoryLimitMaxMib))),
            3, 1.0);
        look.zeroText = tr("none");
        look.suffix = tr(" MiB");
        return look;
    }
    if (key == "keep-grads") {
        // The tutorial's protocol (its question 1): a whole row, the label says what it does.
        Look look = labelled(
            tr("&Keep the previous step's gradients"),
            tr("The tutorial's protocol: none runs first from a clean start; every other "
               "strategy's measured step starts with the previous step's gradients still "
               "allocated and adds its own into them, as the tutorial's test does when it never "
               "clears them between its two runs. Savings then compare whole peaks."));
        look.wholeRow = true;
        return look;
    }
    return {};
}

}  // namespace ckptlab::ui
