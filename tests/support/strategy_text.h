#pragma once
// Tests write strategies as text, as a user would: parsed here the way a front end parses them
// at its boundary (parseStrategies), and printed by gtest by their names.

#include <ostream>
#include <string>

#include "ckptlab/model/strategy.h"

namespace ckptlab {

// A strategy in a test's messages and gtest's printouts: its name.
inline std::ostream& operator<<(std::ostream& out, const Strategy& strategy) {
    return out << strategy.name();
}

namespace test {

// One strategy from its text; throws StrategyError when it is none.
inline Strategy strategy(const std::string& text) { return parseStrategies({text}).front(); }

}  // namespace test
}  // namespace ckptlab
