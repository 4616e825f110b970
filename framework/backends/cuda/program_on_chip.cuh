// On-chip fields of a persistent program (PERKS caching for the multigrid coarse levels, issue 6 item 4).
//
// A program's small fields (the fields of the levels of at most `max_cells` owned cells, e.g. a V-cycle's 15^3
// and 7^3 levels) live in block 0's shared memory for the whole kernel: block 0 loads them at the start, runs
// every operation that touches them with block barriers in between, and stores what it wrote at the end. Those
// operations read their neighbours from shared memory instead of L2, and no device-wide barrier separates
// them. Operations on the other fields (a larger level, the coarse solve's SpMV over its matrix) run on the
// whole grid as before.
//
// In shared memory a field is packed (FieldLayout::align = 1: no row padding), so that a 15^3 level's four
// fields (17^3 cells each with ghosts) fit in 160 KB in fp64 instead of 290 KB with 32-element rows. The
// placement rewrites the operations' layouts, stencil offsets, owned-cell maps and face slabs for the packed
// layout; the arithmetic is unchanged, so the results are those of the same program without on-chip fields,
// bit for bit. The padding cells of an on-chip field's global copy keep their values (a fill or copy of an
// on-chip field covers its owned and ghost cells).
//
// On-chip pointers in the descriptors are tagged offsets (kOnChipTag | bytes into the dynamic shared memory):
// the host cannot know the shared window's generic address, so each block resolves them when it copies a
// descriptor into shared memory (resolve_on_chip_pointers).
#pragma once

#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <map>
#include <set>
#include <vector>

#include "framework/backends/cuda/persistent_program.cuh"

namespace perksolve::cuda_ops {

constexpr unsigned long long kOnChipTag = 1ull << 63;

// What block 0 loads into shared memory before the first operation.
enum class OnChipLoad : int {
  none,    // the first operation on the field writes all of it (fill)
  ghosts,  // the first writes every owned cell (scale, stencil, restriction): its ghosts still come from memory
  all,     // the first reads it, or writes part of it
};

template <class Real>
struct OnChipField {
  Real* global = nullptr;
  FieldLayout lg;           // in global memory
  FieldLayout ls;           // packed, in shared memory
  unsigned offset = 0;      // bytes into the program's dynamic shared memory
  OnChipLoad load = OnChipLoad::all;
  bool store = false;       // some operation writes it: block 0 stores it back at the end
};

struct OnChipPlan {
  int fields = 0;
  long bytes = 0;  // dynamic shared memory of the program
  int ops = 0;     // operations that run in block 0 because they touch on-chip fields
};

inline FieldLayout packed_layout(FieldLayout l) {
  l.align = 1;
  return l;
}

namespace on_chip_detail {

enum class Use { read, write_all, write_owned, read_write };

template <class Real>
struct FieldUse {
  const Real* p;
  const FieldLayout* l;
  Use use;
};

// The fields an operation touches, reads before writes, with the layout the operation indexes each with.
// SpMV vectors come back with a null layout (flat rows: never on chip, the SpMV runs on the grid).
template <class Real>
std::vector<FieldUse<Real>> op_uses(const ProgramOp<Real>& op) {
  std::vector<FieldUse<Real>> u;
  switch (op.kind) {
    case ProgramOpKind::fill: u.push_back({op.out, &op.l, Use::write_all}); break;
    case ProgramOpKind::copy:
      u.push_back({op.in, &op.l, Use::read});
      u.push_back({op.out, &op.l, Use::write_all});
      break;
    case ProgramOpKind::scale:
      u.push_back({op.in, &op.l, Use::read});
      u.push_back({op.out, &op.l, Use::write_owned});
      break;
    case ProgramOpKind::stencil:
      u.push_back({op.in, &op.l, Use::read});
      if (op.mode != 0) u.push_back({op.b, &op.l, Use::read});
      u.push_back({op.out, &op.l, Use::write_owned});
      break;
    case ProgramOpKind::faces: u.push_back({op.out, &op.l, Use::read_write}); break;
    case ProgramOpKind::restrict_fw:
    case ProgramOpKind::restrict_cc:
      u.push_back({op.in, &op.t.lf, Use::read});
      u.push_back({op.out, &op.t.lc, Use::write_owned});
      break;
    case ProgramOpKind::prolongate:
      u.push_back({op.in, &op.t.lc, Use::read});
      u.push_back({op.out, &op.t.lf, Use::read_write});
      break;
    case ProgramOpKind::copy_boxes:
      u.push_back({op.in, &op.l2, Use::read});
      u.push_back({op.out, &op.l, Use::read_write});
      break;
    case ProgramOpKind::spmv:
      u.push_back({op.in, nullptr, Use::read});
      u.push_back({op.out, nullptr, Use::read_write});
      break;
  }
  return u;
}

// Operations that index all their fields with one layout (op.l): their fields are on chip together or not at all.
template <class Real>
bool one_layout(const ProgramOp<Real>& op) {
  return op.kind == ProgramOpKind::fill || op.kind == ProgramOpKind::copy || op.kind == ProgramOpKind::scale ||
         op.kind == ProgramOpKind::stencil || op.kind == ProgramOpKind::faces;
}

// (dx, dy, dz) of a stencil offset within layout l, searched within the ghost widths; false when none matches.
inline bool decode_offset(const FieldLayout& l, long off, int& dx, int& dy, int& dz) {
  for (dz = -l.ghost[2]; dz <= l.ghost[2]; ++dz)
    for (dy = -l.ghost[1]; dy <= l.ghost[1]; ++dy)
      for (dx = -l.ghost[0]; dx <= l.ghost[0]; ++dx)
        if (dx + dy * l.stride_y() + dz * l.stride_z() == off) return true;
  return false;
}

}  // namespace on_chip_detail

// Chooses the on-chip fields of a finalised-to-be program (after fold_face_fills, before mark_small_operations)
// and rewrites its operations for them (ProgramOp::on_chip marks the operations block 0 must run). Candidates:
// fields whose layout has at most max_cells owned cells, always seen with that one layout, not an SpMV vector,
// and whose stencil offsets decode within the ghosts. Layouts are taken smallest first while their fields fit in
// budget_bytes. Returns the fields (empty: the program has none) and fills plan.
template <class Real>
std::vector<OnChipField<Real>> place_on_chip(std::vector<ProgramOp<Real>>& ops, long max_cells, long budget_bytes,
                                             OnChipPlan& plan) {
  using namespace on_chip_detail;
  plan = OnChipPlan{};
  if (max_cells <= 0 || budget_bytes <= 0) return {};
  // Every field (by pointer) with its layout; pointers seen with two layouts, or by an SpMV, stay in memory.
  std::map<const Real*, FieldLayout> layout_of;
  std::set<const Real*> excluded;
  for (const ProgramOp<Real>& op : ops)
    for (const FieldUse<Real>& u : op_uses(op)) {
      if (u.p == nullptr) continue;
      if (u.l == nullptr) {
        excluded.insert(u.p);
        continue;
      }
      auto [it, fresh] = layout_of.emplace(u.p, *u.l);
      if (!fresh && !(it->second == *u.l)) excluded.insert(u.p);
    }
  for (const ProgramOp<Real>& op : ops)
    if (op.kind == ProgramOpKind::stencil)
      for (int p = 0; p < op.np; ++p) {
        int dx, dy, dz;
        if (!decode_offset(op.l, op.off[p], dx, dy, dz))
          for (const FieldUse<Real>& u : op_uses(op)) excluded.insert(u.p);
      }
  // Candidate layouts, smallest first, while their fields fit.
  std::map<long, std::vector<const Real*>> by_size;  // owned cells -> fields (one layout per size is typical)
  for (const auto& [p, l] : layout_of)
    if (!excluded.count(p) && l.owned_size() <= max_cells) by_size[l.owned_size()].push_back(p);
  std::set<const Real*> chosen;
  long bytes = 0;
  for (const auto& [cells, fields] : by_size) {
    long add = 0;
    for (const Real* p : fields) add += (packed_layout(layout_of[p]).size() * static_cast<long>(sizeof(Real)) + 15) / 16 * 16;
    if (bytes + add > budget_bytes) break;
    bytes += add;
    chosen.insert(fields.begin(), fields.end());
  }
  // One-layout operations keep their fields together: drop the on-chip ones of a mixed operation until none is.
  for (bool changed = true; changed;) {
    changed = false;
    for (const ProgramOp<Real>& op : ops) {
      if (!one_layout(op)) continue;
      int on = 0, off = 0;
      for (const FieldUse<Real>& u : op_uses(op))
        if (u.p != nullptr) (chosen.count(u.p) ? on : off) += 1;
      if (on > 0 && off > 0) {
        for (const FieldUse<Real>& u : op_uses(op)) changed |= chosen.erase(u.p) > 0;
      }
    }
  }
  if (chosen.empty()) return {};

  // Shared-memory offsets (16-byte aligned), in pointer order.
  std::vector<OnChipField<Real>> fields;
  std::map<const Real*, int> slot;
  long offset = 0;
  for (const Real* p : chosen) {
    OnChipField<Real> f;
    f.global = const_cast<Real*>(p);
    f.lg = layout_of[p];
    f.ls = packed_layout(f.lg);
    f.offset = static_cast<unsigned>(offset);
    offset += (f.ls.size() * static_cast<long>(sizeof(Real)) + 15) / 16 * 16;
    slot[p] = static_cast<int>(fields.size());
    fields.push_back(f);
  }
  // Load: decided by the first operation that touches the field; store: written anywhere.
  std::vector<bool> seen(fields.size(), false);
  for (const ProgramOp<Real>& op : ops)
    for (const FieldUse<Real>& u : op_uses(op)) {
      auto it = slot.find(u.p);
      if (it == slot.end()) continue;
      OnChipField<Real>& f = fields[it->second];
      if (!seen[it->second]) {
        seen[it->second] = true;
        f.load = u.use == Use::write_all ? OnChipLoad::none
                 : u.use == Use::write_owned ? OnChipLoad::ghosts
                                             : OnChipLoad::all;
      }
      if (u.use != Use::read) f.store = true;
    }

  // Rewrite the operations.
  auto on = [&](const Real* p) { return p != nullptr && slot.count(p) > 0; };
  auto tag = [&](const Real* p) {
    return reinterpret_cast<Real*>(kOnChipTag | fields[slot.at(p)].offset);
  };
  for (ProgramOp<Real>& op : ops) {
    const bool out_on = on(op.out), in_on = on(op.in), b_on = on(op.b);
    if (!out_on && !in_on && !b_on) continue;
    op.on_chip = true;
    ++plan.ops;
    switch (op.kind) {
      case ProgramOpKind::fill:
      case ProgramOpKind::copy:
      case ProgramOpKind::scale:
      case ProgramOpKind::faces:
        op.l = packed_layout(op.l);
        break;
      case ProgramOpKind::stencil: {
        const FieldLayout lg = op.l;
        op.l = packed_layout(op.l);
        for (int p = 0; p < op.np; ++p) {
          int dx, dy, dz;
          decode_offset(lg, op.off[p], dx, dy, dz);  // checked above
          op.off[p] = static_cast<int>(dx + dy * op.l.stride_y() + dz * op.l.stride_z());
        }
        break;
      }
      case ProgramOpKind::restrict_fw:
      case ProgramOpKind::restrict_cc:
        if (in_on) op.t.lf = packed_layout(op.t.lf);
        if (out_on) op.t.lc = packed_layout(op.t.lc);
        break;
      case ProgramOpKind::prolongate:
        if (in_on) op.t.lc = packed_layout(op.t.lc);
        if (out_on) op.t.lf = packed_layout(op.t.lf);
        break;
      case ProgramOpKind::copy_boxes:
        if (in_on) op.l2 = packed_layout(op.l2);
        if (out_on) op.l = packed_layout(op.l);
        break;
      case ProgramOpKind::spmv: break;  // never on chip (excluded above)
    }
    // A folded face fill (ProgramOp::faces_after) indexes the output with op.l.
    if (op.faces_after && out_on) op.l = packed_layout(op.l);
    // The owned-cell map of the iterated layout, and the face slabs of the output's layout.
    if (op.kind == ProgramOpKind::scale || op.kind == ProgramOpKind::stencil) op.map = owned_map(op.l);
    if (op.kind == ProgramOpKind::restrict_fw || op.kind == ProgramOpKind::restrict_cc) op.map = owned_map(op.t.lc);
    if (op.kind == ProgramOpKind::prolongate) op.map = owned_map(op.t.lf);
    if ((op.kind == ProgramOpKind::faces || op.faces_after) && out_on) face_set_slabs(op.l, op.faces);
    if (out_on) op.out = tag(op.out);
    if (in_on) op.in = tag(op.in);
    if (b_on) op.b = tag(op.b);
  }
  plan.fields = static_cast<int>(fields.size());
  plan.bytes = offset;
  return fields;
}

// ---- device side ---------------------------------------------------------------------------------------
// A descriptor word that this thread copied into shared memory (prefetch_descriptor: word w by thread w mod
// blockDim.x) and that holds a tagged on-chip pointer becomes the generic address of the block's shared memory.
template <class Real>
__device__ __forceinline__ void resolve_on_chip_pointers(ProgramOp<Real>* d, unsigned char* smem) {
  constexpr int words[3] = {static_cast<int>(offsetof(ProgramOp<Real>, out) / 8),
                            static_cast<int>(offsetof(ProgramOp<Real>, in) / 8),
                            static_cast<int>(offsetof(ProgramOp<Real>, b) / 8)};
  auto* w = reinterpret_cast<unsigned long long*>(d);
#pragma unroll
  for (int q = 0; q < 3; ++q)
    if (words[q] % static_cast<int>(blockDim.x) == static_cast<int>(threadIdx.x)) {
      const unsigned long long v = w[words[q]];
      if (v & kOnChipTag) w[words[q]] = reinterpret_cast<unsigned long long>(smem + (v & ~kOnChipTag));
    }
}

// Cell p of a packed layout as (i, j, k).
__device__ __forceinline__ void packed_cell(const FieldLayout& ls, long p, int& i, int& j, int& k) {
  const long sy = ls.padded(0), ny = ls.padded(1);
  const long row = p / sy;
  i = static_cast<int>(p - row * sy) - ls.ghost[0];
  j = static_cast<int>(row % ny) - ls.ghost[1];
  k = static_cast<int>(row / ny) - ls.ghost[2];
}

// Block 0, before the first operation: the fields' cells (OnChipField::load) copied into shared memory, all in
// flight at once (cp.async), then a block barrier.
template <class Real>
__device__ void load_on_chip_fields(const OnChipField<Real>* fields, int nfields, unsigned char* smem) {
  for (int f = 0; f < nfields; ++f) {
    const OnChipField<Real>& fd = fields[f];
    if (fd.load == OnChipLoad::none) continue;
    Real* s = reinterpret_cast<Real*>(smem + fd.offset);
    const long n = fd.ls.size();
    for (long p = threadIdx.x; p < n; p += blockDim.x) {
      int i, j, k;
      packed_cell(fd.ls, p, i, j, k);
      if (fd.load == OnChipLoad::ghosts && i >= 0 && i < fd.ls.n[0] && j >= 0 && j < fd.ls.n[1] && k >= 0 &&
          k < fd.ls.n[2])
        continue;
      __pipeline_memcpy_async(s + p, fd.global + fd.lg.index(i, j, k), sizeof(Real));
    }
  }
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
}

// Block 0, after the last operation: every field an operation wrote goes back to its global copy (owned cells
// and ghosts).
template <class Real>
__device__ void store_on_chip_fields(const OnChipField<Real>* fields, int nfields, const unsigned char* smem) {
  __syncthreads();
  for (int f = 0; f < nfields; ++f) {
    const OnChipField<Real>& fd = fields[f];
    if (!fd.store) continue;
    const Real* s = reinterpret_cast<const Real*>(smem + fd.offset);
    const long n = fd.ls.size();
    for (long p = threadIdx.x; p < n; p += blockDim.x) {
      int i, j, k;
      packed_cell(fd.ls, p, i, j, k);
      fd.global[fd.lg.index(i, j, k)] = s[p];
    }
  }
}

}  // namespace perksolve::cuda_ops
