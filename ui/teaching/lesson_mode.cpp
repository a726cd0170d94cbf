#include "teaching/lesson_mode.h"

#include <QCoreApplication>
#include <QDockWidget>
#include <QEvent>
#include <QStatusBar>
#include <QTimer>

#include "base/language.h"
#include "base/messages.h"
#include "base/projector_mode.h"
#include "ckptlab/model/strategy.h"
#include "ckptlab/model/summary.h"
#include "ckptlab/teaching/lesson_time_checks.h"
#include "controllers/sweep_controller.h"
#include "document/results_document.h"
#include "panels/charts_panel.h"
#include "panels/curve_sweep_panel.h"
#include "panels/parameter_panel.h"
#include "panels/strategy_list.h"
#include "teaching/lesson_chart.h"
#include "teaching/lesson_cover.h"
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
        refreshPaths();
        refreshPage();
        updateCover();
    });
    connect(m_panel, &LessonPanel::pathChosen, this, [this](int index) {
        if (!choosePath(index)) refreshPaths();  // refused: the picker goes back
    });
    connect(m_panel, &LessonPanel::printPlanRequested, this, &LessonMode::printPlanDialog);
    connect(m_panel, &LessonPanel::numberPredicted, this, [this](double value) {
        if (m_lesson < 0) return;
        prediction().number = value;
        reveal(false);
    });
    connect(m_panel, &LessonPanel::choicePredicted, this, [this](int choice) {
        if (m_lesson < 0) return;
        prediction().choice = choice;
        reveal(false);
    });
    connect(m_panel, &LessonPanel::predictionSkipped, this, [this] {
        if (m_lesson >= 0) reveal(false);
    });
    connect(m_panel, &LessonPanel::answerShownChanged, this, [this](bool shown) {
        if (shown && m_lesson >= 0) reveal(true);  // the answer gives the chart away anyway
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
    refreshPaths();
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
    if (m_path >= 0) {  // a step of the path, chosen by any means, puts the class there
        const int entry = entryOf(lesson, step);
        if (entry >= 0) m_pathEntry = entry;
    }
    const LessonStep& s = l.steps[size_t(step)];
    loadStepResults(l, s);
    applyExperiment(s);
    showChart(s);
    if (!sameStep) m_panel->setAnswerShown(false);
    refreshPicker();
    refreshPage();
    updateCover();
    showDock();
    m_window->statusBar()->showMessage(
        tr("%1: %2").arg(lessonTitleText(l, m_library.results(lesson), currentLanguage()),
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
    return {m_library,     m_lesson, m_step,     m_panel->isAnswerShown(),
            m_predictions, m_path,   m_pathEntry};
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
    m_predictions = std::move(carried.predictions);
    const bool onPath = carried.path >= 0 && carried.path < int(m_library.paths().size());
    m_path = onPath ? carried.path : -1;
    m_pathEntry = onPath ? carried.pathEntry : -1;
    refreshPicker();
    refreshPaths();
    refreshPage();
    if (valid) {
        m_panel->setAnswerShown(carried.answerShown);
        showDock();
    }
    updateCover();
    updateActions();
}

bool LessonMode::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_window && event->type() == QEvent::Resize && isProjectorMode())
        QTimer::singleShot(0, this, &LessonMode::fitDock);
    return QObject::eventFilter(watched, event);
}

bool LessonMode::nextStep() {
    if (m_path >= 0) return goToPathEntry(pathTarget(true));
    return goToStep(m_lesson, m_step + 1);
}

bool LessonMode::previousStep() {
    if (m_path >= 0) return goToPathEntry(pathTarget(false));
    return goToStep(m_lesson, m_step - 1);
}

int LessonMode::entryOf(int lesson, int step) const {
    if (m_path < 0 || lesson < 0 || lesson >= m_library.count()) return -1;
    const Lesson& l = m_library.lesson(lesson);
    if (step < 0 || step >= int(l.steps.size())) return -1;
    const std::vector<LessonPathEntry>& entries = m_library.paths()[size_t(m_path)].entries;
    for (size_t i = 0; i < entries.size(); ++i)
        if (entries[i].lesson == l.id && entries[i].step == l.steps[size_t(step)].id) return int(i);
    return -1;
}

int LessonMode::pathTarget(bool forward) const {
    if (m_path < 0) return -1;
    const int count = int(m_library.paths()[size_t(m_path)].entries.size());
    const int here = entryOf(m_lesson, m_step);
    // Off the path, Next returns to the entry after the last one shown, Previous to that one.
    const int target =
        forward ? (here >= 0 ? here : m_pathEntry) + 1 : (here >= 0 ? here - 1 : m_pathEntry);
    return target >= 0 && target < count ? target : -1;
}

bool LessonMode::goToPathEntry(int entry) {
    if (m_path < 0) return false;
    const LessonPath& path = m_library.paths()[size_t(m_path)];
    if (entry < 0 || entry >= int(path.entries.size())) return false;
    const LessonPathEntry& e = path.entries[size_t(entry)];
    const int lesson = m_library.indexOf(QString::fromStdString(e.lesson));
    if (lesson < 0) return false;
    const std::vector<LessonStep>& steps = m_library.lesson(lesson).steps;
    for (size_t step = 0; step < steps.size(); ++step)
        if (steps[step].id == e.step) return goToStep(lesson, int(step));
    return false;
}

bool LessonMode::choosePath(int index) {
    if (index < -1 || index >= int(m_library.paths().size())) return false;
    if (index == m_path) return true;
    const int oldPath = m_path;
    const int oldEntry = m_pathEntry;
    m_path = index;
    m_pathEntry = -1;
    if (index >= 0 && !goToPathEntry(0)) {  // a class starts at the path's first entry
        m_path = oldPath;
        m_pathEntry = oldEntry;
        return false;
    }
    refreshPaths();
    refreshPage();
    updateActions();
    return true;
}

LessonMode::Prediction& LessonMode::prediction() { return m_predictions[{m_lesson, m_step}]; }

void LessonMode::reveal(bool compare) {
    if (m_lesson < 0) return;
    if (!m_library.lesson(m_lesson).steps[size_t(m_step)].predict) return;
    Prediction& p = prediction();
    if (p.revealed && (p.compared || !compare)) return;
    p.revealed = true;
    p.compared = p.compared || compare;
    refreshPage();
    updateCover();
}

void LessonMode::updateCover() {
    bool covered = false;
    if (m_lesson >= 0) {
        const LessonStep& step = m_library.lesson(m_lesson).steps[size_t(m_step)];
        covered = step.predict && !prediction().revealed;
    }
    if (covered && !m_chartCover) m_chartCover = new LessonCover(m_charts);
    if (covered && !m_tableCover)
        if (auto* dock = m_window->findChild<QDockWidget*>(QStringLiteral("resultsDock")))
            if (dock->widget()) m_tableCover = new LessonCover(dock->widget());
    if (m_chartCover) {
        m_chartCover->setObjectName(QStringLiteral("chartCover"));
        static_cast<QLabel*>(m_chartCover.data())
            ->setText(tr("Predict first: the chart appears once the class has made its "
                         "prediction in the Lesson panel, or skipped it."));
        m_chartCover->setVisible(covered);
        if (covered) m_chartCover->raise();
    }
    if (m_tableCover) {
        m_tableCover->setObjectName(QStringLiteral("tableCover"));
        static_cast<QLabel*>(m_tableCover.data())
            ->setText(tr("The measured numbers appear after the prediction."));
        m_tableCover->setVisible(covered);
        if (covered) m_tableCover->raise();
    }
}

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
    m_parameters->setConfig(timedAsLesson(e.config));  // timed as its recording was
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
    if (step.experiment.plan) return false;  // the CLI measures it (LessonPage::canRunLive)
    applyExperiment(step);
    m_liveLesson = m_lesson;
    m_liveStep = m_step;
    // The window's own Run path: its checks, confirmations, progress and status line.
    const bool started = m_window->startLessonRun(step.experiment.scaling_axis.has_value());
    if (!started) m_liveLesson = m_liveStep = -1;
    if (started) reveal(false);  // the class watches the run; the comparison follows its end
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
    if (s.predict) {
        Prediction& p = m_predictions[{lesson, step}];
        p.revealed = p.compared = true;
    }
    if (s.focus) m_document->select(m_document->firstRunOf(*s.focus));
    showChart(s);
    if (lesson == m_lesson && step == m_step) {
        refreshPage();
        updateCover();
    }
    updateActions();
}

void LessonMode::refreshPicker() {
    QStringList titles;
    const QString lang = currentLanguage();
    // The titles' placeholders need each lesson's recordings, read once a lesson is open (the
    // picker is hidden before).
    for (int i = 0; i < m_library.count(); ++i)
        titles << (m_lesson >= 0 ? lessonTitleText(m_library.lesson(i), m_library.results(i), lang)
                                 : localized(m_library.lesson(i).title, lang));
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
    page.lessonTitle = lessonHtml(lessonTitleText(lesson, results, lang));
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
    page.canRunLive = !step.experiment.plan;
    page.lessonId = QString::fromStdString(lesson.id);
    page.stepTitle = fill(step.title);
    page.experiment = experimentSummary(step).toHtmlEscaped();
    page.observe = fill(step.observe);
    page.question = fill(step.question);
    page.answer = fill(step.answer);
    page.source = sourceDescription(m_library.source(m_lesson, step.id),
                                    m_library.stepResults(m_lesson, step.id));
    fillPrediction(page, lesson, step, results);
    for (const LessonCode& code : step.code)
        page.code.push_back(
            {lessonHtml(localized(code.caption, lang)), QString::fromStdString(code.text)});
    if (atLessonsLastStop()) fillQuiz(page, lesson, results);
    if (m_path >= 0) {
        const LessonPath& path = m_library.paths()[size_t(m_path)];
        page.pathTiming = pathTiming(path, entryOf(m_lesson, m_step));
        page.hasPrevious = pathTarget(false) >= 0;
        page.hasNext = pathTarget(true) >= 0;
    }
    m_panel->showPage(page);
}

void LessonMode::fillPrediction(LessonPage& page, const Lesson& lesson, const LessonStep& step,
                                const LessonResults& results) {
    if (!step.predict) return;
    const LessonPrediction& asked = *step.predict;
    const QString lang = currentLanguage();
    const Prediction& state = prediction();
    LessonPredictPage& p = page.predict;
    p.prompt = lessonHtml(filledText(asked.prompt, lesson, step, results, lang));
    p.revealed = state.revealed;
    p.number = state.number;
    p.choice = state.choice;
    QStringList choicesHtml;
    if (asked.isNumber()) {
        p.unit = localized(asked.unit, lang);
    } else {
        for (const LessonChoice& choice : asked.choices) {
            const QString text = filledText(choice.text, lesson, step, results, lang);
            p.choices << lessonPlain(text);
            choicesHtml << lessonHtml(text);
        }
    }
    if (!state.compared) return;
    QString comparison;  // HTML
    if (asked.isNumber()) {
        comparison =
            numberComparison(state.number,
                             placeholderNumber(asked.measured, lesson, step.id, results), p.unit)
                .toHtmlEscaped();
    } else {
        const auto right = rightChoice(asked.choices, asked.pick, lesson, step.id, results);
        const bool chose = state.choice >= 0 && state.choice < choicesHtml.size();
        comparison = choiceComparison(chose ? choicesHtml[state.choice] : QString(),
                                      right ? choicesHtml[int(*right)] : QString());
    }
    p.comparison =
        QStringLiteral("<b>%1</b> %2").arg(tr("Prediction:").toHtmlEscaped(), comparison);
}

void LessonMode::fillQuiz(LessonPage& page, const Lesson& lesson, const LessonResults& results) {
    const QString lang = currentLanguage();
    page.quizKey = QString::fromStdString(lesson.id);
    for (const LessonQuizQuestion& question : lesson.quiz) {
        const LessonStep* step = lesson.step(question.step);
        if (!step) continue;  // the parser refuses it; nothing to ask without its results
        LessonQuizPage item;
        item.question = lessonHtml(filledText(question.question, lesson, *step, results, lang));
        for (const LessonChoice& choice : question.choices) {
            const QString text = filledText(choice.text, lesson, *step, results, lang);
            item.choices << lessonPlain(text);
            item.choicesHtml << lessonHtml(text);
        }
        const auto right =
            rightChoice(question.choices, question.pick, lesson, question.step, results);
        item.right = right ? int(*right) : -1;
        item.explanation =
            lessonHtml(filledText(question.explanation, lesson, *step, results, lang));
        page.quiz.push_back(item);
    }
}

bool LessonMode::atLessonsLastStop() const {
    const Lesson& lesson = m_library.lesson(m_lesson);
    if (m_step + 1 == int(lesson.steps.size())) return true;
    // On a path that leaves the lesson before its last step, the quiz comes at the lesson's
    // last entry.
    const int here = entryOf(m_lesson, m_step);
    if (here < 0) return false;
    const std::vector<LessonPathEntry>& entries = m_library.paths()[size_t(m_path)].entries;
    for (size_t i = size_t(here) + 1; i < entries.size(); ++i)
        if (entries[i].lesson == lesson.id) return false;
    return true;
}

void LessonMode::refreshPaths() {
    QStringList titles;
    const QString lang = currentLanguage();
    for (const LessonPath& path : m_library.paths()) titles << pathTitle(path, lang);
    m_panel->setPaths(titles, m_path);
    if (m_printPlanAction) m_printPlanAction->setEnabled(m_path >= 0);
}

}  // namespace ckptlab::ui
