#include "base/config_field_text.h"

#include <QCoreApplication>
#include <iterator>

namespace ckptlab::ui {

namespace {

struct Label {
    const char* key;
    struct {
        const char* source;
        const char* comment;
    } text;
};

// Source texts equal the registry's English labels (ConfigField::label). The context is
// CoreText's, whose messages name the fields.
const Label kLabels[] = {
    {"block", QT_TRANSLATE_NOOP3("CoreText", "block", "config field: ffn, transformer or llama")},
    {"depth", QT_TRANSLATE_NOOP3("CoreText", "depth", "")},
    {"width", QT_TRANSLATE_NOOP3("CoreText", "width", "")},
    {"seq", QT_TRANSLATE_NOOP3("CoreText", "seq", "sequence length")},
    {"batch", QT_TRANSLATE_NOOP3("CoreText", "batch", "")},
    {"heads", QT_TRANSLATE_NOOP3("CoreText", "heads", "")},
    {"kv-heads", QT_TRANSLATE_NOOP3("CoreText", "key/value heads", "grouped-query attention")},
    {"head-dim",
     QT_TRANSLATE_NOOP3("CoreText", "head width", "config field: each attention head's")},
    {"ffn-width",
     QT_TRANSLATE_NOOP3("CoreText", "MLP width", "config field: the MLP's hidden width")},
    {"rope-theta",
     QT_TRANSLATE_NOOP3("CoreText", "rotary base", "config field: rotary embeddings' theta")},
    {"rms-norm-eps", QT_TRANSLATE_NOOP3("CoreText", "RMSNorm epsilon", "")},
    {"qkv-bias",
     QT_TRANSLATE_NOOP3("CoreText", "q/k/v bias", "config field: biases on q, k and v")},
    {"dropout", QT_TRANSLATE_NOOP3("CoreText", "dropout", "")},
    {"attention",
     QT_TRANSLATE_NOOP3("CoreText", "attention", "config field: eager, memory-efficient or sdpa")},
    {"attention-chunk",
     QT_TRANSLATE_NOOP3("CoreText", "attention chunk", "config field: queries and keys per chunk")},
    {"vocab", QT_TRANSLATE_NOOP3("CoreText", "vocabulary", "config field: vocabulary size")},
    {"tie-embeddings", QT_TRANSLATE_NOOP3("CoreText", "tied embeddings",
                                          "config field: the LM head reuses the embedding")},
    {"loss-chunks", QT_TRANSLATE_NOOP3("CoreText", "loss chunks",
                                       "config field: the LM head and loss in sequence chunks")},
    {"precision",
     QT_TRANSLATE_NOOP3("CoreText", "precision", "config field: float32, bfloat16 or mixed-bf16")},
    {"device", QT_TRANSLATE_NOOP3("CoreText", "device", "")},
    {"allocator", QT_TRANSLATE_NOOP3("CoreText", "allocator",
                                     "config field: CPU memory allocator, caching or system")},
    {"optimizer", QT_TRANSLATE_NOOP3("CoreText", "optimizer", "config field")},
    {"seed", QT_TRANSLATE_NOOP3("CoreText", "seed", "config field: random seed")},
    {"threads", QT_TRANSLATE_NOOP3("CoreText", "threads", "")},
    {"warmup", QT_TRANSLATE_NOOP3("CoreText", "warmup", "")},
    {"repeats", QT_TRANSLATE_NOOP3("CoreText", "repeats", "")},
    {"memory-limit", QT_TRANSLATE_NOOP3("CoreText", "memory limit", "")},
    {"keep-grads",
     QT_TRANSLATE_NOOP3("CoreText", "kept gradients", "config field: keep the previous step's")},
    {"repeats-auto",
     QT_TRANSLATE_NOOP3("CoreText", "adaptive repeats", "config field: --repeats auto")},
    {"time-limit", QT_TRANSLATE_NOOP3("CoreText", "time limit", "")},
};

const Label* find(std::string_view key) {
    for (const Label& label : kLabels)
        if (key == label.key) return &label;
    return nullptr;
}

}  // namespace

QString configFieldLabel(std::string_view key) {
    const Label* label = find(key);
    if (!label) return QString::fromUtf8(key.data(), int(key.size()));
    return QCoreApplication::translate("CoreText", label->text.source,
                                       *label->text.comment ? label->text.comment : nullptr);
}

ConfigFieldLabelText configFieldLabelText(std::string_view key) {
    const Label* label = find(key);
    if (!label) return {};
    return {label->text.source, *label->text.comment ? label->text.comment : nullptr};
}

}  // namespace ckptlab::ui
