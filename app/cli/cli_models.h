#pragma once
// ckptlab-cli models (cli_models.cpp): the model presets --model takes, with their shapes and
// parameter counts.

namespace CLI {
class App;
}

namespace ckptlab::cli {

// Adds the `models` subcommand to `app`: --show FILE|PRESET and --json.
CLI::App* addModelsCommand(CLI::App& app);

// Prints the presets as a table, or with --show one model's fields as read (text or JSON);
// exit 0, or 2 (bad input) when no presets are found (naming CKPTLAB_MODELS_DIR's folder when
// it is set), a preset does not load, or --show's model is refused.
int runModels();

}  // namespace ckptlab::cli
