#pragma once
// Several results files on one chart (the app's multi-file view): each run is drawn under the
// name "<strategy> · <machine>", so the legend names the file's machine. This restyles a
// builder's chart so the files read as groups at a glance: a strategy keeps its colour in every
// file (a darker or lighter shade per file), and each file has its own marker shape and line
// style. The measured Pareto frontier is left out, since across machines it would mix them.

#include <QColor>
#include <QCoreApplication>
#include <QScatterSeries>
#include <QString>
#include <QStringList>
#include <vector>

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace ckptlab::ui {

class SourceText {
    Q_DECLARE_TR_FUNCTIONS(SourceText)
};

// One results file as the charts see it.
struct ChartSource {
    QString label;           // its machine ("AMD EPYC (cpu)"), with its file's stem if needed
    QStringList strategies;  // its runs' plain strategies, first appearance first (strategyOrder)
};

// "none · AMD EPYC (cpu)": a run's name on the charts when several files are open.
QString sourcedStrategyName(const QString& strategy, const QString& label);

// Marker shape, line style and shade of the n-th file (0 is the builders' own look).
QScatterSeries::MarkerShape sourceMarkerShape(int source);
Qt::PenStyle sourcePenStyle(int source);
QColor sourceShade(const QColor& color, int source);

// Restyles every series of `chart` whose strategy (or name) is a sourced name of `sources`.
void styleSourceGroups(QChart* chart, const std::vector<ChartSource>& sources);

}  // namespace ckptlab::ui
