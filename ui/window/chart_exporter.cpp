#include "window/chart_exporter.h"

#include <QAction>
#include <QChart>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <memory>

#include "base/messages.h"
#include "charts/chart_export.h"
#include "charts/chart_style.h"
#include "charts/schedule_diagram.h"
#include "ckptlab/formats/output_paths.h"
#include "document/results_document.h"
#include "document/settings.h"
#include "panels/charts_panel.h"

namespace ckptlab::ui {

namespace {

QString suffixFor(ChartFormat format) {
    switch (format) {
    case ChartFormat::Png1x: return QStringLiteral(".png");
    case ChartFormat::Png2x: return QStringLiteral("@2x.png");
    case ChartFormat::Svg: return QStringLiteral(".svg");
    }
    return {};
}

}  // namespace

ChartExporter::ChartExporter(ChartsPanel* charts, ResultsDocument* document, Settings* settings,
                             QWidget* window)
    : QObject(window),
      m_charts(charts),
      m_document(document),
      m_settings(settings),
      m_window(window) {
    setObjectName(QStringLiteral("chartExporter"));
}

void ChartExporter::addActions(QMenu* menu) {
    const auto add = [&](const QString& text, ChartFormat format) {
        QAction* action = menu->addAction(text);
        connect(action, &QAction::triggered, this, [this, format] { exportCurrentDialog(format); });
        return action;
    };
    add(tr("Current Chart as &PNG…"), ChartFormat::Png1x);
    add(tr("Current Chart as PNG (&2×)…"), ChartFormat::Png2x);
    add(tr("Current Chart as &SVG…"), ChartFormat::Svg);
    menu->addSeparator();
    QAction* all = menu->addAction(tr("&All Charts to Folder…"));
    connect(all, &QAction::triggered, this, &ChartExporter::exportAllDialog);
}

QString ChartExporter::description() const {
    const ResultSet& results = m_document->results();
    if (results.runs.empty()) return {};
    return tr("%1; strategies: %2")
        .arg(describeConfig(results.runs.front().config),
             m_document->strategyNames().join(QStringLiteral(", ")));
}

bool ChartExporter::hasResults() const {
    if (!m_document->isEmpty()) return true;
    showMessage(m_window, MessageKind::Information, tr("Nothing to export"),
                tr("Run a sweep or open a results file first."));
    return false;
}

QString ChartExporter::refuseFile(const QString& path, const QString& title) const {
    return refuseUnwritableFile(m_window, path, title);
}

bool ChartExporter::exportChart(ChartKind kind, ChartFormat format, const QString& path) {
    if (isPainted(kind)) return exportSchedule(format, path);
    if (!refuseFile(path, tr("Cannot export chart")).isEmpty()) return false;
    const NormalLookScope look;             // files have the normal look (chart_style.h)
    QChart* chart = m_charts->chart(kind);  // none for a kind without a tab (scaling_time)
    std::unique_ptr<QChart> normal;
    if (!chart || look.wasProjector()) {  // the chart on screen has the projector's look
        normal.reset(m_charts->buildDetached(kind));
        chart = normal.get();
    }
    QString error;
    const bool ok = format == ChartFormat::Svg
                        ? exportChartSvg(chart, path, chartTitle(kind), description(), &error)
                        : exportChartPng(chart, path, format == ChartFormat::Png2x ? 2 : 1, &error);
    if (!ok) showMessage(m_window, MessageKind::Error, tr("Cannot export chart"), error);
    return ok;
}

QStringList ChartExporter::exportAll(const QString& folder) {
    QStringList written;
    QString why = undecodableNameText(folder);
    if (why.isEmpty())
        why =
            QString::fromStdString(checkOutputDir(QFile::encodeName(folder).toStdString(),
                                                  QDir::toNativeSeparators(folder).toStdString()));
    if (!why.isEmpty()) {
        showMessage(m_window, MessageKind::Error, tr("Cannot export charts"),
                    tr("Cannot export into %1.\n\n%2\n\nNothing was written.")
                        .arg(QDir::toNativeSeparators(folder), why));
        return written;
    }
    // Every target of an existing folder is checked before the first is written, so a name
    // taken by a folder or a read-only file does not stop the export half way.
    QStringList targets;
    for (const ChartEntry& entry : chartRegistry())
        if (m_charts->isAvailable(entry.kind)) targets << QLatin1String(entry.stem);
    if (QFileInfo(folder).isDir())
        for (const QString& stem : targets)
            for (const char* suffix : {".png", ".svg"})
                if (!refuseFile(QDir(folder).filePath(stem + QLatin1String(suffix)),
                                tr("Cannot export charts"))
                         .isEmpty())
                    return written;
    if (!QDir().mkpath(folder)) {
        showMessage(m_window, MessageKind::Error, tr("Cannot export charts"),
                    tr("Cannot create the folder %1.").arg(QDir::toNativeSeparators(folder)));
        return written;
    }
    // One file per format for each chart of the registry, as exportAllCharts writes them.
    for (const ChartEntry& entry : chartRegistry()) {
        if (!m_charts->isAvailable(entry.kind))
            continue;  // e.g. scaling, for results that are not a scaling sweep
        const QString base = QDir(folder).filePath(QLatin1String(entry.stem));
        for (ChartFormat format : {ChartFormat::Png2x, ChartFormat::Svg}) {
            const QString path = base + (format == ChartFormat::Svg ? QStringLiteral(".svg")
                                                                    : QStringLiteral(".png"));
            if (!exportChart(entry.kind, format, path)) return written;
            written << path;
        }
    }
    return written;
}

bool ChartExporter::exportSchedule(ChartFormat format, const QString& path) {
    if (!refuseFile(path, tr("Cannot export the schedules")).isEmpty()) return false;
    const NormalLookScope look;  // files have the normal look (chart_style.h)
    QString error;
    const ResultSet& results = m_document->results();
    const bool ok =
        format == ChartFormat::Svg
            ? exportScheduleSvg(results, path, description(), &error)
            : exportSchedulePng(results, path, format == ChartFormat::Png2x ? 2 : 1, &error);
    if (!ok) showMessage(m_window, MessageKind::Error, tr("Cannot export the schedules"), error);
    return ok;
}

void ChartExporter::exportCurrentDialog(ChartFormat format) {
    if (!hasResults()) return;
    const QString filter = format == ChartFormat::Svg ? tr("SVG (*.svg)") : tr("PNG (*.png)");
    const ChartKind kind = m_charts->currentKind();
    const QString suggested = m_settings->lastFolder(FolderKind::Charts) + QLatin1Char('/') +
                              chartFileStem(kind) + suffixFor(format);
    QString path = QFileDialog::getSaveFileName(m_window, tr("Export %1").arg(chartTitle(kind)),
                                                suggested, filter);
    if (path.isEmpty()) return;
    if (QFileInfo(path).suffix().isEmpty())
        path += format == ChartFormat::Svg ? QStringLiteral(".svg") : QStringLiteral(".png");
    m_settings->setLastFolder(FolderKind::Charts, path);
    exportChart(kind, format, path);
}

void ChartExporter::exportAllDialog() {
    if (!hasResults()) return;
    const QString folder =
        QFileDialog::getExistingDirectory(m_window, tr("Export all charts (PNG 2× and SVG) into"),
                                          m_settings->lastFolder(FolderKind::Charts));
    if (folder.isEmpty()) return;
    m_settings->setLastFolder(FolderKind::Charts, folder);
    const QStringList written = exportAll(folder);
    if (!written.isEmpty())
        showMessage(
            m_window, MessageKind::Information, tr("Charts exported"),
            tr("Wrote %1 files to %2.").arg(written.size()).arg(QDir::toNativeSeparators(folder)));
}

}  // namespace ckptlab::ui
