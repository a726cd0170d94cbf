#pragma once
// The lessons the app offers and the results behind each step: read from the lessons folder
// (core's lessonsDirectory), recordings loaded the first time a lesson is opened, results
// measured live since the app started in place of the recorded ones, and the class paths of the
// folder's paths/ (lesson_path.h). Plain data, no widgets.

#include <QString>
#include <QStringList>
#include <set>
#include <vector>

#include "ckptlab/teaching/lesson.h"
#include "ckptlab/teaching/lesson_path.h"

namespace ckptlab::ui {

// Where the results of a step come from.
enum class ResultsSource { None, Recorded, Live };

class LessonLibrary {
public:
    // Loads every lesson in `dir` that reads. A broken file is left out and named in problems();
    // the others load. False with *error (naming the file and field) when the folder is missing
    // or no lesson in it reads; the library is then empty.
    bool load(const QString& dir, QString* error);
    // The lesson (and path) files left out by the last load, one line each naming the file
    // and field.
    QStringList problems() const { return m_problems; }

    const std::vector<Lesson>& lessons() const { return m_lessons; }
    int count() const { return int(m_lessons.size()); }
    const Lesson& lesson(int index) const { return m_lessons.at(size_t(index)); }
    // -1 when no lesson has that id.
    int indexOf(const QString& id) const;
    QStringList ids() const;
    QString directory() const { return m_dir; }

    // The class paths through these lessons, by id; a path file that does not read is left out
    // and named in problems().
    const std::vector<LessonPath>& paths() const { return m_paths; }
    // -1 when no path has that id.
    int pathIndexOf(const QString& id) const;

    // The lesson's results by step id: its recordings (read on first use), with the steps
    // measured live since the app started replaced by those results.
    const LessonResults& results(int index);
    // The step's results, or nullptr when there are none.
    const ResultSet* stepResults(int index, const std::string& stepId);
    ResultsSource source(int index, const std::string& stepId);
    void setLiveResults(int index, const std::string& stepId, ResultSet results);

private:
    struct Entry {
        bool loaded = false;
        LessonResults results;
        std::set<std::string> live;
    };
    Entry& entry(int index);

    QString m_dir;
    std::vector<Lesson> m_lessons;
    std::vector<LessonPath> m_paths;
    QStringList m_problems;
    std::vector<Entry> m_entries;
};

}  // namespace ckptlab::ui
