// jg_pack.cuh — copies operands into a workspace whose columns all start 128-byte aligned (the leading dimension
// rounded up to 128 bytes by the host, the padding zero-filled), so that the GEMM kernel that follows copies them with 16-byte
// cp.async instead of element by element. The Tensor Core family uses it for operands whose leading dimension or
// pointer is misaligned (an odd leading dimension in half precision): reading and writing the operand once costs
// far less than a main loop fed through registers. Sizes are run-time arguments, so one kernel serves any problem;
// it is compiled into the module of every kernel that packs, and one launch packs both operands.
#pragma once

#include "jg_realign.cuh"

// One operand's copy: dst = src, `rows` elements of each column, as chunks_per_column 16-byte chunks per column of dst
// (its leading dimension; past `rows` they are zero-filled), `chunks` of them in all (chunks = 0: nothing to copy).
// The operand spans `extent` elements from src (its last column ends there). The host works the counts out, so the
// kernel divides nothing but a chunk's index. Every field is 8 bytes, so the host's mirror of it
// (src/dispatch/loaded_kernel.cpp) has the same layout.
struct jg_pack_job {
    const void* src;
    void* dst;
    long long ld_src, rows, chunks_per_column, chunks, extent;
};

// The chunk at `from` element by element, `left` of its elements existing (zeros past them): the chunks that are not
// read as aligned vectors, a column's last (which `rows` ends inside) and the few at the operand's two ends, whose
// aligned vectors would reach outside it. No read leaves the operand.
__device__ __forceinline__ uint4 jg_pack_elements(const void* from, long long left, bool two_byte) {
    unsigned word[4] = {0, 0, 0, 0};
    if (two_byte) {
        const unsigned short* e = static_cast<const unsigned short*>(from);
#pragma unroll
        for (int i = 0; i < 8; ++i)
            if (i < left) word[i / 2] |= (unsigned)e[i] << (16 * (i % 2));
    } else {
        const unsigned* e = static_cast<const unsigned*>(from);
#pragma unroll
        for (int i = 0; i < 4; ++i)
            if (i < left) word[i] = e[i];
    }
    return make_uint4(word[0], word[1], word[2], word[3]);
}

// Where chunk q of a job's copy comes from: `from`, the chunk's first element, and `left`, its count of elements
// in the column (it is whole from per_chunk on). `vector`: the chunk is whole and the two aligned 16-byte vectors
// around it lie inside the operand (all but a column's last chunk and a few at the operand's two ends), so it is read
// as those vectors, `shift` bytes into the first. two_byte: 16-bit elements, else 32-bit. I is the index type:
// 32-bit division is a few instructions, 64-bit division a long software routine.
struct jg_pack_source {
    const unsigned char* from;
    long long left;
    unsigned shift;
    bool vector;
};

template <typename I>
__device__ __forceinline__ jg_pack_source jg_pack_locate(const jg_pack_job& job, I q, bool two_byte) {
    const int per_chunk = two_byte ? 8 : 4, element_bytes = two_byte ? 2 : 4;
    const I per_column = (I)job.chunks_per_column;
    const I col = q / per_column;
    const I row0 = (q - col * per_column) * per_chunk;
    const long long offset = (long long)col * job.ld_src + row0;
    jg_pack_source s;
    s.shift = 0;
    s.from = static_cast<const unsigned char*>(job.src) + offset * element_bytes;
    s.left = job.rows - (long long)row0;
    s.vector = s.left >= per_chunk && jg_realign_inside(job.src, offset, job.extent, element_bytes, s.shift);
    return s;
}

// Chunks per thread, a grid's width apart so that each round of a warp's reads and writes is contiguous, and threads
// per block; the host's launch (src/dispatch/loaded_kernel.cpp) uses the same two numbers.
constexpr int JG_PACK_CHUNKS_PER_THREAD = 4;
constexpr int JG_PACK_THREADS = 256;

__device__ __forceinline__ void jg_pack_stage16(void* dst, const void* src) {
    const unsigned to = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(to), "l"(src) : "memory");
}

// The chunks of both jobs, the first's then the second's. The same launch zeroes `zero_words` 32-bit words at
// `zero` (a split-K kernel's arrival counters, which must be zero when the GEMM that follows in the stream starts),
// which saves the stream a memset.
//
// A thread's aligned vectors travel to shared memory with cp.async, all of them before it waits for any; it then
// realigns them from there and writes the chunks. What is in flight is thus held in shared memory (32 KB a block)
// rather than registers: read into registers, the pack kept too few bytes in flight per SM to cover memory latency
// (4097^3 and 777 x 1111 x 3333 in bf16 took two waves of blocks at about 53 registers a thread).
//
// On sm_90 the GEMM that follows may be launched as this grid's programmatic dependent: every block lets it start
// at once, so its blocks take the SMs this grid's last blocks leave, and it waits (griddepcontrol.wait) for this
// grid to finish, its writes visible, before it reads what was packed.
typedef uint4 jg_pack_staging[JG_PACK_CHUNKS_PER_THREAD][2][JG_PACK_THREADS];  // each chunk's two aligned vectors

template <typename I>
__device__ __forceinline__ void jg_pack_chunks(const jg_pack_job& first, const jg_pack_job& second, long long base,
                                               long long width, bool two_byte, jg_pack_staging& staged) {
    constexpr int CHUNKS = JG_PACK_CHUNKS_PER_THREAD;
    const int t = threadIdx.x;
    const long long chunks = first.chunks + second.chunks;
    unsigned vectors = 0, shifts = 0;  // bit i: chunk i was staged; bits 4i..4i+3: its shift
#pragma unroll
    for (int i = 0; i < CHUNKS; ++i) {
        const long long q = base + i * width;
        if (q >= chunks) break;
        const jg_pack_source s = q < first.chunks ? jg_pack_locate<I>(first, (I)q, two_byte)
                                                  : jg_pack_locate<I>(second, (I)(q - first.chunks), two_byte);
        if (!s.vector) continue;
        const unsigned char* aligned = s.from - s.shift;
        jg_pack_stage16(&staged[i][0][t], aligned);
        if (s.shift != 0) jg_pack_stage16(&staged[i][1][t], aligned + 16);
        vectors |= 1u << i;
        shifts |= s.shift << (4 * i);
    }
    asm volatile("cp.async.commit_group;\n\tcp.async.wait_group 0;" ::: "memory");  // this thread's own copies
#pragma unroll
    for (int i = 0; i < CHUNKS; ++i) {
        const long long q = base + i * width;
        if (q >= chunks) break;
        uint4 chunk;
        if (vectors >> i & 1u) {
            const unsigned shift = shifts >> (4 * i) & 15u;
            chunk = shift == 0 ? staged[i][0][t] : jg_realign(staged[i][0][t], staged[i][1][t], shift);
        } else {
            const jg_pack_source s = q < first.chunks ? jg_pack_locate<I>(first, (I)q, two_byte)
                                                      : jg_pack_locate<I>(second, (I)(q - first.chunks), two_byte);
            chunk = jg_pack_elements(s.from, s.left, two_byte);
        }
        if (q < first.chunks) reinterpret_cast<uint4*>(first.dst)[q] = chunk;
        else reinterpret_cast<uint4*>(second.dst)[q - first.chunks] = chunk;
    }
}

extern "C" __global__ void __launch_bounds__(JG_PACK_THREADS)
    jg_pack(jg_pack_job first, jg_pack_job second, int element_bytes, unsigned* zero, int zero_words) {
#if __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
    const bool two_byte = element_bytes == 2;
    const long long chunks = first.chunks + second.chunks;
    const long long start = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    const long long width = (long long)gridDim.x * blockDim.x;
    for (long long q = start; q < zero_words; q += width) zero[q] = 0u;
    const bool narrow = first.chunks < (1ll << 31) && second.chunks < (1ll << 31);
    __shared__ jg_pack_staging staged;
    for (long long base = start; base < chunks; base += width * JG_PACK_CHUNKS_PER_THREAD) {
        if (narrow) jg_pack_chunks<unsigned>(first, second, base, width, two_byte, staged);
        else jg_pack_chunks<long long>(first, second, base, width, two_byte, staged);
    }
}
