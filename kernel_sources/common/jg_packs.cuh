// jg_packs.cuh — which operand-copy kernel a module holds: kernel_program sets JG_PACKS from the launch's packs
// (src/runtime/launch/launch_description.h's PackKernel), so that a module compiles only the copy kernel it launches.
// 0 none, 1 jg_pack (common/jg_pack.cuh), 2 jg_pack_transpose (common/jg_pack_transpose.cuh), 3 jg_pack_tiles
// (mma_sync/bulk_pack.cuh). A source compiled without it (a test's) holds jg_pack.
#pragma once

#ifndef JG_PACKS
#define JG_PACKS 1
#endif
