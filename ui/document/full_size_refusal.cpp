#include "document/full_size_refusal.h"

#include <QStringList>

#include "document/core_text.h"

namespace ckptlab::ui {

QString fullSizeRefusal(const FullSizeCheck& check) {
    if (check.ok()) return {};
    if (check.config_errors.empty()) return coreMessageText(*check.problem);
    QStringList lines;
    for (const FieldError& error : check.config_errors) lines << fieldErrorText(error);
    return lines.join(QLatin1Char('\n'));
}

}  // namespace ckptlab::ui
