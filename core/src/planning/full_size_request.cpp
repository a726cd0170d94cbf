// The one check of a full-size request (full_size.h), before anything is measured.
#include "ckptlab/planning/full_size.h"
#include "ckptlab/planning/sweep_check.h"

namespace ckptlab {

FullSizeCheck checkFullSize(const FullSizeRequest& request) {
    using Verdict = FullSizeCheck::Verdict;
    FullSizeCheck check;
    check.config_errors = validate(request.config);
    if (!check.config_errors.empty()) {
        check.verdict = Verdict::InvalidConfig;
        check.problem = check.config_errors.front().message;
        return check;
    }
    const ExperimentConfig& c = request.config;
    if (request.strategies.empty()) {
        check.strategies = fullSizeStrategies(c);
        return check;
    }
    for (const Strategy& strategy : request.strategies) {
        try {
            checkStrategy(strategy, c.depth, c.block);
        } catch (const StrategyError& e) {
            check.verdict = Verdict::InvalidStrategy;
            check.problem = e.message;
            return check;
        }
    }
    // As sweep and the plan's reader refuse them: two rows of one name cannot be told apart.
    if (std::optional<CoreMessage> twice = duplicateStrategyError(request.strategies)) {
        check.verdict = Verdict::StrategyListedTwice;
        check.problem = std::move(twice);
        return check;
    }
    check.strategies = request.strategies;
    return check;
}

}  // namespace ckptlab
