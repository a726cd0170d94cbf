// The one median of the project (the runner and the cost model used to disagree).
#include <gtest/gtest.h>

#include "ckptlab/model/statistics.h"

using namespace ckptlab;

TEST(Median, OddEvenAndEmpty) {
    EXPECT_DOUBLE_EQ(median({3, 1, 2}), 2);
    EXPECT_DOUBLE_EQ(median({4, 1, 3, 2}), 2.5);  // the mean of the middle pair
    EXPECT_DOUBLE_EQ(median({5}), 5);
    EXPECT_DOUBLE_EQ(median({}), 0);
    EXPECT_DOUBLE_EQ(median({10, 10, 1, 1}), 5.5);
}
