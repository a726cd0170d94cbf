#pragma once
// The experiment's parameters. Widget ranges come from ckptlab::limits, so an out-of-range
// value cannot be typed; cross-field rules (heads divide width) are shown below the form. A
// field appears only where the config reads it (fieldApplies: the heads for attention blocks,
// the Llama block's fields for llama, the LM head's with an embedding and LM head). A
// memory limit out of range handed to setConfig (a file, stale settings) is refused: the field
// keeps its value and problems() names the field until it is edited.

#include <QWidget>
#include <utility>
#include <vector>

#include "ckptlab/config.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGridLayout;
class QLabel;
class QSpinBox;

namespace ckptlab::ui {

class RepeatsField;

class ParameterPanel : public QWidget {
    Q_OBJECT
public:
    explicit ParameterPanel(QWidget* parent = nullptr);

    ExperimentConfig config() const;
    void setConfig(const ExperimentConfig& config);
    // Messages of ckptlab::validate for the current values, and of a memory limit refused by
    // setConfig until the field is edited; empty when runnable.
    QStringList problems() const;

Q_SIGNALS:
    void configChanged();

private:
    void onChanged();
    // Fields go two per row (label, field, label, field) to keep the panel short.
    void place(const QString& label, QWidget* field);
    void place(QWidget* label, QWidget* field);  // a check box in the label's place
    // The shown fields two per row in their order, then the whole-row ones.
    void layoutFields();
    QSpinBox* addSpin(const QString& name, const QString& label, const IntRange& range,
                      const QString& tip);
    QDoubleSpinBox* addDecimal(const QString& name, const QString& label, double min, double max,
                               int decimals, const QString& tip);
    QCheckBox* addCheck(const QString& name, const QString& label, const QString& tip);
    // A placed field shown (and enabled) only where the registry's field of `key` applies.
    void enableWhereApplies(QWidget* widget, const char* key);
    // The blocks' finer fields (key/value heads, head and MLP widths, the Llama block's,
    // dropout, attention) and the chain ends' (parameter_panel_model.cpp).
    void addBlockFields();
    void addChainEndFields();
    void readModelFields(ExperimentConfig& config) const;
    void writeModelFields(const ExperimentConfig& config);

    QComboBox* m_block;
    QSpinBox* m_depth;
    QSpinBox* m_width;
    QSpinBox* m_seq;
    QSpinBox* m_batch;
    QSpinBox* m_heads;
    QSpinBox* m_kvHeads;  // grouped-query attention's, read by the Llama block only
    QSpinBox* m_headDim;
    QSpinBox* m_ffnWidth;
    QDoubleSpinBox* m_ropeTheta;
    QDoubleSpinBox* m_rmsNormEps;
    QCheckBox* m_qkvBias;
    QDoubleSpinBox* m_dropout;
    QComboBox* m_attention;
    QSpinBox* m_attentionChunk;
    QCheckBox* m_chainEnds;  // vocab > 0: an embedding in front, an LM head at the end
    QSpinBox* m_vocab;
    QCheckBox* m_tieEmbeddings;
    QSpinBox* m_lossChunks;
    QComboBox* m_precision;
    QComboBox* m_device;
    QComboBox* m_allocator;  // the CPU's: caching (CUDA's rules) or the C library's malloc
    QComboBox* m_optimizer;
    QSpinBox* m_seed;
    QSpinBox* m_threads;
    QSpinBox* m_warmup;
    RepeatsField* m_repeats;  // repeats, auto and the time limit
    QDoubleSpinBox* m_memoryLimit;
    QCheckBox* m_keepGrads;
    QString m_refusedLimit;  // validate's message for a limit setConfig refused
    QLabel* m_problems;
    struct Placed {
        QWidget* label;  // a QLabel, or a check box that switches the field
        QWidget* field;
        const char* key;  // the registry's field where only some configs read it, else null
    };
    std::vector<Placed> m_fields;  // in the order they are laid out
    std::vector<bool> m_shown;     // of each of m_fields, as last laid out
    QGridLayout* m_grid;
    bool m_loading = false;  // setConfig in progress: emit once at the end
};

}  // namespace ckptlab::ui
