#pragma once
// The one place that reads and writes QSettings: last config, checked strategies, window
// geometry and state, and the folders last used for each kind of file.

#include <QByteArray>
#include <QString>
#include <QStringList>

#include "ckptlab/model/config.h"

class QMainWindow;

namespace ckptlab::ui {

enum class FolderKind { Results, Export, Charts };

class Settings {
public:
    // Bump when docks or toolbars change, so an old saved layout is not restored onto them.
    static constexpr int kWindowStateVersion = 1;

    // Every config field under "config/<its settings key>" (config_fields.h). Missing keys read
    // as the defaults; a value that does not read or validate makes the whole config default.
    ExperimentConfig lastConfig() const;
    void setLastConfig(const ExperimentConfig& config);

    // Strategies checked in the list; custom ones among them are added back on restore.
    QStringList checkedStrategies() const;
    void setCheckedStrategies(const QStringList& strategies);

    void saveWindow(const QMainWindow& window);
    // False when nothing or an older layout version was saved.
    bool restoreWindow(QMainWindow& window) const;

    // View → Projector mode (base/projector_mode.h); off when never set.
    bool projectorMode() const;
    void setProjectorMode(bool on);

    // "Will it fit?"'s model: a preset's name or a config.json's path; empty when never chosen.
    QString fitModel() const;
    void setFitModel(const QString& presetOrPath);

    // Falls back to the user's home folder.
    QString lastFolder(FolderKind kind) const;
    void setLastFolder(FolderKind kind, const QString& folderOrFile);
};

}  // namespace ckptlab::ui
