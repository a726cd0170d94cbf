#pragma once
// Two breakdowns equal field by field, so a failure names the field that differs.
#include <gtest/gtest.h>

#include "ckptlab/model/result.h"

namespace ckptlab {

inline void expectSameBreakdown(const Breakdown& p, const Breakdown& q) {
    EXPECT_EQ(p.parameters, q.parameters);
    EXPECT_EQ(p.input, q.input);
    EXPECT_EQ(p.optimizer_state, q.optimizer_state);
    EXPECT_EQ(p.gradients, q.gradients);
    EXPECT_EQ(p.activations, q.activations);
    EXPECT_EQ(p.other, q.other);
    EXPECT_EQ(p.logits, q.logits);
}

}  // namespace ckptlab
