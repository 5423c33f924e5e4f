// The tuning loop (see tuner.h): stages in the order they run.
#include "tuner/tuner.h"
#include "tuner/reference_check.h"
#include "tuner/search_stop.h"
#include "tuner/timing_rule.h"
#include "log/log.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <deque>
#include <map>
#include <mutex>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <random>
#include <set>

#include <time.h>

#include "runtime/compile/kernel_program.h"
#include "runtime/compile/compile_workers.h"
#include "runtime/compile/nvrtc_compiler.h"
#include "runtime/compile/cached_compile.h"
#include "runtime/compile/cubin_verification.h"
#include "runtime/workspace/stream_workspace.h"
#include "runtime/device/roofline.h"
#include "tuner/families/common/cost_model.h"
#include "tuner/families/registry.h"
#include "tuner/search_provenance.h"
#include "tuner/search_resume.h"
#include "tuner/search_turns.h"
#include "runtime/driver/cuda_driver.h"
#include "runtime/driver/driver_check.h"
#include "runtime/driver/stream_capture.h"
#include "jitgemm/error.h"
#include "runtime/measure/event_timer.h"
#include "runtime/measure/l2_flush.h"
#include "tuner/compile_pool.h"
#include "tuner/tuning_operands.h"

namespace jitgemm {
namespace {

using cache::CandidateOutcome;
using Clock = std::chrono::steady_clock;


// The compile stage's product for one candidate.
struct CompiledCandidate {
    KernelProgram program;
    Cubin cubin;
    bool compiled_now = false;  // false: the cubin came from the cache
    bool skipped = false;       // not started: the budget could not have covered its compile and measurement
    bool abandoned = false;     // its compile was given up when the search stopped: no verdict on the candidate
    std::string error;          // NVRTC's message when it failed
};

// One candidate's way through verify and time.
struct Candidate {
    AnyConfig config;
    KernelProgram program;
    Cubin cubin;
    std::shared_ptr<const LoadedKernel> kernel;
    CandidateOutcome outcome = CandidateOutcome::Passed;
    double median_ms = 0.0;
    std::string detail;
};

class TuningRun {
public:
    TuningRun(const Problem& problem, const DeviceInfo& device, const TuneOptions& options,
              const cache::CacheStack& caches)
        : problem_(problem),
          device_(device),
          options_(options),
          caches_(caches),
          start_(Clock::now()),
          deadline_(start_ + std::chrono::duration_cast<Clock::duration>(
                                 std::chrono::duration<double>(options.budget_seconds))),
          verbose_(options.verbose || log::enabled(LogLevel::Debug)),
          arch_(device.arch()),
          provenance_(search_provenance(problem, device)),
          fingerprint_(device.fingerprint()),
          key_(problem.key()),
          stream_(driver::make_stream()),
          flusher_(device),
          ceilings_(estimate_ceilings(device)) {}

    TuneResult run() {
        SearchTimes& t = result_.times;
        std::vector<AnyConfig> ranked;
        timed(t.ranking, [&] { ranked = prune_and_rank_stage(); });
        evaluate_all(ranked);  // prepares the operands while the first candidates compile
        timed(t.setup, [&] { prepare_operands(); });  // where there was nothing to compile
        refine_stage();
        timed(t.finalists, [&] { choose_stage(); });
        timed(t.recording, [&] { record_stage(); });
        result_.seconds = elapsed();
        log("done in " + std::to_string(result_.seconds) + " s: " +
            (result_.winner ? to_string(*result_.winner) + " " + std::to_string(result_.winner_ms) + " ms"
                            : std::string("no candidate passed")) +
            (result_.complete ? ", complete" : ", incomplete (budget)") +
            (result_.ruled_out > 0 ? " (" + std::to_string(result_.ruled_out) + " ruled out: " + result_.stop_reason + ")"
                                   : std::string()));
        log("time: " + t.describe() + "; NVRTC compiles in " + compile_worker_status());
        return std::move(result_);
    }

private:
    // Runs `stage`, adding its wall time to `seconds`.
    template <typename Stage>
    static void timed(double& seconds, Stage&& stage) {
        const auto from = Clock::now();
        stage();
        seconds += std::chrono::duration<double>(Clock::now() - from).count();
    }

    double elapsed() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }
    double seconds_left() const { return std::chrono::duration<double>(deadline_ - Clock::now()).count(); }

    void log(const std::string& line) const {
        // --verbose (the command's own stage lines) on stderr; otherwise the log's debug level.
        if (options_.verbose) std::cerr << "jitgemm tune " << key_ << ": " << line << "\n";
        else if (verbose_) log::debug("tune " + key_ + ": " + line);
    }

    // The GPU turn (search_turns.h), logged with the moments it was held on the machine's monotonic clock, which all
    // processes share: the tests check from these lines that no two searches ran on the device at once.
    class LoggedTurn {
    public:
        LoggedTurn(const TuningRun& run, Turn turn) : run_(run), turn_(std::move(turn)), from_(monotonic_ns()) {}
        ~LoggedTurn() {
            if (run_.verbose_ && turn_.held())
                run_.log("gpu turn " + std::to_string(from_) + " " + std::to_string(monotonic_ns()));
        }
        LoggedTurn(const LoggedTurn&) = delete;
        LoggedTurn& operator=(const LoggedTurn&) = delete;

    private:
        static long long monotonic_ns() {
            timespec now{};
            clock_gettime(CLOCK_MONOTONIC, &now);
            return now.tv_sec * 1000000000LL + now.tv_nsec;
        }
        const TuningRun& run_;
        Turn turn_;
        long long from_;
    };
    LoggedTurn gpu_turn() const { return LoggedTurn(*this, take_gpu_turn(device_)); }

    // Whether a candidate has passed. Until one has, the budget does not stop the search: a search that setup (or
    // waiting for another search's GPU turn) has used up finds a verified kernel all the same, one candidate past
    // its budget, instead of serving the call untuned and leaving the problem to be searched again. Thread-safe.
    bool have_winner() const { return best_ms_.load() > 0; }

    // Seconds the final re-timing of the finalists will take, from the best time so far. Thread-safe.
    double final_reserve() const {
        const double best = best_ms_.load() > 0 ? best_ms_.load() : 1.0;
        return options_.finalists * options_.final_rounds * (best + 0.1) * 1e-3 + 0.05;
    }

    // Stage 0: the tuner's own operands on the device, the verification kernels, and the reference output from the
    // reference family. Once per search, while the first candidates compile: those kernels come from the cache or
    // are compiled on the tuning thread (the reference once per element types and layout, not per problem).
    void prepare_operands() {
        if (operands_) return;
        verification_kernels_ = obtain_verification_kernels(arch_, caches_);
        operands_ = std::make_unique<TuningOperands>(problem_, *verification_kernels_, stream_.get(),
                                                       std::random_device{}());
        const auto kernel = obtain_reference_kernel(problem_, arch_, caches_);
        const LoggedTurn gpu = gpu_turn();
        operands_->reset_output(stream_.get());
        operands_->launch(*kernel, stream_.get());
        operands_->keep_output_as_reference(stream_.get());
        JITGEMM_CU_CHECK(driver::api().cuStreamSynchronize(stream_.get()));
        log("operands ready after " + std::to_string(elapsed()) + " s");
    }

    // Stages 1-3: enumerate, prune, rank; minus the candidates whose failure is already on record.
    std::vector<AnyConfig> prune_and_rank_stage() {
        PrunedSpace space =
            prune_and_rank(enumerate_candidates(problem_, device_), problem_, device_, ceilings_, options_.twins);
        result_.pruning = space.report;
        twins_ = std::move(space.twins);
        log("prune: " + space.report.describe());
        // The heuristic default always competes, so a tuned entry is never slower than what an untuned call gets.
        std::vector<AnyConfig> candidates{heuristic_config(problem_, device_)};
        for (const auto& r : space.ranked)
            if (!(r.config == candidates.front())) candidates.push_back(r.config);
        // Resuming: what earlier searches of this problem (same device and provenance) settled is not redone
        // (search_resume.h).
        ResumePlan plan = plan_resumed_search(candidates, caches_.measurements(fingerprint_, key_, provenance_),
                                              options_.finalists, problem_, device_);
        settled_ = std::move(plan.settled);
        result_.candidates_total += plan.settled_candidates;
        result_.candidates_measured += plan.settled_candidates;  // their outcomes are on record from earlier searches
        std::vector<AnyConfig> ranked = std::move(plan.to_measure);
        if (!settled_.empty())
            log("resuming: " + std::to_string(settled_.size()) + " candidates settled by earlier searches");
        return ranked;
    }

    // Stages 4-6: compile on the pool, likely winners first (the ranking, recalibrated by each measurement:
    // search_stop.h's most_promising); verify and time each as it arrives.
    void evaluate_all(const std::vector<AnyConfig>& configs) {
        if (configs.empty()) return;
        result_.candidates_total += static_cast<int>(configs.size());
        // The estimates and calibration groups of the candidates, for the order and the stopping rule.
        std::vector<double> estimates;
        std::map<std::string, std::multiset<double>> left;  // not yet measured, by calibration group
        std::size_t left_count = configs.size();
        std::vector<std::string> groups;
        for (const AnyConfig& config : configs) {
            estimates.push_back(estimate_cost(config, problem_, device_, ceilings_).seconds);
            groups.push_back(calibration_group(config, problem_));
            left[groups.back()].insert(estimates.back());
        }
        // The first candidate (the heuristic default, in the main stage) always starts first.
        const auto choose = [&](const std::vector<std::size_t>& pending) -> std::size_t {
            if (pending.front() == 0) return 0;
            std::lock_guard lock(calibration_mutex_);
            return most_promising(pending, estimates, groups, calibration_, failed_groups_, stop_rule_);
        };
        // Declared before the pool, so that it outlives the pool's threads: once the search stops, the compiles under
        // way in workers are ended instead of waited for (their results would be drained unmeasured).
        CompileAbandonment abandon_compiles;
        CompilePool<CompiledCandidate> pool(
            configs.size(),
            [&](std::size_t i) {
                CompiledCandidate c{kernel_program(configs[i], problem_, arch_), {}, false, false, false, {}};
                try {
                    if (auto cached = find_verified_cubin(c.program, caches_)) {
                        c.cubin.image = std::move(cached->image);
                    } else if (have_winner() && seconds_left() < final_reserve() + compile_seconds_.load()) {
                        c.skipped = true;  // compiles cannot be interrupted: do not start one that would overrun
                    } else {
                        c.compiled_now = true;
                        c.cubin = compile_unless_abandoned(c.program, abandon_compiles);
                        // Running estimate of one compile's wall time (under the pool's contention).
                        compile_seconds_ = 0.8 * compile_seconds_.load() + 0.2 * c.cubin.seconds;
                    }
                } catch (const Error& e) {
                    // A compile ended by the stop failed for that reason alone; recorded as a failure, it would be
                    // settled for every later search of the problem (failures are never retried).
                    c.abandoned = abandon_compiles.abandoned();
                    c.error = e.what();
                }
                return c;
            },
            options_.compile_threads, choose);
        timed(result_.times.setup, [&] { prepare_operands(); });
        result_.times.compile_threads = std::max(result_.times.compile_threads, pool.threads());
        bool done = false, cancelled = false;
        while (true) {
            std::optional<std::pair<std::size_t, CompiledCandidate>> item;
            timed(done || cancelled ? result_.times.draining : result_.times.compile_wait, [&] { item = pool.next(); });
            if (!item) break;
            if (done) continue;  // compiles under way still arrive after the stop; the rule ruled them out
            if (have_winner() && seconds_left() < final_reserve()) {
                pool.cancel();  // compiles under way still arrive (those in workers abandoned); they are left unmeasured
                abandon_compiles.abandon();
                cancelled = true;
                continue;
            }
            // Named, not bound (C++17 lambdas cannot capture structured bindings).
            const std::size_t index = item->first;
            CompiledCandidate& compiled = item->second;
            if (compiled.abandoned) continue;  // the search has stopped: left unmeasured, as the cancelled ones
            if (compiled.skipped) {
                pool.cancel();
                abandon_compiles.abandon();
                cancelled = true;
                continue;
            }
            if (compiled.compiled_now) {
                ++result_.compiles;
                result_.times.nvrtc_seconds += compiled.cubin.seconds;
            }
            timed(result_.times.measuring,
                  [&] { evaluate(configs[index], std::move(compiled), estimates[index], groups[index]); });
            if (result_.measurements.back().outcome != CandidateOutcome::Passed) {
                std::lock_guard lock(calibration_mutex_);
                ++failed_groups_[groups[index]];
            }
            auto& group_left = left[groups[index]];
            group_left.erase(group_left.find(estimates[index]));
            if (--left_count == 0) continue;
            std::vector<BestLeft> best_left;
            for (const auto& [group, group_estimates] : left)
                if (!group_estimates.empty()) best_left.push_back({group, *group_estimates.begin()});
            if (const auto reason = search_done(calibration_, best_ms_.load(), best_left, stop_rule_)) {
                // The candidates left leave the search: it is complete without them, as if pruned.
                log("stop: " + *reason + "; " + std::to_string(left_count) + " candidates ruled out");
                result_.ruled_out += static_cast<int>(left_count);
                result_.candidates_total -= static_cast<int>(left_count);
                result_.stop_reason = *reason;
                done = true;
                pool.cancel();
                abandon_compiles.abandon();
            }
        }
    }

    void evaluate(const AnyConfig& config, CompiledCandidate compiled, double estimated_seconds,
                  const std::string& group) {
        Candidate c{config, std::move(compiled.program), std::move(compiled.cubin), nullptr,
                    CandidateOutcome::Passed, 0.0, {}};
        if (!compiled.error.empty()) {
            c.outcome = CandidateOutcome::CompileFailed;
            c.detail = compiled.error.substr(0, 2000);
        } else if (const auto warning = serialization_warning(c.cubin.log)) {
            c.outcome = CandidateOutcome::Serialized;
            c.detail = *warning;
        } else {
            verify_and_time(c);
        }
        ++result_.candidates_measured;
        ++result_.outcomes[c.outcome];
        result_.measurements.push_back(measurement_of(c));
        // In measured order, with the model's estimate and calibration group: what a replay of the order and of the
        // stopping rule needs (bench/gpu-run.sh searchcmp keeps these logs).
        if (verbose_) {
            char times[96];
            std::snprintf(times, sizeof times, "candidate %d: %.6f ms measured, %.6f ms estimated, ",
                          result_.candidates_measured, c.median_ms, estimated_seconds * 1e3);
            log(times + ("group " + group + ", ") + std::string(cache::to_string(c.outcome)) + " " +
                c.program.config_name);
        }
        if (c.outcome == CandidateOutcome::Passed) {
            {
                std::lock_guard lock(calibration_mutex_);  // the compile threads' order reads it
                calibration_.push_back({estimated_seconds, c.median_ms, group});
            }
            if (best_ms_.load() == 0 || c.median_ms < best_ms_.load()) {
                best_ms_ = c.median_ms;
                best_config_ = c.program.config_name;
            }
            passed_.push_back(std::move(c));
        }
        if (options_.on_progress) {
            TuneProgress p;
            p.measured = result_.candidates_measured;
            p.total = result_.candidates_total;
            p.best_ms = best_ms_.load();
            p.best_config = best_config_;
            p.elapsed_seconds = elapsed();
            p.budget_seconds = options_.budget_seconds;
            options_.on_progress(p);
        }
    }

    cache::MeasurementRecord measurement_of(const Candidate& c) const {
        cache::MeasurementRecord m;
        m.device_fingerprint = fingerprint_;
        m.problem_key = key_;
        m.config = c.program.config_name;
        m.outcome = c.outcome;
        m.time_ms = c.median_ms;
        m.detail = c.detail;
        m.provenance = provenance_;
        m.measured_at_unix = static_cast<std::int64_t>(std::time(nullptr));
        return m;
    }

    // A kernel that faulted took the context with it, and the search ends with the error. Its failure goes on record
    // first, with the measurements made so far, so that the next search of the problem resumes past it instead of
    // faulting on it again.
    void record_fault(const Candidate& c) {
        cache::TuningCache* writable = caches_.writable();
        if (writable == nullptr) return;
        std::vector<cache::MeasurementRecord> measurements = result_.measurements;
        measurements.push_back(measurement_of(c));
        try {
            writable->record_measurements(measurements);
        } catch (const Error& e) {  // the fault is the error the caller hears of
            log::warn("could not record the fault of " + c.program.config_name + ": " + e.what());
        }
    }

    void verify_and_time(Candidate& c) {
        const auto& cu = driver::api();
        try {
            c.kernel = load_kernel(c.cubin.image, c.program.kernel_symbol, launch_description(c.config, problem_),
                                   c.program.config_name);
        } catch (const Error& e) {
            if (driver::is_out_of_memory(e)) throw;  // see below
            c.outcome = CandidateOutcome::Invalid;
            c.detail = e.what();
            return;
        }
        const LoadedKernel& k = *c.kernel;
        c.detail = std::to_string(k.registers) + " registers";
        if (k.local_bytes > 0) {
            c.outcome = CandidateOutcome::Spilled;
            c.detail += ", " + std::to_string(k.local_bytes) + " bytes of local memory per thread";
            return;
        }
        int blocks = 0;
        JITGEMM_CU_CHECK(cu.cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k.function,
                                                                         static_cast<int>(k.launch.threads_per_block()),
                                                                         k.launch.dynamic_shared_bytes));
        c.detail += ", " + std::to_string(blocks) + " blocks/SM";
        if (k.launch.clustered()) c.detail += ", " + resident_clusters_text(k);
        if (blocks == 0) {
            c.outcome = CandidateOutcome::Invalid;
            return;
        }
        // Verification and timing: no other search's kernels on the device meanwhile.
        const LoggedTurn gpu = gpu_turn();
        try {
            operands_->reset_output(stream_.get());
            operands_->launch(k, stream_.get());
            JITGEMM_CU_CHECK(cu.cuStreamSynchronize(stream_.get()));
        } catch (const Error& e) {
            // Device memory taken by others (another process's work, on a shared GPU) says nothing of the candidate:
            // the search ends with the error instead of recording a failure that no later search would retry.
            if (driver::is_out_of_memory(e)) throw;
            c.outcome = CandidateOutcome::LaunchFailed;
            c.detail += std::string(": ") + e.what();
            // A fault inside a kernel poisons the whole context; nothing after it could be trusted.
            if (cu.cuCtxSynchronize() != CUDA_SUCCESS) {
                c.detail += " (the context was lost)";
                record_fault(c);
                throw;
            }
            driver::rezero_kept_stream_workspace(stream_.get());
            return;
        }
        const Tolerance tol = verification_tolerance(problem_);
        if (const std::uint64_t bad = operands_->count_mismatches(stream_.get(), tol.atol, tol.rtol)) {
            c.outcome = CandidateOutcome::Incorrect;
            c.detail += ", " + std::to_string(bad) + " elements differ from the reference";
            // A wrong kernel may also have left split-K's arrival counters set, which the next candidates on this
            // stream would count from.
            driver::rezero_kept_stream_workspace(stream_.get());
            return;
        }
        c.median_ms = time_candidate(k);
    }

    // The median of the runs the timing rule asks for (tuner/timing_rule.h), L2 flushed before each.
    double time_candidate(const LoadedKernel& k) {
        operands_->launch(k, stream_.get());  // warm-up
        std::vector<double> samples;
        while (const int more = further_runs(samples, best_ms_.load(), options_.timing)) {
            const std::vector<double> batch = timed_runs(k, more);
            samples.insert(samples.end(), batch.begin(), batch.end());
        }
        return median(samples);
    }

    // `runs` runs of one kernel queued back to back; their times.
    std::vector<double> timed_runs(const LoadedKernel& k, int runs) {
        for (int r = 0; r < runs; ++r) queue_timed_run(k);
        return timer_.collect();
    }

    // One run after an L2 flush, between the timer's events; its time comes with the timer's next collect().
    void queue_timed_run(const LoadedKernel& k) {
        flusher_.flush(stream_.get());
        timer_.start(stream_.get());
        operands_->launch(k, stream_.get());
        timer_.stop(stream_.get());
    }

    std::vector<Candidate*> best_passed(int count) {
        std::vector<Candidate*> sorted;
        for (auto& c : passed_) sorted.push_back(&c);
        std::sort(sorted.begin(), sorted.end(),
                  [](const Candidate* x, const Candidate* y) { return x->median_ms < y->median_ms; });
        if (static_cast<int>(sorted.size()) > count) sorted.resize(static_cast<std::size_t>(count));
        return sorted;
    }

    // Stage 7: rasterization groups, stage count and vector width around the best few, and their twins that the
    // main pass left (Twins::Later).
    void refine_stage() {
        std::set<std::string> seen(settled_);
        for (const auto& m : result_.measurements) seen.insert(m.config);
        std::vector<AnyConfig> variants;
        const std::vector<Candidate*> refined = refined_candidates();
        for (const Candidate* c : refined) {
            std::vector<AnyConfig> around = refinements(c->config, problem_, device_);
            if (const auto twins = twins_.find(to_string(c->config)); twins != twins_.end())
                around.insert(around.begin(), twins->second.begin(), twins->second.end());
            for (const AnyConfig& v : around)
                if (!validate(v, problem_, device_) && seen.insert(to_string(v)).second) variants.push_back(v);
        }
        if (variants.empty() || seconds_left() < final_reserve()) return;
        log("refine: " + std::to_string(variants.size()) + " variants of the best " + std::to_string(refined.size()));
        evaluate_all(variants);
    }

    // The candidates whose neighbours the refinement measures: the finalists, and those within refine_within of the
    // best, kMostRefined at most.
    std::vector<Candidate*> refined_candidates() {
        std::vector<Candidate*> best = best_passed(std::max(options_.finalists, TuneOptions::kMostRefined));
        std::size_t keep = std::min<std::size_t>(best.size(), std::max(options_.finalists, 0));
        const double within = best.empty() ? 0.0 : best.front()->median_ms * (1.0 + options_.refine_within);
        while (options_.refine_within > 0 && keep < best.size() && best[keep]->median_ms <= within) ++keep;
        best.resize(keep);
        return best;
    }

    // Stage 8: the finalists re-timed in alternation (A B C A B C ...), so drift hits all alike.
    void choose_stage() {
        const std::vector<Candidate*> finalists = best_passed(options_.finalists);
        if (finalists.empty()) return;
        std::vector<std::vector<double>> samples(finalists.size());
        const LoggedTurn gpu = gpu_turn();
        if (finalists.size() > 1) {
            for (int round = 0; round < options_.final_rounds; ++round)
                for (const Candidate* finalist : finalists) queue_timed_run(*finalist->kernel);
            const std::vector<double> times = timer_.collect();  // round by round, the finalists in order
            for (std::size_t i = 0; i < times.size(); ++i) samples[i % finalists.size()].push_back(times[i]);
        }
        std::size_t best = 0;
        double best_ms = 0.0;
        for (std::size_t f = 0; f < finalists.size(); ++f) {
            const double ms = samples[f].empty() ? finalists[f]->median_ms : median(samples[f]);
            log("finalist " + to_string(finalists[f]->config) + ": " + std::to_string(ms) + " ms");
            if (f == 0 || ms < best_ms) {
                best = f;
                best_ms = ms;
            }
        }
        winner_ = finalists[best];
        result_.winner = winner_->config;
        result_.kernel = winner_->kernel;
        result_.winner_ms = best_ms;
    }

    // Stage 9: winner, cubin and every measurement in one transaction.
    void record_stage() {
        result_.complete = result_.candidates_measured == result_.candidates_total;
        cache::TuningCache* writable = caches_.writable();
        if (writable == nullptr) return;
        try {
            if (winner_ == nullptr) {
                writable->record_measurements(result_.measurements);
                return;
            }
            cache::SelectionRecord s;
            s.device_fingerprint = fingerprint_;
            s.problem_key = key_;
            s.config = winner_->program.config_name;
            s.cubin_key = winner_->program.cubin_key();
            s.time_ms = result_.winner_ms;
            s.tflops = problem_flops(problem_) / (result_.winner_ms * 1e-3) / 1e12;
            s.tuned_at_unix = static_cast<std::int64_t>(std::time(nullptr));
            s.search_seconds = elapsed();
            s.candidates_measured = result_.candidates_measured;
            s.candidates_total = result_.candidates_total;
            s.search_complete = result_.complete;
            s.provenance = provenance_;
            writable->record_tuning(s, to_cubin_record(winner_->program, winner_->cubin), result_.measurements);
            result_.recorded = true;
        } catch (const Error& e) {  // the tuned kernel still serves this process
            log::warn("could not record the tuning of " + key_ + ": " + e.what());
        }
    }

    const Problem problem_;
    const DeviceInfo& device_;
    const TuneOptions options_;
    const cache::CacheStack& caches_;
    const Clock::time_point start_, deadline_;
    const bool verbose_;
    const std::string arch_;
    const cache::Provenance provenance_;
    const std::string fingerprint_, key_;
    driver::StreamHandle stream_;
    L2Flusher flusher_;
    const DeviceCeilings ceilings_;  // the cost model's: the ranking's and the stopping rule's
    // Calibrated beyond the launch, which every estimate holds once (search_stop.h).
    const StopRule stop_rule_ = [] {
        StopRule rule;
        rule.fixed_seconds = cost::kLaunchSeconds;
        return rule;
    }();
    std::vector<Calibration> calibration_;  // estimate and measurement of every candidate that passed
    std::map<std::string, int> failed_groups_;  // candidates that failed, by calibration group (the order's)
    std::mutex calibration_mutex_;  // over both: written on the tuning thread, read by the compile threads
    QueuedTimer timer_;
    std::unique_ptr<VerificationKernels> verification_kernels_;
    std::unique_ptr<TuningOperands> operands_;
    std::set<std::string> settled_;  // configs an earlier search already settled
    std::map<std::string, std::vector<AnyConfig>> twins_;  // left to the refinement, by the candidate they follow
    std::deque<Candidate> passed_;  // stable addresses: finalists point into it
    Candidate* winner_ = nullptr;
    std::atomic<double> best_ms_{0.0};          // read by the compile threads (final_reserve)
    std::string best_config_;
    std::atomic<double> compile_seconds_{0.4};
    TuneResult result_;
};

std::atomic<std::uint64_t> tunings{0};

}  // namespace

std::string SearchTimes::describe() const {
    char line[320];
    std::snprintf(line, sizeof line,
                  "setup %.2f s, ranking %.2f s, waiting for compiles %.2f s (%.2f s after a stop), measuring %.2f s, "
                  "finalists %.2f s, recording %.2f s; NVRTC %.1f s over %u threads",
                  setup, ranking, compile_wait + draining, draining, measuring, finalists, recording, nvrtc_seconds,
                  compile_threads);
    return line;
}

std::string calibration_group(const AnyConfig& config, const Problem& problem) {
    std::string group(family_name(config));
    if (shares_tiles(config, problem)) group += " shared-k";
    return group;
}

std::uint64_t tuning_count() { return tunings.load(); }

TuneResult tune_problem(const Problem& problem, const DeviceInfo& device, CUcontext context,
                        const TuneOptions& options, const cache::CacheStack& caches) {
    if (problem.k == 0) throw Error(ErrorCode::Internal, "jitgemm: k = 0 problems are not tuned");
    JITGEMM_CU_CHECK(driver::api().cuCtxSetCurrent(context));
    require_supported_arch(device.arch());
    // Another thread of the program may be capturing a stream in global mode, which forbids allocations and module
    // loads on every thread. The search works only on its own stream and memory, so it tells the driver that it
    // knows what it does.
    const driver::RelaxedCaptureMode relaxed;
    ++tunings;
    return TuningRun(problem, device, options, caches).run();
}

}  // namespace jitgemm
