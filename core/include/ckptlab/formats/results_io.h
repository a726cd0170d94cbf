#pragma once
// Results files: JSON (schema "ckptlab.results/1"), the CSV summary, and Chrome trace JSON.

#include <stdexcept>
#include <string>

#include "ckptlab/model/result.h"

namespace ckptlab {

inline constexpr const char* kResultsSchema = "ckptlab.results/1";

// A file that is not ours, is corrupt, or cannot be read or written. The message says which.
struct ResultsFileError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

std::string resultsToJson(const ResultSet& results);
// Anything it does not load (not JSON, not ours, a value out of range: see the top of
// results_json_read.cpp) throws ResultsFileError with one printable line naming the place, and
// nothing else escapes; tests/fuzz checks this on a fuzzed corpus.
ResultSet resultsFromJson(const std::string& text);

void saveResults(const ResultSet& results, const std::string& path);
// As resultsFromJson, the message starting with the path; also refuses a missing file, a
// folder, a device and a file over 1 GiB.
ResultSet loadResults(const std::string& path);

std::string summaryCsv(const ResultSet& results);
void saveSummaryCsv(const ResultSet& results, const std::string& path);

// One process per run: a memory counter track plus slices for phases and blocks.
std::string chromeTraceJson(const ResultSet& results);
void saveChromeTrace(const ResultSet& results, const std::string& path);

}  // namespace ckptlab
