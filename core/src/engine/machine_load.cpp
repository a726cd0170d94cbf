// The machine's load and steal time from /proc (machine_load.h).
#include "engine/machine_load.h"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <locale>
#include <sstream>
#include <vector>

#include "ckptlab/model/number_text.h"

namespace ckptlab::engine {
namespace {

std::string firstLine(const char* path) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line;
}

std::optional<double> readLoadAverage() { return parseLoadAverage(firstLine("/proc/loadavg")); }
std::optional<CpuTimes> readCpuTimes() { return parseCpuTimes(firstLine("/proc/stat")); }

}  // namespace

std::optional<double> parseLoadAverage(const std::string& loadavg) {
    // The kernel writes a point whatever the locale.
    const auto load = parseDecimal(loadavg.substr(0, loadavg.find(' ')));
    if (!load || !(*load >= 0)) return std::nullopt;
    return load;
}

std::optional<CpuTimes> parseCpuTimes(const std::string& statLine) {
    std::istringstream in(statLine);
    in.imbue(std::locale::classic());
    std::string label;
    if (!(in >> label) || label != "cpu") return std::nullopt;
    // user nice system idle iowait irq softirq steal [guest guest_nice]; guest time is already
    // counted in user and nice, so only the first eight add up to the total.
    std::vector<unsigned long long> fields;
    unsigned long long value = 0;
    while (fields.size() < 8 && in >> value) fields.push_back(value);
    if (fields.size() < 4) return std::nullopt;
    CpuTimes t;
    for (unsigned long long f : fields) t.total += f;
    t.steal = fields.size() >= 8 ? fields[7] : 0;
    return t;
}

double stealPercent(const CpuTimes& before, const CpuTimes& after) {
    if (after.total <= before.total || after.steal < before.steal) return 0;
    return 100.0 * static_cast<double>(after.steal - before.steal) /
           static_cast<double>(after.total - before.total);
}

void LoadMonitor::begin() {
    const auto load = readLoadAverage();
    const auto cpu = readCpuTimes();
    ok_ = load && cpu;
    if (!ok_) return;
    load_ = MachineLoad{};
    const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    load_.cpus = cpus > 0 ? static_cast<int>(cpus) : 0;
    load_.load_before = *load;
    start_ = *cpu;
}

void LoadMonitor::roundsBegin() {
    if (!ok_) return;
    if (const auto cpu = readCpuTimes()) {
        roundsStart_ = *cpu;
        roundsStarted_ = true;
        load_.steal_pct_before = stealPercent(start_, *cpu);
    }
    lastSample_ = std::chrono::steady_clock::now();
}

void LoadMonitor::afterRound() {
    if (!ok_) return;
    // At most about 5 samples a second: a round of tiny models takes a millisecond.
    const auto now = std::chrono::steady_clock::now();
    if (load_.samples > 0 && now - lastSample_ < std::chrono::milliseconds(200)) return;
    lastSample_ = now;
    if (const auto load = readLoadAverage()) {
        load_.load_during_max = std::max(load_.load_during_max, *load);
        ++load_.samples;
    }
}

std::optional<MachineLoad> LoadMonitor::finish() {
    if (!ok_) return std::nullopt;
    if (roundsStarted_) {
        if (const auto cpu = readCpuTimes())
            load_.steal_pct_during = stealPercent(roundsStart_, *cpu);
        if (load_.samples == 0) afterRound();
    } else if (const auto cpu = readCpuTimes()) {
        load_.steal_pct_before = stealPercent(start_, *cpu);
    }
    return load_;
}

}  // namespace ckptlab::engine
