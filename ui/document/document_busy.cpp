#include "document/document_busy.h"

#include "base/messages.h"

namespace ckptlab::ui {

bool isSweep(DocumentAction action) {
    switch (action) {
    case DocumentAction::Sweep:
    case DocumentAction::Pareto:
    case DocumentAction::Scaling:
    case DocumentAction::LessonLiveRun: return true;
    default: return false;
    }
}

DocumentBusy::DocumentBusy(QObject* parent) : QObject(parent) {
    setObjectName(QStringLiteral("documentBusy"));
}

bool DocumentBusy::allows(DocumentAction action) const {
    return !m_holder || (action == DocumentAction::Save && isSweep(*m_holder));
}

bool DocumentBusy::mayStart(DocumentAction action, QWidget* parent) const {
    if (allows(action)) return true;
    showMessage(parent, MessageKind::Information, refusalTitle(action), refusalText(*m_holder));
    return false;
}

bool DocumentBusy::begin(DocumentAction action, QWidget* parent) {
    if (!mayStart(action, parent)) return false;
    if (m_holder) return true;  // Save beside a sweep: reads, holds nothing
    m_holder = action;
    Q_EMIT changed();
    return true;
}

void DocumentBusy::end(DocumentAction action) {
    if (m_holder != action) return;
    m_holder.reset();
    Q_EMIT changed();
}

QString DocumentBusy::refusalTitle(DocumentAction attempt) {
    switch (attempt) {
    case DocumentAction::Open: return tr("Open Results");
    case DocumentAction::AddFile: return tr("Add Results File");
    case DocumentAction::Save: return tr("Save Results");
    case DocumentAction::Sweep: return tr("Run Sweep");
    case DocumentAction::Pareto: return tr("Run Pareto Curve");
    case DocumentAction::Scaling: return tr("Run Scaling Sweep");
    case DocumentAction::LessonStep: return tr("Lesson Step");
    case DocumentAction::LessonLiveRun: return tr("Run Live");
    case DocumentAction::LanguageSwitch: return tr("Language");
    case DocumentAction::Close: return tr("Close");
    }
    return {};
}

QString DocumentBusy::refusalText(DocumentAction holder) {
    switch (holder) {
    case DocumentAction::Open:
    case DocumentAction::AddFile:
        return tr("A results file is being opened. Wait until it is on screen, then try again.");
    case DocumentAction::Save:
        return tr("The results are being saved. Wait until they are saved, then try again.");
    case DocumentAction::Sweep:
    case DocumentAction::Pareto:
    case DocumentAction::Scaling:
    case DocumentAction::LessonLiveRun:
        return tr(
            "A sweep is running and its results are arriving on screen. Wait for it to "
            "finish, or cancel it (Esc), then try again.");
    case DocumentAction::LessonStep:
        return tr("A lesson step is being opened. Wait until it is on screen, then try again.");
    case DocumentAction::LanguageSwitch:
        return tr("The window is changing its language. Wait until it is done, then try again.");
    case DocumentAction::Close:
        return tr("The window is about to close. Answer its question first, then try again.");
    }
    return {};
}

}  // namespace ckptlab::ui
