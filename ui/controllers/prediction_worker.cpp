#include "controllers/prediction_worker.h"

#include <QElapsedTimer>
#include <algorithm>

namespace ckptlab::ui {

namespace {

constexpr std::size_t kCachedShapes = 16;

}  // namespace

std::string costKey(const ExperimentConfig& c) {
    return toString(c.block) + '|' + std::to_string(c.width) + '|' + std::to_string(c.seq) + '|' +
           std::to_string(c.batch) + '|' + std::to_string(c.heads) + '|' +
           std::to_string(c.dropout) + '|' + toString(c.dtype) + '|' + c.device + '|' +
           toString(c.optimizer) + '|' + std::to_string(c.seed) + '|' + std::to_string(c.threads) +
           '|' + std::to_string(c.warmup) + '|' + std::to_string(c.repeats);
}

void PredictionWorker::predict(quint64 job, const ExperimentConfig& config,
                               const QStringList& strategies, CancelFlag cancel) {
    LivePrediction result;
    result.config = config;
    try {
        const std::string key = costKey(config);
        auto cached = m_cache.find(key);
        double measureMs = 0;
        if (cached == m_cache.end()) {
            ExperimentConfig one = config;
            one.depth = 1;
            QElapsedTimer clock;
            clock.start();
            CostModel block = measureCostModel(one, cancel.get());
            measureMs = double(clock.nsecsElapsed()) / 1e6;
            if (m_cache.size() >= kCachedShapes)
                m_cache.clear();  // rarely reached; simpler than least-recently-used
            cached = m_cache.emplace(key, std::move(block)).first;
        }
        // Every block of the chain costs what the measured one did.
        CostModel chain = cached->second;
        chain.units.clear();
        for (int b = 0; b < config.depth; ++b)
            chain.units.insert(chain.units.end(), cached->second.units.begin(),
                               cached->second.units.end());
        result = forecastFromCosts(chain, config, strategies);
        result.measure_ms = measureMs;
    } catch (const std::exception& e) {
        if (cancel && cancel->load()) return;  // superseded: nobody waits for this one
        result.valid = false;
        result.error = QString::fromStdString(e.what()).section(QLatin1Char('\n'), 0, 0);
    }
    Q_EMIT predicted(job, result);
}

}  // namespace ckptlab::ui
