// The mma.sync family's rules, names and launch.
#include "tuner/families/mma_sync/mma_sync_config.h"

#include <algorithm>
#include <utility>

#include "tuner/families/common/config_text.h"
#include "tuner/families/common/operand_packing.h"
#include "tuner/families/common/resource_limits.h"

namespace jitgemm {
namespace {

bool power_of_two_between(int x, int low, int high) { return x >= low && x <= high && (x & (x - 1)) == 0; }

// Whether kernel_sources/mma_sync/mma_sync.cuh's swizzle (tile_layout) lays out shared-tile rows of this many bytes: rows of a
// k-contiguous tile are BK deep and always qualify; rows that run along m or n are bm or bn elements long.
bool swizzle_takes_row(int bytes) { return bytes == 16 || bytes == 32 || bytes == 64 || bytes % 128 == 0; }

// 16-byte chunks of a rows x cols tile that each thread stages in registers when the operand is only 2-byte aligned.
int staged_chunks_per_thread(int rows, int cols, int element_bytes, int threads) {
    const int chunks = rows * cols * element_bytes / 16;
    return (chunks + threads - 1) / threads;
}

}  // namespace

bool is_tensor_core_problem(const Problem& p) {
    if (p.a_type != p.b_type) return false;
    if (p.a_type == DType::F32) return p.compute == ComputeType::TF32 && p.c_type == DType::F32;
    return true;
}

bool prefers_bulk_copies(const Problem& p, const DeviceInfo& device) {
    return device.cc_major >= 9 && p.a_type != DType::F32;
}

int MmaSyncConfig::element_bytes(const Problem& p) { return p.a_type == DType::F32 ? 4 : 2; }

int MmaSyncConfig::shared_bytes(const Problem& p) const {
    return stages * (bm + bn) * bk * element_bytes(p) + (bulk ? stages * 8 : 0);  // bulk: a barrier per stage
}

int MmaSyncConfig::estimated_registers(const Problem& problem) const {
    const Problem p = kernel_problem(problem);
    if (wm < 1 || wn < 1) return 0;
    const int warp_m = bm / wm, warp_n = bn / wn;
    const int fragments = (warp_n / 16) * 4 + (warp_m / 8) * 2;
    int staged = 0;
    if (p.align_a < 4) staged += 4 * staged_chunks_per_thread(bm, bk, element_bytes(p), threads());
    if (p.align_b < 4) staged += 4 * staged_chunks_per_thread(bn, bk, element_bytes(p), threads());
    return warp_m * warp_n / 32 + 2 * fragments + staged + 40;  // fragments are double-buffered
}

std::optional<Rejection> MmaSyncConfig::validate(const Problem& p, const DeviceInfo& device) const {
    if (!is_tensor_core_problem(p))
        return Rejection{PruneRule::Dtype, "the Tensor Core family takes fp16 or bf16 inputs, or fp32 inputs with "
                                           "compute tf32"};
    if (device.cc_major < 8)
        return Rejection{PruneRule::Dtype, "mma.sync with these types needs compute capability 8.0 or later"};
    const bool tf32 = p.a_type == DType::F32;
    if (bm < 32 || bm > 256 || bm % 16 != 0 || bn < 32 || bn > 256 || bn % 16 != 0)
        return Rejection{PruneRule::Knobs, "bm and bn must be multiples of 16 from 32 to 256"};
    if (!power_of_two_between(bk, 16, tf32 ? 32 : 128))
        return Rejection{PruneRule::Knobs, tf32 ? "bk must be 16 or 32 for TF32" : "bk must be 16, 32, 64 or 128"};
    if (!power_of_two_between(wm, 1, 8) || !power_of_two_between(wn, 1, 8))
        return Rejection{PruneRule::Knobs, "wm and wn must be 1, 2, 4 or 8"};
    if (bm % (wm * 16) != 0 || bn % (wn * 16) != 0)
        return Rejection{PruneRule::Knobs, "each warp's tile must be a multiple of 16 in m and n"};
    for (const auto& [operand, extent] : {std::pair{'A', bm}, {'B', bn}}) {
        // k-contiguous (mma_sync.cuh's A_KCONTIG, B_KCONTIG): the shared tile's rows are bk deep, else m or n long.
        if (!k_contiguous(p, operand == 'A' ? 0 : 1) && !swizzle_takes_row(extent * element_bytes(p)))
            return Rejection{PruneRule::Knobs,
                             std::string(operand == 'A' ? "bm = " : "bn = ") + std::to_string(extent) + " makes rows of " +
                                 std::to_string(extent * element_bytes(p)) + " bytes in the shared tile of " +
                                 operand + ", which this problem stores " + (operand == 'A' ? "m" : "n") +
                                 "-contiguous: the swizzle takes rows of 16, 32 or 64 bytes or whole 128-byte "
                                 "lines (a multiple of " + std::to_string(128 / element_bytes(p)) +
                                 " elements), and any multiple of 16 only where the operand is k-contiguous"};
    }
    if (stages < 2 || stages > 5) return Rejection{PruneRule::Knobs, "stages must be 2 to 5"};
    if (group < 1 || group > 64) return Rejection{PruneRule::Knobs, "group must be 1..64"};
    if (pack < 0 || pack > 3) return Rejection{PruneRule::Knobs, "pack is 0 (none), 1 (A), 2 (B) or 3 (both)"};
    if (splits < 1 || splits > 16) return Rejection{PruneRule::Knobs, "splits must be 1 to 16"};
    if (splits > k_tiles(p))
        return Rejection{PruneRule::Knobs, "K has fewer tiles of bk than the " + std::to_string(splits) +
                                               " splits, which would leave one with none"};
    if (stream_blocks < 0) return Rejection{PruneRule::Knobs, "stream_blocks must be 0 (off) or more"};
    if (stream_blocks > 0 && splits != 1)
        return Rejection{PruneRule::Knobs, "stream-K and split-K exclude each other (splits must be 1)"};
    if (bulk) {
        if (device.cc_major < 9)
            return Rejection{PruneRule::Knobs, "bulk copies (_bulk) need compute capability 9.0 or later"};
        if (tf32) return Rejection{PruneRule::Knobs, "bulk copies (_bulk) take fp16 or bf16 inputs"};
        if (pack != 3)
            return Rejection{PruneRule::Knobs, "bulk copies (_bulk) move tiles of packed copies: pack must be 3"};
        if (stream_blocks > 0) return Rejection{PruneRule::Knobs, "bulk copies (_bulk) exclude stream-K"};
    }
    if (p.batch > 1 && (splits > 1 || stream_blocks > 0 || pack != 0))
        return Rejection{PruneRule::Batch, "a batched problem's GEMMs neither split K (splits 1, no stream-K) nor "
                                           "pack operands (pack 0): one block computes each tile of each GEMM"};
    if (p.runtime_dim != 0 && (stream_blocks > 0 || bulk || pack != 0))
        return Rejection{PruneRule::RuntimeShape, "a run-time-shape variant takes neither stream-K nor packed operands "
                                                  "(pack 0, no bulk copies): their runs of k tiles and copies are laid "
                                                  "out for one problem's sizes, and the variant learns m or n only at "
                                                  "run time (split K is laid out at run time: it may)"};
    if (stream_blocks > tiles(p) * k_tiles(p))
        return Rejection{PruneRule::Knobs, "the problem has fewer k tiles in all than the " +
                                               std::to_string(stream_blocks) +
                                               " stream-K blocks, which would leave one with none"};
    return check_resources(device, threads(), estimated_registers(p), shared_bytes(p), true);
}

KnobDefines MmaSyncConfig::defines() const {
    return {{"MMA_SYNC_BM", bm},         {"MMA_SYNC_BN", bn},       {"MMA_SYNC_BK", bk},         {"MMA_SYNC_WM", wm},
            {"MMA_SYNC_WN", wn},         {"MMA_SYNC_STAGES", stages}, {"MMA_SYNC_GROUP", group}, {"MMA_SYNC_SPLITK", splits},
            {"MMA_SYNC_STREAMK", stream_blocks}, {"MMA_SYNC_BULK", bulk ? 1 : 0}};
}

std::int64_t MmaSyncConfig::k_tiles_per_split(const Problem& p) const {
    return (k_tiles(p) + splits - 1) / splits;
}

std::int64_t MmaSyncConfig::tiles(const Problem& p) const { return tiles_of_c(p, bm, bn); }

std::int64_t MmaSyncConfig::blocks(const Problem& p) const {
    return stream_blocks > 0 ? stream_blocks : tiles(p) * splits;
}

std::int64_t MmaSyncConfig::k_tiles_per_block(const Problem& p) const {
    if (stream_blocks == 0) return k_tiles_per_split(p);
    return (tiles(p) * k_tiles(p) + stream_blocks - 1) / stream_blocks;
}

std::int64_t MmaSyncConfig::stream_segments(const Problem& p) const {
    return stream_k_segments(tiles(p), k_tiles(p), std::max<std::int64_t>(stream_blocks, 1));
}

// The tiled copy of a packed operand for bulk copies (kernel_sources/mma_sync/bulk_pack.cuh): whole tiles of (m or n) x
// bk, so its columns and their length are padded to whole tiles along each (zeros past the operand).
void MmaSyncConfig::tile_by_tile(const Problem& p, int operand, OperandPack& op) const {
    const bool k_rows = k_contiguous(p, operand);  // each column (one m or n) is contiguous along k
    const std::int64_t mn_tile = operand == 0 ? bm : bn;
    const std::int64_t along_rows = k_rows ? bk : mn_tile, along_cols = k_rows ? mn_tile : bk;
    op.ld_to = (op.rows + along_rows - 1) / along_rows * along_rows;
    op.cols_to = (op.cols + along_cols - 1) / along_cols * along_cols;
    op.tiled = true;
}

Problem MmaSyncConfig::kernel_problem(const Problem& problem) const {
    return packed_problem(problem, pack, element_bytes(problem));
}

LaunchDescription MmaSyncConfig::launch(const Problem& p) const {
    // The splits of a tile are consecutive blocks; stream-K blocks each take a run of the k tiles of all tiles.
    LaunchDescription g = tile_grid(blocks(p), 1, threads(), shared_bytes(p), p.batch);
    if (shares_tiles()) {
        // As kernel_sources/mma_sync/mma_sync.cuh lays it out: a zeroed arrival counter per tile (padded to 256 bytes), then the
        // fp32 partial sums, a bm x bn tile of them per slot: one slot per split of every tile, or per tile that a
        // stream-K block's run reaches into (stream_segments of them per block).
        g.partial_sums_zeroed_bytes = arrival_counter_bytes(tiles(p));
        const std::int64_t slots = stream_blocks > 0 ? stream_blocks * stream_segments(p) : tiles(p) * splits;
        g.partial_sums_bytes = g.partial_sums_zeroed_bytes + slots * std::int64_t{bm} * bn * 4;
    }
    for (int operand = 0; operand < 2; ++operand) {
        if (!(pack & (1 << operand))) continue;
        OperandPack op = column_pack(p, operand, element_bytes(p));
        if (bulk) tile_by_tile(p, operand, op);
        g.packs.push_back(op);
    }
    return g;
}

std::string MmaSyncConfig::to_string() const {
    using config_text::format_numbers;
    return "mma_sync_" + format_numbers("", {bm, bn, bk}) + "_" + format_numbers("w", {wm, wn}) + "_" +
           format_numbers("s", {stages}) + "_" + format_numbers("g", {group}) +
           (splits != 1 ? "_" + format_numbers("k", {splits}) : "") +
           (stream_blocks != 0 ? "_" + format_numbers("sk", {stream_blocks}) : "") +
           (pack != 0 ? "_" + format_numbers("p", {pack}) : "") + (bulk ? "_bulk" : "");
}

std::optional<MmaSyncConfig> MmaSyncConfig::parse(std::string_view name) {
    using config_text::parse_numbers;
    const auto parsed = config_text::family_fields(name, kName);
    if (!parsed || parsed->size() < 4 || parsed->size() > 8) return std::nullopt;
    const std::vector<std::string_view>& fields = *parsed;
    const auto block = parse_numbers(fields[0], "", 3);
    const auto warps = parse_numbers(fields[1], "w", 2);
    const auto stages = parse_numbers(fields[2], "s", 1);
    const auto group = parse_numbers(fields[3], "g", 1);
    if (!block || !warps || !stages || !group) return std::nullopt;
    MmaSyncConfig c;
    // Optional fields, in this order and each written only when it differs from the default: "_k<splits>" (not 1),
    // "_sk<stream blocks>" (not 0), "_p<mask>" (not 0), "_bulk". Spelling a default out would give one kernel two
    // names, so it is refused.
    std::size_t next = 4;
    if (next < fields.size() && !fields[next].empty() && fields[next][0] == 'k') {
        const auto splits = parse_numbers(fields[next++], "k", 1);
        if (!splits || (*splits)[0] == 1) return std::nullopt;
        c.splits = (*splits)[0];
    }
    if (next < fields.size() && fields[next].substr(0, 2) == "sk") {
        const auto stream = parse_numbers(fields[next++], "sk", 1);
        if (!stream || (*stream)[0] == 0) return std::nullopt;
        c.stream_blocks = (*stream)[0];
    }
    if (next < fields.size() && fields[next] != "bulk") {
        const auto pack = parse_numbers(fields[next++], "p", 1);
        if (!pack) return std::nullopt;
        c.pack = (*pack)[0];
    }
    if (next < fields.size() && fields[next] == "bulk") {
        c.bulk = true;
        ++next;
    }
    if (next != fields.size()) return std::nullopt;
    c.bm = (*block)[0];
    c.bn = (*block)[1];
    c.bk = (*block)[2];
    c.wm = (*warps)[0];
    c.wn = (*warps)[1];
    c.stages = (*stages)[0];
    c.group = (*group)[0];
    return c;
}

}  // namespace jitgemm
