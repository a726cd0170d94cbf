#pragma once
// Lesson mode: the Lesson dock, the Lesson menu and what they do to the window. Going to a step
// puts its results (recorded, or measured live since the app started) into the results document as
// Open does, sets the parameters and strategies to the step's experiment, brings its chart
// forward and selects its focus strategy. "Run live" measures the step again through the
// window's own Run (or Scaling) path; the answer then follows the live results.
// A step that asks a prediction covers the chart and the results table until the class commits
// one, skips it, shows the answer or runs the step live; the panel then compares it with the
// measurement. With a class path chosen, Previous and Next follow the path's entries.
// The window builds one through lessonModeAddOn() (objectName "lessons") and hands it its
// parts (MainWindow::Parts).

#include <QObject>
#include <QPointer>
#include <QString>
#include <map>
#include <optional>
#include <utility>

#include "document/document_busy.h"
#include "teaching/lesson_library.h"
#include "window/main_window.h"

class QAction;
class QDockWidget;
class QMainWindow;
class QMenu;

namespace ckptlab::ui {

class LessonPanel;
struct LessonPage;

// The share of the window's width the Lesson dock takes in projector mode.
inline constexpr double kProjectorDockShare = 0.42;

class LessonMode : public QObject {
    Q_OBJECT
public:
    // Adds the dock (hidden until a lesson opens), its toggle in the View menu and the Lesson
    // menu to `window`, and works on the window's `parts`.
    LessonMode(MainWindow& window, const MainWindow::Parts& parts);

    LessonLibrary& library() { return m_library; }
    int currentLesson() const { return m_lesson; }
    int currentStep() const { return m_step; }
    // The chosen class path (an index of library().paths()) and the entry shown; -1 for none.
    int currentPath() const { return m_path; }
    int currentPathEntry() const { return m_pathEntry; }

    // What the class predicted at a step, kept while the app runs (and across a language
    // switch), so going back shows the prediction again.
    struct Prediction {
        bool revealed = false;  // the chart is out: committed, skipped, shown or run live
        bool compared = false;  // the answer was shown or a live run ended: compare
        std::optional<double> number;
        int choice = -1;
    };
    LessonPanel* panel() const { return m_panel; }

    // What a language switch carries to the LessonMode built after it (the window rebuilds its
    // widgets, see main_window_language.cpp): the library with this session's live results,
    // the open lesson and step, and whether the answer was shown.
    struct Carried {
        LessonLibrary library;
        int lesson = -1;
        int step = -1;
        bool answerShown = false;
        std::map<std::pair<int, int>, Prediction> predictions;
        int path = -1;
        int pathEntry = -1;
    };
    Carried carry() const;
    // Shows the carried lesson and step again, in the current language, without touching the
    // results document (it outlives the rebuild and still holds the step's results).
    void restore(Carried carried);

public Q_SLOTS:
    // Opens the lesson at its first step and shows the dock. An unknown id shows a message
    // listing the ids and returns false.
    bool openLesson(const QString& id);
    // False when the user keeps unsaved measured results, or another action holds the document
    // (document/document_busy.h: a sweep, a load).
    bool goToStep(int lesson, int step);
    // With a class path: the path's next (previous) entry, which may be another lesson.
    bool nextStep();
    bool previousStep();
    // Follows path `index` of library().paths() from its first entry; -1 leaves the path.
    // False when refused (the first entry's step could not be shown).
    bool choosePath(int index);
    bool goToPathEntry(int entry);
    // The chosen path's printable plan (lessonPathPlan) to `path`: Markdown for *.md, else a
    // PDF. False (after a message) on failure.
    bool writePathPlan(const QString& path);
    void printPlanDialog();
    // Measures the current step again (a sweep of its strategies, or its scaling sweep).
    bool runLive();
    void openLessonDialog();
    void exportHandoutDialog();
    // The current lesson as a PDF, in the UI language; false (after a message) on failure.
    bool exportHandout(const QString& path);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void createActions(QMenu* viewMenu);
    bool ensureLibrary();
    void showDock();
    void fitDock();
    bool mayReplaceResults();
    void loadStepResults(const Lesson& lesson, const LessonStep& step);
    void applyExperiment(const LessonStep& step);
    void showChart(const LessonStep& step);
    void refreshPage();
    void refreshPicker();
    void onSweepEnded(bool cancelled, bool failed);
    void updateActions();
    void refreshPaths();
    Prediction& prediction();  // the current step's
    // Reveals the current step's chart (its prediction is then fixed) and refreshes.
    void reveal(bool compare);
    // Covers the chart and the results table while the current step waits for a prediction.
    void updateCover();
    void fillPrediction(LessonPage& page, const Lesson& lesson, const LessonStep& step,
                        const LessonResults& results);
    void fillQuiz(LessonPage& page, const Lesson& lesson, const LessonResults& results);
    bool atLessonsLastStop() const;           // the last step of the lesson, or of it on the path
    int entryOf(int lesson, int step) const;  // the path's entry for a step, or -1
    int pathTarget(bool forward) const;       // the entry Next (Previous) goes to, or -1

    MainWindow* m_window;
    QDockWidget* m_experimentDock;
    ResultsDocument* m_document;
    ChartsPanel* m_charts;
    ParameterPanel* m_parameters;
    StrategyList* m_strategies;
    CurveSweepPanel* m_curves;
    SweepController* m_sweep;
    DocumentBusy* m_busy;
    LessonLibrary m_library;
    QString m_libraryError;
    bool m_problemsShown = false;  // the broken lesson files were named
    LessonPanel* m_panel = nullptr;
    QDockWidget* m_dock = nullptr;
    int m_lesson = -1;
    int m_step = -1;
    int m_liveLesson = -1;  // the step a live run measures, until it ends
    int m_liveStep = -1;
    std::map<std::pair<int, int>, Prediction> m_predictions;  // by (lesson, step)
    int m_path = -1;
    int m_pathEntry = -1;
    QPointer<QWidget> m_chartCover;
    QPointer<QWidget> m_tableCover;
    QAction* m_printPlanAction = nullptr;
    QAction* m_openAction = nullptr;
    QAction* m_previousAction = nullptr;
    QAction* m_nextAction = nullptr;
    QAction* m_runLiveAction = nullptr;
    QAction* m_exportAction = nullptr;
};

// What gives a window its lesson mode, carried across language switches (the window deletes
// the lesson mode with its widgets and builds it again):
//   MainWindow window(lessonModeAddOn());
MainWindow::AddOn lessonModeAddOn();

// For `ckptlab --lesson ID`, before the window exists: empty when the id names a lesson,
// else a message saying so and listing the ids (or why no lesson could be read).
QString lessonIdProblem(const QString& id);
// Opens the lesson in the window's lesson mode; false when the window has none or the id is
// unknown (after a message).
bool openLesson(QMainWindow& window, const QString& id);

}  // namespace ckptlab::ui
