// Many processes and threads tuning into one cache file at once lose nothing and corrupt nothing: 4 forked
// processes of 4 writer threads and a reader thread each, every writer storing 25 results of its own and competing
// for 5 problems shared by all.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "cache/tuning_cache.h"
#include "support/fake_cubin.h"
#include "support/process.h"

namespace jitgemm::cache {
namespace {

// A fresh directory under the test temp directory, removed with everything in it.
struct TempDir {
    std::filesystem::path path = [] {
        std::string name = ::testing::TempDir() + "jitgemm-cache-XXXXXX";
        if (mkdtemp(name.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
        return std::filesystem::path(name);
    }();
    ~TempDir() {
        std::error_code ignored;
        std::filesystem::remove_all(path, ignored);
    }
};

constexpr int kProcesses = 4;
constexpr int kThreads = 4;
constexpr int kCalls = 25;       // per thread, each for a problem of its own
constexpr int kSharedEvery = 5;  // every 5th call also records one of the shared problems
constexpr int kSharedProblems = kCalls / kSharedEvery;

const Provenance kProvenance{"0.1.0", "sources-5f3a", "13.0", "13.1", "NVIDIA H200", 132};
const std::string kDevice = "NVIDIA H200/cc9.0/sm132";

std::string own_name(int process, int thread, int call) {
    return std::to_string(process) + "-" + std::to_string(thread) + "-" + std::to_string(call);
}

// Unique per writer and call, so that the expected winner of a shared problem is one record.
int sequence(int process, int thread, int call) { return (process * kThreads + thread) * kCalls + call; }

// Only even writers search completely, and the incomplete searches are all faster: the winner must be the fastest
// complete one, the last even writer's, whatever order the processes happen to run in.
bool complete_search(int process, int thread) { return (process + thread) % 2 == 0; }
double shared_time_ms(int process, int thread, int call) {
    return (complete_search(process, thread) ? 5.0 : 1.0) - 0.001 * sequence(process, thread, call);
}

// The fastest complete search of the shared problem recorded at `call`.
std::string expected_shared_winner(int call) {
    std::string winner;
    double best_ms = 0.0;
    for (int process = 0; process < kProcesses; ++process)
        for (int thread = 0; thread < kThreads; ++thread)
            if (complete_search(process, thread) &&
                (winner.empty() || shared_time_ms(process, thread, call) < best_ms)) {
                best_ms = shared_time_ms(process, thread, call);
                winner = "shared-config-" + own_name(process, thread, call);
            }
    return winner;
}

void record(TuningCache& cache, const std::string& problem, const std::string& config, const std::string& cubin_key,
            double time_ms, bool complete) {
    SelectionRecord selection;
    selection.device_fingerprint = kDevice;
    selection.problem_key = problem;
    selection.config = config;
    selection.cubin_key = cubin_key;
    selection.time_ms = time_ms;
    selection.search_complete = complete;
    selection.provenance = kProvenance;
    const CubinRecord cubin{cubin_key,      "sm_90a", "jg_regblock", config, "13.0", "sources-5f3a",
                            cache_test::fake_cubin("jg_regblock", "sm_90a", "image:" + config), 1, {}};
    MeasurementRecord measurement;
    measurement.device_fingerprint = kDevice;
    measurement.problem_key = problem;
    measurement.config = config;
    measurement.time_ms = time_ms;
    measurement.provenance = kProvenance;
    cache.record_tuning(selection, cubin, {measurement});
}

void write(TuningCache& cache, int process, int thread) {
    for (int call = 0; call < kCalls; ++call) {
        const std::string name = own_name(process, thread, call);
        record(cache, "own-" + name, "config-" + name, "cubin-" + name, 1.0, true);
        if (call % kSharedEvery == 0)
            record(cache, "shared-" + std::to_string(call / kSharedEvery), "shared-config-" + name, "shared-cubin",
                   shared_time_ms(process, thread, call), complete_search(process, thread));
    }
}

void read_until(const TuningCache& cache, const std::atomic<bool>& done) {
    std::size_t seen = 0;
    while (!done) {
        const std::size_t now = cache.all_selections().size();
        if (now < seen) throw std::runtime_error("the number of selections went down");
        seen = now;
        cache.find_selection(kDevice, "shared-0", kProvenance);
        cache.measurements(kDevice, "shared-0", kProvenance);
    }
}

// The body of one child process: its exit status is 0 only if nothing threw.
int run_child(const std::string& path, int process) {
    try {
        const auto cache = TuningCache::open(path, TuningCache::Access::ReadWrite);
        std::atomic<bool> failed{false}, writers_done{false};
        auto guarded = [&](auto work) {
            return [&failed, work] {
                try {
                    work();
                } catch (const std::exception& e) {
                    std::cerr << "cache concurrency child: " << e.what() << "\n";
                    failed = true;
                }
            };
        };
        std::thread reader(guarded([&] { read_until(*cache, writers_done); }));
        std::vector<std::thread> writers;
        for (int thread = 0; thread < kThreads; ++thread)
            writers.emplace_back(guarded([&cache, process, thread] { write(*cache, process, thread); }));
        for (std::thread& writer : writers) writer.join();
        writers_done = true;
        reader.join();
        return failed ? 1 : 0;
    } catch (const std::exception& e) {
        std::cerr << "cache concurrency child: " << e.what() << "\n";
        return 1;
    }
}

std::string integrity_check(const std::string& path) {
    sqlite3* db = nullptr;
    sqlite3_stmt* statement = nullptr;
    std::string verdict = "(no answer)";
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK &&
        sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &statement, nullptr) == SQLITE_OK &&
        sqlite3_step(statement) == SQLITE_ROW)
        verdict = reinterpret_cast<const char*>(sqlite3_column_text(statement, 0));
    sqlite3_finalize(statement);
    sqlite3_close(db);
    return verdict;
}

TEST(CacheConcurrency, ForkedProcessesOfWriterAndReaderThreadsLoseNothing) {
    TempDir dir;
    const std::string path = (dir.path / "tuning.sqlite").string();  // created by the children, all at once

    std::vector<pid_t> children;
    for (int process = 0; process < kProcesses; ++process) {
        const pid_t child = fork();
        ASSERT_GE(child, 0);
        if (child == 0) _exit(run_child(path, process));  // _exit: no gtest teardown in the child
        children.push_back(child);
    }
    for (const pid_t child : children) {
        int status = 0;
        ASSERT_EQ(waitpid(child, &status, 0), child);
        EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "child status " << status;
    }

    {
        const auto cache = TuningCache::open(path, TuningCache::Access::ReadWrite);
        constexpr int kOwn = kProcesses * kThreads * kCalls;
        constexpr int kShared = kProcesses * kThreads * kSharedProblems;
        EXPECT_EQ(cache->all_selections().size(), std::size_t{kOwn + kSharedProblems});
        EXPECT_EQ(cache->measurement_count(), std::size_t{kOwn + kShared});
        EXPECT_EQ(cache->cubin_count(), std::size_t{kOwn + 1});
        for (int process = 0; process < kProcesses; ++process)
            for (int thread = 0; thread < kThreads; ++thread)
                for (int call = 0; call < kCalls; ++call) {
                    const std::string name = own_name(process, thread, call);
                    const auto found = cache->find_selection(kDevice, "own-" + name, kProvenance);
                    ASSERT_TRUE(found.has_value()) << name;
                    EXPECT_EQ(found->config, "config-" + name);
                    const auto measured = cache->measurements(kDevice, "own-" + name, kProvenance);
                    ASSERT_EQ(measured.size(), 1u) << name;
                    EXPECT_EQ(measured[0].config, "config-" + name);
                }
        for (int shared = 0; shared < kSharedProblems; ++shared) {
            const std::string problem = "shared-" + std::to_string(shared);
            const auto found = cache->find_selection(kDevice, problem, kProvenance);
            ASSERT_TRUE(found.has_value()) << problem;
            EXPECT_EQ(found->config, expected_shared_winner(shared * kSharedEvery));
            EXPECT_TRUE(found->search_complete);
            EXPECT_EQ(cache->measurements(kDevice, problem, kProvenance).size(), std::size_t{kProcesses * kThreads});
        }
    }
    EXPECT_EQ(integrity_check(path), "ok");
}

// Sixteen `jitgemm cache import` and `cache merge` processes into one cache while another connection holds the write
// lock for 12 s, longer than the default wait (issue 19: "database is locked" escaped with 12-16 concurrent imports).
// Bulk writers wait as long as it takes (TuningCache::kBulkLockWaitMs); every one succeeds and nothing is lost.
TEST(CacheConcurrency, SixteenImportsAndMergesBehindAHeldWriteLockAllSucceed) {
    constexpr int kImports = 16, kPerBundle = 25;
    TempDir dir;
    const std::string target = (dir.path / "tuning.sqlite").string();
    TuningCache::open(target, TuningCache::Access::ReadWrite);  // created and migrated before the race
    for (int i = 0; i < kImports; ++i) {
        const auto bundle = TuningCache::open((dir.path / ("bundle" + std::to_string(i) + ".sqlite")).string(),
                                              TuningCache::Access::ReadWrite);
        for (int j = 0; j < kPerBundle; ++j) {
            const std::string name = std::to_string(i) + "-" + std::to_string(j);
            record(*bundle, "import-" + name, "config-" + name, "cubin-" + name, 1.0, true);
        }
    }

    sqlite3* holder = nullptr;
    ASSERT_EQ(sqlite3_open(target.c_str(), &holder), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(holder, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr), SQLITE_OK);
    std::thread release([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(TuningCache::kDefaultLockWaitMs + 2000));
        sqlite3_exec(holder, "COMMIT", nullptr, nullptr, nullptr);
    });
    std::string script;
    // Half import a bundle into the cache, half merge one into it: both are bulk writers of the same file.
    for (int i = 0; i < kImports; ++i) {
        const std::string bundle = (dir.path / ("bundle" + std::to_string(i) + ".sqlite")).string();
        const std::string command = i % 2 == 0 ? " cache import --cache " + target + " " + bundle
                                               : " cache merge --output " + target + " " + bundle;
        script += "(" + std::string(JITGEMM_CLI_PATH) + command + " > /dev/null 2>&1; echo \"import exit $?\") & ";
    }
    const jitgemm::testing::ProcessResult r = jitgemm::testing::run_process("sh -c '" + script + "wait'");
    release.join();
    sqlite3_close(holder);
    std::size_t succeeded = 0;
    for (std::size_t at = r.output.find("import exit 0"); at != std::string::npos;
         at = r.output.find("import exit 0", at + 1))
        ++succeeded;
    EXPECT_EQ(succeeded, std::size_t{kImports}) << r.output;
    EXPECT_EQ(TuningCache::open(target, TuningCache::Access::ReadOnly)->all_selections().size(),
              std::size_t{kImports * kPerBundle});
    EXPECT_EQ(integrity_check(target), "ok");
}

// SIGKILL in the middle of `cache import` and `cache merge`: the target keeps its integrity and either all of the
// bundle or none of it (one transaction), and running the command again completes it. Kill times from 5 ms to 250 ms
// fall before, during and after the write of a 25 MB bundle; what is asserted holds for any of them.
constexpr int kBase = 10, kBundle = 500;

// A bundle of kBundle entries with 50 kB cubins: 25 MB, long enough to write that a kill or a full disk lands in the
// middle of copying it.
std::string write_big_bundle(const TempDir& dir) {
    const std::string bundle = (dir.path / "bundle.sqlite").string();
    const auto cache = TuningCache::open(bundle, TuningCache::Access::ReadWrite);
    for (int j = 0; j < kBundle; ++j) {
        const std::string name = "big-" + std::to_string(j);
        SelectionRecord s;
        s.device_fingerprint = kDevice;
        s.problem_key = "problem-" + name;
        s.config = "config-" + name;
        s.cubin_key = "cubin-" + name;
        s.time_ms = 1.0;
        s.provenance = kProvenance;
        const CubinRecord cubin{s.cubin_key,  "sm_90a", "jg_regblock", s.config, "13.0", "sources-5f3a",
                                cache_test::fake_cubin("jg_regblock", "sm_90a", std::string(50000, 'x') + name), 1,
                                {}};
        cache->record_tuning(s, cubin, {});
    }
    return bundle;
}

// A target cache of kBase entries.
void write_base(const std::string& target) {
    const auto cache = TuningCache::open(target, TuningCache::Access::ReadWrite);
    for (int j = 0; j < kBase; ++j)
        record(*cache, "base-" + std::to_string(j), "config-base-" + std::to_string(j),
               "cubin-base-" + std::to_string(j), 1.0, true);
}

TEST(CacheConcurrency, KilledImportOrMergeLeavesAllOrNothingAndTheRerunCompletes) {
    TempDir dir;
    const std::string bundle = write_big_bundle(dir);
    int kill_point = 0;
    for (const char* command : {"import", "merge"})
        for (const int delay_ms : {5, 30, 80, 250}) {
            const std::string target = (dir.path / ("target-" + std::to_string(kill_point++) + ".sqlite")).string();
            write_base(target);
            const std::string cli = JITGEMM_CLI_PATH;
            const std::vector<std::string> args =
                std::string(command) == "import"
                    ? std::vector<std::string>{cli, "cache", "import", "--cache", target, bundle}
                    : std::vector<std::string>{cli, "cache", "merge", "--output", target, bundle};
            const pid_t child = jitgemm::testing::start_process(args);
            ASSERT_GE(child, 0);
            std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
            kill(child, SIGKILL);
            int status = 0;
            ASSERT_EQ(waitpid(child, &status, 0), child);

            EXPECT_EQ(integrity_check(target), "ok") << command << " killed at " << delay_ms << " ms";
            const std::size_t after_kill =
                TuningCache::open(target, TuningCache::Access::ReadOnly)->all_selections().size();
            std::printf("%s killed at %d ms: %zu selections\n", command, delay_ms, after_kill);
            EXPECT_TRUE(after_kill == kBase || after_kill == kBase + kBundle)
                << command << " killed at " << delay_ms << " ms left " << after_kill << " selections";
            const jitgemm::testing::ProcessResult rerun = jitgemm::testing::run_process(
                args[0] + " cache " + command + (std::string(command) == "import" ? " --cache " : " --output ") +
                target + " " + bundle);
            EXPECT_EQ(rerun.exit_code, 0) << rerun.output;
            const auto done = TuningCache::open(target, TuningCache::Access::ReadOnly);
            EXPECT_EQ(done->all_selections().size(), std::size_t{kBase + kBundle});
            EXPECT_EQ(done->cubin_count(), std::size_t{kBase + kBundle});
        }
}

// Files in `dir` other than SQLite's own -wal and -shm (which a failed writer may leave, holding nothing committed).
std::size_t files_besides_sqlite_companions(const TempDir& dir) {
    std::size_t n = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir.path)) {
        const std::string name = entry.path().filename().string();
        const bool companion = name.size() > 4 && (name.compare(name.size() - 4, 4, "-wal") == 0 ||
                                                   name.compare(name.size() - 4, 4, "-shm") == 0);
        n += companion ? 0 : 1;
    }
    return n;
}

// A full disk while `cache import` and `cache merge` copy a 25 MB bundle (a file-size limit stands in for it: mounting
// a small tmpfs needs privileges CI does not have, and the write fails the same way): the command exits non-zero
// saying why, the target keeps its integrity and its entries, nothing is set aside, and once there is room the
// rerun completes.
TEST(CacheFaults, FullDiskDuringImportOrMergeFailsCleanlyAndTheRerunCompletes) {
    TempDir dir;
    const std::string bundle = write_big_bundle(dir);
    const std::string cli = JITGEMM_CLI_PATH;
    for (const char* command : {"import", "merge"}) {
        const std::string target = (dir.path / (std::string("target-") + command + ".sqlite")).string();
        write_base(target);
        const std::size_t files_before = files_besides_sqlite_companions(dir);
        const std::string action = cli + " cache " + command +
                                   (std::string(command) == "import" ? " --cache " : " --output ") + target + " " +
                                   bundle;
        // 2 MB more than the target holds, in ulimit's 1024-byte blocks.
        const auto limit_blocks = std::filesystem::file_size(target) / 1024 + 2048;
        const jitgemm::testing::ProcessResult full = jitgemm::testing::run_process(
            "sh -c \"ulimit -f " + std::to_string(limit_blocks) + "; trap '' XFSZ; exec " + action + "\"");
        EXPECT_NE(full.exit_code, 0) << command << " on a full disk exited 0:\n" << full.output;
        EXPECT_NE(full.output.find(target), std::string::npos) << "the error does not name the file:\n" << full.output;
        EXPECT_EQ(integrity_check(target), "ok") << command;
        EXPECT_EQ(TuningCache::open(target, TuningCache::Access::ReadOnly)->all_selections().size(),
                  std::size_t{kBase})
            << command << " on a full disk changed the target";
        EXPECT_NE(full.output.find("disk full"), std::string::npos) << full.output;
        EXPECT_EQ(files_besides_sqlite_companions(dir), files_before)
            << "files were set aside or left behind:\n" << full.output;
        const jitgemm::testing::ProcessResult rerun = jitgemm::testing::run_process(action);
        EXPECT_EQ(rerun.exit_code, 0) << rerun.output;
        EXPECT_EQ(TuningCache::open(target, TuningCache::Access::ReadOnly)->all_selections().size(),
                  std::size_t{kBase + kBundle});
    }
}

}  // namespace
}  // namespace jitgemm::cache
