#include "panels/fit_inputs.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QLabel>
#include <QSpinBox>
#include <cmath>

#include "base/messages.h"
#include "ckptlab/config.h"
#include "ckptlab/full_size.h"
#include "ckptlab/strategy.h"
#include "document/core_text.h"
#include "panels/decimal_spin_box.h"
#include "panels/enum_combo.h"

namespace ckptlab::ui {

namespace {

// The model list's last item opens a file; its data is empty, a model's never is.
constexpr int kCustomCapacity = -1;

std::string executablePath() { return QCoreApplication::applicationFilePath().toStdString(); }

QSpinBox* spin(const char* name, IntRange range, int value) {
    auto* box = new QSpinBox;
    box->setObjectName(QLatin1String(name));
    box->setRange(int(range.min), int(std::min<long long>(range.max, INT32_MAX)));
    box->setValue(value);
    box->setGroupSeparatorShown(false);
    return box;
}

}  // namespace

FitInputs::FitInputs(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("fitInputs"));
    m_model = new QComboBox;
    m_model->setObjectName(QStringLiteral("fitModel"));
    for (const std::string& name : modelPresetNames(executablePath()))
        m_model->addItem(QString::fromStdString(name), QString::fromStdString(name));
    m_model->addItem(tr("Open config…"), QString());
    m_model->setToolTip(tr("A model shipped with the lab, or a Hugging Face config.json"));

    m_seq = spin("fitSeq", limits::seq, 2048);
    m_seq->setToolTip(tr("Tokens per sequence"));
    m_batch = spin("fitBatch", limits::batch, 1);
    m_batch->setToolTip(tr("Sequences per step"));
    m_precision =
        enumCombo<DType>("fitPrecision", {DType::Float32, DType::BFloat16, DType::MixedBFloat16});
    m_precision->setToolTip(tr("Set from the model's torch_dtype when a model is chosen"));
    m_optimizer =
        enumCombo<Optimizer>("fitOptimizer", {Optimizer::None, Optimizer::Sgd, Optimizer::Adam});
    setComboData(m_optimizer, int(Optimizer::Adam));

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
    });
    onModelChanged();
}

void FitInputs::onModelActivated(int index) {
    if (!m_model->itemData(index).toString().isEmpty()) {
        m_lastModel = index;
        return;
    }
    // "Open config…": back to the model before unless a file is opened.
    m_model->setCurrentIndex(m_lastModel);
    const QString path = QFileDialog::getOpenFileName(this, tr("Open a model's config.json"),
                                                      QString(), tr("JSON (*.json)"));
    if (!path.isEmpty()) openConfig(path);
}

void FitInputs::onModelChanged() {
    const QString key = m_model->currentData().toString();
    if (key.isEmpty()) return;
    // The model's own precision as the default; the user's choice after that wins.
    if (const auto description = model(key, true)) {
        ExperimentConfig config;
        applyModel(*description, config);
        setComboData(m_precision, int(config.dtype));
    }
}

std::optional<ModelDescription> FitInputs::model(const QString& key, bool quiet) {
    if (const auto cached = m_models.constFind(key); cached != m_models.constEnd()) return *cached;
    try {
        ModelDescription description =
            loadModel(QFile::encodeName(key).toStdString(), executablePath());
        m_models.insert(key, description);
        return description;
    } catch (const ModelConfigError& e) {
        if (!quiet) showModelError(key, e);
    } catch (const std::exception& e) {
        if (!quiet)
            showMessage(this, MessageKind::Error, tr("Cannot use this model"),
                        QString::fromStdString(e.what()));
    }
    return std::nullopt;
}

void FitInputs::showModelError(const QString& key, const ModelConfigError& error) {
    const QString field = QString::fromStdString(error.field());
    const QString what = QString::fromStdString(error.what());
    showMessage(this, MessageKind::Error, tr("Cannot use this model"),
                field.isEmpty()
                    ? tr("%1 cannot be used.\n\n%2").arg(QDir::toNativeSeparators(key), what)
                    : tr("%1 cannot be used because of its field %2.\n\n%3")
                          .arg(QDir::toNativeSeparators(key), field, what));
}

bool FitInputs::openConfig(const QString& path) {
    const std::optional<ModelDescription> description = model(path, false);
    if (!description) return false;
    int index = m_model->findData(path);
    if (index < 0) {
        index = m_model->count() - 1;  // before "Open config…"
        m_model->insertItem(index, QFileInfo(path).fileName(), path);
        m_model->setItemData(index, QDir::toNativeSeparators(path), Qt::ToolTipRole);
    }
    m_model->setCurrentIndex(index);
    m_lastModel = index;
    return true;
}

std::int64_t FitInputs::capacity() const {
    const qlonglong preset = m_capacity->currentData().toLongLong();
    if (preset != kCustomCapacity) return preset;
    return std::int64_t(std::llround(m_customGB->value() * 1e9));
}

std::optional<FitRequest> FitInputs::request() {
    const QString key = m_model->currentData().toString();
    if (key.isEmpty()) {
        showMessage(this, MessageKind::Information, tr("No model"),
                    tr("Choose a model, or open a model's config.json."));
        return std::nullopt;
    }
    const std::optional<ModelDescription> description = model(key, false);
    if (!description) return std::nullopt;
    FitRequest request;
    request.model = key;
    applyModel(*description, request.config);
    request.config.seq = m_seq->value();
    request.config.batch = m_batch->value();
    request.config.dtype = comboValue<DType>(m_precision);
    request.config.optimizer = comboValue<Optimizer>(m_optimizer);
    const std::vector<FieldError> errors = validate(request.config);
    if (!errors.empty()) {
        QStringList lines;
        for (const FieldError& error : errors) lines << fieldErrorText(error);
        showMessage(this, MessageKind::Error, tr("Cannot use this model"),
                    lines.join(QLatin1Char('\n')));
        return std::nullopt;
    }
    request.capacity = capacity();
    request.strategies = fullSizeStrategies(request.config);
    return request;
}

void FitInputs::setRequest(const FitRequest& request) {
    int index = m_model->findData(request.model);
    if (index < 0 && !request.model.isEmpty()) {  // a file opened in the panel before
        index = m_model->count() - 1;
        m_model->insertItem(index, QFileInfo(request.model).fileName(), request.model);
        m_model->setItemData(index, QDir::toNativeSeparators(request.model), Qt::ToolTipRole);
    }
    if (index >= 0) m_model->setCurrentIndex(index);
    m_lastModel = m_model->currentIndex();
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
