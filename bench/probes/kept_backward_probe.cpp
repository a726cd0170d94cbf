// Why is a kept block's backward slower than a recomputed one's? Times one block's backward
// of the project's own model under the conditions that differ between the two, so a follow-up
// can test a hypothesis in seconds. Not a test: it asserts nothing and only prints medians.
//
//   build/release/bench/probes/kept_backward_probe [width seq batch depth repeats]
//
// Compare its lines with the backward phase spans of real steps (`ckptlab-cli run -s none
// --json none.json`, and `-s full`): see the README's cost model section.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "engine/model.h"

using namespace ckptlab;
using Clock = std::chrono::steady_clock;

namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

double msSince(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
    ExperimentConfig config;  // the app's default: the seed's ffn block at a CPU-sized shape
    const auto arg = [&](int i, int fallback) { return argc > i ? std::atoi(argv[i]) : fallback; };
    config.width = arg(1, config.width);
    config.seq = arg(2, config.seq);
    config.batch = arg(3, config.batch);
    config.depth = std::max(2, arg(4, 4));
    const int repeats = std::max(3, arg(5, 15));
    const torch::Device cpu(torch::kCPU);
    engine::Model model = engine::buildModel(config, cpu);
    torch::Tensor input = engine::buildInput(config, cpu).requires_grad_();
    torch::Tensor gradOut = torch::randn_like(input);
    torch::Tensor buffer = torch::zeros({64LL << 18});  // 64 MiB, allocated once
    auto clearGrads = [&] {
        input.mutable_grad().reset();
        for (auto& p : model.parameters()) p.mutable_grad().reset();
    };
    engine::Block& block = model.block(0);
    auto timedBackward = [&](const torch::Tensor& y) {
        const auto start = Clock::now();
        y.backward(gradOut);
        return msSince(start);
    };

    std::vector<std::string> names = {
        "first forward+backward of the iteration",
        "second forward+backward",
        "second, with a throwaway forward before it",
        "second, reading 64 MiB before the backward",
        "per block, backward through all blocks chained",
    };
    std::vector<std::vector<double>> times(names.size());
    for (int i = 0; i < repeats + 1; ++i) {
        clearGrads();
        const double first = timedBackward(block.forwardPart(0, input));
        clearGrads();
        const int variant = 1 + i % 3;  // the second pair's variant turns with each repeat
        if (variant == 2) block.forwardPart(0, input);
        torch::Tensor y = block.forwardPart(0, input);
        if (variant == 3) {
            volatile float sink = buffer.sum().item<float>();
            (void)sink;
        }
        const double second = timedBackward(y);
        clearGrads();
        torch::Tensor x = input;
        for (int b = 0; b < model.depth(); ++b)
            for (int part = 0; part < model.partsPerBlock(); ++part)
                x = model.block(b).forwardPart(part, x);
        const double chained = timedBackward(x) / config.depth;
        if (i == 0) continue;  // warm-up
        times[0].push_back(first);
        times[variant].push_back(second);
        times[4].push_back(chained);
    }
    std::printf("block %s, width %d, seq %d, batch %d, %d blocks chained; medians (ms):\n",
                toString(config.block).c_str(), config.width, config.seq, config.batch,
                config.depth);
    for (std::size_t k = 0; k < names.size(); ++k)
        std::printf("  %-50s %7.2f  (%zu samples)\n", names[k].c_str(), median(times[k]),
                    times[k].size());
    return 0;
}
