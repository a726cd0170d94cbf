#include "teaching/lesson_library.h"

#include <QDir>
#include <QFile>

namespace ckptlab::ui {

bool LessonLibrary::load(const QString& dir, QString* error) {
    m_lessons.clear();
    m_paths.clear();
    m_entries.clear();
    m_problems.clear();
    m_dir = dir;
    auto fail = [&](const QString& message) {
        m_lessons.clear();
        m_paths.clear();
        if (error) *error = message;
        return false;
    };
    if (dir.isEmpty() || !QDir(dir).exists())
        return fail(QStringLiteral("No lessons folder found (set CKPTLAB_LESSONS_DIR)."));
    try {
        LessonFolder folder = loadLessonFolder(QFile::encodeName(dir).toStdString());
        m_lessons = std::move(folder.lessons);
        for (const std::string& problem : folder.problems)
            m_problems << QString::fromStdString(problem);
    } catch (const std::exception& e) {
        return fail(QString::fromStdString(e.what()));
    }
    if (m_lessons.empty())
        return fail(m_problems.isEmpty()
                        ? QStringLiteral("%1 holds no lesson.").arg(QDir::toNativeSeparators(dir))
                        : m_problems.join(QLatin1Char('\n')));
    m_entries.resize(m_lessons.size());
    try {
        LessonPathFolder paths = loadLessonPaths(QFile::encodeName(dir).toStdString(), m_lessons);
        m_paths = std::move(paths.paths);
        for (const std::string& problem : paths.problems)
            m_problems << QString::fromStdString(problem);
    } catch (const std::exception& e) {  // an unreadable paths folder leaves the lessons usable
        m_problems << QString::fromStdString(e.what());
    }
    return true;
}

int LessonLibrary::pathIndexOf(const QString& id) const {
    for (size_t i = 0; i < m_paths.size(); ++i)
        if (QString::fromStdString(m_paths[i].id) == id) return int(i);
    return -1;
}

int LessonLibrary::indexOf(const QString& id) const {
    for (int i = 0; i < count(); ++i)
        if (QString::fromStdString(m_lessons[size_t(i)].id) == id) return i;
    return -1;
}

QStringList LessonLibrary::ids() const {
    QStringList list;
    for (const Lesson& lesson : m_lessons) list << QString::fromStdString(lesson.id);
    return list;
}

LessonLibrary::Entry& LessonLibrary::entry(int index) {
    Entry& e = m_entries.at(size_t(index));
    if (!e.loaded) {
        e.loaded = true;
        const std::string recordings =
            QFile::encodeName(QDir(m_dir).filePath(QStringLiteral("recordings"))).toStdString();
        // A missing or unreadable recording leaves its step without results.
        e.results = loadRecording(recordings, lesson(index));
    }
    return e;
}

const LessonResults& LessonLibrary::results(int index) { return entry(index).results; }

const ResultSet* LessonLibrary::stepResults(int index, const std::string& stepId) {
    const LessonResults& all = results(index);
    const auto found = all.find(stepId);
    return found == all.end() ? nullptr : &found->second;
}

ResultsSource LessonLibrary::source(int index, const std::string& stepId) {
    Entry& e = entry(index);
    if (e.live.count(stepId)) return ResultsSource::Live;
    return e.results.count(stepId) ? ResultsSource::Recorded : ResultsSource::None;
}

void LessonLibrary::setLiveResults(int index, const std::string& stepId, ResultSet results) {
    Entry& e = entry(index);
    e.results[stepId] = std::move(results);
    e.live.insert(stepId);
}

}  // namespace ckptlab::ui
