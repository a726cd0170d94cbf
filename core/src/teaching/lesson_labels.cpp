// The CLI's own words around a lesson, in both languages, so `--lang zh_CN` prints no English.
#include <array>
#include <cstddef>

#include "ckptlab/teaching/lesson.h"

namespace ckptlab {
namespace {

struct LabelRow {
    std::string en;
    std::string zh_CN;
};

// In the order of LessonLabel.
const std::array<LabelRow, 23>& labelTable() {
    static const std::array<LabelRow, 23> table{{
        {"Lesson", "课程"},
        {"Step", "步骤"},
        {"Runs", "运行"},
        {"Scaling", "规模扫描"},
        {"Chart", "图表"},
        {"Focus", "关注"},
        {"Observe", "观察"},
        {"Question", "问题"},
        {"Answer", "答案"},
        {"Tutorial", "教程原文"},
        {"Recorded on", "录制于"},
        {"Measured live on", "现场测量于"},
        {"Unresolved placeholders", "未解析的占位符"},
        {"passed", "通过"},
        {"failed", "未通过"},
        {"none", "无"},
        {"Predict", "预测"},
        {"Measured", "实测"},
        {"Right answer", "正确答案"},
        {"Quiz", "小测验"},
        {"Code", "代码"},
        {"Why", "解释"},
        {"min", "分钟"},
    }};
    return table;
}

// In the order of kLessonCharts.
const std::array<LabelRow, std::size(kLessonCharts)>& chartTable() {
    static const std::array<LabelRow, std::size(kLessonCharts)> table{{
        {"tradeoff", "权衡图"},
        {"timeline", "时间线"},
        {"lifetimes", "张量生存期"},
        {"segments", "保留段"},
        {"breakdown", "峰值构成"},
        {"scaling", "规模扫描"},
        {"schedules", "重计算调度"},
    }};
    return table;
}

}  // namespace

const std::string& lessonLabel(LessonLabel label, const std::string& lang) {
    const LabelRow& row = labelTable().at(static_cast<std::size_t>(label));
    return lang == kLangChinese ? row.zh_CN : row.en;
}

const std::string& lessonChartLabel(LessonChart chart, const std::string& lang) {
    const LabelRow& row = chartTable().at(static_cast<std::size_t>(chart));
    return lang == kLangChinese ? row.zh_CN : row.en;
}

}  // namespace ckptlab
