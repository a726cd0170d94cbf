#include "teaching/handout.h"

#include <QApplication>
#include <QFile>
#include <QGuiApplication>
#include <QPageLayout>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QScreen>

#include "base/language.h"
#include "charts/chart_style.h"
#include "ckptlab/output_paths.h"
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

void writeTitlePage(HandoutPages& pages, const Lesson& lesson, const LessonResults& results,
                    const QString& lang, const Fonts& fonts) {
    const std::string code = lang.toStdString();
    pages.paragraph(lessonPlain(localized(lesson.title, lang)), fonts.title, Qt::black, 10);
    pages.paragraph(lessonPlain(localized(lesson.summary, lang)), fonts.body, Qt::black, 14);
    if (!lesson.tutorial.empty()) {
        pages.paragraph(label(LessonLabel::Tutorial, code), fonts.heading, Qt::black, 4);
        for (const TutorialQuote& quote : lesson.tutorial) {
            pages.paragraph(QString::fromStdString(quote.heading), fonts.quote, Qt::black, 2);
            if (lang != QLatin1String(kLangChinese))
                pages.paragraph(QString::fromStdString(quote.translation), fonts.body, kGrey, 6);
        }
        pages.skip(8);
    }
    pages.paragraph(LessonStrings::tr("Steps and where their results come from"), fonts.heading,
                    Qt::black, 4);
    const int count = int(lesson.steps.size());
    for (int i = 0; i < count; ++i) {
        const LessonStep& step = lesson.steps[size_t(i)];
        const auto found = results.find(step.id);
        const QString where = found == results.end() ? LessonStrings::tr("no results")
                                                     : machineDescription(found->second);
        pages.paragraph(LessonStrings::tr("%1. %2 — %3")
                            .arg(i + 1)
                            .arg(lessonPlain(localized(step.title, lang)), where),
                        fonts.body, Qt::black, 3);
    }
}

void writeStep(HandoutPages& pages, QPainter& painter, const Lesson& lesson, int index,
               const LessonResults& results, const QString& lang, const Fonts& fonts) {
    const std::string code = lang.toStdString();
    const LessonStep& step = lesson.steps[size_t(index)];
    auto fill = [&](const LocalizedText& text) {
        return lessonPlain(filledText(text, lesson, step, results, lang));
    };
    pages.newPage();
    pages.paragraph(stepCounter(index, int(lesson.steps.size())), fonts.small, kGrey, 2);
    pages.paragraph(fill(step.title), fonts.heading, Qt::black, 4);
    pages.paragraph(experimentSummary(step, true), fonts.small, kGrey, 10);
    QFont bold = fonts.body;
    bold.setBold(true);
    pages.paragraph(label(LessonLabel::Observe, code), bold, Qt::black, 1);
    pages.paragraph(fill(step.observe), fonts.body, Qt::black, 8);
    pages.paragraph(label(LessonLabel::Question, code), bold, Qt::black, 1);
    pages.paragraph(fill(step.question), fonts.body, Qt::black, 10);
    const auto found = results.find(step.id);
    if (found == results.end()) {
        pages.paragraph(LessonStrings::tr("No results for this step: run it live to see its "
                                          "chart and answer."),
                        fonts.body, kGrey, 10);
    } else {
        const qreal height = stepChartHeight(step, found->second, pages.width());
        const QPointF at = pages.reserve(height);
        paintStepChart(painter, step, found->second, QRectF(at, QSizeF(pages.width(), height)));
        pages.skip(10);
    }
    pages.paragraph(label(LessonLabel::Answer, code), bold, Qt::black, 1);
    pages.paragraph(fill(step.answer), fonts.body, Qt::black, 6);
    if (found != results.end())
        pages.paragraph(machineDescription(found->second), fonts.small, kGrey);
}

// The DPI the charts were laid out for: painting at another would resize their text.
int layoutDpi() {
    const QScreen* screen = QGuiApplication::primaryScreen();
    return screen ? qRound(screen->logicalDotsPerInch()) : 96;
}

}  // namespace

bool writeLessonHandout(const Lesson& lesson, const LessonResults& results, const std::string& lang,
                        const std::string& path, std::string* error) {
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
    const QString title = lessonPlain(localized(lesson.title, language));
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
        HandoutPages pages(&writer, &painter, title, fonts.small);
        writeTitlePage(pages, lesson, results, language, fonts);
        for (int i = 0; i < int(lesson.steps.size()); ++i)
            writeStep(pages, painter, lesson, i, results, language, fonts);
        painter.end();
    }
    if (!file.commit())
        return fail(
            error,
            LessonStrings::tr("Cannot write %1: %2").arg(file.fileName(), file.errorString()));
    return true;
}

}  // namespace ckptlab::ui
