#include "panels/fit_inputs.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QGridLayout>
#include <QLabel>
#include <QSpinBox>
#include <QtConcurrent>
#include <algorithm>
#include <cmath>

#include "base/messages.h"
#include "ckptlab/model/config.h"
#include "ckptlab/model/strategy.h"
#include "ckptlab/planning/full_size.h"
#include "document/core_text.h"
#include "document/full_size_refusal.h"
#include "document/settings.h"
#include "panels/decimal_spin_box.h"
#include "panels/enum_combo.h"

namespace ckptlab::ui {

namespace {

// The model list's last item opens a file; its data is empty, a model's never is.
constexpr int kCustomCapacity = -1;

QSpinBox* spin(const char* name, IntRange range, int value) {
    auto* box = new QSpinBox;
    box->setObjectName(QLatin1String(name));
    box->setRange(int(range.min), int(std::min<long long>(range.max, INT32_MAX)));
    box->setValue(value);
    box->setGroupSeparatorShown(false);
    return box;
}

// Runs on a pool thread: core's reader, which refuses what is not a regular file before it
// reads, so nothing here waits on a pipe or a device.
ModelRead readModelAt(const QString& key, const std::string& executable) {
    ModelRead read;
    read.key = key;
    try {
        read.description = loadModel(QFile::encodeName(key).toStdString(), executable);
    } catch (const ModelConfigError& e) {
        read.error = e;
    } catch (const std::exception& e) {
        read.other = e.what();
    }
    return read;
}

std::vector<ModelRead> readPresets(const QStringList& names, const std::string& executable) {
    std::vector<ModelRead> reads;
    for (const QString& name : names) reads.push_back(readModelAt(name, executable));
    return reads;
}

}  // namespace

FitInputs::FitInputs(Settings* settings, QWidget* parent)
    : QWidget(parent),
      m_settings(settings),
      m_executable(QCoreApplication::applicationFilePath().toStdString()) {
    setObjectName(QStringLiteral("fitInputs"));
    m_model = new QComboBox;
    m_model->setObjectName(QStringLiteral("fitModel"));
    QStringList presets;
    for (const std::string& name : modelPresetNames(m_executable))
        presets << QString::fromStdString(name);
    for (const QString& name : presets) m_model->addItem(name, name);
    m_model->addItem(tr("Open config…"), QString());
    m_model->setToolTip(tr("A model shipped with the lab, or a Hugging Face config.json"));
    // Nothing selected until the presets' sizes are known (or the last model is read): never
    // the first name, which may be a model too large to measure here.
    m_model->setCurrentIndex(-1);

    // The step the CLI's plan --capacity asks about too, unless the user says otherwise.
    ExperimentConfig defaults;
    applyFullSizeDefaults(defaults);
    m_seq = spin("fitSeq", limits::seq, defaults.seq);
    m_seq->setToolTip(tr("Tokens per sequence"));
    m_batch = spin("fitBatch", limits::batch, defaults.batch);
    m_batch->setToolTip(tr("Sequences per step"));
    m_precision =
        enumCombo<DType>("fitPrecision", {DType::Float32, DType::BFloat16, DType::MixedBFloat16});
    m_precision->setToolTip(tr("Set from the model's torch_dtype when a model is chosen"));
    m_optimizer =
        enumCombo<Optimizer>("fitOptimizer", {Optimizer::None, Optimizer::Sgd, Optimizer::Adam});
    setComboData(m_optimizer, int(defaults.optimizer));

    m_capacity = new QComboBox;
    m_capacity->setObjectName(QStringLiteral("fitCapacity"));
    for (const CapacityPreset& preset : capacityPresets())
        m_capacity->addItem(
            //: a GPU capacity preset and GPUs that have it: "80GB (A100 80GB, H100 80GB)"
            tr("%1 (%2)").arg(QLatin1String(preset.name), QLatin1String(preset.examples)),
            QVariant::fromValue<qlonglong>(preset.bytes));
    m_capacity->addItem(tr("Custom"), QVariant::fromValue<qlonglong>(kCustomCapacity));
    setComboData(m_capacity, QVariant::fromValue<qlonglong>(80'000'000'000LL));
    m_customGB = new DecimalSpinBox;
    m_customGB->setObjectName(QStringLiteral("fitCustomCapacity"));
    m_customGB->setTrimmedZeros(true);
    m_customGB->setRange(1, 100000);
    m_customGB->setDecimals(1);
    m_customGB->setValue(80);
    m_customGB->setSuffix(tr(" GB"));
    m_customGB->setToolTip(tr("GB = 10^9 bytes, as GPUs are sold"));
    m_customGB->setEnabled(false);

    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    const auto place = [&](int row, int column, const QString& text, QWidget* field) {
        auto* label = new QLabel(text);
        label->setBuddy(field);
        grid->addWidget(label, row, column * 2);
        grid->addWidget(field, row, column * 2 + 1);
    };
    place(0, 0, tr("&Model"), m_model);
    place(0, 1, tr("&Sequence"), m_seq);
    place(0, 2, tr("&Batch"), m_batch);
    place(1, 0, tr("GPU &capacity"), m_capacity);
    place(1, 1, tr("&Precision"), m_precision);
    place(1, 2, tr("&Optimizer"), m_optimizer);
    auto* custom = new QLabel(tr("C&ustom size"));
    custom->setBuddy(m_customGB);
    grid->addWidget(custom, 1, 6);
    grid->addWidget(m_customGB, 1, 7);
    grid->setColumnStretch(1, 1);

    connect(m_model, qOverload<int>(&QComboBox::activated), this, &FitInputs::onModelActivated);
    connect(m_model, qOverload<int>(&QComboBox::currentIndexChanged), this,
            &FitInputs::onModelChanged);
    connect(m_capacity, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] {
        m_customGB->setEnabled(m_capacity->currentData().toLongLong() == kCustomCapacity);
        Q_EMIT changed();
    });
    connect(m_customGB, &DecimalSpinBox::valueChanged, this, &FitInputs::changed);
    connect(m_seq, &QSpinBox::valueChanged, this, &FitInputs::changed);
    connect(m_batch, &QSpinBox::valueChanged, this, &FitInputs::changed);
    connect(m_precision, qOverload<int>(&QComboBox::currentIndexChanged), this,
            &FitInputs::changed);
    connect(m_optimizer, qOverload<int>(&QComboBox::currentIndexChanged), this,
            &FitInputs::changed);

    m_presets = presets;
    // The model chosen last, read like any other; the smallest preset when it cannot be.
    if (const QString last = m_settings ? m_settings->fitModel() : QString(); !last.isEmpty()) {
        selectQuietly(last);
        read(last, ReadFor::Remembered);
    }
    m_catalogPending = true;
    auto* catalog = new QFutureWatcher<std::vector<ModelRead>>(this);
    connect(catalog, &QFutureWatcherBase::finished, this, [this, catalog] {
        catalog->deleteLater();
        onCatalog(catalog->result());
    });
    catalog->setFuture(QtConcurrent::run(readPresets, presets, m_executable));
}

QString FitInputs::modelKey() const { return m_model->currentData().toString(); }

void FitInputs::selectQuietly(const QString& key) {
    int index = key.isEmpty() ? -1 : m_model->findData(key);
    if (index < 0 && !key.isEmpty()) {  // a file: listed before "Open config…"
        index = m_model->count() - 1;
        m_model->insertItem(index, QFileInfo(key).fileName(), key);
        m_model->setItemData(index, QDir::toNativeSeparators(key), Qt::ToolTipRole);
    }
    m_selecting = true;
    m_model->setCurrentIndex(index);
    m_selecting = false;
    m_lastModel = index;
    Q_EMIT changed();
}

void FitInputs::onModelActivated(int index) {
    const QString key = m_model->itemData(index).toString();
    if (!key.isEmpty()) {
        m_lastModel = index;
        if (m_settings) m_settings->setFitModel(key);
        return;
    }
    // "Open config…": back to the model before unless a file is opened.
    selectQuietly(m_model->itemData(m_lastModel).toString());
    const QString path = QFileDialog::getOpenFileName(this, tr("Open a model's config.json"),
                                                      QString(), tr("JSON (*.json)"));
    if (!path.isEmpty()) openConfig(path);
}

void FitInputs::onModelChanged() {
    if (m_selecting) return;
    const QString key = modelKey();
    if (!key.isEmpty()) read(key, ReadFor::Choice);
    Q_EMIT changed();
}

void FitInputs::read(const QString& key, ReadFor why) {
    // A selection's read replaces the one before; an opened file waits for its own.
    const quint64 serial = why == ReadFor::Open ? ++m_openSerial : ++m_serial;
    if (why == ReadFor::Open)
        m_opening = true;
    else
        m_reading = true;
    auto* watcher = new QFutureWatcher<ModelRead>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, why, serial] {
        watcher->deleteLater();
        onRead(watcher->result(), why, serial);
    });
    watcher->setFuture(QtConcurrent::run(readModelAt, key, m_executable));
}

void FitInputs::onRead(const ModelRead& read, ReadFor why, quint64 serial) {
    if (why == ReadFor::Open) {
        if (serial != m_openSerial) return;
        m_opening = false;
        if (!read.description) {
            showModelError(read);
            Q_EMIT opened(false);
            return;
        }
        ++m_serial;  // the selection is this file now: an older read of another must not land
        m_reading = false;
        selectQuietly(read.key);
        if (m_settings) m_settings->setFitModel(read.key);
    } else {
        if (serial != m_serial) return;
        m_reading = false;
        if (read.key != modelKey()) return;
        if (!read.description && why == ReadFor::Remembered) {
            // Gone or broken since: not listed again; the panel opens on the smallest preset.
            if (!m_presets.contains(read.key)) {
                m_selecting = true;
                m_model->removeItem(m_model->findData(read.key));
                m_selecting = false;
            }
            selectQuietly(m_defaultKey);
            if (!m_defaultKey.isEmpty()) this->read(m_defaultKey, ReadFor::Choice);
            return;
        }
    }
    m_readKey = read.key;
    m_read = read.description;
    m_modelError.clear();
    if (!m_read) {
        m_modelError = read.error ? FitWorker::modelErrorText(read.key, *read.error)
                                  : QString::fromStdString(read.other);
    } else if (why != ReadFor::Restore) {
        // The model's own precision (torch_dtype) as the default; the user's choice after that
        // wins.
        ExperimentConfig own;
        applyModel(*m_read, own);
        setComboData(m_precision, int(own.dtype));
    }
    Q_EMIT changed();
    if (why == ReadFor::Open) Q_EMIT opened(true);
}

void FitInputs::onCatalog(const std::vector<ModelRead>& presets) {
    m_catalogPending = false;
    // The preset with the fewest parameters at the fields' precision and optimizer.
    std::int64_t fewest = -1;
    for (const ModelRead& preset : presets) {
        if (!preset.description) continue;
        const std::int64_t count = modelParameterCount(fitConfig(*preset.description, choices()));
        if (fewest < 0 || count < fewest) {
            fewest = count;
            m_defaultKey = preset.key;
        }
    }
    if (m_defaultKey.isEmpty() && !m_presets.isEmpty()) m_defaultKey = m_presets.front();
    if (!modelKey().isEmpty() || m_reading || m_defaultKey.isEmpty()) {
        Q_EMIT changed();
        return;
    }
    selectQuietly(m_defaultKey);
    read(m_defaultKey, ReadFor::Choice);
}

void FitInputs::showModelError(const ModelRead& read) {
    showMessage(this, MessageKind::Error, tr("Cannot use this model"),
                read.error ? FitWorker::modelErrorText(read.key, *read.error)
                           : QString::fromStdString(read.other));
}

void FitInputs::openConfig(const QString& path) { read(path, ReadFor::Open); }

std::int64_t FitInputs::capacity() const {
    const qlonglong preset = m_capacity->currentData().toLongLong();
    if (preset != kCustomCapacity) return preset;
    return std::int64_t(std::llround(m_customGB->value() * 1e9));
}

ExperimentConfig FitInputs::choices() const {
    ExperimentConfig choices;
    choices.seq = m_seq->value();
    choices.batch = m_batch->value();
    choices.dtype = comboValue<DType>(m_precision);
    choices.optimizer = comboValue<Optimizer>(m_optimizer);
    return choices;
}

std::optional<ExperimentConfig> FitInputs::config() const {
    const QString key = modelKey();
    if (key.isEmpty() || key != m_readKey || !m_read) return std::nullopt;
    return fitConfig(*m_read, choices());
}

std::optional<FitRequest> FitInputs::request() {
    const QString key = modelKey();
    if (key.isEmpty()) {
        showMessage(this, MessageKind::Information, tr("No model"),
                    tr("Choose a model, or open a model's config.json."));
        return std::nullopt;
    }
    if (key != m_readKey) {
        showMessage(this, MessageKind::Information, tr("No model"),
                    tr("The model is still being read; try again in a moment."));
        return std::nullopt;
    }
    if (!m_read) {
        showMessage(this, MessageKind::Error, tr("Cannot use this model"), m_modelError);
        return std::nullopt;
    }
    FitRequest request;
    request.model = key;
    request.readModel = true;  // read again at Plan: the file as it is then
    request.config = fitConfig(*m_read, choices());
    request.capacity = capacity();
    // Core's check of a full-size request, as plan --capacity makes it.
    const FullSizeCheck check = checkFullSize({request.config, request.capacity, {}});
    if (!check.ok()) {
        showMessage(this, MessageKind::Error, tr("Cannot use this model"), fullSizeRefusal(check));
        return std::nullopt;
    }
    request.strategies = check.strategies;
    return request;
}

void FitInputs::setRequest(const FitRequest& request) {
    selectQuietly(request.model);
    if (!request.model.isEmpty()) read(request.model, ReadFor::Restore);
    m_seq->setValue(request.config.seq);
    m_batch->setValue(request.config.batch);
    setComboData(m_precision, int(request.config.dtype));
    setComboData(m_optimizer, int(request.config.optimizer));
    const int preset = m_capacity->findData(QVariant::fromValue<qlonglong>(request.capacity));
    if (preset >= 0) {
        m_capacity->setCurrentIndex(preset);
    } else {
        setComboData(m_capacity, QVariant::fromValue<qlonglong>(kCustomCapacity));
        m_customGB->setValue(double(request.capacity) / 1e9);
    }
}

}  // namespace ckptlab::ui
