// The OpenBLAS kernels of the results in the app's words: the About dialog names them and who
// chose them, and generic kernels on a CPU with better ones are warned about under the table,
// in both languages.
#include <QtTest>

#include "base/language.h"
#include "document/sweep_summary.h"
#include "document/time_text.h"
#include "window/about_dialog.h"

using namespace ckptlab;
using namespace ckptlab::ui;

class TestBlasKernelText : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void cleanup() { installLanguage(QStringLiteral("en")); }
    void aboutNamesTheKernelsAndWhoChoseThem();
    void genericKernelsOnABetterCpuAreWarnedAbout();
};

void TestBlasKernelText::aboutNamesTheKernelsAndWhoChoseThem() {
    Environment env;
    env.blas = "OpenBLAS (OpenMP)";
    QVERIFY(!AboutDialog::environmentText(env).contains(QStringLiteral("BLAS kernels")));
    env.blas_kernel = BlasKernel{"SkylakeX", BlasKernelChoice::Lab, "Prescott", ""};
    const QString lab = AboutDialog::environmentText(env);
    QVERIFY2(lab.contains(QStringLiteral("BLAS kernels: SkylakeX, chosen by Checkpoint Lab "
                                         "instead of OpenBLAS's generic Prescott")),
             qPrintable(lab));
    env.blas_kernel = BlasKernel{"Prescott", BlasKernelChoice::User, "", "SkylakeX"};
    const QString user = AboutDialog::environmentText(env);
    QVERIFY2(user.contains(QStringLiteral(
                 "BLAS kernels: Prescott, from OPENBLAS_CORETYPE (generic: this CPU has AVX-512)")),
             qPrintable(user));
    QVERIFY(installLanguage(QStringLiteral("zh_CN")));
    const QString chinese = AboutDialog::environmentText(env);
    QVERIFY2(chinese.contains(QStringLiteral("BLAS 内核")) &&
                 chinese.contains(QStringLiteral("本机 CPU 支持 AVX-512")),
             qPrintable(chinese));
}

void TestBlasKernelText::genericKernelsOnABetterCpuAreWarnedAbout() {
    ResultSet set;
    set.environment.blas_kernel = BlasKernel{"SkylakeX", BlasKernelChoice::Lab, "Prescott", ""};
    QVERIFY(noiseVerdict(set).isEmpty());
    set.environment.blas_kernel = BlasKernel{"Prescott", BlasKernelChoice::OpenBlas, "", "Haswell"};
    const QString verdict = noiseVerdict(set);
    QCOMPARE(verdict, QStringLiteral("OpenBLAS ran its generic Prescott kernels on a CPU with "
                                     "AVX2: matmuls are several times slower than this machine "
                                     "can do"));  // not noise: said on its own
    QVERIFY(resultNotes(set).contains(verdict));
    QVERIFY(installLanguage(QStringLiteral("zh_CN")));
    QVERIFY2(noiseVerdict(set).contains(QStringLiteral("通用的 Prescott 内核")),
             qPrintable(noiseVerdict(set)));
}

QTEST_MAIN(TestBlasKernelText)
#include "test_blas_kernel_text.moc"
