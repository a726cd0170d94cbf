// PNG and SVG files of one chart, and the one-line config text SVGs carry.
#include "charts/chart_export.h"

#include <QApplication>
#include <QChart>
#include <QFile>
#include <QFileInfo>
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QScreen>
#include <QSvgGenerator>

#include "base/config_field_text.h"
#include "charts/chart_render.h"
#include "charts/chart_style.h"
#include "ckptlab/model/config_fields.h"

namespace ckptlab::ui {

namespace {

bool fail(QString* error, const QString& message) {
    if (error) *error = message;
    return false;
}

bool checkCanRender(QChart* chart, QString* error) {
    if (!chart) return fail(error, ChartText::tr("No chart to export."));
    // Charts are widgets: they need fonts and styles that only a QApplication provides.
    if (!qobject_cast<QApplication*>(QCoreApplication::instance()))
        return fail(error, ChartText::tr("Exporting charts needs a QApplication."));
    return true;
}

// The DPI text was laid out for; the SVG must use the same or fonts change size in it.
int layoutDpi() {
    const QScreen* screen = QGuiApplication::primaryScreen();
    return screen ? qRound(screen->logicalDotsPerInch()) : 96;
}

}  // namespace

bool exportChartPng(QChart* chart, const QString& path, int scale, QString* error) {
    if (!checkCanRender(chart, error)) return false;
    if (scale != 1 && scale != 2) return fail(error, ChartText::tr("PNG scale must be 1 or 2."));
    const QSizeF size(kExportSize);
    QImage image((size * scale).toSize(), QImage::Format_ARGB32_Premultiplied);
    if (image.isNull()) return fail(error, ChartText::tr("Could not allocate the image."));
    image.setDevicePixelRatio(scale);  // paint in logical units, get scale× the pixels
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing |
                               QPainter::SmoothPixmapTransform);
        renderChart(chart, &painter, size);
    }
    // Tell viewers the 2× image is a high-DPI copy of the same picture, not a bigger one.
    const int dotsPerMeter = qRound(layoutDpi() / 0.0254 * scale);
    image.setDotsPerMeterX(dotsPerMeter);
    image.setDotsPerMeterY(dotsPerMeter);
    if (!image.save(path, "PNG"))
        return fail(error,
                    ChartText::tr("Could not write %1.").arg(QFileInfo(path).absoluteFilePath()));
    return true;
}

bool exportChartSvg(QChart* chart, const QString& path, const QString& title,
                    const QString& description, QString* error) {
    if (!checkCanRender(chart, error)) return false;
    const QSizeF size(kExportSize);
    {
        // Fail early with a clear message: QSvgGenerator only warns when it cannot write.
        QFile probe(path);
        if (!probe.open(QIODevice::WriteOnly))
            return fail(error, ChartText::tr("Could not write %1: %2")
                                   .arg(QFileInfo(path).absoluteFilePath(), probe.errorString()));
    }
    QSvgGenerator generator;
    generator.setFileName(path);
    generator.setSize(size.toSize());
    generator.setViewBox(QRectF(QPointF(0, 0), size));
    generator.setResolution(layoutDpi());
    // Qt 6.4 writes both unescaped: a run named "</svg>" would end the document.
    generator.setTitle(title.toHtmlEscaped());
    generator.setDescription(description.toHtmlEscaped());
    QPainter painter;
    if (!painter.begin(&generator))
        return fail(error, ChartText::tr("Could not start writing %1.").arg(path));
    painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    renderChart(chart, &painter, size);
    painter.end();
    return true;
}

QString describeConfig(const ExperimentConfig& c) {
    // Every field the registry shows (ckptlab::describeConfig), derived values resolved, each
    // under its translated label: a field added to the registry appears here without an edit.
    QStringList parts;
    for (const DescribedField& d : ckptlab::describeConfig(c, kShownAll)) {
        const QString label = configFieldLabel(d.field->key);
        if (typeOf(*d.field) != FieldType::Bool)
            parts << ChartText::tr("%1 %2", "a config field's label and its value")
                         .arg(label, QString::fromStdString(d.value));
        else if (d.value == "true")  // a switch that is on; one that is off says nothing
            parts << label;
    }
    return parts.join(QStringLiteral(", "));
}

}  // namespace ckptlab::ui
