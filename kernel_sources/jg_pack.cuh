// jg_pack.cuh — copies operands into a workspace whose columns all start 128-byte aligned (the leading dimension
// rounded up to 128 bytes by the host, the padding zero-filled), so that the GEMM kernel that follows copies them with 16-byte
// cp.async instead of element by element. The Tensor Core family uses it for operands whose leading dimension or
// pointer is misaligned (an odd leading dimension in half precision): reading and writing the operand once costs
// far less than a main loop fed through registers. Sizes are run-time arguments, so one kernel serves any problem;
// it is compiled into the module of every kernel that packs, and one launch packs both operands.
#pragma once

// One operand's copy: dst (ld_dst elements per column, a multiple of 16 / element_bytes at least) = src (ld_src per column),
// `rows` elements of each of `cols` columns. cols = 0: nothing to copy. Every field is 8 bytes, so the host's mirror
// of it (src/dispatch/loaded_kernel.cpp) has the same layout.
struct jg_pack_job {
    const void* src;
    void* dst;
    long long ld_src, ld_dst, rows, cols;
};

// The 8 16-bit elements at `from`, of which `left` exist (zeros past them), as four words. A chunk whose address is
// 2 mod 4 — every other column when the leading dimension is odd — is read as the five aligned words around it and
// shifted into place (funnel shifts), four loads instead of eight; the word before it holds the column's previous
// element (or, for the first chunk of a column, the end of the one before), so it is only taken past the operand's
// very first element and when a ninth element exists in the column, so no read leaves the operand.
__device__ __forceinline__ uint4 jg_pack_16bit(const unsigned short* from, long long left, bool operand_start) {
    const unsigned long long address = reinterpret_cast<unsigned long long>(from);
    if (left >= 8 && (address & 15) == 0) return *reinterpret_cast<const uint4*>(from);
    if (left >= 8 && (address & 3) == 0) {
        const unsigned* w = reinterpret_cast<const unsigned*>(from);
        return make_uint4(w[0], w[1], w[2], w[3]);
    }
    if (left > 8 && !operand_start) {
        const unsigned* w = reinterpret_cast<const unsigned*>(address - 2);
        const unsigned w0 = w[0], w1 = w[1], w2 = w[2], w3 = w[3], w4 = w[4];
        return make_uint4(__funnelshift_r(w0, w1, 16), __funnelshift_r(w1, w2, 16), __funnelshift_r(w2, w3, 16),
                          __funnelshift_r(w3, w4, 16));
    }
    unsigned word[4] = {0, 0, 0, 0};
#pragma unroll
    for (int i = 0; i < 8; ++i)
        if (i < left) word[i / 2] |= (unsigned)from[i] << (16 * (i % 2));
    return make_uint4(word[0], word[1], word[2], word[3]);
}

// The 4 32-bit elements at `from`, of which `left` exist.
__device__ __forceinline__ uint4 jg_pack_32bit(const unsigned* from, long long left) {
    if (left >= 4 && (reinterpret_cast<unsigned long long>(from) & 15) == 0)
        return *reinterpret_cast<const uint4*>(from);
    unsigned word[4] = {0, 0, 0, 0};
#pragma unroll
    for (int i = 0; i < 4; ++i)
        if (i < left) word[i] = from[i];
    return make_uint4(word[0], word[1], word[2], word[3]);
}

// Writes the 16-byte chunk q of a job's copy; element_bytes is 2 or 4. I is the index type: 32-bit division is a
// few instructions, 64-bit division a long software routine, and one is done per chunk.
template <typename I>
__device__ __forceinline__ void jg_pack_chunk(const jg_pack_job& job, I q, int element_bytes) {
    const I per_chunk = (I)(16 / element_bytes);
    const I chunks_per_column = (I)job.ld_dst / per_chunk;
    const I col = q / chunks_per_column;
    const I row0 = (q - col * chunks_per_column) * per_chunk;
    const long long offset = (long long)col * job.ld_src + row0;
    reinterpret_cast<uint4*>(job.dst)[q] =
        element_bytes == 2
            ? jg_pack_16bit(static_cast<const unsigned short*>(job.src) + offset, job.rows - (long long)row0, offset == 0)
            : jg_pack_32bit(static_cast<const unsigned*>(job.src) + offset, job.rows - (long long)row0);
}

// One thread per 16-byte chunk of the copies: the first job's chunks, then the second's. The same launch zeroes
// `zero_words` 32-bit words at `zero` (a split-K kernel's arrival counters, which must be zero when the GEMM that
// follows in the stream starts), which saves the stream a memset.
extern "C" __global__ void jg_pack(jg_pack_job first, jg_pack_job second, int element_bytes, unsigned* zero,
                                   int zero_words) {
    const long long per_chunk = 16 / element_bytes;
    const long long first_chunks = first.ld_dst / per_chunk * first.cols;
    const long long second_chunks = second.ld_dst / per_chunk * second.cols;
    const long long chunks = first_chunks + second_chunks;
    const long long start = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long q = start; q < zero_words; q += stride) zero[q] = 0u;
    const bool narrow = first_chunks < (1ll << 31) && second_chunks < (1ll << 31);
    for (long long q = start; q < chunks; q += stride) {
        if (q < first_chunks) {
            if (narrow) jg_pack_chunk<unsigned>(first, (unsigned)q, element_bytes);
            else jg_pack_chunk<long long>(first, q, element_bytes);
        } else {
            if (narrow) jg_pack_chunk<unsigned>(second, (unsigned)(q - first_chunks), element_bytes);
            else jg_pack_chunk<long long>(second, q - first_chunks, element_bytes);
        }
    }
}
