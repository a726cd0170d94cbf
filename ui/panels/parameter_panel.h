#pragma once
// The experiment's parameters. Widget ranges come from ckptlab::limits, so an out-of-range
// value cannot be typed; cross-field rules (heads divide width) are shown below the form. A
// memory limit out of range handed to setConfig (a file, stale settings) is refused: the field
// keeps its value and problems() names the field until it is edited.

#include <QWidget>

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
    QSpinBox* addSpin(const QString& name, const QString& label, const IntRange& range,
                      const QString& tip);

    QComboBox* m_block;
    QSpinBox* m_depth;
    QSpinBox* m_width;
    QSpinBox* m_seq;
    QSpinBox* m_batch;
    QSpinBox* m_heads;
    QSpinBox* m_kvHeads;  // grouped-query attention's, read by the Llama block only
    QDoubleSpinBox* m_dropout;
    QComboBox* m_dtype;
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
    QGridLayout* m_grid;
    int m_placed = 0;
    bool m_loading = false;  // setConfig in progress: emit once at the end
};

}  // namespace ckptlab::ui
