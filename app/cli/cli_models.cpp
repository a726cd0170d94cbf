// ckptlab-cli models: each preset in resources/models with the shape --model gives the
// experiment and its parameter count, worked out from that shape (modelParameterCount); and
// with --show, every field the reader took from one preset or file, as text or JSON (what the
// side-by-side test compares with transformers' configuration classes).
#include "cli_models.h"

#include <CLI/CLI.hpp>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "ckptlab/formats/model_config.h"
#include "ckptlab/model/number_text.h"
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

// The options of `models`, bound when the command is added.
struct ModelsOptions {
    std::string show;  // a preset or a file: its fields instead of the table
    bool json = false;
};
ModelsOptions gOptions;

// What the reader took, named as in the config.json (transformers' names), resolved: the
// class's defaults filled in, head_dim and num_key_value_heads as the model runs them.
nlohmann::ordered_json describe(const ModelDescription& model) {
    ExperimentConfig config;
    applyModel(model, config);
    nlohmann::ordered_json j;
    j["name"] = model.name;
    j["architecture"] = model.architecture;
    j["model_type"] = model.model_type;
    j["hidden_size"] = model.hidden_size;
    j["intermediate_size"] = model.intermediate_size;
    j["num_hidden_layers"] = model.num_hidden_layers;
    j["num_attention_heads"] = model.num_attention_heads;
    j["num_key_value_heads"] = model.num_key_value_heads;
    j["head_dim"] = headDimOf(config);
    j["vocab_size"] = model.vocab_size;
    j["max_position_embeddings"] = model.max_position_embeddings;
    j["rms_norm_eps"] = model.rms_norm_eps;
    j["rope_theta"] = model.rope_theta;
    j["rope_type"] = model.rope_scaling_type.empty() ? "default" : model.rope_scaling_type;
    j["rope_factor"] = model.rope_scaling_factor > 0
                           ? nlohmann::ordered_json(model.rope_scaling_factor)
                           : nlohmann::ordered_json(nullptr);
    j["tie_word_embeddings"] = model.tie_word_embeddings;
    j["qkv_bias"] = model.attention_bias;
    j["dtype"] = model.torch_dtype.empty() ? nlohmann::ordered_json(nullptr)
                                           : nlohmann::ordered_json(model.torch_dtype);
    j["sliding_window"] = nullptr;  // a window in use is refused
    j["parameters"] = modelParameterCount(config);
    j["notes"] = model.notes;
    return j;
}

int showModel(const std::string& fileOrName, bool json) {
    ModelDescription model;
    try {
        model = loadModel(fileOrName, executablePath());
    } catch (const ModelConfigError& e) {
        std::cerr << "ckptlab-cli: --show: " << e.what() << "\n";
        return kBadInput;
    }
    const nlohmann::ordered_json j = describe(model);
    if (json) {
        std::cout << j.dump(2) << "\n";
        return kOk;
    }
    for (const auto& [key, value] : j.items()) {
        if (key == "notes") continue;
        std::cout << key << ": " << (value.is_string() ? value.get<std::string>() : value.dump())
                  << "\n";
    }
    for (const std::string& note : model.notes) std::cout << "note: " << note << "\n";
    return kOk;
}

}  // namespace

CLI::App* addModelsCommand(CLI::App& app) {
    CLI::App* models = app.add_subcommand(
        "models",
        "List the model presets --model takes (resources/models: Hugging Face config.json "
        "files) with their shapes and parameter counts");
    models->add_option("--show", gOptions.show,
                       "Print every field read from this preset or config.json instead, as "
                       "transformers' configuration class resolves it");
    models->add_flag("--json", gOptions.json, "With --show: as one JSON object");
    return models;
}

int runModels() {
    if (gOptions.json && gOptions.show.empty()) {
        std::cerr << "ckptlab-cli: --json: goes with --show FILE|PRESET\n";
        return kBadInput;
    }
    if (!gOptions.show.empty()) return showModel(gOptions.show, gOptions.json);
    const std::string exe = executablePath();
    const std::string dir = modelsDirectory(exe);
    const std::vector<std::string> names =
        dir.empty() ? std::vector<std::string>() : modelPresetNames(exe);
    if (names.empty()) {
        // A broken install or CKPTLAB_MODELS_DIR: bad input, named.
        std::cerr << "ckptlab-cli: no model presets found: " << modelsDirectoryProblem() << "\n";
        return kBadInput;
    }
    std::printf("%-18s %-19s %6s %12s %6s %5s %8s %7s %4s %15s\n", "preset", "architecture",
                "hidden", "intermediate", "layers", "heads", "kv-heads", "vocab", "tied",
                "parameters");
    bool failed = false;
    for (const std::string& name : names) {
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
    return failed ? kBadInput : kOk;
}

}  // namespace ckptlab::cli
