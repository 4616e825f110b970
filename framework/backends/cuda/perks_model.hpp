// The concurrency model of a PERKS stencil launch (issue 6; Zhang et al., section IV): how many blocks per
// SM, how much shared memory is left for the cache, and what speed-up that predicts. Plain C++ (no CUDA),
// so the decisions are unit-tested on any machine (tests/unit/test_perks_model.cpp).
//
//  * Little's law: to keep memory busy an SM needs   bandwidth x latency / SMs   bytes in flight. A streaming
//    tile keeps (stages - 1) planes of loads in flight per block. The model takes the fewest blocks per SM
//    that reach that (more blocks only take shared memory away from the cache), within what the occupancy
//    (registers, threads) allows; when even the most blocks fall short it takes the most.
//  * Cache: the shared memory of an SM divided among those blocks, less each block's ring of stages, in
//    whole output planes of the tile, at most the planes the block owns. A deck override replaces the
//    automatic size (never above what fits).
//  * Prediction: a cached cell still loads its halo ring and stores its tile-boundary ring (other blocks
//    read them), so the traffic of a cached fraction f falls to f x ring (ring = the tile's boundary share).
//    A per-sweep kernel moves all B bytes of a sweep at the full bandwidth W and pays one kernel boundary;
//    the persistent sweep moves B (1 - f (1 - ring)) at rate x W, where rate = min(1, in flight / needed) is
//    the share of the bandwidth the chosen occupancy can draw, and pays one device-wide barrier (the blocks
//    fill the boundary ghosts of what they wrote; no face phase) and one pipeline refill (a latency):
//        speed-up = (B / W + t_boundary) / (B (1 - f (1 - ring)) / (rate W) + t_barrier + latency).
//    Without B (bytes_per_sweep = 0) the traffic ratio alone: rate / (1 - f (1 - ring)).
#pragma once

#include <algorithm>
#include <cmath>
#include <string>

namespace perksolve::cuda_detail {

// Device-wide barriers per sweep in every PERKS kernel (perks_sweep_common.cuh).
constexpr double kPerksBarriersPerSweep = 1.0;

struct PerksDeviceModel {
  int sms = 1;
  long smem_per_sm = 0;     // shared memory per SM, bytes
  long smem_per_block = 0;  // the opt-in maximum of one block, bytes
  double bandwidth = 0.0;   // memory bandwidth, bytes / s
  long l2_bytes = 0;        // L2 cache size (0: unknown)
  // Loaded memory latency: a constant of the model, not measured by this project.
  double latency = 1e-6;
  // A device-wide barrier (grid.sync over one block per SM) and a kernel boundary inside a CUDA graph:
  // measured on an H100 by benchmarks/gpu/program_bench (0.91 and 1.00 us; docs/perf/perks.md).
  double barrier = 0.91e-6;
  double kernel_boundary = 1.0e-6;
  // Resident kernel: one plane step of a block (block barrier, a tile plane from shared memory, in-place
  // store). A constant of the model, calibrated on an H100 with perks_bench (docs/perf/perks.md).
  double resident_plane_step = 0.12e-6;
};

struct PerksTileModel {
  long ring_bytes = 0;      // shared memory of one block besides the cache (stages, static arrays)
  long inflight_bytes = 0;  // bytes of loads one block keeps in flight ((stages - 1) planes)
  long plane_bytes = 0;     // one cached output plane of the tile
  long plane_cells = 0;
  double ring_share = 0.0;  // share of a cached plane's traffic that remains (halo loads + boundary stores)
  int max_blocks_per_sm = 1;  // occupancy limit without the cache (registers, threads)
};

struct PerksDomainModel {
  double cells = 0.0;
  double bytes_per_sweep = 0.0;  // what a per-sweep kernel moves (2 or 3 values per cell); 0: traffic ratio only
  long planes_per_block = 0;  // output planes a block owns (the most a cache can usefully hold)
  int blocks = 1;             // blocks launched in all (at most sms x blocks_per_sm; the launcher passes them)
};

struct PerksPlan {
  int blocks_per_sm = 1;
  long cache_bytes = 0;  // per block
  int cache_planes = 0;  // per block
  double inflight_per_sm = 0.0, needed_per_sm = 0.0;
  double cached_fraction = 0.0;
  double predicted_speedup = 1.0;
};

// Bytes in flight per SM that Little's law asks for.
inline double perks_needed_per_sm(const PerksDeviceModel& dev) {
  return dev.bandwidth * dev.latency / std::max(1, dev.sms);
}

// Whether the per-sweep streaming kernels take their "fast memory" large tiles (stencil_kernels.cuh,
// LargeFastMemTuneSel): bulk (TMA) row copies with a 4-stage ring, the variants that won on an H200, whose SMs
// must keep ~37 KB in flight (4.8 TB/s over 132 SMs). On an H100 (~25 KB per SM) the scalar-load tiles were
// faster (docs/perf/two-load-stencils.md, rounds 3-4 and 6-7). The threshold lies between the two.
constexpr double kFastMemoryInflightPerSm = 31.0 * 1024.0;
inline bool perks_fast_memory(const PerksDeviceModel& dev) {
  return dev.bandwidth > 0 && perks_needed_per_sm(dev) > kFastMemoryInflightPerSm;
}

// The fewest blocks per SM that keep the needed bytes in flight, within the occupancy (the most if none do).
// It does not depend on the domain or the cache, so a launcher can split its work before planning the cache.
inline int perks_blocks_per_sm(const PerksDeviceModel& dev, const PerksTileModel& tile) {
  const double needed = perks_needed_per_sm(dev);
  const int max_b = std::max(1, tile.max_blocks_per_sm);
  for (int b = 1; b < max_b; ++b)
    if (static_cast<double>(b) * static_cast<double>(tile.inflight_bytes) >= needed) return b;
  return max_b;
}

// `cache_override`: -1 automatic, otherwise at most this many cache bytes per block.
inline PerksPlan plan_perks(const PerksDeviceModel& dev, const PerksTileModel& tile, const PerksDomainModel& dom,
                            long cache_override = -1) {
  PerksPlan p;
  p.needed_per_sm = perks_needed_per_sm(dev);
  p.blocks_per_sm = perks_blocks_per_sm(dev, tile);
  p.inflight_per_sm = static_cast<double>(p.blocks_per_sm) * static_cast<double>(tile.inflight_bytes);
  long spare = std::min(dev.smem_per_sm / p.blocks_per_sm, dev.smem_per_block) - tile.ring_bytes;
  if (cache_override >= 0) spare = std::min(spare, cache_override);
  spare = std::max(0L, spare);
  const long planes = tile.plane_bytes > 0 ? std::clamp(spare / tile.plane_bytes, 0L, dom.planes_per_block) : 0;
  p.cache_planes = static_cast<int>(planes);
  p.cache_bytes = planes * tile.plane_bytes;
  p.cached_fraction =
      dom.cells > 0 ? std::min(1.0, static_cast<double>(dom.blocks) * static_cast<double>(planes) *
                                        static_cast<double>(tile.plane_cells) / dom.cells)
                    : 0.0;
  const double rate = p.needed_per_sm > 0 ? std::min(1.0, p.inflight_per_sm / p.needed_per_sm) : 1.0;
  const double left = 1.0 - p.cached_fraction * (1.0 - std::clamp(tile.ring_share, 0.0, 1.0));
  if (dom.bytes_per_sweep > 0 && dev.bandwidth > 0) {
    const double per_sweep = dom.bytes_per_sweep / dev.bandwidth + dev.kernel_boundary;
    const double persistent =
        dom.bytes_per_sweep * left / (rate * dev.bandwidth) + kPerksBarriersPerSweep * dev.barrier + dev.latency;
    p.predicted_speedup = per_sweep / persistent;
  } else {
    p.predicted_speedup = rate / left;
  }
  return p;
}

// The pipelined kernel (perks_pipelined.cuh): the per-sweep kernel's pipeline, nothing cached (f = 0). It
// moves the per-sweep kernel's bytes at its rate and trades a kernel boundary for `barriers` device-wide barriers
// and a pipeline refill per sweep:  speed-up = (B / W + t_boundary) / (B / W + barriers t_barrier + latency).
// barriers: kPerksBarriersPerSweep, plus one where the kernel fills the faces in a phase of their own
// (pipelined_face_phase). The fill itself is left out on both sides (the per-sweep path's boundary kernel).
inline PerksPlan plan_perks_pipelined(const PerksDeviceModel& dev, const PerksDomainModel& dom,
                                      double barriers = kPerksBarriersPerSweep) {
  PerksPlan p;
  p.cached_fraction = 0.0;
  if (dom.bytes_per_sweep > 0 && dev.bandwidth > 0) {
    const double stream = dom.bytes_per_sweep / dev.bandwidth;
    p.predicted_speedup = (stream + dev.kernel_boundary) / (stream + barriers * dev.barrier + dev.latency);
  }
  return p;
}

// The resident kernel (perks_resident.cuh): the whole domain in shared memory, one brick (a tile x a chunk of
// planes, with a halo of R) per block and one block per SM. The domain fits when the chunk that spreads the
// planes over the blocks left per tile column fits one block's shared memory (or the deck's cap on it).
// Predicted sweep: one device-wide barrier, one latency for the halo loads issued together, and one plane
// step per brick plane; against the per-sweep kernel's B / W + a kernel boundary.
struct PerksResidentTile {
  long plane_bytes = 0;  // one brick plane with its halo
  long owned_plane_bytes = 0;  // per owned plane besides the brick (Jacobi with b on chip: b of the plane)
  long fixed_bytes = 0;  // shared memory besides the brick (b ring, static arrays)
  int halo_planes = 0;   // 2 R
  long plane_cells = 0;  // owned cells of a plane
};
struct PerksResidentPlan {
  bool fits = false;
  int chunk = 0;        // planes per brick
  long items = 0;       // bricks = blocks
  long smem_bytes = 0;  // per block, fixed part included
  double predicted_speedup = 0.0;
};
inline PerksResidentPlan plan_perks_resident(const PerksDeviceModel& dev, const PerksResidentTile& tile,
                                             const PerksDomainModel& dom, long tiles, long planes, long max_blocks,
                                             long cache_override = -1) {
  PerksResidentPlan p;
  if (tiles <= 0 || planes <= 0 || max_blocks < tiles || cache_override == 0) return p;
  const long q = std::min(planes, max_blocks / tiles);
  const long chunk = (planes + q - 1) / q;
  p.chunk = static_cast<int>(chunk);
  p.items = tiles * ((planes + chunk - 1) / chunk);
  p.smem_bytes = (chunk + tile.halo_planes) * tile.plane_bytes + chunk * tile.owned_plane_bytes + tile.fixed_bytes;
  long limit = dev.smem_per_block;
  if (cache_override > 0) limit = std::min(limit, cache_override + tile.fixed_bytes);
  p.fits = p.smem_bytes <= limit;
  if (dom.bytes_per_sweep > 0 && dev.bandwidth > 0) {
    const double per_sweep = dom.bytes_per_sweep / dev.bandwidth + dev.kernel_boundary;
    const double resident = kPerksBarriersPerSweep * dev.barrier + dev.latency +
                            static_cast<double>(chunk + tile.halo_planes) * dev.resident_plane_step;
    p.predicted_speedup = per_sweep / resident;
  }
  return p;
}

// The shared memory (static part included) that each of `blocks_per_sm` co-resident blocks may take: its share of the
// SM's, less the 1 KB the runtime reserves per block, and never above the opt-in maximum of one block.
inline constexpr long kSmemReservedPerBlock = 1024;
inline long smem_per_block_share(long smem_per_sm, long smem_optin, long blocks_per_sm) {
  return std::min(smem_optin, smem_per_sm / std::max(1L, blocks_per_sm) - kSmemReservedPerBlock);
}

// Whether the resident kernel (perks_resident.cuh) runs two blocks of 256 threads per SM, each with half of the SM's
// shared memory and a tile half as large, before one block of 512 threads with all of it: the 2D apply sweeps, the 2D
// fp32 Jacobi sweeps other than radius 5 (whose tile of one column per thread would be 256 wide), the 2D fp64 Jacobi
// sweeps of 2d13pt and 2d17pt, and the fp64 3D apply sweeps of the stars. One block's block barriers, halo loads and
// waits for its neighbours then overlap with the other block's plane loop. H200, small domains, two runs each way
// (benchmarks/results/gpu-h200-2026-11-30-split-halo/run2, both tiles forced for every shape): 2D apply 1-40 % faster
// per case (fp64 2d13pt 1.33 -> 1.59, 2d17pt 1.60 -> 1.87; fp32 2ds25pt 1.88 -> 2.45), 2D fp32 Jacobi 2-16 % (2d17pt
// 2.05 -> 2.37); 2D fp64 Jacobi up to 16 % slower (2d25pt 1.57 -> 1.33), 3D slower in Jacobi (3d27pt fp64 1.71 ->
// 1.45) and mixed in apply (fp32 3d7pt 2.17 -> 1.24 at 175^3, where its chunks grew to 44 planes).
// In 3D the fp64 apply sweeps of the stars (3d7pt, 3d13pt) gained at the same side in that run (126^3: 3d7pt 8.4-8.7 ->
// 7.9-8.0 us per sweep, 3d13pt 15.9-16.3 -> 15.2-15.3), on a 32 x 16 tile; 3d17pt, 3d27pt and poisson did not. With
// the rule (benchmarks/results/gpu-h200-2026-11-30-3d-two-blocks/run1, against one block): 3d7pt 8.2-8.4 -> 7.9-8.0 us,
// 3d13pt 16.0-16.2 -> 15.6-15.9.
// The 2D fp64 Jacobi sweeps of the stars of radius 3-4 (2d13pt, 2d17pt) gained at the same side too (run 2, 1013^2:
// 11.7 -> 10.7-11.4 us per sweep, 14.5-14.7 -> 14.0-14.7), where the other fp64 Jacobi sweeps' small side grew; with
// the rule (gpu-h200-2026-11-30-3d-two-blocks/run2, five timings each against one block): 11.1-11.5 -> 10.6-10.9,
// 14.1-15.2 -> 13.7-14.1.
constexpr bool resident_two_blocks_per_sm(int dim, bool star, int radius, bool jacobi, bool fp32) {
  if (dim == 3) return star && !jacobi && !fp32;
  if (!jacobi) return true;
  return fp32 ? radius != 5 : star && (radius == 3 || radius == 4);
}

// The share of a cached tile plane's traffic that remains with caching, over the 2 transfers per cell of a
// per-sweep kernel: the boundary ring of width (rx, ry) that is stored for the neighbours, and the halo of
// width (hx, hy) that is loaded (hx is the sector-aligned load halo), for a bx x by tile plane.
inline double tile_ring_share(int bx, int by, int rx, int ry, int hx, int hy) {
  const double cells = static_cast<double>(bx) * by;
  const double interior = static_cast<double>(std::max(0, bx - 2 * rx)) * std::max(0, by - 2 * ry);
  const double halo = static_cast<double>(bx + 2 * hx) * (by + 2 * hy) - cells;
  return ((cells - interior) + halo) / (2.0 * cells);
}

// Whether the persistent CSR CG's merge-path walks (persistent_cg.cu) lose to the operation-by-operation CG.
// Measured on the H200 (docs/perf/persistent-cg.md; cg_bench): where the matrix and the four vectors fit in L2
// they are 5-10x faster than it (one launch, the vectors and often the matrix on chip); on matrices of 3-12x the
// L2, 0.6-0.8x of it (the in-kernel SpMV keeps fewer loads in flight than the streaming SpMV kernel, and the few
// per cent of the vectors it caches cannot make that up). There CudaCgWalk::automatic takes the row-block walk
// (persistent_cg_rows.cu, 1.1-1.2x the operation loop), and [solver] persistent = "auto" declines only a merge
// walk forced by PERKSOLVE_CUDA_CG_WALK. A matrix held whole in shared memory always runs. Returns the reason,
// or "" where the working set fits.
inline std::string persistent_cg_declines(double matrix_bytes, double vector_bytes, double l2_bytes, bool matrix_on_chip) {
  const double working_set = matrix_bytes + 4.0 * vector_bytes;  // A, x, r, p, A p
  if (matrix_on_chip || l2_bytes <= 0.0 || working_set <= l2_bytes) return {};
  const double mb = 1e-6;
  return "the matrix and vectors (" + std::to_string(static_cast<long>(working_set * mb)) + " MB) exceed the L2 cache (" +
         std::to_string(static_cast<long>(l2_bytes * mb)) +
         " MB), where the operation-by-operation CG is faster (docs/perf/persistent-cg.md)";
}

// Blocks of 256 threads per SM for the persistent CSR CG's row-block walk (persistent_cg_rows.cu): 8 where the
// matrix and four vectors exceed 6x the L2, else 6. Measured on the H200 (cg_bench, 2026-11-30): 8 ran 4-7 % faster
// on laplace7_192 and laplace27_128 (8-13x the L2), 6 ran 1-6 % faster on laplace7_128 and laplace27_96 (2.5-5x) and
// on the matrices in L2 (fewer blocks at each barrier; the 32 registers of 8 blocks spill more of the loop state).
inline int rows_walk_blocks_per_sm(double matrix_bytes, double vector_bytes, double l2_bytes) {
  return l2_bytes > 0.0 && matrix_bytes + 4.0 * vector_bytes > 6.0 * l2_bytes ? 8 : 6;
}

}  // namespace perksolve::cuda_detail
