// "Will it fit?" as a user drives it: the model it opens on and the one it remembers, the
// memory check shown before Plan (and Plan refused when measuring would not fit here), a
// config.json edited on disk planned anew, a FIFO opened without freezing the window, and sizes
// under a gigabyte shown in a unit that shows them.

#include <sys/resource.h>
#include <sys/stat.h>

#include <fcntl.h>
#include <unistd.h>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>
#include <atomic>
#include <thread>

#include "ui_test_support.h"  // the offscreen platform, before QApplication exists

#include "ckptlab/engine/runner.h"
#include "ckptlab/formats/model_config.h"
#include "ckptlab/planning/full_size.h"
#include "controllers/fit_controller.h"
#include "document/settings.h"
#include "panels/fit_inputs.h"
#include "panels/fit_panel.h"
#include "panels/fit_table.h"

using namespace ckptlab;
using namespace ckptlab::ui;
using namespace ckptlab::ui::test;

namespace {

// A Llama config.json of `width` and `layers`: a tiny model measured in seconds.
QByteArray tinyConfigJson(int width, int layers) {
    return QStringLiteral(R"({"architectures": ["LlamaForCausalLM"], "model_type": "llama",
        "hidden_size": %1, "intermediate_size": %2, "num_hidden_layers": %3,
        "num_attention_heads": 4, "num_key_value_heads": 4, "vocab_size": 256,
        "max_position_embeddings": 2048, "torch_dtype": "float32"})")
        .arg(width)
        .arg(width * 2)
        .arg(layers)
        .toUtf8();
}

// A layer of about 14 billion parameters and a million-token vocabulary: measuring one layer
// with Adam takes hundreds of GB, more than any machine these tests run on.
QByteArray hugeConfigJson() {
    return QByteArrayLiteral(R"({"architectures": ["LlamaForCausalLM"], "model_type": "llama",
        "hidden_size": 16384, "intermediate_size": 262144, "num_hidden_layers": 126,
        "num_attention_heads": 128, "num_key_value_heads": 8, "vocab_size": 1000000,
        "max_position_embeddings": 131072, "torch_dtype": "bfloat16"})");
}

bool writeFile(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) &&
           file.write(bytes) == bytes.size();
}

// Opens `path` in `inputs` and waits for the read to end; true when it was opened.
bool openAndWait(FitInputs* inputs, const QString& path) {
    QSignalSpy opened(inputs, &FitInputs::opened);
    inputs->openConfig(path);
    if (!opened.wait(20000)) return false;
    return opened.first().first().toBool();
}

template <typename T>
T* child(QWidget& parent, const char* name) {
    T* found = parent.findChild<T*>(QLatin1String(name));
    if (!found) qFatal("no %s named %s", T::staticMetaObject.className(), name);
    return found;
}

}  // namespace

class TestFitPanelInputs : public WindowTest {
    Q_OBJECT
private Q_SLOTS:
    void init();
    void sizesUnderAGigabyteShowTheirValue();
    void opensOnTheSmallestPresetAndRemembersTheChoice();
    void startsWithTheSharedDefaults();
    void modelTooLargeToMeasureIsRefusedBeforePlan();
    void memoryCapTurnsPlanOff();
    void fileEditedOnDiskIsPlannedAnew();
    void fifoDoesNotFreezeTheWindow();
};

void TestFitPanelInputs::init() {
    WindowTest::init();
    QSettings().clear();  // each test function starts as a first run
}

void TestFitPanelInputs::sizesUnderAGigabyteShowTheirValue() {
    QCOMPARE(fitSizeText(80'000'000'000LL), QStringLiteral("80.00 GB"));
    QCOMPARE(fitSizeText(270'340'000), QStringLiteral("270.34 MB"));
    QCOMPARE(fitSizeText(999'999'999), QStringLiteral("1.00 GB"));
    QCOMPARE(fitSizeText(1'620'000), QStringLiteral("1.62 MB"));
    QCOMPARE(fitSizeText(12'500), QStringLiteral("12.50 kB"));
    // A plan of a model under a gigabyte: every size in the table and the verdict in MB.
    FullSizePlan plan;
    plan.config.block = BlockKind::Llama;
    plan.config.depth = 2;
    plan.capacity = 24'000'000'000LL;
    plan.state_bytes = 300'000'000;
    StrategyAtSize row;
    row.strategy = parseStrategy("none", 2, BlockKind::Llama);
    row.allocated = 450'000'000;
    row.reserved = 512'000'000;
    row.margin = plan.capacity - row.reserved;
    row.fits = true;
    row.largest_batch = 40;
    row.longest_seq = 65536;
    plan.strategies = {row};
    plan.fastest_at_size = row;
    const std::vector<QStringList> cells = fitTableCells(plan);
    QCOMPARE(cells.front()[1], QStringLiteral("450.00 MB"));
    QCOMPARE(cells.front()[2], QStringLiteral("512.00 MB"));
    QCOMPARE(cells.front()[3], QStringLiteral("yes, 23.49 GB spare"));
    const QString verdict = fitVerdict(plan).join(QLatin1Char('\n'));
    QVERIFY2(verdict.contains(QLatin1String("512.00 MB reserved")), qPrintable(verdict));
    for (const QStringList& line : cells)
        for (const QString& cell : line)
            QVERIFY2(!cell.contains(QLatin1String("0.00 GB")), qPrintable(cell));
    // A budget below the least peak has no schedule: no sizes, and why, not "no, 0.00 short".
    StrategyAtSize infeasible;
    infeasible.strategy = parseStrategy("optimal:1", 2, BlockKind::Llama);
    infeasible.least_peak = 123'000'000;
    plan.strategies = {infeasible};
    plan.fastest_at_size.reset();
    const QStringList cellsOfInfeasible = fitTableCells(plan).front();
    QCOMPARE(cellsOfInfeasible[1], QStringLiteral("—"));
    QCOMPARE(cellsOfInfeasible[2], QStringLiteral("—"));
    QCOMPARE(cellsOfInfeasible[3], QStringLiteral("no schedule: the least peak is 123.00 MB"));
}

void TestFitPanelInputs::opensOnTheSmallestPresetAndRemembersTheChoice() {
    const std::vector<std::string> presets = modelPresetNames();
    QVERIFY2(presets.size() >= 2, "the presets of resources/models are needed");
    // The preset with the fewest parameters, counted here from the files.
    std::string smallest;
    std::int64_t fewest = -1;
    for (const std::string& name : presets) {
        ExperimentConfig config;
        applyModel(loadModel(name), config);
        const std::int64_t count = modelParameterCount(config);
        if (fewest < 0 || count < fewest) fewest = count, smallest = name;
    }
    QCOMPARE(QString::fromStdString(smallest), QStringLiteral("smollm2-135m"));
    QVERIFY(presets.front() != smallest);  // not the first name, the old default
    Settings settings;
    {
        FitInputs inputs(&settings);
        QTRY_COMPARE_WITH_TIMEOUT(inputs.modelKey(), QString::fromStdString(smallest), 20000);
        QTRY_VERIFY_WITH_TIMEOUT(inputs.config().has_value(), 20000);
        QCOMPARE(inputs.config()->width, 576);  // smollm2-135m's hidden_size
        // The user picks another preset: remembered.
        auto* model = child<QComboBox>(inputs, "fitModel");
        const int other = model->findData(QStringLiteral("llama-3.2-1b"));
        QVERIFY(other >= 0);
        model->setCurrentIndex(other);
        Q_EMIT model->activated(other);
        QTRY_VERIFY_WITH_TIMEOUT(inputs.config() && inputs.config()->width == 2048, 20000);
    }
    QCOMPARE(settings.fitModel(), QStringLiteral("llama-3.2-1b"));
    {
        FitInputs inputs(&settings);
        QTRY_VERIFY_WITH_TIMEOUT(inputs.config().has_value(), 20000);
        QCOMPARE(inputs.modelKey(), QStringLiteral("llama-3.2-1b"));
        QCOMPARE(inputs.config()->width, 2048);
    }
    // A remembered file that is gone: the smallest preset again, the file not listed.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("config.json"));
    QVERIFY(writeFile(path, tinyConfigJson(64, 2)));
    {
        FitInputs inputs(&settings);
        QVERIFY(openAndWait(&inputs, path));
        QCOMPARE(inputs.modelKey(), path);
    }
    QCOMPARE(settings.fitModel(), path);
    QVERIFY(QFile::remove(path));
    {
        FitInputs inputs(&settings);
        QTRY_COMPARE_WITH_TIMEOUT(inputs.modelKey(), QString::fromStdString(smallest), 20000);
        QVERIFY(child<QComboBox>(inputs, "fitModel")->findData(path) < 0);
    }
    QCOMPARE(m_recorder.messages.size(), 0);  // no box for a model remembered from before
}

void TestFitPanelInputs::startsWithTheSharedDefaults() {
    // The CLI's plan --capacity asks about the same step unless told otherwise.
    ExperimentConfig defaults;
    applyFullSizeDefaults(defaults);
    QCOMPARE(defaults.batch, 1);
    QCOMPARE(int(defaults.optimizer), int(Optimizer::Adam));
    FitInputs inputs;
    QCOMPARE(child<QSpinBox>(inputs, "fitSeq")->value(), defaults.seq);
    QCOMPARE(child<QSpinBox>(inputs, "fitBatch")->value(), defaults.batch);
    QCOMPARE(child<QComboBox>(inputs, "fitOptimizer")->currentData().toInt(),
             int(defaults.optimizer));
}

void TestFitPanelInputs::modelTooLargeToMeasureIsRefusedBeforePlan() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("huge.json"));
    QVERIFY(writeFile(path, hugeConfigJson()));
    FitController controller;
    Settings settings;
    FitPanel panel(&controller, &settings);
    QVERIFY(openAndWait(panel.inputs(), path));
    const std::optional<ExperimentConfig> config = panel.inputs()->config();
    QVERIFY(config);
    const std::int64_t needed = fitMeasurePeakEstimate(*config);
    const std::int64_t available = measuringMemory(config->device);
    QVERIFY2(needed > 200'000'000'000LL, qPrintable(fitSizeText(needed)));
    QVERIFY2(available > 0 && available < needed, qPrintable(fitSizeText(available)));
    // Said before Plan, with both sizes, and Plan is off.
    auto* check = child<QLabel>(panel, "fitMeasureCheck");
    // (What is free here moves between two looks: the size needed is compared exactly.)
    QVERIFY2(check->text().startsWith(
                 QStringLiteral("One layer needs %1 to measure, ").arg(fitSizeText(needed))),
             qPrintable(check->text()));
    QVERIFY2(check->text().contains(QLatin1String(" are available here")),
             qPrintable(check->text()));
    QVERIFY2(check->text().contains(QLatin1String("too much to measure on this machine")),
             qPrintable(check->text()));
    auto* plan = child<QPushButton>(panel, "fitPlanButton");
    QVERIFY(!plan->isEnabled());
    // Plan pressed anyway (by code): refused with the sizes, nothing started.
    QSignalSpy started(&controller, &FitController::started);
    QVERIFY(!panel.plan());
    plan->click();
    QCOMPARE(started.size(), 0);
    QVERIFY(!controller.isRunning());
    QCOMPARE(m_recorder.messages.size(), 1);
    QVERIFY2(m_recorder.lastText().contains(QLatin1String("One layer needs")),
             qPrintable(m_recorder.lastText()));
    // Even a request started without the panel is refused before anything is built.
    FitRequest request;
    request.model = path;
    request.readModel = true;
    request.config = *config;
    request.capacity = 80'000'000'000LL;
    request.strategies = fullSizeStrategies(*config);
    QSignalSpy failed(&controller, &FitController::failed);
    QSignalSpy finished(&controller, &FitController::finished);
    QVERIFY(controller.start(request));
    QVERIFY(finished.wait(60000));
    QCOMPARE(failed.size(), 1);
    QVERIFY2(failed.first().first().toString().contains(QLatin1String("one layer needs")),
             qPrintable(failed.first().first().toString()));
    // A small preset afterwards: the check says it fits and Plan is on again.
    auto* model = child<QComboBox>(panel, "fitModel");
    model->setCurrentIndex(model->findData(QStringLiteral("smollm2-135m")));
    QTRY_VERIFY_WITH_TIMEOUT(plan->isEnabled(), 20000);
    QVERIFY2(check->text().startsWith(QLatin1String("One layer needs ")),
             qPrintable(check->text()));
    QVERIFY(!check->text().contains(QLatin1String("too much")));
}

// The bytes the process's address space holds now (VmSize).
std::int64_t addressSpaceInUse() {
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly)) return -1;
    for (const QByteArray& line : status.readAll().split('\n'))
        if (line.startsWith("VmSize:"))
            return line.mid(7).trimmed().split(' ').front().toLongLong() * 1024;
    return -1;
}

void TestFitPanelInputs::memoryCapTurnsPlanOff() {
    FitController controller;
    Settings settings;
    FitPanel panel(&controller, &settings);
    auto* plan = child<QPushButton>(panel, "fitPlanButton");
    auto* check = child<QLabel>(panel, "fitMeasureCheck");
    QTRY_VERIFY_WITH_TIMEOUT(panel.inputs()->config().has_value(), 20000);
    const std::int64_t needed = fitMeasurePeakEstimate(*panel.inputs()->config());
    if (!plan->isEnabled()) QSKIP("the smallest preset does not fit this machine's memory");
    // A cap (ulimit -v) that leaves half of what measuring one layer needs.
    rlimit before{};
    QVERIFY(getrlimit(RLIMIT_AS, &before) == 0);
    const std::int64_t used = addressSpaceInUse();
    QVERIFY(used > 0);
    rlimit capped = before;
    capped.rlim_cur = rlim_t(used + needed / 2);
    if (before.rlim_max != RLIM_INFINITY && capped.rlim_cur > before.rlim_max)
        QSKIP("the hard address-space limit is already lower");
    QVERIFY(setrlimit(RLIMIT_AS, &capped) == 0);
    auto* batch = child<QSpinBox>(panel, "fitBatch");
    batch->setValue(2);  // any change asks again
    const bool offUnderCap = !plan->isEnabled();
    const QString text = check->text();
    const bool refused = !panel.plan();
    QVERIFY(setrlimit(RLIMIT_AS, &before) == 0);
    QVERIFY2(offUnderCap, qPrintable(text));
    QVERIFY2(text.contains(QLatin1String("too much to measure on this machine")), qPrintable(text));
    QVERIFY(refused);
    QVERIFY(!controller.isRunning());
    // The cap lifted: Plan is on again.
    batch->setValue(1);
    QVERIFY2(plan->isEnabled(), qPrintable(check->text()));
}

void TestFitPanelInputs::fileEditedOnDiskIsPlannedAnew() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("config.json"));
    QVERIFY(writeFile(path, tinyConfigJson(64, 2)));
    FitController controller;
    Settings settings;
    FitPanel panel(&controller, &settings);
    child<QSpinBox>(panel, "fitSeq")->setValue(32);
    QVERIFY(openAndWait(panel.inputs(), path));
    QSignalSpy finished(&controller, &FitController::finished);
    QTRY_VERIFY_WITH_TIMEOUT(child<QPushButton>(panel, "fitPlanButton")->isEnabled(), 20000);
    QVERIFY2(panel.plan(), qPrintable(m_recorder.lastText()));
    QVERIFY(finished.wait(240000));
    QVERIFY2(controller.latest(), qPrintable(m_recorder.lastText()));
    QCOMPARE(controller.latest()->plan.config.width, 64);
    QVERIFY(controller.latest()->measured);
    // A model this small: sizes in MB or kB, never 0.00 GB.
    auto* table = child<QTableWidget>(panel, "fitTable");
    QVERIFY(table->rowCount() > 0);
    for (int column : {1, 2}) {
        const QString size = table->item(0, column)->text();
        QVERIFY2(size.endsWith(QLatin1String(" MB")) || size.endsWith(QLatin1String(" kB")),
                 qPrintable(size));
        QVERIFY2(size.section(QLatin1Char(' '), 0, 0).toDouble() > 0, qPrintable(size));
    }
    // Edited on disk and opened again: the new model, measured, not "the fit measured before".
    QVERIFY(writeFile(path, tinyConfigJson(96, 2)));
    QVERIFY(openAndWait(panel.inputs(), path));
    QCOMPARE(panel.inputs()->config()->width, 96);
    QVERIFY(panel.plan());
    QVERIFY(finished.wait(240000));
    QCOMPARE(controller.latest()->plan.config.width, 96);
    QVERIFY(controller.latest()->measured);
    auto* stage = child<QLabel>(panel, "fitStage");
    QVERIFY2(!stage->text().contains(QLatin1String("measured before")), qPrintable(stage->text()));
    // Edited again, Plan pressed without opening it again: the file is read at Plan.
    QVERIFY(writeFile(path, tinyConfigJson(64, 3)));
    QVERIFY(panel.plan());
    QVERIFY(finished.wait(240000));
    QCOMPARE(controller.latest()->plan.config.depth, 3);
    QCOMPARE(controller.latest()->plan.config.width, 64);
    QVERIFY(controller.latest()->measured);
    // Unchanged and planned again: the same model, so the fit is reused.
    QVERIFY(panel.plan());
    QVERIFY(finished.wait(240000));
    QVERIFY(!controller.latest()->measured);
    QVERIFY(stage->text().contains(QLatin1String("measured before")));
}

void TestFitPanelInputs::fifoDoesNotFreezeTheWindow() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("config.json"));
    const QByteArray fifo = QFile::encodeName(path);
    QVERIFY(mkfifo(fifo.constData(), 0600) == 0);
    // Only a reader that opened the pipe lets a non-blocking writer open it (otherwise ENXIO):
    // the writer keeps trying, and should it ever succeed, the file was opened (and a read
    // may wait on it), so the writer unblocks that read and the test fails on the fact, not
    // on a time.
    std::atomic<bool> done{false}, readerOpenedIt{false};
    std::thread watcher([&] {
        while (!done.load()) {
            const int fd = ::open(fifo.constData(), O_WRONLY | O_NONBLOCK);
            if (fd >= 0) {
                readerOpenedIt.store(true);
                const char text[] = "{}";
                [[maybe_unused]] const ssize_t n = ::write(fd, text, sizeof text - 1);
                ::close(fd);
            }
            usleep(1'000);
        }
    });
    FitController controller;
    Settings settings;
    FitPanel panel(&controller, &settings);
    QSignalSpy opened(panel.inputs(), &FitInputs::opened);
    panel.inputs()->openConfig(path);
    const bool answeredLater = opened.isEmpty();  // the window's thread did not read it
    const bool ended = opened.wait(120000);       // a watchdog, not a time limit
    done.store(true);
    watcher.join();
    QVERIFY2(!readerOpenedIt.load(), "the pipe was opened for reading");
    QVERIFY(answeredLater);
    QVERIFY(ended);
    QCOMPARE(opened.first().first().toBool(), false);  // refused: not a regular file
    QCOMPARE(m_recorder.messages.size(), 1);
    QVERIFY2(m_recorder.lastText().contains(path), qPrintable(m_recorder.lastText()));
    QVERIFY(panel.inputs()->modelKey() != path);  // not listed, not selected
}

QTEST_MAIN(TestFitPanelInputs)
#include "test_fit_panel_inputs.moc"
