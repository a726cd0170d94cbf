#include "document/settings.h"

#include <QDir>
#include <QFileInfo>
#include <QMainWindow>
#include <QSettings>
#include <optional>
#include <type_traits>

#include "ckptlab/model/config_fields.h"

namespace ckptlab::ui {

namespace {

QString folderKey(FolderKind kind) {
    switch (kind) {
    case FolderKind::Results: return QStringLiteral("folders/results");
    case FolderKind::Export: return QStringLiteral("folders/export");
    case FolderKind::Charts: return QStringLiteral("folders/charts");
    }
    return QStringLiteral("folders/other");
}

// A stored value as its field's type; nullopt when it does not read as one.
std::optional<FieldValue> fromSetting(const ConfigField& field, const QVariant& stored) {
    bool ok = false;
    switch (typeOf(field)) {
    case FieldType::Int: {
        const qlonglong v = stored.toLongLong(&ok);
        return ok ? std::optional<FieldValue>(static_cast<long long>(v)) : std::nullopt;
    }
    case FieldType::Seed: {
        const qulonglong v = stored.toULongLong(&ok);
        return ok ? std::optional<FieldValue>(static_cast<std::uint64_t>(v)) : std::nullopt;
    }
    case FieldType::Real: {
        const double v = stored.toDouble(&ok);
        return ok ? std::optional<FieldValue>(v) : std::nullopt;
    }
    case FieldType::Bool: return FieldValue(stored.toBool());
    case FieldType::Choice:
    case FieldType::Text: return FieldValue(stored.toString().toStdString());
    }
    return std::nullopt;
}

QVariant toSetting(const FieldValue& value) {
    return std::visit(
        [](const auto& v) -> QVariant {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, std::string>)
                return QString::fromStdString(v);
            else if constexpr (std::is_same_v<T, long long>)
                return qlonglong(v);
            else if constexpr (std::is_same_v<T, std::uint64_t>)
                return quint64(v);
            else
                return v;
        },
        value);
}

}  // namespace

ExperimentConfig Settings::lastConfig() const {
    QSettings s;
    s.beginGroup(QStringLiteral("config"));
    const ExperimentConfig defaults;  // for anything missing
    ExperimentConfig c;
    for (const ConfigField& field : configFields()) {
        const QVariant stored = s.value(QLatin1String(field.settings));
        if (!stored.isValid()) continue;
        const auto value = fromSetting(field, stored);
        if (!value || !setValue(field, c, *value)) return defaults;
    }
    // A hand-edited or stale file must not put the widgets out of range.
    return validate(c).empty() ? c : defaults;
}

void Settings::setLastConfig(const ExperimentConfig& c) {
    QSettings s;
    s.beginGroup(QStringLiteral("config"));
    for (const ConfigField& field : configFields())
        s.setValue(QLatin1String(field.settings), toSetting(valueOf(field, c)));
}

QStringList Settings::checkedStrategies() const {
    return QSettings().value("strategies/checked").toStringList();
}

void Settings::setCheckedStrategies(const QStringList& strategies) {
    QSettings().setValue("strategies/checked", strategies);
}

void Settings::saveWindow(const QMainWindow& window) {
    QSettings s;
    s.setValue("window/geometry", window.saveGeometry());
    s.setValue("window/state", window.saveState(kWindowStateVersion));
    s.setValue("window/stateVersion", kWindowStateVersion);
}

bool Settings::restoreWindow(QMainWindow& window) const {
    QSettings s;
    if (s.value("window/stateVersion", 0).toInt() != kWindowStateVersion) return false;
    const bool geometry = window.restoreGeometry(s.value("window/geometry").toByteArray());
    const bool state =
        window.restoreState(s.value("window/state").toByteArray(), kWindowStateVersion);
    return geometry && state;
}

bool Settings::projectorMode() const {
    return QSettings().value(QStringLiteral("view/projectorMode"), false).toBool();
}

void Settings::setProjectorMode(bool on) {
    QSettings().setValue(QStringLiteral("view/projectorMode"), on);
}

QString Settings::fitModel() const {
    return QSettings().value(QStringLiteral("fit/model")).toString();
}

void Settings::setFitModel(const QString& presetOrPath) {
    QSettings().setValue(QStringLiteral("fit/model"), presetOrPath);
}

QString Settings::lastFolder(FolderKind kind) const {
    const QString folder = QSettings().value(folderKey(kind)).toString();
    return !folder.isEmpty() && QDir(folder).exists() ? folder : QDir::homePath();
}

void Settings::setLastFolder(FolderKind kind, const QString& folderOrFile) {
    const QFileInfo info(folderOrFile);
    QSettings().setValue(folderKey(kind),
                         info.isDir() ? info.absoluteFilePath() : info.absolutePath());
}

}  // namespace ckptlab::ui
