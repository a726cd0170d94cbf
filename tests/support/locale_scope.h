#pragma once
// Runs part of a test under another locale, as the app runs after Qt's setlocale(LC_ALL, ""):
// both the C library's (printf, strtod) and the C++ global one (streams made afterwards).
// Restores both when it ends. Plain C++: tests/core and tests/ui share it.

#include <clocale>
#include <locale>
#include <stdexcept>
#include <string>

namespace ckptlab::test {

class LocaleScope {
public:
    explicit LocaleScope(const std::string& name)
        : savedC_(std::setlocale(LC_ALL, nullptr)), savedCxx_(std::locale()) {
        try {
            std::locale::global(std::locale(name));
        } catch (const std::runtime_error&) {
            return;  // not installed
        }
        if (!std::setlocale(LC_ALL, name.c_str())) {
            std::locale::global(savedCxx_);
            return;
        }
        active_ = true;
    }
    ~LocaleScope() {
        if (!active_) return;
        std::setlocale(LC_ALL, savedC_.c_str());
        std::locale::global(savedCxx_);
    }
    LocaleScope(const LocaleScope&) = delete;
    LocaleScope& operator=(const LocaleScope&) = delete;

    // False when the locale is not installed (generate it with localedef); nothing changed.
    bool active() const { return active_; }

private:
    std::string savedC_;
    std::locale savedCxx_;
    bool active_ = false;
};

}  // namespace ckptlab::test
