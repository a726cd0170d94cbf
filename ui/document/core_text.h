#pragma once
// Core's messages and strategy help in the user's language. The core stays plain C++ and
// English (the CLI prints it as it is) and hands its messages over typed (core_message.h): a
// code and its arguments. Each code has its translation here, keyed by the code, with core's
// English pattern as the source text; each strategy kind of core's table has its description.
// A code or kind without one here comes out in core's English rather than not at all
// (test_translations fails on it).

#include <QCoreApplication>
#include <QString>
#include <exception>

#include "ckptlab/model/config.h"
#include "ckptlab/model/core_message.h"
#include "ckptlab/model/strategy.h"
#include "ckptlab/planning/scaling.h"

namespace ckptlab::ui {

class CoreText {
    Q_DECLARE_TR_FUNCTIONS(CoreText)
};

// A core message in the user's language: its code's translation, filled with its arguments
// (a field's name translated) and its nested messages, translated in turn.
QString coreMessageText(const CoreMessage& message);
// A core error's message translated (StrategyError, ConfigError, BudgetError, MemoryError),
// or what() as it is for any other exception.
QString coreErrorText(const std::exception& error);
// validate(config)'s error, with the field's name and allowed range.
QString fieldErrorText(const FieldError& error);
// A scaling sweep's dimension as the panels name it: "depth", "seq", "width", "batch".
QString scalingAxisText(ScalingAxis axis);
// One line of the strategy syntax help: "every:N  checkpoint blocks 0, N, 2N, …".
QString strategyHelpText(StrategyKind kind);
// Every kind's line of core's table (strategyKinds), one per line, in its order.
QString strategySyntaxText();

}  // namespace ckptlab::ui
