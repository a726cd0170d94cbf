// A full-size plan's rows as CSV (full_size_record.h).
#include "ckptlab/formats/full_size_files.h"
#include "ckptlab/model/number_text.h"
#include "ckptlab/planning/full_size.h"
#include "formats/csv_cells.h"

namespace ckptlab {

std::vector<const StrategyAtSize*> fullSizeRows(const FullSizePlan& plan) {
    std::vector<const StrategyAtSize*> rows;
    for (const StrategyAtSize& s : plan.strategies) rows.push_back(&s);
    if (plan.fastest_at_size) rows.push_back(&*plan.fastest_at_size);
    return rows;
}

std::string fullSizePlanCsv(const FullSizePlan& plan) {
    std::string csv =
        "strategy,fastest_that_fits,allocated_bytes,reserved_bytes,capacity_bytes,fits,"
        "margin_bytes,largest_batch,longest_seq,tokens_per_s_this_machine,batch,seq,"
        "weights_bytes,weight_copies_bytes,gradients_bytes,optimizer_state_bytes,"
        "activations_bytes,logits_bytes,other_bytes\n";
    const std::vector<const StrategyAtSize*> rows = fullSizeRows(plan);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const StrategyAtSize& row = *rows[i];
        const PeakSplit& s = row.split;
        const bool fastest = i == plan.strategies.size();
        const auto n = [](std::int64_t v) { return std::to_string(v); };
        csv += detail::csvLine(
            {row.strategy.name(), fastest ? "1" : "0", n(row.allocated), n(row.reserved),
             n(plan.capacity), row.fits ? "1" : "0", n(row.margin), n(row.largest_batch),
             n(row.longest_seq), formatShortest(row.tokens_per_s), n(plan.config.batch),
             n(plan.config.seq), n(s.weights), n(s.weight_copies), n(s.gradients),
             n(s.optimizer_state), n(s.activations), n(s.logits), n(s.other)});
    }
    return csv;
}

}  // namespace ckptlab
