#pragma once
// The property both the model config fuzzer and its ctest replay check on one input: the
// config.json reader either returns a model or throws ModelConfigError whose message is one
// printable line starting with the field it names; a model it returns applies to a config
// validate() accepts, with a positive parameter count. A violation prints what went wrong and
// aborts, which libFuzzer reports as a crash.

#include <cstdio>
#include <cstdlib>
#include <string>

#include "ckptlab/formats/model_config.h"
#include "ckptlab/model/config.h"
#include "results_check.h"

namespace ckptlab::fuzz {

enum class ModelOutcome { Loaded, Rejected };

// The refusal's message: one printable line (results_check.h) that starts with its field.
inline void checkModelError(const ModelConfigError& e, const std::string& prefix) {
    const std::string message = e.what();
    checkMessage(message);
    const std::string start = prefix + (e.field().empty() ? "" : e.field() + ": ");
    if (message.compare(0, start.size(), start) != 0)
        violation("the message does not start with its field", e.field() + " | " + message);
}

// What a loaded model must satisfy.
inline void checkModel(const ModelDescription& model) {
    ExperimentConfig config;
    applyModel(model, config);
    const auto errors = validate(config);
    if (!errors.empty())
        violation("a loaded model gives a config validate() refuses",
                  errors.front().field + ": " + errors.front().message.english);
    if (modelParameterCount(config) <= 0)
        violation("a loaded model has no parameters", model.architecture);
    for (const std::string& note : model.notes) checkMessage(note);
}

inline ModelOutcome checkModelText(const std::string& text) {
    ModelDescription model;
    try {
        model = parseModelConfig(text, "fuzz");
    } catch (const ModelConfigError& e) {
        checkModelError(e, "");
        return ModelOutcome::Rejected;
    }
    checkModel(model);
    return ModelOutcome::Loaded;
}

}  // namespace ckptlab::fuzz
