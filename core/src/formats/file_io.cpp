// File helpers: atomic writes for every saver, and the size-capped read of a results file.
#include "formats/file_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <system_error>

#include "ckptlab/formats/output_paths.h"
#include "ckptlab/formats/results_io.h"

namespace ckptlab {

namespace {

// Results files are megabytes; refusing gigabytes keeps a wrong file from exhausting memory.
constexpr std::size_t kMaxFileBytes = std::size_t{1} << 30;

std::string errnoText(int error) {
    return std::error_code(error ? error : EIO, std::generic_category()).message();
}

// The file a path names once its symbolic links are followed (a chain of them too): the one
// an atomic write must replace. A dangling link names the file it would create. Byte-exact:
// no name is decoded or re-encoded on the way.
std::string linkTarget(const std::string& path) {
    std::string current = path;
    for (int hops = 0; hops < 40; ++hops) {  // Linux's own limit on a chain (ELOOP)
        struct stat info {};
        if (::lstat(current.c_str(), &info) != 0 || !S_ISLNK(info.st_mode)) return current;
        std::string link(static_cast<std::size_t>(info.st_size > 0 ? info.st_size : 256), '\0');
        ssize_t n = 0;
        while ((n = ::readlink(current.c_str(), link.data(), link.size())) >= 0 &&
               static_cast<std::size_t>(n) == link.size())
            link.resize(link.size() * 2);  // the link changed since lstat: read it whole
        if (n < 0) return current;         // the rename will say what is wrong
        link.resize(static_cast<std::size_t>(n));
        const std::size_t slash = current.rfind('/');
        current = link.front() == '/' || slash == std::string::npos
                      ? link
                      : current.substr(0, slash + 1) + link;
    }
    throw ResultsFileError("cannot write " + path + ": " + errnoText(ELOOP));
}

// A new file beside `target` (the same folder, so the rename stays on one file system), made
// with O_EXCL so it never reuses someone's FILE.tmp; mode 0666 less the umask.
int createTemporary(const std::string& target, std::string* name) {
    static std::atomic<unsigned> counter{0};
    for (int attempt = 0; attempt < 100; ++attempt) {
        *name = target + ".tmp-" + std::to_string(::getpid()) + "-" +
                std::to_string(counter.fetch_add(1));
        const int fd = ::open(name->c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST) return fd;
    }
    return -1;  // errno is EEXIST
}

// 0 when all of `text` is written, else the errno.
int writeAll(int fd, const std::string& text) {
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return n < 0 && errno ? errno : EIO;
        done += static_cast<std::size_t>(n);
    }
    return 0;
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

// Writes a temporary file beside FILE and renames it over FILE, so a crash or a full disk
// never leaves a half-written results file where a good one was. A symbolic link is written
// through (its target is replaced, the link stays), and a replaced file keeps its permission
// bits and, where allowed, its owner; a new file gets 0666 less the umask, as fopen gives.
void writeFileAtomically(const std::string& path, const std::string& text) {
    if (path.empty()) throw ResultsFileError("cannot write: no file name given");
    const std::string target = linkTarget(path);
    struct stat existing {};
    const bool replacing = ::stat(target.c_str(), &existing) == 0;
    if (replacing && !S_ISREG(existing.st_mode))
        throw ResultsFileError(
            "cannot write " + path + ": " +
            (S_ISDIR(existing.st_mode) ? "it is a directory" : "not a regular file"));
    std::string temporary;
    const int fd = createTemporary(target, &temporary);
    if (fd < 0) throw ResultsFileError("cannot write " + path + ": " + errnoText(errno));
    int error = writeAll(fd, text);
    if (!error && replacing) {
        // The owner first: chown clears the set-id bits that fchmod then restores.
        if (existing.st_uid != ::geteuid() || existing.st_gid != ::getegid())
            (void)::fchown(fd, existing.st_uid, existing.st_gid);  // only root may; else keep ours
        if (::fchmod(fd, existing.st_mode & 07777) != 0) error = errno ? errno : EIO;
    }
    if (!error && ::fsync(fd) != 0) error = errno ? errno : EIO;
    if (::close(fd) != 0 && !error) error = errno ? errno : EIO;
    if (!error && ::rename(temporary.c_str(), target.c_str()) != 0) error = errno ? errno : EIO;
    if (error) {
        ::unlink(temporary.c_str());
        throw ResultsFileError("cannot write " + path + ": " + errnoText(error));
    }
}

}  // namespace detail

void writeTextFile(const std::string& path, const std::string& text) {
    detail::writeFileAtomically(path, text);
}

}  // namespace ckptlab
