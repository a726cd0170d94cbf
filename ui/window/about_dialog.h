#pragma once
// Versions a bug report needs: the app, Qt, LibTorch, the BLAS it resolved and the device.

#include <QDialog>

#include "ckptlab/model/result.h"

namespace ckptlab::ui {

class AboutDialog : public QDialog {
    Q_OBJECT
public:
    AboutDialog(const Environment& environment, QWidget* parent = nullptr);

    // The same facts as plain text (also put on the clipboard by the Copy button).
    static QString environmentText(const Environment& environment);
};

}  // namespace ckptlab::ui
