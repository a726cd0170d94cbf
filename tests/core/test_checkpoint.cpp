// The checkpoint Function alone: gradients, RNG, no-grad inputs, autograd::grad, nesting,
// a second backward and double backward; and the gradient check on non-finite gradients.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cmath>
#include <limits>
#include <memory>

#include "ckptlab/formats/results_io.h"

#include "engine/checkpoint.h"
#include "engine/grad_check.h"
#include "engine/model.h"
#include "strategy_text.h"
#include "tensor_tolerance.h"
#include "test_configs.h"

using namespace ckptlab::engine;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

torch::Tensor values(std::vector<double> v, torch::ScalarType type = torch::kFloat32) {
    return torch::tensor(v, torch::kFloat64).to(type);
}

struct TinyNet {
    torch::nn::Linear a{16, 32}, b{32, 16};
    TinyNet() {
        torch::manual_seed(1);
        a = torch::nn::Linear(16, 32);
        b = torch::nn::Linear(32, 16);
    }
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

// Bitwise equal and finite: the recompute replays the forward's kernels on the same shapes and
// the backward runs the same kernels in the same order, on any CPU. maxAbsDiff(...) == 0 alone
// would also hold when both runs have NaN in the same places.
void expectSameFiniteGradients(const std::vector<torch::Tensor>& reference,
                               const std::vector<torch::Tensor>& gradients) {
    ASSERT_EQ(reference.size(), gradients.size());
    for (std::size_t i = 0; i < reference.size(); ++i) {
        ASSERT_TRUE(reference[i].defined()) << i;
        ASSERT_TRUE(gradients[i].defined()) << i;
        EXPECT_TRUE(reference[i].isfinite().all().item<bool>()) << "reference gradient " << i;
        EXPECT_TRUE(gradients[i].isfinite().all().item<bool>()) << "gradient " << i;
        EXPECT_TRUE(torch::equal(reference[i], gradients[i])) << "gradient " << i;
    }
    EXPECT_EQ(maxAbsDiff(reference, gradients), 0.0);
}

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
    expectSameFiniteGradients(plainParams, net.grads());
    expectSameFiniteGradients({plainInput}, {x.grad()});

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
    expectSameFiniteGradients(plain, net.grads());
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
    expectSameFiniteGradients(plain, first.grads());
    expectSameFiniteGradients(plainSecond, second.grads());
    expectSameFiniteGradients({plainInput}, {x.grad()});
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

// ---- The gradient check on non-finite gradients ----

TEST(GradCheck, NanInTheCheckedRunFails) {
    auto reference = values({1, 2, 3, 4});
    auto gradient = values({1, kNaN, 3, kNaN});
    EXPECT_TRUE(std::isnan(maxAbsDiff({reference}, {gradient})));
    auto check = checkGradients({reference}, {gradient}, ckptlab::DType::Float32);
    EXPECT_TRUE(check.checked);
    EXPECT_TRUE(std::isnan(check.max_abs_diff));
    EXPECT_FALSE(check.passed());
    EXPECT_TRUE(std::isfinite(check.tolerance));
    EXPECT_EQ(check.note, "NaN in 2 of 4 elements of gradient 0 where the reference has numbers");
}

TEST(GradCheck, NanOnlyInTheReferenceFails) {
    auto check = checkGradients({values({1, kNaN})}, {values({1, 2})}, ckptlab::DType::Float32);
    EXPECT_TRUE(std::isnan(check.max_abs_diff));
    EXPECT_FALSE(check.passed());
    EXPECT_TRUE(std::isfinite(check.tolerance));
    EXPECT_EQ(check.note,
              "NaN in the reference in 1 of 2 elements of gradient 0 where this run has numbers");
}

TEST(GradCheck, NanAfterAFiniteDifferenceStillFails) {
    // The NaN comes second, after a finite worst: the fold must not keep the finite one.
    auto check = checkGradients({values({1, 2}), values({3, 4})},
                                {values({1, 2.5}), values({kNaN, 4})}, ckptlab::DType::Float32);
    EXPECT_TRUE(std::isnan(check.max_abs_diff));
    EXPECT_FALSE(check.passed());
}

TEST(GradCheck, InfInTheCheckedRunFails) {
    auto check = checkGradients({values({1, 2})}, {values({1, kInf})}, ckptlab::DType::Float32);
    EXPECT_EQ(check.max_abs_diff, kInf);
    EXPECT_FALSE(check.passed());
    EXPECT_EQ(check.note, "Inf in 1 of 2 elements of gradient 0 where the reference differs");
    check = checkGradients({values({kInf, 2})}, {values({1, 2})}, ckptlab::DType::Float32);
    EXPECT_EQ(check.max_abs_diff, kInf);
    EXPECT_FALSE(check.passed());
    EXPECT_EQ(check.note,
              "Inf in the reference in 1 of 2 elements of gradient 0 where this run is finite");
    // Opposite infinities differ by Inf, not NaN.
    check = checkGradients({values({-kInf, 2})}, {values({kInf, 2})}, ckptlab::DType::Float32);
    EXPECT_EQ(check.max_abs_diff, kInf);
    EXPECT_FALSE(check.passed());
}

TEST(GradCheck, NanInBothRunsAtTheSamePlacesMatches) {
    auto check = checkGradients({values({1, kNaN, 3, -kInf})}, {values({1, kNaN, 3, -kInf})},
                                ckptlab::DType::Float32);
    EXPECT_EQ(check.max_abs_diff, 0.0);
    EXPECT_TRUE(check.passed());
    EXPECT_TRUE(std::isfinite(check.tolerance));
    // Passed, since checkpointing reproduced the reference, but not silently.
    EXPECT_EQ(check.note,
              "NaN in both runs in the same 1 of 4 elements of gradient 0; "
              "the same Inf in both runs in 1 of 4 elements of gradient 0");
    // A finite difference elsewhere is still measured.
    check = checkGradients({values({1, kNaN})}, {values({1.5, kNaN})}, ckptlab::DType::Float32);
    EXPECT_EQ(check.max_abs_diff, 0.5);
    EXPECT_FALSE(check.passed());
}

TEST(GradCheck, NanInBothRunsAtDifferentPlacesFails) {
    auto check =
        checkGradients({values({kNaN, 2, 3})}, {values({kNaN, kNaN, 3})}, ckptlab::DType::Float32);
    EXPECT_TRUE(std::isnan(check.max_abs_diff));
    EXPECT_FALSE(check.passed());
    EXPECT_EQ(check.note,
              "NaN in 1 of 3 elements of gradient 0 where the reference has numbers; "
              "NaN in both runs in the same 1 of 3 elements of gradient 0");
}

TEST(GradCheck, NoteNamesTheGradientsAndStaysShort) {
    std::vector<torch::Tensor> reference, gradients;
    for (int i = 0; i < 6; ++i) {
        reference.push_back(values({1, 2, 3}));
        gradients.push_back(i == 0 ? values({1, 2, 3}) : values({kNaN, 2, 3}));
    }
    auto check = checkGradients(reference, gradients, ckptlab::DType::Float32,
                                {"input", "block 0 up.weight", "block 0 up.bias"});
    EXPECT_TRUE(std::isnan(check.max_abs_diff));
    EXPECT_EQ(check.note,
              "NaN in 1 of 3 elements of block 0 up.weight where the reference has numbers; "
              "NaN in 1 of 3 elements of block 0 up.bias where the reference has numbers; "
              "NaN in 1 of 3 elements of gradient 3 where the reference has numbers; "
              "NaN in 1 of 3 elements of gradient 4 where the reference has numbers; and 1 more");
    // Finite gradients leave no note.
    check = checkGradients({values({1, 2})}, {values({1, 2.5})}, ckptlab::DType::Float32);
    EXPECT_EQ(check.note, "");
}

TEST(GradCheck, GradientNamesFollowTheWorkbenchOrder) {
    ckptlab::ExperimentConfig config;
    config.block = ckptlab::BlockKind::Transformer;
    config.heads = 2;
    config.depth = 2;
    config.width = 8;
    config.seq = 4;
    config.batch = 1;
    Model model = buildModel(config, torch::kCPU);
    auto names = gradientNames(model);
    ASSERT_EQ(names.size(), 1 + model.parameters().size());
    EXPECT_EQ(names[0], "input");
    EXPECT_EQ(names[1].rfind("block 0 ", 0), 0u) << names[1];
    EXPECT_EQ(names.back().rfind("block 1 ", 0), 0u) << names.back();
    std::size_t i = 1;
    for (int b = 0; b < model.depth(); ++b)
        for (const auto& p : model.block(b).named_parameters()) {
            EXPECT_TRUE(p.value().is_same(model.parameters()[i - 1])) << names[i];
            EXPECT_EQ(names[i++], "block " + std::to_string(b) + " " + p.key());
        }
}

TEST(GradCheck, ShapesMustMatch) {
    EXPECT_THROW(checkGradients({values({1, 2})}, {values({1})}, ckptlab::DType::Float32),
                 c10::Error);
    // Empty gradients compare as equal rather than throwing from max().
    auto check = checkGradients({values({})}, {values({})}, ckptlab::DType::Float32);
    EXPECT_TRUE(check.passed());
}

TEST(GradCheck, MissingGradientAgainstNanFails) {
    // A gradient missing on one side counts as zeros, and zero is not NaN.
    auto check = checkGradients({torch::Tensor()}, {values({0, kNaN})}, ckptlab::DType::Float32);
    EXPECT_TRUE(std::isnan(check.max_abs_diff));
    EXPECT_FALSE(check.passed());
    check = checkGradients({values({kNaN, 0})}, {torch::Tensor()}, ckptlab::DType::Float32);
    EXPECT_TRUE(std::isnan(check.max_abs_diff));
}

TEST(GradCheck, Bfloat16NanFails) {
    auto check = checkGradients({values({1, 2}, torch::kBFloat16)},
                                {values({1, kNaN}, torch::kBFloat16)}, ckptlab::DType::BFloat16);
    EXPECT_TRUE(std::isnan(check.max_abs_diff));
    EXPECT_FALSE(check.passed());
}

TEST(GradCheck, ToleranceIgnoresNonFiniteReferenceValues) {
    auto check = checkGradients({values({kInf, 200, kNaN})}, {values({kInf, 200, kNaN})},
                                ckptlab::DType::Float32);
    EXPECT_EQ(check.tolerance, gradTolerance(ckptlab::DType::Float32, 200));
    EXPECT_TRUE(check.passed());
}

// ---- The tolerance, derived from the dtype and the size of the step ----

TEST(GradCheck, ToleranceFollowsTheDtypeAndTheSizeOfTheStep) {
    ckptlab::ExperimentConfig c;
    c.block = ckptlab::BlockKind::Ffn;
    c.depth = 6;
    c.width = 32;
    c.seq = 32;
    c.batch = 2;
    GradCheckSize size = gradCheckSize(c);
    EXPECT_EQ(size.reduction, 4 * 32);  // the FFN's hidden size beats 64 tokens
    EXPECT_EQ(size.layers, 6 * 3 + 1);
    c.seq = 256;
    EXPECT_EQ(gradCheckSize(c).reduction, 2 * 256);  // now the tokens a weight gradient sums
    c.block = ckptlab::BlockKind::Transformer;
    EXPECT_EQ(gradCheckSize(c).layers, 6 * 9 + 1);

    // Relative to the gradients' scale; more terms, more layers and bfloat16 allow more.
    EXPECT_EQ(gradTolerance(size, 0), 0.0);
    EXPECT_DOUBLE_EQ(gradTolerance(size, 8), 8 * gradTolerance(size, 1));
    const double base = gradTolerance(size, 1);
    EXPECT_GT(base, 0);
    EXPECT_GT(gradTolerance({size.dtype, 2 * size.reduction, size.layers}, 1), base);
    EXPECT_GT(gradTolerance({size.dtype, size.reduction, 2 * size.layers}, 1), base);
    EXPECT_GT(gradTolerance({ckptlab::DType::BFloat16, size.reduction, size.layers}, 1),
              100 * base);
    // The tutorial's step, and a transformer of 96 blocks of width 8192 on 65,536 tokens (sums
    // of 5.7e7 terms, where the worst case allows nothing), still have bounds that a wrong
    // gradient, off by its own size, exceeds.
    using ckptlab::test::quickConfig;
    const auto tutorial = quickConfig(ckptlab::BlockKind::Ffn, 20, 2048, 2048, 2);
    EXPECT_LT(gradTolerance(gradCheckSize(tutorial), 1), 1e-3);
    const auto large = quickConfig(ckptlab::BlockKind::Transformer, 96, 8192, 8192, 8);
    EXPECT_LT(gradTolerance(gradCheckSize(large), 1), 0.02);
}

// Sums of the same float32 numbers in two orders (ATen's vectorised sum, cumsum's running one)
// differ by rounding alone: the tolerance for their size admits it, and a real change of
// 1e-3 of the scale does not pass.
TEST(GradCheck, ToleranceAdmitsTheSameSumsInAnotherOrder) {
    constexpr std::int64_t kTerms = 1 << 16;
    torch::manual_seed(11);
    const auto terms = torch::randn({8, kTerms});
    const auto blocked = terms.sum(1);
    const auto running = terms.cumsum(1).select(1, kTerms - 1);
    const GradCheckSize size{ckptlab::DType::Float32, kTerms, 1};
    const auto check = checkGradients({blocked}, {running}, size);
    EXPECT_GT(check.max_abs_diff, 0.0) << "the two orders happened to agree: nothing was tested";
    EXPECT_TRUE(check.passed()) << check.max_abs_diff << " > " << check.tolerance;

    const double scale = blocked.abs().max().item<double>();
    auto changed = running.clone();
    changed[0] += 1e-3 * scale;
    EXPECT_FALSE(checkGradients({blocked}, {changed}, size).passed());
}

TEST(GradCheck, PassedIsFalseForNonFiniteDifferences) {
    ckptlab::GradCheck check;
    check.checked = true;
    check.tolerance = 1e-5;
    check.max_abs_diff = kNaN;
    EXPECT_FALSE(check.passed());
    check.max_abs_diff = kInf;
    EXPECT_FALSE(check.passed());
    check.tolerance = kInf;  // e.g. read from a file
    EXPECT_FALSE(check.passed());
    check.max_abs_diff = 0;
    EXPECT_TRUE(check.passed());
}

TEST(GradCheck, NanFromTheRecomputeFailsTheCheck) {
    TinyNet net;
    auto x = torch::randn({4, 16}, torch::requires_grad());
    torch::manual_seed(4);
    net(x).sum().backward();
    auto plainParams = net.grads();
    auto plainInput = x.grad().clone();
    net.zeroGrad();
    x.mutable_grad().reset();

    torch::manual_seed(4);
    CheckpointOptions options;
    options.recompute = [&](const torch::Tensor& in) { return net(in) * kNaN; };
    SegmentFn segment = [&](const torch::Tensor& in) { return net(in); };
    checkpoint(segment, x, net.params(), options).sum().backward();
    std::vector<torch::Tensor> reference{plainInput}, gradients{x.grad()};
    for (auto& g : plainParams) reference.push_back(g);
    for (auto& g : net.grads()) gradients.push_back(g);
    auto check = checkGradients(reference, gradients, ckptlab::DType::Float32);
    EXPECT_TRUE(std::isnan(check.max_abs_diff));
    EXPECT_FALSE(check.passed());
}

TEST(GradCheck, NonFiniteDifferenceReachesTheCsv) {
    ckptlab::ResultSet results;
    ckptlab::RunResult run;
    run.strategy = ckptlab::test::strategy("every:2");
    run.grad_check = checkGradients({values({1, 2})}, {values({kNaN, 2})}, ckptlab::DType::Float32);
    results.runs.push_back(run);
    run.strategy = ckptlab::test::strategy("full");
    run.grad_check =
        checkGradients({values({1, 2})}, {values({1, -kInf})}, ckptlab::DType::Float32);
    results.runs.push_back(run);
    run.strategy = ckptlab::test::strategy("sqrt");
    run.grad_check.max_abs_diff = -kNaN;  // the sign bit must not print as "-nan"
    results.runs.push_back(run);
    const std::string csv = ckptlab::summaryCsv(results);
    EXPECT_NE(csv.find("every:2,"), std::string::npos) << csv;
    EXPECT_NE(csv.find(",fail,nan,"), std::string::npos) << csv;
    EXPECT_NE(csv.find(",fail,inf,"), std::string::npos) << csv;
    EXPECT_NE(csv.find("\nsqrt,"), std::string::npos) << csv;
    EXPECT_EQ(csv.find("-nan"), std::string::npos) << csv;
    EXPECT_EQ(csv.find(",pass,"), std::string::npos) << csv;
}

// ---- A second backward and double backward through a checkpoint ----

TEST(Checkpoint, SecondBackwardWithRetainGraphGivesTheSameGradients) {
    TinyNet net;
    auto x = torch::randn({4, 16}, torch::requires_grad());
    torch::manual_seed(6);
    auto plainLoss = net(x).pow(2).sum();
    plainLoss.backward({}, /*retain_graph=*/true);
    plainLoss.backward();  // gradients accumulate: twice the single ones
    auto plainParams = net.grads();
    auto plainInput = x.grad().clone();
    net.zeroGrad();
    x.mutable_grad().reset();

    torch::manual_seed(6);
    SegmentFn segment = [&](const torch::Tensor& in) { return net(in); };
    auto loss = checkpoint(segment, x, net.params()).pow(2).sum();
    loss.backward({}, /*retain_graph=*/true);
    auto first = net.grads();
    loss.backward();
    expectSameFiniteGradients(plainParams, net.grads());
    expectSameFiniteGradients({plainInput}, {x.grad()});
    // The second backward recomputed the same dropout mask: it added what the first did.
    for (std::size_t i = 0; i < first.size(); ++i)
        EXPECT_TRUE(torch::equal(net.grads()[i], first[i] * 2)) << i;
    // That one did not retain the graph: a third is LibTorch's own error.
    try {
        loss.backward();
        FAIL() << "a third backward went through";
    } catch (const c10::Error& e) {
        EXPECT_NE(std::string(e.what()).find("backward through the graph a second time"),
                  std::string::npos)
            << e.what();
    }
}

// The closure (RNG states, recompute) goes in the backward that uses it, not when the graph
// dies at the end of the step: the measured peaks depend on it. A kept graph keeps it.
TEST(Checkpoint, SingleBackwardDropsTheClosureAndRetainGraphKeepsIt) {
    TinyNet net;
    auto x = torch::randn({4, 16}, torch::requires_grad());
    SegmentFn segment = [&](const torch::Tensor& in) { return net(in); };
    std::weak_ptr<int> closureAlive;
    auto makeLoss = [&] {
        auto sentinel = std::make_shared<int>(0);
        closureAlive = sentinel;
        CheckpointOptions options;
        options.recompute = [&net, sentinel](const torch::Tensor& in) { return net(in); };
        return checkpoint(segment, x, net.params(), options).sum();
    };
    auto loss = makeLoss();
    EXPECT_FALSE(closureAlive.expired());
    loss.backward();
    EXPECT_TRUE(closureAlive.expired()) << "the graph still holds the closure";

    loss = makeLoss();
    loss.backward({}, /*retain_graph=*/true);
    EXPECT_FALSE(closureAlive.expired());
    loss.backward();
    EXPECT_TRUE(closureAlive.expired());
}

TEST(Checkpoint, SecondBackwardWithoutRetainGraphSaysSo) {
    TinyNet net;
    auto x = torch::randn({4, 16}, torch::requires_grad());
    SegmentFn segment = [&](const torch::Tensor& in) { return net(in); };
    auto loss = checkpoint(segment, x, net.params()).sum();
    loss.backward();
    try {
        loss.backward();
        FAIL() << "a second backward without retain_graph went through";
    } catch (const c10::Error& e) {
        EXPECT_NE(std::string(e.what()).find("backward through the graph a second time"),
                  std::string::npos)
            << e.what();
    }
}

namespace {

// A smooth segment, so second derivatives are not zero almost everywhere like ReLU's.
struct SmoothNet {
    torch::nn::Linear a{8, 12}, b{12, 8};
    SmoothNet() {
        torch::manual_seed(2);
        a = torch::nn::Linear(8, 12);
        b = torch::nn::Linear(12, 8);
    }
    std::vector<torch::Tensor> params() {
        auto p = a->parameters();
        for (auto& t : b->parameters()) p.push_back(t);
        return p;
    }
    torch::Tensor operator()(const torch::Tensor& x) {
        return b->forward(torch::dropout(torch::tanh(a->forward(x)), 0.25, true)) * x;
    }
};

// d/d(params, x) of the squared norm of d(loss)/d(params, x): a gradient penalty.
std::vector<torch::Tensor> gradientOfGradient(const torch::Tensor& loss,
                                              const std::vector<torch::Tensor>& wrt) {
    auto first = torch::autograd::grad({loss}, wrt, {}, /*retain_graph=*/true,
                                       /*create_graph=*/true);
    torch::Tensor penalty = torch::zeros({}, torch::kFloat32);
    for (auto& g : first) {
        EXPECT_TRUE(g.requires_grad()) << "a first gradient is not differentiable";
        penalty = penalty + g.pow(2).sum();
    }
    return torch::autograd::grad({penalty}, wrt, {}, /*retain_graph=*/false,
                                 /*create_graph=*/false, /*allow_unused=*/true);
}

// Not bitwise: double backward through a checkpoint builds a differently shaped graph, so the
// kernels sum in other orders (and the order depends on the CPU's kernels).
void expectClose(const std::vector<torch::Tensor>& expected,
                 const std::vector<torch::Tensor>& actual, ckptlab::test::ComputationSize size) {
    ASSERT_EQ(expected.size(), actual.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        ASSERT_TRUE(expected[i].defined()) << i;
        ASSERT_TRUE(actual[i].defined()) << "gradient of gradient " << i << " is missing";
        EXPECT_TRUE(expected[i].isfinite().all().item<bool>()) << i;
        EXPECT_GT(expected[i].abs().max().item<double>(), 0) << i;
        EXPECT_TRUE(ckptlab::test::closeForItsSize(expected[i], actual[i], size)) << i;
    }
}

// SmoothNet's longest sum is 12 terms (b's inputs); each net adds 2 matmuls to the forward, 2 to
// the backward and 4 to the backward of the backward.
constexpr std::int64_t kSmoothNetReduction = 12;
constexpr int kSmoothNetLayers = 8;

}  // namespace

TEST(Checkpoint, DoubleBackwardMatchesThePlainModel) {
    SmoothNet net;
    auto x = torch::randn({4, 8}, torch::requires_grad());
    auto wrt = net.params();
    wrt.push_back(x);

    torch::manual_seed(8);
    auto plain = gradientOfGradient(net(x).pow(2).sum(), wrt);

    torch::manual_seed(8);
    SegmentFn segment = [&](const torch::Tensor& in) { return net(in); };
    auto viaCheckpoint = gradientOfGradient(checkpoint(segment, x, net.params()).pow(2).sum(), wrt);
    expectClose(plain, viaCheckpoint, {kSmoothNetReduction, kSmoothNetLayers});
}

TEST(Checkpoint, DoubleBackwardThroughNestedCheckpointsAndANonLeafInput) {
    SmoothNet first, second;
    auto x = torch::randn({4, 8}, torch::requires_grad());
    auto wrt = first.params();
    for (auto& p : second.params()) wrt.push_back(p);
    wrt.push_back(x);

    torch::manual_seed(10);
    auto plain = gradientOfGradient(second(first(x * 1.5)).pow(2).sum(), wrt);

    torch::manual_seed(10);
    SegmentFn innerFirst = [&](const torch::Tensor& in) { return first(in); };
    SegmentFn innerSecond = [&](const torch::Tensor& in) { return second(in); };
    SegmentFn outer = [&](const torch::Tensor& in) {
        auto h = checkpoint(innerFirst, in, first.params());
        return checkpoint(innerSecond, h, second.params());
    };
    std::vector<torch::Tensor> params(wrt.begin(), wrt.end() - 1);
    auto viaCheckpoint = gradientOfGradient(checkpoint(outer, x * 1.5, params).pow(2).sum(), wrt);
    expectClose(plain, viaCheckpoint, {kSmoothNetReduction, 2 * kSmoothNetLayers});
}
