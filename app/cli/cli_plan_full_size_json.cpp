// plan --capacity --json: the full-size plan with every byte, for scripts. The object is core's
// (full_size_record.h), the one a lesson's plan step records.
#include "ckptlab/formats/full_size_files.h"
#include "cli_plan_full_size.h"

namespace ckptlab::cli {

std::string fullSizePlanJson(const FullSizePlan& plan, const CostFit& fit,
                             const std::string& modelName, std::int64_t parameters,
                             const std::string& timesLabel,
                             const std::optional<MachineTimeScale>& scale) {
    std::optional<FullSizeTimeScale> scaled;
    if (scale)
        scaled = FullSizeTimeScale{scale->machine,
                                   scale->ratio,
                                   scale->measured_none_ms,
                                   scale->predicted_none_ms,
                                   scale->batch,
                                   scale->seq,
                                   scale->depth};
    return ckptlab::fullSizePlanJson(
        recordOf(plan, fit, modelName, parameters, timesLabel, scaled));
}

}  // namespace ckptlab::cli
