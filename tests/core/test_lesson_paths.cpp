// A class's path through the lessons: read strictly against the lessons (every lesson and step
// exists, once, minutes in range), a folder of paths with a broken file named and left out, and
// the printable plan with each entry's start time in both languages.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>

#include <nlohmann/json.hpp>

#include "ckptlab/teaching/lesson_path.h"

using namespace ckptlab;
using nlohmann::json;

namespace {

json text(const std::string& en, const std::string& zh) { return {{"en", en}, {"zh_CN", zh}}; }

json step(const std::string& id, const std::string& question) {
    return {{"id", id},
            {"title", text("Step " + id, "步骤 " + id)},
            {"experiment",
             {{"config", {{"depth", 4}, {"width", 32}, {"seq", 16}}},
              {"strategies", {"none", "full"}}}},
            {"chart", "tradeoff"},
            {"observe", text("Look.", "看。")},
            {"question", text(question, "问题：" + question)},
            {"answer", text("{saving_pct(full)} %", "{saving_pct(full)} %")}};
}

std::vector<Lesson> lessons() {
    json first = {{"id", "first"},
                  {"order", 1},
                  {"title", text("The first | lesson", "第一课")},
                  {"summary", text("One.", "一。")},
                  {"steps", {step("a", "Why a?"), step("b", "Why b?")}}};
    json second = {{"id", "second"},
                   {"order", 2},
                   {"title", text("The {term(memory)} lesson", "{term(memory)}课")},
                   {"summary", text("Two.", "二。")},
                   {"steps", {step("c", "Why c?")}}};
    return {parseLesson(first.dump(), "first.json"), parseLesson(second.dump(), "second.json")};
}

json validPath() {
    return {{"id", "class-25"},
            {"title", text("A short class", "短课")},
            {"summary", text("Three steps.", "三个环节。")},
            {"entries",
             {{{"lesson", "first"}, {"step", "a"}, {"minutes", 10}},
              {{"lesson", "second"}, {"step", "c"}, {"minutes", 5}},
              {{"lesson", "first"}, {"step", "b"}, {"minutes", 70}}}}};
}

std::string errorOf(const json& doc) {
    try {
        parseLessonPath(doc.dump(), "class-25.json", lessons());
    } catch (const LessonError& e) {
        return e.what();
    }
    ADD_FAILURE() << "loaded without error";
    return {};
}

struct TempDir {
    std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("ckptlab_paths_" + std::to_string(::getpid()));
    TempDir() { std::filesystem::create_directories(path / "paths"); }
    ~TempDir() { std::filesystem::remove_all(path); }
    void write(const std::string& name, const std::string& content) const {
        std::ofstream(path / "paths" / name) << content;
    }
};

}  // namespace

TEST(LessonPaths, ValidPathLoadsInOrder) {
    const LessonPath path = parseLessonPath(validPath().dump(), "class-25.json", lessons());
    EXPECT_EQ(path.id, "class-25");
    EXPECT_EQ(path.title.zh_CN, "短课");
    ASSERT_EQ(path.entries.size(), 3u);
    EXPECT_EQ(path.entries[1].lesson, "second");
    EXPECT_EQ(path.entries[1].step, "c");
    EXPECT_EQ(path.entries[2].minutes, 70);
    EXPECT_EQ(path.totalMinutes(), 85);
}

TEST(LessonPaths, ErrorsNameTheEntryAndField) {
    struct Case {
        std::function<void(json&)> edit;
        std::string expected;
    };
    const std::vector<Case> cases = {
        {[](json& d) { d["entries"][1]["lesson"] = "third"; },
         "class-25.json: entries[1].lesson: no lesson \"third\" (lessons: first, second)"},
        {[](json& d) { d["entries"][2]["step"] = "z"; },
         "class-25.json: entries[2].step: lesson \"first\" has no step \"z\" (steps: a, b)"},
        {[](json& d) { d["entries"][2]["step"] = "a"; },
         "class-25.json: entries[2].step: \"first/a\" comes twice in the path"},
        {[](json& d) { d["entries"][0]["minutes"] = 0; },
         "class-25.json: entries[0].minutes: expected a whole number in [1, 240], got 0"},
        {[](json& d) { d["entries"][0]["minutes"] = 241; },
         "entries[0].minutes: expected a whole number in [1, 240], got 241"},
        {[](json& d) { d["entries"][0]["minutes"] = 2.5; },
         "entries[0].minutes: expected a whole number in [1, 240], got a number"},
        {[](json& d) { d["entries"][0].erase("step"); }, "entries[0].step: missing"},
        {[](json& d) { d["entries"][0]["order"] = 1; },
         "entries[0].order: unknown key (allowed: lesson, step, minutes)"},
        {[](json& d) { d["entries"] = json::array(); },
         "entries: expected a non-empty array of entries, got an empty array"},
        {[](json& d) { d["id"] = "Class 90"; },
         "id: \"Class 90\" must be lower-case letters, digits or '-'"},
        {[](json& d) { d["title"].erase("zh_CN"); }, "title.zh_CN: missing"},
        {[](json& d) { d["summary"] = text("{a/saving_pct(full)}", "{a/saving_pct(full)}"); },
         "summary.en: a path's texts carry no placeholders"},
        {[](json& d) { d["lessons"] = json::array(); },
         "lessons: unknown key (allowed: id, title, summary, entries)"},
    };
    for (const Case& c : cases) {
        json doc = validPath();
        c.edit(doc);
        const std::string error = errorOf(doc);
        EXPECT_NE(error.find(c.expected), std::string::npos)
            << "expected: " << c.expected << "\n     got: " << error;
    }
    try {
        parseLessonPath("{\"id\": \"a\", \"id\": \"b\"}", "dup.json", lessons());
        ADD_FAILURE() << "a duplicate key loaded";
    } catch (const LessonError& e) {
        EXPECT_EQ(std::string(e.what()).rfind("dup.json: ", 0), 0u) << e.what();
    }
}

TEST(LessonPaths, FolderLeavesOutBrokenFilesAndNamesThem) {
    const TempDir dir;
    dir.write("class-25.json", validPath().dump());
    json other = validPath();
    other["id"] = "other";
    dir.write("named-wrong.json", other.dump());
    json broken = validPath();
    broken["id"] = "broken";
    broken["entries"][0]["lesson"] = "absent";
    dir.write("broken.json", broken.dump());
    dir.write("notes.txt", "not a path");
    const LessonPathFolder folder = loadLessonPaths(dir.path.string(), lessons());
    ASSERT_EQ(folder.paths.size(), 1u);
    EXPECT_EQ(folder.paths[0].id, "class-25");
    ASSERT_EQ(folder.problems.size(), 2u);
    EXPECT_NE(folder.problems[0].find("broken.json: entries[0].lesson: no lesson \"absent\""),
              std::string::npos)
        << folder.problems[0];
    EXPECT_NE(folder.problems[1].find("named-wrong.json: id: \"other\" does not match the file"),
              std::string::npos)
        << folder.problems[1];
    // No paths folder: nothing, and nothing wrong.
    const LessonPathFolder none = loadLessonPaths((dir.path / "absent").string(), lessons());
    EXPECT_TRUE(none.paths.empty());
    EXPECT_TRUE(none.problems.empty());
}

TEST(LessonPaths, PlanGivesEachStepItsStartInBothLanguages) {
    const std::vector<Lesson> all = lessons();
    const LessonPath path = parseLessonPath(validPath().dump(), "class-25.json", all);
    ResultSet cuda;
    cuda.environment.device = "cuda:0";
    const std::map<std::string, LessonResults> recordings = {{"second", {{"c", cuda}}}};

    const std::string en = lessonPathPlan(path, all, kLangEnglish, recordings);
    EXPECT_EQ(en.rfind("# A short class\n\nThree steps.\n\n85 minutes, 3 steps.\n\n", 0), 0u) << en;
    EXPECT_NE(en.find("| 1 | 0:00 | 10 | The first \\| lesson | Step a | Why a? |\n"),
              std::string::npos)
        << en;
    EXPECT_NE(en.find("| 2 | 0:10 | 5 | The memory lesson | Step c | Why c? |\n"),
              std::string::npos)
        << en;
    EXPECT_NE(en.find("| 3 | 0:15 | 70 | The first \\| lesson | Step b | Why b? |\n"),
              std::string::npos)
        << en;
    EXPECT_NE(en.find("| | 1:25 | 85 | End | | |\n"), std::string::npos) << en;

    const std::string zh = lessonPathPlan(path, all, kLangChinese, recordings);
    EXPECT_EQ(zh.rfind("# 短课\n\n三个环节。\n\n共 85 分钟，3 个环节。\n\n", 0), 0u) << zh;
    EXPECT_NE(zh.find("| 2 | 0:10 | 5 | 显存课 | 步骤 c | 问题：Why c? |\n"), std::string::npos)
        << zh;
    // Without the recording the word stays as written rather than guessed.
    EXPECT_NE(lessonPathPlan(path, all, kLangChinese).find("{term(memory)}课"), std::string::npos);
}
