// --model's file reading (model_presets.cpp): only a regular file is read, a FIFO is refused
// at once instead of blocking, and each failure keeps its cause (no such file, permission
// denied, a loop of symbolic links, a part of the path that is not a folder); only a true
// "no such preset and no such file" says "neither a preset nor a file".
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "ckptlab/formats/model_config.h"

using namespace ckptlab;
namespace fs = std::filesystem;

namespace {

constexpr const char* kConfig =
    R"({"architectures": ["LlamaForCausalLM"], "hidden_size": 64, "intermediate_size": 128,
        "num_hidden_layers": 2, "num_attention_heads": 4, "vocab_size": 100})";

struct ScratchDir {
    fs::path path;
    ScratchDir() {
        path = fs::temp_directory_path() / ("ckptlab_model_files_" + std::to_string(::getpid()));
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~ScratchDir() {
        std::error_code ec;
        fs::permissions(path, fs::perms::owner_all, ec);
        fs::remove_all(path, ec);
    }
    std::string file(const std::string& name) const { return (path / name).string(); }
    std::string write(const std::string& name, const std::string& text) const {
        std::ofstream(file(name), std::ios::binary) << text;
        return file(name);
    }
};

// loadModel's refusal of `path` (field "--model"), or "" when it loads.
std::string refusal(const std::string& path) {
    try {
        loadModel(path);
    } catch (const ModelConfigError& e) {
        EXPECT_EQ(e.field(), "--model") << e.what();
        return e.what();
    }
    return "";
}

// Runs `body` in a child process and returns its exit status, or -1 when it has not finished
// within `limit` (then it is killed): a read that blocks fails the test instead of hanging it.
template <typename Body>
int inChild(Body body, std::chrono::seconds limit = std::chrono::seconds(10)) {
    const pid_t child = ::fork();
    if (child == 0) ::_exit(body());
    const auto deadline = std::chrono::steady_clock::now() + limit;
    int status = 0;
    while (::waitpid(child, &status, WNOHANG) == 0) {
        if (std::chrono::steady_clock::now() > deadline) {
            ::kill(child, SIGKILL);
            ::waitpid(child, &status, 0);
            return -1;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

TEST(ModelConfigFiles, AFifoIsRefusedAtOnce) {
    const ScratchDir dir;
    const std::string fifo = dir.file("f.json");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
    // 0: refused naming the FIFO; 1: another message; -1: it blocked (no writer ever comes).
    const int status = inChild([&] {
        const std::string message = refusal(fifo);
        return message == fifo +
                              ": a FIFO (named pipe), not a regular file; --model reads a "
                              "config.json file"
                   ? 0
                   : 1;
    });
    EXPECT_EQ(status, 0) << (status == -1 ? "loadModel blocked on a FIFO" : refusal(fifo));
}

TEST(ModelConfigFiles, WhatIsNotARegularFileIsNamed) {
    const ScratchDir dir;
    EXPECT_EQ(refusal(dir.path.string()), dir.path.string() + ": a folder, not a config.json file");
    EXPECT_EQ(refusal("/dev/null"),
              "/dev/null: a device, not a regular file; --model reads a config.json file");
    const std::string socketPath = dir.file("s.json");
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    ASSERT_GE(fd, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, socketPath.c_str(), sizeof address.sun_path - 1);
    ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
    EXPECT_EQ(refusal(socketPath),
              socketPath + ": a socket, not a regular file; --model reads a config.json file");
    ::close(fd);
    // A link to a regular file is read.
    const std::string good = dir.write("good.json", kConfig);
    fs::create_symlink(good, dir.file("link.json"));
    EXPECT_EQ(loadModel(dir.file("link.json")).hidden_size, 64);
}

TEST(ModelConfigFiles, EachFailureKeepsItsCause) {
    const ScratchDir dir;
    const std::string loop = dir.file("loop.json");
    fs::create_symlink(loop, loop);
    EXPECT_EQ(refusal(loop), loop + ": too many levels of symbolic links");
    const std::string dangling = dir.file("dangling.json");
    fs::create_symlink(dir.file("gone.json"), dangling);
    EXPECT_EQ(refusal(dangling), dangling + ": a symbolic link to a file that does not exist");
    const std::string good = dir.write("good.json", kConfig);
    EXPECT_EQ(refusal(good + "/config.json"),
              good + "/config.json: a part of the path is not a folder");
    // Only a path that is neither: the presets are listed.
    const std::string missing = dir.file("missing.json");
    const std::string neither = refusal(missing);
    EXPECT_EQ(
        neither.rfind("\"" + missing + "\" is neither a preset nor a file; the presets are ", 0),
        0u)
        << neither;
}

TEST(ModelConfigFiles, PermissionDeniedIsSaid) {
    const ScratchDir dir;
    const std::string locked = dir.write("locked.json", kConfig);
    fs::permissions(locked, fs::perms::none);
    const fs::path inner = dir.path / "closed";
    fs::create_directories(inner);
    const std::string behind = dir.write("closed/config.json", kConfig);
    fs::permissions(inner, fs::perms::none);
    fs::permissions(dir.path, fs::perms::all);
    // Root reads any file: the check runs as nobody (CI runs as root).
    const int status = inChild([&] {
        if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) return 3;
        if (refusal(locked) != locked + ": permission denied") return 1;
        if (refusal(behind) != behind + ": permission denied") return 2;
        return 0;
    });
    EXPECT_EQ(status, 0) << "1: an unreadable file, 2: a closed folder, 3: no user to drop to";
}

TEST(ModelConfigFiles, ErrorsInWords) {
    EXPECT_EQ(modelFileErrorText(ENOENT), "no such file");
    EXPECT_EQ(modelFileErrorText(EACCES), "permission denied");
    EXPECT_EQ(modelFileErrorText(EPERM), "permission denied");
    EXPECT_EQ(modelFileErrorText(ELOOP), "too many levels of symbolic links");
    EXPECT_EQ(modelFileErrorText(ENOTDIR), "a part of the path is not a folder");
    EXPECT_EQ(modelFileErrorText(ENAMETOOLONG), "the path is too long");
    EXPECT_EQ(modelFileErrorText(EIO), "input/output error");
}

TEST(ModelConfigFiles, PresetsFolderProblemNamesTheVariable) {
    const ScratchDir dir;
    ::setenv("CKPTLAB_MODELS_DIR", dir.file("absent").c_str(), 1);
    EXPECT_EQ(modelsDirectoryProblem(),
              "CKPTLAB_MODELS_DIR is \"" + dir.file("absent") + "\": no such folder");
    const std::string plain = dir.write("plain.txt", "x");
    ::setenv("CKPTLAB_MODELS_DIR", plain.c_str(), 1);
    EXPECT_EQ(modelsDirectoryProblem(), "CKPTLAB_MODELS_DIR is \"" + plain + "\": not a folder");
    ::setenv("CKPTLAB_MODELS_DIR", dir.path.c_str(), 1);
    EXPECT_EQ(modelsDirectoryProblem(), "CKPTLAB_MODELS_DIR is \"" + dir.path.string() +
                                            "\": the folder holds no presets (NAME.json files)");
    // The unknown name's message says it too, instead of asking to set what is set.
    const std::string message = refusal("llama-9");
    EXPECT_NE(message.find("CKPTLAB_MODELS_DIR is \"" + dir.path.string()), std::string::npos)
        << message;
    ::unsetenv("CKPTLAB_MODELS_DIR");
    EXPECT_NE(modelsDirectoryProblem().find("set CKPTLAB_MODELS_DIR"), std::string::npos);
}
