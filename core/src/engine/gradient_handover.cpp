#include "engine/gradient_handover.h"

#include <c10/core/Allocator.h>
#include <c10/util/ThreadLocalDebugInfo.h>
#include <torch/csrc/autograd/engine.h>
#include <torch/csrc/autograd/function.h>
#include <torch/version.h>

namespace ckptlab::engine {
namespace {

using torch::autograd::AutogradContext;
using torch::autograd::Edge;
using torch::autograd::variable_list;

// Hides allocations from any memory tracker while installed: the probe below may run inside a
// traced step, whose exact byte counts must not see it.
struct SilentMemoryReporter : c10::MemoryReportingInfoBase {
#if TORCH_VERSION_MAJOR >= 2  // the totals became size_t in LibTorch 2.0 (as in memory_tracker.h)
    void reportMemoryUsage(void*, int64_t, size_t, size_t, c10::Device) override {}
#else
    void reportMemoryUsage(void*, int64_t, int64_t, int64_t, c10::Device) override {}
#endif
    bool memoryProfilingEnabled() const override { return false; }
};

thread_local long probedUseCount = -1;

// A custom Function whose backward records how many references its incoming gradient has when
// nothing but LibTorch holds it (the product below makes a fresh one).
struct ReferenceProbe : torch::autograd::Function<ReferenceProbe> {
    static torch::Tensor forward(AutogradContext*, torch::Tensor x) { return x.clone(); }
    static variable_list backward(AutogradContext*, variable_list gradOutputs) {
        probedUseCount = gradOutputs[0].use_count();
        return {torch::Tensor()};
    }
};

// References LibTorch's frames hold to a custom Function's incoming gradient during its
// backward, measured once on this LibTorch rather than assumed from its sources.
long framesHoldingIncoming() {
    static const long count = [] {
        c10::DebugInfoGuard silent(c10::DebugInfoKind::PROFILER_STATE,
                                   std::make_shared<SilentMemoryReporter>());
        torch::AutoGradMode enableGrad(true);
        const torch::Tensor x = torch::zeros({2}, torch::requires_grad());
        (ReferenceProbe::apply(x) * 2).sum().backward();
        return probedUseCount;
    }();
    return count;
}

// The root of the inner backward: it hands over the gradient it owns, so that once the engine
// has it the engine's buffers are its only references.
struct HandOver : torch::autograd::Node {
    torch::Tensor gradient;
    variable_list apply(variable_list&& /*placeholder*/) override { return {std::move(gradient)}; }
    std::string name() const override { return "ckptlab::HandOver"; }
};

bool onlyLibTorchHolds(const torch::Tensor& t) {
    return t.defined() && !t.requires_grad() && !t.is_view() && t.is_non_overlapping_and_dense() &&
           t.has_storage() && t.storage().use_count() == 1 &&
           t.unsafeGetTensorImpl()->allow_tensor_metadata_change() &&
           static_cast<long>(t.use_count()) == framesHoldingIncoming();  // size_t from 2.0
}

}  // namespace

variable_list backwardOwningIncoming(const Edge& root, torch::Tensor& incoming, bool keepGraph,
                                     bool createGraph, const torch::autograd::edge_list& targets) {
    auto& engine = torch::autograd::Engine::get_default_engine();
    if (createGraph || !onlyLibTorchHolds(incoming))
        return engine.execute({root}, {incoming}, keepGraph, createGraph,
                              /*accumulate_grad=*/false, targets);
    // The memory moves to a tensor of its own; the frames keep an empty one.
    auto handOver = std::make_shared<HandOver>();
    handOver->gradient = torch::empty({0}, incoming.options())
                             .set_(incoming.storage(), incoming.storage_offset(), incoming.sizes(),
                                   incoming.strides());
    incoming.set_();
    // The engine starts from a root with a gradient: an empty placeholder, which allocates
    // nothing.
    const torch::Tensor placeholder = torch::empty({0}, handOver->gradient.options());
    handOver->add_input_metadata(placeholder);
    handOver->set_next_edges({root});
    return engine.execute({Edge(handOver, 0)}, {placeholder}, keepGraph, createGraph,
                          /*accumulate_grad=*/false, targets);
}

}  // namespace ckptlab::engine
