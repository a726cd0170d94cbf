#include "formats/csv_cells.h"

#include "ckptlab/model/number_text.h"

namespace ckptlab::detail {

std::string csvQuoted(const std::string& cell) {
    const bool edgeSpace = !cell.empty() && (cell.front() == ' ' || cell.back() == ' ');
    if (!edgeSpace && cell.find_first_of(",\"\r\n") == std::string::npos) return cell;
    std::string out = "\"";
    for (char c : cell) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + '"';
}

std::string csvFixed(double value, int decimals) { return formatFixed(value, decimals); }

std::string csvLine(const std::vector<std::string>& cells) {
    std::string line;
    for (std::size_t i = 0; i < cells.size(); ++i) {
        if (i > 0) line += ',';
        line += csvQuoted(cells[i]);
    }
    return line + '\n';
}

}  // namespace ckptlab::detail
