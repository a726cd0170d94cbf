#include "document/format.h"

#include <cmath>

namespace ckptlab::ui {

QString formatBytes(std::int64_t bytes) {
    const double b = double(bytes);
    const double kib = 1024.0, mib = kib * 1024, gib = mib * 1024, tib = gib * 1024;
    if (std::abs(b) >= tib) return QStringLiteral("%1 TiB").arg(b / tib, 0, 'f', 2);
    if (std::abs(b) >= gib) return QStringLiteral("%1 GiB").arg(b / gib, 0, 'f', 2);
    if (std::abs(b) >= mib) return QStringLiteral("%1 MiB").arg(b / mib, 0, 'f', 1);
    if (std::abs(b) >= kib) return QStringLiteral("%1 KiB").arg(b / kib, 0, 'f', 1);
    return QStringLiteral("%1 B").arg(bytes);
}

QString formatDecimals(double value, int decimals) { return QString::number(value, 'f', decimals); }

QString formatDuration(double seconds) {
    if (!std::isfinite(seconds) || seconds < 0) return QStringLiteral("?");
    const long long s = std::llround(seconds);
    if (s < 60) return QStringLiteral("%1 s").arg(s);
    if (s < 3600)
        return QStringLiteral("%1 min %2 s").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1 h %2 min")
        .arg(s / 3600)
        .arg((s % 3600) / 60, 2, 10, QLatin1Char('0'));
}

}  // namespace ckptlab::ui
