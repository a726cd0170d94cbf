#include "teaching/lesson_panel.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QTextDocument>
#include <QVBoxLayout>

#include "base/projector_mode.h"

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

    // The teacher's controls take two rows; the rest is text for the class, wrapped to the
    // dock's width and tight enough to fit 1280×720 with projector fonts.
    auto* picker = new QHBoxLayout;
    picker->addWidget(m_pickerLabel);
    picker->addWidget(m_picker, 1);
    picker->addWidget(m_export);
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
    layout->addWidget(m_title);
    layout->addWidget(m_quote);
    layout->addLayout(steps);
    layout->addWidget(m_stepTitle);
    layout->addWidget(m_experiment);
    layout->addWidget(m_observe);
    layout->addWidget(m_question);
    layout->addWidget(m_answer);
    layout->addWidget(m_source);
    layout->addStretch(1);
    // Only a screen smaller than the layout was made for ever scrolls, and only down.
    auto* scroll = new QScrollArea;
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
    if (!m_hasLessons) m_title->setText(tr("No lesson open."));
    showPage(m_page);
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
    updateButtons();
}

void LessonPanel::setAnswerShown(bool shown) {
    {
        const QSignalBlocker blocker(m_showAnswer);
        m_showAnswer->setChecked(shown);
    }
    m_showAnswer->setText(shown ? tr("Hide &answer") : tr("Show &answer"));
    m_answer->setVisible(shown);
}

bool LessonPanel::isAnswerShown() const { return m_showAnswer->isChecked(); }

void LessonPanel::setBusy(bool busy) {
    m_busy = busy;
    updateButtons();
}

void LessonPanel::updateButtons() {
    const bool open = !m_page.stepTitle.isEmpty();
    m_picker->setEnabled(m_hasLessons && !m_busy);
    m_previous->setEnabled(open && m_page.hasPrevious && !m_busy);
    m_next->setEnabled(open && m_page.hasNext && !m_busy);
    m_showAnswer->setEnabled(open);
    m_runLive->setEnabled(open && !m_busy);
    m_export->setEnabled(open && !m_busy);
}

QString LessonPanel::answerText() const {
    QTextDocument document;
    document.setHtml(m_page.answer);
    return document.toPlainText();
}

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
