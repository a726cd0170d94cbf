#include "engine/measurement_scope.h"

#include <ATen/Parallel.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <thread>

#include "engine/step_context.h"

namespace ckptlab::engine {
namespace {

// How often a waiting measurement looks at its cancel flag.
constexpr std::chrono::milliseconds kCancelPoll{20};

// A re-entrant lock that lets waiting threads in in the order they came.
class Turns {
public:
    void acquire(const std::atomic<bool>* cancel) {
        std::unique_lock<std::mutex> lock(mutex_);
        const auto self = std::this_thread::get_id();
        if (depth_ > 0 && owner_ == self) {
            ++depth_;
            return;
        }
        const std::uint64_t ticket = next_++;
        waiting_.push_back(ticket);
        while (depth_ > 0 || waiting_.front() != ticket) {
            if (cancel && cancel->load()) {
                waiting_.erase(std::find(waiting_.begin(), waiting_.end(), ticket));
                changed_.notify_all();
                throw Cancelled();
            }
            changed_.wait_for(lock, kCancelPoll);
        }
        waiting_.pop_front();
        owner_ = self;
        depth_ = 1;
    }

    void release() {
        std::lock_guard<std::mutex> lock(mutex_);
        if (--depth_ == 0) {
            owner_ = {};
            changed_.notify_all();
        }
    }

private:
    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<std::uint64_t> waiting_;
    std::uint64_t next_ = 0;
    std::thread::id owner_;
    int depth_ = 0;
};

Turns& measurementTurns() {
    static Turns turns;
    return turns;
}

}  // namespace

MeasurementScope::MeasurementScope(int threads, const std::atomic<bool>* cancel) {
    measurementTurns().acquire(cancel);
    previous_ = at::get_num_threads();
    if (threads > 0 && threads != previous_) at::set_num_threads(threads);
}

MeasurementScope::~MeasurementScope() {
    if (at::get_num_threads() != previous_) at::set_num_threads(previous_);
    measurementTurns().release();
}

}  // namespace ckptlab::engine
