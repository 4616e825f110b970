// Non-blocking MPI halo exchange for one field layout: faces, plus edges and corners when the
// stencil needs them, followed by the physical boundary-condition ghost fill. The plan (neighbours,
// boxes, buffers) is built once; `begin`/`finish` allow overlapping interior work with messages.
#pragma once

#include <mpi.h>

#include <array>
#include <vector>

#include "framework/backend/backend.hpp"
#include "framework/grid/decomposition.hpp"

namespace perksolve {

template <class Real>
class HaloExchange {
 public:
  HaloExchange(const Decomposition& decomp, const FieldLayout& layout, bool corners, Backend<Real>& backend);

  // Post receives, pack and send. Must be followed by finish() on the same field.
  void begin(const Field<Real>& f);
  // Wait for all messages and unpack into the ghost layers.
  void finish(Field<Real>& f);
  // Fill ghosts on physical (non-periodic) faces from the boundary conditions, axis by axis over the
  // full padded extents of the other axes, so edges and corners match on any decomposition.
  void apply_boundaries(Field<Real>& f, bool homogeneous) const;
  // exchange + boundaries: after this every ghost the stencil reads is valid.
  void update(Field<Real>& f, bool homogeneous = false) {
    begin(f);
    finish(f);
    apply_boundaries(f, homogeneous);
  }

  // Values moved per exchange (messages and periodic self-copies), in bytes.
  long bytes_per_exchange() const { return static_cast<long>((send_total_ + self_total_) * sizeof(Real)); }
  // Ranks other than this one that messages go to (periodic self-copies not counted).
  int neighbour_count() const { return static_cast<int>(links_.size()); }
  // True when an update is only the physical boundary fill (one rank, no periodic axis): a backend loop
  // (Backend::persistent_sweeps) can then refresh the ghosts itself from faces().
  bool boundary_only() const { return links_.empty() && self_src_boxes_.empty(); }
  const std::vector<BoundaryFace>& faces() const { return faces_; }

 private:
  struct Link {
    int rank;
    int send_tag, recv_tag;
    IndexBox send_box, recv_box;
    long send_offset, recv_offset;  // into the packed host buffers
  };
  const Decomposition& decomp_;
  FieldLayout layout_;
  Backend<Real>& backend_;
  std::vector<Link> links_;
  std::vector<IndexBox> send_boxes_, recv_boxes_;
  std::vector<IndexBox> self_src_boxes_, self_dst_boxes_;  // messages to this rank itself (periodic)
  long send_total_ = 0, recv_total_ = 0, self_total_ = 0;
  HostBuffer<Real> send_buf_, recv_buf_;
  std::vector<MPI_Request> requests_;
  std::vector<BoundaryFace> faces_;
  bool in_flight_ = false;
};

}  // namespace perksolve
