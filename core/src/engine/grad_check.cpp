#include "engine/grad_check.h"

#include <algorithm>

namespace ckptlab::engine {

std::vector<torch::Tensor> snapshot(const std::vector<torch::Tensor>& gradients) {
    std::vector<torch::Tensor> copies;
    for (const auto& g : gradients) copies.push_back(g.defined() ? g.detach().clone() : g);
    return copies;
}

double maxAbsDiff(const std::vector<torch::Tensor>& reference,
                  const std::vector<torch::Tensor>& gradients) {
    TORCH_CHECK(reference.size() == gradients.size(), "gradient check: ", reference.size(),
                " reference gradients but ", gradients.size(), " to check");
    double worst = 0;
    for (std::size_t i = 0; i < reference.size(); ++i) {
        const auto& a = reference[i];
        const auto& b = gradients[i];
        if (!a.defined() && !b.defined()) continue;
        torch::Tensor diff = !a.defined() ? b : !b.defined() ? a : (a.to(torch::kFloat64) -
                                                                   b.to(torch::kFloat64));
        worst = std::max(worst, diff.abs().max().item<double>());
    }
    return worst;
}

GradCheck checkGradients(const std::vector<torch::Tensor>& reference,
                         const std::vector<torch::Tensor>& gradients, DType dtype) {
    double scale = 0;
    for (const auto& g : reference)
        if (g.defined()) scale = std::max(scale, g.abs().max().to(torch::kFloat64).item<double>());
    GradCheck check;
    check.checked = true;
    check.max_abs_diff = maxAbsDiff(reference, gradients);
    check.tolerance = (dtype == DType::Float32 ? 1e-5 : 1e-2) * std::max(scale, 1.0);
    return check;
}

}  // namespace ckptlab::engine
