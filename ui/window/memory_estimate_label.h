#pragma once
// Shows, live, the memory the config needs without checkpointing and for the largest checked
// strategy, against what the device has; amber near the limit, red when the runner would
// refuse the sweep.

#include <QLabel>
#include <QStringList>
#include <cstdint>

#include "ckptlab/config.h"

namespace ckptlab::ui {

struct MemoryForecast {
    bool valid = false;             // false when the config is invalid
    std::int64_t none = 0;          // estimate without checkpointing
    std::int64_t largest = 0;       // estimate of the hungriest checked strategy
    QString largestStrategy;
    std::int64_t available = 0;
    // Runner::check's verdict: it refuses a sweep whose prediction (which also counts the
    // reference weights and gradients it keeps) exceeds the available memory.
    bool refused = false;
    QString refusal;
    std::int64_t runnerPredicted = 0;

    bool fits() const { return !refused; }
    // Close enough to the limit that the system may start swapping.
    bool nearLimit() const { return valid && available > 0 && largest > available * 3 / 4; }
};

// Pure computation (estimates only, nothing runs); also used by the window before a sweep.
MemoryForecast forecastMemory(const ExperimentConfig& config, const QStringList& strategies);

class MemoryEstimateLabel : public QLabel {
    Q_OBJECT
public:
    explicit MemoryEstimateLabel(QWidget* parent = nullptr);

    const MemoryForecast& forecast() const { return m_forecast; }

public Q_SLOTS:
    void refresh(const ckptlab::ExperimentConfig& config, const QStringList& strategies);

private:
    MemoryForecast m_forecast;
};

}  // namespace ckptlab::ui
