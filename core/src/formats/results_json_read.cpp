// Results as JSON (schema "ckptlab.results/1"): strict reading, with the path of any bad value
// in the error. The layout is described at the top of results_json_write.cpp.
//
// What the reader refuses, beyond wrong types and missing keys (each with a one-line message
// that names the place, echoing at most a short, printable excerpt of the file):
// - text that is not JSON, with the byte (counted from 1), line and column; invalid UTF-8 is
//   reported at its first bad byte, and so is a NUL byte; a text that does not end with the
//   '}' closing the top-level object is reported as cut off without parsing it (a large
//   truncated file fails fast);
// - duplicate keys in an object (JSON allows them, but one of the two values would be lost
//   silently), naming the key;
// - numbers outside what can be measured: byte counts past 2^53 (8 PiB; sums of them stay
//   exact and cannot overflow), durations below 0 or above 1e12 ms, time points that are not
//   finite or outside +-1e12 ms, a negative gradient difference or tolerance;
// - a "plan" (full_size_json.h) in a file with runs, or whose summary "config" disagrees with
//   its "run_config";
// - more than kMaxRuns runs; a run's strategy that is not one of its model's (parsed once, here:
//   every reader of a run uses the parsed value; over kMaxStrategyBytes bytes or with control
//   characters, the message says so first); schedules that do not describe the run's model
//   (they are drawn, so they must be bounded by its units).
// Text that is only shown (environment, errors, notes) has the characters XML cannot hold
// (C0 controls other than tab and line breaks, U+FFFE, U+FFFF) replaced by U+FFFD, so a file
// can never break the SVG a chart is exported to.
// Non-finite values are written as the strings "nan", "inf" and "-inf"; they are read where a
// run can hold them: durations ("nan" = not measured), the gradient check's difference and
// tolerance.
#include "ckptlab/formats/results_io.h"

#include <new>
#include <stdexcept>
#include <string>

#include "formats/file_io.h"
#include "formats/full_size_json.h"
#include "formats/json_parse.h"
#include "formats/json_values.h"
#include "formats/results_run_read.h"
#include "formats/shard_json.h"
#include "formats/timing_json.h"

namespace ckptlab {

using detail::arrayAt;
using detail::clip;
using detail::describe;
using detail::fail;
using detail::Fields;
using detail::Json;
using detail::kIntMax;
using detail::kMaxRuns;
using detail::Path;
using detail::readText;

namespace {

// Optional: absent for another BLAS and in older files.
void readBlasKernel(const Fields& environment, Environment& e) {
    const Json* kernel = environment.find("blas_kernel");
    if (!kernel) return;
    const Fields f(*kernel, environment.at().member("blas_kernel"));
    BlasKernel k;
    k.name = f.text("name");
    k.chosen_by = f.choice("chosen_by", parseBlasKernelChoice, "openblas, user or lab");
    if (f.find("replaced")) k.replaced = f.text("replaced");
    if (f.find("better")) k.better = f.text("better");
    e.blas_kernel = k;
}

Environment readEnvironment(const Json& j, const Path& at) {
    const Fields f(j, at);
    Environment e;
    e.ckptlab_version = f.text("ckptlab_version");
    e.libtorch_version = f.text("libtorch_version");
    e.device = f.text("device");
    e.device_name = f.text("device_name");
    e.dtype = f.text("dtype");
    e.threads = f.integer("threads", 0, kIntMax);
    e.blas = f.text("blas");
    e.cuda_compiled = f.boolean("cuda_compiled");
    e.created_utc = f.text("created_utc");
    if (f.find("malloc_tunables")) e.malloc_tunables = f.text("malloc_tunables");
    detail::readMachineLoad(f, e);
    readBlasKernel(f, e);
    return e;
}

// The top level is an object of our schema, else the file is someone else's or a newer one.
void checkSchema(const Json& doc) {
    const std::string foreign = "not a Checkpoint Lab results file: ";
    if (!doc.is_object()) {
        throw ResultsFileError(foreign + "the top level is " + describe(doc) + ", not an object");
    }
    const auto schema = doc.find("schema");
    // plan --capacity --json's object is a plan's summary without the whole config a results
    // file keeps: said as what it is, not as a file of no kind.
    if (schema == doc.end() && doc.contains("capacity_bytes") && doc.contains("strategies"))
        throw ResultsFileError(
            foreign +
            "it is the full-size plan that plan --capacity --json writes, which holds no runs "
            "and not the whole config (a lesson's plan step records a plan as a results file)");
    if (schema == doc.end()) throw ResultsFileError(foreign + "missing \"schema\"");
    if (!schema->is_string()) {
        throw ResultsFileError(foreign + "\"schema\" is " + describe(*schema) + ", not a string");
    }
    const auto& name = schema->get_ref<const std::string&>();
    if (name != kResultsSchema) {
        // "ckptlab.results/2" and later come from a newer Checkpoint Lab: say so.
        const std::string prefix = "ckptlab.results/";
        const std::string version = name.rfind(prefix, 0) == 0 ? name.substr(prefix.size()) : "";
        const bool newer = !version.empty() && version.size() <= 9 && version[0] != '0' &&
                           version.find_first_not_of("0123456789") == std::string::npos &&
                           version != "1";
        throw ResultsFileError("unsupported schema \"" + clip(name, 80) + "\" (expected " +
                               kResultsSchema + ")" +
                               (newer ? ": the file is from a newer Checkpoint Lab" : ""));
    }
}

ResultSet readResults(const Json& doc) {
    checkSchema(doc);
    const Path root;
    const Fields top(doc, root);
    ResultSet results;
    results.environment = readEnvironment(top.get("environment"), root.member("environment"));
    results.cancelled = top.boolean("cancelled");
    const Path runsAt = root.member("runs");
    const Json& runs = arrayAt(top.get("runs"), runsAt);
    if (runs.size() > kMaxRuns) {
        fail(runsAt, "more than " + std::to_string(kMaxRuns) + " runs (" +
                         std::to_string(runs.size()) + "); a results file holds at most " +
                         std::to_string(kMaxRuns));
    }
    results.runs.reserve(runs.size());
    for (std::size_t i = 0; i < runs.size(); ++i) {
        results.runs.push_back(detail::readRun(runs[i], runsAt.item(i)));
    }
    if (const Json* frontier = top.find("predicted_frontier")) {
        const Path frontierAt = root.member("predicted_frontier");
        const Json& points = arrayAt(*frontier, frontierAt);
        for (std::size_t i = 0; i < points.size(); ++i) {
            const Fields point(points[i], frontierAt.item(i));
            results.predicted_frontier.push_back(
                {point.bytes("peak_bytes"), point.duration("step_ms")});
        }
    }
    if (const Json* notes = top.find("notes")) {
        const Path notesAt = root.member("notes");
        const Json& list = arrayAt(*notes, notesAt);
        for (std::size_t i = 0; i < list.size(); ++i) {
            results.notes.push_back(readText(list[i], notesAt.item(i)));
        }
    }
    detail::readTiming(top, results);
    detail::readShards(top, results, readEnvironment);  // shard_json.cpp
    detail::readFullSizePlan(top, results);             // full_size_json.cpp
    if (results.plan && !results.runs.empty())
        fail(root.member("plan"), "a plan's file has no runs (\"runs\" holds " +
                                      std::to_string(results.runs.size()) + ")");
    return results;
}

}  // namespace

ResultSet resultsFromJson(const std::string& text) {
    if (detail::isBlank(text)) throw ResultsFileError("not valid JSON: there is no text");
    try {
        detail::checkText(text);
        return readResults(detail::parseStrict(text));
    } catch (const Json::exception& e) {
        // Every value is type-checked before use, so this is a last line of defence.
        throw ResultsFileError("malformed results file: " + clip(e.what(), 300));
    } catch (const std::bad_alloc&) {
        throw ResultsFileError("not enough memory to read the results");
    } catch (const std::length_error&) {
        throw ResultsFileError("not enough memory to read the results");
    }
}

ResultSet loadResults(const std::string& path) {
    try {
        const std::string text = detail::readFile(path);
        if (detail::isBlank(text)) throw ResultsFileError(path + ": the file is empty");
        try {
            return resultsFromJson(text);
        } catch (const ResultsFileError& e) {
            throw ResultsFileError(path + ": " + e.what());
        }
    } catch (const std::bad_alloc&) {
        throw ResultsFileError("cannot read " + path + ": not enough memory");
    }
}

}  // namespace ckptlab
