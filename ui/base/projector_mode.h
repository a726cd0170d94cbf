#pragma once
// Projector mode: for teaching in front of a class. The application font and every chart font
// kProjectorFontScale times larger, thicker lines and larger markers, Qt Charts' high-contrast
// theme. View → Projector mode toggles it (persisted by Settings) and `ckptlab --projector`
// turns it on. Files never have it, from the window either (NormalLookScope, chart_style.h).
// The charts read it (isProjectorLook, chart_style.h); this lowest floor knows nothing of them.
//
//   setProjectorMode(true);                     // needs a QApplication
//   connect(projectorMode(), &ProjectorMode::changed, panel, &ChartsPanel::restyle);

#include <QObject>

namespace ckptlab::ui {

// How much larger every font is in projector mode (the application's and the charts').
inline constexpr qreal kProjectorFontScale = 1.6;

class ProjectorMode : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

Q_SIGNALS:
    void changed(bool on);
};

// The one notifier, living as long as the application.
ProjectorMode* projectorMode();

// Sets the application font and the chart look; emits changed() when it changes.
void setProjectorMode(bool on);
bool isProjectorMode();

}  // namespace ckptlab::ui
