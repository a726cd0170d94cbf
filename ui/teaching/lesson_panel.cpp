#include "teaching/lesson_panel.h"

#include <QButtonGroup>
#include <QComboBox>
#include <QDialog>
#include <QEvent>
#include <QFontDatabase>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QTextDocument>
#include <QTimer>
#include <QVBoxLayout>

#include "base/projector_mode.h"
#include "panels/decimal_spin_box.h"
#include "teaching/lesson_panel_widgets.h"

namespace ckptlab::ui {

using lesson_widgets::button;
using lesson_widgets::clearLayout;
using lesson_widgets::fitArrow;
using lesson_widgets::headed;
using lesson_widgets::plainOf;
using lesson_widgets::textLabel;

namespace {

// Code reads in a fixed-width font, a little smaller than the text so that two pieces fit side
// by side in the dock; it scrolls sideways inside its box rather than wrapping.
QPlainTextEdit* codeBox(const QString& text, int index, const QFont& base, int maxLines) {
    auto* box = new QPlainTextEdit(text);
    box->setObjectName(QStringLiteral("codeBlock%1").arg(index));
    box->setReadOnly(true);
    box->setLineWrapMode(QPlainTextEdit::NoWrap);
    box->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    font.setStyleHint(QFont::TypeWriter);  // where the system names no fixed font
    font.setFixedPitch(true);
    if (base.pointSizeF() > 0) font.setPointSizeF(base.pointSizeF() * 0.85);
    box->setFont(font);
    const int lines = int(text.count(QLatin1Char('\n'))) + 1;
    const QFontMetrics metrics(font);
    // Every line without a scroll bar up to `maxLines` of them, and room for the sideways bar.
    box->setFixedHeight(metrics.lineSpacing() * qMin(lines, maxLines) + 2 * box->frameWidth() +
                        int(box->document()->documentMargin() * 2) +
                        box->horizontalScrollBar()->sizeHint().height());
    return box;
}

}  // namespace

void LessonPanel::retranslate() {
    m_pickerLabel->setText(tr("&Lesson:"));
    m_previous->setText(QStringLiteral("◀"));
    m_previous->setAccessibleName(tr("Previous step"));
    m_previous->setToolTip(tr("The previous step of the lesson (Alt+Left)"));
    m_next->setText(QStringLiteral("▶"));
    m_next->setAccessibleName(tr("Next step"));
    m_next->setToolTip(tr("The next step of the lesson (Alt+Right)"));
    m_showAnswer->setText(isAnswerShown() ? tr("Hide &answer") : tr("Show &answer"));
    m_runLive->setText(tr("Run live"));
    m_runLive->setToolTip(
        tr("Measure this step again on this machine; the answer then uses the new results"));
    m_export->setText(tr("Handout…"));
    m_export->setToolTip(tr("Export the lesson as a PDF handout"));
    m_pathLabel->setText(tr("Pa&th:"));
    m_pathPicker->setToolTip(
        tr("Follow a class path: Previous and Next go through its lessons and steps"));
    if (m_pathPicker->count() > 0) m_pathPicker->setItemText(0, tr("No path (free)"));
    m_printPlan->setText(tr("Print plan…"));
    m_printPlan->setToolTip(tr("The class plan of the path, as a PDF to print"));
    m_predictButton->setText(tr("&Predict"));
    m_predictButton->setToolTip(tr("Commit the prediction; the chart is shown then"));
    m_skipButton->setText(tr("S&kip"));
    m_skipButton->setToolTip(tr("Show the chart without a prediction"));
    m_quizHeading->setText(QStringLiteral("<b>%1</b>").arg(tr("Quiz").toHtmlEscaped()));
    m_checkQuiz->setText(tr("&Check"));
    m_enlargeCode->setText(tr("&Enlarge code…"));
    m_enlargeCode->setToolTip(tr("The code side by side in a large window"));
    m_checkQuiz->setToolTip(tr("Compare the chosen answers with the measurement"));
    if (!m_hasLessons) m_title->setText(tr("No lesson open."));
    showPage(m_page);
}

void LessonPanel::setPaths(const QStringList& titles, int current) {
    const QSignalBlocker blocker(m_pathPicker);
    m_pathPicker->clear();
    if (!titles.isEmpty()) {
        m_pathPicker->addItem(tr("No path (free)"));
        m_pathPicker->addItems(titles);
        m_pathPicker->setCurrentIndex(current + 1);
    }
    const bool any = !titles.isEmpty();
    m_pathLabel->setVisible(any);
    m_pathPicker->setVisible(any);
    m_printPlan->setVisible(any);
    updateButtons();
}

void LessonPanel::setLessons(const QStringList& titles, int current) {
    const QSignalBlocker blocker(m_picker);
    m_picker->clear();
    m_picker->addItems(titles);
    m_picker->setCurrentIndex(current);
    m_hasLessons = !titles.isEmpty();
    updateButtons();
}

void LessonPanel::showPage(const LessonPage& page) {
    m_page = page;
    if (m_hasLessons || !page.lessonTitle.isEmpty())  // projector fonts are big enough
        m_title->setText((isProjectorMode() ? QStringLiteral("<b>%1</b>")
                                            : QStringLiteral("<big><b>%1</b></big>"))
                             .arg(page.lessonTitle));
    m_quote->setText(page.quote);
    m_quote->setVisible(!page.quote.isEmpty());
    m_counter->setText(page.counter);
    // Projector mode keeps the room for the text the class reads: what the step runs and
    // where its results come from go into tooltips (the Experiment dock shows the former too).
    const bool compact = isProjectorMode();
    m_experiment->setVisible(!compact && !page.experiment.isEmpty());
    m_source->setVisible(!compact && !page.source.isEmpty());
    const auto tip = [compact](const QString& html) {
        return compact && !html.isEmpty() ? QStringLiteral("<p>%1</p>").arg(html) : QString();
    };
    m_stepTitle->setToolTip(tip(page.experiment));
    m_counter->setToolTip(tip(page.source.toHtmlEscaped()));
    m_stepTitle->setText(
        page.stepTitle.isEmpty() ? QString() : QStringLiteral("<b>%1</b>").arg(page.stepTitle));
    m_experiment->setText(page.experiment.isEmpty()
                              ? QString()
                              : QStringLiteral("<small>%1</small>").arg(page.experiment));
    m_observe->setText(page.observe.isEmpty() ? QString() : headed(tr("Observe:"), page.observe));
    m_question->setText(page.question.isEmpty() ? QString()
                                                : headed(tr("Question:"), page.question));
    m_answer->setText(page.answer.isEmpty() ? QString() : headed(tr("Answer:"), page.answer));
    m_source->setText(
        page.source.isEmpty()
            ? QString()
            : QStringLiteral("<small><i>%1</i></small>").arg(page.source.toHtmlEscaped()));
    m_pathTiming->setText(page.pathTiming);
    m_pathTiming->setVisible(!page.pathTiming.isEmpty());
    // In projector mode a chosen path shows only where the class is; the Lesson menu changes it.
    const bool pathRow =
        m_pathPicker->count() > 0 && !(compact && m_pathPicker->currentIndex() > 0);
    m_pathLabel->setVisible(pathRow);
    m_pathPicker->setVisible(pathRow);
    m_printPlan->setVisible(pathRow);
    showPrediction(page.predict);
    // Until the class commits a prediction (or skips it), what would give it away stays hidden.
    const bool hidden = !page.predict.prompt.isEmpty() && !page.predict.revealed;
    m_observe->setVisible(!page.observe.isEmpty() && !hidden);
    showCode(page.code);
    showQuiz(page.quiz, page.quizKey);
    updateButtons();
    if (isAnswerShown()) revealAnswer();
}

void LessonPanel::revealAnswer() {
    QTimer::singleShot(0, this, [this] {
        QWidget* last = m_comparison->isVisibleTo(this) ? m_comparison : m_answer;
        if (last->isVisibleTo(this)) m_scroll->ensureWidgetVisible(last, 0, 0);
    });
}

void LessonPanel::showCodeWindow() {
    const QVector<LessonCodePage>& code = m_page.code;
    if (code.isEmpty()) return;
    auto* dialog = new QDialog(window());
    dialog->setObjectName(QStringLiteral("codeWindow"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Code side by side"));
    auto* columns = new QHBoxLayout(dialog);
    // As large as the window it belongs to (a projector's whole screen), with a font that fits
    // the longest line into its column where it can stay readable.
    const QSize size = window()->size() * 0.95;
    int longest = 1;
    for (const LessonCodePage& piece : code)
        for (const QString& line : piece.text.split(QLatin1Char('\n')))
            longest = qMax(longest, int(line.size()));
    QFont base = font();
    {
        QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);
        fixed.setStyleHint(QFont::TypeWriter);
        fixed.setPointSizeF(base.pointSizeF() > 0 ? base.pointSizeF() * 0.85 : 10);
        const double column = double(size.width()) / code.size() - 40;  // margins, frame
        const double needed = QFontMetricsF(fixed).horizontalAdvance(QLatin1Char('M')) * longest;
        if (needed > column && base.pointSizeF() > 0)
            base.setPointSizeF(qMax(9.0 / 0.85, base.pointSizeF() * column / needed));
    }
    for (int i = 0; i < code.size(); ++i) {
        auto* column = new QVBoxLayout;
        QLabel* caption = textLabel("codeCaption");
        caption->setText(QStringLiteral("<b>%1</b>").arg(code[i].caption));
        column->addWidget(caption);
        QPlainTextEdit* box = codeBox(code[i].text, i, base, 1000);
        box->setMinimumHeight(0);
        box->setMaximumHeight(QWIDGETSIZE_MAX);
        column->addWidget(box, 1);
        columns->addLayout(column, 1);
    }
    dialog->resize(size);
    dialog->show();
}

void LessonPanel::showCode(const QVector<LessonCodePage>& code) {
    auto* layout = static_cast<QHBoxLayout*>(m_codeRow->layout());
    // Rebuilt only when the pieces change: a refresh keeps the scroll positions.
    QStringList now;
    for (const LessonCodePage& piece : code) now << piece.caption << piece.text;
    m_code->setVisible(!code.isEmpty());
    now << (isProjectorMode() ? QStringLiteral("projector") : QString());  // the boxes' heights
    if (m_code->property("pieces").toStringList() == now) return;
    m_code->setProperty("pieces", now);
    clearLayout(layout);
    for (int i = 0; i < code.size(); ++i) {
        auto* column = new QVBoxLayout;
        column->setSpacing(1);
        QLabel* caption = textLabel("codeCaption");
        caption->setObjectName(QStringLiteral("codeCaption%1").arg(i));
        caption->setText(QStringLiteral("<b>%1</b>").arg(code[i].caption));
        column->addWidget(caption);
        // In projector mode the dock keeps room for the text; the large window shows it all.
        column->addWidget(codeBox(code[i].text, i, font(), isProjectorMode() ? 8 : 24));
        column->addStretch(1);
        layout->addLayout(column, 1);
    }
}

void LessonPanel::setAnswerShown(bool shown) {
    const bool changed = shown != m_answer->isVisibleTo(this);
    {
        const QSignalBlocker blocker(m_showAnswer);
        m_showAnswer->setChecked(shown);
    }
    m_showAnswer->setText(shown ? tr("Hide &answer") : tr("Show &answer"));
    m_answer->setVisible(shown);
    if (changed) Q_EMIT answerShownChanged(shown);
    if (shown) revealAnswer();
}

bool LessonPanel::isAnswerShown() const { return m_showAnswer->isChecked(); }

void LessonPanel::setBusy(bool busy) {
    m_busy = busy;
    updateButtons();
}

void LessonPanel::updateButtons() {
    const bool open = !m_page.stepTitle.isEmpty();
    m_picker->setEnabled(m_hasLessons && !m_busy);
    m_pathPicker->setEnabled(m_hasLessons && !m_busy);
    m_printPlan->setEnabled(m_pathPicker->currentIndex() > 0);
    m_predictButton->setEnabled(open && !m_busy);
    m_skipButton->setEnabled(open && !m_busy);
    m_previous->setEnabled(open && m_page.hasPrevious && !m_busy);
    m_next->setEnabled(open && m_page.hasNext && !m_busy);
    m_showAnswer->setEnabled(open);
    m_runLive->setEnabled(open && m_page.canRunLive && !m_busy);
    m_runLive->setToolTip(m_page.canRunLive
                              ? tr("Measure this step again on this machine; the answer then "
                                   "uses the new results")
                              : tr("A plan step is measured with ckptlab-cli lesson %1 --live "
                                   "(minutes: one layer at several shapes)")
                                    .arg(m_page.lessonId));
    m_export->setEnabled(open && !m_busy);
}

QString LessonPanel::answerText() const { return plainOf(m_page.answer); }

void LessonPanel::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange) {
        fitArrow(m_previous);
        fitArrow(m_next);
    }
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
        Q_EMIT languageChanged();
    }
}

}  // namespace ckptlab::ui
