#include "framework/halo/halo_exchange.hpp"

#include <stdexcept>
#include <type_traits>

namespace perksolve {
namespace {

int direction_tag(int dx, int dy, int dz) { return (dx + 1) + 3 * (dy + 1) + 9 * (dz + 1); }

// Along one axis: the owned slab sent towards direction d, and the ghost slab received from it.
void slab(int d, int n, int g, int& send_b, int& send_e, int& recv_b, int& recv_e) {
  if (d < 0) {
    send_b = 0, send_e = g, recv_b = -g, recv_e = 0;
  } else if (d > 0) {
    send_b = n - g, send_e = n, recv_b = n, recv_e = n + g;
  } else {
    send_b = 0, send_e = n, recv_b = 0, recv_e = n;
  }
}

template <class Real>
MPI_Datatype mpi_type() {
  return std::is_same_v<Real, float> ? MPI_FLOAT : MPI_DOUBLE;
}

}  // namespace

template <class Real>
HaloExchange<Real>::HaloExchange(const Decomposition& decomp, const FieldLayout& layout, bool corners,
                                 Backend<Real>& backend)
    : decomp_(decomp), layout_(layout), backend_(backend) {
  const int dim = decomp.grid().dim;
  const int rz = dim == 3 ? 1 : 0;
  int me = 0;
  MPI_Comm_rank(decomp.comm(), &me);
  for (int dz = -rz; dz <= rz; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const int nonzero = (dx != 0) + (dy != 0) + (dz != 0);
        if (nonzero == 0 || (!corners && nonzero > 1)) continue;
        const int d[3] = {dx, dy, dz};
        bool active = true;
        for (int a = 0; a < 3; ++a) active &= !(d[a] != 0 && layout.ghost[a] == 0);
        if (!active) continue;
        const int rank = decomp.neighbor(dx, dy, dz);
        if (rank == MPI_PROC_NULL) continue;
        if (rank == me) {
          // A periodic axis held by this rank alone: the slab sent towards d is the ghost slab on the
          // opposite side, copied within the backend's memory (no host staging, no MPI).
          IndexBox src, dst, unused;
          for (int a = 0; a < 3; ++a) {
            slab(d[a], layout.n[a], layout.ghost[a], src.begin[a], src.end[a], unused.begin[a], unused.end[a]);
            slab(-d[a], layout.n[a], layout.ghost[a], unused.begin[a], unused.end[a], dst.begin[a], dst.end[a]);
          }
          self_src_boxes_.push_back(src);
          self_total_ += src.count();
          self_dst_boxes_.push_back(dst);
          continue;
        }
        Link link{};
        link.rank = rank;
        link.send_tag = direction_tag(dx, dy, dz);
        link.recv_tag = direction_tag(-dx, -dy, -dz);
        for (int a = 0; a < 3; ++a)
          slab(d[a], layout.n[a], layout.ghost[a], link.send_box.begin[a], link.send_box.end[a], link.recv_box.begin[a],
               link.recv_box.end[a]);
        link.send_offset = send_total_;
        link.recv_offset = recv_total_;
        send_total_ += link.send_box.count();
        recv_total_ += link.recv_box.count();
        send_boxes_.push_back(link.send_box);
        recv_boxes_.push_back(link.recv_box);
        links_.push_back(link);
      }
  send_buf_ = backend.create_host_buffer(send_total_);
  recv_buf_ = backend.create_host_buffer(recv_total_);

  const GridSpec& grid = decomp.grid();
  for (int a = 0; a < dim; ++a)
    for (int s = 0; s < 2; ++s)
      if (decomp.on_physical_boundary(a, s) && layout.ghost[a] > 0)
        faces_.push_back(BoundaryFace{a, s, grid.boundary[a][s], grid.centering, grid.spacing(a)});
}

template <class Real>
void HaloExchange<Real>::begin(const Field<Real>& f) {
  if (in_flight_) throw std::logic_error("halo exchange begun twice without finish");
  if (!(f.layout() == layout_)) throw std::logic_error("halo exchange used with a field of another layout");
  in_flight_ = true;
  requests_.assign(2 * links_.size(), MPI_REQUEST_NULL);
  const MPI_Comm comm = decomp_.comm();
  for (size_t l = 0; l < links_.size(); ++l) {
    const Link& k = links_[l];
    MPI_Irecv(recv_buf_.data.get() + k.recv_offset, static_cast<int>(k.recv_box.count()), mpi_type<Real>(), k.rank,
              k.recv_tag, comm, &requests_[l]);
  }
  if (send_total_ > 0) backend_.pack(f, send_boxes_, send_buf_.data.get());
  for (size_t l = 0; l < links_.size(); ++l) {
    const Link& k = links_[l];
    MPI_Isend(send_buf_.data.get() + k.send_offset, static_cast<int>(k.send_box.count()), mpi_type<Real>(), k.rank,
              k.send_tag, comm, &requests_[links_.size() + l]);
  }
}

template <class Real>
void HaloExchange<Real>::finish(Field<Real>& f) {
  if (!in_flight_) throw std::logic_error("halo exchange finished without begin");
  MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
  in_flight_ = false;
  if (recv_total_ > 0) backend_.unpack(f, recv_boxes_, recv_buf_.data.get());
  if (!self_src_boxes_.empty()) backend_.copy_boxes(f, self_src_boxes_, f, self_dst_boxes_);
}

template <class Real>
void HaloExchange<Real>::apply_boundaries(Field<Real>& f, bool homogeneous) const {
  backend_.fill_boundary_faces(f, faces_, homogeneous);
}

template class HaloExchange<float>;
template class HaloExchange<double>;

}  // namespace perksolve
