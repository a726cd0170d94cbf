#pragma once
// A sheet laid over a widget (the charts, the results table) while a lesson step waits for the
// class's prediction: it fills the widget, follows its size and says why the chart is hidden.

#include <QLabel>

namespace ckptlab::ui {

class LessonCover : public QLabel {
    Q_OBJECT
public:
    // Covers `target` (a child of it, above its other children); hidden until shown.
    explicit LessonCover(QWidget* target);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
};

}  // namespace ckptlab::ui
