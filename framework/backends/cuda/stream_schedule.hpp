// How the streaming stencil kernels cut the streamed axis into chunks (work items = tile x chunk). Plain C++
// (PERKSOLVE_HD for the device), so the arithmetic is unit-tested on any machine
// (tests/unit/test_stream_schedule.cpp); stencil_kernels.cuh plans and walks the chunks with it.
//
// Chunks are numbered in the order a schedule deals them (item u = chunk u / tiles of tile u % tiles).
//
// Equal chunks: chunk q covers planes [q chunk, min(ns, (q + 1) chunk)).
// A tail (StreamChunks::tail_chunk > 0): the first head_chunks chunks are `chunk` planes long, the rest
// `tail_chunk` planes. A dynamic schedule hands items out in order, so the last round of items is the short one, and
// the blocks finish within one short item of each other instead of one long item (a sweep of 15.5 rounds of equal
// items ends with half the SMs idle for most of an item: 3 % of the sweep at 512^3 fp64, measured with ncu as
// sm__cycles_active.avg / elapsed = 0.969).
// Interleaved slabs (StreamChunks::slabs = S > 1): the axis is cut into S slabs of ns / S planes (the first ns % S
// slabs one plane longer), each slab into the same chunks (chunk, head_chunks, tail_chunk planned for ns / S planes;
// a slab's last chunk runs to the slab's end), and chunk q is chunk q / S of slab q % S. When S rows of items (one
// chunk of every tile) run at once, each slab then advances by one chunk per round, and a chunk's first planes (the
// z halo it shares with the chunk before it in the same slab) were read by that chunk just before: an L2 hit. With
// chunks in plain order, the S concurrent chunks are neighbours, and the halo a chunk reads at its start is read by
// its neighbour only at that neighbour's end, a whole chunk later: from DRAM again (3d7pt fp32 at 512^3 on an H200:
// three rows at once, 15.6 % more DRAM reads than the field, ncu).
#pragma once

#include <algorithm>

#include "framework/stencil/shape.hpp"  // PERKSOLVE_HD

namespace perksolve::cuda_detail {

struct StreamChunks {
  int ns = 0;           // planes along the streamed axis
  int chunk = 0;        // planes per (head) chunk
  int head_chunks = 0;  // chunks of `chunk` planes before the tail (per slab)
  int tail_chunk = 0;   // planes per tail chunk; 0: no tail
  int slabs = 1;        // interleaved slabs; 1: chunks in plain order
};

// Planes of one slab's chunk k, the slab being ns planes long, on the chunks of c (whose c.ns is the planned length).
PERKSOLVE_HD inline void slab_chunk_planes(const StreamChunks& c, int ns, long k, int& s0, int& len) {
  const bool head = c.tail_chunk == 0 || k < c.head_chunks;
  const int n = head ? c.chunk : c.tail_chunk;
  s0 = head ? static_cast<int>(k) * c.chunk : c.head_chunks * c.chunk + static_cast<int>(k - c.head_chunks) * n;
  len = (ns < s0 + n ? ns : s0 + n) - s0;
}

// Number of chunks of one slab of c.ns planes.
PERKSOLVE_HD inline long slab_chunk_count(const StreamChunks& c) {
  if (c.tail_chunk == 0) return (c.ns + c.chunk - 1) / c.chunk;
  return c.head_chunks + (c.ns - static_cast<long>(c.head_chunks) * c.chunk + c.tail_chunk - 1) / c.tail_chunk;
}

// The chunks of one slab (the plan of c for ns / slabs planes).
PERKSOLVE_HD inline StreamChunks slab_plan(StreamChunks c) {
  c.ns /= c.slabs;
  c.slabs = 1;
  return c;
}

// First plane s0 and length of chunk q (in dealing order).
PERKSOLVE_HD inline void stream_chunk_planes(const StreamChunks& c, long q, int& s0, int& len) {
  if (c.slabs <= 1) {
    slab_chunk_planes(c, c.ns, q, s0, len);
    return;
  }
  const StreamChunks p = slab_plan(c);
  const int slab = static_cast<int>(q % c.slabs);
  const long k = q / c.slabs;
  const int extra = c.ns - p.ns * c.slabs;  // the first `extra` slabs are one plane longer
  const int start = slab * p.ns + (slab < extra ? slab : extra);
  const int slab_ns = p.ns + (slab < extra ? 1 : 0);
  slab_chunk_planes(p, p.ns, k, s0, len);
  if (k == slab_chunk_count(p) - 1) len = slab_ns - s0;  // the slab's last chunk runs to its end
  s0 += start;
}

// Number of chunks that cover the ns planes.
PERKSOLVE_HD inline long stream_chunk_count(const StreamChunks& c) {
  return c.slabs <= 1 ? slab_chunk_count(c) : c.slabs * slab_chunk_count(slab_plan(c));
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
// With interleaved slabs, each slab gets the tail (its items being tiles x slabs per chunk of the slab plan).
inline StreamChunks plan_stream_tail(StreamChunks c, long tiles, long resident, long min_chunk, int tail_div) {
  if (c.slabs > 1) {
    StreamChunks p = plan_stream_tail(slab_plan(c), tiles * c.slabs, resident, min_chunk, tail_div);
    p.ns = c.ns;
    p.slabs = c.slabs;
    return p;
  }
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

// Interleaves `slabs` slabs into equal chunks c (c.slabs == 1, no tail yet); slabs == 0: automatic, as many slabs as
// rows of items run at once (resident / tiles, rounded down), where that is at least 2. The chunk length stays about
// the same (each slab in round(ns / slabs / c.chunk) balanced chunks). Leaves c unchanged where a slab would hold fewer
// than two chunks (then the slabs are the chunks, and the order is the plain one).
inline StreamChunks plan_stream_slabs(StreamChunks c, long tiles, long resident, int slabs) {
  if (slabs < 0 || c.slabs != 1 || c.tail_chunk != 0 || c.chunk <= 0 || tiles <= 0) return c;
  const long s = slabs > 0 ? slabs : (resident > 0 ? resident / tiles : 1);
  if (s < 2) return c;
  const long per = c.ns / s;                        // planes of the shorter slabs
  const long k = (per + c.chunk / 2) / c.chunk;     // chunks per slab
  if (k < 2) return c;
  c.chunk = static_cast<int>((per + k - 1) / k);
  c.slabs = static_cast<int>(s);
  return c;
}

}  // namespace perksolve::cuda_detail
