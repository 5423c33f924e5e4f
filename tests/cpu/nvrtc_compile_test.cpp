// NVRTC compiles every kernel family to real cubins for sm_80 and sm_90a on any machine (no GPU needed), over
// randomized knobs and shapes; a program NVRTC rejects raises CompileError carrying the log and the options.
#include <elf.h>
#include <gtest/gtest.h>

#include <cstring>
#include <future>
#include <random>
#include <thread>

#include "bench/bench_problem.h"
#include "runtime/compile/kernel_program.h"
#include "runtime/compile/nvrtc_compiler.h"
#include "jitgemm/error.h"
#include "support/device_profiles.h"
#include "tuner/families/registry.h"

namespace jitgemm {
namespace {

int pick(std::mt19937_64& rng, std::initializer_list<int> values) {
    std::uniform_int_distribution<std::size_t> d(0, values.size() - 1);
    return *(values.begin() + d(rng));
}

// Element and compute types a family computes, drawn at random: fp32 for the SIMT families, every type for the
// naive reference, and for the Tensor Core families fp16 or bf16 inputs (to any output type) or TF32.
void random_types(std::mt19937_64& rng, std::string_view family, Problem& p) {
    const DType types[] = {DType::F32, DType::F16, DType::BF16};
    if (family == TiledConfig::kName || family == RegBlockConfig::kName) return;
    const DType ab = types[pick(rng, {0, 1, 2})];
    if ((family == MmaSyncConfig::kName || family == WgmmaConfig::kName) && ab == DType::F32) {
        p.compute = ComputeType::TF32;
        return;
    }
    p.a_type = p.b_type = ab;
    p.c_type = ab == DType::F32 ? DType::F32 : types[pick(rng, {0, 1, 2})];
    // 16-bit operands may be only 2-byte aligned (odd leading dimensions): the Tensor Core family's register path.
    if (ab != DType::F32) {
        if (pick(rng, {0, 1})) p.align_a = 2;
        if (pick(rng, {0, 1})) p.align_b = 2;
        if (pick(rng, {0, 1})) p.align_c = 2;
    }
}

Problem random_problem(std::mt19937_64& rng, std::string_view family) {
    std::uniform_int_distribution<std::int64_t> size(1, 3000);
    Problem p;
    p.m = size(rng);
    p.n = size(rng);
    p.k = size(rng);
    if (family == DecodeConfig::kName)  // one side of C at most 64, either one
        (pick(rng, {0, 1}) ? p.m : p.n) = std::uniform_int_distribution<std::int64_t>(1, 64)(rng);
    p.trans_a = pick(rng, {0, 1}) ? Transpose::Yes : Transpose::No;
    p.trans_b = pick(rng, {0, 1}) ? Transpose::Yes : Transpose::No;
    p.lda = (p.trans_a == Transpose::Yes ? p.k : p.m) + pick(rng, {0, 0, 1, 3, 8});
    p.ldb = (p.trans_b == Transpose::Yes ? p.n : p.k) + pick(rng, {0, 0, 1, 3, 8});
    p.ldc = p.m + pick(rng, {0, 0, 1, 4});
    if (pick(rng, {0, 0, 0, 1})) p.lda = (std::int64_t{1} << 31) + 5;  // 64-bit indexing
    p.align_a = static_cast<std::uint8_t>(pick(rng, {4, 8, 16}));
    p.align_b = static_cast<std::uint8_t>(pick(rng, {4, 8, 16}));
    p.align_c = static_cast<std::uint8_t>(pick(rng, {4, 8, 16}));
    p.alpha_one = pick(rng, {0, 1});
    p.beta_mode = static_cast<BetaMode>(pick(rng, {0, 1, 2}));
    // Batches: in the grid's third dimension, and past its 65535 in turns (kernel_sources/common/jg_batch.cuh).
    p.batch = pick(rng, {1, 1, 1, 7, 70000});
    random_types(rng, family, p);
    // Run-time-shape variants: m or n (for decode, its small side) and the leading dimensions at run time.
    p.runtime_dim = static_cast<std::uint8_t>(family == DecodeConfig::kName ? pick(rng, {0, p.n <= p.m ? 2 : 1})
                                                                            : pick(rng, {0, 0, 1, 2}));
    // The wgmma family reads a batch's operands, and a variant's, in place: 16-byte aligned, in TF32 stored along k.
    if (family == WgmmaConfig::kName && (p.batch > 1 || p.runtime_dim != 0)) {
        p.align_a = p.align_b = 16;
        if (p.a_type == DType::F32) {
            p.trans_a = Transpose::Yes;
            p.trans_b = Transpose::No;
            p.lda = p.k;
            p.ldb = p.k;
        }
    }
    return p;
}

// A configuration of `family` that the H200 profile accepts for `problem`, drawn at random; with Hopper-only knobs
// (the Tensor Core family's bulk copies) only when it is compiled for Hopper.
AnyConfig random_valid_config(std::mt19937_64& rng, std::string_view family, const Problem& problem, bool hopper) {
    const DeviceInfo device = testing::h200_profile();
    for (int attempt = 0; attempt < 10000; ++attempt) {
        AnyConfig c;
        if (family == NaiveConfig::kName) {
            NaiveConfig n;
            n.bm = pick(rng, {8, 16, 32, 64});
            n.bn = pick(rng, {1, 4, 8, 16});
            c = n;
        } else if (family == TiledConfig::kName) {
            TiledConfig t;
            t.t = pick(rng, {8, 16, 32});
            c = t;
        } else if (family == MmaSyncConfig::kName) {
            MmaSyncConfig m;
            // Powers of two, and tiles fitted to a problem (multiples of 16: 48, 80, 112, 192), which validate()
            // keeps where their operand's layout takes them.
            m.bm = pick(rng, {32, 64, 128, 256, 48, 80, 112, 192});
            m.bn = pick(rng, {32, 64, 128, 256, 48, 80, 112, 192});
            m.bk = pick(rng, {16, 32, 64});
            m.wm = pick(rng, {1, 2, 4});
            m.wn = pick(rng, {1, 2, 4});
            m.stages = pick(rng, {2, 3, 4, 5});
            m.group = pick(rng, {1, 8});
            m.pack = pick(rng, {0, 0, 1, 2, 3});
            m.splits = pick(rng, {1, 1, 2, 5});
            if (m.splits == 1) m.stream_blocks = pick(rng, {0, 0, 3, 132});
            m.bulk = hopper && m.pack == 3 && m.stream_blocks == 0 && pick(rng, {0, 1});
            c = m;
        } else if (family == WgmmaConfig::kName) {
            WgmmaConfig w;
            w.bm = pick(rng, {64, 128, 192, 256, 16, 48, 80, 144, 208});  // with widths fitted to a narrow m
            w.bn = pick(rng, {64, 128, 192, 256});
            w.bk = pick(rng, {32, 64, 128});  // validate() keeps the depths of the input type
            w.consumers = pick(rng, {1, 2});
            w.stages = pick(rng, {2, 3, 4, 5, 6, 8});
            w.group = pick(rng, {1, 8});
            w.grid = pick(rng, {0, 0, 5, 132});
            w.cluster = pick(rng, {1, 1, 2});
            // Operands the kernel cannot read where they are must be packed (misaligned for the TMA, or in TF32
            // stored across k); others may be packed too.
            w.pack = WgmmaConfig::operands_to_pack(problem) |
                     (problem.batch > 1 || problem.runtime_dim != 0 ? 0 : pick(rng, {0, 0, 1, 2, 3}));
            w.tma_store = pick(rng, {0, 1}) != 0;  // validate() keeps it where C is 16-byte aligned
            w.stream_k = pick(rng, {0, 0, 1}) != 0;  // and stream-K where the grid leaves tiles over
            c = w;
        } else if (family == DecodeConfig::kName) {
            DecodeConfig d;
            d.mma = problem.a_type != DType::F32 && pick(rng, {0, 1});
            d.warps = pick(rng, {1, 2, 4, 8});
            d.rg = pick(rng, {1, 2, 4});
            d.columns = d.mma ? pick(rng, {8, 16, 32, 64}) : pick(rng, {1, 2, 3, 5, 8, 16});
            d.splits = pick(rng, {1, 2, 3, 8, 64});
            // W's loads in flight in registers, or in a ring in shared memory (W along k, 4-byte aligned).
            d.staged = pick(rng, {0, 0, 1}) != 0;
            d.lanes_k = d.mma ? 4 : pick(rng, {4, 4, 8, 16, 32});  // lanes along k (W along k, simt math)
            d.unroll = d.staged ? pick(rng, {2, 4, 8, 16}) : pick(rng, {1, 2, 4, 8});
            d.cluster = hopper && pick(rng, {0, 1});  // the slices of a tile as a cluster (2 to 8 of them)
            c = d;
        } else {
            RegBlockConfig r;
            r.bm = pick(rng, {32, 64, 128, 256});
            r.bn = pick(rng, {32, 64, 128, 256});
            r.bk = pick(rng, {8, 16, 32});
            r.tm = pick(rng, {2, 4, 8});
            r.tn = pick(rng, {2, 4, 8});
            r.vec = pick(rng, {1, 2, 4});
            r.stages = pick(rng, {1, 2});
            r.group = pick(rng, {1, 8});
            r.splits = pick(rng, {1, 1, 2, 5});
            c = r;
        }
        if (!validate(c, problem, device)) return c;
    }
    ADD_FAILURE() << "no valid configuration drawn";
    return NaiveConfig{};
}

// The SM number a CUDA ELF of ABI version 8 (CUDA 13) records in bits 8..15 of e_flags (as observed from NVRTC).
int elf_sm(const std::string& image) {
    Elf64_Ehdr header;
    std::memcpy(&header, image.data(), sizeof(header));
    return header.e_ident[EI_ABIVERSION] == 8 ? static_cast<int>((header.e_flags >> 8) & 0xff) : -1;
}

void expect_cubin(const Cubin& cubin, const KernelProgram& program, int sm) {
    ASSERT_GT(cubin.image.size(), sizeof(Elf64_Ehdr));
    EXPECT_EQ(cubin.image.compare(0, 4, "\x7f" "ELF"), 0);
    Elf64_Ehdr header;
    std::memcpy(&header, cubin.image.data(), sizeof(header));
    EXPECT_EQ(header.e_machine, 190) << "EM_CUDA";
    const int recorded = elf_sm(cubin.image);
    if (recorded >= 0) {
        EXPECT_EQ(recorded, sm) << program.file_name;
    }
    EXPECT_NE(cubin.image.find(program.kernel_symbol), std::string::npos) << "kernel symbol in the cubin";
}

// Compiles `programs` for sm_90a, all at once, and checks each cubin: its kernel, no wgmma serialized by ptxas, and
// what also(i, cubin) asks of program i's.
template <typename Also>
void expect_hopper_cubins(const std::vector<KernelProgram>& programs, Also also) {
    std::vector<std::future<Cubin>> compiled;
    for (const KernelProgram& program : programs)
        compiled.push_back(std::async(std::launch::async, compile_to_cubin, program));
    for (std::size_t i = 0; i < programs.size(); ++i) {
        SCOPED_TRACE(programs[i].file_name);
        try {
            const Cubin cubin = compiled[i].get();
            expect_cubin(cubin, programs[i], 90);
            EXPECT_EQ(serialization_warning(cubin.log), std::nullopt) << cubin.log;
            also(i, cubin);
        } catch (const Error& e) {
            ADD_FAILURE() << e.what();
        }
    }
}

// bench_problem's column-major problem (the smallest leading dimensions) with output type `c`, a general alpha and
// beta, and `batch` GEMMs; fp32 inputs multiplied in TF32.
Problem column_major_with_beta(std::int64_t m, std::int64_t n, std::int64_t k, std::int64_t batch, DType ab, DType c,
                               Transpose trans_a, Transpose trans_b) {
    Problem p = bench_problem(m, n, k, trans_a, trans_b, ab, ab == DType::F32 ? ComputeType::TF32 : ComputeType::F32);
    p.c_type = c;
    p.align_c = alignment_class(nullptr, p.ldc, size_of(c));
    p.alpha_one = false;
    p.beta_mode = BetaMode::General;
    p.batch = batch;
    return p;
}

// The program of wgmma configuration `name` for `p`, which it must compute on an H200, with ptxas's report of its
// resources asked for (ptxas_resources reads it).
KernelProgram reported_wgmma_program(const char* name, const Problem& p) {
    const WgmmaConfig c = *WgmmaConfig::parse(name);
    EXPECT_FALSE(c.validate(p, testing::h200_profile())) << c.to_string() << " " << p.key();
    KernelProgram program = kernel_program(AnyConfig{c}, p, "sm_90a");
    program.options.push_back("--ptxas-options=-v");
    return program;
}

// As expect_hopper_cubins, for programs of reported_wgmma_program: and nothing spilled to local memory.
void expect_unspilled_hopper_cubins(const std::vector<KernelProgram>& programs) {
    expect_hopper_cubins(programs, [](std::size_t, const Cubin& cubin) {
        const auto resources = ptxas_resources(cubin.log);
        ASSERT_TRUE(resources.has_value()) << cubin.log;
        EXPECT_EQ(resources->spilled_bytes, 0) << cubin.log;
    });
}

class NvrtcCompile : public ::testing::TestWithParam<std::string_view> {};

TEST_P(NvrtcCompile, RandomKnobsAndShapesCompileForSm80AndSm90a) {
    const std::uint64_t seed = std::random_device{}();
    RecordProperty("seed", std::to_string(seed));
    std::mt19937_64 rng(seed);
    struct Job {
        KernelProgram program;
        int sm;
    };
    std::vector<Job> jobs;
    const bool hopper_only = GetParam() == WgmmaConfig::kName;
    const int per_arch = GetParam() == MmaSyncConfig::kName || GetParam() == DecodeConfig::kName || hopper_only ? 10
                         : GetParam() == RegBlockConfig::kName            ? 6
                                                                          : 3;
    for (const auto& [arch, sm] : {std::pair<std::string, int>{"sm_80", 80}, {"sm_90a", 90}})
        for (int i = 0; i < per_arch && !(hopper_only && sm < 90); ++i) {
            const Problem p = random_problem(rng, GetParam());
            jobs.push_back({kernel_program(random_valid_config(rng, GetParam(), p, sm >= 90), p, arch), sm});
        }

    // NVRTC is thread-safe: compile on every core, as the tuner will.
    std::vector<std::future<Cubin>> compiled;
    for (const Job& job : jobs) compiled.push_back(std::async(std::launch::async, compile_to_cubin, job.program));
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        SCOPED_TRACE(jobs[i].program.file_name + " seed " + std::to_string(seed));
        try {
            const Cubin cubin = compiled[i].get();
            expect_cubin(cubin, jobs[i].program, jobs[i].sm);
            // ptxas serializing the wgmma family's instructions would be a design fault of the kernel, not a knob.
            EXPECT_EQ(serialization_warning(cubin.log), std::nullopt) << cubin.log;
        } catch (const Error& e) {
            ADD_FAILURE() << e.what();
        }
    }
}

// C through the TMA (`_ts`, and box by box, `_tb`) in the wgmma family: each output type (boxes of 64 16-bit or 32 fp32
// elements), C read for beta, a batch (a 3-D map of C), a run-time n, TF32, one and two consumers, a cluster,
// ping-pong: it compiles for sm_90a, with no serialized wgmma and nothing spilled.
TEST(NvrtcCompileWgmma, TmaStoredCCompilesForEveryOutputTypeBatchAndVariant) {
    struct Case {
        const char* config;
        DType ab, c;
        BetaMode beta;
        std::int64_t batch;
        std::uint8_t runtime_dim;
    };
    const Case cases[] = {
        {"wgmma_256x128x64_c2_s3_g8_q132_ts", DType::BF16, DType::BF16, BetaMode::Zero, 1, 0},
        {"wgmma_128x128x64_c2_s4_g8_ts", DType::F16, DType::F32, BetaMode::General, 1, 0},
        {"wgmma_64x128x64_c1_s4_g8_q5_ts", DType::BF16, DType::F16, BetaMode::One, 7, 0},
        {"wgmma_128x256x64_c2_s3_g4_x2_q132_ts", DType::F16, DType::F16, BetaMode::Zero, 1, 2},
        {"wgmma_128x128x32_c2_s4_g8_q132_ts", DType::F32, DType::F32, BetaMode::General, 3, 0},
        {"wgmma_256x128x64_c2_s4_g8_q132_tb", DType::BF16, DType::BF16, BetaMode::Zero, 1, 0},
        {"wgmma_192x128x64_c2_s4_g8_x2_q132_tb", DType::F16, DType::F32, BetaMode::General, 5, 0},
        {"wgmma_256x64x64_c2_s4_g8_q132_pp_tb", DType::BF16, DType::F16, BetaMode::One, 1, 2},
    };
    std::vector<KernelProgram> programs;
    for (const Case& k : cases) {
        Problem p;
        p.m = 1000;
        p.n = 776;
        p.k = 520;
        p.trans_a = Transpose::Yes;  // k-major operands: TF32 needs them so, and no case packs
        p.lda = 520;
        p.ldb = 520;
        p.ldc = 1000;
        p.a_type = p.b_type = k.ab;
        p.c_type = k.c;
        p.compute = k.ab == DType::F32 ? ComputeType::TF32 : ComputeType::F32;
        p.beta_mode = k.beta;
        p.batch = k.batch;
        p.runtime_dim = k.runtime_dim;
        programs.push_back(reported_wgmma_program(k.config, p));
    }
    expect_unspilled_hopper_cubins(programs);
}

// Stream-K in the wgmma family (the last waves' k blocks dealt out, partial sums met in the workspace): 16-bit and
// TF32 (with op(A) through registers), C from the registers or through the TMA, a batch, one and two consumers,
// single blocks and cluster pairs (an odd count of tiles along n: the last pair's second tile empty); no serialized
// wgmma, nothing spilled.
TEST(NvrtcCompileWgmma, StreamKCompilesForSm90aWithoutSerialization) {
    struct Case {
        const char* config;
        DType ab, c;
        std::int64_t m, n, k, batch;
        Transpose trans_a;
    };
    const Case cases[] = {
        {"wgmma_256x128x64_c2_s4_g8_q132_sk", DType::BF16, DType::BF16, 4096, 4096, 1024, 1, Transpose::Yes},
        {"wgmma_128x256x64_c2_s3_g8_q20_sk_ts", DType::F16, DType::F16, 1000, 776, 520, 3, Transpose::No},
        {"wgmma_64x128x64_c1_s4_g8_q5_sk", DType::BF16, DType::F16, 1000, 776, 520, 1, Transpose::Yes},
        {"wgmma_256x128x32_c2_s4_g8_q132_sk", DType::F32, DType::F32, 4096, 4096, 1024, 1, Transpose::No},
        {"wgmma_256x128x64_c2_s4_g8_x2_q132_sk_tb", DType::BF16, DType::BF16, 6144, 1528, 6144, 1, Transpose::Yes},
        {"wgmma_128x128x64_c2_s5_g8_x2_q132_sk", DType::F16, DType::F32, 4000, 1400, 1024, 1, Transpose::No},
    };
    std::vector<KernelProgram> programs;
    for (const Case& k : cases)
        programs.push_back(reported_wgmma_program(
            k.config, column_major_with_beta(k.m, k.n, k.k, k.batch, k.ab, k.c, k.trans_a, Transpose::No)));
    expect_unspilled_hopper_cubins(programs);
}

// K split across a cluster in the wgmma family (partial sums met in distributed shared memory): 2, 3, 4 and 8 blocks,
// one and two consumers, k-major and m-major operands, a 16-bit and an fp32 C with beta, a batch; no serialized
// wgmma, nothing spilled.
TEST(NvrtcCompileWgmma, KSplitAcrossAClusterCompilesForSm90aWithoutSerialization) {
    struct Case {
        const char* config;
        DType c;
        std::int64_t m, n, k, batch;
        Transpose trans_a, trans_b;
    };
    const Case cases[] = {
        {"wgmma_128x128x64_c2_s6_g8_k4", DType::BF16, 4096, 128, 4096, 1, Transpose::No, Transpose::No},
        {"wgmma_64x128x64_c1_s8_g8_k2", DType::F32, 4096, 130, 4096, 1, Transpose::Yes, Transpose::No},
        {"wgmma_192x128x64_c2_s4_g1_k3", DType::F16, 1000, 776, 5200, 3, Transpose::No, Transpose::Yes},
        {"wgmma_256x64x64_c1_s4_g8_k8", DType::BF16, 1024, 64, 8192, 1, Transpose::Yes, Transpose::Yes},
    };
    std::vector<KernelProgram> programs;
    for (const Case& k : cases) {
        const DType ab = k.c == DType::F16 ? DType::F16 : DType::BF16;
        programs.push_back(reported_wgmma_program(
            k.config, column_major_with_beta(k.m, k.n, k.k, k.batch, ab, k.c, k.trans_a, k.trans_b)));
    }
    expect_unspilled_hopper_cubins(programs);
}

// A wgmma configuration and the column-major problem, with alpha and beta, that it must compile for.
struct WgmmaCase {
    const char* config;
    DType ab, c;
    std::int64_t m, n, k, batch;
    Transpose trans_a, trans_b;
};

// Each case's program, compiled for sm_90a: no serialized wgmma, nothing spilled.
template <std::size_t N>
void expect_unspilled_wgmma_cases(const WgmmaCase (&cases)[N]) {
    std::vector<KernelProgram> programs;
    for (const WgmmaCase& k : cases)
        programs.push_back(reported_wgmma_program(
            k.config, column_major_with_beta(k.m, k.n, k.k, k.batch, k.ab, k.c, k.trans_a, k.trans_b)));
    expect_unspilled_hopper_cubins(programs);
}

// Instruction widths fitted to a narrow m (multiples of 16 between 64's, 16 to 240) in the wgmma family: op(A) stored
// m-contiguous (part of its last 64-wide box read) and k-major, K split across a cluster with uneven slices, a
// multicast pair, stream-K, TF32 and fp32 C through the TMA; and turned to fit a narrow n (_m), with K split,
// stream-K and ping-pong: no serialized wgmma, nothing spilled.
TEST(NvrtcCompileWgmma, FittedInstructionWidthsCompileForSm90aWithoutSerialization) {
    const WgmmaCase cases[] = {
        {"wgmma_144x64x64_c1_s6_g8_k2", DType::BF16, DType::BF16, 136, 4096, 4096, 1, Transpose::No, Transpose::No},
        {"wgmma_144x64x64_c1_s6_g8_k2", DType::F16, DType::F16, 130, 4096, 4096, 1, Transpose::Yes, Transpose::Yes},
        {"wgmma_80x64x64_c1_s8_g8", DType::BF16, DType::F32, 136, 4096, 4096, 1, Transpose::No, Transpose::Yes},
        {"wgmma_16x128x64_c2_s6_g8_q5", DType::F16, DType::F16, 9, 4096, 4096, 2, Transpose::Yes, Transpose::No},
        {"wgmma_48x64x128_c1_s4_g4_x2", DType::BF16, DType::BF16, 40, 1000, 2000, 1, Transpose::No, Transpose::No},
        {"wgmma_48x64x128_c1_s4_g4_x2", DType::BF16, DType::BF16, 40, 1000, 2000, 1, Transpose::Yes, Transpose::No},
        {"wgmma_208x128x64_c2_s4_g8_q132_sk", DType::F16, DType::F32, 200, 8192, 1024, 1, Transpose::No,
         Transpose::No},
        {"wgmma_112x128x64_c2_s4_g8_k3", DType::BF16, DType::F16, 100, 2048, 4096, 1, Transpose::Yes, Transpose::No},
        {"wgmma_240x128x64_c2_s4_g8", DType::BF16, DType::BF16, 232, 4096, 512, 1, Transpose::No, Transpose::No},
        {"wgmma_96x128x64_c2_s4_g8_q7_ts", DType::BF16, DType::F32, 96, 1000, 520, 1, Transpose::No, Transpose::No},
        {"wgmma_80x128x32_c2_s4_g8", DType::F32, DType::F32, 130, 1000, 520, 1, Transpose::Yes, Transpose::No},
        // Turned (_m): the width along n, op(B) k-major and n-contiguous (whole 64-wide boxes).
        {"wgmma_64x144x64_c1_s7_g8_m_k2", DType::BF16, DType::BF16, 4096, 130, 4096, 1, Transpose::No, Transpose::No},
        {"wgmma_64x144x64_c1_s7_g8_m_k2", DType::F16, DType::F16, 4096, 136, 4096, 1, Transpose::Yes, Transpose::Yes},
        {"wgmma_128x80x64_c2_s6_g8_m_q132", DType::BF16, DType::F32, 1000, 136, 520, 1, Transpose::No, Transpose::Yes},
        {"wgmma_128x208x64_c2_s4_g4_m_q7_sk", DType::F16, DType::BF16, 1000, 200, 2048, 1, Transpose::Yes,
         Transpose::No},
        {"wgmma_128x112x64_c2_s5_g8_m_q132_pp", DType::BF16, DType::BF16, 2048, 100, 1024, 2, Transpose::No,
         Transpose::No},
        // C staged box by box and copied out by the threads (_tc), where the TMA cannot write it (odd m).
        {"wgmma_256x128x64_c2_s4_g8_q132_p3_tc", DType::BF16, DType::BF16, 4097, 4097, 4097, 1, Transpose::No,
         Transpose::No},
        {"wgmma_192x128x64_c2_s4_g8_x2_q132_tc", DType::F16, DType::F32, 777, 1112, 3336, 1, Transpose::Yes,
         Transpose::No},
        {"wgmma_256x64x64_c2_s4_g8_q5_pp_tc", DType::BF16, DType::F16, 1001, 520, 1024, 2, Transpose::Yes,
         Transpose::Yes},
    };
    expect_unspilled_wgmma_cases(cases);
}

// TF32 in the wgmma family, every transpose, each operand stored across k either copied transposed first or read
// through registers (with the instruction's rows along m where that operand is A), wide and narrow instructions, one
// and two consumers, both depths and clusters: no serialized wgmma, and the transposing pack in the module exactly
// where an operand is transposed.
TEST(NvrtcCompileWgmma, Tf32EveryTransposeCompilesForSm90aWithoutSerialization) {
    const char* configs[] = {"wgmma_256x128x32_c2_s4_g8_x2_q132", "wgmma_64x128x64_c1_s2_g1",
                             "wgmma_128x256x32_c2_s4_g8"};
    std::vector<KernelProgram> programs;
    std::vector<bool> transposing;
    for (const Transpose ta : {Transpose::No, Transpose::Yes})
        for (const Transpose tb : {Transpose::No, Transpose::Yes})
            for (const char* name : configs)
                for (const bool through_registers : {false, true}) {
                    Problem p;
                    p.m = 1000;
                    p.n = 777;
                    p.k = 515;
                    p.trans_a = ta;
                    p.trans_b = tb;
                    p.lda = ta == Transpose::Yes ? 516 : 1000;
                    p.ldb = tb == Transpose::Yes ? 780 : 516;
                    p.ldc = 1000;
                    p.compute = ComputeType::TF32;
                    p.beta_mode = BetaMode::General;
                    WgmmaConfig c = *WgmmaConfig::parse(name);
                    c.pack = WgmmaConfig::operands_to_pack(p) |
                             (through_registers ? 0 : WgmmaConfig::transposable_operands(p));
                    EXPECT_FALSE(c.validate(p, testing::h200_profile())) << c.to_string() << " " << p.key();
                    programs.push_back(kernel_program(AnyConfig{c}, p, "sm_90a"));
                    transposing.push_back(c.pack != 0);
                }
    expect_hopper_cubins(programs, [&](std::size_t i, const Cubin& cubin) {
        EXPECT_EQ(cubin.image.find("jg_pack_transpose") != std::string::npos, transposing[i]);
    });
}

INSTANTIATE_TEST_SUITE_P(Families, NvrtcCompile,
                         ::testing::Values(NaiveConfig::kName, TiledConfig::kName, RegBlockConfig::kName,
                                           MmaSyncConfig::kName, WgmmaConfig::kName, DecodeConfig::kName),
                         [](const auto& info) { return std::string(info.param); });

TEST(NvrtcCompileErrors, SerializationWarningIsFoundInTheLog) {
    const std::string log =
        "ptxas info    : 0 bytes gmem\n"
        "ptxas warning : (C7510) Potential Performance Loss: wgmma.mma_async instructions are serialized due to ...\n"
        "ptxas info    : Used 168 registers\n";
    const auto line = serialization_warning(log);
    ASSERT_TRUE(line.has_value());
    EXPECT_EQ(line->rfind("ptxas warning : (C7510)", 0), 0u) << *line;
    EXPECT_EQ(line->find('\n'), std::string::npos);
    EXPECT_EQ(serialization_warning("ptxas info    : Used 168 registers\n"), std::nullopt);
    EXPECT_EQ(serialization_warning(""), std::nullopt);
    // Serialized for want of registers (as ptxas 13.0 said of a TF32 kernel reading 256 x 64 of op(A) through
    // registers): information, not a warning, and the same loss.
    const auto info = serialization_warning(
        "ptxas info    : (C7511) Potential Performance Loss: wgmma.mma_async instructions are serialized due to "
        "insufficient register resources for the wgmma pipeline in the function 'jg_wgmma'");
    ASSERT_TRUE(info.has_value());
    EXPECT_NE(info->find("C7511"), std::string::npos);
}

// ptxas's -v report, as it printed it for a wgmma kernel with C through the TMA that spilled (session 21).
TEST(NvrtcCompileErrors, PtxasResourcesAreReadFromItsReport) {
    const std::string log =
        "ptxas info    : 298 bytes gmem\n"
        "ptxas info    : Compiling entry function 'jg_wgmma' for 'sm_90a'\n"
        "ptxas info    : Function properties for jg_wgmma\n"
        "ptxas         .     96 bytes stack frame, 92 bytes spill stores, 92 bytes spill loads\n"
        "ptxas info    : Used 168 registers, used 16 barriers, 96 bytes cumulative stack size\n";
    const auto resources = ptxas_resources(log);
    ASSERT_TRUE(resources.has_value());
    EXPECT_EQ(resources->spilled_bytes, 92);
    EXPECT_EQ(resources->registers, 168);
    EXPECT_FALSE(ptxas_resources("ptxas info    : 298 bytes gmem\n").has_value());  // compiled without -v
    EXPECT_FALSE(ptxas_resources("").has_value());
}

TEST(NvrtcCompileErrors, RejectedProgramCarriesLogAndOptions) {
    Problem p;
    p.m = p.n = p.k = 64;
    p.lda = p.ldb = p.ldc = 64;
    RegBlockConfig broken;
    broken.tm = 3;  // validate() refuses it; the kernel's static_assert is the last line of defence
    const KernelProgram program = kernel_program(broken, p, "sm_90a");
    try {
        compile_to_cubin(program);
        ADD_FAILURE() << "compiled";
    } catch (const Error& e) {
        const std::string what = e.what();
        EXPECT_EQ(e.code(), ErrorCode::CompileError);
        EXPECT_NE(what.find("TM is 1, 2 or a multiple of 4"), std::string::npos) << what;
        EXPECT_NE(what.find("-DRB_TM=3"), std::string::npos) << what;
        EXPECT_NE(what.find("--gpu-architecture=sm_90a"), std::string::npos) << what;
    }
}

// The read roof's kernel (bench/read_roof.cpp) compiles for real targets at every number of loads in flight it
// times, and its cubin holds the kernel.
TEST(NvrtcSupportKernels, ReadRoofCompilesAtEveryUnroll) {
    for (const std::string arch : {"sm_80", "sm_90a"})
        for (int unroll : {1, 4, 8}) {
            KernelProgram program = make_support_program("support/jg_read_roof.cuh", "jg_read", arch);
            program.options.push_back("-DREAD_UNROLL=" + std::to_string(unroll));
            const Cubin cubin = compile_to_cubin(program);
            EXPECT_FALSE(cubin.image.empty()) << arch << " unroll " << unroll;
            EXPECT_NE(cubin.image.find("jg_read"), std::string::npos) << arch << " unroll " << unroll;
        }
}

// statistics().nvrtc_compiles counts GEMM kernels, which is what "served without compiling" means; the L2 flush that
// a bench compiles once for its timings is a support kernel and does not count (a sweep of 200 sizes served by
// stored variants once reported 1 compile: the flush).
TEST(NvrtcCompileCount, CountsGemmKernelsAndNotSupportKernels) {
    const KernelProgram flush = make_support_program("support/jg_l2_flush.cuh", "jg_l2_read", "sm_90a");
    EXPECT_TRUE(flush.support);
    const std::uint64_t before = nvrtc_compile_count();
    EXPECT_FALSE(compile_to_cubin(flush).image.empty());
    EXPECT_EQ(nvrtc_compile_count(), before);
    Problem p;
    p.m = p.n = p.k = 64;
    p.lda = p.ldb = p.ldc = 64;
    const KernelProgram gemm = kernel_program(NaiveConfig{}, p, "sm_90a");
    EXPECT_FALSE(gemm.support);
    EXPECT_FALSE(compile_to_cubin(gemm).image.empty());
    EXPECT_EQ(nvrtc_compile_count(), before + 1);
}

// Column-major, nn, fp32, minimum leading dimensions.
Problem problem_100x200x300() {
    Problem p;
    p.m = 100;
    p.n = 200;
    p.k = 300;
    p.lda = 100;
    p.ldb = 300;
    p.ldc = 100;
    return p;
}

// The GPU reference takes every size at run time: problems that differ only in sizes, leading dimensions and
// alignment share one binary (the tuner's check of a new problem finds it in the cache), while element types,
// layout, scalars and index width still make their own; and NVRTC compiles it for real targets.
TEST(ReferenceProgram, OneBinaryServesEverySizeOfATypeAndLayout) {
    Problem p = problem_100x200x300();
    p.a_type = p.b_type = p.c_type = DType::BF16;
    Problem other = p;
    other.m = 4097;
    other.n = 7;
    other.k = 12345;
    other.lda = other.ldc = 4099;
    other.ldb = 12345;
    other.align_a = other.align_c = 2;  // an odd leading dimension
    const KernelProgram a = reference_program(p, "sm_90a");
    EXPECT_EQ(a.cubin_key(), reference_program(other, "sm_90a").cubin_key());
    EXPECT_NE(a.cubin_key(), kernel_program(ReferenceConfig{}, p, "sm_90a").cubin_key());
    for (const char* size : {"-DJG_M=0", "-DJG_N=0", "-DJG_K=0", "-DJG_LDA=0", "-DJG_LDB=0", "-DJG_LDC=0",
                             "-DJG_SIZES_AT_RUN_TIME=1", "-DJG_INDEX64=0"})
        EXPECT_NE(std::find(a.options.begin(), a.options.end(), size), a.options.end()) << size;

    Problem transposed = p;
    transposed.trans_a = Transpose::Yes;
    Problem fp32_out = p;
    fp32_out.c_type = DType::F32;
    Problem beta = p;
    beta.beta_mode = BetaMode::General;
    Problem wide = p;
    wide.m = wide.lda = wide.ldc = 1 << 20;
    wide.n = 4096;
    ASSERT_TRUE(wide.needs_index64());
    for (const Problem& q : {transposed, fp32_out, beta, wide})
        EXPECT_NE(reference_program(q, "sm_90a").cubin_key(), a.cubin_key()) << q.key();

    for (const char* arch : {"sm_80", "sm_90a"}) {
        EXPECT_FALSE(compile_to_cubin(reference_program(p, arch)).image.empty()) << arch;
        EXPECT_FALSE(compile_to_cubin(reference_program(wide, arch)).image.empty()) << arch;
    }
}

TEST(KernelProgram, ProblemAndKnobsBecomeDefinesAndTheCubinKeyTracksThem) {
    const Problem p = problem_100x200x300();
    const KernelProgram a = kernel_program(RegBlockConfig{}, p, "sm_90a");
    auto has = [&](const KernelProgram& prog, const std::string& option) {
        return std::find(prog.options.begin(), prog.options.end(), option) != prog.options.end();
    };
    EXPECT_TRUE(has(a, "-DJG_M=100"));
    EXPECT_TRUE(has(a, "-DJG_K=300"));
    EXPECT_TRUE(has(a, "-DRB_BM=128"));
    EXPECT_TRUE(has(a, "-DJG_BETA_MODE=0"));
    EXPECT_TRUE(has(a, "-DJG_INDEX64=0"));
    EXPECT_EQ(a.kernel_symbol, "jg_regblock");
    Problem q = p;
    q.k = 301;
    EXPECT_NE(kernel_program(RegBlockConfig{}, q, "sm_90a").cubin_key(), a.cubin_key());
    EXPECT_NE(kernel_program(RegBlockConfig{}, p, "sm_80").cubin_key(), a.cubin_key());
    EXPECT_NE(kernel_program(NaiveConfig{}, p, "sm_90a").cubin_key(), a.cubin_key());
    EXPECT_EQ(kernel_program(RegBlockConfig{}, p, "sm_90a").cubin_key(), a.cubin_key());
}

TEST(NvrtcTargets, SupportsTheArchitecturesJitgemmTargets) {
    EXPECT_NO_THROW(require_supported_arch("sm_80"));
    EXPECT_NO_THROW(require_supported_arch("sm_90a"));
    EXPECT_THROW(require_supported_arch("sm_11"), Error);
}

// Three consumer warpgroups (c3) in the wgmma family, one 64-row instruction block each of a 192-row tile, with the
// 152 registers setmaxnreg gives each: 16-bit every transpose, C from the registers and box by box through the TMA, a
// cluster pair, stream-K, K split across a cluster, turned (_m), a batch, TF32 through registers and a fitted width:
// no serialized wgmma, nothing spilled (a whole staged tile, _ts, spilled and is rejected).
TEST(NvrtcCompileWgmma, ThreeConsumersCompileWithoutSerializationOrSpills) {
    const WgmmaCase cases[] = {
        {"wgmma_192x192x64_c3_s4_g8_q132", DType::BF16, DType::BF16, 6144, 1528, 6144, 1, Transpose::Yes,
         Transpose::Yes},
        {"wgmma_192x192x64_c3_s4_g8_x2_q132", DType::F16, DType::F32, 6144, 1528, 6144, 1, Transpose::No,
         Transpose::No},
        {"wgmma_192x192x64_c3_s3_g8_q132_tb", DType::BF16, DType::F32, 3000, 2000, 1000, 1, Transpose::Yes,
         Transpose::No},
        {"wgmma_192x192x64_c3_s3_g8_x2_q132_tb", DType::F16, DType::F16, 3000, 2000, 1000, 1, Transpose::No,
         Transpose::Yes},
        {"wgmma_192x192x64_c3_s4_g8_q132_sk", DType::BF16, DType::BF16, 2000, 3000, 2048, 1, Transpose::No,
         Transpose::No},
        {"wgmma_192x192x64_c3_s4_g8_k2", DType::BF16, DType::BF16, 1000, 800, 4096, 1, Transpose::Yes, Transpose::No},
        {"wgmma_192x176x64_c3_s4_g8_m_q132", DType::F16, DType::BF16, 2000, 3000, 2048, 1, Transpose::No,
         Transpose::Yes},
        {"wgmma_176x192x64_c3_s4_g8_q132", DType::BF16, DType::BF16, 704, 904, 1024, 4, Transpose::No, Transpose::No},
        {"wgmma_192x192x32_c3_s4_g8_q132", DType::F32, DType::F32, 2000, 3000, 1024, 1, Transpose::No, Transpose::No},
        {"wgmma_192x192x32_c3_s3_g8_q132_tb", DType::F32, DType::F32, 2000, 3000, 1024, 1, Transpose::Yes,
         Transpose::Yes},
    };
    expect_unspilled_wgmma_cases(cases);
}

// Cluster pairs along m (_y2) in the wgmma family, neighbouring tiles of m sharing op(B)^T: op(B) k-major (half the
// rows of each box a block) and n-contiguous (alternate boxes), three consumers and two, stream-K, C through the TMA,
// turned, TF32, a batch: no serialized wgmma, nothing spilled.
TEST(NvrtcCompileWgmma, PairsAlongMCompileWithoutSerializationOrSpills) {
    const WgmmaCase cases[] = {
        {"wgmma_192x192x64_c3_s3_g8_y2_q132_tb", DType::BF16, DType::BF16, 6144, 1528, 6144, 1, Transpose::Yes,
         Transpose::Yes},
        {"wgmma_192x256x64_c2_s4_g8_y2_q132", DType::BF16, DType::F32, 1792, 2552, 4416, 1, Transpose::Yes,
         Transpose::Yes},
        {"wgmma_256x128x64_c2_s4_g8_y2_q132_sk_tb", DType::F16, DType::F16, 6144, 1528, 6144, 1, Transpose::No,
         Transpose::No},
        {"wgmma_128x144x64_c2_s5_g8_m_y2_q132", DType::BF16, DType::BF16, 2048, 136, 1024, 1, Transpose::No,
         Transpose::Yes},
        {"wgmma_128x128x32_c2_s4_g8_y2_q132", DType::F32, DType::F32, 2000, 3000, 1024, 1, Transpose::Yes,
         Transpose::No},
        {"wgmma_128x128x64_c2_s6_g4_y2", DType::F16, DType::BF16, 704, 904, 1024, 4, Transpose::No, Transpose::No},
    };
    expect_unspilled_wgmma_cases(cases);
}

// Turned tiles (_m) with C through the TMA round by round (_tb): fp32 and 16-bit C, a deep tile in a pair, narrow
// widths, stream-K, ping-pong, one consumer, three, pairs along m and a batch (the TMA's 3-d store): no serialized
// wgmma, nothing spilled.
TEST(NvrtcCompileWgmma, TurnedTilesThroughTheTmaCompileWithoutSerializationOrSpills) {
    const WgmmaCase cases[] = {
        {"wgmma_256x160x64_c2_s4_g8_m_x2_q132_tb", DType::F16, DType::F32, 8192, 2552, 3000, 1, Transpose::Yes,
         Transpose::No},
        {"wgmma_256x160x64_c2_s4_g8_m_x2_q132_tb", DType::BF16, DType::BF16, 3000, 5000, 2000, 1, Transpose::Yes,
         Transpose::No},
        {"wgmma_128x80x64_c2_s6_g8_m_q132_tb", DType::F16, DType::F16, 2048, 1000, 2048, 1, Transpose::No,
         Transpose::Yes},
        {"wgmma_128x208x64_c2_s4_g4_m_q7_sk_tb", DType::BF16, DType::F32, 2048, 1000, 2048, 1, Transpose::No,
         Transpose::No},
        {"wgmma_128x112x64_c2_s5_g8_m_q132_pp_tb", DType::F16, DType::BF16, 2048, 1000, 2048, 1, Transpose::Yes,
         Transpose::Yes},
        {"wgmma_64x48x128_c1_s4_g8_m_x2_tb", DType::BF16, DType::F16, 2048, 1000, 2048, 1, Transpose::No,
         Transpose::Yes},
        {"wgmma_192x176x64_c3_s4_g8_m_q132_tb", DType::BF16, DType::F32, 2048, 1000, 2048, 1, Transpose::No,
         Transpose::Yes},
        {"wgmma_128x144x64_c2_s5_g8_m_y2_q132_tb", DType::F16, DType::F32, 2048, 1000, 2048, 1, Transpose::No,
         Transpose::Yes},
        {"wgmma_128x144x64_c2_s4_g8_m_q132_tb", DType::BF16, DType::BF16, 704, 904, 1024, 4, Transpose::No,
         Transpose::No},
    };
    expect_unspilled_wgmma_cases(cases);
}

// Ping-pong in the wgmma family (two consumers taking whole tiles in turn): 16-bit every transpose and TF32 (with
// op(A) through registers, the rows along m), C from the registers and through the TMA (two staging areas), a
// cluster, a batch and a run-time m: no serialized wgmma and nothing spilled — C through the TMA with the 256-wide
// tiles spilled 92 bytes per thread until its bounds test was left to C's reads for beta.
TEST(NvrtcCompileWgmma, PingPongAndTmaStoredCCompileWithoutSerializationOrSpills) {
    struct Case {
        const char* config;
        DType ab, c;
        Transpose trans_a, trans_b;
        std::int64_t batch;
        std::uint8_t runtime_dim;
    };
    const Case cases[] = {
        {"wgmma_256x64x64_c2_s5_g8_q132_pp", DType::BF16, DType::BF16, Transpose::No, Transpose::No, 1, 0},
        {"wgmma_128x128x64_c2_s6_g8_x2_q132_pp", DType::F16, DType::F32, Transpose::Yes, Transpose::No, 1, 0},
        {"wgmma_256x64x64_c2_s4_g8_q132_pp_ts", DType::BF16, DType::BF16, Transpose::No, Transpose::Yes, 1, 0},
        {"wgmma_128x128x64_c2_s4_g4_q132_pp_ts", DType::F16, DType::F16, Transpose::Yes, Transpose::Yes, 4, 0},
        {"wgmma_64x128x64_c2_s6_g8_q132_pp", DType::BF16, DType::F16, Transpose::No, Transpose::No, 1, 1},
        {"wgmma_128x128x32_c2_s4_g8_q132_pp", DType::F32, DType::F32, Transpose::No, Transpose::No, 1, 0},
        {"wgmma_128x128x32_c2_s4_g8_x2_q132_pp", DType::F32, DType::F32, Transpose::Yes, Transpose::Yes, 1, 0},
        // C through the TMA from 256-wide tiles split between the consumers, which spilled.
        {"wgmma_256x128x64_c2_s3_g8_q132_ts", DType::BF16, DType::BF16, Transpose::No, Transpose::No, 1, 0},
        {"wgmma_256x128x64_c2_s3_g8_x2_q132_ts", DType::F16, DType::F16, Transpose::Yes, Transpose::No, 1, 0},
    };
    std::vector<KernelProgram> programs;
    for (const Case& k : cases) {
        Problem p;
        p.m = 4096;
        p.n = 4096;
        p.k = 4096;
        p.trans_a = k.trans_a;
        p.trans_b = k.trans_b;
        p.lda = p.ldb = p.ldc = 4096;
        p.a_type = p.b_type = k.ab;
        p.c_type = k.c;
        p.compute = k.ab == DType::F32 ? ComputeType::TF32 : ComputeType::F32;
        p.beta_mode = BetaMode::Zero;
        p.batch = k.batch;
        p.runtime_dim = k.runtime_dim;
        programs.push_back(reported_wgmma_program(k.config, p));
    }
    expect_unspilled_hopper_cubins(programs);
}

}  // namespace
}  // namespace jitgemm
