#pragma once
// The checks CLI11 makes on option values as it parses them, so that a mistake is refused
// before any work with the option's name.

#include <CLI/CLI.hpp>

#include <string>

#include "ckptlab/model/config.h"

namespace ckptlab::cli {

// An output path given as "" is a mistake (an unset shell variable), not "no output".
CLI::Validator nonEmpty();

// Outputs written by Qt (charts, the PDF handout) go through QString, which holds only
// Unicode: a name with other bytes would be written under another name, so it is refused
// (core's isUtf8). The JSON, CSV and trace outputs are written byte for byte and take any name.
CLI::Validator utf8Name();

// A list option given as "" (or blanks) is a mistake, not "use the default": the default is
// what leaving the option out gives. `hint` says how to get the default.
CLI::Validator nonEmptyList(const std::string& hint);

// "[min, max]", as --help shows a range.
std::string rangeText(IntRange r);

}  // namespace ckptlab::cli
