// Deterministic replay of config.json files through the model reader (replay_driver.h): each
// file loads or is rejected with ModelConfigError and a one-line message starting with the path
// and the field (model_config_check.h).
//
//   ckptlab_model_config_replay [--limit-ms N] [--reject|--load|--any] [--dir] PATH ...
//
// --dir replays a folder's *.json files.
#include "model_config_check.h"
#include "replay_driver.h"

using namespace ckptlab;
namespace fs = std::filesystem;

int main(int argc, char** argv) {
    fuzz::ReplayTarget target;
    target.error = "ModelConfigError";
    target.inFolder = [](const fs::path& file) { return file.extension() == ".json"; };
    target.load = [](const std::string& path) { fuzz::checkModel(loadModel(path)); };
    target.rejection = [](const std::exception& e, const std::string& path) {
        const auto* error = dynamic_cast<const ModelConfigError*>(&e);
        if (!error) return false;
        // The file's own errors start with its path and field; "--model" ones (no such file, a
        // folder, too big) name the path, and the CLI puts "--model: " before them.
        if (error->field() == "--model")
            fuzz::checkMessage(error->what());
        else
            fuzz::checkModelError(*error, path + ": ");
        return true;
    };
    // And as text, with the fuzz target's checks, for what is small enough to read.
    target.textLimit = 4u << 20;
    target.loadsAsText = [](const std::string& text) {
        return fuzz::checkModelText(text) == fuzz::ModelOutcome::Loaded;
    };
    target.disagree = "loadModel and parseModelConfig disagree";
    return fuzz::replayMain(argc, argv, target);
}
