// Playback of one traced step: the events and memory of a real tiny run, the narration of its
// recomputes, stepping, the keys, and the cursor drawn over the charts.
#include <QChart>
#include <QGraphicsLineItem>
#include <QGraphicsSimpleTextItem>
#include <QLineEdit>
#include <QLineSeries>
#include <QVBoxLayout>
#include <QtTest>
#include <algorithm>

#include "run_requests.h"
#include "tolerance.h"
#include "ui_test_support.h"

#include "base/app_setup.h"
#include "charts/chart_style.h"
#include "charts/chart_view.h"
#include "charts/schedule_view.h"
#include "ckptlab/engine/runner.h"
#include "ckptlab/model/summary.h"
#include "document/results_document.h"
#include "panels/charts_panel.h"
#include "playback/chart_cursor.h"
#include "playback/charts_playback.h"
#include "playback/playback_bar.h"
#include "playback/playback_controller.h"
#include "playback/step_playback.h"

using namespace ckptlab;
using namespace ckptlab::ui;

namespace {

const RunResult& runOf(const ResultSet& results, const std::string& strategy) {
    const RunResult* run = results.find(strategy);
    if (!run) qFatal("no run of %s", strategy.c_str());
    return *run;
}

int runIndexOf(const ResultSet& results, const std::string& strategy) {
    return int(&runOf(results, strategy) - results.runs.data());
}

// The blocks the phases recompute right before each backward that follows recomputes, keyed
// by that backward's position among the backward spans: read straight from the spans.
std::vector<std::pair<int, std::vector<int>>> recomputesBeforeBackwards(const RunResult& run) {
    std::vector<std::pair<int, std::vector<int>>> out;
    std::vector<int> pending;
    for (const PhaseSpan& s : run.phases) {
        if (s.phase == Phase::Recompute) pending.push_back(s.block);
        if (s.phase == Phase::Backward && !pending.empty() && s.end_ms > s.begin_ms) {
            // The short entry span before a recompute has the same block as the one after.
            out.push_back({s.block, pending});
            pending.clear();
        }
    }
    return out;
}

}  // namespace

class TestPlayback : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void eventsAreInOrderAndCoverTheStep();
    void memoryAtTheCursorIsTheTimelines();
    void narrationNamesTheRecomputedBlocks();
    void narrationOfKeptActivations();
    void steppingMovesFromEventToEvent();
    void barFollowsThePlaybackTabs();
    void keysPlayAndStep();
    void cursorLandsAtTheTimeOnTheCharts();
    void scheduleOutlinesTheRunningBlock();
    void playingAdvancesTheCursor();

private:
    void showPanel();

    ResultSet m_results;
    ResultsDocument m_document;
    std::unique_ptr<QWidget> m_window;
    ChartsPanel* m_panel = nullptr;
    QLineEdit* m_field = nullptr;
};

void TestPlayback::initTestCase() {
    initializeUi();
    m_results = ckptlab::test::sweep(ckptlab::test::quickConfig(BlockKind::Ffn, 8, 32, 16, 1),
                                     parseStrategies({"none", "full", "segments:2"}));
    for (const RunResult& run : m_results.runs) QVERIFY2(!run.error, run.error->c_str());
    std::vector<std::vector<TimelineEvent>> thinned;
    for (const RunResult& run : m_results.runs) thinned.push_back(run.timeline);
    m_document.reset(m_results, thinned);
}

void TestPlayback::eventsAreInOrderAndCoverTheStep() {
    for (const RunResult& run : m_results.runs) {
        const StepPlayback step(run);
        QVERIFY(!step.isEmpty());
        const auto& events = step.events();
        double firstBegin = 1e300, lastEnd = 0, covered = 0;
        for (const PhaseSpan& s : run.phases)
            if (s.phase != Phase::Idle) {
                firstBegin = std::min(firstBegin, s.begin_ms);
                lastEnd = std::max(lastEnd, s.end_ms);
            }
        QCOMPARE(events.front().begin_ms, firstBegin);
        QCOMPARE(events.back().end_ms, lastEnd);
        for (std::size_t i = 0; i < events.size(); ++i) {
            QVERIFY(events[i].end_ms > events[i].begin_ms);
            if (i > 0)  // a sum of phase times on each side, two roundings apart at most
                QVERIFY(events[i].begin_ms >=
                        events[i - 1].end_ms - ckptlab::test::tolerance::formula(lastEnd, 2));
            covered += events[i].end_ms - events[i].begin_ms;
        }
        QVERIFY2(covered >= 0.999 * (lastEnd - firstBegin), run.strategy.name().c_str());
        // Every block's forward and backward is there, the loss between them.
        int forwards = 0, backwards = 0, losses = 0;
        for (const PlaybackEvent& e : events) {
            forwards += e.phase == Phase::Forward;
            backwards += e.phase == Phase::Backward;
            losses += e.phase == Phase::Loss;
        }
        QCOMPARE(forwards, run.config.depth);
        QVERIFY(backwards >= run.config.depth);
        QCOMPARE(losses, 1);
        QVERIFY(step.duration() >= lastEnd);
        // Each phase's middle is inside the event of that phase and block, but for a
        // backward's entry into a checkpoint, which belongs to the recompute it starts.
        for (std::size_t i = 0; i < run.phases.size(); ++i) {
            const PhaseSpan& s = run.phases[i];
            if (s.phase == Phase::Idle || s.end_ms - s.begin_ms < 1e-3) continue;
            const bool entry = s.phase == Phase::Backward && i + 1 < run.phases.size() &&
                               run.phases[i + 1].phase == Phase::Recompute;
            if (entry) {
                const int at = step.eventAt((s.begin_ms + s.end_ms) / 2);
                QCOMPARE(int(events[std::size_t(at)].phase), int(Phase::Recompute));
                continue;
            }
            const int at = step.eventAt((s.begin_ms + s.end_ms) / 2);
            QVERIFY(at >= 0);
            QCOMPARE(int(events[std::size_t(at)].phase), int(s.phase));
            QCOMPARE(events[std::size_t(at)].block, s.block);
        }
    }
}

void TestPlayback::memoryAtTheCursorIsTheTimelines() {
    const RunResult& run = runOf(m_results, "full");
    const StepPlayback step(run);
    auto expected = [&](double t) {
        std::int64_t total = 0;
        for (const TimelineEvent& e : run.timeline)
            if (e.t_ms <= t) total = e.total;
        return total;
    };
    QCOMPARE(step.memoryAt(-1), std::int64_t(0));
    for (std::size_t i = 0; i < run.timeline.size(); i += 7) {
        const double t = run.timeline[i].t_ms;
        QCOMPARE(step.memoryAt(t), expected(t));
        const double between =
            i + 1 < run.timeline.size() ? (t + run.timeline[i + 1].t_ms) / 2 : t + 1;
        QCOMPARE(step.memoryAt(between), expected(between));
    }
    // The peak is reached somewhere in the step, and playback sees it.
    std::int64_t peak = 0;
    for (const TimelineEvent& e : run.timeline) peak = std::max(peak, step.memoryAt(e.t_ms));
    QCOMPARE(peak, run.metrics.peak_bytes);
}

void TestPlayback::narrationNamesTheRecomputedBlocks() {
    for (const char* strategy : {"full", "segments:2"}) {
        const RunResult& run = runOf(m_results, strategy);
        const StepPlayback step(run);
        const auto expected = recomputesBeforeBackwards(run);
        QVERIFY(!expected.empty());
        QCOMPARE(step.groups().size(), expected.size());
        for (std::size_t g = 0; g < expected.size(); ++g) {
            const auto& [backward, blocks] = expected[g];
            QCOMPARE(step.groups()[g].backward_block, backward);
            QVERIFY(step.groups()[g].blocks == blocks);
            // The recompute events of the group say it.
            for (std::size_t i = 0; i < step.events().size(); ++i) {
                const PlaybackEvent& e = step.events()[i];
                if (e.group != int(g) || e.phase != Phase::Recompute) continue;
                const QString text = step.narrationOf(int(i));
                QVERIFY2(text.contains(QStringLiteral("backward of block %1").arg(backward)),
                         qPrintable(text));
                if (blocks.size() == 1)
                    QVERIFY2(text.contains(QStringLiteral("recomputing block %1").arg(blocks[0])),
                             qPrintable(text));
                else
                    QVERIFY2(text.contains(QStringLiteral("recomputing blocks %1 from the stored "
                                                          "input of block %2")
                                               .arg(blockRangeText(blocks))
                                               .arg(blocks.front())),
                             qPrintable(text));
            }
        }
    }
    // segments:2 on 8 blocks: the first backward recomputes the second segment, 4–7.
    const StepPlayback segments(runOf(m_results, "segments:2"));
    QCOMPARE(blockRangeText(segments.groups().front().blocks), QStringLiteral("4\u20137"));
    QVERIFY(segments.narration(segments.groups().front().begin_ms)
                .contains(QStringLiteral("backward of block 7: recomputing blocks 4\u20137 from "
                                         "the stored input of block 4")));
    // Its forward: block 4's input is stored, block 5 is inside that checkpoint.
    QVERIFY(segments.inputStored(4));
    QVERIFY(!segments.inputStored(5));
    QCOMPARE(segments.freedUnits(5), 1);
}

void TestPlayback::narrationOfKeptActivations() {
    const StepPlayback none(runOf(m_results, "none"));
    QVERIFY(none.groups().empty());
    for (std::size_t i = 0; i < none.events().size(); ++i) {
        const PlaybackEvent& e = none.events()[i];
        const QString text = none.narrationOf(int(i));
        QVERIFY(!text.isEmpty());
        if (e.phase == Phase::Backward)
            QVERIFY2(text.contains(QStringLiteral("kept since the forward pass")),
                     qPrintable(text));
        if (e.phase == Phase::Forward)
            QVERIFY2(text.contains(QStringLiteral("kept")), qPrintable(text));
    }
    const StepPlayback full(runOf(m_results, "full"));
    const int forward3 = full.eventAt((full.events()[3].begin_ms + full.events()[3].end_ms) / 2);
    QVERIFY(full.narrationOf(forward3).contains(QStringLiteral("stored as a checkpoint")));
}

void TestPlayback::steppingMovesFromEventToEvent() {
    m_document.select(runIndexOf(m_results, "full"));
    PlaybackController controller(&m_document);
    QCOMPARE(controller.runIndex(), runIndexOf(m_results, "full"));  // read at once when made
    const auto& events = controller.step().events();
    controller.setTime(0);
    for (const PlaybackEvent& e : events) {
        controller.stepForward();
        QCOMPARE(controller.time(), e.begin_ms);
    }
    controller.stepForward();
    QCOMPARE(controller.time(), controller.step().duration());
    for (auto it = events.rbegin(); it != events.rend(); ++it) {
        controller.stepBack();
        QCOMPARE(controller.time(), it->begin_ms);
    }
    // From inside an event, back goes to its start first.
    controller.setTime((events[4].begin_ms + events[4].end_ms) / 2);
    controller.stepBack();
    QCOMPARE(controller.time(), events[4].begin_ms);
    // Another selection plays another run, at the same moment.
    const double t = controller.time();
    m_document.select(runIndexOf(m_results, "segments:2"));
    QTRY_COMPARE(controller.step().strategy(), QStringLiteral("segments:2"));
    QCOMPARE(controller.time(), std::min(t, controller.step().duration()));
    m_document.select(-1);  // nothing selected: the representative run
    QTRY_COMPARE(controller.runIndex(), int(representativeRun(m_results) - m_results.runs.data()));
}

void TestPlayback::showPanel() {
    if (m_panel) return;
    m_window = std::make_unique<QWidget>();
    auto* layout = new QVBoxLayout(m_window.get());
    m_field = new QLineEdit;
    layout->addWidget(m_field);
    m_panel = new ChartsPanel(&m_document);
    layout->addWidget(m_panel, 1);
    m_window->resize(1280, 720);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
}

void TestPlayback::barFollowsThePlaybackTabs() {
    showPanel();
    auto* bar = m_panel->findChild<PlaybackBar*>(QStringLiteral("playbackBar"));
    QVERIFY(bar);
    m_panel->setCurrentKind(ChartKind::Tradeoff);
    QVERIFY(!bar->isVisible());
    for (ChartKind kind : {ChartKind::Timeline, ChartKind::Lifetimes}) {
        m_panel->setCurrentKind(kind);
        QVERIFY(bar->isVisible());
        QVERIFY(m_panel->view(kind)->isAncestorOf(bar) == false);
        QVERIFY(bar->geometry().top() >= m_panel->view(kind)->geometry().bottom());
    }
    m_panel->setCurrentKind(ChartKind::Schedule);
    QVERIFY(bar->isVisible());
    m_panel->setCurrentKind(ChartKind::Breakdown);
    QVERIFY(!bar->isVisible());
}

void TestPlayback::keysPlayAndStep() {
    showPanel();
    m_document.select(runIndexOf(m_results, "full"));
    PlaybackController* controller = m_panel->playback()->controller();
    m_panel->setCurrentKind(ChartKind::Timeline);
    QTRY_COMPARE(controller->step().strategy(), QStringLiteral("full"));
    controller->setTime(0);
    ChartView* view = m_panel->view(ChartKind::Timeline);
    view->setFocus();
    QTRY_VERIFY(view->hasFocus());
    const auto& events = controller->step().events();
    QTest::keyClick(view, Qt::Key_Right);
    QCOMPARE(controller->time(), events[0].begin_ms);
    QTest::keyClick(view, Qt::Key_Right);
    QCOMPARE(controller->time(), events[1].begin_ms);
    QTest::keyClick(view, Qt::Key_Left);
    QCOMPARE(controller->time(), events[0].begin_ms);
    QTest::keyClick(view, Qt::Key_Space);
    QVERIFY(controller->isPlaying());
    QTest::keyClick(view, Qt::Key_Space);
    QVERIFY(!controller->isPlaying());
    // The narration line says what runs at the cursor.
    auto* bar = m_panel->findChild<PlaybackBar*>(QStringLiteral("playbackBar"));
    QCOMPARE(bar->narration(), controller->step().narration(controller->time()));
    // A text field keeps its keys.
    const double before = controller->time();
    m_field->setFocus();
    QTRY_VERIFY(m_field->hasFocus());
    QTest::keyClick(m_field, Qt::Key_Space);
    QTest::keyClick(m_field, Qt::Key_Right);
    QCOMPARE(controller->time(), before);
    QVERIFY(!controller->isPlaying());
    QCOMPARE(m_field->text(), QStringLiteral(" "));
    // And the keys are free on the tradeoff tab.
    m_panel->setCurrentKind(ChartKind::Tradeoff);
    m_panel->view(ChartKind::Tradeoff)->setFocus();
    QTest::keyClick(m_panel->view(ChartKind::Tradeoff), Qt::Key_Right);
    QCOMPARE(controller->time(), before);
}

void TestPlayback::cursorLandsAtTheTimeOnTheCharts() {
    showPanel();
    m_document.select(runIndexOf(m_results, "segments:2"));
    PlaybackController* controller = m_panel->playback()->controller();
    m_panel->setCurrentKind(ChartKind::Timeline);
    QTRY_COMPARE(controller->step().strategy(), QStringLiteral("segments:2"));
    QTest::qWait(50);  // the rebuild waits for the next turn of the event loop
    const StepPlayback& step = controller->step();
    const PlaybackEvent& mid = step.events()[step.events().size() / 2];
    const double t = (mid.begin_ms + mid.end_ms) / 2;
    controller->setTime(t);

    QChart* chart = m_panel->chart(ChartKind::Timeline);
    ChartCursor* cursor = m_panel->playback()->timelineCursor();
    QVERIFY(cursor->line()->isVisible());
    QAbstractSeries* series = ChartCursor::mappingSeries(chart, QStringLiteral("segments:2"));
    QVERIFY(qobject_cast<QLineSeries*>(series));
    const QPointF expected = chart->mapToScene(chart->mapToPosition(QPointF(t, 0), series));
    QVERIFY(qAbs(cursor->line()->line().x1() - expected.x()) < 0.5);
    QVERIFY(qAbs(cursor->line()->line().x2() - expected.x()) < 0.5);
    const QRectF plot = chart->mapToScene(chart->plotArea()).boundingRect();
    QVERIFY(qAbs(cursor->line()->line().y1() - plot.top()) < 0.5);
    QVERIFY(qAbs(cursor->line()->line().y2() - plot.bottom()) < 0.5);
    const double mib = double(step.memoryAt(t)) / kMiB;
    QVERIFY2(cursor->label()->text().contains(formatMiB(mib)), qPrintable(cursor->label()->text()));
    QVERIFY(cursor->label()->isVisible());
    // The dot sits on the value.
    const QPointF dot = chart->mapToScene(chart->mapToPosition(QPointF(t, mib), series));
    QVERIFY(cursor->dot()->rect().contains(dot));

    // A resize moves it with the plot area, without a rebuild.
    const int builds = m_panel->buildCount(ChartKind::Timeline);
    m_window->resize(1000, 700);
    QTRY_VERIFY(qAbs(cursor->line()->line().x1() -
                     chart->mapToScene(chart->mapToPosition(QPointF(t, 0), series)).x()) < 0.5);
    controller->setTime(t / 2);
    QCOMPARE(m_panel->buildCount(ChartKind::Timeline), builds);

    // The lifetimes: the same x, and a band over the running block's row.
    m_panel->setCurrentKind(ChartKind::Lifetimes);
    QTest::qWait(50);
    controller->setTime(t);
    QChart* lifetimes = m_panel->chart(ChartKind::Lifetimes);
    ChartCursor* lifetimeCursor = m_panel->playback()->lifetimeCursor();
    QAbstractSeries* bars = ChartCursor::mappingSeries(lifetimes, QString());
    QVERIFY(bars);
    QVERIFY(lifetimeCursor->line()->isVisible());
    QVERIFY(qAbs(lifetimeCursor->line()->line().x1() -
                 lifetimes->mapToScene(lifetimes->mapToPosition(QPointF(t, 0), bars)).x()) < 0.5);
    QVERIFY(mid.block >= 0);
    QVERIFY(lifetimeCursor->band()->isVisible());
    const QPointF row =
        lifetimes->mapToScene(lifetimes->mapToPosition(QPointF(t, mid.block), bars));
    QVERIFY(lifetimeCursor->band()->rect().contains(
        QPointF(lifetimeCursor->band()->rect().center().x(), row.y())));
}

void TestPlayback::scheduleOutlinesTheRunningBlock() {
    showPanel();
    m_document.select(runIndexOf(m_results, "full"));
    m_panel->setCurrentKind(ChartKind::Schedule);
    QTRY_COMPARE(m_panel->playback()->controller()->step().strategy(), QStringLiteral("full"));
    PlaybackController* controller = m_panel->playback()->controller();
    const StepPlayback& step = controller->step();
    for (const PlaybackEvent& e : step.events()) {
        if (e.block < 0) continue;
        controller->setTime((e.begin_ms + e.end_ms) / 2);
        const ScheduleView* schedule = m_panel->scheduleView();
        const QRectF expected = schedule->diagram().cellsRect(
            QRectF(schedule->rect()), controller->runIndex(), e.block, e.block + 1);
        QVERIFY(!expected.isEmpty());
        QCOMPARE(schedule->playbackHighlightRect(), expected);
    }
}

void TestPlayback::playingAdvancesTheCursor() {
    showPanel();
    m_panel->setCurrentKind(ChartKind::Timeline);
    PlaybackController* controller = m_panel->playback()->controller();
    controller->setSpeed(4);
    controller->setTime(0);
    controller->play();
    QVERIFY(controller->isPlaying());
    QTRY_VERIFY(controller->time() > 0);
    controller->pause();
    const double t = controller->time();
    QTest::qWait(100);
    QCOMPARE(controller->time(), t);
    // At 1× the whole step lasts kSecondsAtOneX seconds.
    controller->setSpeed(1);
    QVERIFY(qAbs(controller->stepMsPerSecond() * PlaybackController::kSecondsAtOneX -
                 controller->step().duration()) <
            ckptlab::test::tolerance::formula(controller->step().duration(), 2));  // ÷ then ×
}

QTEST_MAIN(TestPlayback)
#include "test_playback.moc"
