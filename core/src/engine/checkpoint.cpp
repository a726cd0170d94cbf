#include "engine/checkpoint.h"

#include <torch/csrc/autograd/engine.h>
#include <torch/csrc/autograd/functions/basic_ops.h>
#include <torch/csrc/autograd/graph_task.h>
#include <torch/cuda.h>

#include "engine/generators.h"
#include "engine/gradient_handover.h"
#include "engine/precision.h"
#include "engine/step_clock.h"
#include "engine/step_context.h"

namespace ckptlab::engine {
namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

// What backward needs that is not a tensor; travels in the context as an IValue capsule so
// it lives exactly as long as the graph node.
struct Closure : torch::CustomClassHolder {
    SegmentFn recompute;
    std::vector<torch::Tensor> recomputeParameters;  // CheckpointOptions::recomputeParameters
    StepContext* context = nullptr;
    at::Generator generator;  // what the segment draws from (CheckpointOptions::generator)
    at::Tensor rngState;      // its state when the forward ran
    AutocastState autocast;   // autocast's when the forward ran (mixed-bf16)
};

// Puts a generator's state back when the scope ends.
class RngStateGuard {
public:
    explicit RngStateGuard(at::Generator& generator)
        : generator_(generator), state_(generatorState(generator)) {}
    ~RngStateGuard() { setGeneratorState(generator_, state_); }

private:
    at::Generator& generator_;
    at::Tensor state_;
};

// The closure, taken out of the context. A backward that keeps the graph (retain_graph=true,
// or create_graph) can be followed by another, which needs the closure again. Otherwise drop it
// (RNG states, segment) now rather than when the graph node dies, which for the step's own
// checkpoints is only at the end of the step.
c10::intrusive_ptr<Closure> takeClosure(AutogradContext* ctx) {
    auto found = ctx->saved_data.find("closure");
    TORCH_CHECK(found != ctx->saved_data.end() && found->second.isCapsule(),
                "checkpoint: backward through this checkpoint a second time, after its "
                "recompute state was released; pass retain_graph=true to the first "
                "backward");
    auto closure = c10::static_intrusive_pointer_cast<Closure>(found->second.toCapsule());
    if (!torch::autograd::get_current_graph_task_keep_graph()) ctx->saved_data.erase(found);
    return closure;
}

// What the recompute starts from: the input itself under create_graph, otherwise a detached
// copy that needs a gradient where the input does.
torch::Tensor recomputeStart(const torch::Tensor& input, bool createGraph) {
    torch::Tensor x = input;
    if (!createGraph) {
        x = input.detach();
        x.requires_grad_(input.requires_grad());
    }
    return x;
}

// Ends a recompute inside a step: its time (on the step's clock when the recompute marked its
// start there, otherwise on the host's) and the label the step had before it.
void endRecompute(StepContext& step, const torch::Tensor& output, int startMark,
                  std::chrono::steady_clock::time_point start, const Label& before) {
    if (step.syncCuda && output.is_cuda()) torch::cuda::synchronize();
    --step.recomputeDepth;
    if (startMark >= 0)
        step.recomputeMarks.emplace_back(startMark, step.clock->mark());
    else
        step.recomputeMs +=
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count();
    step.label(before.phase, before.block);
}

// The autocast state a recompute runs under: the forward's, as torch.utils.checkpoint restores
// it, so the recompute casts and computes as the forward did and its values are bitwise the
// forward's. Nothing to do when the forward ran without autocast and none is on now.
std::optional<AutocastState> replayedAutocast(const AutocastState& forward) {
    if (!forward.anyEnabled() && forward == AutocastState::current()) return std::nullopt;
    return forward;
}

// Runs the segment again from `x`, with grad mode on.
torch::Tensor runRecompute(Closure& closure, StepContext* step, const torch::Tensor& x) {
    torch::Tensor output;
    const Label before = step ? step->currentLabel() : Label{};
    {
        // The recompute draws the forward's dropout masks; the run's draws go on afterwards
        // as if it had not happened.
        RngStateGuard restoreAfter(closure.generator);
        setGeneratorState(closure.generator, closure.rngState);
        torch::AutoGradMode enableGrad(true);
        if (step) {
            step->throwIfCancelled();
            ++step->recomputeDepth;
        }
        const auto start = std::chrono::steady_clock::now();
        // Inside a step its clock times the recompute (CUDA events there need no sync).
        const int startMark = step && step->clock ? step->clock->mark() : -1;
        try {
            const AutocastScope autocast(replayedAutocast(closure.autocast));
            output = closure.recompute(x);
        } catch (...) {
            if (step) --step->recomputeDepth;
            throw;
        }
        if (step) endRecompute(*step, output, startMark, start, before);
    }
    return output;
}

// The tensors the recomputed segment is differentiated with respect to, each with its slot
// in the returned gradients.
struct Differentiated {
    std::vector<torch::Tensor> tensors;
    std::vector<std::size_t> slot;
};

// The input (as `x`, where the recompute started) and the parameters that need a gradient,
// or the recompute's own stand-ins for them (`replacements`, when set), in their slots.
Differentiated differentiatedTensors(const torch::Tensor& input, const torch::Tensor& x,
                                     const variable_list& saved,
                                     const std::vector<torch::Tensor>& replacements) {
    Differentiated wrt;
    if (input.requires_grad()) wrt.tensors.push_back(x), wrt.slot.push_back(0);
    for (std::size_t i = 1; i < saved.size(); ++i) {
        if (!saved[i].requires_grad()) continue;
        wrt.tensors.push_back(replacements.empty() ? saved[i] : replacements[i - 1]);
        wrt.slot.push_back(i);
    }
    return wrt;
}

// The graph edges the backward captures the gradients of, one per differentiated tensor.
torch::autograd::edge_list gradientTargets(const std::vector<torch::Tensor>& wrt) {
    torch::autograd::edge_list targets;
    targets.reserve(wrt.size());
    for (const auto& t : wrt) {
        auto fn = t.grad_fn();
        if (!fn) fn = torch::autograd::impl::try_get_grad_accumulator(t);
        if (fn)
            targets.emplace_back(std::move(fn), t.output_nr());
        else  // a parameter the body never used: no accumulator, no gradient
            targets.emplace_back(std::make_shared<torch::autograd::Identity>(), 0);
    }
    return targets;
}

// Backward from the recomputed output with the checkpoint's incoming gradient, into `grads`.
// What torch::autograd::grad does, minus holding the recomputed output: its graph node is all
// the backward needs, and the tensor itself is not saved by anything (the block's last op is
// `x + f(x)`). PyTorch's non-reentrant checkpoint never even computes it; keeping it alive
// through the backward costs one output-sized tensor at the peak (measured:
// docs/MEASUREMENTS.md, "Peak memory"). So `output` is reset here, before the backward.
void backwardThroughRecompute(torch::Tensor& output, torch::Tensor& incoming,
                              const Differentiated& wrt, bool createGraph, variable_list& grads) {
    const torch::autograd::edge_list roots{torch::autograd::impl::gradient_edge(output)};
    const torch::autograd::edge_list targets = gradientTargets(wrt.tensors);
    output.reset();
    // The recomputed graph is this call's own; under create_graph the gradients' graph goes
    // through it, so it must stay. The incoming gradient goes to it as its own
    // (gradient_handover.h): the engine may then reuse it for the residual's gradient, as
    // PyTorch's does, instead of holding it beside that sum.
    auto computed =
        backwardOwningIncoming(roots[0], incoming, /*keepGraph=*/createGraph, createGraph, targets);
    for (std::size_t i = 0; i < computed.size(); ++i) grads[wrt.slot[i]] = computed[i];
}

class CheckpointFunction : public torch::autograd::Function<CheckpointFunction> {
public:
    static torch::Tensor forward(AutogradContext* ctx, torch::Tensor input,
                                 at::TensorList parameters, const SegmentFn* segment,
                                 c10::intrusive_ptr<Closure> closure) {
        if (!closure->generator.defined())
            closure->generator = at::globalContext().defaultGenerator(input.device());
        closure->rngState = generatorState(closure->generator);
        closure->autocast = AutocastState::current();
        std::vector<torch::Tensor> saved{input};
        saved.insert(saved.end(), parameters.begin(), parameters.end());
        ctx->save_for_backward(saved);
        ctx->saved_data["closure"] = c10::IValue::make_capsule(closure);
        torch::NoGradGuard noGrad;
        return (*segment)(input);
    }

    static variable_list backward(AutogradContext* ctx, variable_list gradOutputs) {
        // After a backward without retain_graph the saved tensors are gone, and this throws
        // LibTorch's own "Trying to backward through the graph a second time".
        auto saved = ctx->get_saved_variables();
        auto closure = takeClosure(ctx);
        const torch::Tensor input = saved[0];
        StepContext* step = closure->context;
        // Under create_graph the engine runs backward with grad mode on: the gradients returned
        // must then be differentiable, with respect to the input too, so the recompute starts
        // from the input itself rather than a detached copy of it.
        const bool createGraph = torch::GradMode::is_enabled();

        torch::Tensor x = recomputeStart(input, createGraph);
        torch::Tensor output = runRecompute(*closure, step, x);

        // Differentiate the recomputed segment with respect to the input and the parameters.
        const Differentiated wrt =
            differentiatedTensors(input, x, saved, closure->recomputeParameters);
        variable_list grads(saved.size() + 2);  // + the two non-tensor arguments
        if (!wrt.tensors.empty() && output.requires_grad())
            backwardThroughRecompute(output, gradOutputs[0], wrt, createGraph, grads);
        return grads;
    }
};

}  // namespace

torch::Tensor checkpoint(const SegmentFn& segment, const torch::Tensor& input,
                         const std::vector<torch::Tensor>& parameters, CheckpointOptions options) {
    TORCH_CHECK(options.recomputeParameters.empty() ||
                    (options.recompute && options.recomputeParameters.size() == parameters.size()),
                "checkpoint: recomputeParameters needs a recompute and one tensor per parameter");
    for (std::size_t i = 0; i < options.recomputeParameters.size(); ++i)
        TORCH_CHECK(options.recomputeParameters[i].sizes() == parameters[i].sizes(),
                    "checkpoint: recompute parameter ", i, " has shape ",
                    options.recomputeParameters[i].sizes(), ", its parameter ",
                    parameters[i].sizes());
    auto closure = c10::make_intrusive<Closure>();
    closure->recompute = options.recompute ? options.recompute : segment;
    closure->recomputeParameters = std::move(options.recomputeParameters);
    closure->context = options.context;
    closure->generator = options.generator;
    return CheckpointFunction::apply(input, at::TensorList(parameters), &segment, closure);
}

}  // namespace ckptlab::engine
