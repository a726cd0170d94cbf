#pragma once
// Every message box of the window goes through here, so tests can intercept them instead of
// blocking on a modal dialog.

#include <QString>
#include <functional>

class QWidget;

namespace ckptlab::ui {

enum class MessageKind { Information, Warning, Error, Question };

struct Message {
    MessageKind kind = MessageKind::Information;
    QString title;
    QString text;
};

// Returns the answer to a Question (true = yes); ignored for other kinds.
using MessageSink = std::function<bool(const Message&)>;

// Installs a sink that replaces the dialogs (tests); an empty function restores the dialogs.
void setMessageSink(MessageSink sink);

void showMessage(QWidget* parent, MessageKind kind, const QString& title, const QString& text);
// Asks a yes/no question; `false` when the user declines.
bool confirm(QWidget* parent, const QString& title, const QString& text);

// Checks that `path` can be written (core's checkOutputFile) before anything is rendered or
// written. On a problem shows it under `title` and returns the reason; empty when writable.
// A name with bytes that are not UTF-8 reaches Qt with U+FFFD in their place and would be
// written under that other name, so it is refused too.
QString refuseUnwritableFile(QWidget* parent, const QString& path, const QString& title);

// Why a path cannot be written back to the same name (it holds U+FFFD, the mark of bytes that
// were not UTF-8); empty when it can.
QString undecodableNameText(const QString& path);

}  // namespace ckptlab::ui
