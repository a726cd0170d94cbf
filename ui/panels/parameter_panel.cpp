#include "panels/parameter_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QLabel>
#include <QSpinBox>
#include <algorithm>
#include <climits>

#include "ckptlab/block_kinds.h"
#include "ckptlab/config_fields.h"
#include "ckptlab/runner.h"
#include "document/core_text.h"
#include "panels/decimal_spin_box.h"
#include "panels/enum_combo.h"
#include "panels/repeats_field.h"

namespace ckptlab::ui {

ParameterPanel::ParameterPanel(QWidget* parent) : QWidget(parent), m_grid(new QGridLayout(this)) {
    setObjectName(QStringLiteral("parameters"));
    m_grid->setContentsMargins(0, 0, 0, 0);
    m_grid->setColumnStretch(1, 1);
    m_grid->setColumnStretch(3, 1);

    m_block = new QComboBox;
    m_block->setObjectName(QStringLiteral("block"));
    for (const BlockKindInfo& kind : blockKinds())
        m_block->addItem(QString::fromUtf8(kind.name), int(kind.kind));
    m_block->setToolTip(
        tr("ffn: LayerNorm + MLP blocks (the seed's model); transformer: pre-LN attention + MLP "
           "blocks; llama: the Llama family's decoder layer (RMSNorm, rotary grouped-query "
           "attention, SwiGLU MLP)"));
    place(tr("&Block"), m_block);
    m_depth = addSpin("depth", tr("&Depth"), limits::depth, tr("Number of blocks L in the chain"));
    m_width = addSpin("width", tr("&Width"), limits::width, tr("Model dimension d"));
    m_seq = addSpin("seq", tr("&Sequence"), limits::seq, tr("Tokens per sequence S"));
    m_batch = addSpin("batch", tr("B&atch"), limits::batch, tr("Sequences per step B"));
    m_heads = addSpin("heads", tr("&Heads"), limits::heads,
                      tr("Attention heads (transformer, llama); in a transformer they must "
                         "divide the width"));
    enableWhereApplies(m_heads, "heads");
    addBlockFields();
    addChainEndFields();
    m_precision =
        enumCombo<DType>("precision", {DType::Float32, DType::BFloat16, DType::MixedBFloat16});
    m_precision->setItemData(0, tr("Everything in 32-bit floats"), Qt::ToolTipRole);
    m_precision->setItemData(
        1, tr("Weights, activations, gradients and optimizer state all in bf16: half the bytes"),
        Qt::ToolTipRole);
    m_precision->setItemData(
        2,
        tr("fp32 master weights and optimizer state, bf16 compute under autocast: the "
           "activations take half the bytes, the weights a bf16 copy besides their fp32 one"),
        Qt::ToolTipRole);
    m_precision->setToolTip(
        tr("The training precision: float32, bfloat16 or mixed-bf16 (mixed precision as "
           "training frameworks run it)"));
    place(tr("P&recision"), m_precision);
    m_device = new QComboBox;
    m_device->setObjectName("device");
    for (const std::string& device : availableDevices())
        m_device->addItem(QString::fromStdString(device), QString::fromStdString(device));
    place(tr("De&vice"), m_device);
    m_allocator = new QComboBox;
    m_allocator->setObjectName(QStringLiteral("allocator"));
    m_allocator->addItem(tr("caching (as CUDA)"), int(AllocatorKind::Caching));
    m_allocator->addItem(tr("system (malloc)"), int(AllocatorKind::System));
    m_allocator->setItemData(
        0,
        tr("Freed blocks stay reserved for the next tensor, as on a GPU: the table shows the "
           "reserved peak beside the allocated one and the Reserved segments chart the "
           "fragmentation"),
        Qt::ToolTipRole);
    m_allocator->setItemData(
        1,
        tr("The C library's malloc: freed memory goes back to the system and is faulted in "
           "again; no reserved bytes, no segments"),
        Qt::ToolTipRole);
    m_allocator->setToolTip(
        tr("The CPU allocator of the measured steps. caching follows the rules of CUDA's "
           "caching allocator, so it measures what a GPU would reserve (its reserved peak and "
           "segments) and keeps page faults out of the step times; system measures the C "
           "library's malloc, as LibTorch on the CPU does by default. On CUDA the device's own "
           "caching allocator serves either way."));
    place(tr("Allo&cator"), m_allocator);
    // MiB with up to three decimals (a KiB or so, for the tiny models of a class) written
    // without trailing zeros: "62", "0.25", not "62.000".
    auto* memoryLimit = new DecimalSpinBox;
    memoryLimit->setTrimmedZeros(true);
    m_memoryLimit = memoryLimit;
    m_memoryLimit->setObjectName(QStringLiteral("memoryLimit"));
    m_memoryLimit->setRange(0.0, limits::memoryLimitMaxMib);
    m_memoryLimit->setDecimals(3);
    m_memoryLimit->setSingleStep(1.0);
    m_memoryLimit->setAccelerated(true);
    m_memoryLimit->setKeyboardTracking(false);
    m_memoryLimit->setSpecialValueText(tr("none"));
    m_memoryLimit->setSuffix(tr(" MiB"));
    m_memoryLimit->setToolTip(
        tr("The capacity of the device being modelled, in MiB (0 = no limit, up to %1 MiB): "
           "parameters, input and optimizer state count against it. A run whose step passes it "
           "fails with \"out of memory\" where it happened, in the table and on the charts, "
           "and the other runs go on. Set it between the totals of full and none to see none "
           "fail and full fit.")
            .arg(qlonglong(limits::memoryLimitMaxMib)));
    place(tr("&Memory limit"), m_memoryLimit);
    connect(m_memoryLimit, &QDoubleSpinBox::valueChanged, this, [this] {
        if (!m_loading) m_refusedLimit.clear();
        onChanged();
    });
    // Editing the field, even back to the value it kept, answers a refused limit.
    connect(m_memoryLimit, &QDoubleSpinBox::editingFinished, this, [this] {
        if (m_refusedLimit.isEmpty()) return;
        m_refusedLimit.clear();
        onChanged();
    });
    m_optimizer =
        enumCombo<Optimizer>("optimizer", {Optimizer::None, Optimizer::Sgd, Optimizer::Adam});
    m_optimizer->setToolTip(tr("Adam keeps two state tensors per parameter: more baseline memory"));
    place(tr("&Optimizer"), m_optimizer);
    m_seed = addSpin("seed", tr("S&eed"), IntRange{0, INT_MAX}, tr("Weights, input and dropout"));
    m_threads = addSpin("threads", tr("&Threads"), limits::threads,
                        tr("Intra-op threads; auto keeps LibTorch's default"));
    m_threads->setSpecialValueText(tr("auto"));
    m_warmup = addSpin("warmup", tr("Warm-&up"), limits::warmup,
                       tr("Untimed steps before the timed ones"));
    m_repeats = new RepeatsField;
    place(tr("Repeats"), m_repeats);
    place(tr("Time limit"), m_repeats->timeLimitBox());
    connect(m_repeats, &RepeatsField::changed, this, &ParameterPanel::onChanged);

    // The tutorial's protocol (its question 1): a whole row, the label says what it does.
    m_keepGrads = new QCheckBox(tr("&Keep the previous step's gradients"));
    m_keepGrads->setObjectName(QStringLiteral("keepGrads"));
    m_keepGrads->setToolTip(
        tr("The tutorial's protocol: none runs first from a clean start; every other "
           "strategy's measured step starts with the previous step's gradients still allocated "
           "and adds its own into them, as the tutorial's test does when it never clears them "
           "between its two runs. Savings then compare whole peaks."));
    connect(m_keepGrads, &QCheckBox::toggled, this, &ParameterPanel::onChanged);

    m_problems = new QLabel;
    m_problems->setObjectName("configProblems");
    m_problems->setWordWrap(true);
    m_problems->setStyleSheet(QStringLiteral("color: #c01c28;"));

    for (QComboBox* combo : {m_block, m_precision, m_device, m_allocator, m_optimizer})
        connect(combo, &QComboBox::currentIndexChanged, this, &ParameterPanel::onChanged);

    // As wide whichever fields are shown: another block kind does not move the panel's edge
    // (the window fits its dock to the first one) nor send the fields under a scroll bar.
    int labelWidth = 0, fieldWidth = 0;
    for (const Placed& placed : m_fields) {
        labelWidth = std::max(labelWidth, placed.label->sizeHint().width());
        fieldWidth = std::max(fieldWidth, placed.field->sizeHint().width());
    }
    for (int column : {0, 2}) m_grid->setColumnMinimumWidth(column, labelWidth);
    for (int column : {1, 3}) m_grid->setColumnMinimumWidth(column, fieldWidth);

    setConfig(ExperimentConfig{});
}

void ParameterPanel::place(const QString& label, QWidget* field) {
    auto* text = new QLabel(label);
    text->setBuddy(field);
    place(text, field);
}

// Laid out by layoutFields once onChanged knows which fields the config reads; owned by the
// panel meanwhile, so a field never laid out is not a window of its own.
void ParameterPanel::place(QWidget* label, QWidget* field) {
    label->setParent(this);
    field->setParent(this);
    m_fields.push_back({label, field, nullptr});
}

void ParameterPanel::layoutFields() {
    int placed = 0;
    for (std::size_t i = 0; i < m_fields.size(); ++i) {
        const Placed& p = m_fields[i];
        for (QWidget* widget : {p.label, p.field}) {
            m_grid->removeWidget(widget);
            widget->setVisible(m_shown[i]);
        }
        if (!m_shown[i]) continue;
        const int row = placed / 2;
        const int column = (placed % 2) * 2;
        m_grid->addWidget(p.label, row, column);
        m_grid->addWidget(p.field, row, column + 1);
        ++placed;
    }
    const int row = (placed + 1) / 2;
    for (QWidget* whole : {static_cast<QWidget*>(m_keepGrads), static_cast<QWidget*>(m_problems)})
        m_grid->removeWidget(whole);
    m_grid->addWidget(m_keepGrads, row, 0, 1, 4);
    m_grid->addWidget(m_problems, row + 1, 0, 1, 4);
}

QSpinBox* ParameterPanel::addSpin(const QString& name, const QString& label, const IntRange& range,
                                  const QString& tip) {
    auto* spin = new QSpinBox;
    spin->setObjectName(name);
    spin->setRange(int(range.min), int(range.max));
    spin->setToolTip(tip);
    spin->setAccelerated(true);
    // No update per keystroke of "4096": wait until the value is complete.
    spin->setKeyboardTracking(false);
    place(label, spin);
    connect(spin, &QSpinBox::valueChanged, this, &ParameterPanel::onChanged);
    return spin;
}

QDoubleSpinBox* ParameterPanel::addDecimal(const QString& name, const QString& label, double min,
                                           double max, int decimals, const QString& tip) {
    auto* spin = new DecimalSpinBox;
    spin->setTrimmedZeros(true);
    spin->setObjectName(name);
    spin->setDecimals(decimals);
    spin->setRange(min, max);
    spin->setToolTip(tip);
    spin->setAccelerated(true);
    spin->setKeyboardTracking(false);
    place(label, spin);
    connect(spin, &QDoubleSpinBox::valueChanged, this, &ParameterPanel::onChanged);
    return spin;
}

QCheckBox* ParameterPanel::addCheck(const QString& name, const QString& label, const QString& tip) {
    auto* box = new QCheckBox;
    box->setObjectName(name);
    box->setToolTip(tip);
    place(label, box);
    connect(box, &QCheckBox::toggled, this, &ParameterPanel::onChanged);
    return box;
}

void ParameterPanel::enableWhereApplies(QWidget* widget, const char* key) {
    for (Placed& placed : m_fields)
        if (placed.field == widget) placed.key = key;
}

ExperimentConfig ParameterPanel::config() const {
    ExperimentConfig c;
    c.block = comboValue<BlockKind>(m_block);
    c.depth = m_depth->value();
    c.width = m_width->value();
    c.seq = m_seq->value();
    c.batch = m_batch->value();
    c.heads = m_heads->value();
    readModelFields(c);
    c.dtype = comboValue<DType>(m_precision);
    c.device = m_device->currentData().toString().toStdString();
    c.allocator = comboValue<AllocatorKind>(m_allocator);
    c.optimizer = comboValue<Optimizer>(m_optimizer);
    c.seed = std::uint64_t(m_seed->value());
    c.threads = m_threads->value();
    c.warmup = m_warmup->value();
    m_repeats->read(c);
    c.memory_limit_mib = m_memoryLimit->value();
    c.keep_grads = m_keepGrads->isChecked();
    return c;
}

void ParameterPanel::setConfig(const ExperimentConfig& c) {
    m_loading = true;
    setComboData(m_block, int(c.block));
    m_depth->setValue(c.depth);
    m_width->setValue(c.width);
    m_seq->setValue(c.seq);
    m_batch->setValue(c.batch);
    m_heads->setValue(c.heads);
    writeModelFields(c);
    setComboData(m_precision, int(c.dtype));
    setComboData(m_device, QString::fromStdString(c.device));  // unavailable: keep current
    setComboData(m_allocator, int(c.allocator));
    setComboData(m_optimizer, int(c.optimizer));
    m_seed->setValue(int(std::min<std::uint64_t>(c.seed, INT_MAX)));
    m_threads->setValue(c.threads);
    m_warmup->setValue(c.warmup);
    m_repeats->write(c);
    m_keepGrads->setChecked(c.keep_grads);
    // The spin box would clamp an out-of-range limit into another, valid one without a word;
    // a run under a limit nobody asked for is worse than no run.
    m_refusedLimit.clear();
    ExperimentConfig limitOnly;
    limitOnly.memory_limit_mib = c.memory_limit_mib;
    for (const FieldError& e : validate(limitOnly))
        if (e.field == "memory-limit")
            m_refusedLimit =
                tr("%1; the field kept %2. Set a limit in range (0 = none) to run.")
                    .arg(fieldErrorText(e), m_memoryLimit->textFromValue(m_memoryLimit->value()));
    if (m_refusedLimit.isEmpty()) m_memoryLimit->setValue(c.memory_limit_mib);
    m_loading = false;
    onChanged();
}

QStringList ParameterPanel::problems() const {
    QStringList list;
    const ExperimentConfig c = config();
    for (const FieldError& e : validate(c)) list << fieldErrorText(e);
    if (!m_refusedLimit.isEmpty()) list << m_refusedLimit;
    return list;
}

void ParameterPanel::onChanged() {
    if (m_loading) return;
    const ExperimentConfig c = config();
    std::vector<bool> shown;
    for (const Placed& placed : m_fields) {
        const bool applies = !placed.key || fieldApplies(*findConfigField(placed.key), c);
        if (placed.key) placed.field->setEnabled(applies);  // others keep their own rules
        shown.push_back(applies);
    }
    if (shown != m_shown) {
        m_shown = std::move(shown);
        layoutFields();
    }
    m_vocab->setEnabled(m_chainEnds->isChecked());
    // CUDA's own caching allocator serves a GPU whatever this says.
    m_allocator->setEnabled(m_device->currentData().toString() == QLatin1String("cpu"));
    m_problems->setText(problems().join(QLatin1Char('\n')));
    m_problems->setVisible(!m_problems->text().isEmpty());
    Q_EMIT configChanged();
}

}  // namespace ckptlab::ui
