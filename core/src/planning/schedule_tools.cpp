// Revolve's binomial schedule and the small tools that read schedules: counting forwards and
// printing them.
#include <algorithm>
#include <functional>
#include <limits>
#include <locale>
#include <map>
#include <sstream>

#include "ckptlab/planning/planner.h"

namespace ckptlab {
namespace {

// Fewest no-grad advances to reverse `steps` steps with `slots` stored states, and where the
// first checkpoint goes: p(l, s) = min over m of m + p(l - m, s - 1) + p(m, s), p(1, s) = 0.
class RevolveTable {
public:
    std::pair<long long, int> best(int steps, int slots) {
        if (steps <= 1) return {0, 0};
        if (slots <= 0) return {std::numeric_limits<long long>::max() / 4, 0};
        auto key = std::make_pair(steps, slots);
        if (auto it = memo_.find(key); it != memo_.end()) return it->second;
        std::pair<long long, int> result{std::numeric_limits<long long>::max() / 4, 0};
        for (int m = 1; m < steps; ++m) {
            const long long cost = m + best(steps - m, slots - 1).first + best(m, slots).first;
            if (cost < result.first) result = {cost, m};
        }
        memo_[key] = result;
        return result;
    }

private:
    std::map<std::pair<int, int>, std::pair<long long, int>> memo_;
};

std::vector<Segment> revolve(RevolveTable& table, int begin, int end, int slots) {
    std::vector<Segment> items;
    while (end - begin > 1) {
        const int m = table.best(end - begin, slots).second;
        Segment checkpoint{begin, begin + m, true, revolve(table, begin, begin + m, slots)};
        if (m == 1) checkpoint.inner.clear();
        items.push_back(checkpoint);
        begin += m;
        slots -= 1;
    }
    items.push_back({begin, end, false, {}});
    return items;
}

void describe(const std::vector<Segment>& segments, std::ostringstream& out) {
    bool first = true;
    for (const auto& s : segments) {
        if (!first) out << ' ';
        first = false;
        if (s.checkpointed) {
            out << "ckpt[" << s.begin << ',' << s.end << "){";
            if (s.inner.empty()) {
                for (int u = s.begin; u < s.end; ++u) out << (u > s.begin ? " " : "") << u;
            } else {
                describe(s.inner, out);
            }
            out << '}';
        } else if (!s.inner.empty()) {
            describe(s.inner, out);
        } else {
            for (int u = s.begin; u < s.end; ++u) out << (u > s.begin ? " " : "") << u;
        }
    }
}

// Calls `run(unit)` for every unit forward the plan performs, in any order.
void visitForwards(const std::vector<Segment>& segments, const std::function<void(int)>& run) {
    for (const auto& s : segments) {
        if (s.checkpointed) {
            for (int u = s.begin; u < s.end; ++u) run(u);  // the forward without grad
            if (s.inner.empty())
                for (int u = s.begin; u < s.end; ++u) run(u);  // the recompute
            else
                visitForwards(s.inner, run);
        } else if (!s.inner.empty()) {
            visitForwards(s.inner, run);
        } else {
            for (int u = s.begin; u < s.end; ++u) run(u);
        }
    }
}

int countNoGrad(const std::vector<Segment>& segments) {
    int count = 0;
    for (const auto& s : segments) {
        if (s.checkpointed)
            count += (s.end - s.begin) + countNoGrad(s.inner);
        else
            count += countNoGrad(s.inner);
    }
    return count;
}

// Recursive descent over describeSchedule's grammar:
//   items := item (' ' item)*      item := unit | "ckpt[" unit ',' unit "){" items '}'
class ScheduleParser {
public:
    explicit ScheduleParser(const std::string& text) : text_(text) {}

    std::vector<Segment> parseAll() {
        std::vector<Segment> items = parseItems();
        if (pos_ != text_.size()) fail("unexpected '" + std::string(1, text_[pos_]) + "'");
        return items;
    }

private:
    std::vector<Segment> parseItems() {
        std::vector<Segment> items;
        while (pos_ < text_.size() && text_[pos_] != '}') {
            if (!items.empty() || pos_ > 0) skip(' ');
            if (text_.compare(pos_, 5, "ckpt[") == 0) {
                pos_ += 5;
                Segment s;
                s.checkpointed = true;
                s.begin = number();
                expect(',');
                s.end = number();
                expect(')');
                expect('{');
                const std::size_t innerAt = pos_;
                s.inner = parseItems();
                expect('}');
                if (s.end <= s.begin)
                    fail("empty checkpoint [" + std::to_string(s.begin) + "," +
                         std::to_string(s.end) + ")");
                checkCovers(s.inner, s.begin, s.end, innerAt);
                // A body of plain units is how describe() prints a flat checkpoint.
                if (s.inner.size() == 1 && !s.inner.front().checkpointed) s.inner.clear();
                items.push_back(std::move(s));
            } else {
                const int unit = number();
                if (!items.empty() && !items.back().checkpointed && items.back().end == unit)
                    items.back().end = unit + 1;
                else
                    items.push_back({unit, unit + 1, false, {}});
            }
        }
        return items;
    }

    void checkCovers(const std::vector<Segment>& inner, int begin, int end, std::size_t at) {
        int next = begin;
        for (const Segment& s : inner) {
            if (s.begin != next) {
                pos_ = at;
                fail("checkpoint body must cover units " + std::to_string(begin) + ".." +
                     std::to_string(end - 1) + " in order");
            }
            next = s.end;
        }
        if (next != end) {
            pos_ = at;
            fail("checkpoint body must cover units " + std::to_string(begin) + ".." +
                 std::to_string(end - 1) + " in order");
        }
    }

    int number() {
        const std::size_t start = pos_;
        long value = 0;
        while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9' && value < 1000000)
            value = value * 10 + (text_[pos_++] - '0');
        if (pos_ == start) fail("expected a unit number");
        return static_cast<int>(value);
    }
    void expect(char c) {
        if (pos_ >= text_.size() || text_[pos_] != c) fail(std::string("expected '") + c + "'");
        ++pos_;
    }
    void skip(char c) {
        if (pos_ < text_.size() && text_[pos_] == c) ++pos_;
    }
    [[noreturn]] void fail(const std::string& why) const {
        throw std::invalid_argument("schedule: " + why + " at character " +
                                    std::to_string(pos_ + 1));
    }

    const std::string& text_;
    std::size_t pos_ = 0;
};

void collectSpans(const std::vector<Segment>& segments, int level,
                  std::vector<CheckpointSpan>& out) {
    for (const auto& s : segments) {
        if (s.checkpointed) out.push_back({s.begin, s.end, level});
        collectSpans(s.inner, s.checkpointed ? level + 1 : level, out);
    }
}

}  // namespace

Plan parseSchedule(const std::string& text) {
    Plan plan;
    plan.unitLevel = true;
    plan.segments = ScheduleParser(text).parseAll();
    int next = 0;
    for (const Segment& s : plan.segments) {
        if (s.begin != next)
            throw std::invalid_argument("schedule: units must run 0, 1, 2, ... in order (unit " +
                                        std::to_string(next) + " missing)");
        next = s.end;
    }
    return plan;
}

std::vector<CheckpointSpan> checkpointSpans(const Plan& plan) {
    std::vector<CheckpointSpan> spans;
    collectSpans(plan.segments, 0, spans);
    return spans;
}

Plan revolvePlan(int steps, int slots) {
    if (slots < 1) throw std::invalid_argument("revolve needs at least one slot");
    RevolveTable table;
    Plan plan;
    plan.segments = revolve(table, 0, steps, slots);
    return plan;
}

int noGradForwardCount(const Plan& plan) { return countNoGrad(plan.segments); }

std::string describeSchedule(const Plan& plan) {
    std::ostringstream out;
    out.imbue(std::locale::classic());  // no thousands separators in unit 1000
    describe(plan.segments, out);
    return out.str();
}

std::vector<int> forwardCounts(const Plan& plan, int units) {
    std::vector<int> counts(units, 0);
    auto count = [&](int u) {
        if (u >= 0 && u < units) ++counts[u];
    };
    if (plan.recomputeLastSegment) {
        // The tutorial's closure bug (seed-bug:K): each segment's recompute runs the last
        // checkpointed segment's first units, as many as the segment has (all of them when the
        // segments are equal), so those run once per segment and the others once.
        const Segment* last = nullptr;
        for (const auto& s : plan.segments) {
            for (int u = s.begin; u < s.end; ++u) count(u);
            if (s.checkpointed) last = &s;
        }
        for (const auto& s : plan.segments)
            if (s.checkpointed && last)
                for (int u = last->begin; u < std::min(last->end, last->begin + s.end - s.begin);
                     ++u)
                    count(u);
        return counts;
    }
    visitForwards(plan.segments, count);
    return counts;
}

}  // namespace ckptlab
