#pragma once
// Who holds the results document. Every action that replaces or edits it (open, add a file,
// save, the three sweeps, a lesson's step or live run, a language switch, close) takes it before
// its first question and gives it back when its last change is done: a file load when the file
// is on screen, a sweep when it has ended. An action started while another holds it, from a
// menu, a shortcut, a queued signal or code, is refused with a message saying what is in flight,
// so a load never lands in the middle of a sweep's runs and a sweep never replaces a file
// half-read. The window and the lesson mode enable their actions from it (changed()).
//
// One exception: Save while a sweep holds the document writes what is measured so far (the file
// says it is partial); it reads the runs and changes none.

#include <QObject>
#include <QString>
#include <optional>

class QWidget;

namespace ckptlab::ui {

enum class DocumentAction {
    Open,
    AddFile,
    Save,
    Sweep,
    Pareto,
    Scaling,
    LessonStep,
    LessonLiveRun,
    LanguageSwitch,
    Close,
};

// The sweeps: Run, Pareto, Scaling and a lesson's Run live.
bool isSweep(DocumentAction action);

class DocumentBusy : public QObject {
    Q_OBJECT
public:
    explicit DocumentBusy(QObject* parent = nullptr);

    bool isBusy() const { return m_holder.has_value(); }
    std::optional<DocumentAction> holder() const { return m_holder; }
    bool isHeldBy(DocumentAction action) const { return m_holder == action; }
    bool isSweepRunning() const { return m_holder && isSweep(*m_holder); }
    // Whether `action` may start now (nothing holds the document, or Save beside a sweep).
    bool allows(DocumentAction action) const;

    // Whether `action` may start now; when not, shows why over `parent` first.
    bool mayStart(DocumentAction action, QWidget* parent) const;
    // Takes the document for `action` (Save beside a sweep takes nothing). When it may not
    // start, shows why over `parent` and returns false.
    bool begin(DocumentAction action, QWidget* parent);
    // Gives the document back; only its holder does, anything else is ignored.
    void end(DocumentAction action);

    // The message that refuses `attempt` while `holder` is in flight.
    static QString refusalTitle(DocumentAction attempt);
    static QString refusalText(DocumentAction holder);

Q_SIGNALS:
    void changed();

private:
    std::optional<DocumentAction> m_holder;
};

// Holds the document for one scope: a synchronous action with its dialogs. keep() leaves it
// held past the scope for an action that goes on (a load, a sweep), which calls end() itself.
class DocumentHold {
public:
    DocumentHold(DocumentBusy* busy, DocumentAction action, QWidget* parent)
        : m_busy(busy), m_action(action), m_held(busy->begin(action, parent)) {}
    ~DocumentHold() {
        if (m_held) m_busy->end(m_action);
    }
    DocumentHold(const DocumentHold&) = delete;
    DocumentHold& operator=(const DocumentHold&) = delete;

    explicit operator bool() const { return m_held; }
    DocumentAction action() const { return m_action; }
    void keep() { m_held = false; }

private:
    DocumentBusy* m_busy;
    DocumentAction m_action;
    bool m_held;
};

}  // namespace ckptlab::ui
