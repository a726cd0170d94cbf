// The lesson panel's widgets, their layout and their connections (lesson_panel.h); what they
// show is lesson_panel.cpp's.
#include <QButtonGroup>
#include <QComboBox>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

#include "base/projector_mode.h"
#include "panels/decimal_spin_box.h"
#include "teaching/lesson_panel.h"
#include "teaching/lesson_panel_widgets.h"

namespace ckptlab::ui {

using lesson_widgets::button;
using lesson_widgets::fitArrow;
using lesson_widgets::textLabel;

LessonPanel::LessonPanel(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("lessonPanel"));
    createControls();
    createPredictionBox();
    createCodeAndQuiz();
    layOutPage();
    connectControls();
    fitArrow(m_previous);
    fitArrow(m_next);
    retranslate();
    updateButtons();
}

// The teacher's pickers and buttons and the step's texts.
void LessonPanel::createControls() {
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
}

void LessonPanel::createPredictionBox() {
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
}

// The step's code blocks and its quiz, each hidden until a step has them.
void LessonPanel::createCodeAndQuiz() {
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
}

void LessonPanel::layOutPage() {
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
}

void LessonPanel::connectControls() {
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
}

}  // namespace ckptlab::ui
