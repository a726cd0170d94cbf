#pragma once
// ckptlab-cli models (cli_models.cpp): the model presets --model takes, with their shapes and
// parameter counts.

namespace CLI {
class App;
}

namespace ckptlab::cli {

// Adds the `models` subcommand (no options) to `app`.
CLI::App* addModelsCommand(CLI::App& app);

// Prints the presets as a table; exit 0, or 1 when no presets folder is found or a preset
// does not load (a damaged install).
int runModels();

}  // namespace ckptlab::cli
