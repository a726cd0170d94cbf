// The model presets (resources/models/<name>.json, Hugging Face config.json files) and where
// they are, from the most explicit to the fallback: the environment, the installed tree next
// to the executable, the source tree this build came from. And a config.json read from a path:
// only a regular file, opened without blocking, refused before reading when it is too big to be
// one, and every failure named by its cause.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "ckptlab/formats/model_config.h"

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

[[noreturn]] void refusePath(const std::string& path, const std::string& why) {
    throw ModelConfigError("--model", path + ": " + why);
}

// What a file that is not a regular one is, for the message.
std::string kindOf(mode_t mode) {
    if (S_ISDIR(mode)) return "a folder, not a config.json file";
    std::string kind = S_ISFIFO(mode)                   ? "a FIFO (named pipe)"
                       : S_ISCHR(mode) || S_ISBLK(mode) ? "a device"
                       : S_ISSOCK(mode)                 ? "a socket"
                                                        : "a special file";
    return kind + ", not a regular file; --model reads a config.json file";
}

void checkStatus(const std::string& path, const struct stat& st) {
    if (!S_ISREG(st.st_mode)) refusePath(path, kindOf(st.st_mode));
    if (static_cast<std::uintmax_t>(st.st_size) > kMaxModelConfigBytes)
        refusePath(path, std::to_string(st.st_size) +
                             " bytes; a config.json is at most 1 MiB (1048576 bytes)");
}

// Closes the descriptor on every way out.
struct Descriptor {
    int fd;
    ~Descriptor() {
        if (fd >= 0) ::close(fd);
    }
};

// The file's text, at most kMaxModelConfigBytes. Only a regular file: a FIFO would block the
// reader forever, a device (/dev/zero) never end. The path is checked before it is opened and
// the opened file again (the path may have been replaced in between); the open does not block
// and the read stops one byte past the limit.
std::string readConfigFile(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) refusePath(path, modelFileErrorText(errno));
    checkStatus(path, st);
    const Descriptor file{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)};
    if (file.fd < 0) refusePath(path, modelFileErrorText(errno));
    if (::fstat(file.fd, &st) != 0) refusePath(path, modelFileErrorText(errno));
    checkStatus(path, st);
    std::string text(kMaxModelConfigBytes + 1, '\0');
    std::size_t got = 0;
    while (got < text.size()) {
        const ssize_t n = ::read(file.fd, text.data() + got, text.size() - got);
        if (n == 0) break;
        if (n < 0) {
            if (errno == EINTR) continue;
            refusePath(path, "cannot be read: " + modelFileErrorText(errno));
        }
        got += static_cast<std::size_t>(n);
    }
    if (got > kMaxModelConfigBytes)
        refusePath(path, "more than 1 MiB (1048576 bytes); a config.json is at most that");
    text.resize(got);
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

std::string modelFileErrorText(int error) {
    switch (error) {
    case ENOENT: return "no such file";
    case EACCES:
    case EPERM: return "permission denied";
    case ELOOP: return "too many levels of symbolic links";
    case ENOTDIR: return "a part of the path is not a folder";
    case ENAMETOOLONG: return "the path is too long";
    case EISDIR: return "a folder, not a config.json file";
    case ENXIO: return "no device behind it";
    case EMFILE:
    case ENFILE: return "too many files are open";
    default: {
        std::string text = std::generic_category().message(error);
        if (!text.empty() && text[0] >= 'A' && text[0] <= 'Z') text[0] = char(text[0] - 'A' + 'a');
        return text;
    }
    }
}

std::string modelsDirectoryProblem() {
    const char* env = std::getenv("CKPTLAB_MODELS_DIR");
    if (!env || !*env)
        return "no presets were found (set CKPTLAB_MODELS_DIR to the folder of "
               "resources/models)";
    const std::string where = std::string("CKPTLAB_MODELS_DIR is \"") + env + "\": ";
    struct stat st {};
    if (::stat(env, &st) != 0)
        return where + (errno == ENOENT ? "no such folder" : modelFileErrorText(errno));
    if (!S_ISDIR(st.st_mode)) return where + "not a folder";
    if (::access(env, R_OK | X_OK) != 0) return where + modelFileErrorText(errno);
    return where + "the folder holds no presets (NAME.json files)";
}

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
    // Only a true "no such file" is "neither": any other failure says its cause.
    struct stat st {};
    if (::stat(fileOrName.c_str(), &st) != 0) {
        const int error = errno;
        if (error != ENOENT) refusePath(fileOrName, modelFileErrorText(error));
        if (::lstat(fileOrName.c_str(), &st) == 0)
            refusePath(fileOrName, "a symbolic link to a file that does not exist");
        const std::string known =
            presets.empty() ? modelsDirectoryProblem() : "the presets are " + presetList(presets);
        throw ModelConfigError("--model",
                               "\"" + fileOrName + "\" is neither a preset nor a file; " + known);
    }
    return parseNamed(readConfigFile(fileOrName), fs::path(fileOrName).filename().string(),
                      fileOrName);
}

}  // namespace ckptlab
