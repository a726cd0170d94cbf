#include "base/language.h"

#include <QApplication>
#include <QCoreApplication>
#include <QFont>
#include <QFontDatabase>
#include <QLibraryInfo>
#include <QLocale>
#include <QSettings>
#include <QTranslator>
#include <memory>

namespace ckptlab::ui {

namespace {

const char* const kSettingsKey = "ui/language";

struct Installed {
    QString code = QStringLiteral("en");
    std::unique_ptr<QTranslator> app;  // ckptlab_<code>.qm (English: plural forms only)
    std::unique_ptr<QTranslator> qt;   // qtbase_<code>.qm from the system, when present
};

Installed& installed() {
    static Installed state;
    return state;
}

void remove(std::unique_ptr<QTranslator>& translator) {
    if (!translator) return;
    QCoreApplication::removeTranslator(translator.get());
    translator.reset();
}

// Chinese in the Simplified Chinese face, in widgets, charts and handouts alike (they all start
// from the application font): without it fontconfig's fallback for Han characters is often
// the Japanese face of Noto CJK, whose forms differ. The face goes after the UI's own family,
// so Latin text keeps it.
void useSimplifiedChineseFace(bool on) {
    if (!qobject_cast<QApplication*>(QCoreApplication::instance())) return;
    const QString cjk = cjkFontFamily();
    if (cjk.isEmpty()) return;
    QFont font = QApplication::font();
    QStringList families = font.families();
    if (families.isEmpty()) families << font.family();
    families.removeAll(cjk);
    if (on) families << cjk;
    if (families == font.families()) return;
    font.setFamilies(families);
    QApplication::setFont(font);
}

}  // namespace

QStringList availableLanguages() { return {QStringLiteral("en"), QStringLiteral("zh_CN")}; }

QString languageName(const QString& code) {
    if (code == QLatin1String("zh_CN")) return QStringLiteral("简体中文");
    if (code == QLatin1String("en")) return QStringLiteral("English");
    return code;
}

QString currentLanguage() { return installed().code; }

QString systemLanguage() {
    const QLocale locale = QLocale::system();
    if (locale.language() != QLocale::Chinese) return QStringLiteral("en");
    const bool simplified = locale.script() == QLocale::SimplifiedHanScript ||
                            locale.territory() == QLocale::China ||
                            locale.territory() == QLocale::Singapore;
    // zh_TW, zh_HK and zh_MO (Traditional) read English rather than the simplified script.
    return simplified ? QStringLiteral("zh_CN") : QStringLiteral("en");
}

QString savedLanguage() {
    const QString code = QSettings().value(QLatin1String(kSettingsKey)).toString();
    return availableLanguages().contains(code) ? code : QString();
}

void saveLanguage(const QString& code) {
    if (availableLanguages().contains(code))
        QSettings().setValue(QLatin1String(kSettingsKey), code);
}

QString startupLanguage() {
    const QString saved = savedLanguage();
    return saved.isEmpty() ? systemLanguage() : saved;
}

QString cjkFontFamily() {
    const QStringList families = QFontDatabase::families(QFontDatabase::SimplifiedChinese);
    for (const char* preferred : {"Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC",
                                  "WenQuanYi Micro Hei", "Droid Sans Fallback"})
        if (families.contains(QLatin1String(preferred))) return QLatin1String(preferred);
    return families.isEmpty() ? QString() : families.first();
}

bool installLanguage(const QString& code) {
    if (!availableLanguages().contains(code)) return false;
    auto app = std::make_unique<QTranslator>();
    if (!app->load(QStringLiteral(":/i18n/ckptlab_%1.qm").arg(code))) {
        if (code != QLatin1String("en")) return false;
        app.reset();  // English reads its source strings; the .qm only adds plural forms
    }
    std::unique_ptr<QTranslator> qt;
    if (code != QLatin1String("en")) {
        qt = std::make_unique<QTranslator>();
        if (!qt->load(QStringLiteral("qtbase_") + code,
                      QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
            qt.reset();
    }
    Installed& state = installed();
    remove(state.app);
    remove(state.qt);
    state.code = code;
    state.app = std::move(app);
    state.qt = std::move(qt);
    if (state.qt) QCoreApplication::installTranslator(state.qt.get());
    if (state.app) QCoreApplication::installTranslator(state.app.get());
    useSimplifiedChineseFace(code == QLatin1String("zh_CN"));
    return true;
}

}  // namespace ckptlab::ui
