// The checkpoint Function alone: gradients, RNG, no-grad inputs, autograd::grad, nesting.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include "engine/checkpoint.h"
#include "engine/grad_check.h"

using namespace ckptlab::engine;

namespace {

struct TinyNet {
    torch::nn::Linear a{16, 32}, b{32, 16};
    TinyNet() { torch::manual_seed(1); a = torch::nn::Linear(16, 32); b = torch::nn::Linear(32, 16); }
    std::vector<torch::Tensor> params() {
        auto p = a->parameters();
        for (auto& t : b->parameters()) p.push_back(t);
        return p;
    }
    // Dropout inside: recompute must draw the same mask.
    torch::Tensor operator()(const torch::Tensor& x) {
        return b->forward(torch::dropout(torch::relu(a->forward(x)), 0.5, true)) + x;
    }
    void zeroGrad() {
        for (auto& p : params()) p.mutable_grad().reset();
    }
    std::vector<torch::Tensor> grads() {
        std::vector<torch::Tensor> g;
        for (auto& p : params()) g.push_back(p.grad().clone());
        return g;
    }
};

}  // namespace

TEST(Checkpoint, GradientsAndDropoutMaskEqualThePlainRun) {
    TinyNet net;
    auto x = torch::randn({4, 16}, torch::requires_grad());
    torch::manual_seed(7);
    net(x).pow(2).sum().backward();
    auto plainParams = net.grads();
    auto plainInput = x.grad().clone();

    net.zeroGrad();
    x.mutable_grad().reset();
    torch::manual_seed(7);
    SegmentFn segment = [&](const torch::Tensor& in) { return net(in); };
    auto y = checkpoint(segment, x, net.params());
    // Draw more random numbers before backward: the recompute must not see them...
    auto drawnBetween = torch::rand({100});
    y.pow(2).sum().backward();
    auto drawnAfter = torch::rand({3});
    EXPECT_EQ(maxAbsDiff(plainParams, net.grads()), 0.0);
    EXPECT_EQ(maxAbsDiff({plainInput}, {x.grad()}), 0.0);

    // ...and the stream after backward continues as if nothing had been recomputed.
    torch::manual_seed(7);
    {
        torch::NoGradGuard noGrad;
        net(x);
    }
    EXPECT_TRUE(torch::equal(drawnBetween, torch::rand({100})));
    EXPECT_TRUE(torch::equal(drawnAfter, torch::rand({3})));
}

TEST(Checkpoint, ParametersGetGradientsWhenInputNeedsNone) {
    TinyNet net;
    auto x = torch::randn({4, 16});  // no grad
    torch::manual_seed(3);
    net(x).sum().backward();
    auto plain = net.grads();
    net.zeroGrad();
    torch::manual_seed(3);
    SegmentFn segment = [&](const torch::Tensor& in) { return net(in); };
    checkpoint(segment, x, net.params()).sum().backward();
    for (auto& p : net.params()) ASSERT_TRUE(p.grad().defined());
    EXPECT_EQ(maxAbsDiff(plain, net.grads()), 0.0);
}

TEST(Checkpoint, WorksUnderAutogradGrad) {
    TinyNet net;
    auto x = torch::randn({4, 16}, torch::requires_grad());
    torch::manual_seed(5);
    auto plain = torch::autograd::grad({net(x).sum()}, {x});
    torch::manual_seed(5);
    SegmentFn segment = [&](const torch::Tensor& in) { return net(in); };
    auto viaCheckpoint = torch::autograd::grad({checkpoint(segment, x, net.params()).sum()}, {x});
    EXPECT_TRUE(torch::equal(plain[0], viaCheckpoint[0]));
}

TEST(Checkpoint, NestedCheckpointsGiveThePlainGradients) {
    TinyNet first, second;
    auto x = torch::randn({4, 16}, torch::requires_grad());
    torch::manual_seed(9);
    second(first(x)).sum().backward();
    auto plain = first.grads();
    auto plainSecond = second.grads();
    auto plainInput = x.grad().clone();
    first.zeroGrad();
    second.zeroGrad();
    x.mutable_grad().reset();

    torch::manual_seed(9);
    SegmentFn innerFirst = [&](const torch::Tensor& in) { return first(in); };
    SegmentFn innerSecond = [&](const torch::Tensor& in) { return second(in); };
    SegmentFn outer = [&](const torch::Tensor& in) {
        auto h = checkpoint(innerFirst, in, first.params());
        return checkpoint(innerSecond, h, second.params());
    };
    auto params = first.params();
    for (auto& p : second.params()) params.push_back(p);
    checkpoint(outer, x, params).sum().backward();
    EXPECT_EQ(maxAbsDiff(plain, first.grads()), 0.0);
    EXPECT_EQ(maxAbsDiff(plainSecond, second.grads()), 0.0);
    EXPECT_EQ(maxAbsDiff({plainInput}, {x.grad()}), 0.0);
}

TEST(Checkpoint, WrongRecomputeIsCaughtByTheGradientCheck) {
    TinyNet right;
    TinyNet wrong;
    {
        torch::NoGradGuard g;
        for (auto& p : wrong.params()) p.add_(0.5);
    }
    auto x = torch::randn({4, 16}, torch::requires_grad());
    torch::manual_seed(4);
    right(x).sum().backward();
    auto plainInput = x.grad().clone();
    x.mutable_grad().reset();

    torch::manual_seed(4);
    CheckpointOptions options;
    options.recompute = [&](const torch::Tensor& in) { return wrong(in); };
    SegmentFn segment = [&](const torch::Tensor& in) { return right(in); };
    checkpoint(segment, x, right.params(), options).sum().backward();
    auto check = checkGradients({plainInput}, {x.grad()}, ckptlab::DType::Float32);
    EXPECT_GT(check.max_abs_diff, 0.01);
    EXPECT_FALSE(check.passed());
}
