#pragma once
// Human-readable numbers with units, shared by labels, status bar and dialogs.

#include <QString>
#include <cstdint>

namespace ckptlab::ui {

// "512.0 MiB", "12.35 GiB": binary units, as the core reports.
QString formatBytes(std::int64_t bytes);
// "45 s", "3 min 20 s", "1 h 05 min".
QString formatDuration(double seconds);
// "12.35": `decimals` digits after the point, always a dot whatever the user's locale.
QString formatDecimals(double value, int decimals);

}  // namespace ckptlab::ui
