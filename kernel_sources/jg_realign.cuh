// jg_realign.cuh — the 16 bytes that start `shift` bytes into `lo` (0 to 15, a multiple of the element size) and
// run on into `hi`: the two aligned 16-byte vectors around a misaligned chunk. Reading those two vectors and
// shifting keeps every warp-wide load whole and contiguous, where reading a 2-byte aligned chunk word by word or
// element by element made each load touch several lines. Used by the pack (jg_pack.cuh).
#pragma once

__device__ __forceinline__ uint4 jg_realign(const uint4& lo, const uint4& hi, unsigned shift) {
    const unsigned w[8] = {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w};
    const unsigned word = shift >> 2, bits = (shift & 3) * 8;
    unsigned s[5];  // w[word .. word + 4], chosen with selects: a run-time index into w would put it in local memory
#pragma unroll
    for (int j = 0; j < 5; ++j) s[j] = word == 0 ? w[j] : word == 1 ? w[j + 1] : word == 2 ? w[j + 2] : w[j + 3];
    return make_uint4(__funnelshift_r(s[0], s[1], bits), __funnelshift_r(s[1], s[2], bits),
                      __funnelshift_r(s[2], s[3], bits), __funnelshift_r(s[3], s[4], bits));
}

// Whether the two aligned vectors around the chunk at element `offset` of an operand that starts at `base` and
// spans `extent` elements of `element_bytes` each lie inside it (no read may leave the operand), and the chunk's
// shift past the first of them.
__device__ __forceinline__ bool jg_realign_inside(const void* base, long long offset, long long extent,
                                                  int element_bytes, unsigned& shift) {
    shift = (unsigned)((reinterpret_cast<unsigned long long>(base) + (unsigned long long)offset * element_bytes) & 15);
    const long long first = offset - (long long)(shift / element_bytes);
    return first >= 0 && first + 32 / element_bytes <= extent;
}
