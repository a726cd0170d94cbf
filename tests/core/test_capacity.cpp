// Sizes as typed and as printed (full_size.h): parseCapacity's forms and refusals, every size the
// printers write read back as the same text, and the full-size plan's one set of defaults.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "ckptlab/planning/full_size.h"

using namespace ckptlab;

namespace {

// The refusal's message; fails the test when the text is taken.
std::string refusal(const std::string& text) {
    try {
        const std::int64_t bytes = parseCapacity(text);
        ADD_FAILURE() << "\"" << text << "\" was taken as " << bytes << " bytes";
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return {};
}

// Sizes from a byte to the largest capacity, spread over every scale: powers of ten and two,
// each a little off, and a fixed pseudo-random walk.
std::vector<std::int64_t> sampleSizes() {
    std::vector<std::int64_t> sizes;
    for (std::int64_t p = 1; p <= 100'000'000'000'000; p *= 10)
        for (std::int64_t b : {p, p - 1, p + 1, p * 3 / 2})
            if (b > 0 && b <= 100'000'000'000'000) sizes.push_back(b);
    for (std::int64_t p = 1; p <= 100'000'000'000'000; p *= 2) sizes.push_back(p);
    std::uint64_t state = 12345;
    for (int i = 0; i < 2000; ++i) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        const int digits = 1 + static_cast<int>((state >> 33) % 14);
        std::int64_t scale = 1;
        for (int d = 0; d < digits; ++d) scale *= 10;
        sizes.push_back(1 + static_cast<std::int64_t>((state >> 11) % scale));
    }
    return sizes;
}

}  // namespace

TEST(Capacity, ReadsEachUnitInItsOwnCase) {
    EXPECT_EQ(parseCapacity("80GB"), 80'000'000'000LL);
    EXPECT_EQ(parseCapacity("80 GB"), 80'000'000'000LL);
    EXPECT_EQ(parseCapacity("  80GB "), 80'000'000'000LL);
    EXPECT_EQ(parseCapacity("80.00 GB"), 80'000'000'000LL);
    EXPECT_EQ(parseCapacity("79.5GiB"), 85'362'475'008LL);
    EXPECT_EQ(parseCapacity("512 MB"), 512'000'000LL);
    EXPECT_EQ(parseCapacity("512MiB"), 512LL << 20);
    EXPECT_EQ(parseCapacity("1.5 kB"), 1500);
    EXPECT_EQ(parseCapacity("3KiB"), 3072);
    EXPECT_EQ(parseCapacity("2 TB"), 2'000'000'000'000LL);
    EXPECT_EQ(parseCapacity("2TiB"), 2LL << 40);
    EXPECT_EQ(parseCapacity("1 B"), 1);
    // The largest capacity printed in GiB rounds up past it: still the largest.
    EXPECT_EQ(parseCapacity("93132.26 GiB"), 100'000'000'000'000LL);
    EXPECT_EQ(parseCapacity("100000GB"), 100'000'000'000'000LL);
    for (const CapacityPreset& preset : capacityPresets())
        EXPECT_EQ(parseCapacity(preset.name), preset.bytes) << preset.name;
}

TEST(Capacity, RefusesBitsAmbiguousUnitsAndBlanksNamingTheOption) {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"80Gb", "bits"},
        {"80gb", "bits"},
        {"80 Mb", "bits"},
        {"8 0 G B", "blanks only between the number and the unit"},
        {"80 G B", "blanks only between the number and the unit"},
        {"80KB", "1000 or 1024"},
        {"80gB", "case-sensitive: 80GB?"},
        {"80GIB", "case-sensitive: 80GiB?"},
        {"80", "no unit"},
        {"GB", "no number"},
        {"", ""},
        {"   ", ""},
        {"0GB", "at least 1 B"},
        {"0.00 GB", "at least 1 B"},
        {"-5GB", "no number"},
        {"+5GB", "no number"},
        {"1e3GB", "\"e3GB\" is not a unit"},
        {"nanGB", "no number"},
        {"80.GB", "not a plain number"},
        {".5GB", "not a plain number"},
        {"1.2.3GB", "not a plain number"},
        {"1.5 B", "whole"},
        {"100001GB", "above 100000 GB"},
        {"93132.27 GiB", "above 100000 GB"},
        {"80GB80", "\"GB80\" is not a unit"},
        {"80\tGB", "is not a unit"},
    };
    for (const auto& [text, why] : cases) {
        const std::string message = refusal(text);
        EXPECT_EQ(message.rfind("--capacity must be a size such as 80GB (10^9 bytes)", 0), 0u)
            << text << ": " << message;
        EXPECT_NE(message.find("KiB, MiB, GiB, TiB"), std::string::npos) << message;
        EXPECT_NE(message.find("(got \"" + text + "\""), std::string::npos) << message;
        EXPECT_NE(message.find(why), std::string::npos) << text << ": " << message;
    }
}

TEST(Capacity, EverySizeThePrintersWriteReadsBackAsTheSameText) {
    int checked = 0;
    for (std::int64_t bytes : sampleSizes()) {
        // The printer of a size alone and its companion in GiB: the bytes are recovered to the
        // printed digits, so the text printed again is the same.
        const std::string alone = readableSize(bytes);
        EXPECT_EQ(readableSize(parseCapacity(alone)), alone) << bytes;
        const std::string companion = readableSize(bytes, true);
        const std::string unit = companion.substr(companion.find(' ') + 1);
        EXPECT_EQ(byteSizeText(parseCapacity(companion), unit, unit == "B" ? 0 : 2), companion)
            << bytes;
        checked += 2;
        // Each unit with the decimals the printers use (0 to 2); B only whole.
        for (const ByteUnit& unit : byteUnits()) {
            for (int decimals = 0; decimals <= (unit.bytes == 1 ? 0 : 2); ++decimals) {
                const std::string text = byteSizeText(bytes, unit.name, decimals);
                if (text.find_first_of("123456789") > text.find(' ')) continue;  // reads 0
                const std::int64_t back = parseCapacity(text);
                EXPECT_EQ(byteSizeText(back, unit.name, decimals), text) << bytes;
                if (decimals == 0 && unit.bytes == 1) EXPECT_EQ(back, bytes);
                ++checked;
            }
        }
    }
    EXPECT_GT(checked, 20000);
}

TEST(Capacity, SizesAlonePickAUnitThatNeverReadsZero) {
    EXPECT_EQ(readableSize(80'000'000'000LL), "80.00 GB");
    EXPECT_EQ(readableSize(80'000'000'000LL, true), "74.51 GiB");
    EXPECT_EQ(readableSize(1'000'000'000LL, true), "0.93 GiB");
    EXPECT_EQ(readableSize(512'000'000LL), "512.00 MB");
    EXPECT_EQ(readableSize(4'200), "4.20 kB");
    EXPECT_EQ(readableSize(994), "994 B");
    EXPECT_EQ(readableSize(999), "1.00 kB");  // two decimals of kB read it as 1
    EXPECT_EQ(readableSize(0), "0 B");
    EXPECT_EQ(byteSizeText(100'000'000'000'000LL, "GiB"), "93132.26 GiB");
    EXPECT_THROW(byteSizeText(1, "Gb"), std::invalid_argument);
}

TEST(FullSizeDefaults, OneSetForTheCliAndTheAppKeepingWhatWasTyped) {
    ExperimentConfig all;
    all.batch = 7;
    applyFullSizeDefaults(all);
    EXPECT_EQ(all.seq, 2048);
    EXPECT_EQ(all.batch, 1);
    EXPECT_EQ(all.optimizer, Optimizer::Adam);

    ExperimentConfig typed;
    typed.seq = 64;
    typed.batch = 4;
    typed.optimizer = Optimizer::Sgd;
    typed.dtype = DType::BFloat16;
    applyFullSizeDefaults(typed, [](const std::string& key) { return key == "batch"; });
    EXPECT_EQ(typed.seq, 2048);
    EXPECT_EQ(typed.batch, 4);
    EXPECT_EQ(typed.optimizer, Optimizer::Adam);
    EXPECT_EQ(typed.dtype, DType::BFloat16);  // a model's, never a default's
    EXPECT_EQ(fullSizeDefaultsText(), "Adam, batch 1, sequence 2048");
}
