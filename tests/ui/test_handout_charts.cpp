// The lesson charts as a class reads them, on hand-made runs: schedules drawn from what ran
// (seed-bug:4's recompute runs the last segment, whatever its plan says), the blank charts of a
// students' handout, block labels that fit a handout's smaller chart, point labels clear of a
// selected (larger) marker, and seed-bug's predicted point explained.
#include <QAbstractAxis>
#include <QChart>
#include <QFileInfo>
#include <QGraphicsSimpleTextItem>
#include <QImage>
#include <QLegend>
#include <QLegendMarker>
#include <QPainter>
#include <QScatterSeries>
#include <QTemporaryDir>
#include <QValueAxis>
#include <QXYSeries>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <memory>

#include "charts/chart_builders.h"
#include "charts/chart_render.h"
#include "charts/chart_style.h"
#include "charts/prediction_overlay.h"
#include "charts/schedule_diagram.h"
#include "teaching/handout.h"
#include "teaching/handout_chart.h"

#include "strategy_text.h"
#include "test_configs.h"
#include "ui_test_support.h"  // the offscreen platform, before QApplication exists

using namespace ckptlab;
using namespace ckptlab::ui;

namespace {

constexpr int kDepth = 20;
const char* kSegments4 =
    "ckpt[0,5){0 1 2 3 4} ckpt[5,10){5 6 7 8 9} ckpt[10,15){10 11 12 13 14} "
    "ckpt[15,20){15 16 17 18 19}";

RunResult run(const std::string& strategy, double peakMiB, double stepMs) {
    RunResult r;
    r.config = ckptlab::test::quickConfig(BlockKind::Ffn, kDepth, 128, 128, 2);
    r.strategy = ckptlab::test::strategy(strategy);
    r.metrics.peak_bytes = std::int64_t(peakMiB * 1024 * 1024);
    r.metrics.step_ms = stepMs;
    r.grad_check.checked = true;
    r.grad_check.tolerance = 1e-5;
    return r;
}

// The segment-bug lesson's sweep: seed-bug:4 records segments:4's schedule text, and its
// forward counts say what ran: blocks 0-14 once, the last segment once plus once per recompute.
ResultSet segmentBugSet() {
    ResultSet set;
    RunResult none = run("none", 16.3, 39.0);
    none.forward_counts.assign(kDepth, 1);
    none.schedule = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19";
    RunResult segments = run("segments:4", 12.7, 49.8);
    segments.schedule = kSegments4;
    segments.forward_counts.assign(kDepth, 2);
    segments.prediction = PredictedMetrics{};
    segments.prediction->peak_bytes = std::int64_t(12.7 * 1024 * 1024);
    segments.prediction->step_ms = 45.8;
    RunResult bug = run("seed-bug:4", 7.7, 40.9);
    bug.schedule = kSegments4;
    bug.forward_counts.assign(kDepth, 1);
    for (int b = 15; b < 20; ++b) bug.forward_counts[b] = 5;
    bug.grad_check.max_abs_diff = 1.0;  // fails
    bug.prediction = segments.prediction;
    set.runs = {none, segments, bug};
    return set;
}

LessonStep stepOf(LessonChart chart, const std::string& focus) {
    LessonStep step;
    step.id = "s";
    step.chart = chart;
    if (!focus.empty()) step.focus = ckptlab::test::strategy(focus);
    return step;
}

}  // namespace

class TestHandoutCharts : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void scheduleRowsShowWhatRan() {
        const auto rows = scheduleRows(segmentBugSet());
        QCOMPARE(rows.size(), size_t(3));
        const ScheduleRow& segments = rows[1];
        const ScheduleRow& bug = rows[2];
        QCOMPARE(segments.forwardCounts, std::vector<int>(kDepth, 2));
        std::vector<int> ran(kDepth, 1);
        for (int b = 15; b < 20; ++b) ran[b] = 5;
        QCOMPARE(bug.forwardCounts, ran);  // not the plan's 2 everywhere
        QVERIFY(!bug.planned);
        QCOMPARE(bug.extraForwards, 20);
        QCOMPARE(bug.storedInputs, 4);  // each segment still stores its input
        // Brackets only under the units that ran again: the last segment.
        QCOMPARE(bug.spans.size(), size_t(4));
        for (const CheckpointSpanView& s : bug.spans) QCOMPARE(s.recomputed, s.begin == 15);
        for (const CheckpointSpanView& s : segments.spans) QVERIFY(s.recomputed);
        // The diagrams of the two differ in their pixels, not only in their data.
        const ScheduleDiagram diagram(rows);
        QImage image(820, int(diagram.heightFor(820)), QImage::Format_ARGB32);
        image.fill(Qt::white);
        QPainter painter(&image);
        diagram.paint(painter, QRectF(image.rect()), -1, Qt::black);
        painter.end();
        const QRectF area(image.rect());
        const QRectF firstOfSegments = diagram.cellsRect(area, 1, 0, 1);
        const QRectF firstOfBug = diagram.cellsRect(area, 2, 0, 1);
        const QRectF lastOfBug = diagram.cellsRect(area, 2, 19, 20);
        QCOMPARE(image.pixelColor(firstOfSegments.topLeft().toPoint() + QPoint(3, 3)),
                 forwardCountColor(2));
        QCOMPARE(image.pixelColor(firstOfBug.topLeft().toPoint() + QPoint(3, 3)),
                 forwardCountColor(1));
        QCOMPARE(image.pixelColor(lastOfBug.topLeft().toPoint() + QPoint(3, 3)),
                 forwardCountColor(5));
    }

    void scheduleWithoutCountsIsThePlanMarkedPlanned() {
        ResultSet set = segmentBugSet();
        for (RunResult& r : set.runs) r.forward_counts.clear();  // a prediction, an older file
        const auto rows = scheduleRows(set);
        QVERIFY(rows[2].planned);
        QCOMPARE(rows[2].forwardCounts, std::vector<int>(kDepth, 2));  // the plan's counts
        for (const CheckpointSpanView& s : rows[2].spans) QVERIFY(s.recomputed);
    }

    void blankChartsShowNothingMeasured() {
        const ResultSet set = segmentBugSet();
        for (LessonChart kind : {LessonChart::Tradeoff, LessonChart::Breakdown}) {
            const LessonStep step = stepOf(kind, "seed-bug:4");
            const std::unique_ptr<QChart> blank = buildBlankStepChart(step, set);
            for (QAbstractSeries* series : blank->series())
                QCOMPARE(qobject_cast<QXYSeries*>(series)->count(), 0);
            QVERIFY(!blank->axes().isEmpty());
            for (QAbstractAxis* axis : blank->axes())
                if (auto* values = qobject_cast<QValueAxis*>(axis)) {
                    QCOMPARE(values->labelsColor().alpha(), 0);  // no value to read
                    QCOMPARE(values->max(), 1.0);                // nor to find in the file
                }
            QVERIFY(!blank->title().contains(QLatin1String("seed-bug")));
        }
    }

    void lifetimeBlockLabelsFitAHandoutChart() {
        RunResult none = run("none", 16.3, 39.0);
        for (int b = 0; b < kDepth; ++b)
            none.blocks.push_back({b, Phase::Forward, 1.0 + b, 45.0 - b, 1 << 20});
        ResultSet set;
        set.runs = {none};
        auto tickIntervalAt = [&](QSizeF size) {
            std::unique_ptr<QChart> chart(buildLifetimeChart(set, set.runs.front()));
            QImage image(size.toSize(), QImage::Format_ARGB32);
            QPainter painter(&image);
            renderChart(chart.get(), &painter, size);
            auto* y = qobject_cast<QValueAxis*>(chart->axes(Qt::Vertical).value(0));
            return y ? y->tickInterval() : -1.0;
        };
        const double small = tickIntervalAt({820, 500});  // the handout's layout size
        const double large = tickIntervalAt({1200, 1000});
        QCOMPARE(large, 1.0);  // room for every block
        QVERIFY2(small > 1, qPrintable(QString::number(small)));
    }

    void pointLabelClearsTheSelectedMarker() {
        const ResultSet set = segmentBugSet();
        std::unique_ptr<QChart> chart(buildTradeoffChart(set));
        setSelectedStrategy(chart.get(), QStringLiteral("seed-bug:4"));  // a larger marker
        QImage image(820, 500, QImage::Format_ARGB32);
        QPainter painter(&image);
        renderChart(chart.get(), &painter, QSizeF(820, 500));
        QScatterSeries* bug = nullptr;
        for (QAbstractSeries* s : chart->series())
            if (s->property(kStrategyProperty).toString() == QLatin1String("seed-bug:4"))
                bug = qobject_cast<QScatterSeries*>(s);
        QVERIFY(bug);
        const QPointF centre = chart->mapToPosition(bug->at(0), bug);
        const qreal radius = bug->markerSize() / 2 + bug->pen().widthF() / 2;
        QVERIFY(bug->markerSize() > 13);  // the selection made it larger
        bool found = false;
        for (QGraphicsItem* item : chart->childItems()) {
            auto* text = dynamic_cast<QGraphicsSimpleTextItem*>(item);
            if (!text || text->text() != QLatin1String("seed-bug:4")) continue;
            found = true;
            const QRectF box = text->mapRectToParent(text->boundingRect());
            // The nearest point of the label's box to the marker's centre lies outside it.
            const QPointF nearest(std::clamp(centre.x(), box.left(), box.right()),
                                  std::clamp(centre.y(), box.top(), box.bottom()));
            const qreal distance = QLineF(centre, nearest).length();
            QVERIFY2(distance >= radius,
                     qPrintable(QStringLiteral("%1 < %2").arg(distance).arg(radius)));
        }
        QVERIFY(found);
    }

    void seedBugPredictionIsExplained() {
        const ResultSet set = segmentBugSet();
        QVERIFY(predictionNote(set.runs[1]).isEmpty());
        const QString note = predictionNote(set.runs[2]);
        QVERIFY(note.contains(QLatin1String("segments:4")));
        // Beside the point, in the chart itself: a handout has no tooltips.
        std::unique_ptr<QChart> chart(buildTradeoffChart(set));
        QStringList texts;
        for (QGraphicsItem* item : chart->childItems())
            if (auto* text = dynamic_cast<QGraphicsSimpleTextItem*>(item)) texts << text->text();
        QVERIFY2(texts.contains(QStringLiteral("seed-bug:4 predicted: the plan of segments:4")),
                 qPrintable(texts.join(QLatin1Char('|'))));
    }

    void handoutsOfEveryKindAreWritten() {
        Lesson lesson;
        lesson.id = "t";
        lesson.title = {"Title", "标题"};
        LessonStep step = stepOf(LessonChart::Schedule, "seed-bug:4");
        step.question = {"How much does full save?", "full 节省多少？"};
        step.answer = {"It saves {saving_pct(seed-bug:4)} %.", "节省 {saving_pct(seed-bug:4)} %。"};
        lesson.steps = {step};
        LessonResults results{{"s", segmentBugSet()}};
        QTemporaryDir dir;
        qint64 sizes[3] = {};
        int i = 0;
        for (const HandoutOptions& options :
             {HandoutOptions{}, HandoutOptions{true, false}, HandoutOptions{false, true}}) {
            const QString path = dir.filePath(QStringLiteral("h%1.pdf").arg(i));
            std::string error;
            QVERIFY2(writeLessonHandout(lesson, results, "en", path.toStdString(), &error, options),
                     error.c_str());
            sizes[i++] = QFileInfo(path).size();
        }
        QVERIFY(sizes[0] > 1000 && sizes[1] > 1000 && sizes[2] > 1000);
        QVERIFY(sizes[1] != sizes[0]);  // the students' sheet is another document
    }
};

QTEST_MAIN(TestHandoutCharts)
#include "test_handout_charts.moc"
