// A full-size plan's record (full_size_record.h): finding a strategy's row.
#include "ckptlab/model/full_size_record.h"

namespace ckptlab {

const FullSizePlanRow* FullSizePlanRecord::row(const Strategy& strategy) const {
    for (const FullSizePlanRow& r : strategies)
        if (r.strategy == strategy) return &r;
    return nullptr;
}

}  // namespace ckptlab
