#include "document/settings.h"

#include <QDir>
#include <QFileInfo>
#include <QMainWindow>
#include <QSettings>

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

template <typename T>
T parsedOr(const std::optional<T>& parsed, T fallback) {
    return parsed ? *parsed : fallback;
}

}  // namespace

ExperimentConfig Settings::lastConfig() const {
    QSettings s;
    s.beginGroup(QStringLiteral("config"));
    const ExperimentConfig d;  // defaults for anything missing
    ExperimentConfig c;
    c.block = parsedOr(parseBlockKind(s.value("block").toString().toStdString()), d.block);
    c.depth = s.value("depth", d.depth).toInt();
    c.width = s.value("width", d.width).toInt();
    c.seq = s.value("seq", d.seq).toInt();
    c.batch = s.value("batch", d.batch).toInt();
    c.heads = s.value("heads", d.heads).toInt();
    c.dropout = s.value("dropout", d.dropout).toDouble();
    c.dtype = parsedOr(parseDType(s.value("dtype").toString().toStdString()), d.dtype);
    c.device = s.value("device", QString::fromStdString(d.device)).toString().toStdString();
    c.optimizer =
        parsedOr(parseOptimizer(s.value("optimizer").toString().toStdString()), d.optimizer);
    c.seed = s.value("seed", quint64(d.seed)).toULongLong();
    c.threads = s.value("threads", d.threads).toInt();
    c.warmup = s.value("warmup", d.warmup).toInt();
    c.repeats = s.value("repeats", d.repeats).toInt();
    c.repeats_auto = s.value("repeatsAuto", d.repeats_auto).toBool();
    c.time_limit_s = s.value("timeLimitS", d.time_limit_s).toDouble();
    c.memory_limit_mib = s.value("memoryLimitMib", d.memory_limit_mib).toDouble();
    c.keep_grads = s.value("keepGrads", d.keep_grads).toBool();
    // A hand-edited or stale file must not put the widgets out of range.
    return validate(c).empty() ? c : d;
}

void Settings::setLastConfig(const ExperimentConfig& c) {
    QSettings s;
    s.beginGroup(QStringLiteral("config"));
    s.setValue("block", QString::fromStdString(toString(c.block)));
    s.setValue("depth", c.depth);
    s.setValue("width", c.width);
    s.setValue("seq", c.seq);
    s.setValue("batch", c.batch);
    s.setValue("heads", c.heads);
    s.setValue("dropout", c.dropout);
    s.setValue("dtype", QString::fromStdString(toString(c.dtype)));
    s.setValue("device", QString::fromStdString(c.device));
    s.setValue("optimizer", QString::fromStdString(toString(c.optimizer)));
    s.setValue("seed", quint64(c.seed));
    s.setValue("threads", c.threads);
    s.setValue("warmup", c.warmup);
    s.setValue("repeats", c.repeats);
    s.setValue("repeatsAuto", c.repeats_auto);
    s.setValue("timeLimitS", c.time_limit_s);
    s.setValue("memoryLimitMib", c.memory_limit_mib);
    s.setValue("keepGrads", c.keep_grads);
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
