#include "panels/memory_estimate_label.h"

#include "ckptlab/engine/runner.h"
#include "ckptlab/model/summary.h"
#include "document/format.h"

namespace ckptlab::ui {

MemoryForecast toMemoryForecast(const FitForecast& fit) {
    MemoryForecast f;
    f.valid = fit.valid;
    if (!fit.valid) return f;
    f.none = fit.none;
    f.baseline = fit.baseline;
    f.largest = fit.largest;
    f.largestStrategy = QString::fromStdString(fit.largestStrategy.name());
    f.largestIsBaseline = fit.largestIsBaseline;
    f.largestIsBound = fit.largestIsBound;
    f.available = fit.available;
    f.refused = fit.refused;
    f.runnerPredicted = fit.runnerPredicted;
    return f;
}

MemoryForecast forecastMemory(const ExperimentConfig& config,
                              const std::vector<Strategy>& strategies) {
    // Only a valid config asks the device.
    const std::int64_t available = validate(config).empty() ? availableMemory(config.device) : 0;
    return toMemoryForecast(forecastFit(config, strategies, available));
}

MemoryEstimateLabel::MemoryEstimateLabel(QWidget* parent) : QLabel(parent) {
    setObjectName(QStringLiteral("memoryEstimate"));
    setWordWrap(true);
    setTextFormat(Qt::RichText);
}

bool MemoryEstimateLabel::refresh(const ExperimentConfig& config,
                                  const std::vector<Strategy>& strategies) {
    m_forecast = forecastMemory(config, strategies);
    m_config = config;
    m_strategies = strategies;
    render();
    publish();
    return m_forecast.valid && m_forecast.fits();
}

void MemoryEstimateLabel::publish() {
    // Measuring a block allocates it: only configs the runner would accept are measured.
    static const LivePrediction nothing;  // blank cells: nothing will be measured
    const bool measurable = m_forecast.valid && m_forecast.fits();
    if (measurable)
        Q_EMIT forecastShown(shownPrediction(), capacityAboveStart());
    else
        Q_EMIT forecastShown(&nothing, 0);
}

void MemoryEstimateLabel::setMeasuring() {
    m_measuring = true;
    render();
}

void MemoryEstimateLabel::setPrediction(const LivePrediction& prediction) {
    m_measuring = false;
    m_prediction = prediction;
    render();
    Q_EMIT forecastShown(shownPrediction(), capacityAboveStart());
}

const LivePrediction* MemoryEstimateLabel::shownPrediction() const {
    // The same step (summary.h): every field of the work and the machine, not the sampling.
    const bool current = m_prediction.valid && sameStep(m_prediction.config, m_config);
    return current ? &m_prediction : nullptr;
}

std::int64_t MemoryEstimateLabel::capacityAboveStart() const {
    if (!(m_config.memory_limit_mib > 0) || !m_forecast.valid) return 0;
    const double limit = m_config.memory_limit_mib * 1024.0 * 1024.0;
    const double left = limit - double(m_forecast.baseline);
    return left >= 1 ? std::int64_t(left) : 1;
}

QStringList MemoryEstimateLabel::predictedOverLimit() const {
    QStringList over;
    const std::int64_t capacity = capacityAboveStart();
    const LivePrediction* p = shownPrediction();
    if (capacity <= 0 || !p) return over;
    for (const Strategy& strategy : m_strategies) {
        const StrategyForecast* f = p->find(strategy);
        if (f && f->ok && f->peak_bytes > capacity) over << QString::fromStdString(strategy.name());
    }
    return over;
}

// The memory limit against the forecast: which checked strategies are predicted to run out.
// Never a reason to refuse Run: watching a strategy fail under the limit is the point.
QString MemoryEstimateLabel::limitText(const LivePrediction* p) const {
    const std::int64_t capacity = capacityAboveStart();
    if (capacity <= 0) return {};
    const QString limit = formatBytes(std::int64_t(m_config.memory_limit_mib * 1024.0 * 1024.0));
    if (capacity <= 1)
        return tr("<br>Memory limit %1: parameters, input and optimizer state alone (%2) do not "
                  "fit, so every run will run out of memory.")
            .arg(limit, formatBytes(m_forecast.baseline));
    QString text =
        tr("<br>Memory limit %1 leaves %2 for the step.").arg(limit, formatBytes(capacity));
    if (!p) return text;
    const QStringList over = predictedOverLimit();
    QStringList escaped;
    for (const QString& name : over)
        escaped << QStringLiteral("<b>%1</b>").arg(name.toHtmlEscaped());
    if (!over.isEmpty())
        text += QLatin1Char(' ') +
                tr("Predicted to run out of memory: %1; they will fail where they pass it and the "
                   "others go on.")
                    .arg(escaped.join(QStringLiteral(", ")));
    else
        text += QLatin1Char(' ') + tr("Every checked strategy is predicted to fit.");
    if (p->minimum_peak > capacity) text += QLatin1Char(' ') + tr("No schedule fits under it.");
    return text;
}

QString MemoryEstimateLabel::measuredText(const LivePrediction& p) const {
    QString text = tr("Predicted peak: <b>%1</b> without checkpointing (step ≈ %2 ms)")
                       .arg(formatBytes(p.none_peak))
                       .arg(p.none_ms, 0, 'f', 0);
    const StrategyForecast* largest = nullptr;
    for (const Strategy& strategy : m_strategies) {
        const StrategyForecast* f = p.find(strategy);
        if (f && f->ok && !isBaseline(strategy) &&
            (!largest || f->peak_bytes > largest->peak_bytes))
            largest = f;
    }
    if (largest)
        text += tr(", <b>%1</b> for the largest checked (%2)")
                    .arg(formatBytes(largest->peak_bytes),
                         QString::fromStdString(largest->strategy.name()).toHtmlEscaped());
    text += tr("; no schedule goes below %1.").arg(formatBytes(p.minimum_peak));
    text += tr("<br>Plus %1 of parameters, input and optimizer state; %2 available.")
                .arg(formatBytes(m_forecast.baseline), formatBytes(m_forecast.available));
    text += limitText(&p);
    return text;
}

void MemoryEstimateLabel::render() {
    const MemoryForecast& f = m_forecast;
    if (!f.valid) {
        setText(tr("Memory needed: — (fix the parameters)"));
        setToolTip({});
        setStyleSheet({});
        return;
    }
    QString text;
    if (const LivePrediction* p = shownPrediction()) {
        text = measuredText(*p);
        if (m_measuring) text += tr(" <i>(updating…)</i>");
        setToolTip(tr("Replayed from the measured costs of one block (%1 this model's shape), "
                      "the same cost model the runner reports beside each measurement:\n%2")
                       .arg(p->measure_ms > 0
                                ? tr("measured in %1 ms for").arg(p->measure_ms, 0, 'f', 0)
                                : tr("cached for"),
                            p->blockCosts));
    } else {
        text = tr("Rough estimate: <b>%1</b> without checkpointing").arg(formatBytes(f.none));
        if (!f.largestIsBaseline)
            text += (f.largestIsBound
                         ? tr(", at most <b>%1</b> for the largest checked (%2, its budget)")
                         : tr(", <b>%1</b> for the largest checked (%2)"))
                        .arg(formatBytes(f.largest), f.largestStrategy.toHtmlEscaped());
        text += tr("; %1 available.").arg(formatBytes(f.available));
        if (f.refused)
            text += tr(" <i>(not measured: it cannot fit)</i>");
        else if (m_measuring)
            text += tr(" <i>(measuring one block…)</i>");
        else if (!m_prediction.valid && !m_prediction.error.isEmpty())
            text +=
                tr("<br>Measuring one block failed: %1").arg(m_prediction.error.toHtmlEscaped());
        text += limitText(nullptr);
        setToolTip(
            tr("From the model's shape alone (conservative), until one block of it has "
               "been measured"));
    }
    if (f.refused)
        text = QStringLiteral("⚠ ") + text +
               tr("<br><b>Cannot fit:</b> with the reference copies the runner keeps, the sweep "
                  "needs %1. It will be refused.")
                   .arg(formatBytes(f.runnerPredicted));
    else if (f.nearLimit())
        text = QStringLiteral("⚠ ") + text + tr("<br>Close to the limit: the system may swap.");
    setText(text);
    // Tinted grounds read as warnings in light and dark themes alike.
    if (f.refused)
        setStyleSheet(
            QStringLiteral("QLabel { color: #a51d2d; background: #fde2e1; "
                           "border-radius: 3px; padding: 3px; }"));
    else if (f.nearLimit())
        setStyleSheet(
            QStringLiteral("QLabel { color: #865e00; background: #fdf1cf; "
                           "border-radius: 3px; padding: 3px; }"));
    else
        setStyleSheet({});
}

}  // namespace ckptlab::ui
