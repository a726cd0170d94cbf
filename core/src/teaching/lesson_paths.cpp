// Where the lessons are, from the most explicit to the fallback: the environment, the
// installed tree next to the executable, the source tree this build came from.
#include <cstdlib>
#include <filesystem>

#include "ckptlab/teaching/lesson.h"

namespace ckptlab {

std::string lessonsDirectory(const std::string& executablePath) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (const char* env = std::getenv("CKPTLAB_LESSONS_DIR"); env && *env) {
        // Asked for explicitly: a wrong path should be reported, not silently replaced.
        return fs::is_directory(env, ec) ? std::string(env) : std::string();
    }
    if (!executablePath.empty()) {
        const fs::path exe = fs::weakly_canonical(fs::path(executablePath), ec);
        const fs::path installed = exe.parent_path() / ".." / "share" / "ckptlab" / "lessons";
        if (fs::is_directory(installed, ec)) return fs::weakly_canonical(installed, ec).string();
    }
#ifdef CKPTLAB_SOURCE_LESSONS_DIR
    if (fs::is_directory(CKPTLAB_SOURCE_LESSONS_DIR, ec)) return CKPTLAB_SOURCE_LESSONS_DIR;
#endif
    return {};
}

}  // namespace ckptlab
