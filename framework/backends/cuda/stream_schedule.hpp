// How the streaming stencil kernels cut the streamed axis into chunks (work items = tile x chunk). Plain C++
// (PERKSOLVE_HD for the device), so the arithmetic is unit-tested on any machine
// (tests/unit/test_stream_schedule.cpp); stencil_kernels.cuh plans and walks the chunks with it.
//
// Equal chunks: chunk q covers planes [q chunk, min(ns, (q + 1) chunk)).
// A tail (StreamChunks::tail_chunk > 0): the first head_chunks chunks are `chunk` planes long, the rest
// `tail_chunk` planes. A dynamic schedule hands items out in order, so the last round of items is the short one, and
// the blocks finish within one short item of each other instead of one long item (a sweep of 15.5 rounds of equal
// items ends with half the SMs idle for most of an item: 3 % of the sweep at 512^3 fp64, measured with ncu as
// sm__cycles_active.avg / elapsed = 0.969).
#pragma once

#include <algorithm>
#include <vector>

#include "framework/stencil/shape.hpp"  // PERKSOLVE_HD

namespace perksolve::cuda_detail {

// The layout axis the streaming kernels walk plane by plane: z in 3D, y in 2D (where a "plane" is a row).
PERKSOLVE_HD constexpr int streamed_axis(int dim) { return dim == 3 ? 2 : 1; }

struct StreamChunks {
  int ns = 0;           // planes along the streamed axis
  int chunk = 0;        // planes per (head) chunk
  int head_chunks = 0;  // chunks of `chunk` planes before the tail
  int tail_chunk = 0;   // planes per tail chunk; 0: no tail
  // Planes by which every chunk starts early (plan_stream_lead): the first chunk is `lead` planes shorter, the last
  // one that much longer than without. Read only by stream_chunk_planes<true> (the kernels whose face items carry
  // extra work); 0 elsewhere.
  int lead = 0;

  friend bool operator==(const StreamChunks&, const StreamChunks&) = default;
};

// First plane s0 and length of chunk q. LED: with the chunks' lead (the other kernels compile the plain form).
template <bool LED = false>
PERKSOLVE_HD inline void stream_chunk_planes(const StreamChunks& c, long q, int& s0, int& len) {
  const bool head = c.tail_chunk == 0 || q < c.head_chunks;
  const int n = head ? c.chunk : c.tail_chunk;
  s0 = head ? static_cast<int>(q) * c.chunk : c.head_chunks * c.chunk + static_cast<int>(q - c.head_chunks) * n;
  if constexpr (LED) {
    const int end = s0 + n - c.lead;
    s0 = s0 > c.lead ? s0 - c.lead : 0;
    len = (c.ns < end ? c.ns : end) - s0;
  } else {
    len = (c.ns < s0 + n ? c.ns : s0 + n) - s0;
  }
}

// Number of chunks that cover the ns planes (with the lead: the ns + lead planes of the unshifted chunks).
inline long stream_chunk_count(const StreamChunks& c) {
  const long ns = static_cast<long>(c.ns) + c.lead;
  if (c.tail_chunk == 0) return (ns + c.chunk - 1) / c.chunk;
  return c.head_chunks + (ns - static_cast<long>(c.head_chunks) * c.chunk + c.tail_chunk - 1) / c.tail_chunk;
}

// Planes that the chunks cover beyond ns (the last chunk's shortfall).
inline long stream_chunk_slack(StreamChunks c) {
  c.lead = 0;
  const long n = stream_chunk_count(c);
  const long covered = c.tail_chunk == 0 ? n * c.chunk
                                         : static_cast<long>(c.head_chunks) * c.chunk +
                                               (n - c.head_chunks) * static_cast<long>(c.tail_chunk);
  return covered - c.ns;
}

// A lead for chunks whose first and last items do extra work (the pipelined PERKS kernel's per-item ghost fill: the
// items at the streamed axis's low and high faces fill R ghost planes each). Without one, the first chunk is a full
// chunk plus that fill, the slowest item of the sweep, and the last chunk is short by the slack. Half the slack moves
// to the front, so that both face items are shorter than a middle chunk by about half the slack, and the chunk count
// stays the same. The H200 trace of 2d17pt Jacobi (fp64 at 4096^2: 33 chunks of 125 rows, slack 29) had the first
// chunk's blocks 6-7 us above the median block and the last chunk's 17 us below it
// (benchmarks/results/gpu-h200-2026-11-29-row-fills/run4/trace.txt).
inline StreamChunks plan_stream_lead(StreamChunks c) {
  c.lead = static_cast<int>(stream_chunk_slack(c) / 2);
  return c;
}

// A lead for the resident kernel's bricks (perks_resident.cuh: one brick per block, every chunk `chunk` planes or
// less, c without a tail), whose sweep period follows the slowest brick (the neighbour sync). The bricks at the
// streamed axis's faces also compute their face planes and fill the face ghosts: about face_planes planes of work more
// than a middle brick (the H200 trace at radius >= 2: 1.5-4 planes; benchmarks/results/
// gpu-h200-2026-11-30-resident-trace). With equal chunks the first brick is a whole chunk plus that work, the slowest
// of the sweep. The lead moves planes from the first chunk to the last one, and adds a chunk where max_chunks (the
// blocks left for them) allows, so that max(chunk, first + face_planes, last + face_planes) is least (ties: the longer
// shortest face chunk, then the smaller lead). It never shortens a face chunk below min(min_len, the shortest chunk
// without a lead), so the neighbour sync's reach (R_s + 1 planes over the shortest chunk) does not grow; lead 0 where
// nothing is gained.
inline StreamChunks plan_brick_face_lead(StreamChunks c, long max_chunks, int face_planes, int min_len) {
  c.lead = 0;
  if (c.tail_chunk != 0 || c.chunk <= 0 || c.ns <= c.chunk) return c;
  struct Outcome {
    bool ok = false;
    long work = 0;
    int shortest = 0;
  };
  auto outcome = [&](int lead) {
    Outcome o;
    const long n = (static_cast<long>(c.ns) + lead + c.chunk - 1) / c.chunk;
    if (lead > 0 && n > max_chunks) return o;
    const int first = c.chunk - lead;
    const int last = static_cast<int>(c.ns + lead - (n - 1) * c.chunk);
    o.ok = true;
    o.work = std::max<long>({n >= 3 ? c.chunk : 0, first + face_planes, last + face_planes});
    o.shortest = std::min(first, last);
    return o;
  };
  const Outcome none = outcome(0);
  const int floor = std::min(min_len, none.shortest);
  Outcome best = none;
  for (int lead = 1; lead < c.chunk; ++lead) {
    const Outcome o = outcome(lead);
    if (!o.ok || o.shortest < floor || o.work >= none.work) continue;
    if (o.work < best.work || (o.work == best.work && o.shortest > best.shortest)) {
      best = o;
      c.lead = lead;
    }
  }
  return c;
}

// Whether a row tile `narrow` columns wide covers an x extent nx with less padding than one `wide` columns wide, by
// more than 3 % (with_wide_tune, 2D rows): ceil(nx / narrow) narrow columns against ceil(nx / wide) wide ones. The
// wide tile wins ties (at 16384^2 it was 1-2 % faster per cell than the narrow one; H200, stencil_sweep round 21).
constexpr bool narrow_rows_pay(long nx, long wide, long narrow) {
  const long pw = (nx + wide - 1) / wide * wide, pn = (nx + narrow - 1) / narrow * narrow;
  return pn * 100 < pw * 97;
}

// Default tail_div of plan_stream_tail (StencilRequest::schedule_tail, CudaBackend::set_schedule_tail): stencil_sweep
// round 16 (H200, 512^3, benchmarks/results/gpu-h200-2026-11-25-sweep-tail): 3d7pt fp64 0.887-0.891 -> 0.897-0.898 of
// the copy bound, fp32 0.823-0.827 -> 0.832-0.838; 27-point CSE and 2d5pt unchanged.
constexpr int kStreamTailDiv = 4;

// Smallest number of rounds of equal items (items / resident block slots) at which a tail is planned.
constexpr long kStreamTailMinRounds = 4;

// Adds a tail to equal chunks c (c.tail_chunk == 0) of `tiles` tile columns on `resident` block slots: the last
// ceil(resident / tiles) chunks (about one round of items) become tail_div times shorter, at least min_chunk planes;
// the head keeps balanced chunks of at most c.chunk planes. Leaves c unchanged when tail_div < 2, when the
// schedule has fewer than kStreamTailMinRounds rounds (a tail round would then cost more than the idle end it
// saves), or when the chunks are too short to shorten.
inline StreamChunks plan_stream_tail(StreamChunks c, long tiles, long resident, long min_chunk, int tail_div) {
  if (tail_div < 2 || c.tail_chunk != 0 || c.chunk <= 0 || tiles <= 0 || resident <= 0) return c;
  if (tiles * stream_chunk_count(c) < kStreamTailMinRounds * resident) return c;
  const long tc = std::max<long>(min_chunk, c.chunk / tail_div);
  const long tail_planes = tc * ((resident + tiles - 1) / tiles);
  if (2 * tc > c.chunk || c.ns - tail_planes < c.chunk) return c;
  const long nh = (c.ns - tail_planes + c.chunk - 1) / c.chunk;
  const long ch = (c.ns - tail_planes + nh - 1) / nh;  // balanced head chunks, covering at least ns - tail_planes
  if (c.ns - nh * ch <= 0) return c;
  c.chunk = static_cast<int>(ch);
  c.head_chunks = static_cast<int>(nh);
  c.tail_chunk = static_cast<int>(tc);
  return c;
}

// Static items (item i to block i % blocks; item i is chunk i / tiles of tile t = i % tiles, the tile at column
// t % tiles_x and row t / tiles_x) whose blocks also fill the domain's ghosts next to their items (the pipelined PERKS
// kernel's per-item fill). Their work, in planes: the chunk's planes plus halo_planes, plus face_planes for each face of
// the domain the item touches (x, the rows' y in 3D, the streamed axis).
struct StaticItemWork {
  long tiles_x = 1;
  long tiles = 1;
  bool row_faces = false;  // the tile rows meet faces of the domain (3D; 2D rows are the streamed axis)
  int halo_planes = 0;
  int face_planes = 0;
};

inline long static_item_work(const StreamChunks& c, const StaticItemWork& w, long i) {
  const long q = i / w.tiles, t = i - q * w.tiles;
  const long tx = t % w.tiles_x, ty = t / w.tiles_x, tiles_y = w.tiles / w.tiles_x;
  int s0 = 0, len = 0;
  stream_chunk_planes<true>(c, q, s0, len);
  const long faces = (tx == 0) + (tx == w.tiles_x - 1) + (w.row_faces ? (ty == 0) + (ty == tiles_y - 1) : 0) +
                     (s0 == 0) + (s0 + len == c.ns);
  return len + w.halo_planes + faces * w.face_planes;
}

// The largest work of a block when `items` static items are dealt to `blocks` blocks.
inline long static_deal_max_work(const StreamChunks& c, const StaticItemWork& w, long items, long blocks) {
  std::vector<long> sum(static_cast<std::size_t>(blocks), 0);
  for (long i = 0; i < items; ++i) sum[static_cast<std::size_t>(i % blocks)] += static_item_work(c, w, i);
  return *std::max_element(sum.begin(), sum.end());
}

// Most block counts balance_static_blocks tries.
constexpr long kStaticBalanceCandidates = 32;

// The block count in [lo, hi] for static items that keeps lo's rounds (ceil(items / blocks)) and minimises blocks x
// the largest block's work (on a DRAM-bound sweep a block's rate falls as blocks share the bandwidth, so that product
// stands for the sweep's end); lo where nothing is better. The grid stride decides which tile columns a block's items
// fall on: at 384^3, 3d13pt fp64 Jacobi (6 x 48 tiles, 15 chunks) on 255 blocks gave blocks b % 3 == 1 no x-face item
// and the others one in two, and the H200 trace put exactly those blocks fastest and slowest, 405 / 450 us against a
// median of 430 (benchmarks/results/gpu-h200-2026-11-29-row-fills/run4/trace.txt).
inline long balance_static_blocks(const StreamChunks& c, const StaticItemWork& w, long items, long lo, long hi) {
  if (items <= 0 || lo <= 0 || hi <= lo) return lo;
  const long rounds = (items + lo - 1) / lo;
  long best = lo, best_cost = -1;
  for (long b = lo; b <= hi && b - lo < kStaticBalanceCandidates && (items + b - 1) / b == rounds; ++b) {
    const long cost = b * static_deal_max_work(c, w, items, b);
    if (best_cost < 0 || cost < best_cost) {
      best_cost = cost;
      best = b;
    }
  }
  return best;
}

}  // namespace perksolve::cuda_detail
