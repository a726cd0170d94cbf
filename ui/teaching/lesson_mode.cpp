#include "teaching/lesson_mode.h"

#include <QCoreApplication>
#include <QDockWidget>
#include <QEvent>
#include <QStatusBar>
#include <QTimer>

#include "base/language.h"
#include "base/messages.h"
#include "base/projector_mode.h"
#include "ckptlab/strategy.h"
#include "ckptlab/summary.h"
#include "controllers/sweep_controller.h"
#include "document/results_document.h"
#include "panels/charts_panel.h"
#include "panels/curve_sweep_panel.h"
#include "panels/parameter_panel.h"
#include "panels/strategy_list.h"
#include "teaching/lesson_chart.h"
#include "teaching/lesson_panel.h"
#include "teaching/lesson_strings.h"
#include "window/main_window.h"

namespace ckptlab::ui {

LessonMode::LessonMode(MainWindow& window, const MainWindow::Parts& parts)
    : QObject(&window),
      m_window(&window),
      m_experimentDock(parts.experimentDock),
      m_document(parts.document),
      m_charts(parts.charts),
      m_parameters(parts.parameters),
      m_strategies(parts.strategies),
      m_curves(parts.curves),
      m_sweep(parts.sweep),
      m_busy(parts.busy) {
    setObjectName(QStringLiteral("lessons"));
    m_panel = new LessonPanel;
    m_dock = new QDockWidget(tr("Lesson"), &window);
    m_dock->setObjectName(QStringLiteral("lessonDock"));
    m_dock->setWidget(m_panel);
    window.addDockWidget(Qt::LeftDockWidgetArea, m_dock);
    m_dock->hide();  // until a lesson opens (a saved layout may show it again)
    createActions(parts.viewMenu);

    connect(m_panel, &LessonPanel::lessonChosen, this, [this](int lesson) {
        if (!goToStep(lesson, 0)) refreshPicker();  // refused: the picker goes back
    });
    connect(m_panel, &LessonPanel::previousRequested, this, &LessonMode::previousStep);
    connect(m_panel, &LessonPanel::nextRequested, this, &LessonMode::nextStep);
    connect(m_panel, &LessonPanel::runLiveRequested, this, &LessonMode::runLive);
    connect(m_panel, &LessonPanel::exportRequested, this, &LessonMode::exportHandoutDialog);
    connect(m_panel, &LessonPanel::languageChanged, this, [this] {
        refreshPicker();
        refreshPage();
    });
    connect(m_sweep, &SweepController::started, this, &LessonMode::updateActions);
    connect(m_sweep, &SweepController::idle, this, &LessonMode::updateActions);
    connect(m_busy, &DocumentBusy::changed, this, &LessonMode::updateActions);
    connect(&window, &MainWindow::sweepEnded, this, &LessonMode::onSweepEnded);
    window.installEventFilter(this);  // fitDock() when the window is resized
    connect(projectorMode(), &ProjectorMode::changed, this, [this] {
        QTimer::singleShot(0, this, &LessonMode::fitDock);  // after the new fonts' layout
    });

    // Quietly: a missing or broken lessons folder is reported when a lesson is asked for.
    m_library.load(QString::fromStdString(
                       lessonsDirectory(QCoreApplication::applicationFilePath().toStdString())),
                   &m_libraryError);
    refreshPicker();
    updateActions();
}

bool LessonMode::ensureLibrary() {
    if (m_library.count() == 0) {
        showMessage(m_window, MessageKind::Warning, tr("No lessons"),
                    tr("The lessons could not be read:\n%1").arg(m_libraryError));
        return false;
    }
    // A broken lesson file hides only itself; it is named once, when lessons are first asked for.
    if (!m_problemsShown && !m_library.problems().isEmpty()) {
        m_problemsShown = true;
        showMessage(m_window, MessageKind::Warning, tr("Some lessons are left out"),
                    tr("These lesson files could not be read and are left out; the other "
                       "lessons work:\n%1")
                        .arg(m_library.problems().join(QLatin1Char('\n'))));
    }
    return true;
}

bool LessonMode::openLesson(const QString& id) {
    if (!ensureLibrary()) return false;
    const int index = m_library.indexOf(id);
    if (index < 0) {
        showMessage(m_window, MessageKind::Warning, tr("Unknown lesson"),
                    tr("There is no lesson \"%1\". The lessons are:\n%2")
                        .arg(id, m_library.ids().join(QStringLiteral(", "))));
        return false;
    }
    return goToStep(index, 0);
}

// Unsaved results the user measured are not thrown away without asking (a live run's are
// kept in the library, so they count as saved).
bool LessonMode::mayReplaceResults() {
    if (m_document->isEmpty() || !m_document->isModified()) return true;
    return confirm(m_window, tr("Replace the results?"),
                   tr("The results on screen were measured here and are not saved. The lesson "
                      "step replaces them.\n\nReplace them anyway?"));
}

bool LessonMode::goToStep(int lesson, int step) {
    if (lesson < 0 || lesson >= m_library.count()) return false;
    const Lesson& l = m_library.lesson(lesson);
    if (step < 0 || step >= int(l.steps.size())) return false;
    DocumentHold hold(m_busy, DocumentAction::LessonStep, m_window);
    if (!hold || !mayReplaceResults()) return false;
    const bool sameStep = lesson == m_lesson && step == m_step;
    m_lesson = lesson;
    m_step = step;
    const LessonStep& s = l.steps[size_t(step)];
    loadStepResults(l, s);
    applyExperiment(s);
    showChart(s);
    if (!sameStep) m_panel->setAnswerShown(false);
    refreshPicker();
    refreshPage();
    showDock();
    m_window->statusBar()->showMessage(tr("%1: %2").arg(localized(l.title, currentLanguage()),
                                                        stepCounter(step, int(l.steps.size()))),
                                       8000);
    updateActions();
    return true;
}

void LessonMode::showDock() {
    // The first time, beside the experiment as a tab: the lesson sets the experiment, so the
    // two take turns. Not before, so the window's layout is untouched until a lesson opens.
    const bool appearing = m_dock->isHidden();
    if (appearing && !m_dock->isFloating() && m_window->tabifiedDockWidgets(m_dock).isEmpty() &&
        m_window->dockWidgetArea(m_experimentDock) == m_window->dockWidgetArea(m_dock))
        m_window->tabifyDockWidget(m_experimentDock, m_dock);
    m_dock->show();
    m_dock->raise();
    if (appearing) QTimer::singleShot(0, this, &LessonMode::fitDock);  // once laid out
}

void LessonMode::fitDock() {
    // Projector mode: the lesson text and the chart share the width, the text about two
    // fifths of it (kProjectorDockShare), so at 1280×720 the text fits without scrolling and
    // the chart keeps its axis titles; kept when the window is resized. (The experiment dock,
    // tabbed behind, may shrink that far in projector mode.)
    if (!isProjectorMode() || m_dock->isHidden() || m_dock->isFloating()) return;
    m_window->resizeDocks({m_dock}, {int(m_window->width() * kProjectorDockShare)}, Qt::Horizontal);
}

LessonMode::Carried LessonMode::carry() const {
    return {m_library, m_lesson, m_step, m_panel->isAnswerShown()};
}

void LessonMode::restore(Carried carried) {
    if (carried.library.count() == 0) return;
    m_library = std::move(carried.library);
    m_libraryError.clear();
    const bool valid = carried.lesson >= 0 && carried.lesson < m_library.count() &&
                       carried.step >= 0 &&
                       carried.step < int(m_library.lesson(carried.lesson).steps.size());
    m_lesson = valid ? carried.lesson : -1;
    m_step = valid ? carried.step : -1;
    refreshPicker();
    refreshPage();
    if (valid) {
        m_panel->setAnswerShown(carried.answerShown);
        showDock();
    }
    updateActions();
}

bool LessonMode::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_window && event->type() == QEvent::Resize && isProjectorMode())
        QTimer::singleShot(0, this, &LessonMode::fitDock);
    return QObject::eventFilter(watched, event);
}

bool LessonMode::nextStep() { return goToStep(m_lesson, m_step + 1); }
bool LessonMode::previousStep() { return goToStep(m_lesson, m_step - 1); }

void LessonMode::loadStepResults(const Lesson& lesson, const LessonStep& step) {
    const int index = m_library.indexOf(QString::fromStdString(lesson.id));
    const ResultSet* results = m_library.stepResults(index, step.id);
    if (!results) {
        m_document->clear();
        return;
    }
    std::vector<std::vector<TimelineEvent>> thinned;
    for (const RunResult& run : results->runs)
        thinned.push_back(downsampleTimeline(run.timeline, kTimelinePoints));
    m_document->reset(*results, std::move(thinned));
    m_document->setFilePath({});  // a copy: Save asks where, the recording stays as it is
    if (step.focus) m_document->select(m_document->firstRunOf(*step.focus));
}

// The panels show the step's experiment, as Open shows a file's, so Run measures it again.
void LessonMode::applyExperiment(const LessonStep& step) {
    const LessonExperiment& e = step.experiment;
    m_parameters->setConfig(e.config);
    m_strategies->setChecked(e.strategies);
    if (e.scaling_axis) {
        QStringList values;
        for (int v : e.scaling_values) values << QString::number(v);
        m_curves->setScaling(*e.scaling_axis, values.join(QLatin1Char(',')));
    }
}

void LessonMode::showChart(const LessonStep& step) {
    m_charts->setCurrentKind(lessonChartKind(step.chart));
}

bool LessonMode::runLive() {
    // Checked before the panels change: they describe the sweep in flight.
    if (m_lesson < 0 || !m_busy->mayStart(DocumentAction::LessonLiveRun, m_window)) return false;
    const LessonStep& step = m_library.lesson(m_lesson).steps[size_t(m_step)];
    applyExperiment(step);
    m_liveLesson = m_lesson;
    m_liveStep = m_step;
    // The window's own Run path: its checks, confirmations, progress and status line.
    const bool started = m_window->startLessonRun(step.experiment.scaling_axis.has_value());
    if (!started) m_liveLesson = m_liveStep = -1;
    updateActions();
    return started;
}

void LessonMode::onSweepEnded(bool cancelled, bool failed) {
    const int lesson = m_liveLesson;
    const int step = m_liveStep;
    m_liveLesson = m_liveStep = -1;
    if (lesson < 0 || cancelled || failed || m_document->isEmpty()) {
        updateActions();
        return;  // a partial run stays on screen, unsaved, and the answer keeps its source
    }
    const LessonStep& s = m_library.lesson(lesson).steps[size_t(step)];
    m_library.setLiveResults(lesson, s.id, m_document->results());
    m_document->setModified(false);  // kept by the lesson now
    if (s.focus) m_document->select(m_document->firstRunOf(*s.focus));
    showChart(s);
    if (lesson == m_lesson && step == m_step) refreshPage();
    updateActions();
}

void LessonMode::refreshPicker() {
    QStringList titles;
    const QString lang = currentLanguage();
    for (const Lesson& lesson : m_library.lessons()) titles << localized(lesson.title, lang);
    m_panel->setLessons(titles, m_lesson);
}

void LessonMode::refreshPage() {
    LessonPage page;
    if (m_lesson < 0) {
        m_panel->showPage(page);
        return;
    }
    const QString lang = currentLanguage();
    const Lesson& lesson = m_library.lesson(m_lesson);
    const LessonStep& step = lesson.steps[size_t(m_step)];
    const LessonResults& results = m_library.results(m_lesson);
    auto fill = [&](const LocalizedText& text) {
        return lessonHtml(filledText(text, lesson, step, results, lang));
    };
    page.lessonTitle = lessonHtml(localized(lesson.title, lang));
    QStringList quotes;
    for (const TutorialQuote& quote : lesson.tutorial) {
        const QString heading = QString::fromStdString(quote.heading).toHtmlEscaped();
        // The heading is the tutorial's own Chinese; English readers get our translation too.
        quotes << (lang == QLatin1String(kLangChinese)
                       ? tr("Tutorial: “%1”").arg(heading)
                       : tr("Tutorial: “%1” (%2)")
                             .arg(heading,
                                  QString::fromStdString(quote.translation).toHtmlEscaped()));
    }
    if (!quotes.isEmpty())
        page.quote =
            QStringLiteral("<small><i>%1</i></small>").arg(quotes.join(QStringLiteral("<br>")));
    page.counter = stepCounter(m_step, int(lesson.steps.size()));
    page.hasPrevious = m_step > 0;
    page.hasNext = m_step + 1 < int(lesson.steps.size());
    page.stepTitle = fill(step.title);
    page.experiment = experimentSummary(step).toHtmlEscaped();
    page.observe = fill(step.observe);
    page.question = fill(step.question);
    page.answer = fill(step.answer);
    page.source = sourceDescription(m_library.source(m_lesson, step.id),
                                    m_library.stepResults(m_lesson, step.id));
    m_panel->showPage(page);
}

}  // namespace ckptlab::ui
