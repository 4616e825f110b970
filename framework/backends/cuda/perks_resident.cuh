// Resident PERKS stencil iteration (issue 6, small domains): the whole domain stays in shared memory for
// the whole run. Each block owns ONE brick (a tile of the plane x a chunk of planes, the streaming kernel's
// item) and keeps it, with a halo of exactly R, in shared memory between sweeps.
//
// One sweep of a block:
//  1. Loads. All of the brick's halo cells (the in-plane ring of every owned plane and the R planes below
//     and above the chunk, written by the neighbours' previous sweep or by the boundary faces) are issued
//     at once as cp.async copies: one memory latency per sweep, not one per plane as when streaming.
//     The first sweep loads the whole brick.
//  2. Compute. The block walks its planes with the streaming kernel's compute (stream_plane: the same
//     bits as the per-sweep kernels), reading every plane from shared memory. The output of plane z is
//     complete when plane z + R has been read; it is written back into the brick IN PLACE (plane z is never
//     read again in this sweep; block barriers at most R planes apart, at compile-time positions, keep every thread
//     within that window; R + 1 apart where the write-back comes one step late: kPlaneSyncGap), and to global memory
//     only where someone else reads it (perks_read_by_others) or at the last sweep.
//     Jacobi keeps b on chip as well where the brick and b of its owned planes fit (pa.rhs_on_chip: loaded
//     once, at the first sweep; every array of the iteration on chip). Where only the brick fits, b streams
//     through a small cp.async ring a few planes ahead (b is read-only, it stays in L2).
//     Jacobi computes the residual (and sums it over the grid) only where it is needed: at the check sweeps
//     and the last sweep (perks_needs_residual; a plane loop without it otherwise).
//  3. Boundary faces: the block fills the ghosts of the new iterate whose source cells are in its brick
//     (perks_fill_box_ghosts); then the step between sweeps: a wait for the neighbouring bricks only
//     (perks_wait_neighbours), or perks_between_sweeps (one device-wide barrier, the residual test) where the Jacobi
//     residual is summed over the grid.
//     Face planes (pa.face_planes_on_chip, brick_face_planes.hpp): a brick at a face of the streamed axis computes
//     the ghost planes of its halo from its own planes after the loads of step 1 (the in-plane ghosts of its source
//     planes included, which the loads bring), so its fill leaves those ghosts out except where every output goes
//     to global memory.
// The launcher (launch_perks_resident) runs it only where every brick fits one block's shared memory
// with one block of 512 threads per SM, or two of 256 (resident_two_blocks_per_sm); elsewhere the pipelined
// PERKS kernel (perks_pipelined.cuh) runs.
#pragma once

#include <algorithm>
#include <climits>
#include <type_traits>

#include "framework/backends/cuda/brick_face_planes.hpp"
#include "framework/backends/cuda/perks_model.hpp"
#include "framework/backends/cuda/perks_request.cuh"
#include "framework/backends/cuda/perks_sweep_common.cuh"

namespace perksolve::cuda_detail {

// The resident brick's geometry, with the members stream_plane and stage_b_plane read (BXT, NT, MX, MY,
// SW, V, VEC, CONSEC, XS, XJ). The loaded halo is exactly R wide (the loads are scalar and few; no sector alignment).
//  * 2D tiles of several columns per thread whose MX columns make at most 16 bytes (fp64 MX 2, fp32 MX 2 or 4) take
//    them consecutive (CONSEC) where that reads fewer shared-memory wavefronts: thread tx owns x = tx * MX .. tx * MX
//    + MX - 1 and reads a row's window [x - R, x + MX - 1 + R] as NVEC aligned MX-element vectors, NVEC / (2R + 1) of
//    the interleaved tile's wavefronts per output (fp64 R 2-4: 0.56-0.71; fp32 R 2-4: 0.33-0.6; fp32 R 5-6: 0.54-0.64;
//    fp32 R = 1: 1, so not taken). H200, small domains: 2d13pt fp64 -15 %, 2d17pt fp64 -12 %, fp32 R >= 3 -9 to
//    -14 % per sweep (docs/perf/perks.md). The brick's x halo is then R rounded up to MX (the extra columns are never
//    loaded: the vectors read them and the FMAs do not).
//  * Otherwise interleaved: thread tx owns x = tx + jx * BXT.
template <class Real, ShapeSpec S, class T>
struct ResidentCfg {
  static constexpr int R = S.radius;
  static constexpr bool D3 = S.dim == 3;
  static constexpr int BXT = T::BXT, BYT = T::BYT, MX = T::MX, MY = T::MY;
  static constexpr int BX = BXT * MX, BY = BYT * MY, NT = BXT * BYT;
  static constexpr bool VEC = false;
  static constexpr int V = 1;
  static constexpr int NVEC = consec_last_vec(R, MX) - consec_first_vec(R, MX) + 1;  // vectors per row window
  static constexpr bool CONSEC = !D3 && MX > 1 && MX * static_cast<int>(sizeof(Real)) <= 16 && NVEC < 2 * R + 1;
  static constexpr int XS = CONSEC ? MX : 1, XJ = CONSEC ? 1 : BXT;
  static constexpr int HX = CONSEC ? (R + MX - 1) / MX * MX : R, HY = D3 ? R : 0;
  static constexpr int LX = HX - R;  // brick columns left of the loaded window
  static constexpr int TW = BX + 2 * HX, TH = BY + 2 * HY;
  static constexpr int SW = TW;            // a warp reads one row: BXT is a multiple of 32
  static constexpr int PLANE = TH * SW;    // elements of one brick plane
  static constexpr int BB_ELEMS = NT * MX * MY;  // b of one plane of the block's outputs
  static constexpr int NB = 3;                   // b ring (b not on chip): planes of b in flight
  static_assert(BXT % 32 == 0, "a warp reads one tile row");
  static_assert(!CONSEC || SW % MX == 0, "consecutive columns: vector-aligned brick rows");
};

// The resident tiles: 512 threads (one block per SM, up to 128 registers; `half`: 256, two blocks per SM). A sweep
// costs about one block barrier and one dependent chain of shared loads and FMAs per brick plane, so the tiles are
// wide (few planes per brick) and give every thread several outputs per plane, as many as fit 128 registers without
// spilling in the plane loop: 3D 32 x 32 (2 rows per thread; halo share of a plane 0.13 at R = 1; 64 x 32 for the
// shapes other than stars where the domain's width fills it as well, resident_3d_wide_tile), 2D rows
// of 1024 cells (2 per thread), except fp32 R = 1 (2048, 4 per thread), fp64 R >= 5 and fp32 R = 5 Jacobi (512).
// The 2D tiles of radius >= 3 rotate their partial sums (Tune's ROT) in the modes where the per-sweep row tiles do
// (kRot2d: apply, and fp64 with b). Measured on the H200, small domains, two runs against the shifted sums
// (benchmarks/results/gpu-h200-2026-11-28-rotating-resident/run1): apply 2d13pt fp32 -9 %, 2d17pt fp64 -10 %, 2ds25pt
// -7 % (fp64) / -11 % (fp32), 2d21pt -5 to -8 %; fp64 Jacobi 2d13pt -10 %, 2d21pt -15 %, 2ds25pt -21 % per sweep. At
// radius 2 it did not pay: 2ds9pt and 2d25pt fp32 apply +2 to +7 %, fp64 within the runs' spread.
// The 2D brick in shared memory is 512 MX2 columns wide whatever the domain's width. 2 columns for fp64 of radius 1
// and fp32 of radius 2-4 (4 before): on the H200 (benchmarks/results/
// gpu-h200-2026-11-29-per-call-host/run3, two runs each) a 789-wide fp64 domain had filled 39 % of the 2048-column
// brick; with 1024 columns the small domains grow (2d5pt fp64 Jacobi 789^2 -> 1013^2, 2d17pt fp32 1296^2 -> 1560^2)
// and cost less per cell (2d5pt fp64 Jacobi 7.8 us per sweep at 789^2 -> 6.2 us at 1013^2): Jacobi small 1.40 -> 1.49,
// apply small 1.50 -> 1.68. Run 4 tried the rest of fp32: 2 columns instead of 4 at radius 1 changed nothing beyond
// the spread; 1 column instead of 2 at radius 5-6 (512-column bricks; no vector loads of consecutive columns) won only
// in 2d21pt Jacobi, 1.12 -> 1.46 (1496^2 at 25.1 us -> 1658^2 at 21.7 us per sweep), and lost in its apply sweeps
// (1.50 -> 1.33) and at radius 6 (2ds25pt Jacobi 1.46 -> 1.32, apply 1.69 -> 1.43), so only 2d21pt Jacobi takes it.
// 3D: 32 x 32 (was 64 x 32, 4 rows per thread), so that the small sides (87-159) fill their x tiles (87: 68 -> 91 %,
// 95: 74 -> 99 %). H200 run 6 (two runs each): Jacobi small 1.53 -> 1.58-1.59 (fp64 3d7pt 1.29 -> 1.56, 3d13pt 0.99 ->
// 1.25, 3d27pt 1.31 -> 1.65; fp32 3d17pt and poisson 1.78-1.83 -> 1.67-1.71), apply small 1.69 either way (3d13pt fp64
// 1.10 -> 1.20 and fp32 1.64 -> 1.80; fp64 poisson 1.53 -> 1.39, 3d17pt 1.51 -> 1.44).
// 3D: `type` is the 32 x 32 tile. The shapes other than stars (box, box without corners, plane and corners) also have
// `wide`, 64 x 32 (64 x 8 threads, 4 rows each: more rows share a thread's loads, a smaller x-halo share), chosen at
// launch by the domain's width (resident_3d_wide_tile). H200, run 6 of gpu-h200-2026-11-29-per-call-host, at 126 wide,
// where both tiles fill 98 %: 64 x 32 was faster for 3d17pt, 3d27pt and poisson (fp64 apply poisson 1.36-1.42 with 32
// x 32 against 1.51-1.54, fp32 Jacobi 3d17pt 1.67-1.70 against 1.77), 32 x 32 for the stars (fp64 apply 3d7pt 1.60-1.63
// against 1.55-1.58, fp32 Jacobi 3d13pt 1.34 against 1.24-1.26).
template <class Real, ShapeSpec S, bool HASB>
struct ResidentTuneSel {
  static constexpr bool F64 = sizeof(Real) == 8;
  static constexpr int MX2 = F64 ? (S.radius <= 4 ? 2 : 1) : S.radius <= 1 ? 4 : (S.radius == 5 && HASB ? 1 : 2);
  static constexpr bool ROT = kRot2d<Real, S, HASB> && S.radius >= 3;
  using type = std::conditional_t<S.dim == 3, Tune<32, 16, 1, 2>,
                                  Tune<512, 1, MX2, 1, 0, 1, 0, false, 0, false, 0, false, ROT>>;
  static constexpr bool kWideByFill = S.dim == 3 && S.kind != ShapeKind::star;
  using wide = Tune<64, 8, 1, 4>;
  // Two blocks per SM (resident_two_blocks_per_sm): 256 threads with the same outputs per thread; 2D rows half as
  // wide, about the same chunks, as many bricks again; 3D 32 x 16 tiles.
  static constexpr bool kTwoBlocks =
      resident_two_blocks_per_sm(S.dim, S.kind == ShapeKind::star, S.radius, HASB, !F64);
  using half = std::conditional_t<S.dim == 3, Tune<32, 8, 1, 2>,
                                  Tune<256, 1, MX2, 1, 0, 1, 0, false, 0, false, 0, false, ROT>>;
};
// The resident kernel's threads per SM: 512 at up to 128 registers (one block of 512 or two of 256).
inline constexpr int kResidentThreadsPerSm = 512;
// Whether a 3D domain nx cells wide takes the 64-column resident tile first: where it fills its x tiles within 5 % as
// well as the 32-column tile does (H200, run 6 of gpu-h200-2026-11-29-per-call-host: the 32-column tile won at 87-95
// and 159 wide, where it filled 91-99 % of its tiles against 68-83 %, and lost at 126, where both filled 98 %).
inline bool resident_3d_wide_tile(int nx) {
  auto fill = [&](int w) { return static_cast<double>(nx) / (w * ((nx + w - 1) / w)); };
  return fill(64) >= fill(32) - 0.05;
}

// Where the resident kernel has face planes (brick_face_planes.hpp; pa.face_planes_on_chip adds the run-time
// conditions). Measured on the H200, small domains, two runs each way
// (benchmarks/results/gpu-h200-2026-11-29-face-planes, run 1), per sweep: every shape of radius >= 2 gained in apply,
// 2d17pt fp32 24.7-25.3 -> 17.0-17.8 us, 2ds25pt fp32 23.4-24.6 -> 18.0, 2d13pt fp32 19.1-19.7 -> 15.3, 3d13pt fp64
// 18.7-19.5 -> 17.0-17.4; so did their Jacobi sweeps (2d17pt fp64 18.7-19.1 -> 15.0-15.2 us) except fp32 2d21pt
// (25.7-26.0 -> 28.2-28.4 us) and fp64 2ds25pt (19.5-19.6 -> 21.0-21.1 us), which are left out. The radius-1 shapes
// lost up to 10 % (means of the two runs: poisson fp64 apply and fp32 Jacobi +10 %, 2d5pt fp32 Jacobi +9 %; the fp32 3D
// apply sweeps within 2 %): their face ghosts are one plane, the trace had found those kernels balanced (run 4 of
// gpu-h200-2026-11-28-rotating-resident), and the code cost them more than it saved.
template <class Real, ShapeSpec S, bool HASB>
inline constexpr bool kResidentFacePlanes =
    S.radius >= 2 && !(HASB && S.dim == 2 && (sizeof(Real) == 4 ? S.radius == 5 : S.radius == 6));

// The resident plane loop's most plane steps from one block barrier to the next (perks_resident_kernel, step 2): R_s,
// the reach along the streamed axis, which the in-place write-back allows; the barriers sit at compile-time positions.
// H200, small domains (benchmarks/results/gpu-h200-2026-11-29-brick-centre/run2, two runs each against session 39's
// library: a run-time count to R_s in the Jacobi sweeps, a barrier per step in the apply sweeps): Jacobi small 1.60-1.62
// -> 1.67, apply 1.70 -> 1.73; per sweep 2d17pt fp32 Jacobi -16 %, 2ds25pt fp32 Jacobi -14 %, 2ds25pt fp64 apply
// -11 %; slower: 2d17pt fp64 Jacobi +6 % (stack 208 -> 320 bytes), fp32 apply 2ds9pt +6 % and 2d25pt +4 %.
// The resident plane loop's write-back delay D (0 or 1): the outputs a step completes go into the brick D steps later
// (held in registers until then), so that the barriers may sit R_s + D steps apart (kPlaneSyncGap). One step late for
// R_s = 2 and for the 2D radius-5 Jacobi sweeps. H200, small domains, two runs each against D = 0 everywhere
// (benchmarks/results/gpu-h200-2026-11-30-write-back-delay/run1), us per sweep: apply 2ds9pt fp64 11.1-11.4 -> 10.4-10.6
// and fp32 12.5-12.8 -> 12.0-12.1, 2d25pt fp64 14.0-14.4 -> 13.3-13.5 and fp32 16.8-17.1 -> 16.4-16.5, 3d13pt fp32
// 20.3-20.4 -> 20.0-20.2; Jacobi 2d21pt fp32 20.5-21.0 -> 18.7, 3d13pt 1-2 % faster; the other R_s = 2 cases and fp64
// 2d21pt Jacobi within the runs' spread (run 2 confirms all of it with this rule). Everywhere else it lost: the
// radius-1 shapes up to 13 % (fp64 Jacobi 3d27pt 8.1 -> 9.1 us, poisson 7.7 -> 8.6, 3d17pt 7.7 -> 8.4), 2d13pt and
// 2d17pt fp64 Jacobi 6-7 %, fp64 apply of radius 4-6 4-7 %: the registers held across the barrier moved ptxas's
// allocation more than the barriers saved.
template <class Real, ShapeSpec S, bool HASB>
inline constexpr int kWriteBackDelay = StreamGeo<S>::RS == 2 || (HASB && S.dim == 2 && S.radius == 5) ? 1 : 0;
template <class Real, ShapeSpec S, bool HASB>
inline constexpr int kPlaneSyncGap = StreamGeo<S>::RS + kWriteBackDelay<Real, S, HASB>;

template <class Real, int DIM, int KIND, int RADIUS, int MODE, bool SYM, class T>
__global__ void __launch_bounds__(T::BXT* T::BYT, kResidentThreadsPerSm / (T::BXT * T::BYT))
    perks_resident_kernel(const PerksArgs<Real> pa) {
  constexpr ShapeSpec S{DIM, static_cast<ShapeKind>(KIND), RADIUS};
  constexpr bool kJacobi = MODE == static_cast<int>(StencilMode::jacobi);
  static_assert(MODE != static_cast<int>(StencilMode::residual), "PERKS iterates apply or Jacobi sweeps");
  using C = ResidentCfg<Real, S, T>;
  using G = StreamGeo<S>;
  constexpr int MX = C::MX, MY = C::MY;
  constexpr int RX = G::RX, RY = G::RY, RS = G::RS;
  constexpr int NB = C::NB;
  const StreamArgs<Real, kMaxTemplatedPoints>& a = pa.s;

  extern __shared__ __align__(16) unsigned char perks_smem[];
  Real* const brick = reinterpret_cast<Real*>(perks_smem);  // planes z = s0 - RS .. s0 + len + RS - 1
  // b (Jacobi): every owned plane of it (b_on_chip, plane s0 + k at k * BB_ELEMS), else a ring of NB planes.
  Real* const bplanes = brick + static_cast<long>(a.chunk + 2 * RS) * C::PLANE;
  const bool b_on_chip = kJacobi && pa.rhs_on_chip;

  const int tid = threadIdx.x;
  const int tx = tid % C::BXT;
  const int ty = tid / C::BXT;
  // The block's brick: item blockIdx.x (one block per item).
  const long q = blockIdx.x / a.tiles;
  const long u = blockIdx.x - q * a.tiles;
  int s0 = 0, len = 0;
  stream_chunk_planes<true>(stream_chunks(a), q, s0, len);  // with the face chunks' lead (plan_brick_face_lead)
  const int P = len + 2 * RS;
  const int x0 = static_cast<int>(u % a.tiles_x) * C::BX;
  const int y0 = static_cast<int>(u / a.tiles_x) * C::BY;
  const int xe = min(x0 + C::BX, a.nx), ye = min(y0 + C::BY, a.ny);
  const int wx = xe - x0, wy = ye - y0;
  // Per output of the thread (constant over planes and sweeps), bit jy * MX + jx of two masks: live_mask, the
  // output lies in the domain; ring_mask, it is live and in the in-plane ring that others read. goff: its
  // offset in a global plane (32 bits: a resident domain is on chip). Dead outputs (a partial tile at the
  // domain's far edge) are computed and written into the brick like the others, so that the plane loop has no
  // branch per output: they land in the brick's halo ring (reloaded at every sweep before it is read) or
  // beyond the load window (never read by a live output), always in a plane no thread reads any more.
  static_assert(MY * MX <= 32, "one mask bit per output of a thread");
  unsigned live_mask = 0, ring_mask = 0;
  int goff[MY][MX];
#pragma unroll
  for (int jy = 0; jy < MY; ++jy)
#pragma unroll
    for (int jx = 0; jx < MX; ++jx) {
      const int ox = x0 + tx * C::XS + jx * C::XJ, oy = y0 + ty * MY + jy;
      const unsigned bit = 1u << (jy * MX + jx);
      const bool live = ox < xe && oy < ye;
      if (live) live_mask |= bit;
      if (live && perks_read_in_plane<RX, RY>(pa, ox, oy, x0, y0, xe, ye)) ring_mask |= bit;
      goff[jy][jx] = ox + oy * static_cast<int>(a.row_stride);
    }
  // Face planes: this brick computes the ghost planes below (face_lo) / above (face_hi) its chunk on chip.
  constexpr bool kFacePlanes = kResidentFacePlanes<Real, S, kJacobi>;
  const bool face_lo = kFacePlanes && pa.face_planes_on_chip && s0 == 0;
  const bool face_hi = kFacePlanes && pa.face_planes_on_chip && s0 + len == a.ns;
  // Output planes that others read (perks_read_plane), as a range evaluated once.
  const PerksPrivatePlanes private_planes = perks_private_planes<RS>(pa, s0, len);
  // Load windows in brick coordinates (row, col) = (y - y0 + HY, x - x0 + HX): a halo plane loads the whole
  // fw x fh window; an owned plane loads the window's ring (the window less the owned wx x wy cells).
  // Both are enumerated over the full tile with compile-time strides (cheap index arithmetic) and moved to
  // the clipped tile's edges (a partial tile at the domain's far edge) or skipped beyond them. The window lies
  // inside the allocation (ghosts >= R, checked by the launcher), so these loads need no bounds test; offsets
  // are 32-bit from the window's first cell.
  // (Consecutive columns: the window's columns are [LX, fw - LX) of the brick's.)
  const int fw = wx + 2 * C::HX, fh = wy + 2 * C::HY;
  auto in_window_x = [&](int col) {
    if constexpr (C::LX > 0) return col >= C::LX && col < fw - C::LX;
    else return col < fw;
  };
  constexpr int RL = C::HX - C::LX;                   // loaded x halo (R)
  // Halo planes by 16-byte copies (step 1): where a brick row's column 0 and the grid's x = x0 - HX share their
  // alignment (HX a multiple of V16 elements; tile columns are) and the rows are whole 16-byte units: fp64 2D radius
  // 2-4 and 6, fp32 2D radius 3-4, fp64 3D radius 2. H200, small domains, two runs each against per-element copies
  // (benchmarks/results/gpu-h200-2026-11-30-face-lead/run5): 2d13pt fp32 -7 to -10 % per sweep, 2d17pt fp32 -3 to -4 %,
  // fp64 0-5 % (2ds9pt, 2d13pt, 2ds25pt Jacobi -4 to -5 %); Jacobi small 1.72 -> 1.74.
  constexpr int V16 = 16 / static_cast<int>(sizeof(Real));
  constexpr bool kVecHalo = C::HX % V16 == 0 && C::TW % V16 == 0 && C::SW % V16 == 0 && C::PLANE % V16 == 0;
  constexpr int FULL = C::TH * C::TW;
  constexpr int RING_ROWS = 2 * C::HY * C::TW;        // the rows above and below the owned rows
  constexpr int RING = RING_ROWS + 2 * RL * C::BY;    // + the columns left and right of them
  const int gstep = static_cast<int>(a.step), grow = static_cast<int>(a.row_stride);
  const long window0 = static_cast<long>(s0 - RS) * a.step + (x0 - C::HX) + static_cast<long>(y0 - C::HY) * a.row_stride;
  // Halo plane hp of the 2 RS around the chunk: its brick plane (below the chunk for hp < RS, else above it), and
  // whether the brick's face computes it on chip instead of loading it.
  auto halo_brick_plane = [&](int hp) { return hp < RS ? hp : len + hp; };
  auto halo_on_chip = [&](int hp) { return hp < RS ? face_lo : face_hi; };
  auto load_in_window = [&](const Real* base, int p, int row, int col) {
    cp_async_elem<sizeof(Real)>(brick + p * C::PLANE + row * C::SW + col, base + (p * gstep + row * grow + col), true);
  };
  // The whole brick (first sweep), ghosts beyond the allocation as zeros.
  auto load_any = [&](const Real* src, int p, int row, int col) {
    const int gx = x0 - C::HX + col, gy = y0 - C::HY + row;
    const bool ok = gx >= -a.gx && gx < a.nx + a.gx && gy >= -a.gy && gy < a.ny + a.gy;
    const long go = static_cast<long>(s0 - RS + p) * a.step + gx + static_cast<long>(gy) * a.row_stride;
    cp_async_elem<sizeof(Real)>(brick + static_cast<long>(p) * C::PLANE + row * C::SW + col, ok ? src + go : src, ok);
  };
  // The ghost planes of a face of the streamed axis (rule r; low: below the chunk), computed from the brick's owned
  // planes over the load window: the face's rule applied to the cell of the mirrored plane in the same row and column
  // (whose in-plane ghosts hold the other faces' rules already: the composed rule in axis order, face_ghost_value).
  auto face_planes = [&](const boundary_rule::FaceRule<Real> r, bool low) {
    const int p0 = low ? 0 : len + RS;
    for (int idx = tid; idx < RS * FULL; idx += C::NT) {
      const int hp = idx / FULL, w = idx - hp * FULL;
      const int row = w / C::TW, col = w - row * C::TW;
      if (!(row < fh && in_window_x(col))) continue;
      const int p = p0 + hp;
      const int d = brick_face_plane_distance(low, p, len, RS);
      const int cell = row * C::SW + col;
      Real v = r.value;
      if (!boundary_rule::ghost_is_constant(r, d)) {
        const int ps = boundary_rule::mirror_index(r, a.ns, d) - s0 + RS;
        v = boundary_rule::ghost_value(r, d, brick[ps * C::PLANE + cell]);
      }
      brick[p * C::PLANE + cell] = v;
    }
  };
  // Ring: b of the outputs completed at step k (plane s0 + k - 2 RS) into slot k % NB; one commit group per k.
  auto issue_b = [&](int k) {
    if constexpr (kJacobi) {
      if (!b_on_chip && k >= 2 * RS && k < P)
        stage_b_plane<C>(bplanes + (k % NB) * C::BB_ELEMS, a.b + static_cast<long>(s0 + k - 2 * RS) * a.step, a, x0,
                         y0, tx, ty, tid);
    }
    cp_async_commit();
  };

  // The bricks whose outputs this brick reads (perks_wait_neighbours).
  const int tiles_x = a.tiles_x, tiles_y = static_cast<int>(a.tiles / a.tiles_x);
  const PerksBrickNeighbours neighbours{static_cast<int>(q),
                                        static_cast<int>(u % tiles_x),
                                        static_cast<int>(u / tiles_x),
                                        static_cast<int>(a.items / a.tiles),
                                        tiles_x,
                                        tiles_y,
                                        pa.sweep_flags.reach_s};
  const PerksLoopEnd end = perks_sweep_loop<kJacobi, C::NT, true>(pa, [&](long t, const Real* __restrict__ src,
                                                                    Real* __restrict__ dst) {
    // Every output goes to global memory at the last sweep, and before a check sweep (a stop keeps the
    // check sweep's input iterate, which must then be whole in global memory).
    const bool store_all =
        t + 1 == pa.sweeps || (kJacobi && perks_is_check_sweep(pa, t + 1));

    // ---- 1. loads ----
    if (t == 0) {
      if (b_on_chip)  // each thread copies the b of its own outputs, the only ones it reads
        for (int k = 0; k < len; ++k)
          stage_b_plane<C>(bplanes + k * C::BB_ELEMS, a.b + static_cast<long>(s0 + k) * a.step, a, x0, y0, tx, ty, tid);
      const int n = P * C::PLANE;
      for (int idx = tid; idx < n; idx += C::NT) {
        const int p = idx / C::PLANE, w = idx - p * C::PLANE;
        const int row = w / C::SW;
        load_any(src, p, row, w - row * C::SW);
      }
    } else {
      const Real* const base = src + window0;
      // The halo planes by 16-byte copies where the brick's rows and the grid's share their 16-byte alignment
      // (kVecHalo, and the run-time alignment of this buffer's window and strides): a slot of V16 columns that lies in
      // the window is one copy, the slots at the window's ends go cell by cell. The ring of the owned planes below.
      const bool vec_halo =
          kVecHalo && (reinterpret_cast<unsigned long long>(base) % 16 == 0) && (gstep % V16 == 0) && (grow % V16 == 0);
      const int n_halo = vec_halo ? 0 : 2 * RS * FULL, n = n_halo + len * RING;
      if (vec_halo) {
        constexpr int VPR = C::TW / V16, SLOTS = C::TH * VPR;
        for (int idx = tid; idx < 2 * RS * SLOTS; idx += C::NT) {
          const int hp = idx / SLOTS, w = idx - hp * SLOTS;
          const int row = w / VPR, c = (w - row * VPR) * V16;
          if (row >= fh || halo_on_chip(hp)) continue;
          const int p = halo_brick_plane(hp);
          if (c >= C::LX && c + V16 <= fw - C::LX) {
            cp_async16<false>(brick + p * C::PLANE + row * C::SW + c, base + (p * gstep + row * grow + c), true);
          } else {
#pragma unroll
            for (int e = 0; e < V16; ++e)
              if (in_window_x(c + e)) load_in_window(base, p, row, c + e);
          }
        }
      }
      for (int idx = tid; idx < n; idx += C::NT) {
        int p, row, col;
        bool in;
        if (idx < n_halo) {
          const int hp = idx / FULL, w = idx - hp * FULL;
          p = halo_brick_plane(hp);
          row = w / C::TW;
          col = w - row * C::TW;
          in = row < fh && in_window_x(col) && !halo_on_chip(hp);
        } else {
          const int k = idx - n_halo;
          const int pp = k / RING, r = k - pp * RING;
          p = RS + pp;
          if (r < RING_ROWS) {
            const int rr = r / C::TW;
            col = r - rr * C::TW;
            row = rr < C::HY ? rr : wy + rr;
            in = in_window_x(col);
          } else {
            const int r2 = r - RING_ROWS;
            const int rr = r2 / (2 * RL), c = r2 - rr * (2 * RL);
            row = C::HY + rr;
            col = c < RL ? C::LX + c : C::LX + wx + c;
            in = rr < wy;
          }
        }
        if (in) load_in_window(base, p, row, col);
      }
    }
    cp_async_commit();
#pragma unroll
    for (int k = 0; k < NB - 1; ++k) issue_b(k);  // (empty groups in apply mode)
    cp_async_wait<NB - 1>();                       // the brick's loads (and b of step 0) are in
    __syncthreads();
    if (t > 0 && (face_lo || face_hi)) {
      constexpr int SA = streamed_axis(S.dim);
      if (face_lo) face_planes(pa.faces.rule[SA][0], true);
      if (face_hi) face_planes(pa.faces.rule[SA][1], false);
      __syncthreads();
    }
    perks_stamp(pa, t, 3);  // (diagnostic build only: PERKSOLVE_PERKS_TRACE)

    // ---- 2. compute, plane by plane, in place (Jacobi: the residual only where it is needed) ----
    double rsum = 0.0;
    Real acc[MY][MX][2 * RS + 1];
    Real xq[MY][MX][RS > 0 ? RS : 1];
    clear_stream_state(acc, xq);
    constexpr int kDelay = kWriteBackDelay<Real, S, kJacobi>;
    // The outputs completed at the step before, written into the brick at this step (kDelay = 1). The first completing
    // step (2 RS) writes these zeros into halo plane RS - 1, which no thread reads again in this sweep and the next sweep
    // reloads (or, with face planes, computes) before reading it.
    [[maybe_unused]] Real pend[MY][MX];
#pragma unroll
    for (int jy = 0; jy < MY; ++jy)
#pragma unroll
      for (int jx = 0; jx < MX; ++jx) pend[jy][jx] = Real(0);
    // The thread's first output in brick plane p.
    auto brick_out = [&](int p) { return brick + p * C::PLANE + (ty * MY + C::HY) * C::SW + tx * C::XS + C::HX; };
    // Writes output (jy, jx) of the thread into its brick plane at bp, as output jx of the row's values row[MX]:
    // consecutive columns store the row as one vector with its last output, other tiles each output at once.
    auto write_output = [&](Real* bp, int jy, int jx, const Real (&row)[MX]) {
      if constexpr (C::CONSEC) {
        if (jx == MX - 1) store_vec(bp + jy * C::SW, row);
      } else {
        bp[jy * C::SW + jx * C::XJ] = row[jx];
      }
    };
    // Writes a thread's outputs vals[MY][MX] into brick plane p.
    auto write_back = [&](int p, const Real (&vals)[MY][MX]) {
      Real* const bp = brick_out(p);
#pragma unroll
      for (int jy = 0; jy < MY; ++jy)
#pragma unroll
        for (int jx = 0; jx < MX; ++jx) write_output(bp, jy, jx, vals[jy]);
    };
    // Step i reads brick plane i. From step 2 RS on it completes the outputs of plane z = s0 + i - 2 RS, brick plane
    // i - RS, which was last read at step i - RS: the new iterate overwrites it in place. So every thread must have
    // completed step j - RS before any thread writes in step j. A block barrier at the start of step m orders the
    // steps before m of every thread before the steps from m on: a write in step j is safe when the last barrier m
    // <= j has m - 1 >= j - RS, i.e. when barriers are at most RS steps apart. With the write-back delayed by D steps
    // (kDelay: step j writes, after its barrier, the outputs of step j - D, plane j - D - RS) they may be G = RS + D
    // apart (kPlaneSyncGap). The positions are fixed at compile time by the step's phase (plane_step's PH, a constant
    // of the unrolled loop): with rotating sums the phase is the rotation i mod (2 RS + 1), and the barriers come at
    // the phases that are multiples of G (D = 0: 0, RS and 2 RS, gaps RS, RS, 1; D = 1: 0 and RS + 1, gaps RS + 1 and
    // RS); with shifted sums the loop is unrolled by G and they come at i mod G = 0. (G = 1: a barrier per step.)
    constexpr int kGap = kPlaneSyncGap<Real, S, kJacobi>;
    // RC: the rotation of the partial sums at step i (stream_plane's ROT: i % (2 RS + 1); -1: shifted); PH: the phase.
    auto plane_step = [&](auto RC, auto PH, int i, auto completes, auto with_residual) {
      constexpr int kRot = decltype(RC)::value;
      if (kJacobi && !b_on_chip) {
        issue_b(i + NB - 1);
        cp_async_wait<NB - 1>();  // b of step i (this thread's own copies: no block barrier needed for it)
      }
      if constexpr (decltype(PH)::value % kGap == 0) {
        if (i > 0) __syncthreads();
      }
      const Real* cur = brick + i * C::PLANE + (ty * MY + C::HY) * C::SW + tx * C::XS + C::HX;
      if constexpr (!decltype(completes)::value) {
        stream_plane<Real, S, C, SYM, kJacobi, kRot>(cur, a.c, acc, xq, [](int, int, Real, Real) {});
      } else {
        const int z = s0 + i - 2 * RS;
        const unsigned store_mask = store_all || private_planes.read_by_others(z) ? live_mask : ring_mask;
        [[maybe_unused]] Real* const bout = brick_out(i - RS);
        const int zoff = z * gstep;  // 32-bit (checked at launch)
        [[maybe_unused]] Real* const gplane = dst + zoff;
        [[maybe_unused]] Real row_out[MY][MX];  // the outputs (consecutive columns: a row's, stored as one vector)
        [[maybe_unused]] const Real* const bcur =
            bplanes + (b_on_chip ? i - 2 * RS : i % NB) * C::BB_ELEMS + tid;  // b of this step's outputs
        if constexpr (kDelay > 0) write_back(i - 1 - RS, pend);  // the previous step's outputs (after the barrier)
        stream_plane<Real, S, C, SYM, kJacobi, kRot>(cur, a.c, acc, xq, [&](int jy, int jx, Real sum, Real xc) {
          const int k = jy * MX + jx;
          Real value = sum;
          if constexpr (kJacobi) {
            const Real r = bcur[k * C::NT] - sum;
            value = xc + a.scale * r;
            if constexpr (decltype(with_residual)::value) {
              const double rl = (live_mask >> k) & 1u ? static_cast<double>(r) : 0.0;
              rsum += rl * rl;
            }
          }
          if constexpr (kDelay > 0) {
            pend[jy][jx] = value;
          } else {
            row_out[jy][jx] = value;
            write_output(bout, jy, jx, row_out[jy]);
          }
          // 3D: one predicated store (the compiler branched around each store with its address computation:
          // 3D small domains 5-25 % faster this way). 2D: the compiler predicates the plain store itself, and
          // the asm form measured 3-8 % slower there (run 4, benchmarks/results/gpu-h200-2026-11-25-resident-loop).
          if constexpr (C::D3) store_out_if(dst + (zoff + goff[jy][jx]), value, (store_mask >> k) & 1u);
          else if ((store_mask >> k) & 1u) gplane[goff[jy][jx]] = value;
        });
      }
    };
    auto plane_loop = [&](auto with_residual) {
      // Unrolled by NR steps where a step's rotation (rotating sums: NR = 2 RS + 1) or its barrier phase (shifted sums
      // with barriers G > 1 steps apart: NR = G) must be a constant: the first 2 RS steps (they complete nothing) one
      // by one, then copies of the NR phases from step 2 RS on. The phase is i mod NR, the rotation the phase or -1.
      constexpr int NR = T::ROT ? 2 * RS + 1 : kGap;
      if constexpr (NR > 1) {
        auto step_at = [&](auto PH, int i, auto completes) {
          plane_step(std::integral_constant<int, T::ROT ? decltype(PH)::value : -1>{}, PH, i, completes,
                     with_residual);
        };
        static_for<0, 2 * RS>([&](auto I) {
          constexpr int i = decltype(I)::value;
          step_at(std::integral_constant<int, i % NR>{}, i, std::false_type{});
        });
        rotating_steps<NR, 2 * RS>(P, [&](auto PH, int i) { step_at(PH, i, std::true_type{}); });
      } else {
        using Shifted = std::integral_constant<int, -1>;
        using Every = std::integral_constant<int, 0>;
        for (int i = 0; i < 2 * RS; ++i) plane_step(Shifted{}, Every{}, i, std::false_type{}, with_residual);
        for (int i = 2 * RS; i < P; ++i) plane_step(Shifted{}, Every{}, i, std::true_type{}, with_residual);
      }
    };
    if constexpr (kJacobi) {
      if (perks_needs_residual(pa, t)) plane_loop(std::true_type{});
      else plane_loop(std::false_type{});
    } else {
      plane_loop(std::false_type{});
    }
    if constexpr (kDelay > 0) {
      // The last step's outputs. Plane P - 1 - RS was read at step P - 1 - RS, which the loop's last barrier may not
      // follow; the fill's barrier below publishes these writes.
      __syncthreads();
      write_back(P - 1 - RS, pend);
    }
    perks_stamp(pa, t, 4);  // (thread 0 past the plane loop's last barrier)
    cp_async_wait<0>();
    // ---- 3. the ghosts of the new iterate whose sources are in the brick, read from the brick (in place) ----
    //     (face planes: the streamed axis's ghosts only where every output goes to global memory)
    perks_fill_box_ghosts<C::NT, 4, C::D3>(
        pa, t, x0, xe, y0, ye, s0, len,
        [&](const int (&c)[3]) {
          const int z = C::D3 ? c[2] : c[1], y = C::D3 ? c[1] : 0;
          return brick[static_cast<long>(z - s0 + RS) * C::PLANE + (y - y0 + C::HY) * C::SW + (c[0] - x0 + C::HX)];
        },
        !kFacePlanes || store_all || !pa.face_planes_on_chip);
    return rsum;
  }, neighbours);
  perks_store_result(pa, end);
}

// Fills the kernel arguments both PERKS kernels share (buffers, faces, stopping test, boundary mirrors).
template <class Real, int DIM>
void fill_perks_args(PerksArgs<Real>& pa, const PerksRequest<Real>& pr) {
  const FieldLayout& l = pr.base.layout;
  const long origin = l.index(0, 0, 0);
  pa.buf[0] = const_cast<Real*>(pr.base.x) + origin;
  pa.buf[1] = pr.y + origin;
  pa.alloc[0] = const_cast<Real*>(pr.base.x);
  pa.alloc[1] = pr.y;
  pa.layout = l;
  pa.faces = pr.faces;
  pa.sweeps = pr.sweeps;
  pa.first = pr.first;
  // Mirror cells of the boundary rule: distance <= ghost from the edge (ghost + 1 cells) on axes with ghosts.
  const int gs = l.ghost[streamed_axis(DIM)];
  pa.keep_x = pa.s.gx > 0 ? pa.s.gx + 1 : 0;
  pa.keep_y = pa.s.gy > 0 ? pa.s.gy + 1 : 0;
  pa.keep_s = gs > 0 ? gs + 1 : 0;
  pa.const_ghosts = cuda_ops::face_fill_has_constant_ghosts(l, pr.faces);
  pa.varying_ghosts = cuda_ops::face_fill_has_sourced_ghosts(l, pr.faces);
  pa.stop = pr.stop;
  pa.partials = pr.base.partials;
  pa.result = pr.result_dev;
  pa.history = pr.history_dev;
#if PERKSOLVE_PERKS_TRACE_BUILD
  pa.timing = pr.timing_dev;
#endif
}

// Launches the resident kernel on tile T where the domain fits (not launched otherwise: launched = false). With
// `rhs_on_chip_only`, a Jacobi launch that asks for b on chip is not launched where b does not fit beside the brick.
template <class Real, ShapeSpec S, int MODE, bool SYM, class T>
PerksLaunch launch_perks_resident_tiled(const PerksRequest<Real>& pr, bool rhs_on_chip_only = false) {
  constexpr bool kHasB = MODE == static_cast<int>(StencilMode::jacobi);
  using C = ResidentCfg<Real, S, T>;
  using G = StreamGeo<S>;
  auto kernel = perks_resident_kernel<Real, S.dim, static_cast<int>(S.kind), S.radius, MODE, SYM, T>;
  PerksLaunch out;
  if (pr.cache_bytes == 0) return out;  // no cache asked for; this kernel caches everything
  const StencilRequest<Real>& r = pr.base;
  PerksArgs<Real> pa{};
  pa.s = stream_geometry<Real, S, C>(r);
  StreamArgs<Real, kMaxTemplatedPoints>& a = pa.s;
  if (a.tiles <= 0 || a.ns <= 0) return out;
  // The per-sweep loads take the window of R cells around a brick without bounds tests and with 32-bit
  // offsets: the ghosts must be at least R wide, and the iterate (ghost planes included) below 2^31 elements.
  const int ghost_s = r.layout.ghost[streamed_axis(S.dim)];
  if (a.gx < C::HX - C::LX || a.gy < C::HY || ghost_s < G::RS) return out;
  if (a.step * (a.ns + 2L * ghost_s) >= static_cast<long>(INT_MAX)) return out;
  static const long static_smem = [&] {
    cudaFuncAttributes fa{};
    PERKSOLVE_CUDA_CHECK(cudaFuncGetAttributes(&fa, kernel));
    return static_cast<long>(fa.sharedSizeBytes);
  }();
  // Jacobi: b of every owned plane on chip where it fits beside the brick (the "small" domains of the issue:
  // every array of the iteration on chip), else the ring's NB planes of b.
  const long b_plane_bytes = static_cast<long>(C::BB_ELEMS) * static_cast<long>(sizeof(Real));
  PerksResidentTile tile;
  tile.plane_bytes = static_cast<long>(C::PLANE) * static_cast<long>(sizeof(Real));
  tile.fixed_bytes = static_smem;
  tile.halo_planes = 2 * G::RS;
  tile.plane_cells = static_cast<long>(C::BX) * C::BY;
  // One block of 512 threads per SM, with all of its shared memory, or two of 256 with their shares of it.
  constexpr int kBlocksPerSm = kResidentThreadsPerSm / C::NT;
  long max_blocks = static_cast<long>(r.sm_count) * kBlocksPerSm;
  if (pr.max_blocks > 0) max_blocks = std::min<long>(max_blocks, pr.max_blocks);
  PerksDeviceModel device = pr.device;
  device.smem_per_block = smem_per_block_share(device.smem_per_sm, device.smem_per_block, kBlocksPerSm);
  PerksDomainModel dom;
  dom.cells = static_cast<double>(a.nx) * a.ny * a.ns;
  dom.bytes_per_sweep = dom.cells * static_cast<double>(sizeof(Real)) * (kHasB ? 3.0 : 2.0);
  auto plan_with = [&](bool b_on_chip) {
    PerksResidentTile t = tile;
    if (kHasB && b_on_chip) t.owned_plane_bytes = b_plane_bytes;
    if (kHasB && !b_on_chip) t.fixed_bytes += C::NB * b_plane_bytes;
    return plan_perks_resident(device, t, dom, a.tiles, a.ns, max_blocks, pr.cache_bytes);
  };
  pa.rhs_on_chip = kHasB && pr.rhs_on_chip;
  PerksResidentPlan plan = plan_with(pa.rhs_on_chip);
  if (!plan.fits && pa.rhs_on_chip) {
    if (rhs_on_chip_only) return out;
    pa.rhs_on_chip = false;
    plan = plan_with(false);
  }
  if (!plan.fits) return out;
  a.chunk = plan.chunk;
  a.items = plan.items;
  // The bricks at the streamed axis's faces shorter by about their face work, R_s planes (plan_brick_face_lead), with
  // a chunk more where the blocks allow; not shorter than R_s + 1 planes (the neighbour sync's reach stays).
  if (pr.chunk_lead) {
    const StreamChunks led = plan_brick_face_lead(stream_chunks(a), max_blocks / a.tiles, G::RS, G::RS + 1);
    a.lead = led.lead;
    a.items = a.tiles * stream_chunk_count(led);
  }
  const long smem = plan.smem_bytes - static_smem;
  const int per_sm = blocks_per_sm(kernel, C::NT, static_cast<int>(smem));
  if (per_sm < 1 || static_cast<long>(per_sm) * r.sm_count < a.items) return out;  // never over-subscribed
  fill_perks_args<Real, S.dim>(pa, pr);
  // (keep_x/y/s stay set although the brick's ghost fill reads its sources from the brick: without those
  // edge-cell stores the H100 measured 1.5 % slower sweeps, 25 of 26 small cases; face-fusion results, run5.)
  // The chunks along the streamed axis: the first one's length and the last one's start (the face planes below), and
  // the shortest (the reach of the neighbour sync).
  const long chunks = a.items / a.tiles;
  int first_len = 0, last_s0 = 0, shortest = INT_MAX;
  for (long q = 0; q < chunks; ++q) {
    int s0 = 0, len = 0;
    stream_chunk_planes<true>(stream_chunks(a), q, s0, len);
    if (q == 0) first_len = len;
    if (q == chunks - 1) last_s0 = s0;
    shortest = std::min(shortest, len);
  }
  // Face planes where the first and the last brick own the cells their ghost planes mirror (brick_face_planes.hpp).
  {
    constexpr int SA = streamed_axis(S.dim);
    const cuda_ops::FaceSet<Real>& fs = pr.faces;
    pa.face_planes_on_chip = kResidentFacePlanes<Real, S, kHasB> && brick_face_planes_on_chip(
        cuda_ops::face_fill_reads_owned_cells_only(r.layout, fs), fs.has[SA][0], fs.has[SA][1], fs.rule[SA][0],
        fs.rule[SA][1], static_cast<int>(a.ns), G::RS, first_len, last_s0);
  }
  pa.cache_planes = a.chunk;
  // Sync with the neighbouring bricks (perks_wait_neighbours) where the backend gave flags for this many blocks. The
  // reach along the streamed axis: enough chunks to cover R + 1 planes (the halo, and the sources of the face ghosts)
  // with the shortest chunk; one tile in x and y (tiles of >= 32 columns and rows against R <= 6).
  pa.sweep_flags = PerksSweepFlags{};
  if (pr.sweep_flags.flag != nullptr && a.items <= pr.sweep_flag_count) {
    if (shortest > 0) {
      pa.sweep_flags = pr.sweep_flags;
      pa.sweep_flags.reach_s = (G::RS + 1 + shortest - 1) / shortest;
    }
  }
  void* args[] = {&pa};
  PERKSOLVE_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(kernel), dim3(static_cast<unsigned>(a.items)),
                                                   dim3(C::NT), args, static_cast<std::size_t>(smem), r.stream));
  out.launched = true;
  out.kernel = PerksKernel::resident;
  out.blocks = static_cast<int>(a.items);
  out.threads = C::NT;
  out.cache_planes = a.chunk;
  out.cached_fraction = 1.0;
  out.rhs_on_chip = pa.rhs_on_chip;
  out.face_planes_on_chip = pa.face_planes_on_chip;
  out.neighbour_sync = pa.sweep_flags.flag != nullptr;
  out.tile_x = C::BX;
  out.plane_sync_steps = kPlaneSyncGap<Real, S, kHasB>;
  out.chunk_lead = a.lead;
  out.model_speedup = plan.predicted_speedup;
  return out;
}

// Launches the resident kernel where the domain fits (not launched otherwise: launched = false): two blocks per SM where
// resident_two_blocks_per_sm says so and they fit, else one; in 3D the one-block tile by the domain's width for the
// shapes other than stars (resident_3d_wide_tile), the other one where the first does not fit.
template <class Real, ShapeSpec S, int MODE, bool SYM>
PerksLaunch launch_perks_resident(const PerksRequest<Real>& pr) {
  using Sel = ResidentTuneSel<Real, S, MODE == static_cast<int>(StencilMode::jacobi)>;
  using T = typename Sel::type;
  // Two blocks per SM where they fit with every array on chip, else one. (H200, 2D fp32 Jacobi at the sides where only
  // one block keeps b on chip, benchmarks/results/gpu-h200-2026-11-30-split-halo/run4, three runs each: 2d13pt at 1625^2
  // 11.4-11.9 us per sweep with one block and b on chip against 15.9-16.1 with two and b streamed; 2d17pt at 1560^2
  // 12.8-13.0 against 16.7-17.1.)
  if constexpr (Sel::kTwoBlocks) {
    if (pr.resident_two_blocks) {
      const PerksLaunch out = launch_perks_resident_tiled<Real, S, MODE, SYM, typename Sel::half>(pr, pr.rhs_on_chip);
      if (out.launched) return out;
    }
  }
  if constexpr (Sel::kWideByFill) {
    using W = typename Sel::wide;
    const bool wide_first = resident_3d_wide_tile(pr.base.layout.n[0]);
    PerksLaunch out = wide_first ? launch_perks_resident_tiled<Real, S, MODE, SYM, W>(pr)
                                 : launch_perks_resident_tiled<Real, S, MODE, SYM, T>(pr);
    if (!out.launched)
      out = wide_first ? launch_perks_resident_tiled<Real, S, MODE, SYM, T>(pr)
                       : launch_perks_resident_tiled<Real, S, MODE, SYM, W>(pr);
    return out;
  } else {
    return launch_perks_resident_tiled<Real, S, MODE, SYM, T>(pr);
  }
}

}  // namespace perksolve::cuda_detail
