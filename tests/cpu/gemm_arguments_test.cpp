// Argument checking and the fold into canonical column-major form. Bad input must throw the right code, name the
// argument, and never touch the driver (these run on machines without one).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "jitgemm/jitgemm.h"
#include "runtime/problem/gemm_call.h"

namespace jitgemm {
namespace {

// Fake device addresses: aligned, never dereferenced (every test here fails or folds before any launch).
const void* const kA = reinterpret_cast<const void*>(0x10000);
const void* const kB = reinterpret_cast<const void*>(0x20000);
void* const kC = reinterpret_cast<void*>(0x30000);

GemmCall valid_call() {
    GemmCall c;
    c.m = 64;
    c.n = 32;
    c.k = 16;
    c.a = kA;
    c.lda = 64;
    c.b = kB;
    c.ldb = 16;
    c.c = kC;
    c.ldc = 64;
    return c;
}

void expect_error(const GemmCall& call, ErrorCode code, const std::string& fragment) {
    try {
        make_canonical_call(call);
        ADD_FAILURE() << "no error; expected one mentioning \"" << fragment << "\"";
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), code) << e.what();
        EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
        EXPECT_EQ(std::string(e.what()).rfind("jitgemm: ", 0), 0u) << e.what();
    }
}

TEST(GemmArguments, NegativeSizes) {
    for (const char* which : {"m", "n", "k"}) {
        GemmCall c = valid_call();
        (which[0] == 'm' ? c.m : which[0] == 'n' ? c.n : c.k) = -3;
        expect_error(c, ErrorCode::InvalidArgument, std::string(which) + " = -3 is negative");
    }
}

TEST(GemmArguments, NullAndMisalignedPointers) {
    GemmCall c = valid_call();
    c.a = nullptr;
    expect_error(c, ErrorCode::InvalidArgument, "A is a null pointer");
    c = valid_call();
    c.b = nullptr;
    expect_error(c, ErrorCode::InvalidArgument, "B is a null pointer");
    c = valid_call();
    c.c = nullptr;
    expect_error(c, ErrorCode::InvalidArgument, "C is a null pointer");
    c = valid_call();
    c.c = reinterpret_cast<void*>(0x30002);
    expect_error(c, ErrorCode::InvalidArgument, "not aligned to its element size");
}

TEST(GemmArguments, NullOperandsAreAllowedWhereBlasDoesNotReadThem) {
    GemmCall c = valid_call();
    c.k = 0;
    c.a = nullptr;
    c.b = nullptr;
    EXPECT_NO_THROW(make_canonical_call(c));
    c = valid_call();
    c.m = 0;
    c.a = c.b = nullptr;
    c.c = nullptr;
    EXPECT_TRUE(make_canonical_call(c).no_work);
}

TEST(GemmArguments, LeadingDimensionMinimaInBothOrdersAndTransposes) {
    struct Case {
        Order order;
        Transpose ta, tb;
        std::int64_t min_lda, min_ldb, min_ldc;
    };
    // m = 64, n = 32, k = 16
    const Case cases[] = {
        {Order::ColumnMajor, Transpose::No, Transpose::No, 64, 16, 64},
        {Order::ColumnMajor, Transpose::Yes, Transpose::Yes, 16, 32, 64},
        {Order::RowMajor, Transpose::No, Transpose::No, 16, 32, 32},
        {Order::RowMajor, Transpose::Yes, Transpose::Yes, 64, 16, 32},
    };
    for (const Case& k : cases) {
        GemmCall c = valid_call();
        c.order = k.order;
        c.trans_a = k.ta;
        c.trans_b = k.tb;
        c.lda = k.min_lda;
        c.ldb = k.min_ldb;
        c.ldc = k.min_ldc;
        EXPECT_NO_THROW(make_canonical_call(c));
        GemmCall bad = c;
        bad.lda = k.min_lda - 1;
        expect_error(bad, ErrorCode::InvalidArgument, "lda = " + std::to_string(k.min_lda - 1) + " is below its minimum " +
                                                          std::to_string(k.min_lda));
        bad = c;
        bad.ldb = k.min_ldb - 1;
        expect_error(bad, ErrorCode::InvalidArgument, "ldb = " + std::to_string(k.min_ldb - 1) + " is below");
        bad = c;
        bad.ldc = k.min_ldc - 1;
        expect_error(bad, ErrorCode::InvalidArgument, "ldc = " + std::to_string(k.min_ldc - 1) + " is below");
    }
    GemmCall zero = valid_call();
    zero.m = 0;
    zero.lda = 0;
    expect_error(zero, ErrorCode::InvalidArgument, "lda = 0 is below its minimum 1");
}

TEST(GemmArguments, UnsupportedDtypeCombinationsAreRefusedWithTheRule) {
    GemmCall c = valid_call();
    c.a_type = DType::F16;
    expect_error(c, ErrorCode::Unsupported, "a=f16 b=f32 c=f32 compute=f32 is not supported");
    c = valid_call();
    c.c_type = DType::BF16;  // fp32 inputs give an fp32 output
    expect_error(c, ErrorCode::Unsupported, "a=f32 b=f32 c=bf16 compute=f32 is not supported");
    c = valid_call();
    c.a_type = c.b_type = DType::BF16;
    c.compute = ComputeType::TF32;  // TF32 is a permission for fp32 inputs only
    expect_error(c, ErrorCode::Unsupported, "compute tf32 is for fp32 inputs");
}

TEST(GemmArguments, HalfPrecisionAndTf32CombinationsAreAccepted) {
    GemmCall c = valid_call();
    c.compute = ComputeType::TF32;
    EXPECT_EQ(make_canonical_call(c).problem.compute, ComputeType::TF32);
    for (const DType ab : {DType::F16, DType::BF16})
        for (const DType out : {DType::F16, DType::BF16, DType::F32}) {
            c = valid_call();
            c.a_type = c.b_type = ab;
            c.c_type = out;
            const Problem p = make_canonical_call(c).problem;
            EXPECT_EQ(p.a_type, ab);
            EXPECT_EQ(p.c_type, out);
            const std::string dtypes = std::string(to_string(ab)) + "." + std::string(to_string(ab)) + "." +
                                       std::string(to_string(out)) + ".f32";
            EXPECT_EQ(p.key().rfind("v2_" + dtypes + "_", 0), 0u) << p.key();  // the dtypes follow the version
        }
}

TEST(GemmArguments, ExtentsBeyond64BitAddressingAreRefused) {
    GemmCall c = valid_call();
    c.n = std::int64_t{1} << 40;
    c.ldb = 16;
    c.ldc = std::int64_t{1} << 40;
    expect_error(c, ErrorCode::InvalidArgument, "overflows 64-bit addressing");
}

// Extents near 2^126 elements: formed in signed 128-bit arithmetic, (k - 1) * lda * 4 bytes wrapped negative and
// 2^63 - 1 was accepted (issue 19). Every operand at the limit, and one byte past it, in both directions.
TEST(GemmArguments, ExtentsOfTwoToTheSixtyThreeAreRefusedWithoutWrapping) {
    const std::int64_t max = std::numeric_limits<std::int64_t>::max();
    GemmCall c = valid_call();
    c.m = c.n = c.k = max;  // every operand (max - 1) * max + max elements: 2^128 bytes, 0 after the signed wrap
    c.lda = c.ldb = c.ldc = max;
    expect_error(c, ErrorCode::InvalidArgument, "overflows 64-bit addressing");
    GemmDescription d = c;
    EXPECT_THROW(check_description(d), Error);

    // The largest fp32 operand that fits: (max / 4) elements in one column; one more element does not.
    GemmDescription fits;
    fits.m = max / 4;
    fits.n = fits.k = 1;
    fits.lda = fits.ldb = fits.ldc = fits.m;
    fits.ldb = 1;
    EXPECT_NO_THROW(check_description(fits));
    GemmDescription past = fits;
    past.m = past.lda = past.ldc = max / 4 + 1;
    EXPECT_THROW(check_description(past), Error);
}

TEST(GemmArguments, RowMajorIsTheTransposedColumnMajorProblem) {
    GemmCall row = valid_call();
    row.order = Order::RowMajor;
    row.trans_a = Transpose::Yes;
    row.lda = 64;  // A stored k x m row-major
    row.ldb = 32;
    row.ldc = 32;
    const CanonicalCall c = make_canonical_call(row);
    EXPECT_EQ(c.problem.m, 32);
    EXPECT_EQ(c.problem.n, 64);
    EXPECT_EQ(c.problem.k, 16);
    EXPECT_EQ(c.problem.trans_a, Transpose::No);  // B's flag
    EXPECT_EQ(c.problem.trans_b, Transpose::Yes);  // A's flag
    EXPECT_EQ(c.problem.lda, 32);
    EXPECT_EQ(c.problem.ldb, 64);
    EXPECT_EQ(c.a, kB);
    EXPECT_EQ(c.b, kA);
    EXPECT_EQ(c.c, kC);
}

TEST(GemmArguments, DegenerateCallsFoldIntoOneScaleProblem) {
    GemmCall k0 = valid_call();
    k0.k = 0;
    k0.beta = 0.5f;
    GemmCall alpha0 = valid_call();
    alpha0.alpha = 0.0f;
    alpha0.beta = 0.5f;
    alpha0.trans_a = Transpose::Yes;
    alpha0.lda = 16;
    const CanonicalCall x = make_canonical_call(k0), y = make_canonical_call(alpha0);
    EXPECT_EQ(x.problem, y.problem);
    EXPECT_EQ(x.problem.k, 0);
    EXPECT_FALSE(x.no_work);
    GemmCall identity = k0;
    identity.beta = 1.0f;
    EXPECT_TRUE(make_canonical_call(identity).no_work);
}

TEST(GemmArguments, AlignmentClassesComeFromPointersAndLeadingDimensions) {
    EXPECT_EQ(alignment_class(reinterpret_cast<void*>(0x1000), 64, 4), 16);
    EXPECT_EQ(alignment_class(reinterpret_cast<void*>(0x1000), 4097, 4), 4);
    EXPECT_EQ(alignment_class(reinterpret_cast<void*>(0x1000), 4098, 4), 8);
    EXPECT_EQ(alignment_class(reinterpret_cast<void*>(0x1004), 64, 4), 4);
    EXPECT_EQ(alignment_class(reinterpret_cast<void*>(0x1008), 64, 4), 8);
}

GemmCall batched_call() {
    GemmCall c = valid_call();  // A 64 x 16, B 16 x 32, C 64 x 32, column-major
    c.batch = 5;
    c.stride_a = 64 * 16;
    c.stride_b = 16 * 32;
    c.stride_c = 64 * 32;
    return c;
}

TEST(GemmArguments, BatchedCallsCarryTheirCountIntoTheProblemAndTheirStridesBeside) {
    CanonicalCall c = make_canonical_call(batched_call());
    EXPECT_EQ(c.problem.batch, 5);
    EXPECT_EQ(c.stride_a, 64 * 16);
    EXPECT_EQ(c.stride_c, 64 * 32);
    EXPECT_NE(c.problem.key().find("_batch5"), std::string::npos);
    // Row-major swaps A and B, and their strides with them.
    GemmCall row = batched_call();
    row.order = Order::RowMajor;
    row.lda = 16;
    row.ldb = 32;
    row.ldc = 32;
    c = make_canonical_call(row);
    EXPECT_EQ(c.a, kB);
    EXPECT_EQ(c.stride_a, 16 * 32);
    EXPECT_EQ(c.stride_b, 64 * 16);
    // Strides that are no multiple of 16 bytes narrow the alignment class, as a leading dimension does; 0 does not.
    GemmCall odd = batched_call();
    odd.stride_a = 64 * 16 + 1;
    odd.stride_b = 0;
    c = make_canonical_call(odd);
    EXPECT_EQ(c.problem.align_a, 4);
    EXPECT_EQ(c.problem.align_b, 16);
    // One GEMM, or none: strides ignored, no batch in the key; batch 0 does nothing.
    GemmCall one = batched_call();
    one.batch = 1;
    one.stride_c = -7;
    c = make_canonical_call(one);
    EXPECT_EQ(c.problem.batch, 1);
    EXPECT_EQ(c.stride_c, 0);
    EXPECT_EQ(c.problem, make_canonical_call(valid_call()).problem);
    GemmCall none = batched_call();
    none.batch = 0;
    EXPECT_TRUE(make_canonical_call(none).no_work);
}

TEST(GemmArguments, BatchesWhoseGemmsWouldWriteOverEachOtherAreRefused) {
    GemmCall c = batched_call();
    c.batch = -1;
    expect_error(c, ErrorCode::InvalidArgument, "batch = -1 is negative");
    c = batched_call();
    c.stride_b = -16;
    expect_error(c, ErrorCode::InvalidArgument, "stride_b = -16 is negative");
    c = batched_call();
    c.stride_c = 64 * 32 - 1;  // the last element of one C is the first of the next
    expect_error(c, ErrorCode::InvalidArgument, "stride_c = 2047 makes the 5 GEMMs of the batch write overlapping");
    c.stride_c = 0;
    expect_error(c, ErrorCode::InvalidArgument, "overlapping parts of C");
    // Side by side: each GEMM's 64 rows within a column of ldc = 5 x 64 elements.
    c.ldc = 5 * 64;
    c.stride_c = 64;
    EXPECT_NO_THROW(make_canonical_call(c));
    c.ldc = 5 * 64 - 1;
    expect_error(c, ErrorCode::InvalidArgument, "overlapping parts of C");
    // A and B may be shared by all GEMMs.
    c = batched_call();
    c.stride_a = c.stride_b = 0;
    EXPECT_NO_THROW(make_canonical_call(c));
    // The whole batch must be addressable.
    c = batched_call();
    c.batch = std::int64_t{1} << 40;
    c.stride_a = std::int64_t{1} << 30;
    expect_error(c, ErrorCode::InvalidArgument, "A spans 16 x 64 elements in each of 1099511627776 GEMMs");
}

TEST(GemmArguments, PublicEntryPointChecksBeforeTouchingTheDriver) {
    float host_c[4] = {1, 2, 3, std::numeric_limits<float>::quiet_NaN()};
    try {
        sgemm(Order::ColumnMajor, Transpose::No, Transpose::No, 2, 2, 2, 1.0f, nullptr, 2, nullptr, 2, 0.0f, host_c, 2);
        ADD_FAILURE() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::InvalidArgument);
        EXPECT_NE(std::string(e.what()).find("A is a null pointer"), std::string::npos);
    }
    EXPECT_EQ(host_c[0], 1.0f);
    EXPECT_TRUE(std::isnan(host_c[3]));
    EXPECT_EQ(sgemm(Order::RowMajor, Transpose::No, Transpose::No, 0, 5, 5, 1.0f, nullptr, 5, nullptr, 5, 0.0f,
                    nullptr, 5),
              ServedBy::NothingToDo);
    // The batched entry point: checked the same way, before anything else.
    try {
        gemm_strided_batched(Order::ColumnMajor, Transpose::No, Transpose::No, 2, 2, 2, 1.0f, host_c, DType::F32, 2, 4,
                             host_c, DType::F32, 2, 4, 0.0f, host_c, DType::F32, 2, 1, 3);
        ADD_FAILURE() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::InvalidArgument);
        EXPECT_NE(std::string(e.what()).find("stride_c = 1"), std::string::npos) << e.what();
    }
    EXPECT_EQ(host_c[0], 1.0f);
    EXPECT_EQ(gemm_strided_batched(Order::ColumnMajor, Transpose::No, Transpose::No, 2, 2, 2, 1.0f, nullptr, DType::F32,
                                   2, 4, nullptr, DType::F32, 2, 4, 0.0f, nullptr, DType::F32, 2, 4, 0),
              ServedBy::NothingToDo);
}

}  // namespace
}  // namespace jitgemm
