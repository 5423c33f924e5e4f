// jg_pack.cuh — copies operands into a workspace whose columns all start 128-byte aligned (the leading dimension
// rounded up to 128 bytes by the host, the padding zero-filled), so that the GEMM kernel that follows copies them with 16-byte
// cp.async instead of element by element. The Tensor Core family uses it for operands whose leading dimension or
// pointer is misaligned (an odd leading dimension in half precision): reading and writing the operand once costs
// far less than a main loop fed through registers. Sizes are run-time arguments, so one kernel serves any problem;
// it is compiled into the module of every kernel that packs, and one launch packs both operands.
#pragma once

#include "common/jg_packs.cuh"

// One operand's copy: dst = src, `rows` elements of each of `cols` columns, as chunks_per_column 16-byte chunks per
// column of dst (its leading dimension; past `rows` they are zero-filled), `chunks` of them in all (chunks = 0:
// nothing to copy; mma_sync/bulk_pack.cuh lays the same chunks out tile by tile).
// The operand spans `extent` elements from src (its last column ends there). The host works the counts out, so the
// kernel divides nothing but a chunk's index. Every field is 8 bytes, so the host's mirror of it
// (src/runtime/launch/loaded_kernel.cpp) has the same layout.
struct jg_pack_job {
    const void* src;
    void* dst;
    long long ld_src, rows, cols, chunks_per_column, chunks, extent;
};

// The 16 bytes at `from`, read as the one or two aligned 16-byte vectors that hold them and shifted into place: two
// loads whose 32 lanes each cover 512 contiguous bytes, where word-by-word reads of misaligned chunks made every
// warp-wide load touch four lines, and L2 served each line several times over. The caller sees to it that both
// vectors lie inside the operand.
__device__ __forceinline__ uint4 jg_pack_realigned(const void* from) {
    const unsigned long long address = reinterpret_cast<unsigned long long>(from);
    const unsigned shift = (unsigned)(address & 15);  // bytes past the aligned vector: a multiple of the element size
    const uint4* vectors = reinterpret_cast<const uint4*>(address - shift);
    const uint4 lo = vectors[0];
    if (shift == 0) return lo;
    const uint4 hi = vectors[1];
    const unsigned w[8] = {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w};
    const unsigned word = shift >> 2, bits = (shift & 3) * 8;
    unsigned s[5];  // w[word .. word + 4], chosen with selects: a run-time index into w would put it in local memory
#pragma unroll
    for (int j = 0; j < 5; ++j) s[j] = word == 0 ? w[j] : word == 1 ? w[j + 1] : word == 2 ? w[j + 2] : w[j + 3];
    return make_uint4(__funnelshift_r(s[0], s[1], bits), __funnelshift_r(s[1], s[2], bits),
                      __funnelshift_r(s[2], s[3], bits), __funnelshift_r(s[3], s[4], bits));
}

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

// The chunk whose first element is row0 of column col of a job's operand (zeros past its rows); two_byte: 16-bit
// elements, else 32-bit.
__device__ __forceinline__ uint4 jg_pack_read_at(const jg_pack_job& job, long long col, long long row0, bool two_byte) {
    const int per_chunk = two_byte ? 8 : 4, element_bytes = two_byte ? 2 : 4;
    const long long offset = col * job.ld_src + row0;
    const long long left = job.rows - row0;
    // A whole chunk whose aligned vectors stay inside the operand (all but a few at its two ends): two vector loads.
    const long long aligned_start = offset - (long long)((reinterpret_cast<unsigned long long>(job.src) +
                                                          (unsigned long long)offset * element_bytes) & 15) / element_bytes;
    if (left >= per_chunk && aligned_start >= 0 && aligned_start + 32 / element_bytes <= job.extent)
        return jg_pack_realigned(static_cast<const unsigned char*>(job.src) + offset * element_bytes);
    return two_byte ? jg_pack_16bit(static_cast<const unsigned short*>(job.src) + offset, left, offset == 0)
                    : jg_pack_32bit(static_cast<const unsigned*>(job.src) + offset, left);
}

// Chunk q of a job's copy in the column layout. I is the index type: 32-bit division is a few instructions, 64-bit
// division a long software routine.
template <typename I>
__device__ __forceinline__ uint4 jg_pack_read(const jg_pack_job& job, I q, bool two_byte) {
    const I per_column = (I)job.chunks_per_column;
    const I col = q / per_column;
    return jg_pack_read_at(job, (long long)col, (long long)(q - col * per_column) * (two_byte ? 8 : 4), two_byte);
}

template <typename I>
__device__ __forceinline__ uint4 jg_pack_read(const jg_pack_job& first, const jg_pack_job& second, long long q,
                                              bool two_byte) {
    return q < first.chunks ? jg_pack_read<I>(first, (I)q, two_byte)
                            : jg_pack_read<I>(second, (I)(q - first.chunks), two_byte);
}

// Chunks per thread: their reads are all issued before the first write, so each thread keeps several in flight.
constexpr int JG_PACK_CHUNKS_PER_THREAD = 4;

// What every pack launch does, whatever the layout of its copies: on sm_90 lets its programmatic dependent start
// (see jg_pack), zeroes `zero_words` words at `zero`, then copies the `chunks` 16-byte chunks of two copies — the
// first's `first_chunks` to first_dst, then the second's to second_dst, in the order of the copies' chunks —
// JG_PACK_CHUNKS_PER_THREAD per thread and round, a grid's width apart so that each round of a warp's reads and writes
// is contiguous. read(q) gives chunk q of the two.
template <typename Read>
__device__ __forceinline__ void jg_pack_rounds(void* first_dst, long long first_chunks, void* second_dst,
                                               long long chunks, unsigned* zero, int zero_words, Read read) {
#if __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
    const long long start = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    const long long width = (long long)gridDim.x * blockDim.x;
    for (long long q = start; q < zero_words; q += width) zero[q] = 0u;
    for (long long base = start; base < chunks; base += width * JG_PACK_CHUNKS_PER_THREAD) {
        uint4 chunk[JG_PACK_CHUNKS_PER_THREAD];
#pragma unroll
        for (int i = 0; i < JG_PACK_CHUNKS_PER_THREAD; ++i) {
            const long long q = base + i * width;
            if (q < chunks) chunk[i] = read(q);
        }
#pragma unroll
        for (int i = 0; i < JG_PACK_CHUNKS_PER_THREAD; ++i) {
            const long long q = base + i * width;
            if (q < first_chunks) reinterpret_cast<uint4*>(first_dst)[q] = chunk[i];
            else if (q < chunks) reinterpret_cast<uint4*>(second_dst)[q - first_chunks] = chunk[i];
        }
    }
}

// The chunks of both jobs, the first's then the second's, in the column layout (jg_pack_rounds). The same launch
// zeroes `zero_words` 32-bit words at `zero` (a split-K kernel's arrival counters, which must be zero when the GEMM
// that follows in the stream starts), which saves the stream a memset.
//
// On sm_90 the GEMM that follows may be launched as this grid's programmatic dependent: every block lets it start
// at once, so its blocks take the SMs this grid's last blocks leave, and it waits (griddepcontrol.wait) for this
// grid to finish, its writes visible, before it reads what was packed.
//
// The host launches at most one wave of blocks (src/runtime/launch/loaded_kernel.cpp), which loop over the chunks: a last,
// partial wave would leave most SMs idle while it ran. At most 40 registers, so that an SM holds six blocks of 256
// threads and each thread makes few rounds.
#if JG_PACKS == 1
extern "C" __global__ void __launch_bounds__(256, 6)
    jg_pack(jg_pack_job first, jg_pack_job second, int element_bytes, unsigned* zero, int zero_words) {
    const bool two_byte = element_bytes == 2;
    const bool narrow = first.chunks < (1ll << 31) && second.chunks < (1ll << 31);
    jg_pack_rounds(first.dst, first.chunks, second.dst, first.chunks + second.chunks, zero, zero_words,
                   [&](long long q) {
                       return narrow ? jg_pack_read<unsigned>(first, second, q, two_byte)
                                     : jg_pack_read<long long>(first, second, q, two_byte);
                   });
}
#endif
