#include "memory_estimate_label.h"

#include "ckptlab/estimate.h"
#include "ckptlab/runner.h"
#include "ckptlab/strategy.h"
#include "format.h"

namespace ckptlab::ui {

namespace {

std::int64_t estimateTotal(const ExperimentConfig& config, const std::string& strategy)
{
    const Strategy s = parseStrategy(strategy, config.depth, config.block);
    return estimateMemory(config, makePlan(s, config.depth)).total();
}

}  // namespace

MemoryForecast forecastMemory(const ExperimentConfig& config, const QStringList& strategies)
{
    MemoryForecast f;
    if (!validate(config).empty())
        return f;
    try {
        f.none = estimateTotal(config, "none");
        f.available = availableMemory(config.device);
    } catch (const std::exception&) {
        return f;
    }
    f.valid = true;
    std::vector<std::string> names;
    for (const QString& name : strategies) {
        try {
            const std::int64_t total = estimateTotal(config, name.toStdString());
            names.push_back(name.toStdString());
            if (total > f.largest) {
                f.largest = total;
                f.largestStrategy = name;
            }
        } catch (const std::exception&) {
            // The strategy list shows why; the window refuses to run it anyway.
        }
    }
    if (f.largestStrategy.isEmpty()) {
        f.largest = f.none;
        f.largestStrategy = QStringLiteral("none");
        names = {"none"};
    }
    try {
        Runner::check(config, names);
    } catch (const MemoryError& e) {
        f.refused = true;
        f.refusal = QString::fromStdString(e.what());
        f.runnerPredicted = e.predicted;
    } catch (const std::exception&) {
        // Config and strategy errors are shown by the panels themselves.
    }
    return f;
}

MemoryEstimateLabel::MemoryEstimateLabel(QWidget* parent)
    : QLabel(parent)
{
    setObjectName(QStringLiteral("memoryEstimate"));
    setWordWrap(true);
    setTextFormat(Qt::RichText);
    setToolTip(tr("Predicted from the model's shape before anything runs: parameters, input, "
                  "optimizer state and the step's peak"));
}

void MemoryEstimateLabel::refresh(const ExperimentConfig& config, const QStringList& strategies)
{
    m_forecast = forecastMemory(config, strategies);
    const MemoryForecast& f = m_forecast;
    if (!f.valid) {
        setText(tr("Memory needed: — (fix the parameters)"));
        setStyleSheet({});
        return;
    }
    QString text = tr("Memory needed: <b>%1</b> without checkpointing").arg(formatBytes(f.none));
    if (f.largestStrategy != QLatin1String("none"))
        text += tr(", <b>%1</b> for the largest checked (%2)")
                    .arg(formatBytes(f.largest), f.largestStrategy.toHtmlEscaped());
    text += tr("; %1 available.").arg(formatBytes(f.available));
    if (f.refused)
        text = QStringLiteral("⚠ ") + text
            + tr("<br><b>Cannot fit:</b> with the reference copies the runner keeps, the sweep "
                 "needs %1. It will be refused.")
                  .arg(formatBytes(f.runnerPredicted));
    else if (f.nearLimit())
        text = QStringLiteral("⚠ ") + text + tr("<br>Close to the limit: the system may swap.");
    setText(text);
    // Tinted grounds read as warnings in light and dark themes alike.
    if (f.refused)
        setStyleSheet(QStringLiteral("QLabel { color: #a51d2d; background: #fde2e1; "
                                     "border-radius: 3px; padding: 3px; }"));
    else if (f.nearLimit())
        setStyleSheet(QStringLiteral("QLabel { color: #865e00; background: #fdf1cf; "
                                     "border-radius: 3px; padding: 3px; }"));
    else
        setStyleSheet({});
}

}  // namespace ckptlab::ui
