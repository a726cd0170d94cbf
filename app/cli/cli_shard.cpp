// --shard, --shard-count and the scheduler's environment (cli_shard.h).
#include "cli_shard.h"

#include "ckptlab/model/number_text.h"

namespace ckptlab::cli {
namespace {

const std::string kCountRange = "from 1 to " + std::to_string(kShardMaxCount);

// A whole number of digits only (no sign, no blanks) that fits an int.
std::optional<int> wholeNumber(const std::string& text) {
    if (text.empty() || text.size() > 9 ||
        text.find_first_not_of("0123456789") != std::string::npos)
        return std::nullopt;
    const auto value = parseInteger(text);
    if (!value) return std::nullopt;
    return static_cast<int>(*value);
}

std::string quoted(const std::string& text) { return "\"" + text.substr(0, 40) + "\""; }

// An environment variable's whole number, or the error naming it.
std::optional<int> variable(const EnvironmentLookup& environment, const char* name,
                            std::string* error) {
    const char* text = environment(name);
    if (!text || !*text) return std::nullopt;
    const auto value = wholeNumber(text);
    if (!value)
        *error =
            std::string(name) + " must be a whole number of 0 or more (got " + quoted(text) + ")";
    return value;
}

bool isSet(const EnvironmentLookup& environment, const char* name) {
    const char* text = environment(name);
    return text && *text;
}

std::optional<ShardChoice> fromK8s(int count, bool countGiven, const EnvironmentLookup& env,
                                   std::string* error) {
    const auto index = variable(env, "JOB_COMPLETION_INDEX", error);
    if (!index) return std::nullopt;
    if (!countGiven) {
        *error =
            "JOB_COMPLETION_INDEX is set but Kubernetes exports no count: give --shard-count N "
            "(the job's completions)";
        return std::nullopt;
    }
    if (*index >= count) {
        *error = "JOB_COMPLETION_INDEX " + std::to_string(*index) + " is not a shard of " +
                 std::to_string(count) + " (0 to " + std::to_string(count - 1) +
                 "): --shard-count must be the job's completions";
        return std::nullopt;
    }
    return ShardChoice{{*index, count},
                       "JOB_COMPLETION_INDEX=" + std::to_string(*index) + ", --shard-count " +
                           std::to_string(count)};
}

std::optional<ShardChoice> fromSlurm(int count, bool countGiven, const EnvironmentLookup& env,
                                     std::string* error) {
    const auto id = variable(env, "SLURM_ARRAY_TASK_ID", error);
    if (!id) return std::nullopt;
    const auto first = variable(env, "SLURM_ARRAY_TASK_MIN", error);
    if (!error->empty()) return std::nullopt;
    const auto step = variable(env, "SLURM_ARRAY_TASK_STEP", error);
    if (!error->empty()) return std::nullopt;
    if (step && *step != 1) {
        *error = "SLURM_ARRAY_TASK_STEP is " + std::to_string(*step) +
                 ": a sharded sweep needs consecutive array tasks (e.g. --array=0-3)";
        return std::nullopt;
    }
    const auto tasks = variable(env, "SLURM_ARRAY_TASK_COUNT", error);
    if (!error->empty()) return std::nullopt;
    if (tasks && (*tasks < 1 || *tasks > kShardMaxCount)) {
        *error = "SLURM_ARRAY_TASK_COUNT must be " + kCountRange + " (got " +
                 std::to_string(*tasks) + ")";
        return std::nullopt;
    }
    if (tasks && countGiven && *tasks != count) {
        *error = "--shard-count " + std::to_string(count) +
                 " differs from SLURM_ARRAY_TASK_COUNT " + std::to_string(*tasks);
        return std::nullopt;
    }
    if (!tasks && !countGiven) {
        *error =
            "SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not: give --shard-count N";
        return std::nullopt;
    }
    const int n = tasks ? *tasks : count;
    const int k = *id - first.value_or(0);
    std::string from = "SLURM_ARRAY_TASK_ID=" + std::to_string(*id);
    if (first) from += " - SLURM_ARRAY_TASK_MIN=" + std::to_string(*first);
    if (k < 0 || k >= n) {
        *error = from + " is " + std::to_string(k) + ", not a shard of " + std::to_string(n) +
                 " (0 to " + std::to_string(n - 1) +
                 "): the array must be consecutive tasks, e.g. --array=0-" + std::to_string(n - 1);
        return std::nullopt;
    }
    from += tasks ? ", SLURM_ARRAY_TASK_COUNT=" + std::to_string(n)
                  : ", --shard-count " + std::to_string(n);
    return ShardChoice{{k, n}, from};
}

}  // namespace

std::optional<ShardChoice> chooseShard(const std::string& shardText, const std::string& countText,
                                       const EnvironmentLookup& environment, std::string* error) {
    error->clear();
    std::optional<int> count;
    if (!countText.empty()) {
        count = wholeNumber(countText);
        if (!count || *count < 1 || *count > kShardMaxCount) {
            *error = "--shard-count must be a whole number " + kCountRange + " (got " +
                     quoted(countText) + ")";
            return std::nullopt;
        }
    }
    if (shardText.empty() && !count) return std::nullopt;
    if (!shardText.empty() && shardText != "auto") {
        const std::size_t slash = shardText.find('/');
        const auto k = wholeNumber(shardText.substr(0, slash));
        const auto n =
            slash == std::string::npos ? std::nullopt : wholeNumber(shardText.substr(slash + 1));
        if (!k || !n) {
            *error = "--shard must be K/N (0-based: K from 0 to N-1, N " + kCountRange +
                     ") or auto (got " + quoted(shardText) + ")";
        } else if (*n < 1 || *n > kShardMaxCount) {
            *error = "--shard K/N: N must be " + kCountRange + " (got " + quoted(shardText) + ")";
        } else if (*k >= *n) {
            *error = "--shard K/N: K must be from 0 to N-1 = " + std::to_string(*n - 1) +
                     " (0-based; got " + quoted(shardText) + ")";
        } else if (count) {
            *error =
                "--shard K/N gives the count already: leave out --shard-count, or give "
                "--shard auto";
        } else {
            return ShardChoice{{*k, *n}, "--shard " + shardText};
        }
        return std::nullopt;
    }
    // From the scheduler: a Slurm array first, then a Kubernetes Indexed Job.
    const std::string option = shardText.empty() ? "--shard-count" : "--shard auto";
    if (isSet(environment, "SLURM_ARRAY_TASK_ID"))
        return fromSlurm(count.value_or(0), count.has_value(), environment, error);
    if (isSet(environment, "JOB_COMPLETION_INDEX"))
        return fromK8s(count.value_or(0), count.has_value(), environment, error);
    *error = option +
             " takes the shard from SLURM_ARRAY_TASK_ID (a Slurm job array) or "
             "JOB_COMPLETION_INDEX (a Kubernetes Indexed Job), and neither is set; outside a "
             "scheduler give --shard K/N";
    return std::nullopt;
}

std::string shardLine(const ShardChoice& choice) {
    return "shard " + std::to_string(choice.spec.index) + " of " +
           std::to_string(choice.spec.count) + " (0-based), from " + choice.from;
}

std::string unshardedNote(const EnvironmentLookup& environment) {
    for (const char* name : {"SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"})
        if (isSet(environment, name))
            return std::string(name) +
                   " is set, but this sweep runs whole: give --shard auto to run one shard of it "
                   "per task";
    return {};
}

}  // namespace ckptlab::cli
