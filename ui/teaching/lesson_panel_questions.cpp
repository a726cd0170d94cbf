// The lesson panel's questions: the prediction asked before a step runs, and the quiz after it
// (lesson_panel.h).
#include <QButtonGroup>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

#include "panels/decimal_spin_box.h"
#include "teaching/lesson_panel.h"
#include "teaching/lesson_panel_widgets.h"

namespace ckptlab::ui {

using lesson_widgets::button;
using lesson_widgets::clearLayout;
using lesson_widgets::headed;
using lesson_widgets::plainOf;
using lesson_widgets::textLabel;

void LessonPanel::showPrediction(const LessonPredictPage& predict) {
    const bool asks = !predict.prompt.isEmpty();
    m_predictBox->setVisible(asks);
    m_comparison->setText(predict.comparison);
    m_comparison->setVisible(asks && !predict.comparison.isEmpty());
    if (!asks) return;
    m_predictPrompt->setText(headed(tr("Predict:"), predict.prompt));
    const bool number = predict.choices.isEmpty();
    m_predictNumber->setVisible(number);
    m_predictUnit->setVisible(number && !predict.unit.isEmpty());
    m_predictUnit->setText(predict.unit);
    m_predictChoices->setVisible(!number);
    // The choices are rebuilt only when they change, so a refresh keeps an unsent choice.
    QStringList shown;
    for (QAbstractButton* b : m_predictGroup->buttons()) shown << b->text();
    if (shown != predict.choices) {
        for (QAbstractButton* b : m_predictGroup->buttons()) {
            m_predictGroup->removeButton(b);
            delete b;
        }
        for (int i = 0; i < predict.choices.size(); ++i) {
            auto* radio = new QRadioButton(predict.choices[i]);
            radio->setObjectName(QStringLiteral("predictChoice%1").arg(i));
            m_predictGroup->addButton(radio, i);
            m_predictChoicesLayout->addWidget(radio);
        }
    }
    if (predict.number) {
        const QSignalBlocker blocker(m_predictNumber);
        m_predictNumber->setValue(*predict.number);
    }
    if (predict.choice >= 0)
        if (QAbstractButton* b = m_predictGroup->button(predict.choice)) b->setChecked(true);
    // Once the chart is out, the prediction stands as it was.
    m_predictNumber->setEnabled(!predict.revealed);
    m_predictChoices->setEnabled(!predict.revealed);
    m_predictButton->setVisible(!predict.revealed);
    m_skipButton->setVisible(!predict.revealed);
}

void LessonPanel::commitPrediction() {
    if (m_page.predict.choices.isEmpty()) {
        m_predictNumber->interpretText();
        Q_EMIT numberPredicted(m_predictNumber->value());
        return;
    }
    const int chosen = m_predictGroup->checkedId();
    if (chosen >= 0) Q_EMIT choicePredicted(chosen);
}

void LessonPanel::showQuiz(const QVector<LessonQuizPage>& quiz, const QString& key) {
    const bool same = m_quiz->property("key").toString() == key && !key.isEmpty() &&
                      m_quizGroups.size() == quiz.size();
    m_quiz->setVisible(!quiz.isEmpty());
    if (same) {  // the same lesson's quiz: keep the choices, and the verdicts follow new results
        if (m_quizChecked) checkQuiz();
        return;
    }
    m_quiz->setProperty("key", key);
    clearLayout(m_quizLayout);
    m_quizGroups.clear();
    m_quizResults.clear();
    m_quizChecked = false;
    for (int q = 0; q < quiz.size(); ++q) {
        QLabel* question = textLabel("quizQuestion");
        question->setObjectName(QStringLiteral("quizQuestion%1").arg(q));
        question->setText(tr("%1. %2").arg(q + 1).arg(quiz[q].question));
        m_quizLayout->addWidget(question);
        auto* group = new QButtonGroup(m_quiz);
        for (int c = 0; c < quiz[q].choices.size(); ++c) {
            auto* radio = new QRadioButton(quiz[q].choices[c]);
            radio->setObjectName(QStringLiteral("quizChoice%1_%2").arg(q).arg(c));
            group->addButton(radio, c);
            m_quizLayout->addWidget(radio);
        }
        QLabel* result = textLabel("quizResult");
        result->setObjectName(QStringLiteral("quizResult%1").arg(q));
        result->hide();
        m_quizLayout->addWidget(result);
        m_quizGroups << group;
        m_quizResults << result;
    }
}

void LessonPanel::checkQuiz() {
    m_quizChecked = true;
    for (int q = 0; q < m_quizGroups.size() && q < m_page.quiz.size(); ++q) {
        const LessonQuizPage& question = m_page.quiz[q];
        const int chosen = m_quizGroups[q]->checkedId();
        QString verdict;
        if (question.right < 0 || question.right >= question.choices.size()) {
            verdict = tr("The measurement does not decide this question; run the step live.");
        } else {
            const QString right = question.right < question.choicesHtml.size()
                                      ? question.choicesHtml[question.right]
                                      : question.choices[question.right].toHtmlEscaped();
            if (chosen == question.right)
                verdict = tr("<b>Right.</b> %1").arg(question.explanation);
            else if (chosen < 0)
                verdict = tr("<b>Not answered.</b> The measurement says: %1. %2")
                              .arg(right, question.explanation);
            else
                verdict = tr("<b>Not quite.</b> The measurement says: %1. %2")
                              .arg(right, question.explanation);
        }
        m_quizResults[q]->setText(verdict);
        m_quizResults[q]->show();
        // The right choice is marked where the class looks for it.
        for (QAbstractButton* b : m_quizGroups[q]->buttons()) {
            QFont f = b->font();
            f.setBold(m_quizGroups[q]->id(b) == question.right);
            b->setFont(f);
        }
    }
}

QString LessonPanel::quizResultText(int question) const {
    if (question < 0 || question >= m_quizResults.size() || m_quizResults[question]->isHidden())
        return {};
    return plainOf(m_quizResults[question]->text());
}

QString LessonPanel::comparisonText() const {
    return m_comparison->isHidden() ? QString() : plainOf(m_comparison->text());
}

}  // namespace ckptlab::ui
