// The one manifest entry that sets every field, as the CSV and JSON readers' tests write it ("all": 7x9x0, batch 3,
// t n, col/row/col/row, bf16/f16/f32/bf16, compute tf32, alpha -2.5, beta 0.125, relu, align 8, workspace 1 MiB,
// frequency 0.25), and the check that a reader gave each field its value. Where the entry came from (file, line)
// differs by format and stays with each test.
#pragma once

#include <gtest/gtest.h>

#include "tools/manifest/shape_manifest.h"

namespace jitgemm::testing {

inline void expect_all_fields_entry(const ManifestEntry& e) {
    EXPECT_EQ(e.name, "all");
    EXPECT_EQ(e.m, 7);
    EXPECT_EQ(e.n, 9);
    EXPECT_EQ(e.k, 0);
    EXPECT_EQ(e.batch, 3);
    EXPECT_EQ(e.trans_a, Transpose::Yes);
    EXPECT_EQ(e.trans_b, Transpose::No);
    EXPECT_EQ(e.layout_a, Order::ColumnMajor);
    EXPECT_EQ(e.layout_b, Order::RowMajor);
    EXPECT_EQ(e.layout_c, Order::ColumnMajor);
    EXPECT_EQ(e.layout_d, Order::RowMajor);
    EXPECT_EQ(e.a_type, DType::BF16);
    EXPECT_EQ(e.b_type, DType::F16);
    EXPECT_EQ(e.c_type, DType::F32);
    EXPECT_EQ(e.d_type, DType::BF16);
    EXPECT_EQ(e.compute, ComputeType::TF32);
    EXPECT_EQ(e.alpha, -2.5);
    EXPECT_EQ(e.beta, 0.125);
    EXPECT_EQ(e.epilogue, "relu");
    EXPECT_EQ(e.alignment, 8);
    EXPECT_EQ(e.workspace_limit, 1048576);
    EXPECT_EQ(e.frequency, 0.25);
}

}  // namespace jitgemm::testing
