// The model presets (resources/models/<name>.json, Hugging Face config.json files) and where
// they are, from the most explicit to the fallback: the environment, the installed tree next
// to the executable, the source tree this build came from. And a config.json read from a path,
// refused before reading when it is too big to be one.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>

#include "ckptlab/model_config.h"

namespace ckptlab {
namespace {

namespace fs = std::filesystem;

// A preset's name as a file's stem: letters, digits, '.', '-' and '_' (no folders).
bool isPresetName(const std::string& name) {
    if (name.empty() || name.size() > 100 || name[0] == '.') return false;
    return std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '.' || c == '-' || c == '_';
    });
}

std::string presetList(const std::vector<std::string>& names) {
    std::string list;
    for (std::size_t i = 0; i < names.size(); ++i)
        list += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
    return list;
}

// The file's text, at most kMaxModelConfigBytes: a bigger file is refused by its size before
// a byte is read, and a device or pipe without a size (/dev/zero) after one byte too many.
std::string readConfigFile(const std::string& path) {
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (ec || !fs::exists(status)) throw ModelConfigError("--model", path + ": no such file");
    if (fs::is_directory(status))
        throw ModelConfigError("--model", path + ": a folder, not a config.json file");
    if (fs::is_regular_file(status)) {
        const std::uintmax_t size = fs::file_size(path, ec);
        if (!ec && size > kMaxModelConfigBytes)
            throw ModelConfigError("--model", path + ": " + std::to_string(size) +
                                                  " bytes; a config.json is at most 1 MiB "
                                                  "(1048576 bytes)");
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) throw ModelConfigError("--model", path + ": cannot be read");
    std::string text(kMaxModelConfigBytes + 1, '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(in.gcount()));
    if (in.bad()) throw ModelConfigError("--model", path + ": cannot be read");
    if (text.size() > kMaxModelConfigBytes)
        throw ModelConfigError("--model", path +
                                              ": more than 1 MiB (1048576 bytes); a config.json "
                                              "is at most that");
    return text;
}

ModelDescription parseNamed(const std::string& text, const std::string& name,
                            const std::string& where) {
    try {
        return parseModelConfig(text, name);
    } catch (const ModelConfigError& e) {
        throw ModelConfigError(e.field(), where + ": " + e.what());
    }
}

}  // namespace

std::string modelsDirectory(const std::string& executablePath) {
    std::error_code ec;
    if (const char* env = std::getenv("CKPTLAB_MODELS_DIR"); env && *env) {
        // Asked for explicitly: a wrong path should be reported, not silently replaced.
        return fs::is_directory(env, ec) ? std::string(env) : std::string();
    }
    if (!executablePath.empty()) {
        const fs::path exe = fs::weakly_canonical(fs::path(executablePath), ec);
        const fs::path installed = exe.parent_path() / ".." / "share" / "ckptlab" / "models";
        if (fs::is_directory(installed, ec)) return fs::weakly_canonical(installed, ec).string();
    }
#ifdef CKPTLAB_SOURCE_MODELS_DIR
    if (fs::is_directory(CKPTLAB_SOURCE_MODELS_DIR, ec)) return CKPTLAB_SOURCE_MODELS_DIR;
#endif
    return {};
}

std::vector<std::string> modelPresetNames(const std::string& executablePath) {
    std::vector<std::string> names;
    const std::string dir = modelsDirectory(executablePath);
    if (dir.empty()) return names;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const fs::path& path = it->path();
        std::error_code fileEc;
        if (path.extension() != ".json" || !it->is_regular_file(fileEc)) continue;
        if (const std::string stem = path.stem().string(); isPresetName(stem))
            names.push_back(stem);
    }
    std::sort(names.begin(), names.end());
    return names;
}

ModelDescription loadModel(const std::string& fileOrName, const std::string& executablePath) {
    if (fileOrName.empty()) throw ModelConfigError("--model", "empty: give a preset or a file");
    // A preset's name first: it has no folders, so a file of the same name is ./NAME.
    const std::vector<std::string> presets = modelPresetNames(executablePath);
    if (std::find(presets.begin(), presets.end(), fileOrName) != presets.end()) {
        const std::string path =
            (fs::path(modelsDirectory(executablePath)) / (fileOrName + ".json")).string();
        return parseNamed(readConfigFile(path), fileOrName, "preset " + fileOrName);
    }
    std::error_code ec;
    if (!fs::exists(fileOrName, ec)) {
        const std::string known = presets.empty()
                                      ? std::string(
                                            "no presets were found (set CKPTLAB_MODELS_DIR to "
                                            "the folder of resources/models)")
                                      : "the presets are " + presetList(presets);
        throw ModelConfigError("--model",
                               "\"" + fileOrName + "\" is neither a preset nor a file; " + known);
    }
    return parseNamed(readConfigFile(fileOrName), fs::path(fileOrName).filename().string(),
                      fileOrName);
}

}  // namespace ckptlab
