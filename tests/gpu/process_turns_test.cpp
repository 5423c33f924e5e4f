// Searches of several processes on one GPU (tuner/search_turns.h), with the jitgemm command as the processes:
// eight processes that meet one new problem at once run one search between them, the other seven take its winner
// from the shared cache; eight searches of different problems never run candidates on the GPU at the same moment.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "support/gpu_test_support.h"
#include "support/process.h"

namespace jitgemm {
namespace {

using testing::run_process;
using testing::TemporaryDirectory;

const std::string kCli = JITGEMM_CLI_PATH;
constexpr int kProcesses = 8;

std::string read_text(const std::string& path) {
    std::ifstream in(path);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Starts `commands` at once from one shell, each writing stdout and stderr to out-<i>.txt in `dir`; returns the
// outputs after all have ended, and fails the test for a command that did not exit 0.
std::vector<std::string> run_together(const TemporaryDirectory& dir, const std::vector<std::string>& commands) {
    std::string script;
    for (std::size_t i = 0; i < commands.size(); ++i)
        script += "(" + commands[i] + " > " + dir.file("out-" + std::to_string(i) + ".txt") + " 2>&1; echo $? > " +
                  dir.file("rc-" + std::to_string(i) + ".txt") + ") & ";
    script += "wait";
    run_process(script);
    std::vector<std::string> outputs;
    for (std::size_t i = 0; i < commands.size(); ++i) {
        outputs.push_back(read_text(dir.file("out-" + std::to_string(i) + ".txt")));
        EXPECT_EQ(read_text(dir.file("rc-" + std::to_string(i) + ".txt")), "0\n")
            << commands[i] << "\n" << outputs.back();
    }
    return outputs;
}

TEST(ProcessTurns, EightProcessesMeetingOneNewProblemRunOneSearch) {
    JITGEMM_REQUIRE_GPU();
    const TemporaryDirectory dir;
    const std::string env = "JITGEMM_CACHE=" + dir.path() + " JITGEMM_LOCK_DIR=" + dir.file("locks") + " ";
    const std::vector<std::string> commands(
        kProcesses, env + kCli + " run --m 777 --n 555 --k 333 --tune now --budget 3 --iterations 3 --json");
    int fresh = 0, cached = 0;
    for (const std::string& out : run_together(dir, commands)) {
        fresh += out.find("\"served_by\": \"freshly-tuned\"") != std::string::npos;
        cached += out.find("\"served_by\": \"cached-tuned\"") != std::string::npos;
        EXPECT_NE(out.find("\"verified\": true"), std::string::npos) << out;
    }
    EXPECT_EQ(fresh, 1) << "searches of one problem by " << kProcesses << " processes";
    EXPECT_EQ(cached, kProcesses - 1);
}

// "jitgemm tune ...: gpu turn FROM TO" lines: the moments (CLOCK_MONOTONIC ns, shared by all processes) a search
// held the GPU.
std::vector<std::pair<long long, long long>> gpu_turns(const std::string& log) {
    std::vector<std::pair<long long, long long>> turns;
    std::istringstream lines(log);
    std::string line;
    while (std::getline(lines, line)) {
        const auto at = line.find(": gpu turn ");
        if (at == std::string::npos) continue;
        std::istringstream numbers(line.substr(at + 11));
        long long from = 0, to = 0;
        if (numbers >> from >> to) turns.emplace_back(from, to);
    }
    return turns;
}

TEST(ProcessTurns, SearchesOfDifferentProblemsNeverRunCandidatesOnTheGpuAtOnce) {
    JITGEMM_REQUIRE_GPU();
    const TemporaryDirectory dir;
    std::vector<std::string> commands;
    for (int i = 0; i < kProcesses; ++i)
        commands.push_back("JITGEMM_LOCK_DIR=" + dir.file("locks") + " " + kCli + " tune --m " +
                           std::to_string(384 + 32 * i) + " --n 320 --k 256 --budget 3 --verbose --cache " +
                           dir.file("cache-" + std::to_string(i) + ".sqlite"));
    std::vector<std::pair<long long, long long>> turns;
    std::vector<int> per_process;
    for (const std::string& out : run_together(dir, commands)) {
        const auto mine = gpu_turns(out);
        per_process.push_back(static_cast<int>(mine.size()));
        turns.insert(turns.end(), mine.begin(), mine.end());
    }
    for (int i = 0; i < kProcesses; ++i) EXPECT_GT(per_process[i], 1) << "process " << i << " logged no GPU turns";
    std::sort(turns.begin(), turns.end());
    int overlaps = 0;
    for (std::size_t t = 1; t < turns.size(); ++t) overlaps += turns[t].first < turns[t - 1].second;
    EXPECT_EQ(overlaps, 0) << "of " << turns.size() << " GPU turns, " << overlaps << " began before the previous ended";
}

}  // namespace
}  // namespace jitgemm
