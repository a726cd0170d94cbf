// The schedule diagram as PNG and SVG files, at the charts' export width.
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QSvgGenerator>

#include "charts/chart_builders.h"
#include "charts/chart_export.h"
#include "charts/chart_style.h"
#include "charts/schedule_diagram.h"

namespace ckptlab::ui {

namespace {

bool fail(QString* error, const QString& message) {
    if (error) *error = message;
    return false;
}

}  // namespace

bool exportSchedulePng(const ResultSet& results, const QString& path, int scale, QString* error) {
    if (scale != 1 && scale != 2) return fail(error, ChartText::tr("PNG scale must be 1 or 2."));
    const ScheduleDiagram diagram(scheduleRows(results), strategyOrder(results));
    const QSizeF size(kExportSize.width(), diagram.heightFor(kExportSize.width()));
    QImage image((size * scale).toSize(), QImage::Format_ARGB32_Premultiplied);
    if (image.isNull()) return fail(error, ChartText::tr("Could not allocate the image."));
    image.setDevicePixelRatio(scale);
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        diagram.paint(painter, QRectF(QPointF(0, 0), size), -1, Qt::black);
    }
    if (!image.save(path, "PNG"))
        return fail(error,
                    ChartText::tr("Could not write %1.").arg(QFileInfo(path).absoluteFilePath()));
    return true;
}

bool exportScheduleSvg(const ResultSet& results, const QString& path, const QString& description,
                       QString* error) {
    {
        QFile probe(path);
        if (!probe.open(QIODevice::WriteOnly))
            return fail(error, ChartText::tr("Could not write %1: %2")
                                   .arg(QFileInfo(path).absoluteFilePath(), probe.errorString()));
    }
    const ScheduleDiagram diagram(scheduleRows(results), strategyOrder(results));
    const QSizeF size(kExportSize.width(), diagram.heightFor(kExportSize.width()));
    QSvgGenerator generator;
    generator.setFileName(path);
    generator.setSize(size.toSize());
    generator.setViewBox(QRectF(QPointF(0, 0), size));
    generator.setTitle(chartTitle(ChartKind::Schedule).toHtmlEscaped());
    generator.setDescription(description.toHtmlEscaped());  // Qt 6.4 does not escape it
    {
        QPainter painter(&generator);
        painter.fillRect(QRectF(QPointF(0, 0), size), Qt::white);
        diagram.paint(painter, QRectF(QPointF(0, 0), size), -1, Qt::black);
    }
    return true;
}

}  // namespace ckptlab::ui
