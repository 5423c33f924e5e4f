// Prints the cost model's estimate for named configurations of one problem on an H200 or A100 profile (with the
// ceilings estimated from the profile, as a first tune has before `jitgemm info` measured them), without a GPU: to
// set the model's guesses beside measured rows (bench/shapes/*_fixed.txt) and see where it ranks them wrongly.
//   cost_table h200|a100 M N K TRANSA TRANSB DTYPE[:C] COMPUTE BATCH CONFIG...
// (DTYPE the inputs' type, and C's unless named after a colon: bf16:f32)
//   e.g. cost_table h200 4096 4096 4096 t n bf16 f32 1 wgmma_256x128x64_c2_s4_g8_q132 wgmma_256x64x64_c2_s5_g8_q132_pp
// CONFIG "all": the search's own candidates after pruning, in the model's order, with the pruning report first;
// "default": the heuristic default, what an untuned call runs.
// Column-major, minimum leading dimensions, alpha 1 and beta 0 (as compile_scan and dump_cubin).
//   cost_table score FILE
// scores the model against recorded measurements (bench/results/*-measured-rows.txt, tests/support/measured_rows.h):
// each problem's rows measured and estimated, then how often the model orders two of them as the GPU did.
#include <cstdio>
#include <exception>
#include <cstdlib>
#include <string>

#include "bench_problem.h"
#include "runtime/device/device_ceilings.h"
#include "support/device_profiles.h"
#include "support/measured_rows.h"
#include "tuner/pruning.h"
#include "tuner/families/registry.h"

namespace {

int score(const char* path) {
    using namespace jitgemm::testing;
    MeasuredRows rows;
    try {
        rows = read_measured_rows(path);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "cost_table score: %s\n", e.what());
        return 2;
    }
    const RankingScore s = score_ranking(rows, 0.03, stdout);
    std::printf("%d problems, %d pairs apart by more than 3%%: %.1f ordered as measured (%.1f%%); the model's picks "
                "ran %.3fx the fastest (geometric mean); %d rows not estimated\n",
                s.problems, s.pairs, s.ordered, 100.0 * s.ordered_share(), s.pick_slowdown, s.unestimated);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    using namespace jitgemm;
    if (argc == 3 && std::string(argv[1]) == "score") return score(argv[2]);
    if (argc < 11) {
        std::fprintf(stderr, "usage: cost_table h200|a100 M N K TRANSA TRANSB DTYPE[:C] COMPUTE BATCH CONFIG...\n"
                             "       cost_table score MEASURED_ROWS_FILE\n");
        return 2;
    }
    const std::string gpu = argv[1];
    const auto types = parse_types(argv[7]);
    const auto compute = parse_compute_type(argv[8]);
    const long long batch = std::atoll(argv[9]);
    if ((gpu != "h200" && gpu != "a100") || !types || !compute || batch < 1) {
        std::fprintf(stderr, "the GPU is h200 or a100, DTYPE f32, f16 or bf16 (C's after a colon), COMPUTE f32 or "
                             "tf32, BATCH >= 1\n");
        return 2;
    }
    const DeviceInfo device = gpu == "h200" ? testing::h200_profile() : testing::a100_profile();
    const DeviceCeilings ceilings = estimate_ceilings(device);
    Problem p = bench_problem(std::atoll(argv[2]), std::atoll(argv[3]), std::atoll(argv[4]),
                              argv[5][0] == 't' ? Transpose::Yes : Transpose::No,
                              argv[6][0] == 't' ? Transpose::Yes : Transpose::No, *types, *compute);
    p.batch = batch;  // the strides are run-time arguments: the problem holds only their alignment
    std::printf("%-44s %10s %10s %10s %6s\n", "configuration", "us", "compute", "traffic", "waves");
    const auto print_estimate = [](const AnyConfig& config, const CostEstimate& e) {
        std::printf("%-44s %10.2f %10.2f %10.2f %6.2f\n", to_string(config).c_str(), e.seconds * 1e6,
                    e.compute_seconds * 1e6, e.traffic_seconds * 1e6, e.wave_efficiency);
    };
    if (std::string(argv[10]) == "default") {
        const AnyConfig config = heuristic_config(p, device);
        print_estimate(config, estimate_cost(config, p, device, ceilings));
        return 0;
    }
    if (std::string(argv[10]) == "all") {
        const PrunedSpace space = prune_and_rank(enumerate_candidates(p, device), p, device, ceilings);
        std::printf("# %s\n", space.report.describe().c_str());
        for (const RankedCandidate& r : space.ranked) print_estimate(r.config, r.estimate);
        return 0;
    }
    int status = 0;
    for (int i = 10; i < argc; ++i) {
        const auto config = parse_config(argv[i]);
        if (!config) {
            std::printf("%-44s not a configuration\n", argv[i]);
            status = 1;
            continue;
        }
        if (const auto why = validate(*config, p, device)) {
            std::printf("%-44s invalid: %s\n", argv[i], why->reason.c_str());
            status = 1;
            continue;
        }
        const CostEstimate e = estimate_cost(*config, p, device, ceilings);
        std::printf("%-44s %10.1f %10.1f %10.1f %6.2f\n", argv[i], e.seconds * 1e6, e.compute_seconds * 1e6,
                    e.traffic_seconds * 1e6, e.wave_efficiency);
    }
    return status;
}
