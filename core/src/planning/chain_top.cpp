// Which backward the chain's last unit runs: the sum loss's expanded gradient at the top of a
// chain without a head, the next unit's dense gradient everywhere else (cost_model.h).
#include <utility>

#include "ckptlab/planning/cost_model.h"

namespace ckptlab {

namespace {

// Exchanges a unit's backward with the one kept in `sum_loss`.
void swapBackward(UnitCost& unit) {
    SumLossBackward& other = *unit.sum_loss;
    std::swap(unit.backward_peak, other.backward_peak);
    std::swap(unit.allocations.backward, other.backward);
    std::swap(unit.allocations.input_grad, other.input_grad);
    unit.at_chain_top = !unit.at_chain_top;
}

}  // namespace

void removeChainTop(CostModel& model) {
    for (UnitCost& unit : model.units)
        if (unit.at_chain_top && unit.sum_loss) swapBackward(unit);
}

void placeChainTop(CostModel& model) {
    removeChainTop(model);
    if (model.last || model.units.empty()) return;
    UnitCost& top = model.units.back();
    if (top.sum_loss) swapBackward(top);
}

}  // namespace ckptlab
