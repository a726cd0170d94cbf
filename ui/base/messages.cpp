#include "base/messages.h"

#include <QDir>
#include <QFile>
#include <QMessageBox>
#include <QObject>

#include "ckptlab/formats/output_paths.h"

namespace ckptlab::ui {

namespace {
MessageSink& sink() {
    static MessageSink instance;
    return instance;
}
}  // namespace

void setMessageSink(MessageSink newSink) { sink() = std::move(newSink); }

void showMessage(QWidget* parent, MessageKind kind, const QString& title, const QString& text) {
    if (sink()) {
        sink()(Message{kind, title, text});
        return;
    }
    switch (kind) {
    case MessageKind::Information:
    case MessageKind::Question: QMessageBox::information(parent, title, text); break;
    case MessageKind::Warning: QMessageBox::warning(parent, title, text); break;
    case MessageKind::Error: QMessageBox::critical(parent, title, text); break;
    }
}

bool confirm(QWidget* parent, const QString& title, const QString& text) {
    if (sink()) return sink()(Message{MessageKind::Question, title, text});
    return QMessageBox::question(parent, title, text, QMessageBox::Yes | QMessageBox::No,
                                 QMessageBox::No) == QMessageBox::Yes;
}

QString undecodableNameText(const QString& path) {
    if (!path.contains(QChar(QChar::ReplacementCharacter))) return {};
    return QObject::tr(
        "The name holds bytes that are not UTF-8 (shown as �); they cannot "
        "be written back unchanged, so the file would get another name. Choose a "
        "name in UTF-8.");
}

QString refuseUnwritableFile(QWidget* parent, const QString& path, const QString& title) {
    QString reason = undecodableNameText(path);
    if (reason.isEmpty()) {
        const std::string why = checkOutputFile(QFile::encodeName(path).toStdString(),
                                                QDir::toNativeSeparators(path).toStdString());
        if (why.empty()) return {};
        reason = QString::fromStdString(why);
    }
    showMessage(parent, MessageKind::Error, title,
                QObject::tr("Cannot write %1.\n\n%2\n\nNothing was written.")
                    .arg(QDir::toNativeSeparators(path), reason));
    return reason;
}

}  // namespace ckptlab::ui
