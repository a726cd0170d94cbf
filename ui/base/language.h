#pragma once
// The app's language: English (the source strings) or Simplified Chinese. The translations live
// in translations/*.ts and are compiled into the binary (:/i18n/ckptlab_<code>.qm); Qt's own
// qtbase_<code>.qm (standard dialogs) is loaded from the system when installed. The app follows
// the system locale unless the user chose a language (View → Language, saved in QSettings);
// `ckptlab --lang CODE` sets it for one start.

#include <QString>
#include <QStringList>

namespace ckptlab::ui {

// The codes the app knows: "en", "zh_CN".
QStringList availableLanguages();
// The language's own name ("English", "简体中文"), for menus that must read in any language.
QString languageName(const QString& code);
// The language installed now ("en" until installLanguage says otherwise).
QString currentLanguage();
// The system locale's: any Chinese in Han Simplified, China or Singapore → "zh_CN", else "en".
QString systemLanguage();
// The user's saved choice, or empty when they never chose one.
QString savedLanguage();
void saveLanguage(const QString& code);
// What a start uses: the saved choice, else the system's.
QString startupLanguage();
// Installs the translators of `code` ("en" removes the Chinese ones). False, changing nothing,
// for a code not in availableLanguages() or when its compiled translation is missing.
bool installLanguage(const QString& code);

// A family that covers Simplified Chinese (Noto Sans CJK SC when installed), or empty: the
// Chinese face of the widgets, the charts and the handouts.
QString cjkFontFamily();

}  // namespace ckptlab::ui
