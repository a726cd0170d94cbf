// libFuzzer target for the results JSON loader (preset `fuzz`, see tests/fuzz/README.md).
#include <cstddef>
#include <cstdint>
#include <string>

#include "results_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    ckptlab::fuzz::checkResultsText(std::string(reinterpret_cast<const char*>(data), size));
    return 0;
}
