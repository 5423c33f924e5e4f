// jg_pack.cuh — copies an operand into a workspace whose columns all start 16-byte aligned (the leading dimension
// rounded up to 16 bytes, the padding zero-filled), so that the GEMM kernel that follows copies it with 16-byte
// cp.async instead of element by element. The Tensor Core family uses it for operands whose leading dimension or
// pointer is misaligned (an odd leading dimension in half precision): reading and writing the operand once costs
// far less than a main loop fed through registers. Sizes are run-time arguments, so one kernel serves any problem;
// it is compiled into the module of every kernel that packs.
#pragma once

// dst (ld_dst elements per column, a multiple of 16 / element_bytes) = src (ld_src per column), `rows` elements of
// each of `cols` columns; element_bytes is 2 or 4. One thread writes one 16-byte chunk of dst.
extern "C" __global__ void jg_pack(const void* __restrict__ src, long long ld_src, void* __restrict__ dst,
                                   long long ld_dst, long long rows, long long cols, int element_bytes) {
    const int per_chunk = 16 / element_bytes;
    const long long chunks_per_column = ld_dst / per_chunk;
    const long long chunks = chunks_per_column * cols;
    for (long long q = blockIdx.x * (long long)blockDim.x + threadIdx.x; q < chunks;
         q += (long long)gridDim.x * blockDim.x) {
        const long long col = q / chunks_per_column;
        const long long row0 = (q - col * chunks_per_column) * per_chunk;
        unsigned word[4] = {0, 0, 0, 0};
        if (element_bytes == 2) {
            const unsigned short* from = static_cast<const unsigned short*>(src) + col * ld_src;
#pragma unroll
            for (int i = 0; i < 8; ++i)
                if (row0 + i < rows) word[i / 2] |= (unsigned)from[row0 + i] << (16 * (i % 2));
        } else {
            const unsigned* from = static_cast<const unsigned*>(src) + col * ld_src;
#pragma unroll
            for (int i = 0; i < 4; ++i)
                if (row0 + i < rows) word[i] = from[row0 + i];
        }
        reinterpret_cast<uint4*>(dst)[q] = make_uint4(word[0], word[1], word[2], word[3]);
    }
}
