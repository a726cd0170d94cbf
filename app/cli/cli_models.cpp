// ckptlab-cli models: each preset in resources/models with the shape --model gives the
// experiment and its parameter count, worked out from that shape (modelParameterCount).
#include "cli_models.h"

#include <CLI/CLI.hpp>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string>

#include "ckptlab/model_config.h"
#include "ckptlab/number_text.h"
#include "cli_options.h"

namespace ckptlab::cli {
namespace {

// 8030261248 -> "8,030,261,248".
std::string groupedDigits(std::int64_t value) {
    std::string digits = std::to_string(value);
    for (int at = static_cast<int>(digits.size()) - 3; at > 0; at -= 3) digits.insert(at, ",");
    return digits;
}

// 8030261248 -> "8.03 B", 134515008 -> "134.5 M": how the models are usually named.
std::string shortCount(std::int64_t value) {
    const double v = static_cast<double>(value);
    if (v >= 1e9) return formatFixed(v / 1e9, 2) + " B";
    return formatFixed(v / 1e6, 1) + " M";
}

std::string executablePath() {
    std::error_code ec;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::string() : self.string();
}

}  // namespace

CLI::App* addModelsCommand(CLI::App& app) {
    return app.add_subcommand(
        "models",
        "List the model presets --model takes (resources/models: Hugging Face config.json "
        "files) with their shapes and parameter counts");
}

int runModels() {
    const std::string exe = executablePath();
    const std::string dir = modelsDirectory(exe);
    if (dir.empty()) {
        std::cerr << "ckptlab-cli: no model presets found: set CKPTLAB_MODELS_DIR to the folder "
                     "of resources/models\n";
        return kRunFailed;
    }
    std::printf("%-18s %-19s %6s %12s %6s %5s %8s %7s %4s %15s\n", "preset", "architecture",
                "hidden", "intermediate", "layers", "heads", "kv-heads", "vocab", "tied",
                "parameters");
    bool failed = false;
    for (const std::string& name : modelPresetNames(exe)) {
        try {
            const ModelDescription model = loadModel(name, exe);
            ExperimentConfig config;
            applyModel(model, config);
            const std::int64_t parameters = modelParameterCount(config);
            std::printf("%-18s %-19s %6d %12d %6d %5d %8d %7d %4s %15s %8s\n", name.c_str(),
                        model.architecture.c_str(), config.width, config.ffn_width, config.depth,
                        config.heads, kvHeadsOf(config), config.vocab,
                        config.tie_embeddings ? "yes" : "no", groupedDigits(parameters).c_str(),
                        shortCount(parameters).c_str());
        } catch (const ModelConfigError& e) {
            std::cerr << "ckptlab-cli: " << e.what() << "\n";
            failed = true;
        }
    }
    std::printf(
        "\nFrom %s.\nGive one to run, sweep, pareto, plan or scaling as --model NAME (or a "
        "config.json's path);\nthe options typed with it override its values.\n",
        dir.c_str());
    return failed ? kRunFailed : kOk;
}

}  // namespace ckptlab::cli
