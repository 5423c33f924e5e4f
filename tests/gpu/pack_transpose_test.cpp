// The transposing pack (kernel_sources/common/jg_pack_transpose.cuh) on the device, launched by the runtime as the
// wgmma family describes it for TF32 problems (OperandPack::transposed): each copy equals the operand transposed (or,
// for a misaligned k-contiguous operand beside it, the operand as it is), its padding zero, on the vector path and on
// the scalar one (leading dimensions not a multiple of 4) with tails that leave tiles partly outside the operand; and
// a 4096 x 4096 fp32 operand copied at a good share of the copy bandwidth (about 35 us at the H200's 3.9 TB/s).
// Compute capability 9.0 only, as the family that uses it.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <random>
#include <vector>

#include "cache/content_hash.h"
#include "runtime/compile/nvrtc_compiler.h"
#include "runtime/device/device_info.h"
#include "runtime/driver/device_copy.h"
#include "runtime/launch/loaded_kernel.h"
#include "runtime/measure/event_timer.h"
#include "runtime/measure/l2_flush.h"
#include "support/gpu_test_support.h"
#include "tuner/families/wgmma/wgmma_config.h"

namespace jitgemm {
namespace {

// A stand-in for the GEMM after the pack: it waits for the pack as the wgmma kernel does, then copies the packed
// copies of A and B (args.lda x args.m and args.ldb x args.n floats, whole columns) to C one after the other; with C
// null it does nothing, so that a launch times the pack alone. Its module holds the copy kernel its launch uses, as the
// wgmma family's do (JG_PACKS, common/jg_packs.cuh): a launch without a transposed copy (both operands k-contiguous,
// misaligned) goes through jg_pack.
constexpr char kProbeSource[] = R"(#include "common/jg_args.cuh"
#include "common/jg_pack.cuh"
#include "common/jg_pack_transpose.cuh"
extern "C" __global__ void packed_probe(const jg_args args) {
    asm volatile("griddepcontrol.wait;" ::: "memory");
    if (args.c == nullptr) return;
    const long long a_count = args.lda * args.m, count = a_count + args.ldb * args.n;
    const long long width = (long long)gridDim.x * blockDim.x;
    float* out = static_cast<float*>(args.c);
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < count; i += width)
        out[i] = i < a_count ? static_cast<const float*>(args.a)[i] : static_cast<const float*>(args.b)[i - a_count];
}
)";

KernelProgram probe_program(const std::string& arch, PackKernel packs) {
    KernelProgram program;
    program.file_name = "packed_probe.cu";
    program.source = kProbeSource;
    program.source_hash = content_hash_hex(kProbeSource);
    program.kernel_symbol = "packed_probe";
    program.arch = arch;
    program.config_name = "packed_probe";
    program.options = {"--gpu-architecture=" + arch, "-std=c++17",
                       "-DJG_PACKS=" + std::to_string(static_cast<int>(packs))};
    return program;
}

// A canonical TF32 problem: A stored m-contiguous (trans_a No) or k-contiguous, B likewise by trans_b.
Problem tf32_problem(std::int64_t m, std::int64_t n, std::int64_t k, Transpose ta, Transpose tb, std::int64_t lda,
                     std::int64_t ldb) {
    Problem p;
    p.m = m;
    p.n = n;
    p.k = k;
    p.trans_a = ta;
    p.trans_b = tb;
    p.lda = lda;
    p.ldb = ldb;
    p.ldc = m;
    p.compute = ComputeType::TF32;
    p.align_a = static_cast<std::uint8_t>(lda % 4 == 0 ? 16 : 4);
    p.align_b = static_cast<std::uint8_t>(ldb % 4 == 0 ? 16 : 4);
    return p;
}

// The probe loaded with the packs the wgmma family describes for `problem` (every operand it must pack, and both).
std::shared_ptr<const LoadedKernel> load_probe(const Problem& problem, int pack) {
    const DeviceInfo& device = cached_device_info(driver::device_of(driver::current_context()));
    WgmmaConfig config;
    config.bk = 32;
    config.pack = pack;
    LaunchDescription launch;
    launch.grid = {static_cast<std::uint32_t>(device.sm_count), 1, 1};
    launch.block = {256, 1, 1};
    launch.packs = config.packs(problem);
    static std::map<PackKernel, Cubin> cubins;  // one probe per copy kernel, compiled at its first use
    const PackKernel packs = pack_kernel_of(launch.packs);
    auto found = cubins.find(packs);
    if (found == cubins.end())
        found = cubins.emplace(packs, compile_to_cubin(probe_program(device.arch(), packs))).first;
    return load_kernel(found->second.image, "packed_probe", launch, "packed_probe");
}

bool needs_hopper() {
    return cached_device_info(driver::device_of(driver::current_context())).cc_major != 9;
}

struct PackCase {
    Transpose ta, tb;
    std::int64_t lda, ldb;  // a multiple of 4: the 16-byte path; else the scalar one
};

class PackTranspose : public ::testing::TestWithParam<PackCase> {};

TEST_P(PackTranspose, CopiesAreTheOperandsKContiguousWithZeroPadding) {
    JITGEMM_REQUIRE_GPU();
    if (needs_hopper()) GTEST_SKIP() << "the wgmma family's packs run on compute capability 9.0";
    const PackCase& c = GetParam();
    const std::int64_t m = 300, n = 131, k = 77;  // tiles of 64 partly outside in every direction
    const Problem p = tf32_problem(m, n, k, c.ta, c.tb, c.lda, c.ldb);
    // Both copied: transposed where stored across k, as they are where k-contiguous (misaligned, or beside a
    // transposed copy in the same launch).
    const int pack = 3;
    const auto kernel = load_probe(p, pack);
    ASSERT_FALSE(kernel->launch.packs.empty());
    const std::int64_t ld_to = kernel->launch.packs.front().ld_to;
    EXPECT_EQ(ld_to, 96);  // k rounded up to 32 fp32

    const std::int64_t a_columns = c.ta == Transpose::Yes ? m : k, b_columns = c.tb == Transpose::Yes ? k : n;
    std::vector<float> a(c.lda * a_columns), b(c.ldb * b_columns);
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    for (float& x : a) x = value(rng);
    for (float& x : b) x = value(rng);
    const driver::DeviceBuffer da = driver::upload(a), db = driver::upload(b);
    const driver::DeviceBuffer out((ld_to * m + ld_to * n) * sizeof(float));
    JITGEMM_CU_CHECK(driver::api().cuMemsetD32(out.get(), 0x7fc00000u, out.bytes() / 4));  // NaN: unwritten
    launch_kernel(*kernel, nullptr, make_kernel_args(p, da.as<void>(), db.as<void>(), out.as<void>(), 1.0f, 0.0f));
    testing::synchronize();
    const std::vector<float> copies = driver::download(out);

    // op(A)(i, kk) and op(B)(kk, j) as stored; the copies hold them at kk + i * ld_to and ld_to * m + kk + j * ld_to.
    const auto op_a = [&](std::int64_t i, std::int64_t kk) {
        return c.ta == Transpose::Yes ? a[kk + i * c.lda] : a[i + kk * c.lda];
    };
    const auto op_b = [&](std::int64_t kk, std::int64_t j) {
        return c.tb == Transpose::Yes ? b[j + kk * c.ldb] : b[kk + j * c.ldb];
    };
    int wrong = 0;
    for (std::int64_t i = 0; i < m && wrong < 10; ++i)
        for (std::int64_t kk = 0; kk < ld_to; ++kk) {
            const float want = kk < k ? op_a(i, kk) : 0.0f, got = copies[kk + i * ld_to];
            if (!(got == want)) {
                ADD_FAILURE() << "A copy at k " << kk << ", m " << i << ": " << got << ", expected " << want;
                ++wrong;
            }
        }
    for (std::int64_t j = 0; j < n && wrong < 20; ++j)
        for (std::int64_t kk = 0; kk < ld_to; ++kk) {
            const float want = kk < k ? op_b(kk, j) : 0.0f, got = copies[ld_to * m + kk + j * ld_to];
            if (!(got == want)) {
                ADD_FAILURE() << "B copy at k " << kk << ", n " << j << ": " << got << ", expected " << want;
                ++wrong;
            }
        }
}

INSTANTIATE_TEST_SUITE_P(
    Layouts, PackTranspose,
    ::testing::Values(PackCase{Transpose::No, Transpose::No, 300, 77}, PackCase{Transpose::No, Transpose::No, 303, 81},
                      PackCase{Transpose::No, Transpose::Yes, 304, 132},
                      PackCase{Transpose::No, Transpose::Yes, 301, 133},
                      PackCase{Transpose::Yes, Transpose::Yes, 80, 131},
                      PackCase{Transpose::Yes, Transpose::No, 79, 77}),
    [](const auto& info) {
        const PackCase& c = info.param;
        return std::string(c.ta == Transpose::Yes ? "t" : "n") + (c.tb == Transpose::Yes ? "t" : "n") + "_lda" +
               std::to_string(c.lda) + "_ldb" + std::to_string(c.ldb);
    });

// One 4096 x 4096 fp32 operand, 64 MiB read and 64 MiB written, from cold L2: the pack and the empty probe after it.
// The GEMM's target (0.9x cuBLAS on TF32 4096^3 with an operand copied first) leaves the copy about 40 us.
TEST(PackTransposeSpeed, A4096SquareOperandCopiesNearTheCopyBandwidth) {
    JITGEMM_REQUIRE_GPU();
    if (needs_hopper()) GTEST_SKIP() << "the wgmma family's packs run on compute capability 9.0";
    const std::int64_t size = 4096;
    const Problem p = tf32_problem(size, size, size, Transpose::No, Transpose::No, size, size);  // A across k
    const auto kernel = load_probe(p, 1);
    const driver::DeviceBuffer a(size * size * sizeof(float)), b(size * size * sizeof(float));
    JITGEMM_CU_CHECK(driver::api().cuMemsetD32(a.get(), 0x3f800000u, size * size));
    const KernelArgs args = make_kernel_args(p, a.as<void>(), b.as<void>(), nullptr, 1.0f, 0.0f);
    const L2Flusher flusher(cached_device_info(driver::device_of(driver::current_context())));
    EventTimer timer;
    launch_kernel(*kernel, nullptr, args);  // the workspace and the module's first launch
    std::vector<double> samples;
    for (int run = 0; run < 20; ++run) {
        flusher.flush(nullptr);
        timer.start(nullptr);
        launch_kernel(*kernel, nullptr, args);
        timer.stop(nullptr);
        samples.push_back(timer.elapsed_ms() * 1e-3);
    }
    const double seconds = median(samples);
    const double bytes = 2.0 * size * size * sizeof(float);
    std::printf("transposing pack of a %lld^2 fp32 operand: %.1f us, %.2f TB/s (read + write)\n",
                static_cast<long long>(size), seconds * 1e6, bytes / seconds / 1e12);
    RecordProperty("microseconds", std::to_string(seconds * 1e6));
    // Half the H200's measured 3.9 TB/s copy rate at least: 67 us.
    EXPECT_LT(seconds, bytes / 2.0e12);
}

}  // namespace
}  // namespace jitgemm
