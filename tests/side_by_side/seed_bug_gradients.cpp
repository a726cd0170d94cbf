// Writes one model's weights, input and gradients for the side-by-side check of seed-bug:K
// (test_seed_bug_peer.py): the engine's step without checkpointing (`none`) and with the
// tutorial's closure bug (`seed-bug:K`), on the weights and input the runner would use for the
// config. PyTorch's side loads the same weights and input and runs the tutorial's own segment
// code, so the two sides' gradients can be compared tensor by tensor.
//
//   ckptlab_seed_bug_gradients BLOCK DEPTH WIDTH SEQ BATCH HEADS SEGMENTS OUT
//
// OUT.json: {"tensors": [{"name", "shape", "offset"} ...]} (offset in floats into OUT.bin);
// OUT.bin: every tensor as float32 in the machine's byte order, one after the other. Names:
// "weight/<i>" (Model::parameters()' order), "none/<i>" and "seed-bug/<i>" (Workbench::
// gradients()' order: the input's first, then the parameters').
#include <torch/torch.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ckptlab/model/config.h"
#include "ckptlab/model/strategy.h"
#include "ckptlab/planning/planner.h"
#include "engine/step.h"
#include "engine/step_context.h"

using namespace ckptlab;

namespace {

struct Dump {
    nlohmann::json tensors = nlohmann::json::array();
    std::vector<float> data;

    void add(const std::string& name, const torch::Tensor& t) {
        nlohmann::json entry{{"name", name}, {"offset", data.size()}};
        if (!t.defined()) {
            entry["shape"] = nullptr;  // no gradient at all
        } else {
            entry["shape"] = t.sizes().vec();
            const torch::Tensor flat = t.detach().to(torch::kCPU, torch::kFloat32).contiguous();
            data.insert(data.end(), flat.data_ptr<float>(), flat.data_ptr<float>() + flat.numel());
        }
        tensors.push_back(entry);
    }
};

std::vector<torch::Tensor> gradientsOf(engine::Workbench& bench, const std::string& strategy) {
    const ExperimentConfig& c = bench.config;
    bench.restoreInitialWeights();
    bench.clearGradients();
    engine::StepContext context;
    engine::runStep(bench, makePlan(parseStrategy(strategy, c.depth, c.block), c.depth), context);
    std::vector<torch::Tensor> grads;
    for (const auto& g : bench.gradients()) grads.push_back(g.defined() ? g.clone() : g);
    return grads;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 9) {
        std::fprintf(stderr,
                     "usage: %s BLOCK DEPTH WIDTH SEQ BATCH HEADS SEGMENTS OUT (see the source)\n",
                     argv[0]);
        return 2;
    }
    try {
        ExperimentConfig c;
        const auto block = parseBlockKind(argv[1]);
        if (!block) throw std::runtime_error(std::string("unknown block ") + argv[1]);
        c.block = *block;
        c.depth = std::stoi(argv[2]);
        c.width = std::stoi(argv[3]);
        c.seq = std::stoi(argv[4]);
        c.batch = std::stoi(argv[5]);
        c.heads = std::stoi(argv[6]);
        c.dropout = 0.0;  // the two sides draw from different generators
        c.seed = 0;
        c.threads = 1;
        const std::string bug = std::string("seed-bug:") + argv[7];
        const std::string out = argv[8];
        torch::set_num_threads(1);

        engine::Workbench bench(c, torch::Device(torch::kCPU));
        Dump dump;
        for (std::size_t i = 0; i < bench.initialWeights.size(); ++i)
            dump.add("weight/" + std::to_string(i), bench.initialWeights[i]);
        dump.add("input", bench.input);
        for (const std::string name : {std::string("none"), bug}) {
            const auto grads = gradientsOf(bench, name);
            const std::string prefix = name == "none" ? "none/" : "seed-bug/";
            for (std::size_t i = 0; i < grads.size(); ++i)
                dump.add(prefix + std::to_string(i), grads[i]);
        }
        std::ofstream bin(out + ".bin", std::ios::binary);
        bin.write(reinterpret_cast<const char*>(dump.data.data()),
                  static_cast<std::streamsize>(dump.data.size() * sizeof(float)));
        std::ofstream(out + ".json") << nlohmann::json{{"tensors", dump.tensors}}.dump();
        return bin ? 0 : 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: %s\n", argv[0], e.what());
        return 1;
    }
}
