// libFuzzer target for the model config.json reader (preset `fuzz`, see tests/fuzz/README.md).
#include <cstddef>
#include <cstdint>
#include <string>

#include "model_config_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    ckptlab::fuzz::checkModelText(std::string(reinterpret_cast<const char*>(data), size));
    return 0;
}
