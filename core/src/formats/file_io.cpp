// File helpers: atomic writes for every saver, and the size-capped read of a results file.
#include "formats/file_io.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <system_error>

#include "ckptlab/results_io.h"

namespace ckptlab {

namespace {

// Results files are megabytes; refusing gigabytes keeps a wrong file from exhausting memory.
constexpr std::size_t kMaxFileBytes = std::size_t{1} << 30;

std::string errnoText(int error) {
    return std::error_code(error ? error : EIO, std::generic_category()).message();
}

}  // namespace

namespace detail {

std::string readFile(const std::string& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        throw ResultsFileError("cannot open " + path + ": it is a directory");
    }
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"),
                                                         &std::fclose);
    if (!file) throw ResultsFileError("cannot open " + path + ": " + errnoText(errno));
    const std::string tooLarge =
        "cannot open " + path + ": larger than 1 GiB, too large for a " + "results file";
    struct stat info {};
    if (fstat(fileno(file.get()), &info) != 0) {
        throw ResultsFileError("cannot read " + path + ": " + errnoText(errno));
    }
    // Pipes (process substitution) are read to their end; devices such as /dev/zero never end.
    if (!S_ISREG(info.st_mode) && !S_ISFIFO(info.st_mode)) {
        throw ResultsFileError("cannot open " + path + ": not a regular file");
    }
    std::string text;
    if (S_ISREG(info.st_mode)) {
        // One read into a buffer of the file's size: no copies of a large file, and a file
        // over the limit is refused before any of it is read.
        const auto size = static_cast<std::uint64_t>(info.st_size);
        if (size > kMaxFileBytes) throw ResultsFileError(tooLarge);
        text.resize(static_cast<std::size_t>(size));
        std::size_t got = 0;
        while (got < text.size()) {
            const std::size_t n = std::fread(&text[got], 1, text.size() - got, file.get());
            if (n == 0) break;
            got += n;
        }
        text.resize(got);  // the file shrank while being read
    }
    // Then whatever is left: all of a pipe, or what was appended since the size was taken.
    char buffer[1 << 16];
    std::size_t got = 0;
    while ((got = std::fread(buffer, 1, sizeof buffer, file.get())) > 0) {
        if (text.size() + got > kMaxFileBytes) throw ResultsFileError(tooLarge);
        text.append(buffer, got);
    }
    if (std::ferror(file.get())) {
        throw ResultsFileError("cannot read " + path + ": " + errnoText(errno));
    }
    return text;
}

// Writes FILE.tmp and renames it over FILE, so a crash or a full disk never leaves a
// half-written results file where a good one was.
void writeFileAtomically(const std::string& path, const std::string& text) {
    if (path.empty()) throw ResultsFileError("cannot write: no file name given");
    const std::string temporary = path + ".tmp";
    std::FILE* file = std::fopen(temporary.c_str(), "wb");
    if (!file) throw ResultsFileError("cannot write " + path + ": " + errnoText(errno));
    int error = 0;
    if (std::fwrite(text.data(), 1, text.size(), file) != text.size()) {
        error = errno ? errno : EIO;
    }
    if (std::fflush(file) != 0 && !error) error = errno ? errno : EIO;
    if (std::fclose(file) != 0 && !error) error = errno ? errno : EIO;
    std::error_code ec;
    if (error) {
        std::filesystem::remove(temporary, ec);
        throw ResultsFileError("cannot write " + path + ": " + errnoText(error));
    }
    std::filesystem::rename(temporary, path, ec);
    if (ec) {
        std::error_code ignored;
        std::filesystem::remove(temporary, ignored);
        throw ResultsFileError("cannot write " + path + ": " + ec.message());
    }
}

}  // namespace detail

}  // namespace ckptlab
