#pragma once
// The core's English messages that the app shows, in the user's language. The core stays plain
// C++ and English (the CLI prints it as it is); these rebuild the same message from its parts
// with tr(): a field error from its field and config.h's `limits`, a strategy's help line from
// its kind, a strategy error from the shapes core/src/model/strategy.cpp throws. A message of a
// shape not known here comes back in English rather than not at all.

#include <QCoreApplication>
#include <QString>
#include <string>

#include "ckptlab/config.h"
#include "ckptlab/scaling.h"
#include "ckptlab/strategy.h"

namespace ckptlab::ui {

class CoreText {
    Q_DECLARE_TR_FUNCTIONS(CoreText)
};

// validate(config)'s error for `error.field`, with the allowed range and the value `config` has.
QString fieldErrorText(const FieldError& error, const ExperimentConfig& config);
// The same for a field error known only by its message (a sweep check's verdict).
QString configErrorText(const std::string& message);
// A scaling sweep's dimension as the panels name it: "depth", "seq", "width", "batch".
QString scalingAxisText(ScalingAxis axis);
// One line of the strategy syntax help: "every:N  checkpoint blocks 0, N, 2N, …".
QString strategyHelpText(StrategyKind kind);
// Every kind's line, one per line, in the order strategyCatalog lists them.
QString strategySyntaxText();
// A StrategyError's message (parseStrategy, checkStrategy) in the user's language.
QString strategyErrorText(const std::string& message);
// A progress message of the runner ("building the model", "full: warm-up 2/3", …).
QString progressText(const std::string& message);

}  // namespace ckptlab::ui
