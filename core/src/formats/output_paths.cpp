#include "ckptlab/formats/output_paths.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "formats/json_parse.h"

namespace ckptlab {
namespace {

namespace fs = std::filesystem;

// Creating and removing a file is the only test that also holds for root, read-only mounts
// and full quotas; access(2) answers for permission bits only.
std::string probeFolder(const fs::path& folder) {
    std::string probe = (folder / ".ckptlab-write-test-XXXXXX").string();
    const int fd = mkstemp(probe.data());
    if (fd < 0) return std::strerror(errno);
    close(fd);
    unlink(probe.c_str());
    return {};
}

fs::path folderOf(const fs::path& path) {
    const fs::path parent = path.parent_path();
    return parent.empty() ? fs::path(".") : parent;
}

}  // namespace

std::string checkOutputFile(const std::string& path, const std::string& field) {
    if (path.empty()) return field + ": no file name given";
    std::error_code ec;
    const fs::path target(path);
    if (fs::is_directory(target, ec)) return field + ": " + path + " is a folder, not a file";
    const fs::path folder = folderOf(target);
    if (!fs::exists(folder, ec)) return field + ": folder " + folder.string() + " does not exist";
    if (!fs::is_directory(folder, ec)) return field + ": " + folder.string() + " is not a folder";
    if (std::string why = probeFolder(folder); !why.empty())
        return field + ": cannot write into " + folder.string() + ": " + why;
    return {};
}

std::string checkOutputDir(const std::string& dir, const std::string& field) {
    if (dir.empty()) return field + ": no folder given";
    std::error_code ec;
    const fs::path target(dir);
    if (fs::exists(target, ec)) {
        if (!fs::is_directory(target, ec))
            return field + ": " + dir + " exists and is not a folder";
        if (std::string why = probeFolder(target); !why.empty())
            return field + ": cannot write into " + dir + ": " + why;
        return {};
    }
    fs::path normal = target.lexically_normal();
    if (!normal.has_filename()) normal = normal.parent_path();  // "charts/" names "charts"
    const fs::path parent = folderOf(normal);
    if (!fs::is_directory(parent, ec))
        return field + ": cannot create " + dir + ": folder " + parent.string() + " does not exist";
    if (std::string why = probeFolder(parent); !why.empty())
        return field + ": cannot create " + dir + " in " + parent.string() + ": " + why;
    return {};
}

bool isUtf8(const std::string& text) { return detail::firstInvalidUtf8(text) == std::string::npos; }

}  // namespace ckptlab
