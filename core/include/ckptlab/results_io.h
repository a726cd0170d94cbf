#pragma once
// Results files: JSON (schema "ckptlab.results/1"), the CSV summary, and Chrome trace JSON.

#include <stdexcept>
#include <string>

#include "ckptlab/result.h"

namespace ckptlab {

inline constexpr const char* kResultsSchema = "ckptlab.results/1";

// A file that is not ours, is corrupt, or cannot be read or written. The message says which.
struct ResultsFileError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

std::string resultsToJson(const ResultSet& results);
ResultSet resultsFromJson(const std::string& text);  // throws ResultsFileError

void saveResults(const ResultSet& results, const std::string& path);
ResultSet loadResults(const std::string& path);

std::string summaryCsv(const ResultSet& results);
void saveSummaryCsv(const ResultSet& results, const std::string& path);

// One process per run: a memory counter track plus slices for phases and blocks.
std::string chromeTraceJson(const ResultSet& results);
void saveChromeTrace(const ResultSet& results, const std::string& path);

}  // namespace ckptlab
