// A run's own generators (engine/generators.h) draw what LibTorch's default one would from the
// same seed: the weights, the dropout masks and their gradients stay the ones a plain LibTorch
// program gets, only no other thread can change them.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include "ckptlab/model/strategy.h"
#include "ckptlab/planning/planner.h"
#include "engine/checkpoint.h"
#include "engine/generators.h"
#include "engine/grad_check.h"
#include "engine/model.h"
#include "engine/step.h"
#include "test_configs.h"

using namespace ckptlab;
using namespace ckptlab::engine;

namespace {

bool sameValues(const torch::Tensor& a, const torch::Tensor& b) {
    return a.sizes() == b.sizes() && torch::equal(a, b);
}

}  // namespace

TEST(Generators, DropoutIsTorchDropoutDrawnFromTheGivenGenerator) {
    for (double p : {0.0, 0.1, 0.5, 1.0}) {
        for (bool train : {true, false}) {
            const torch::Tensor x = torch::linspace(-2, 2, 4096).reshape({8, 512});
            torch::Tensor a = x.clone().requires_grad_();
            torch::Tensor b = x.clone().requires_grad_();
            torch::manual_seed(11);
            torch::Tensor expected = torch::dropout(a, p, train);
            at::Generator generator = makeGenerator(torch::kCPU, 11);
            torch::Tensor actual = engine::dropout(b, p, train, generator);
            EXPECT_TRUE(sameValues(expected, actual)) << "p " << p << " train " << train;
            (expected * x).sum().backward();
            (actual * x).sum().backward();
            EXPECT_TRUE(sameValues(a.grad(), b.grad())) << "p " << p << " train " << train;
        }
    }
}

// The weights nn::Linear's constructor draws after torch::manual_seed(seed), in the same order:
// the same distributions, to the bit.
TEST(Generators, WeightsAreNnLinearsDefaultInitialisationFromTheSeed) {
    ExperimentConfig config = test::tinyChain(BlockKind::Transformer);
    config.depth = 2;
    const int w = config.width;
    torch::manual_seed(config.seed);
    std::vector<torch::Tensor> expected;
    for (int block = 0; block < config.depth; ++block) {
        for (auto [in, out] : {std::pair{w, 3 * w}, {w, w}, {w, 4 * w}, {4 * w, w}}) {
            torch::nn::Linear linear(in, out);
            expected.push_back(linear->weight.detach().clone());
            expected.push_back(linear->bias.detach().clone());
        }
    }
    torch::manual_seed(config.seed + 12345);  // nothing of the model may come from here
    Model model = buildModel(config, torch::kCPU);
    std::vector<torch::Tensor> drawn;
    for (const auto& module : model.modules(/*include_self=*/false))
        if (auto* linear = module->as<torch::nn::Linear>()) {
            drawn.push_back(linear->weight.detach());
            drawn.push_back(linear->bias.detach());
        }
    ASSERT_EQ(drawn.size(), expected.size());
    for (std::size_t i = 0; i < drawn.size(); ++i)
        EXPECT_TRUE(sameValues(drawn[i], expected[i])) << "parameter " << i;
}

// A checkpoint replays the masks of the generator it was given, whatever the default one does
// between the forward and the backward.
TEST(Generators, CheckpointRecomputesWithTheRunsGenerator) {
    torch::nn::Linear linear(16, 16);
    const torch::Tensor x = torch::randn({4, 16});
    at::Generator generator = makeGenerator(torch::kCPU, 5);
    auto segment = [&](const torch::Tensor& in) {
        return engine::dropout(linear->forward(in), 0.5, true, generator);
    };
    torch::Tensor plainIn = x.clone().requires_grad_();
    reseed(generator, 5);
    segment(plainIn).sum().backward();
    const torch::Tensor plainWeightGrad = linear->weight.grad().clone();
    linear->zero_grad();

    torch::Tensor checkpointIn = x.clone().requires_grad_();
    reseed(generator, 5);
    CheckpointOptions options;
    options.generator = generator;
    torch::Tensor y = checkpoint(segment, checkpointIn, linear->parameters(), options);
    torch::manual_seed(99);  // another thread's traffic on the default generator
    torch::rand({1000});
    y.sum().backward();
    EXPECT_TRUE(sameValues(checkpointIn.grad(), plainIn.grad()));
    EXPECT_TRUE(sameValues(linear->weight.grad(), plainWeightGrad));
}

// A workbench's step reseeds the model's generator: the same masks every step, whatever the
// default generator holds.
TEST(Generators, EveryStepDrawsTheSameMasksFromTheModelsGenerator) {
    ExperimentConfig config = test::tinyChain(BlockKind::Transformer);
    config.optimizer = Optimizer::None;  // the same weights in both steps
    Workbench bench(config, torch::kCPU);
    StepContext context;
    const Plan full = makePlan(parseStrategy("full", config.depth, config.block), config.depth);
    runStep(bench, full, context);
    const std::vector<torch::Tensor> first = snapshot(bench.gradients());
    torch::manual_seed(config.seed + 1);
    torch::rand({1000});  // the default generator where a step used to reseed it
    runStep(bench, full, context);
    const std::vector<torch::Tensor> second = bench.gradients();
    ASSERT_EQ(first.size(), second.size());
    for (std::size_t i = 0; i < first.size(); ++i)
        EXPECT_TRUE(sameValues(first[i], second[i])) << "gradient " << i;
}
