#include "controllers/prediction_worker.h"

#include <QElapsedTimer>
#include <algorithm>

#include "ckptlab/model/config_fields.h"
#include "document/core_text.h"

namespace ckptlab::ui {

namespace {

constexpr std::size_t kCachedShapes = 16;

}  // namespace

std::string costKey(const ExperimentConfig& c) {
    return fieldsKey(c, kChangesCost) + '|' + std::to_string(costMeasurementDepth(c));
}

void PredictionWorker::predict(quint64 job, const ExperimentConfig& config,
                               const std::vector<Strategy>& strategies, CancelFlag cancel) {
    LivePrediction result;
    result.config = config;
    try {
        const std::string key = costKey(config);
        auto cached = m_cache.find(key);
        double measureMs = 0;
        if (cached == m_cache.end()) {
            // The runner's measurement of the same config: the same block, repeats and chain
            // for the kept-block backward.
            QElapsedTimer clock;
            clock.start();
            CostModel block = measureCostModel(config, cancel.get());
            measureMs = double(clock.nsecsElapsed()) / 1e6;
            if (m_cache.size() >= kCachedShapes)
                m_cache.clear();  // rarely reached; simpler than least-recently-used
            cached = m_cache.emplace(key, std::move(block)).first;
        }
        // Every block of the chain costs what the measured one did.
        result = livePrediction(costModelAtDepth(cached->second, config.depth), config, strategies);
        result.measure_ms = measureMs;
    } catch (const std::exception& e) {
        if (cancel && cancel->load()) {  // superseded: nobody waits for this one
            Q_EMIT done(job);
            return;
        }
        result.valid = false;
        // A core error in the user's language; LibTorch's with its first line only (c10::Error
        // puts a C++ backtrace after it).
        result.error = coreErrorText(e).section(QLatin1Char('\n'), 0, 0);
    }
    Q_EMIT predicted(job, result);
    Q_EMIT done(job);
}

}  // namespace ckptlab::ui
