#pragma once
// Shows, live, the peak the config will reach without checkpointing and for the largest checked
// strategy, predicted from the measured costs of one block (the cost model), against what the
// device has; amber near the limit, red when the runner would refuse the sweep. Until the block
// is measured it shows the analytic estimate, marked as rough. The refusal itself stays
// analytic: it is the runner's own check and must be decided before anything is allocated.

#include <QLabel>
#include <QStringList>
#include <cstdint>

#include "ckptlab/model/config.h"
#include "ckptlab/planning/sweep_memory.h"
#include "controllers/live_prediction.h"

namespace ckptlab::ui {

struct MemoryForecast {
    bool valid = false;         // false when the config is invalid
    std::int64_t none = 0;      // estimate without checkpointing
    std::int64_t baseline = 0;  // parameters, input and optimizer state (exact)
    std::int64_t largest = 0;   // estimate of the hungriest checked strategy
    QString largestStrategy;
    bool largestIsBaseline = true;  // none is the hungriest: nothing else to name
    bool largestIsBound = false;    // `largest` is an optimal budget, an upper bound of its peak
    std::int64_t available = 0;
    // Runner::check's verdict: it refuses a sweep whose prediction (which also counts the
    // reference weights and gradients it keeps) exceeds the available memory.
    bool refused = false;
    std::int64_t runnerPredicted = 0;

    bool fits() const { return !refused; }
    // Close enough to the limit that the system may start swapping.
    bool nearLimit() const { return valid && available > 0 && largest > available * 3 / 4; }
};

// Core's forecastFit (sweep_memory.h) in the app's types.
MemoryForecast toMemoryForecast(const FitForecast& fit);
// forecastFit against the device's available memory (estimates only, nothing runs).
MemoryForecast forecastMemory(const ExperimentConfig& config,
                              const std::vector<Strategy>& strategies);

class MemoryEstimateLabel : public QLabel {
    Q_OBJECT
public:
    explicit MemoryEstimateLabel(QWidget* parent = nullptr);

    const MemoryForecast& forecast() const { return m_forecast; }

    // The measured forecast shown, when it is for the current parameters' step (sameStep in
    // summary.h: the work and the machine); else null.
    const LivePrediction* shownPrediction() const;

    // Bytes the memory limit leaves for the step above parameters, input and optimizer state;
    // 0 without a limit, and 1 when even those do not fit (every run will fail).
    std::int64_t capacityAboveStart() const;
    // Checked strategies the measured forecast predicts to pass the memory limit (they will
    // run out of memory; the sweep still runs them). Empty without a limit or a forecast.
    QStringList predictedOverLimit() const;

public Q_SLOTS:
    // New parameters: the analytic check now, the measured forecast when it comes.
    // Returns whether the config may be measured (valid, and the runner would accept it):
    // measuring a block allocates it.
    bool refresh(const ckptlab::ExperimentConfig& config,
                 const std::vector<ckptlab::Strategy>& strategies);
    void setMeasuring();
    void setPrediction(const ckptlab::ui::LivePrediction& prediction);

Q_SIGNALS:
    // After new parameters or a new forecast: the forecast shown for the current parameters
    // (null while it is being measured; a blank one when nothing will be measured) and the
    // bytes the memory limit leaves for the step. The strategy table follows it.
    void forecastShown(const ckptlab::ui::LivePrediction* shown, std::int64_t capacity);

private:
    void publish();
    void render();
    QString measuredText(const LivePrediction& p) const;
    QString limitText(const LivePrediction* p) const;

    MemoryForecast m_forecast;
    ExperimentConfig m_config;
    std::vector<Strategy> m_strategies;
    LivePrediction m_prediction;
    bool m_measuring = false;
};

}  // namespace ckptlab::ui
