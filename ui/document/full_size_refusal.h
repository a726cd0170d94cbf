#pragma once
// Why core's checkFullSize (full_size.h) refuses a full-size request, in the user's language:
// every problem of the config, one a line, or the strategy's.

#include <QString>

#include "ckptlab/planning/full_size.h"

namespace ckptlab::ui {

QString fullSizeRefusal(const FullSizeCheck& check);

}  // namespace ckptlab::ui
