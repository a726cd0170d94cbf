#pragma once
// The property both the libFuzzer target and the ctest replay check on one input: the results
// loader either returns results or throws ResultsFileError with a clear one-line message, and
// what it returns survives everything ckptlab_plain does with a loaded file (a save and reload
// that gives the same text, the summary, the CSV, the Chrome trace, the thinned timelines).
// A violation prints what went wrong and aborts, which libFuzzer reports as a crash.

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "ckptlab/formats/results_io.h"
#include "ckptlab/formats/results_merge.h"
#include "ckptlab/model/strategy.h"
#include "ckptlab/model/summary.h"
#include "ckptlab/planning/plan_of_strategy.h"
#include "ckptlab/planning/planner.h"

namespace ckptlab::fuzz {

// Named in a violation's report by the replay (libFuzzer names the input itself).
inline std::string& currentInput() {
    static std::string name;
    return name;
}

[[noreturn]] inline void violation(const char* what, const std::string& detail) {
    std::fprintf(stderr, "results check failed%s%s: %s\n%s\n", currentInput().empty() ? "" : " on ",
                 currentInput().c_str(), what, detail.substr(0, 2000).c_str());
    std::fflush(stderr);
    std::abort();
}

// The message must be one line of printable, valid UTF-8 text and not absurdly long, so the
// CLI's "one line on stderr" and the app's message box both hold.
inline void checkMessage(const std::string& message) {
    if (message.empty()) violation("empty error message", message);
    if (message.size() > 2000) violation("error message longer than 2000 bytes", message);
    for (std::size_t i = 0; i < message.size();) {
        const auto c = static_cast<unsigned char>(message[i]);
        if (c < 0x20 || c == 0x7f) violation("control character in error message", message);
        std::size_t length = c < 0x80           ? 1
                             : (c >> 5) == 0x6  ? 2
                             : (c >> 4) == 0xe  ? 3
                             : (c >> 3) == 0x1e ? 4
                                                : 0;
        if (length == 0 || i + length > message.size())
            violation("invalid UTF-8 in error message", message);
        for (std::size_t k = 1; k < length; ++k)
            if ((static_cast<unsigned char>(message[i + k]) & 0xc0) != 0x80)
                violation("invalid UTF-8 in error message", message);
        i += length;
    }
}

// Text from a loaded file reaches tables, chart labels and the SVG they are exported to: it must
// hold nothing XML cannot (C0 controls other than tab and line breaks, U+FFFE, U+FFFF), and a
// strategy name, one line of a legend, not even those.
inline void checkText(const std::string& text, bool name) {
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        const bool lineBreak = c == '\t' || c == '\n' || c == '\r';
        if (c < 0x20 && (name || !lineBreak)) violation("a control character in loaded text", text);
        if (c == 0xef && i + 2 < text.size() && static_cast<unsigned char>(text[i + 1]) == 0xbf &&
            static_cast<unsigned char>(text[i + 2]) >= 0xbe)
            violation("U+FFFE or U+FFFF in loaded text", text);
    }
}

enum class Outcome { Loaded, Rejected };

// Anything thrown other than ResultsFileError escapes: libFuzzer reports it, the replay fails.
inline Outcome checkResultsText(const std::string& text, std::string* message = nullptr) {
    ResultSet results;
    try {
        results = resultsFromJson(text);
    } catch (const ResultsFileError& e) {
        checkMessage(e.what());
        if (message) *message = e.what();
        return Outcome::Rejected;
    }
    // Whatever loads must save, and the saved text must load back to the same text.
    const std::string saved = resultsToJson(results);
    ResultSet reloaded;
    try {
        reloaded = resultsFromJson(saved);
    } catch (const ResultsFileError& e) {
        violation("loaded results do not load again after saving", e.what());
    }
    if (resultsToJson(reloaded) != saved) violation("save, load, save changes the text", saved);
    if (reloaded.runs.size() != results.runs.size()) violation("runs lost in a round trip", saved);

    std::vector<const Environment*> environments{&results.environment};
    for (const Environment& machine : results.machines) environments.push_back(&machine);
    for (const Environment* e : environments) {  // a merged file's machines are shown too
        for (const std::string* text : {&e->ckptlab_version, &e->libtorch_version, &e->device,
                                        &e->device_name, &e->dtype, &e->blas, &e->created_utc})
            checkText(*text, false);
        if (const auto& kernel = e->blas_kernel)
            for (const std::string* text : {&kernel->name, &kernel->replaced, &kernel->better})
                checkText(*text, false);
    }
    for (const std::string& note : results.notes) checkText(note, false);
    for (const RunResult& run : results.runs) {
        checkText(run.strategy.name(), true);
        checkText(run.grad_check.note, false);
        if (run.error) checkText(*run.error, false);
    }

    // What the CLI and the app compute from a loaded file, short of drawing it.
    (void)summarize(results);
    (void)runMachineNames(results);
    (void)withFastestSteps(results);
    (void)summaryCsv(results);
    (void)chromeTraceJson(results);
    for (const RunResult& run : results.runs) {
        (void)downsampleTimeline(run.timeline, 500);
        // The schedule diagram's row (ui/charts/schedule_diagram.cpp): the recorded schedule,
        // or the plan the strategy's name stands for; a name that is no strategy is a note.
        const int unitsPerBlock = unitsPerBlockOf(run.config.block);
        int units = run.config.depth * unitsPerBlock;
        Plan plan;
        try {
            // The schedule the file records, else the strategy's plan; an optimal run without
            // its schedule has none (recordedPlan throws, and that is no violation).
            plan = recordedPlan(run);
        } catch (const std::exception&) {
            if (!run.schedule.empty()) violation("a loaded schedule does not parse", run.schedule);
            continue;
        }
        if (!plan.segments.empty()) {
            if (plan.segments.back().end > units)
                violation("schedule past the model", run.schedule);
            units = std::max(units, plan.segments.back().end);
        }
        (void)forwardCounts(plan, units);
        (void)checkpointSpans(plan);
    }
    // The allocator's segments chart indexes segments by a block's number and draws its bytes
    // at its offset: whatever loads must hold together.
    for (const RunResult& run : results.runs) {
        if (const auto& a = run.allocator) {
            if (a->allocated_peak < a->allocated_start || a->reserved_peak < a->reserved_start ||
                a->reserved_start < a->allocated_start || a->reserved_peak < a->allocated_peak)
                violation("allocator counts that cannot be", std::to_string(a->reserved_peak));
        }
        if (!run.allocator_trace) continue;
        const AllocatorTrace& trace = *run.allocator_trace;
        for (const SegmentBlock& b : trace.blocks) {
            if (b.segment < 0 || b.segment >= static_cast<int>(trace.segments.size()))
                violation("a trace block's segment out of range", std::to_string(b.segment));
            const std::int64_t size = trace.segments[static_cast<std::size_t>(b.segment)].size;
            if (b.offset < 0 || b.size <= 0 || b.requested <= 0 || b.requested > b.size ||
                b.offset > size - b.size)
                violation("a trace block outside its segment", std::to_string(b.offset));
        }
    }
    return Outcome::Loaded;
}

}  // namespace ckptlab::fuzz
