// The parameter panel's fields that shape the blocks and the chain's two ends: key/value heads,
// head and MLP widths, the Llama block's own, dropout, how attention is computed, and the
// token embedding and LM head. Each is enabled where the config reads it (fieldApplies).

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSpinBox>

#include "panels/decimal_spin_box.h"
#include "panels/enum_combo.h"
#include "panels/parameter_panel.h"

namespace ckptlab::ui {

namespace {

// The vocabulary the spin box offers when the embedding and LM head are first switched on:
// Llama 2's, a common size to start from.
constexpr int kFirstVocab = 32000;

}  // namespace

void ParameterPanel::addBlockFields() {
    m_kvHeads = addSpin(
        "kvHeads", tr("Ke&y/value heads"), limits::kvHeads,
        tr("Key/value heads of grouped-query attention (llama): \"same as heads\" (0) gives "
           "every head its own keys and values; fewer, which must divide the heads, shrink the "
           "key and value projections and the keys and values kept for backward"));
    m_kvHeads->setSpecialValueText(tr("same as heads"));
    enableWhereApplies(m_kvHeads, "kv-heads");
    m_headDim = addSpin("headDim", tr("Head w&idth"), limits::headDim,
                        tr("Width of each attention head (llama): \"width / heads\" (0) divides "
                           "the model width among the heads. Rotary embeddings turn pairs of "
                           "features, so it must be even"));
    m_headDim->setSpecialValueText(tr("width / heads"));
    enableWhereApplies(m_headDim, "head-dim");
    m_ffnWidth = addSpin("ffnWidth", tr("M&LP width"), limits::ffnWidth,
                         tr("Hidden width of the MLP: \"block's default\" (0) is 4 x width in "
                            "ffn and transformer blocks and Llama's rule in llama blocks, "
                            "8/3 x width rounded up to a multiple of 256"));
    m_ffnWidth->setSpecialValueText(tr("block's default"));
    m_ropeTheta =
        addDecimal("ropeTheta", tr("Rotary base"), limits::ropeThetaMin, limits::ropeThetaMax, 1,
                   tr("Base of the rotary position embeddings (llama); larger bases "
                      "turn more slowly, for longer contexts. It changes the values, "
                      "not the memory"));
    enableWhereApplies(m_ropeTheta, "rope-theta");
    m_rmsNormEps = addDecimal(
        "rmsNormEps", tr("RMSNorm epsilon"), limits::rmsNormEpsMin, limits::rmsNormEpsMax, 12,
        tr("Epsilon of the RMSNorms: the llama blocks' and the LM head's final norm"));
    m_rmsNormEps->setSingleStep(1e-6);
    enableWhereApplies(m_rmsNormEps, "rms-norm-eps");
    m_qkvBias = addCheck("qkvBias", tr("&Q/K/V bias"),
                         tr("Biases on the query, key and value projections (llama), as in the "
                            "Qwen2 family"));
    enableWhereApplies(m_qkvBias, "qkv-bias");

    m_dropout = addDecimal("dropout", tr("Dro&pout"), 0.0, limits::dropoutMax, 2,
                           tr("Dropout on attention probabilities (transformer only); "
                              "recompute must reproduce the same mask"));
    m_dropout->setSingleStep(0.05);
    enableWhereApplies(m_dropout, "dropout");
    m_attention = enumCombo<AttentionKind>(
        "attention", {AttentionKind::Eager, AttentionKind::MemoryEfficient, AttentionKind::Sdpa});
    m_attention->setItemData(0,
                             tr("The S x S scores and probabilities are kept for backward: "
                                "their memory grows with the square of the sequence"),
                             Qt::ToolTipRole);
    m_attention->setItemData(
        1,
        tr("Queries and keys in chunks with an online softmax, as FlashAttention: only q, k, v, "
           "the output and each row's log-sum-exp are kept, the scores recomputed in backward. "
           "Runs without dropout"),
        Qt::ToolTipRole);
    m_attention->setItemData(2,
                             tr("LibTorch's scaled_dot_product_attention, in LibTorch 2.0 and "
                                "later. Runs without dropout"),
                             Qt::ToolTipRole);
    m_attention->setToolTip(tr("How attention is computed (transformer, llama)"));
    place(tr("Atte&ntion"), m_attention);
    connect(m_attention, &QComboBox::currentIndexChanged, this, &ParameterPanel::onChanged);
    enableWhereApplies(m_attention, "attention");
    m_attentionChunk =
        addSpin("attentionChunk", tr("Attention chunk"), limits::attentionChunk,
                tr("Queries and keys per chunk of memory-efficient attention: smaller chunks "
                   "hold smaller tiles of scores at a time"));
    enableWhereApplies(m_attentionChunk, "attention-chunk");
}

void ParameterPanel::addChainEndFields() {
    m_chainEnds = new QCheckBox(tr("Embeddin&g and LM head"));
    m_chainEnds->setObjectName(QStringLiteral("chainEnds"));
    m_chainEnds->setToolTip(
        tr("A token embedding in front of the chain, and a final RMSNorm, an LM head and "
           "cross-entropy over the next tokens at its end, with this vocabulary. Off, the chain "
           "takes random activations and its loss is their sum, as the tutorial's"));
    m_vocab = new QSpinBox;
    m_vocab->setObjectName(QStringLiteral("vocab"));
    m_vocab->setRange(int(limits::vocab.min), int(limits::vocab.max));
    m_vocab->setValue(kFirstVocab);
    m_vocab->setAccelerated(true);
    m_vocab->setKeyboardTracking(false);
    m_vocab->setToolTip(
        tr("Vocabulary size: the embedding's rows and the LM head's outputs; "
           "the logits hold batch x seq x vocab numbers"));
    place(m_chainEnds, m_vocab);
    connect(m_chainEnds, &QCheckBox::toggled, this, &ParameterPanel::onChanged);
    connect(m_vocab, &QSpinBox::valueChanged, this, &ParameterPanel::onChanged);
    m_tieEmbeddings = addCheck("tieEmbeddings", tr("Tied embeddings"),
                               tr("The LM head reuses the embedding's weight: one vocab x width "
                                  "matrix and its gradient fewer"));
    enableWhereApplies(m_tieEmbeddings, "tie-embeddings");
    m_lossChunks = addSpin("lossChunks", tr("Loss chunks"), limits::lossChunks,
                           tr("The LM head and loss in this many sequence chunks, each "
                              "recomputed in backward, so the whole logits never exist at "
                              "once; at most the sequence length"));
    enableWhereApplies(m_lossChunks, "loss-chunks");
}

void ParameterPanel::readModelFields(ExperimentConfig& c) const {
    c.kv_heads = m_kvHeads->value();
    c.head_dim = m_headDim->value();
    c.ffn_width = m_ffnWidth->value();
    c.rope_theta = m_ropeTheta->value();
    c.rms_norm_eps = m_rmsNormEps->value();
    c.qkv_bias = m_qkvBias->isChecked();
    c.dropout = m_dropout->value();
    c.attention = comboValue<AttentionKind>(m_attention);
    c.attention_chunk = m_attentionChunk->value();
    c.vocab = m_chainEnds->isChecked() ? m_vocab->value() : 0;
    c.tie_embeddings = m_tieEmbeddings->isChecked();
    c.loss_chunks = m_lossChunks->value();
}

void ParameterPanel::writeModelFields(const ExperimentConfig& c) {
    m_kvHeads->setValue(c.kv_heads);
    m_headDim->setValue(c.head_dim);
    m_ffnWidth->setValue(c.ffn_width);
    m_ropeTheta->setValue(c.rope_theta);
    m_rmsNormEps->setValue(c.rms_norm_eps);
    m_qkvBias->setChecked(c.qkv_bias);
    m_dropout->setValue(c.dropout);
    setComboData(m_attention, int(c.attention));
    m_attentionChunk->setValue(c.attention_chunk);
    m_chainEnds->setChecked(c.vocab > 0);
    if (c.vocab > 0) m_vocab->setValue(c.vocab);  // off: the box keeps the last vocabulary
    m_tieEmbeddings->setChecked(c.tie_embeddings);
    m_lossChunks->setValue(c.loss_chunks);
}

}  // namespace ckptlab::ui
