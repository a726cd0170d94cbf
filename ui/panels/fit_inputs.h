#pragma once
// What "Will it fit?" asks for: a model (a preset of resources/models, or a config.json opened
// here), the sequence and batch, the precision, the optimizer and the GPU's capacity (a preset
// with its example GPUs, or a custom size in GB).

#include <QString>
#include <QStringList>
#include <QWidget>
#include <optional>

#include "ckptlab/formats/model_config.h"
#include "controllers/fit_worker.h"

class QComboBox;
class QSpinBox;

namespace ckptlab::ui {

class DecimalSpinBox;
class Settings;

// What reading a model gave: its description, or why it cannot be used.
struct ModelRead {
    QString key;  // the preset's name or the file's path
    std::optional<ModelDescription> description;
    std::optional<ModelConfigError> error;  // with description empty
    std::string other;                      // any other failure's text
};

class FitInputs : public QWidget {
    Q_OBJECT
public:
    // `settings` (may be null) remembers the model chosen last; the panel opens on it, else on
    // the preset with the fewest parameters.
    explicit FitInputs(Settings* settings = nullptr, QWidget* parent = nullptr);

    // The request the fields describe over the model as last read; nullopt with a message
    // shown when there is no model, it is still being read, or it or the fields are refused.
    // The worker reads the model again at Plan (FitRequest::readModel).
    std::optional<FitRequest> request();
    // The same without messages: what the measuring check needs (nullopt: nothing to check).
    std::optional<ExperimentConfig> config() const;
    // Shows a request again (the panel rebuilt after a language switch).
    void setRequest(const FitRequest& request);

    // Reads a Hugging Face config.json on a worker thread (loadModel: regular files only, never
    // waiting on a pipe); once read, adds it to the model list and selects it. `opened` tells
    // how it ended; a file that cannot be used gets a message naming the field.
    void openConfig(const QString& path);

    // A model is being read (the selection's, a file opened, or the presets for the first
    // selection): what config() says may change.
    bool isReading() const { return m_reading || m_opening || m_catalogPending; }
    // Why the selected model cannot be used; empty when it can or while it is read.
    QString modelError() const { return m_modelError; }
    // The selected preset's name or file's path; empty for none.
    QString modelKey() const;

    // The capacity chosen, in bytes (a preset's, or the custom size's).
    std::int64_t capacity() const;

Q_SIGNALS:
    // Any field changed, or a model was read: what config() says may differ.
    void changed();
    void opened(bool ok);

private:
    // Why a model is read: picked (its precision becomes the default), shown again after a
    // rebuild (the fields stay), opened as a file, or the model chosen in an earlier session.
    enum class ReadFor { Choice, Restore, Open, Remembered };

    void onModelActivated(int index);
    void onModelChanged();
    // Reads `key` off this thread; what happens with it depends on `why` (onRead).
    void read(const QString& key, ReadFor why);
    void onRead(const ModelRead& read, ReadFor why, quint64 serial);
    // The presets' sizes are known: open on the smallest when nothing else was chosen.
    void onCatalog(const std::vector<ModelRead>& presets);
    // Selects `key` without reading it (a read that is under way or done gives it).
    void selectQuietly(const QString& key);
    void showModelError(const ModelRead& read);
    // The sequence, batch, precision and optimizer of the fields (fitConfig's choices).
    ExperimentConfig choices() const;

    Settings* m_settings;
    std::string m_executable;
    QComboBox* m_model;
    QSpinBox* m_seq;
    QSpinBox* m_batch;
    QComboBox* m_precision;
    QComboBox* m_optimizer;
    QComboBox* m_capacity;
    DecimalSpinBox* m_customGB;
    QStringList m_presets;
    int m_lastModel = -1;           // the selection before "Open config…" was picked
    bool m_selecting = false;       // a selection made here, not to be read again
    bool m_reading = false;         // the selection's latest read is under way
    bool m_opening = false;         // a file being opened is read
    bool m_catalogPending = false;  // the presets' sizes are not known yet
    quint64 m_serial = 0;           // the selection's latest read; older ones are dropped
    quint64 m_openSerial = 0;       // the latest file opened
    QString m_defaultKey;           // the smallest preset, once the presets are read
    // The selection as last read: no cache of anything by its name.
    QString m_readKey;
    std::optional<ModelDescription> m_read;
    QString m_modelError;
};

}  // namespace ckptlab::ui
