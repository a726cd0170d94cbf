#pragma once
// The experiment's config options of ckptlab-cli: one per config field that has a CLI option
// (config_fields.h), with its help and range, parsed into an ExperimentConfig.

#include <CLI/CLI.hpp>
#include <string>

#include "cli_options.h"

namespace ckptlab::cli {

// Adds every field's option (or flag) to `cmd`, bound to `typed`, its default shown.
void addConfigOptions(CLI::App* cmd, ConfigOptionText& typed);

// Sets each field of `config` from its option's text, for the options typed (a flag: when
// given); an option left out keeps `config`'s value, ExperimentConfig's default or what
// --model set. Empty when every text reads as its field's type, else one line naming the
// option and what it takes. The ranges and the rules across fields are validate()'s, later.
std::string applyConfigOptions(const ConfigOptionText& typed, ExperimentConfig& config);

}  // namespace ckptlab::cli
