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

namespace ckptlab::ui {

namespace {

QLabel* textLabel(const char* name) {
    auto* label = new QLabel;
    label->setObjectName(QLatin1String(name));
    label->setWordWrap(true);
    label->setTextFormat(Qt::RichText);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    return label;
}

QPushButton* button(const char* name) {
    auto* b = new QPushButton;
    b->setObjectName(QLatin1String(name));
    return b;
}

// ◀ and ▶ only a little wider than their arrow (styles make a push button at least about
// 80 px wide), so the row of controls fits a narrow dock. Again when the font changes.
void fitArrow(QPushButton* button) {
    button->setMaximumWidth(qRound(button->fontMetrics().height() * 2.6));
}

// A heading in bold, then the text: "<b>Observe</b> …".
QString headed(const QString& heading, const QString& html) {
    return QStringLiteral("<b>%1</b> %2").arg(heading.toHtmlEscaped(), html);
}

QString plainOf(const QString& html) {
    QTextDocument document;
    document.setHtml(html);
    return document.toPlainText();
}

void clearLayout(QLayout* layout) {
    while (QLayoutItem* item = layout->takeAt(0)) {
        if (QWidget* widget = item->widget()) delete widget;
        if (QLayout* inner = item->layout()) {
            clearLayout(inner);
            delete inner;  // its widgets are gone; the layout itself is not a widget's
            continue;
        }
        delete item;
    }
}

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

LessonPanel::LessonPanel(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("lessonPanel"));
    m_pickerLabel = new QLabel;
    m_picker = new QComboBox;
    m_picker->setObjectName(QStringLiteral("lessonPicker"));
    // Long titles must not widen the dock: the combo shrinks and elides.
    m_picker->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_picker->setMinimumContentsLength(12);
    m_pickerLabel->setBuddy(m_picker);
    m_title = textLabel("lessonTitle");
    m_quote = textLabel("tutorialQuote");
    m_previous = button("previousStepButton");
    m_counter = new QLabel;
    m_counter->setObjectName(QStringLiteral("stepCounter"));
    m_counter->setAlignment(Qt::AlignCenter);
    m_next = button("nextStepButton");
    m_stepTitle = textLabel("stepTitle");
    m_experiment = textLabel("stepExperiment");
    m_observe = textLabel("observeText");
    m_question = textLabel("questionText");
    m_showAnswer = button("showAnswerButton");
    m_showAnswer->setCheckable(true);
    m_runLive = button("runLiveButton");
    m_export = button("exportHandoutButton");
    m_answer = textLabel("answerText");
    m_answer->setVisible(false);
    m_source = textLabel("resultsSource");
    m_pathLabel = new QLabel;
    m_pathPicker = new QComboBox;
    m_pathPicker->setObjectName(QStringLiteral("pathPicker"));
    m_pathPicker->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_pathPicker->setMinimumContentsLength(12);
    m_pathLabel->setBuddy(m_pathPicker);
    m_printPlan = button("printPlanButton");
    m_pathTiming = textLabel("pathTiming");
    m_pathTiming->setTextFormat(Qt::PlainText);

    // The prediction: its prompt, a number with its unit or the choices, and two buttons.
    m_predictBox = new QFrame;
    m_predictBox->setObjectName(QStringLiteral("predictBox"));
    m_predictBox->setFrameShape(QFrame::StyledPanel);
    m_predictPrompt = textLabel("predictPrompt");
    m_predictNumber = new DecimalSpinBox;
    m_predictNumber->setObjectName(QStringLiteral("predictNumber"));
    m_predictNumber->setRange(-1e9, 1e9);
    m_predictNumber->setDecimals(1);
    m_predictNumber->setTrimmedZeros(true);
    m_predictUnit = new QLabel;
    m_predictUnit->setObjectName(QStringLiteral("predictUnit"));
    m_predictChoices = new QWidget;
    m_predictChoicesLayout = new QVBoxLayout(m_predictChoices);
    m_predictChoicesLayout->setContentsMargins(0, 0, 0, 0);
    m_predictChoicesLayout->setSpacing(1);
    m_predictGroup = new QButtonGroup(this);
    m_predictButton = button("predictButton");
    m_skipButton = button("skipPredictionButton");
    auto* number = new QHBoxLayout;
    number->addWidget(m_predictNumber, 1);
    number->addWidget(m_predictUnit);
    number->addWidget(m_predictButton);
    number->addWidget(m_skipButton);
    auto* predictLayout = new QVBoxLayout(m_predictBox);
    predictLayout->setContentsMargins(6, 4, 6, 4);
    predictLayout->setSpacing(3);
    predictLayout->addWidget(m_predictPrompt);
    predictLayout->addWidget(m_predictChoices);
    predictLayout->addLayout(number);
    m_predictBox->hide();
    m_comparison = textLabel("predictComparison");
    m_comparison->hide();

    m_code = new QWidget;
    m_code->setObjectName(QStringLiteral("codeBlocks"));
    m_codeRow = new QWidget;
    auto* codeRowLayout = new QHBoxLayout(m_codeRow);
    codeRowLayout->setContentsMargins(0, 0, 0, 0);
    m_enlargeCode = button("enlargeCodeButton");
    auto* codeLayout = new QVBoxLayout(m_code);
    codeLayout->setContentsMargins(0, 0, 0, 0);
    codeLayout->setSpacing(2);
    codeLayout->addWidget(m_codeRow);
    codeLayout->addWidget(m_enlargeCode, 0, Qt::AlignRight);
    m_code->hide();

    m_quiz = new QFrame;
    m_quiz->setObjectName(QStringLiteral("quizBox"));
    auto* quizOuter = new QVBoxLayout(m_quiz);
    quizOuter->setContentsMargins(0, 6, 0, 0);
    quizOuter->setSpacing(3);
    m_quizHeading = new QLabel;
    m_quizHeading->setObjectName(QStringLiteral("quizHeading"));
    m_quizLayout = new QVBoxLayout;
    m_quizLayout->setSpacing(2);
    m_checkQuiz = button("checkQuizButton");
    auto* check = new QHBoxLayout;
    check->addWidget(m_checkQuiz);
    check->addStretch(1);
    quizOuter->addWidget(m_quizHeading);
    quizOuter->addLayout(m_quizLayout);
    quizOuter->addLayout(check);
    m_quiz->hide();

    // The teacher's controls take two rows; the rest is text for the class, wrapped to the
    // dock's width and tight enough to fit 1280×720 with projector fonts.
    auto* picker = new QHBoxLayout;
    picker->addWidget(m_pickerLabel);
    picker->addWidget(m_picker, 1);
    picker->addWidget(m_export);
    auto* path = new QHBoxLayout;
    path->addWidget(m_pathLabel);
    path->addWidget(m_pathPicker, 1);
    path->addWidget(m_printPlan);
    auto* steps = new QHBoxLayout;
    steps->addWidget(m_previous);
    steps->addWidget(m_counter, 1);
    steps->addWidget(m_next);
    steps->addSpacing(8);
    steps->addWidget(m_showAnswer);
    steps->addWidget(m_runLive);

    auto* content = new QWidget;
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(6, 4, 6, 4);
    layout->setSpacing(3);
    layout->addLayout(picker);
    layout->addLayout(path);
    layout->addWidget(m_title);
    layout->addWidget(m_quote);
    layout->addLayout(steps);
    layout->addWidget(m_pathTiming);
    layout->addWidget(m_stepTitle);
    layout->addWidget(m_experiment);
    layout->addWidget(m_predictBox);
    layout->addWidget(m_observe);
    layout->addWidget(m_code);
    layout->addWidget(m_question);
    layout->addWidget(m_answer);
    layout->addWidget(m_comparison);
    layout->addWidget(m_quiz);
    layout->addWidget(m_source);
    layout->addStretch(1);
    // Only a screen smaller than the layout was made for ever scrolls, and only down.
    auto* scroll = m_scroll = new QScrollArea;
    scroll->setObjectName(QStringLiteral("lessonScroll"));
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);

    connect(m_picker, &QComboBox::currentIndexChanged, this, &LessonPanel::lessonChosen);
    connect(m_previous, &QPushButton::clicked, this, &LessonPanel::previousRequested);
    connect(m_next, &QPushButton::clicked, this, &LessonPanel::nextRequested);
    connect(m_runLive, &QPushButton::clicked, this, &LessonPanel::runLiveRequested);
    connect(m_export, &QPushButton::clicked, this, &LessonPanel::exportRequested);
    connect(m_showAnswer, &QPushButton::toggled, this, &LessonPanel::setAnswerShown);
    connect(m_pathPicker, &QComboBox::currentIndexChanged, this,
            [this](int index) { Q_EMIT pathChosen(index - 1); });  // entry 0: no path
    connect(m_printPlan, &QPushButton::clicked, this, &LessonPanel::printPlanRequested);
    connect(m_predictButton, &QPushButton::clicked, this, &LessonPanel::commitPrediction);
    connect(m_skipButton, &QPushButton::clicked, this, &LessonPanel::predictionSkipped);
    connect(m_checkQuiz, &QPushButton::clicked, this, &LessonPanel::checkQuiz);
    connect(m_enlargeCode, &QPushButton::clicked, this, &LessonPanel::showCodeWindow);
    connect(projectorMode(), &ProjectorMode::changed, this, [this] { showPage(m_page); });
    fitArrow(m_previous);
    fitArrow(m_next);
    retranslate();
    updateButtons();
}

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
