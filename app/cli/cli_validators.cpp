#include "cli_validators.h"

#include "ckptlab/formats/output_paths.h"

namespace ckptlab::cli {

CLI::Validator nonEmpty() {
    return CLI::Validator(
        [](std::string& value) { return value.empty() ? std::string("must not be empty") : ""; },
        "PATH");
}

CLI::Validator utf8Name() {
    return CLI::Validator(
        [](std::string& value) {
            return isUtf8(value) ? std::string()
                                 : std::string(
                                       "the name is not valid UTF-8, which the chart "
                                       "and PDF writers cannot keep; use a UTF-8 name");
        },
        "");
}

CLI::Validator nonEmptyList(const std::string& hint) {
    return CLI::Validator(
        [hint](std::string& value) {
            return value.find_first_not_of(" \t") == std::string::npos
                       ? "must not be empty (" + hint + ")"
                       : std::string();
        },
        "LIST");
}

std::string rangeText(IntRange r) {
    return "[" + std::to_string(r.min) + ", " + std::to_string(r.max) + "]";
}

}  // namespace ckptlab::cli
