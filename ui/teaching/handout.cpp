#include "teaching/handout.h"

#include <QApplication>
#include <QFile>
#include <QFontDatabase>
#include <QFontMetricsF>
#include <QGuiApplication>
#include <QPageLayout>
#include <QPainter>
#include <QPdfWriter>
#include <QPen>
#include <QSaveFile>
#include <QScreen>
#include <algorithm>
#include <optional>

#include "base/language.h"
#include "charts/chart_style.h"
#include "ckptlab/formats/output_paths.h"
#include "teaching/handout_chart.h"
#include "teaching/handout_pages.h"
#include "teaching/lesson_strings.h"

namespace ckptlab::ui {

namespace {

const QColor kGrey(0x55, 0x55, 0x55);

bool fail(std::string* error, const QString& message) {
    if (error) *error = message.toStdString();
    return false;
}

// The labels and chart titles follow the installed translation: for the handout's language
// while it is written, then back (the CLI prints a lesson in any language).
class LanguageScope {
public:
    explicit LanguageScope(const QString& lang) : m_previous(currentLanguage()) {
        m_changed = lang != m_previous && installLanguage(lang);
    }
    ~LanguageScope() {
        if (m_changed) installLanguage(m_previous);
    }
    LanguageScope(const LanguageScope&) = delete;
    LanguageScope& operator=(const LanguageScope&) = delete;

private:
    QString m_previous;
    bool m_changed = false;
};

// The handout's fonts: one family for the language (a CJK one for Chinese) and the CJK one for
// the tutorial's Chinese headings in either language.
struct Fonts {
    QFont title, heading, body, small, quote;
};

Fonts makeFonts(const QString& lang) {
    const QString cjk = cjkFontFamily();
    QString family = QApplication::font().family();
    if (lang == QLatin1String(kLangChinese) && !cjk.isEmpty()) family = cjk;
    auto font = [](const QString& f, qreal points, bool bold = false) {
        QFont font(f);
        font.setPointSizeF(points);
        font.setBold(bold);
        return font;
    };
    return {font(family, 20, true), font(family, 14, true), font(family, 10.5), font(family, 8.5),
            font(cjk.isEmpty() ? family : cjk, 11)};
}

QString label(LessonLabel which, const std::string& lang) {
    return QString::fromStdString(lessonLabel(which, lang));
}

// The lesson's title with its placeholders ({term(memory)}) filled: a lesson-level text takes
// them from the lesson's first step.
QString lessonTitle(const Lesson& lesson, const LessonResults& results, const QString& lang) {
    if (lesson.steps.empty()) return lessonPlain(localized(lesson.title, lang));
    return lessonPlain(filledText(lesson.title, lesson, lesson.steps.front(), results, lang));
}

// The handout's own words.
struct HandoutText {
    Q_DECLARE_TR_FUNCTIONS(HandoutText)
};

enum class Kind { Default, Student, Teacher };

// A measured value in a students' sheet: the blank they fill in.
const QString kBlank = QStringLiteral("________");

// `text` with every measured placeholder replaced by a blank; the step's configuration
// ({config(…)}) and the words chosen by the device ({term(…)}) stay, as they are no answer.
std::string withoutMeasurements(const std::string& text) {
    std::string out = text;
    for (const std::string& p : placeholdersIn(text)) {
        const std::string bare = p.substr(p.find('/') == std::string::npos ? 0 : p.find('/') + 1);
        if (bare.rfind("config(", 0) == 0 || bare.rfind("term(", 0) == 0) continue;
        const std::string written = "{" + p + "}";
        for (std::size_t at = out.find(written); at != std::string::npos; at = out.find(written))
            out.replace(at, written.size(), kBlank.toStdString());
    }
    return out;
}

// Everything one handout is written with.
class Handout {
public:
    Handout(HandoutPages& pages, QPainter& painter, const Lesson& lesson,
            const LessonResults& results, const QString& lang, const Fonts& fonts, Kind kind)
        : m_pages(pages),
          m_painter(painter),
          m_lesson(lesson),
          m_results(results),
          m_lang(lang),
          m_code(lang.toStdString()),
          m_fonts(fonts),
          m_kind(kind) {
        m_bold = fonts.body;
        m_bold.setBold(true);
        const qreal line = QFontMetricsF(fonts.body, painter.device()).height();
        m_indent = line * 1.6;
        m_writingSpacing = line * 1.7;
    }

    void titlePage();
    void step(int index);
    void quiz();

private:
    bool answers() const { return m_kind != Kind::Student; }
    // A lesson text filled for `stepId` (the lesson's first step when empty), its measured
    // values left blank in a students' sheet.
    QString fill(const LocalizedText& text, const LessonStep& step) const {
        LocalizedText shown = text;
        if (!answers()) {
            shown.en = withoutMeasurements(text.en);
            shown.zh_CN = withoutMeasurements(text.zh_CN);
        }
        return lessonPlain(filledText(shown, m_lesson, step, m_results, m_lang));
    }
    // A placeholder expression's value as the answers print it ("52.9"), or empty.
    QString value(const std::string& expression, const LessonStep& step) const {
        if (placeholdersIn("{" + expression + "}").empty()) return {};
        QStringList unresolved;
        const QString text =
            filledText(LocalizedText{"{" + expression + "}", "{" + expression + "}"}, m_lesson,
                       step, m_results, m_lang, &unresolved);
        return unresolved.isEmpty() ? text : QString();
    }
    QString choiceValue(const LessonChoice& choice, const LessonStep& step) const {
        const std::optional<double> v =
            placeholderNumber(choice.value, m_lesson, step.id, m_results);
        return v ? measuredNumber(*v) : QStringLiteral("—");
    }
    void choices(const std::vector<LessonChoice>& list, ChoicePick pick, const LessonStep& step);
    void prediction(const LessonStep& step);
    void code(const LessonStep& step);
    void labelled(LessonLabel which, const QString& text, qreal after) {
        m_pages.paragraph(label(which, m_code), m_bold, Qt::black, 1);
        m_pages.paragraph(text, m_fonts.body, Qt::black, after);
    }

    HandoutPages& m_pages;
    QPainter& m_painter;
    const Lesson& m_lesson;
    const LessonResults& m_results;
    QString m_lang;
    std::string m_code;
    const Fonts& m_fonts;
    Kind m_kind;
    QFont m_bold;
    qreal m_indent = 0;
    qreal m_writingSpacing = 0;
};

void Handout::titlePage() {
    m_pages.paragraph(lessonTitle(m_lesson, m_results, m_lang), m_fonts.title, Qt::black, 4);
    if (m_kind == Kind::Teacher)
        m_pages.paragraph(HandoutText::tr("Teacher's key: the answers, the right choices and the "
                                          "measured values"),
                          m_fonts.heading, kGrey, 8);
    if (m_kind == Kind::Student)
        m_pages.paragraph(HandoutText::tr("Name: %1    Date: %2")
                              .arg(QString(24, QLatin1Char('_')), QString(14, QLatin1Char('_'))),
                          m_fonts.body, Qt::black, 8);
    const LessonStep* first = m_lesson.steps.empty() ? nullptr : &m_lesson.steps.front();
    m_pages.paragraph(
        first ? fill(m_lesson.summary, *first) : lessonPlain(localized(m_lesson.summary, m_lang)),
        m_fonts.body, Qt::black, 12);
    if (!m_lesson.tutorial.empty()) {
        m_pages.paragraph(label(LessonLabel::Tutorial, m_code), m_fonts.heading, Qt::black, 4);
        for (const TutorialQuote& quote : m_lesson.tutorial) {
            m_pages.paragraph(QString::fromStdString(quote.heading), m_fonts.quote, Qt::black, 2);
            if (m_lang != QLatin1String(kLangChinese))
                m_pages.paragraph(QString::fromStdString(quote.translation), m_fonts.body, kGrey,
                                  6);
        }
        m_pages.skip(6);
    }
    // The machines are the answers' provenance: a students' sheet lists the steps alone.
    m_pages.paragraph(answers() ? LessonStrings::tr("Steps and where their results come from")
                                : HandoutText::tr("Steps"),
                      m_fonts.heading, Qt::black, 4);
    const int count = int(m_lesson.steps.size());
    for (int i = 0; i < count; ++i) {
        const LessonStep& step = m_lesson.steps[size_t(i)];
        const QString title = fill(step.title, step);
        if (!answers()) {
            m_pages.paragraph(HandoutText::tr("%1. %2").arg(i + 1).arg(title), m_fonts.body,
                              Qt::black, 3);
            continue;
        }
        const auto found = m_results.find(step.id);
        const QString where = found == m_results.end() ? LessonStrings::tr("no results")
                                                       : machineDescription(found->second);
        m_pages.paragraph(LessonStrings::tr("%1. %2 — %3").arg(i + 1).arg(title, where),
                          m_fonts.body, Qt::black, 3);
    }
    if (!m_lesson.quiz.empty())
        m_pages.paragraph(
            HandoutText::tr("Then a quiz of %1 questions.").arg(int(m_lesson.quiz.size())),
            m_fonts.body, Qt::black, 3);
}

// The choices of a prediction or a quiz question: a box each, ticked on the right one where
// the handout gives answers, the teacher's key adding each choice's measured value.
void Handout::choices(const std::vector<LessonChoice>& list, ChoicePick pick,
                      const LessonStep& step) {
    std::optional<std::size_t> right;
    std::string why;
    if (answers()) right = rightChoice(list, pick, m_lesson, step.id, m_results, &why);
    for (std::size_t i = 0; i < list.size(); ++i) {
        const bool ticked = right && *right == i;
        QString text = fill(list[i].text, step);
        if (m_kind == Kind::Teacher)
            text = HandoutText::tr("%1 (measured: %2)").arg(text, choiceValue(list[i], step));
        const qreal indent = m_indent;
        m_pages.paragraph(
            text, ticked ? m_bold : m_fonts.body, Qt::black, 2, indent,
            [ticked, indent](QPainter& painter, const QRectF& line) {
                const qreal side = std::min(line.height() * 0.62, indent * 0.6);
                const QRectF box(indent * 0.15, line.center().y() - side / 2, side, side);
                painter.setPen(QPen(Qt::black, 0.9));
                painter.setBrush(Qt::NoBrush);
                painter.drawRect(box);
                if (!ticked) return;
                painter.setPen(QPen(Qt::black, 1.6));
                painter.drawLine(QPointF(box.left() + side * 0.18, box.top() + side * 0.55),
                                 QPointF(box.left() + side * 0.42, box.bottom() - side * 0.15));
                painter.drawLine(QPointF(box.left() + side * 0.42, box.bottom() - side * 0.15),
                                 QPointF(box.right() - side * 0.1, box.top() + side * 0.12));
            });
    }
    if (answers() && !right)
        m_pages.paragraph(HandoutText::tr("No right choice in these results: %1")
                              .arg(QString::fromStdString(why)),
                          m_fonts.small, kGrey, 2);
    m_pages.skip(6);
}

// What the class predicts before the reveal: a blank with its unit, or the choices.
void Handout::prediction(const LessonStep& step) {
    if (!step.predict) return;
    const LessonPrediction& p = *step.predict;
    m_pages.paragraph(HandoutText::tr("Predict"), m_bold, Qt::black, 1);
    m_pages.paragraph(fill(p.prompt, step), m_fonts.body, Qt::black, 4);
    if (!p.isNumber()) {
        choices(p.choices, p.pick, step);
        return;
    }
    const QString unit = localized(p.unit, m_lang);
    if (!answers()) {
        m_pages.paragraph(HandoutText::tr("Your prediction: %1 %2      Measured in class: %1 %2")
                              .arg(QString(12, QLatin1Char('_')), unit),
                          m_fonts.body, Qt::black, 10);
        return;
    }
    const QString measured = value(p.measured, step);
    m_pages.paragraph(measured.isEmpty() ? HandoutText::tr("Measured: no value in these results")
                                         : HandoutText::tr("Measured: %1 %2").arg(measured, unit),
                      m_bold, Qt::black, 10);
}

// The step's pieces of code, one after the other, each under its caption, verbatim.
void Handout::code(const LessonStep& step) {
    QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    mono.setPointSizeF(m_fonts.small.pointSizeF());
    for (const LessonCode& piece : step.code) {
        m_pages.paragraph(fill(piece.caption, step), m_bold, Qt::black, 2);
        const QStringList lines = QString::fromStdString(piece.text).split(QLatin1Char('\n'));
        for (const QString& line : lines)
            m_pages.paragraph(line.isEmpty() ? QStringLiteral(" ") : line, mono, Qt::black, 0,
                              m_indent / 2);
        m_pages.skip(8);
    }
}

void Handout::step(int index) {
    const LessonStep& step = m_lesson.steps[size_t(index)];
    // Steps follow one another; a step starts a page only when little of this one is left.
    if (m_pages.remaining() < m_pages.pageHeight() * 0.3)
        m_pages.newPage();
    else
        m_pages.rule(10, 12);
    m_pages.paragraph(stepCounter(index, int(m_lesson.steps.size())), m_fonts.small, kGrey, 2);
    m_pages.paragraph(fill(step.title, step), m_fonts.heading, Qt::black, 4);
    m_pages.paragraph(experimentSummary(step, true), m_fonts.small, kGrey, 10);
    prediction(step);
    labelled(LessonLabel::Observe, fill(step.observe, step), 8);
    code(step);
    if (answers()) labelled(LessonLabel::Question, fill(step.question, step), 10);
    const auto found = m_results.find(step.id);
    if (found == m_results.end()) {
        if (answers())
            m_pages.paragraph(LessonStrings::tr("No results for this step: run it live to see "
                                                "its chart and answer."),
                              m_fonts.body, kGrey, 10);
    } else if (!found->second.runs.empty()) {  // a full-size plan step has no runs to draw
        const bool blank = !answers();
        // A chart that nearly fits the rest of the page is drawn smaller there rather than
        // leaving the space blank; a blank chart keeps its caption on its page.
        const qreal caption =
            blank ? QFontMetricsF(m_fonts.small, m_painter.device()).height() * 1.3 : 0;
        qreal width = m_pages.width();
        qreal height = stepChartHeight(step, found->second, width, blank);
        const qreal room = m_pages.remaining() - caption;
        if (height > room && room >= height * 0.65) {
            width *= room / height;
            height = stepChartHeight(step, found->second, width, blank);
        } else if (height > room && height + caption <= m_pages.pageHeight()) {
            m_pages.newPage();
        }
        const QPointF at = m_pages.reserve(height);
        paintStepChart(
            m_painter, step, found->second,
            QRectF(at + QPointF((m_pages.width() - width) / 2, 0), QSizeF(width, height)), blank);
        if (blank)
            m_pages.paragraph(HandoutText::tr("Sketch what you expect; the chart is shown in "
                                              "class."),
                              m_fonts.small, kGrey, 10);
        else
            m_pages.skip(10);
    }
    if (!answers()) {
        labelled(LessonLabel::Question, fill(step.question, step), 2);
        m_pages.writingLines(4, m_writingSpacing);
        return;
    }
    labelled(LessonLabel::Answer, fill(step.answer, step), 6);
    if (found != m_results.end())
        m_pages.paragraph(
            m_kind == Kind::Teacher
                ? HandoutText::tr("Recorded on %1").arg(machineDescription(found->second))
                : machineDescription(found->second),
            m_fonts.small, kGrey);
}

void Handout::quiz() {
    if (m_lesson.quiz.empty()) return;
    if (m_pages.remaining() < m_pages.pageHeight() * 0.3)
        m_pages.newPage();
    else
        m_pages.rule(10, 12);
    m_pages.paragraph(HandoutText::tr("Quiz"), m_fonts.heading, Qt::black, 6);
    int number = 0;
    for (const LessonQuizQuestion& q : m_lesson.quiz) {
        const LessonStep* step = m_lesson.step(q.step);
        if (!step) continue;  // the parser refuses such a lesson
        m_pages.paragraph(HandoutText::tr("%1. %2").arg(++number).arg(fill(q.question, *step)),
                          m_bold, Qt::black, 4);
        choices(q.choices, q.pick, *step);
        if (answers()) m_pages.paragraph(fill(q.explanation, *step), m_fonts.body, kGrey, 10);
    }
}

// The DPI the charts were laid out for: painting at another would resize their text.
int layoutDpi() {
    const QScreen* screen = QGuiApplication::primaryScreen();
    return screen ? qRound(screen->logicalDotsPerInch()) : 96;
}

}  // namespace

bool writeLessonHandout(const Lesson& lesson, const LessonResults& results, const std::string& lang,
                        const std::string& path, std::string* error,
                        const HandoutOptions& options) {
    if (!qobject_cast<QApplication*>(QCoreApplication::instance()))
        return fail(error, LessonStrings::tr("Writing a handout needs a QApplication."));
    if (const std::string problem = checkOutputFile(path, "--pdf"); !problem.empty()) {
        if (error) *error = problem;
        return false;
    }
    const QString language = QString::fromStdString(lang);
    const LanguageScope scope(language);
    const NormalLookScope look;  // a file: the normal look, in projector mode too
    QSaveFile file(QFile::decodeName(path.c_str()));
    if (!file.open(QIODevice::WriteOnly))
        return fail(
            error,
            LessonStrings::tr("Cannot write %1: %2").arg(file.fileName(), file.errorString()));
    const QString title = lessonTitle(lesson, results, language);
    {
        QPdfWriter writer(&file);
        writer.setTitle(title);
        writer.setCreator(QStringLiteral("Checkpoint Lab"));
        writer.setResolution(layoutDpi());
        writer.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait,
                                         QMarginsF(18, 16, 18, 14), QPageLayout::Millimeter));
        QPainter painter;
        if (!painter.begin(&writer))
            return fail(error, LessonStrings::tr("Cannot write %1.").arg(file.fileName()));
        const Fonts fonts = makeFonts(language);
        const Kind kind = options.teacher     ? Kind::Teacher
                          : options.noAnswers ? Kind::Student
                                              : Kind::Default;
        const QString footer =
            kind == Kind::Teacher ? HandoutText::tr("%1 — teacher's key").arg(title) : title;
        HandoutPages pages(&writer, &painter, footer, fonts.small);
        Handout handout(pages, painter, lesson, results, language, fonts, kind);
        handout.titlePage();
        for (int i = 0; i < int(lesson.steps.size()); ++i) handout.step(i);
        handout.quiz();
        painter.end();
    }
    if (!file.commit())
        return fail(
            error,
            LessonStrings::tr("Cannot write %1: %2").arg(file.fileName(), file.errorString()));
    return true;
}

}  // namespace ckptlab::ui
