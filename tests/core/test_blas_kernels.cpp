// Which OpenBLAS kernels run the matmuls and when the lab switches away from a generic fallback
// (ckptlab/engine/blas_kernels.h): the decisions are pure functions of the core, the CPU's flags
// and the environment variables, so each case runs here without its machine.
#include <gtest/gtest.h>

#include "ckptlab/engine/blas_kernels.h"
#include "ckptlab/engine/runner.h"
#include "ckptlab/model/noise.h"

namespace ckptlab {
namespace {

const std::string kAvx512Flags =
    "fpu sse sse2 pni ssse3 fma sse4_1 sse4_2 avx avx2 avx512f avx512dq avx512bw avx512vl amx_tile";
const std::string kAvx2Flags = "fpu sse sse2 pni ssse3 fma sse4_1 sse4_2 avx avx2";
const std::string kAvxFlags = "fpu sse sse2 pni ssse3 sse4_1 sse4_2 avx";
const std::string kSse3Flags = "fpu sse sse2 pni ssse3";

BlasLibrary openBlas(const std::string& core) {
    return {core, "OpenBLAS 0.3.21 NO_LAPACKE DYNAMIC_ARCH NO_AFFINITY USE_OPENMP " + core +
                      " MAX_THREADS=64"};
}

TEST(BlasKernels, GenericKernelsOnAnAvx512CpuSwitchToSkylakeX) {
    EXPECT_EQ(blasKernelToSwitchTo(openBlas("Prescott"), kAvx512Flags, {}), "SkylakeX");
    // Without AVX-512DQ OpenBLAS's SkylakeX kernels do not run: the AVX2 ones do.
    std::string noDq = kAvx512Flags;
    noDq.erase(noDq.find(" avx512dq"), 9);
    EXPECT_EQ(blasKernelToSwitchTo(openBlas("Prescott"), noDq, {}), "Haswell");
    EXPECT_EQ(blasKernelToSwitchTo(openBlas("Prescott"), kAvx2Flags, {}), "Haswell");
    EXPECT_EQ(blasKernelToSwitchTo(openBlas("Prescott"), kAvxFlags, {}), "Sandybridge");
    EXPECT_EQ(blasKernelToSwitchTo(openBlas("Core2"), kAvx2Flags, {}), "Haswell");
    EXPECT_EQ(blasKernelToSwitchTo(openBlas("Nehalem"), kAvx512Flags, {}), "SkylakeX");
}

TEST(BlasKernels, KernelsThatFitTheCpuStay) {
    EXPECT_EQ(blasKernelToSwitchTo(openBlas("Haswell"), kAvx512Flags, {}), "");
    EXPECT_EQ(blasKernelToSwitchTo(openBlas("SkylakeX"), kAvx512Flags, {}), "");
    EXPECT_EQ(blasKernelToSwitchTo(openBlas("Sandybridge"), kAvx2Flags, {}), "");
    EXPECT_EQ(blasKernelToSwitchTo(openBlas("Zen"), kAvx2Flags, {}), "");
    // A CPU without AVX has nothing better than the generic kernels.
    EXPECT_EQ(blasKernelToSwitchTo(openBlas("Prescott"), kSse3Flags, {}), "");
    EXPECT_EQ(blasKernelToSwitchTo(openBlas("Prescott"), "", {}), "");
}

TEST(BlasKernels, TheUsersChoiceAndAnEarlierSwitchAreKept) {
    BlasKernelVariables user;
    user.coretype = "Prescott";  // the CPU-kernel matrix asks for it on purpose
    EXPECT_EQ(blasKernelToSwitchTo(openBlas("Prescott"), kAvx512Flags, user), "");
    BlasKernelVariables keep;
    keep.keep = "1";
    EXPECT_EQ(blasKernelToSwitchTo(openBlas("Prescott"), kAvx512Flags, keep), "");
    // The marker of a switch already made: never a second exec, even when OpenBLAS refused.
    BlasKernelVariables switched;
    switched.replaced = "Prescott";
    EXPECT_EQ(blasKernelToSwitchTo(openBlas("Prescott"), kAvx512Flags, switched), "");
}

TEST(BlasKernels, NothingToSwitchWithoutOpenBlasChoosingAtLoadTime) {
    EXPECT_EQ(blasKernelToSwitchTo({}, kAvx512Flags, {}), "");  // another BLAS
    EXPECT_FALSE(describeBlasKernel({}, kAvx512Flags, {}));
    // Built for one core, OpenBLAS ignores OPENBLAS_CORETYPE: an exec would change nothing.
    const BlasLibrary fixed{"PRESCOTT", "OpenBLAS 0.3.21 NO_AFFINITY PRESCOTT MAX_THREADS=64"};
    EXPECT_EQ(blasKernelToSwitchTo(fixed, kAvx512Flags, {}), "");
    // ...but its results still say that the kernels are generic on this CPU.
    const auto kernel = describeBlasKernel(fixed, kAvx512Flags, {});
    ASSERT_TRUE(kernel);
    EXPECT_EQ(kernel->better, "SkylakeX");
}

TEST(BlasKernels, TheEnvironmentSaysWhoChoseTheKernels) {
    auto kernel = describeBlasKernel(openBlas("Haswell"), kAvx2Flags, {});
    ASSERT_TRUE(kernel);
    EXPECT_EQ(kernel->name, "Haswell");
    EXPECT_EQ(kernel->chosen_by, BlasKernelChoice::OpenBlas);
    EXPECT_EQ(kernel->better, "");

    BlasKernelVariables v;
    v.coretype = "skylakex";  // OpenBLAS takes the name in any case
    kernel = describeBlasKernel(openBlas("SkylakeX"), kAvx512Flags, v);
    ASSERT_TRUE(kernel);
    EXPECT_EQ(kernel->chosen_by, BlasKernelChoice::User);

    v.coretype = "Prescott";
    kernel = describeBlasKernel(openBlas("Prescott"), kAvx512Flags, v);
    ASSERT_TRUE(kernel);
    EXPECT_EQ(kernel->chosen_by, BlasKernelChoice::User);
    EXPECT_EQ(kernel->better, "SkylakeX");

    // A name OpenBLAS does not know: it detected the CPU itself, the variable chose nothing.
    v.coretype = "NoSuchCore";
    kernel = describeBlasKernel(openBlas("Prescott"), kAvx512Flags, v);
    ASSERT_TRUE(kernel);
    EXPECT_EQ(kernel->chosen_by, BlasKernelChoice::OpenBlas);

    BlasKernelVariables lab;
    lab.coretype = "SkylakeX";
    lab.replaced = "Prescott";
    kernel = describeBlasKernel(openBlas("SkylakeX"), kAvx512Flags, lab);
    ASSERT_TRUE(kernel);
    EXPECT_EQ(kernel->chosen_by, BlasKernelChoice::Lab);
    EXPECT_EQ(kernel->replaced, "Prescott");
    EXPECT_EQ(kernel->better, "");
    // The switch refused (OpenBLAS stayed generic): no claim of a switch, and the warning.
    kernel = describeBlasKernel(openBlas("Prescott"), kAvx512Flags, lab);
    ASSERT_TRUE(kernel);
    EXPECT_EQ(kernel->chosen_by, BlasKernelChoice::OpenBlas);
    EXPECT_EQ(kernel->better, "SkylakeX");
}

TEST(BlasKernels, GenericKernelsOnABetterCpuAreWarnedAbout) {
    ResultSet set;
    set.environment.blas_kernel = BlasKernel{"Haswell", BlasKernelChoice::OpenBlas, "", ""};
    EXPECT_TRUE(noiseWarnings(set).empty());
    set.environment.blas_kernel = BlasKernel{"Prescott", BlasKernelChoice::User, "", "SkylakeX"};
    const auto warnings = noiseWarnings(set);
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_EQ(warnings[0].kind, NoiseWarning::Kind::GenericBlasKernel);
    EXPECT_EQ(warnings[0].kernel, "Prescott");
    EXPECT_EQ(warnings[0].instructions, "AVX-512");
    EXPECT_EQ(warnings[0].message,
              "OpenBLAS ran its generic Prescott kernels on a CPU with AVX-512: matmuls are "
              "several times slower than this machine can do");
    EXPECT_EQ(blasKernelInstructions("Haswell"), "AVX2");
    EXPECT_EQ(blasKernelInstructions("Sandybridge"), "AVX");
    EXPECT_EQ(blasKernelInstructions("Prescott"), "");
}

// This process: an environment naming OpenBLAS names its kernels too, and another BLAS none.
TEST(BlasKernels, ThisProcessReportsItsKernels) {
    const Environment env = describeEnvironment(ExperimentConfig{});
    const bool openBlas = env.blas.find("OpenBLAS") != std::string::npos;
    EXPECT_EQ(env.blas_kernel.has_value(), openBlas) << env.blas;
    if (env.blas_kernel) {
        EXPECT_FALSE(env.blas_kernel->name.empty());
        EXPECT_EQ(env.blas_kernel->name, loadedBlasLibrary().core);
    }
}

}  // namespace
}  // namespace ckptlab
