// The config.json readers' shared pieces (model_config_values.h).
#include "formats/model_config_values.h"

#include <cmath>

#include "ckptlab/model/number_text.h"
#include "formats/json_values.h"

namespace ckptlab::hf {

[[noreturn]] void refuse(const std::string& field, const std::string& message) {
    throw ModelConfigError(field, field.empty() ? message : field + ": " + message);
}

std::string shown(const Json& j) {
    switch (j.type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::boolean: return j.get<bool>() ? "true" : "false";
    case Json::value_t::number_integer: return std::to_string(j.get<std::int64_t>());
    case Json::value_t::number_unsigned: return std::to_string(j.get<std::uint64_t>());
    case Json::value_t::number_float: {
        std::string text = formatShortest(j.get<double>());
        if (text.find_first_of(".en") == std::string::npos) text += ".0";
        return text;
    }
    case Json::value_t::string: return "\"" + detail::clip(j.get<std::string>(), 60) + "\"";
    case Json::value_t::array: return "a list";
    case Json::value_t::object: return "an object";
    default: return "binary data";
    }
}

std::string quoted(const std::string& text) { return "\"" + detail::clip(text, 40) + "\""; }

double numberIn(const Json& j, const std::string& field, double min, double max) {
    if (j.is_number()) {
        const double v = j.get<double>();
        if (std::isfinite(v) && v >= min && v <= max) return v;
    }
    refuse(field, "must be a number from " + formatGeneral(min, 12) + " to " +
                      formatGeneral(max, 12) + " (got " + shown(j) + ")");
}

}  // namespace ckptlab::hf
