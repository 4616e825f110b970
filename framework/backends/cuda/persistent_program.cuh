// Persistent programs (PERKS, issue 6): a sequence of backend operations recorded once
// (CudaBackend::record_persistent) and run as ONE cooperative kernel whose blocks execute the operations in
// order with a device-wide barrier between them, instead of one kernel launch per operation.
//
// Recording: while a ProgramBuilder is attached to the backend, the operations that have a program form
// append a ProgramOp (with the device pointers, layouts and coefficients they would have launched with)
// instead of launching. Those are fill, copy, scale, the constant-coefficient stencil ops (apply, residual,
// Jacobi without its norm), boundary faces, restriction, prolongation, copy_boxes and the native CSR SpMV
// without halo columns. Any other operation reaches the stream, which is captured during recording into a
// throwaway graph: a non-empty graph (or a synchronisation, which fails the capture) means the work cannot
// be a program, and recording returns null.
//
// Every operation runs grid-stride over its cells with the same per-cell arithmetic as its own kernel
// (grid_point_ops.cuh; stencils sum their points in the stencil's order with fused multiply-adds, like
// the streaming kernels).
#pragma once

#include <cuda_runtime.h>

#include <vector>

#include "framework/backends/cuda/cuda_ops.cuh"
#include "framework/backends/cuda/grid_point_ops.cuh"
#include "framework/field/field_layout.hpp"

namespace perksolve::cuda_ops {

enum class ProgramOpKind : int {
  fill,        // out[0 .. l.size()) = a (ghosts and padding included)
  copy,        // out[0 .. l.size()) = in[...]
  scale,       // out = a * in on owned cells
  stencil,     // out = S in (mode 0), b - S in (mode 1), in + a (b - S in) (mode 2), owned cells
  faces,       // boundary faces of out (FaceSet)
  restrict_fw, // coarse out = full weighting of fine `in` (vertex-centred)
  restrict_cc, // cell-centred restriction
  prolongate,  // fine out += P coarse `in`
  copy_boxes,  // box pairs from `in` (layout l2) to out (layout l)
  spmv,        // out = A in, CSR rows (no halo columns)
};

constexpr int kProgramMaxPoints = 27;
constexpr int kProgramMaxBoxes = 8;

template <class Real>
struct ProgramOp {
  ProgramOpKind kind = ProgramOpKind::fill;
  int mode = 0;
  // Set when the program is finalised: `small` operations (little work) run in block 0 alone; `sync_after`
  // puts a device-wide barrier after the operation (not between two small ones, which block 0 orders with a
  // block barrier).
  bool small = false;
  bool sync_after = true;
  // Set when the program is finalised: the boundary-face fill that followed this operation (of its output, every
  // owned cell of which it writes) is done by the operation itself, each thread filling the ghosts of the cells
  // it wrote (fill_cell_face_ghosts) and its share of the constant ghosts; `faces` and `l` then describe them.
  bool faces_after = false;
  // With faces_after: some ghost of the fill takes its value from an owned cell (false: every ghost is a constant,
  // as for vertex-centred Dirichlet faces with one ghost layer, and the written cells need no second look).
  bool faces_from_cells = false;
  Real* out = nullptr;
  const Real* in = nullptr;
  const Real* b = nullptr;
  FieldLayout l, l2;
  OwnedMap map{};  // owned cells of the iterated layout (scale, stencil: l; restriction: coarse; prolongation: fine)
  Real a = 0;
  // stencil
  int np = 0;
  int off[kProgramMaxPoints] = {};  // within a field: recording checks that it fits 32 bits
  Real c[kProgramMaxPoints] = {};
  // transfers
  TransferArgs t{};
  bool vertex = true;
  // faces
  FaceSet<Real> faces{};
  // copy_boxes: cells paired in x-fastest order box by box; a later destination box wins on overlap
  int nbox = 0;
  int sb[kProgramMaxBoxes][6] = {};  // source box begin[3], end[3]
  int db[kProgramMaxBoxes][6] = {};
  long base[kProgramMaxBoxes + 1] = {};
  // spmv
  const int* row_ptr = nullptr;
  const int* col = nullptr;
  const Real* val = nullptr;
  int rows = 0;
};

// Where a program's time goes, per operation, summed over its replays (PERKSOLVE_PROGRAM_TRACE): measured by
// block 0 with the device's global timer from the end of the previous operation to the end of the last
// block's work on this one (work), to the end of the barrier after it (barrier), and to the next descriptor
// in shared memory (descriptor). work_end is the kernel's scratch (the latest block's end of this replay).
struct ProgramTraceSlot {
  unsigned long long work_ns = 0, barrier_ns = 0, descriptor_ns = 0, count = 0, work_end = 0;
};

// How a program runs: on every SM as one cooperative grid (cluster == 0; device-wide barriers), or on one
// thread-block cluster of `cluster` blocks (its hardware barrier between operations).
struct ProgramShape {
  int blocks = 0;
  int cluster = 0;
};

template <class Real>
struct ProgramBuilder {
  std::vector<ProgramOp<Real>> ops;
};

// Work items of an operation (cells, ghost cells, matrix entries): what decides whether it is small.
template <class Real>
long program_op_work(const ProgramOp<Real>& op) {
  switch (op.kind) {
    case ProgramOpKind::fill:
    case ProgramOpKind::copy: return op.l.size();
    case ProgramOpKind::scale:
    case ProgramOpKind::stencil: return op.l.owned_size() * (op.kind == ProgramOpKind::stencil ? op.np : 1);
    case ProgramOpKind::faces: return op.faces.total();
    case ProgramOpKind::restrict_fw:
    case ProgramOpKind::restrict_cc: return op.t.lc.owned_size() * 8;
    // Up to 8 coarse values and their index arithmetic per fine cell: on one SM a 15^3 prolongation is issue-bound
    // (9.7 us in block 0, H200 trace; docs/perf/perks.md), so it counts like the restriction.
    case ProgramOpKind::prolongate: return op.t.lf.owned_size() * 8;
    case ProgramOpKind::copy_boxes: return op.base[op.nbox];
    case ProgramOpKind::spmv: return 32L * op.rows;  // at least one warp per row
  }
  return 0;
}

// The layout of an operation's output when the operation writes every owned cell of it (and nothing else), so
// that it can fill the output's faces itself; null otherwise.
template <class Real>
const FieldLayout* program_op_full_output(const ProgramOp<Real>& op) {
  switch (op.kind) {
    case ProgramOpKind::scale:
    case ProgramOpKind::stencil: return &op.l;
    case ProgramOpKind::restrict_fw:
    case ProgramOpKind::restrict_cc: return &op.t.lc;
    case ProgramOpKind::prolongate: return &op.t.lf;
    default: return nullptr;
  }
}

// Folds each boundary-face fill into the operation just before it when that operation wrote every owned cell of
// the same field (ProgramOp::faces_after): one operation, and one barrier, fewer per fill. A multigrid level fills
// the faces of what it has just computed before every stencil and transfer, so this removes about a third of a
// V-cycle's operations (docs/perf/perks.md).
template <class Real>
void fold_face_fills(std::vector<ProgramOp<Real>>& ops) {
  std::vector<ProgramOp<Real>> kept;
  kept.reserve(ops.size());
  for (const ProgramOp<Real>& op : ops) {
    if (op.kind == ProgramOpKind::faces && !kept.empty()) {
      ProgramOp<Real>& prev = kept.back();
      const FieldLayout* out = program_op_full_output(prev);
      if (out != nullptr && !prev.faces_after && prev.out == op.out && *out == op.l &&
          face_fill_reads_owned_cells_only(op.l, op.faces)) {
        prev.faces_after = true;
        prev.faces_from_cells = face_fill_has_sourced_ghosts(op.l, op.faces);
        prev.faces = op.faces;
        prev.l = op.l;
        continue;
      }
    }
    kept.push_back(op);
  }
  ops = std::move(kept);
}

// Marks the small operations and the barriers (see ProgramOp::small); small_work <= 0: none. Only runs of at least two small
// operations go to block 0: that saves the barriers between them, while an isolated small operation would
// save none and run on one SM instead of all (measured: a 31^3 level's ghost fills in one block made its
// program twice as slow as its CUDA graph; docs/perf/perks.md).
template <class Real>
void mark_small_operations(std::vector<ProgramOp<Real>>& ops, long small_work) {
  const std::size_t n = ops.size();
  std::vector<bool> fits(n);
  for (std::size_t o = 0; o < n; ++o) fits[o] = small_work > 0 && program_op_work(ops[o]) <= small_work;
  for (std::size_t o = 0; o < n; ++o)
    ops[o].small = fits[o] && ((o > 0 && fits[o - 1]) || (o + 1 < n && fits[o + 1]));
  for (std::size_t o = 0; o < n; ++o) ops[o].sync_after = !(ops[o].small && o + 1 < n && ops[o + 1].small);
}

// The program as it runs: face fills folded (fold_face_fills), then the small operations and the barriers marked.
template <class Real>
void finalise_program(std::vector<ProgramOp<Real>>& ops, long small_work) {
  fold_face_fills(ops);
  mark_small_operations(ops, small_work);
}

}  // namespace perksolve::cuda_ops
