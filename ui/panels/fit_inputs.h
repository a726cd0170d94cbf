#pragma once
// What "Will it fit?" asks for: a model (a preset of resources/models, or a config.json opened
// here), the sequence and batch, the precision, the optimizer and the GPU's capacity (a preset
// with its example GPUs, or a custom size in GB).

#include <QMap>
#include <QString>
#include <QWidget>
#include <optional>

#include "ckptlab/model_config.h"
#include "controllers/fit_worker.h"

class QComboBox;
class QSpinBox;

namespace ckptlab::ui {

class DecimalSpinBox;

class FitInputs : public QWidget {
    Q_OBJECT
public:
    explicit FitInputs(QWidget* parent = nullptr);

    // The request the fields describe, the model applied (applyModel) and the fields over it;
    // nullopt with a message shown when the model cannot be loaded or the config is refused.
    std::optional<FitRequest> request();
    // Shows a request again (the panel rebuilt after a language switch).
    void setRequest(const FitRequest& request);

    // Loads a Hugging Face config.json, adds it to the model list and selects it. False with a
    // message naming the field when the file cannot be used.
    bool openConfig(const QString& path);

    // The capacity chosen, in bytes (a preset's, or the custom size's).
    std::int64_t capacity() const;

private:
    void onModelActivated(int index);
    void onModelChanged();
    // Loads the model of the item (a preset's name or a file's path), caching it.
    std::optional<ModelDescription> model(const QString& key, bool quiet);
    void showModelError(const QString& key, const ModelConfigError& error);

    QComboBox* m_model;
    QSpinBox* m_seq;
    QSpinBox* m_batch;
    QComboBox* m_precision;
    QComboBox* m_optimizer;
    QComboBox* m_capacity;
    DecimalSpinBox* m_customGB;
    int m_lastModel = 0;  // the selection before "Open config…" was picked
    QMap<QString, ModelDescription> m_models;
};

}  // namespace ckptlab::ui
