#include "document/config_field_text.h"

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
    {"block", QT_TRANSLATE_NOOP3("CoreText", "block", "config field: ffn or transformer")},
    {"depth", QT_TRANSLATE_NOOP3("CoreText", "depth", "")},
    {"width", QT_TRANSLATE_NOOP3("CoreText", "width", "")},
    {"seq", QT_TRANSLATE_NOOP3("CoreText", "seq", "sequence length")},
    {"batch", QT_TRANSLATE_NOOP3("CoreText", "batch", "")},
    {"heads", QT_TRANSLATE_NOOP3("CoreText", "heads", "")},
    {"kv-heads", QT_TRANSLATE_NOOP3("CoreText", "key/value heads", "grouped-query attention")},
    {"dropout", QT_TRANSLATE_NOOP3("CoreText", "dropout", "")},
    {"dtype", QT_TRANSLATE_NOOP3("CoreText", "dtype", "config field: float32 or bfloat16")},
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
