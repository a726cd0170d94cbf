#pragma once
// What is not comparable between the open results files, in the user's language: the config
// fields that differ and core's comparison notes (comparison.h), each rebuilt from its kind,
// its sources' labels and its row rather than from core's English text. Shown under the table.

#include <QCoreApplication>
#include <QStringList>

#include "ckptlab/formats/comparison.h"

namespace ckptlab::ui {

class ComparisonText {
    Q_DECLARE_TR_FUNCTIONS(ComparisonText)
};

// One line per config difference, then one per note, in the comparison's order.
QStringList comparisonLines(const Comparison& comparison);

}  // namespace ckptlab::ui
