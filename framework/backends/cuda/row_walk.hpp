// How a warp walks one owned row segment in the point-wise row kernels (cuda_ops.cuh: for_owned_row_batches,
// for_owned_row_runs): which cells each lane takes, batch by batch. Plain C++ (PERKSOLVE_HD for the device), so the
// walk is unit-tested on any machine (tests/unit/test_row_walk.cpp).
//
// The walk starts on the 32-element line (kGridRowLine; the allocation itself starts on 256 bytes) at or below the
// segment's first cell, so that each warp-wide access of 32 consecutive cells is one 128-byte line in fp32 (two in
// fp64) and not two (three) partial ones. It takes as many batches as a walk from the first cell would: the lanes
// whose cell would lie before the segment take the cell one span (all batches) further instead, in the segment's
// last line. On rows of one 32-byte sector (FieldLayout::align = 8 floats) the fp32 r update of CG and cg_advance ran
// 16-19 % slower from line-split accesses than on rows of whole lines at 255^3 on an H200
// (benchmarks/results/gpu-h200-2026-12-01-pcg-rows, run 1). This walk made fp64 PCG-MG on rows of 4 doubles 2-3 %
// faster and plain CG 0.8 % (run 5 there); on rows of whole lines it is the walk from the first cell. A shift back to
// the line that added a batch instead (the fp64 255-cell rows took three batches of 128 cells, not two) lost more to
// the fewer bytes in flight per batch than the whole lines gained: the fp64 r update ran at 1.6 TB/s (runs 2-3
// there; docs/perf/pcg-mg-work-units.md, session 49).
#pragma once

#include "framework/field/field_layout.hpp"  // kGridRowLine
#include "framework/stencil/shape.hpp"        // PERKSOLVE_HD

namespace perksolve::cuda_ops {

// Cells from the line at or below allocation index first_cell to it.
PERKSOLVE_HD inline int line_phase(long first_cell) { return static_cast<int>(first_cell & (kGridRowLine - 1)); }

// The cells of one lane in one batch: cell u (< U) is at row position p + offset(u) and exists when live(u), where p
// is the lane's walk position (RowWalk::batch).
struct RowBatch {
  int hi;    // the segment's end - p
  int wrap;  // 0, or the span added to cell 0 of a lane whose position lies before the segment's start
  PERKSOLVE_HD int offset(int u) const { return 32 * u + (u == 0 ? wrap : 0); }
  PERKSOLVE_HD bool live(int u) const { return offset(u) < hi; }
};

// The walk of the segment [i_begin, i_end) of a row by steps of `step` positions per lane (32 U for batches of U
// cells per lane, 32 G for runs of G): positions first .. first + span - 1, first on the line at or below the
// segment's start as far as a multiple of `grain` cells from it allows (1 for batches, G for runs).
struct RowWalk {
  int i_begin, i_end;
  int first, span;
  // The cell that position p stands for: p, or p + span where p lies before the segment.
  PERKSOLVE_HD int cell(int p) const { return p < i_begin ? p + span : p; }
  // The cells of a batch whose cell 0 (before the wrap) is at position p.
  PERKSOLVE_HD RowBatch batch(int p) const { return RowBatch{i_end - p, p < i_begin ? span : 0}; }
};

// s: the allocation index of the row's cell 0.
PERKSOLVE_HD inline RowWalk row_walk(long s, int i_begin, int i_end, int step, int grain) {
  const int span = (i_end - i_begin + step - 1) / step * step;
  return RowWalk{i_begin, i_end, i_begin - line_phase(s + i_begin) / grain * grain, span};
}

}  // namespace perksolve::cuda_ops
