#pragma once
// Set-up shared by the window tests: an offscreen platform unless one is set, settings in a
// throw-away folder (both before QApplication exists), and a model that runs in milliseconds.

#include <QFile>
#include <QList>
#include <QTemporaryDir>
#include <QtGlobal>

#include "ckptlab/config.h"
#include "window/messages.h"

namespace ckptlab::ui::test {

inline QTemporaryDir& configHome()
{
    static QTemporaryDir dir;
    return dir;
}

inline const bool kEnvironment = [] {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    qputenv("XDG_CONFIG_HOME", QFile::encodeName(configHome().path()));
    return true;
}();

inline ExperimentConfig tinyConfig()
{
    ExperimentConfig c;
    c.block = BlockKind::Ffn;
    c.depth = 4;
    c.width = 32;
    c.seq = 16;
    c.batch = 1;
    c.warmup = 0;
    c.repeats = 1;
    return c;
}

// Records the window's message boxes instead of showing them, for as long as it lives (make it
// a member of the test class); `answer` is the reply to questions.
class MessageRecorder {
public:
    MessageRecorder()
    {
        setMessageSink([this](const Message& m) {
            messages << m;
            return answer;
        });
    }
    ~MessageRecorder() { setMessageSink({}); }
    MessageRecorder(const MessageRecorder&) = delete;
    MessageRecorder& operator=(const MessageRecorder&) = delete;

    // Between test functions.
    void reset()
    {
        messages.clear();
        answer = false;
    }
    QString lastText() const { return messages.isEmpty() ? QString() : messages.last().text; }

    QList<Message> messages;
    bool answer = false;
};

}  // namespace ckptlab::ui::test
