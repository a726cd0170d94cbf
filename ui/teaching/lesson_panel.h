#pragma once
// The Lesson dock's contents: a lesson picker, a class path picker with its timing, step
// navigation ("Step 2 of 4"), the lesson's title and the tutorial's heading it quotes, the
// step's title, what it runs, the prediction asked before the reveal, what to observe, code
// side by side, the question, the answer (hidden until "Show answer"), the prediction against
// the measurement, the lesson's quiz at its last step and where the results came from.
// A view only: LessonMode fills it and acts on its signals. Texts wrap; nothing scrolls
// sideways but the code. In projector mode what the step runs and where its results come from
// move into tooltips (of the step's title and the counter), so the rest fits 1280×720.

#include <QStringList>
#include <QVector>
#include <QWidget>
#include <optional>

class QButtonGroup;
class QComboBox;
class QFrame;
class QScrollArea;
class QLabel;
class QPushButton;
class QVBoxLayout;

namespace ckptlab::ui {

class DecimalSpinBox;

// A prediction the step asks before its chart and observe text (LessonPrediction).
struct LessonPredictPage {
    QString prompt;                // HTML; empty when the step asks none
    QString unit;                  // a number's unit, plain text; empty for a multiple choice
    QStringList choices;           // plain texts; empty for a number
    bool revealed = false;         // committed, skipped or shown: the chart and observe are on
    std::optional<double> number;  // the committed number, if any
    int choice = -1;               // the committed choice, if any
    QString comparison;            // HTML: the prediction against the measurement
};

// One piece of code shown beside the step's others.
struct LessonCodePage {
    QString caption;  // HTML
    QString text;     // verbatim
};

// A question of the lesson's quiz, with its right choice from the measurement.
struct LessonQuizPage {
    QString question;         // HTML
    QStringList choices;      // plain, for the radio buttons
    QStringList choicesHtml;  // the same as HTML, for the verdict
    int right = -1;           // the measured right choice; -1 when the results do not decide
    QString explanation;      // HTML
};

// What the panel shows for one step; every text already in the UI language and filled.
// Texts are HTML (see lessonHtml) except the counter.
struct LessonPage {
    QString lessonTitle;
    QString quote;
    QString counter;  // "Step 2 of 4"
    bool hasPrevious = false;
    bool hasNext = false;
    // A plan step (the full-size plan of a published model) is measured by the CLI, in
    // minutes: Run live would build the whole model.
    bool canRunLive = true;
    QString lessonId;  // names it in the hint of how to measure a plan step
    QString stepTitle;
    QString experiment;
    QString observe;
    QString question;
    QString answer;
    QString source;
    LessonPredictPage predict;
    QVector<LessonCodePage> code;
    // The quiz after the lesson's last step (empty on the other steps); quizKey names the
    // lesson, so a refresh of the same quiz keeps the choices made.
    QVector<LessonQuizPage> quiz;
    QString quizKey;
    QString pathTiming;  // plain: where the class is on its path; empty without a path
};

class LessonPanel : public QWidget {
    Q_OBJECT
public:
    explicit LessonPanel(QWidget* parent = nullptr);

    // The picker's entries (lesson titles) and the one selected, without emitting lessonChosen.
    void setLessons(const QStringList& titles, int current);
    // The class paths' entries ("90-minute class (90 min)"); current -1 for none. Without
    // paths the row is hidden.
    void setPaths(const QStringList& titles, int current);
    void showPage(const LessonPage& page);
    void setAnswerShown(bool shown);
    bool isAnswerShown() const;
    // While a live run measures: no navigation, no second run.
    void setBusy(bool busy);

    // The answer as plain text (tests, status lines).
    QString answerText() const;
    // The prediction against the measurement, as plain text; empty until it is shown.
    QString comparisonText() const;
    // Checks the quiz's chosen answers against the measured ones (the Check button).
    void checkQuiz();
    // A quiz question's verdict as plain text; empty until checked.
    QString quizResultText(int question) const;

Q_SIGNALS:
    void lessonChosen(int index);
    void previousRequested();
    void nextRequested();
    void runLiveRequested();
    void exportRequested();
    // A path of setPaths' list, or -1 for none.
    void pathChosen(int index);
    void printPlanRequested();
    // The prediction committed (a number, or the index of a choice), or skipped.
    void numberPredicted(double value);
    void choicePredicted(int index);
    void predictionSkipped();
    // The Show answer button (or setAnswerShown) showed or hid the answer.
    void answerShownChanged(bool shown);
    // The UI language changed: the texts must be filled again.
    void languageChanged();

protected:
    void changeEvent(QEvent* event) override;

private:
    // The constructor's steps (lesson_panel_build.cpp).
    void createControls();
    void createPredictionBox();
    void createCodeAndQuiz();
    void layOutPage();
    void connectControls();
    void retranslate();
    void updateButtons();
    void showPrediction(const LessonPredictPage& predict);
    void showCode(const QVector<LessonCodePage>& code);
    void showQuiz(const QVector<LessonQuizPage>& quiz, const QString& key);
    void commitPrediction();
    // The step's code side by side in a window of its own, as wide as the main window, for a
    // projector (the dock's columns are narrow).
    void showCodeWindow();
    // Scrolls the answer (and the comparison under it) into view once laid out.
    void revealAnswer();

    QLabel* m_pickerLabel;
    QComboBox* m_picker;
    QLabel* m_title;
    QLabel* m_quote;
    QPushButton* m_previous;
    QLabel* m_counter;
    QPushButton* m_next;
    QLabel* m_stepTitle;
    QLabel* m_experiment;
    QLabel* m_observe;
    QLabel* m_question;
    QPushButton* m_showAnswer;
    QPushButton* m_runLive;
    QPushButton* m_export;
    QLabel* m_answer;
    QLabel* m_source;
    QLabel* m_pathLabel;
    QComboBox* m_pathPicker;
    QPushButton* m_printPlan;
    QLabel* m_pathTiming;
    QFrame* m_predictBox;
    QLabel* m_predictPrompt;
    DecimalSpinBox* m_predictNumber;
    QLabel* m_predictUnit;
    QWidget* m_predictChoices;
    QVBoxLayout* m_predictChoicesLayout;
    QButtonGroup* m_predictGroup;
    QPushButton* m_predictButton;
    QPushButton* m_skipButton;
    QLabel* m_comparison;
    QWidget* m_code;
    QWidget* m_codeRow;
    QPushButton* m_enlargeCode;
    QScrollArea* m_scroll;
    QWidget* m_quiz;
    QVBoxLayout* m_quizLayout;
    QLabel* m_quizHeading;
    QPushButton* m_checkQuiz;
    QVector<QButtonGroup*> m_quizGroups;
    QVector<QLabel*> m_quizResults;
    bool m_quizChecked = false;
    LessonPage m_page;
    bool m_busy = false;
    bool m_hasLessons = false;
};

}  // namespace ckptlab::ui
