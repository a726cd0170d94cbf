#pragma once
// What a lesson's recorded step times must not say (`ckptlab-cli lesson --check`): a time is
// the noisiest number a lesson shows, and a wrong one teaches the wrong thing. Each rule
// compares the recording with itself or with the cost model's forecast stored beside it.

#include <optional>
#include <string>
#include <vector>

#include "ckptlab/teaching/lesson.h"

namespace ckptlab {

// The cost model's forecast of the step time a strategy adds to `none`, in % of none's; below
// this its sign and size are not checked (the model's own resolution on a small step).
inline constexpr double kCheckedPredictedAddedPct = 5.0;
// Steps whose `none` takes less than this (ms) are not held to the forecast: there LibTorch's
// fixed costs per operation, which the model measures once per unit, outweigh the work.
inline constexpr double kCheckedStepMs = 2.0;
// How far a recorded time added may land from the forecast: within [1/2, 2] times it.
inline constexpr double kAllowedTimeFactor = 2.0;

// How a recording or a live run times a step: rounds until every median's interval is narrow
// (--repeats auto), at most this long a step, whatever the step's `repeats`: a lesson's time
// answers must not rest on three noisy samples.
inline constexpr double kLessonStepTimeLimitS = 30;
ExperimentConfig timedAsLesson(ExperimentConfig config, double limitS = kLessonStepTimeLimitS);

// One problem per finding, each naming the lesson, the step and the strategy:
// - a recorded time added whose interval lies wholly on the other side of 0 than the
//   forecast (a strategy that recomputes cannot make the step faster), or wholly outside
//   [forecast / 2, 2 x forecast];
// - a sentence of a text (any language) that says a strategy's step got faster or slower,
//   next to a time placeholder of that strategy, where its interval says otherwise or is
//   within noise;
// - two steps with the same experiment whose recordings are not one measurement.
std::vector<std::string> timingProblems(const Lesson& lesson, const LessonResults& results);

// The lesson's steps grouped by experiment (the same config in every field, the same
// scaling): each group is measured once and its steps show that one measurement.
std::vector<std::vector<std::string>> stepsSharingAMeasurement(const Lesson& lesson);

// The direction a sentence states for a time, from its words (en: faster, slower, ...;
// zh_CN: 更快, 更慢, ...): +1 slower, -1 faster, nullopt none or both.
std::optional<int> statedTimeDirection(const std::string& sentence);

}  // namespace ckptlab
