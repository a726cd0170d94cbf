#pragma once
// The Lesson dock's contents: a lesson picker, step navigation ("Step 2 of 4"), the lesson's
// title and the tutorial's heading it quotes, the step's title, what it runs, what to observe,
// the question, the answer (hidden until "Show answer") and where the results came from.
// A view only: LessonMode fills it and acts on its signals. Texts wrap; nothing scrolls
// sideways. In projector mode what the step runs and where its results come from move into
// tooltips (of the step's title and the counter), so the rest fits 1280×720 unscrolled.

#include <QWidget>

class QComboBox;
class QLabel;
class QPushButton;

namespace ckptlab::ui {

// What the panel shows for one step; every text already in the UI language and filled.
// Texts are HTML (see lessonHtml) except the counter.
struct LessonPage {
    QString lessonTitle;
    QString quote;
    QString counter;  // "Step 2 of 4"
    bool hasPrevious = false;
    bool hasNext = false;
    QString stepTitle;
    QString experiment;
    QString observe;
    QString question;
    QString answer;
    QString source;
};

class LessonPanel : public QWidget {
    Q_OBJECT
public:
    explicit LessonPanel(QWidget* parent = nullptr);

    // The picker's entries (lesson titles) and the one selected, without emitting lessonChosen.
    void setLessons(const QStringList& titles, int current);
    void showPage(const LessonPage& page);
    void setAnswerShown(bool shown);
    bool isAnswerShown() const;
    // While a live run measures: no navigation, no second run.
    void setBusy(bool busy);

    // The answer as plain text (tests, status lines).
    QString answerText() const;

Q_SIGNALS:
    void lessonChosen(int index);
    void previousRequested();
    void nextRequested();
    void runLiveRequested();
    void exportRequested();
    // The UI language changed: the texts must be filled again.
    void languageChanged();

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void updateButtons();

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
    LessonPage m_page;
    bool m_busy = false;
    bool m_hasLessons = false;
};

}  // namespace ckptlab::ui
