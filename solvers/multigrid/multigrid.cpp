#include "solvers/multigrid/multigrid.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <numbers>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "framework/runtime/sampling.hpp"
#include "framework/util/env.hpp"
#include "framework/util/log.hpp"
#include "solvers/multigrid/dense_coarse_solver.hpp"

namespace perksolve {
namespace {

template <class Real>
MPI_Datatype mpi_real() {
  return std::is_same_v<Real, float> ? MPI_FLOAT : MPI_DOUBLE;
}

IndexBox intersect(const IndexBox& a, const IndexBox& b) {
  IndexBox r;
  for (int d = 0; d < 3; ++d) {
    r.begin[d] = std::max(a.begin[d], b.begin[d]);
    r.end[d] = std::min(a.end[d], b.end[d]);
    if (r.end[d] < r.begin[d]) r.end[d] = r.begin[d];
  }
  return r;
}

IndexBox shifted(const IndexBox& b, const std::array<long, 3>& origin) {
  IndexBox r = b;
  for (int d = 0; d < 3; ++d) {
    r.begin[d] -= static_cast<int>(origin[d]);
    r.end[d] -= static_cast<int>(origin[d]);
  }
  return r;
}

}  // namespace

// Moves the values of global index boxes between two distributions of the same grid: every rank
// gives its `src` box (of a field whose local (0,0,0) is global `src_origin`) and receives its `dst`
// box (possibly with ghost positions). The plan (intersections, buffers) is built once.
template <class Real>
class Redistributor {
 public:
  Redistributor(MPI_Comm comm, Backend<Real>& be, const IndexBox& src, std::array<long, 3> src_origin,
                const IndexBox& dst, std::array<long, 3> dst_origin)
      : comm_(comm), be_(be) {
    int size = 1, me = 0;
    MPI_Comm_size(comm, &size);
    MPI_Comm_rank(comm, &me);
    int mine[12];
    for (int d = 0; d < 3; ++d) {
      mine[d] = src.begin[d], mine[3 + d] = src.end[d], mine[6 + d] = dst.begin[d], mine[9 + d] = dst.end[d];
    }
    std::vector<int> all(12 * static_cast<std::size_t>(size));
    MPI_Allgather(mine, 12, MPI_INT, all.data(), 12, MPI_INT, comm);
    for (int q = 0; q < size; ++q) {
      IndexBox qs, qd;
      for (int d = 0; d < 3; ++d) {
        qs.begin[d] = all[12 * q + d], qs.end[d] = all[12 * q + 3 + d];
        qd.begin[d] = all[12 * q + 6 + d], qd.end[d] = all[12 * q + 9 + d];
      }
      const IndexBox s = intersect(src, qd);
      if (q == me) {
        // The part that stays on this rank: a copy within the backend's memory (no host, no MPI).
        if (s.count() > 0) {
          self_src_.push_back(shifted(s, src_origin));
          self_dst_.push_back(shifted(s, dst_origin));
        }
        continue;
      }
      if (s.count() > 0) {
        sends_.push_back({q, send_total_, s.count()});
        send_boxes_.push_back(shifted(s, src_origin));
        send_total_ += s.count();
      }
      const IndexBox r = intersect(qs, dst);
      if (r.count() > 0) {
        recvs_.push_back({q, recv_total_, r.count()});
        recv_boxes_.push_back(shifted(r, dst_origin));
        recv_total_ += r.count();
      }
    }
    send_buf_ = be.create_host_buffer(send_total_);
    recv_buf_ = be.create_host_buffer(recv_total_);
  }

  // True when every value stays on this rank (no MPI messages, only backend-side copies).
  bool local_only() const { return sends_.empty() && recvs_.empty(); }

  void run(const Field<Real>* src, Field<Real>* dst) {
    std::vector<MPI_Request> req;
    req.reserve(sends_.size() + recvs_.size());
    for (const Msg& m : recvs_) {
      req.emplace_back();
      MPI_Irecv(recv_buf_.data.get() + m.offset, static_cast<int>(m.count), mpi_real<Real>(), m.rank, 73, comm_,
                &req.back());
    }
    if (send_total_ > 0) be_.pack(*src, send_boxes_, send_buf_.data.get());
    for (const Msg& m : sends_) {
      req.emplace_back();
      MPI_Isend(send_buf_.data.get() + m.offset, static_cast<int>(m.count), mpi_real<Real>(), m.rank, 73, comm_,
                &req.back());
    }
    if (!self_src_.empty()) be_.copy_boxes(*src, self_src_, *dst, self_dst_);
    MPI_Waitall(static_cast<int>(req.size()), req.data(), MPI_STATUSES_IGNORE);
    if (recv_total_ > 0) be_.unpack(*dst, recv_boxes_, recv_buf_.data.get());
  }

 private:
  struct Msg {
    int rank;
    long offset, count;
  };
  MPI_Comm comm_;
  Backend<Real>& be_;
  std::vector<Msg> sends_, recvs_;
  std::vector<IndexBox> send_boxes_, recv_boxes_;
  std::vector<IndexBox> self_src_, self_dst_;  // this rank's own part, paired
  long send_total_ = 0, recv_total_ = 0;
  HostBuffer<Real> send_buf_, recv_buf_;
};

template <class Real>
struct Multigrid<Real>::Level {
  GridSpec grid;
  std::array<int, 3> dims{1, 1, 1};  // rank grid (known on every rank)
  MPI_Comm comm = MPI_COMM_NULL;     // participants (MPI_COMM_NULL when this rank is idle here)
  MPI_Comm split_comm = MPI_COMM_NULL;  // owned sub-communicator of an agglomerated level
  bool active = false;
  bool agglomerated = false;
  std::unique_ptr<Decomposition> own_decomp;
  const Decomposition* decomp = nullptr;
  std::unique_ptr<Backend<Real>> own_backend;
  Backend<Real>* be = nullptr;
  std::unique_ptr<GridOperator<Real>> own_A;
  GridOperator<Real>* A = nullptr;
  FieldPtr<Real> x_own, b_own, r, d, w;
  Field<Real>* x = nullptr;
  const Field<Real>* b = nullptr;
  // Between the pre- and the post-smoothing of a cycle the iterate may live in w instead of x (Multigrid::smooth:
  // with an odd number of post-smoothing passes, the pre-smoothing ends in w so that the post-smoothing ends in x
  // without a copy). Multigrid::iterate gives the field that holds it.
  bool iterate_in_w = false;
  bool homogeneous = true;
  double omega = 0.0, lambda_max = 0.0;
  // Transfer to the next coarser level (on this level's participants).
  TransferMap map;
  FieldPtr<Real> shadow;
  std::vector<BoundaryFace> shadow_faces;
  std::unique_ptr<Redistributor<Real>> down, up;
  // The coarse level's block on every rank is this level's block coarsened: restriction writes the coarse
  // b and prolongation reads the coarse x (after its ghost update) directly; no shadow, no redistribution.
  bool direct_transfer = false;
  std::unique_ptr<DenseCoarseSolver<Real>> direct;  // coarsest level with coarse type "direct"
  // Ghost bookkeeping (Multigrid::refresh_ghosts). zero_ghost_rule: a homogeneous refresh writes +0 into every
  // ghost cell (GridOperator::homogeneous_ghosts_are_zero). zero_ghosts: the level's own work fields (r, w,
  // x_own; never a caller's field) whose ghost cells all hold +0 now. Backend operations other than fill, copy,
  // upload, unpack, copy_boxes and the boundary fills write owned cells only (backend.hpp), so those ghosts
  // stay zero until one of these overwrites them; the code below notes every such write to a tracked field.
  bool zero_ghost_rule = false;
  std::vector<const Field<Real>*> zero_ghosts;

  ~Level() {
    direct.reset();
    A = nullptr;
    own_A.reset();
    own_decomp.reset();
    if (split_comm != MPI_COMM_NULL) {
      int finalized = 0;
      MPI_Finalized(&finalized);
      if (!finalized) MPI_Comm_free(&split_comm);
    }
  }
};

namespace {

// Automatic level count: stop before a level would have fewer unknowns than this along some axis.
// Rediscretised operators on grids of 1-3 points per axis approximate the smooth modes too poorly
// (the lowest eigenvalue is off by 5-20%), which caps the V-cycle rate; 7 keeps it below ~1%.
constexpr long kMinAutoCoarseExtent = 7;

// Coarse extents of a grid, or false when some axis cannot be coarsened by 2.
bool coarsen(const GridSpec& g, std::array<long, 3>& nc) {
  nc = {1, 1, 1};
  for (int a = 0; a < g.dim; ++a) {
    const long n = g.extents[a];
    if (g.centering == Centering::vertex) {
      if (n % 2 == 0 || n < 3) return false;
      nc[a] = (n - 1) / 2;
    } else {
      if (n % 2 != 0 || n < 4) return false;
      nc[a] = n / 2;
    }
  }
  return true;
}

}  // namespace

template <class Real>
Multigrid<Real>::Multigrid(const MultigridConfig& cfg, GridOperator<Real>& fine, const ProblemSetup& setup, Timers& timers)
    : cfg_(cfg), setup_(setup), timers_(timers) {
  for (const char* t : {"mg_smooth", "mg_transfer", "mg_coarse_solve"}) timers_.declare(t);
  const Decomposition& d0 = fine.decomposition();
  const GridSpec& g0 = d0.grid();
  if (!setup.operator_on)
    throw std::invalid_argument("multigrid: this problem does not provide a rediscretisation of its operator on "
                                "coarse grids (ProblemSetup::operator_on)");
  for (int a = 0; a < g0.dim; ++a)
    for (int s = 0; s < 2; ++s) {
      const BoundaryType t = g0.boundary[a][s].type;
      if (t == BoundaryType::periodic)
        throw std::invalid_argument("multigrid: periodic boundaries are not supported yet");
      if (g0.centering == Centering::vertex && t != BoundaryType::dirichlet)
        throw std::invalid_argument("multigrid on vertex-centred grids needs Dirichlet boundaries (use a cell-centred "
                                    "grid for Neumann faces)");
    }
  if (cfg.smoother.type == "rbgs" && (fine.stencil().shape.kind != ShapeKind::star || fine.stencil().radius() != 1))
    throw std::invalid_argument("multigrid: the red-black Gauss-Seidel smoother needs a 5-/7-point operator; '" +
                                fine.stencil().name + "' has " + std::to_string(fine.stencil().size()) +
                                " points (use smoother type \"jacobi\" or \"chebyshev\")");

  auto l0 = std::make_unique<Level>();
  l0->grid = g0;
  l0->dims = d0.dims();
  l0->comm = d0.comm();
  l0->active = true;
  l0->decomp = &d0;
  l0->be = &fine.backend();
  l0->A = &fine;
  l0->homogeneous = false;
  levels_.push_back(std::move(l0));

  const long max_levels = cfg.levels > 0 ? cfg.levels : 30;
  while (static_cast<long>(levels_.size()) < max_levels) {
    Level& f = *levels_.back();
    std::array<long, 3> nc;
    if (!coarsen(f.grid, nc)) break;
    if (cfg.levels == 0 && *std::min_element(nc.begin(), nc.begin() + f.grid.dim) < kMinAutoCoarseExtent) break;
    auto c = std::make_unique<Level>();
    c->grid = f.grid;
    for (int a = 0; a < 3; ++a) {
      c->grid.extents[a] = nc[a];
      c->grid.boundary[a][0].value = c->grid.boundary[a][1].value = 0.0;  // corrections: homogeneous
    }
    // Keep the rank grid while every rank keeps >= 2 cells per axis, else agglomerate.
    bool keep = true;
    for (int a = 0; a < f.grid.dim; ++a) keep &= nc[a] >= 2L * f.dims[a];
    c->dims = f.dims;
    if (!keep)
      for (int a = 0; a < f.grid.dim; ++a)
        c->dims[a] = static_cast<int>(std::clamp<long>(nc[a] / 4, 1, f.dims[a]));
    c->agglomerated = c->dims != f.dims;
    if (f.active) {
      int frank = 0;
      MPI_Comm_rank(f.comm, &frank);
      MPI_Comm base = f.comm;
      if (c->agglomerated) {
        const int pc = c->dims[0] * c->dims[1] * c->dims[2];
        MPI_Comm_split(f.comm, frank < pc ? 0 : MPI_UNDEFINED, frank, &c->split_comm);
        base = c->split_comm;
      }
      if (base != MPI_COMM_NULL) {
        c->own_decomp = std::make_unique<Decomposition>(c->grid, base, c->dims, 1);
        c->decomp = c->own_decomp.get();
        c->comm = c->decomp->comm();
        c->active = true;
        if (c->agglomerated) {
          c->own_backend = create_backend<Real>(f.be->name(), c->comm);
          c->be = c->own_backend.get();
        } else {
          c->be = f.be;
        }
        const FieldLayout lay = c->decomp->layout(1, fine.layout().align);  // (the fine level's row alignment)
        c->own_A = make_grid_operator<Real>(*c->be, *c->decomp, lay, setup, /*fine=*/false);
        c->A = c->own_A.get();
        c->x_own = c->be->create_field(lay);
        c->b_own = c->be->create_field(lay);
        c->be->fill(*c->x_own, Real(0));
        c->be->fill(*c->b_own, Real(0));
        c->x = c->x_own.get();
        c->b = c->b_own.get();
      }
      // Shadow of the coarse level aligned with this fine block, and the two redistributions.
      const auto& so = f.decomp->offset();
      const auto& sn = f.decomp->local_extents();
      IndexBox own_box, ext_box;
      std::array<long, 3> origin{0, 0, 0};
      FieldLayout sl;
      for (int a = 0; a < 3; ++a) {
        if (a >= f.grid.dim) {
          own_box.begin[a] = 0, own_box.end[a] = 1, ext_box.begin[a] = 0, ext_box.end[a] = 1;
          sl.n[a] = 1, sl.ghost[a] = 0;
          f.map.shift[a] = 0;
          continue;
        }
        const long s = so[a], e = so[a] + sn[a];
        const bool vertex = f.grid.centering == Centering::vertex;
        const long cs = vertex ? s / 2 : (s + 1) / 2;
        const long ce = vertex ? e / 2 : (e + 1) / 2;
        origin[a] = cs;
        own_box.begin[a] = static_cast<int>(cs), own_box.end[a] = static_cast<int>(ce);
        ext_box.begin[a] = static_cast<int>(std::max(0L, cs - 1));
        ext_box.end[a] = static_cast<int>(std::min(nc[a], ce + 1));
        sl.n[a] = static_cast<int>(ce - cs), sl.ghost[a] = 1;
        f.map.shift[a] = static_cast<int>(vertex ? 2 * cs + 1 - s : 2 * cs - s);
        for (int side = 0; side < 2; ++side)
          if ((side == 0 && cs == 0) || (side == 1 && ce == nc[a]))
            f.shadow_faces.push_back(BoundaryFace{a, side, c->grid.boundary[a][side], c->grid.centering, c->grid.spacing(a)});
      }
      f.map.dim = f.grid.dim;
      f.map.centering = f.grid.centering;
      IndexBox cbox;  // empty unless this rank works on the coarse level
      std::array<long, 3> corigin{0, 0, 0};
      if (c->active) {
        corigin = c->decomp->offset();
        for (int a = 0; a < 3; ++a) {
          cbox.begin[a] = static_cast<int>(corigin[a]);
          cbox.end[a] = static_cast<int>(corigin[a] + c->decomp->local_extents()[a]);
        }
      }
      // Direct transfers need every rank's coarse block to be its coarsened fine block (decided together).
      const int same = c->active && !c->agglomerated && cbox.begin == own_box.begin && cbox.end == own_box.end ? 1 : 0;
      int all_same = 0;
      MPI_Allreduce(&same, &all_same, 1, MPI_INT, MPI_MIN, f.comm);
      f.direct_transfer = all_same == 1;
      if (!f.direct_transfer) {
        f.shadow = f.be->create_field(sl);
        f.be->fill(*f.shadow, Real(0));
        f.down = std::make_unique<Redistributor<Real>>(f.comm, *f.be, own_box, origin, cbox, corigin);
        f.up = std::make_unique<Redistributor<Real>>(f.comm, *f.be, cbox, corigin, ext_box, origin);
      }
    }
    levels_.push_back(std::move(c));
  }

  if (cfg.coarse.type == "direct") {
    // Decided from the rank grid, which every rank knows, so that all ranks throw together.
    const Level& c = *levels_.back();
    const long ranks = static_cast<long>(c.dims[0]) * c.dims[1] * c.dims[2];
    long unknowns = 1;
    for (int a = 0; a < c.grid.dim; ++a) unknowns *= c.grid.extents[a];
    check_direct_coarse_fits(ranks, unknowns, cfg.coarse.max_unknowns);
    if (levels_.back()->active)
      levels_.back()->direct = std::make_unique<DenseCoarseSolver<Real>>(*levels_.back()->A, cfg.coarse.max_unknowns);
  }

  // Per-level work fields and smoother set-up.
  const bool refresh_all_ghosts = env_flag("PERKSOLVE_MG_REFRESH_ALL_GHOSTS", false);
  sweep_pairs_enabled_ = env_flag("PERKSOLVE_MG_SWEEP_PAIRS", true);  // "0": Jacobi sweeps one by one (comparisons)
  residual_pairs_enabled_ = env_flag("PERKSOLVE_MG_PAIR_RESIDUAL", true);  // "0": the residual in a pass of its own
  for (std::size_t l = 0; l < levels_.size(); ++l) {
    Level& v = *levels_[l];
    if (!v.active) continue;
    v.r = v.A->create_vector();
    v.d = v.A->create_vector();
    v.w = v.A->create_vector();
    v.be->fill(*v.r, Real(0));
    v.be->fill(*v.w, Real(0));
    v.A->diagonal(*v.d);
    v.omega = cfg.smoother.omega > 0 ? cfg.smoother.omega : (v.grid.dim == 2 ? 0.8 : 6.0 / 7.0);
    if (cfg.smoother.type == "chebyshev") {
      // lambda_max(D^-1 A) by power iteration from a decomposition-independent random vector.
      Field<Real>& p = *v.w;
      Field<Real>& q = *v.r;
      sample_random(*v.be, *v.decomp, p, 12345 + l);
      double lam = 0.0;
      double pn = v.be->norm2(p);
      for (long it = 0; it < cfg.smoother.eig_iterations; ++it) {
        v.A->apply(p, q);
        v.be->diag_scale_add(Real(1), q, *v.d, Real(0), q);
        const double qn = v.be->norm2(q);
        lam = qn / pn;
        v.be->axpby(static_cast<Real>(1.0 / qn), q, Real(0), p);
        pn = 1.0;
      }
      v.lambda_max = lam;
      v.be->fill(*v.r, Real(0));
      v.be->fill(*v.w, Real(0));
    }
    // Every tracked field was just filled with zeros, ghosts included.
    v.zero_ghost_rule = v.A->homogeneous_ghosts_are_zero() && !refresh_all_ghosts;
    for (const Field<Real>* f : {static_cast<const Field<Real>*>(v.r.get()), static_cast<const Field<Real>*>(v.w.get()),
                                 static_cast<const Field<Real>*>(v.x_own.get())})
      if (f) note_ghosts(v, *f, true);
  }
  persistent_level_ = persistent_level();
}

template <class Real>
bool Multigrid<Real>::tracked(const Level& v, const Field<Real>& f) {
  return &f == v.r.get() || &f == v.w.get() || &f == v.x_own.get();
}

template <class Real>
void Multigrid<Real>::note_ghosts(Level& v, const Field<Real>& f, bool zero) {
  if (!tracked(v, f)) return;
  auto it = std::find(v.zero_ghosts.begin(), v.zero_ghosts.end(), &f);
  if (zero && v.zero_ghost_rule && it == v.zero_ghosts.end()) v.zero_ghosts.push_back(&f);
  if (!zero && it != v.zero_ghosts.end()) v.zero_ghosts.erase(it);
}

template <class Real>
bool Multigrid<Real>::ghosts_current(const Level& v, const Field<Real>& f, bool homogeneous) {
  return homogeneous && v.zero_ghost_rule &&
         std::find(v.zero_ghosts.begin(), v.zero_ghosts.end(), &f) != v.zero_ghosts.end();
}

template <class Real>
void Multigrid<Real>::refresh_ghosts(Level& v, Field<Real>& f, bool homogeneous) {
  if (ghosts_current(v, f, homogeneous)) return;
  v.A->update_ghosts(f, homogeneous);
  note_ghosts(v, f, homogeneous);
}

template <class Real>
void Multigrid<Real>::fill_zeros(Level& v, Field<Real>& f) {
  v.be->fill(f, Real(0));
  note_ghosts(v, f, true);
}

template <class Real>
Field<Real>& Multigrid<Real>::iterate(Level& v) {
  return v.iterate_in_w ? *v.w : *v.x;
}

template <class Real>
void Multigrid<Real>::settle_iterate(Level& v) {
  if (!v.iterate_in_w) return;
  v.be->copy(*v.w, *v.x);
  note_ghosts(v, *v.x, ghosts_current(v, *v.w, true));
  v.iterate_in_w = false;
}

template <class Real>
void Multigrid<Real>::level_residual(Level& v, bool homogeneous) {
  Field<Real>& x = iterate(v);
  refresh_ghosts(v, x, homogeneous);
  v.A->residual_bc(*v.b, x, *v.r, homogeneous, /*refresh=*/false);
}

template <class Real>
void Multigrid<Real>::enter_mode(bool homogeneous) {
  const int mode = homogeneous ? 1 : 0;
  if (mode_ >= 0 && mode_ != mode) {
    // Recordings and programs skip the refreshes that the other mode's bookkeeping allowed (level 0's w is
    // refreshed homogeneously in one mode and with the boundary values in the other): record afresh.
    recordings_.clear();
    programs_.clear();
    for (auto& lv : levels_) lv->zero_ghosts.clear();
  }
  mode_ = mode;
}

template <class Real>
Multigrid<Real>::~Multigrid() {
  // Coarse levels first: their communicators were split from the finer ones.
  while (!levels_.empty()) levels_.pop_back();
}

namespace {
// Chebyshev smoothing of degree up to this runs in product form (one Jacobi sweep per root, the cost of
// weighted Jacobi); higher degrees use the three-term recurrence, which stays stable at any degree.
constexpr long kChebyshevProductMaxDegree = 4;
}  // namespace

// Whether `sweeps` smoothing sweeps run as Jacobi sweeps of their own weights (weighted Jacobi; Chebyshev in product
// form).
template <class Real>
bool Multigrid<Real>::jacobi_weights_form(long sweeps) const {
  return cfg_.smoother.type == "jacobi" || (cfg_.smoother.type == "chebyshev" && sweeps <= kChebyshevProductMaxDegree);
}

// ... and at least two of them (so that they can pair).
template <class Real>
bool Multigrid<Real>::jacobi_product_form(long sweeps) const {
  return sweeps >= 2 && jacobi_weights_form(sweeps);
}

template <class Real>
std::string Multigrid<Real>::describe() const {
  std::string s = fmt::format("multigrid: {} levels, {}-cycle, {}({},{}) smoothing, coarse solve {}", levels_.size(),
                              cfg_.cycle, cfg_.smoother.type, cfg_.pre, cfg_.post, cfg_.coarse.type);
  for (std::size_t l = 0; l < levels_.size(); ++l) {
    const Level& v = *levels_[l];
    const bool in_program = persistent_level_ >= 0 && static_cast<int>(l) >= persistent_level_ && v.be->asynchronous();
    s += fmt::format("\n  level {}: {} x {} x {} on {} ranks ({} x {} x {}){}{}", l, v.grid.extents[0], v.grid.extents[1],
                     v.grid.extents[2], v.dims[0] * v.dims[1] * v.dims[2], v.dims[0], v.dims[1], v.dims[2],
                     v.agglomerated ? " (agglomerated)" : "", in_program ? " (persistent program)" : "");
    if (cfg_.smoother.type == "chebyshev" && v.active) s += fmt::format(", lambda_max(D^-1 A) ~ {:.4f}", v.lambda_max);
    if (v.active && v.zero_ghost_rule) s += ", zero ghosts kept";
    // (levels of a persistent program run their sweeps one by one)
    const bool coarsest = l + 1 == levels_.size();
    const bool paired = coarsest ? cfg_.coarse.type == "smoother" && jacobi_product_form(cfg_.coarse.sweeps)
                                 : jacobi_product_form(cfg_.pre) || jacobi_product_form(cfg_.post);
    if (v.active && paired && !in_program && sweep_pairs(v, true)) s += ", sweeps in pairs";
  }
  return s;
}

namespace {

// Weights of the Chebyshev polynomial of degree k on [lo, hi] in product form: the error propagator
// T_k((theta - lambda) / delta) / T_k(theta / delta) = prod_i (1 - lambda / lambda_i), with roots
// lambda_i = theta + delta cos((2i - 1) pi / (2k)); sweep i is a Jacobi sweep with omega_i = 1 / lambda_i.
// Largest root first; `reverse` gives the opposite order (post-smoothing: the adjoint of pre-smoothing).
std::vector<double> chebyshev_product_weights(long k, double lo, double hi, bool reverse) {
  const double theta = 0.5 * (hi + lo), delta = 0.5 * (hi - lo);
  std::vector<double> w(static_cast<std::size_t>(k));
  for (long i = 0; i < k; ++i)
    w[static_cast<std::size_t>(i)] = 1.0 / (theta + delta * std::cos((2.0 * static_cast<double>(i) + 1.0) * std::numbers::pi / (2.0 * static_cast<double>(k))));
  if (reverse) std::reverse(w.begin(), w.end());
  return w;
}

}  // namespace

// Whether level v's constant-stencil Jacobi sweeps may run in pairs (Backend::jacobi_update_pair): the ghosts of the
// intermediate iterate must be what a refresh writes, +0 (homogeneous values and GridOperator::homogeneous_ghosts_are_zero).
template <class Real>
bool Multigrid<Real>::sweep_pairs(const Level& v, bool homogeneous) const {
  return sweep_pairs_enabled_ && homogeneous && v.zero_ghost_rule && !v.A->variable() &&
         v.be->jacobi_pair_supported(v.A->stencil(), v.A->layout());
}

template <class Real>
typename Multigrid<Real>::SmoothExtras Multigrid<Real>::smooth(int l, long sweeps, bool post, bool zero,
                                                               bool may_end_in_w, bool want_residual, int dot_slot) {
  Level& v = *levels_[l];
  Backend<Real>& be = *v.be;
  const std::string& type = cfg_.smoother.type;
  // Jacobi-type smoothers: one weight per sweep (weighted Jacobi: omega every sweep; Chebyshev of low degree
  // in product form). Empty for the others.
  std::vector<double> weights;
  if (type == "jacobi") {
    weights.assign(static_cast<std::size_t>(std::max(0L, sweeps)), v.omega);
  } else if (jacobi_weights_form(sweeps)) {
    weights = chebyshev_product_weights(sweeps, cfg_.smoother.lower * v.lambda_max, cfg_.smoother.upper * v.lambda_max,
                                        post);
  }
  // From a zero guess with homogeneous boundary values the first constant-stencil Jacobi sweep is
  // x = omega / a_centre * b (A 0 = 0): one point-wise pass instead of a fill plus a stencil sweep.
  const bool constant_jacobi = !weights.empty() && !v.A->variable();
  zero = zero && v.homogeneous;
  if (zero && !(constant_jacobi && sweeps > 0)) {
    fill_zeros(v, *v.x);
    zero = false;
  }
  if (!(constant_jacobi && sweeps > 0)) settle_iterate(v);  // the other smoothers work on x
  SmoothExtras done;
  if (sweeps <= 0) return done;
  Timers::Scope t(timers_, "mg_smooth");
  const bool hom = v.homogeneous;
  if (constant_jacobi) {
    // Constant stencil: the fused sweep x' = x + omega/a_centre (b - A x) (reads x and b, writes x':
    // 3 values per cell instead of 7 for residual + update), two sweeps per pass where the backend and the boundary
    // allow it (sweep_pairs), each pass ping-ponging between x and w.
    const Stencil& A = v.A->stencil();
    const auto weight = [&](long s) { return static_cast<Real>(weights[static_cast<std::size_t>(s)]); };
    const bool pairs = sweep_pairs(v, hom);
    const auto passes = [&](long n) { return pairs ? (n + 1) / 2 : n; };
    Field<Real>* const w = v.w.get();
    const auto other = [&](const Field<Real>* f) { return f == v.x ? w : v.x; };
    // Where the result should end: in x, or in w when the caller allows it and an odd number of post-smoothing passes
    // follows (they then end in x). From zero the first pass reads nothing, so it can start on either field.
    Field<Real>* const target = may_end_in_w && jacobi_product_form(cfg_.post) && passes(cfg_.post) % 2 == 1 ? w : v.x;
    Field<Real>* src = zero ? (passes(sweeps) % 2 == 0 ? target : other(target)) : &iterate(v);
    for (long s = 0; s < sweeps;) {
      Field<Real>* const dst = other(src);
      if (pairs && s + 1 < sweeps) {
        if (zero && want_residual && s + 2 == sweeps && residual_pairs_enabled_) {
          // The last pass, from zero: the residual of its result too (dst's ghosts +0 first, as the residual's
          // refresh would write them).
          refresh_ghosts(v, *dst, hom);
          be.jacobi_pair_residual(A, weight(s), weight(s + 1), *v.b, *dst, *v.r);
          done.residual = true;
        } else if (!zero && dot_slot >= 0 && s + 2 == sweeps) {
          // The last pass, from x: b . x of its result too.
          refresh_ghosts(v, *src, hom);
          be.jacobi_update_pair_dot(A, weight(s), weight(s + 1), *v.b, *src, *dst, dot_slot);
          done.dot = true;
        } else {
          if (!zero) refresh_ghosts(v, *src, hom);
          be.jacobi_update_pair(A, weight(s), weight(s + 1), *v.b, zero ? nullptr : src, *dst);
        }
        s += 2;
      } else if (zero) {
        // The same value the sweep computes from x = 0 (omega / a_centre rounded as the sweep rounds it).
        be.scale(weight(s) / static_cast<Real>(A.center_coeff()), *v.b, *dst);
        s += 1;
      } else {
        refresh_ghosts(v, *src, hom);
        be.jacobi_update(A, weight(s), *v.b, *src, *dst);
        s += 1;
      }
      zero = false;
      src = dst;
    }
    v.iterate_in_w = src == w;
    if (!may_end_in_w) settle_iterate(v);  // (moves values: r stays the residual of the iterate)
  } else if (!weights.empty()) {
    for (long s = 0; s < sweeps; ++s) {
      level_residual(v, hom);
      be.diag_scale_add(static_cast<Real>(weights[static_cast<std::size_t>(s)]), *v.r, *v.d, Real(1), *v.x);
    }
  } else if (type == "rbgs") {
    const bool reverse = post && cfg_.smoother.symmetric;
    for (long s = 0; s < sweeps; ++s) {
      refresh_ghosts(v, *v.x, hom);
      v.A->gs_sweep(*v.b, *v.x, reverse ? 1 : 0, hom, /*refresh=*/false);
      refresh_ghosts(v, *v.x, hom);
      v.A->gs_sweep(*v.b, *v.x, reverse ? 0 : 1, hom, /*refresh=*/false);
    }
  } else {
    // Chebyshev polynomial of degree `sweeps` (above kChebyshevProductMaxDegree) in D^-1 A on
    // [lower, upper] * lambda_max, by the three-term recurrence.
    const double hi = cfg_.smoother.upper * v.lambda_max, lo = cfg_.smoother.lower * v.lambda_max;
    const double theta = 0.5 * (hi + lo), delta = 0.5 * (hi - lo), sigma = theta / delta;
    double rho = 1.0 / sigma;
    level_residual(v, hom);
    be.diag_scale_add(static_cast<Real>(1.0 / theta), *v.r, *v.d, Real(0), *v.w);
    be.axpby(Real(1), *v.w, Real(1), *v.x);
    for (long s = 1; s < sweeps; ++s) {
      level_residual(v, hom);
      const double rho_new = 1.0 / (2.0 * sigma - rho);
      be.diag_scale_add(static_cast<Real>(2.0 * rho_new / delta), *v.r, *v.d, static_cast<Real>(rho_new * rho), *v.w);
      be.axpby(Real(1), *v.w, Real(1), *v.x);
      rho = rho_new;
    }
  }
  return done;
}

template <class Real>
void Multigrid<Real>::coarse_solve(int l, bool zero) {
  Level& v = *levels_[l];
  Timers::Scope t(timers_, "mg_coarse_solve");
  if (cfg_.coarse.type == "smoother") {
    smooth(l, cfg_.coarse.sweeps, false, zero);
    return;
  }
  if (v.direct) {
    if (zero && v.homogeneous) v.direct->solve_from_zero(*v.b, *v.x);
    else v.direct->solve(*v.b, *v.x, *v.r, v.homogeneous);  // refreshes x's ghosts itself
    note_ghosts(v, *v.x, v.homogeneous && ghosts_current(v, *v.x, true));
    return;
  }
  // CG on the correction: A e = r, x += e.
  Backend<Real>& be = *v.be;
  if (zero) fill_zeros(v, *v.x);
  FieldPtr<Real> e = v.A->create_vector(), p = v.A->create_vector(), q = v.A->create_vector();
  level_residual(v, v.homogeneous);
  be.fill(*e, Real(0));
  be.copy(*v.r, *p);
  double rr = be.dot(*v.r, *v.r);
  const double stop = cfg_.coarse.rtol * cfg_.coarse.rtol * rr;
  for (long it = 0; it < cfg_.coarse.max_iterations && rr > stop && rr > 0; ++it) {
    v.A->apply(*p, *q);
    const double pq = be.dot(*p, *q);
    if (!(pq > 0)) break;
    const double alpha = rr / pq;
    const double rr_new = be.cg_update(static_cast<Real>(alpha), *p, *q, *e, *v.r);
    be.axpby(Real(1), *v.r, static_cast<Real>(rr_new / rr), *p);
    rr = rr_new;
  }
  be.axpby(Real(1), *e, Real(1), *v.x);
}

template <class Real>
void Multigrid<Real>::restrict_field(int l, Field<Real>& fine_field) {
  Level& f = *levels_[l];
  Level& c = *levels_[l + 1];
  Timers::Scope t(timers_, "mg_transfer");
  refresh_ghosts(f, fine_field, /*homogeneous=*/true);
  if (f.direct_transfer) {
    f.be->restrict_to_coarse(f.map, fine_field, *c.b_own);
    return;
  }
  f.be->restrict_to_coarse(f.map, fine_field, *f.shadow);
  f.down->run(f.shadow.get(), c.active ? c.b_own.get() : nullptr);
}

template <class Real>
void Multigrid<Real>::restrict_residual(int l) {
  Level& f = *levels_[l];
  level_residual(f, f.homogeneous);
  restrict_field(l, *f.r);
}

template <class Real>
void Multigrid<Real>::prolongate_correction(int l) {
  Level& f = *levels_[l];
  Level& c = *levels_[l + 1];
  Timers::Scope t(timers_, "mg_transfer");
  if (f.direct_transfer) {
    refresh_ghosts(c, *c.x, /*homogeneous=*/true);  // the coarse ghosts the interpolation reads
    f.be->prolongate_add(f.map, *c.x, iterate(f));
    return;
  }
  f.up->run(c.active ? c.x : nullptr, f.shadow.get());
  f.be->fill_boundary_faces(*f.shadow, f.shadow_faces, true);
  f.be->prolongate_add(f.map, *f.shadow, iterate(f));
}

template <class Real>
int Multigrid<Real>::persistent_level() const {
  if (cfg_.persistent_cells <= 0 || cfg_.cycle != "V" || cfg_.coarse.type == "cg") return -1;
  const Backend<Real>* be = levels_.back()->be;
  if (!levels_.back()->active || !be || (timers_.phases_enabled() && be->asynchronous())) return -1;
  int first = -1;
  for (int l = levels() - 1; l >= 0; --l) {
    const Level& v = *levels_[l];
    const bool ok = v.active && v.be == be && v.A->layout().owned_size() <= cfg_.persistent_cells &&
                    !v.A->exchanges_with_other_ranks() &&
                    (l + 1 == levels() || v.direct_transfer ||
                     (v.down && v.down->local_only() && v.up && v.up->local_only()));
    if (!ok) break;
    first = l;
  }
  return first;
}

template <class Real>
void Multigrid<Real>::run_cycle(int l, const std::string& type, bool zero) {
  Level& f = *levels_[l];
  if (!f.active) return;
  if (l == persistent_level_ && type == "V") {
    const auto key = std::make_tuple(static_cast<const void*>(f.b->data()), static_cast<const void*>(f.x->data()), zero,
                                     f.homogeneous);
    auto it = programs_.find(key);
    if (it == programs_.end()) {
      // Recording issues nothing; the program then runs below. Null: some operation has no program form.
      std::unique_ptr<RecordedWork> p = f.be->record_persistent([this, l, type, zero] { run_cycle_levels(l, type, zero); });
      if (!p) {
        if (f.be->asynchronous())
          log::info(fmt::format("multigrid: levels {}+ run operation by operation (an operation of their cycle has no "
                                "persistent-program form on backend '{}')",
                                l, f.be->name()));
        persistent_level_ = -1;  // do not try again
        run_cycle_levels(l, type, zero);
        return;
      }
      it = programs_.emplace(key, std::move(p)).first;
    }
    it->second->replay();
    return;
  }
  run_cycle_levels(l, type, zero);
}

template <class Real>
void Multigrid<Real>::run_cycle_levels(int l, const std::string& type, bool zero) {
  Level& f = *levels_[l];
  if (!f.active) return;
  f.iterate_in_w = false;  // a level's cycle starts (and ends) with its iterate in x
  if (l + 1 == levels()) {
    coarse_solve(l, zero);
    return;
  }
  if (smooth(l, cfg_.pre, false, zero, /*may_end_in_w=*/true, /*want_residual=*/true).residual)
    restrict_field(l, *f.r);  // the smoothing's last pass wrote the residual
  else
    restrict_residual(l);
  Level& c = *levels_[l + 1];
  if (c.active) {
    // The coarse correction starts from zero on every visit of a V-cycle and on the first of W/F.
    if (type == "V") {
      run_cycle(l + 1, "V", true);
    } else if (type == "W") {
      run_cycle(l + 1, "W", true);
      if (l + 2 < levels()) run_cycle(l + 1, "W", false);
    } else {
      run_cycle(l + 1, "F", true);
      if (l + 2 < levels()) run_cycle(l + 1, "V", false);
    }
  }
  prolongate_correction(l);
  // precondition()'s r . z rides on the fine level's last pass (not inside a persistent program of level 0).
  const int dot_slot = l == 0 && persistent_level_ != 0 ? fine_dot_slot_ : -1;
  if (smooth(l, cfg_.post, true, false, false, false, dot_slot).dot) fine_dot_done_ = true;
  settle_iterate(f);
}

template <class Real>
bool Multigrid<Real>::replayable() const {
  if (cfg_.replay == "off" || record_failed_) return false;
  const Backend<Real>& be0 = *levels_[0]->be;
  if (cfg_.replay == "auto" && !be0.asynchronous()) return false;
  // Fenced phase timers synchronise inside the cycle on an asynchronous backend.
  if (be0.asynchronous() && timers_.phases_enabled()) return false;
  if (cfg_.coarse.type == "cg") return false;  // its dot products wait for the device
  for (const auto& lv : levels_) {
    if (!lv->active) continue;
    if (lv->A->exchanges_with_other_ranks()) return false;
    if ((lv->down && !lv->down->local_only()) || (lv->up && !lv->up->local_only())) return false;
  }
  return true;
}

template <class Real>
void Multigrid<Real>::run_recorded(const Field<Real>& b, const Field<Real>& x, int variant,
                                   const std::function<void()>& run) {
  if (!replayable()) {
    run();
    return;
  }
  Recording& rec = recordings_[{b.data(), x.data(), variant}];
  // The first run happens directly: it sizes scratch buffers and sets up kernels outside a recording.
  if (rec.runs++ == 0) {
    run();
    return;
  }
  if (!rec.work) {
    rec.work = levels_[0]->be->record(run);
    if (!rec.work) {
      record_failed_ = true;  // something in the cycle synchronises: stop trying
      run();
      return;
    }
  }
  rec.work->replay();
}

template <class Real>
void Multigrid<Real>::cycle(const Field<Real>& b, Field<Real>& x) {
  enter_mode(false);
  run_recorded(b, x, -1, [this, bp = &b, xp = &x] {
    Level& f = *levels_[0];
    f.b = bp;
    f.x = xp;
    f.homogeneous = false;
    run_cycle(0, cfg_.cycle, false);
  });
}

template <class Real>
void Multigrid<Real>::precondition(const Field<Real>& r, Field<Real>& z, int dot_slot) {
  enter_mode(true);
  run_recorded(r, z, dot_slot, [this, rp = &r, zp = &z, dot_slot] {
    Level& f = *levels_[0];
    f.b = rp;
    f.x = zp;
    f.homogeneous = true;
    fine_dot_slot_ = dot_slot;
    fine_dot_done_ = false;
    try {
      run_cycle(0, cfg_.cycle, true);
    } catch (...) {
      fine_dot_slot_ = -1;
      throw;
    }
    fine_dot_slot_ = -1;
    if (dot_slot >= 0 && !fine_dot_done_) f.be->dot_later(*rp, *zp, dot_slot);
  });
}

template <class Real>
void Multigrid<Real>::fmg(const Field<Real>& b, Field<Real>& x) {
  enter_mode(false);
  Level& f = *levels_[0];
  f.b = &b;
  f.x = &x;
  f.homogeneous = false;
  const int L = levels() - 1;
  if (L == 0) {
    coarse_solve(0, false);
    return;
  }
  // The residual equation on every level.
  restrict_residual(0);
  for (int l = 1; l < L; ++l)
    if (levels_[l]->active) restrict_field(l, *levels_[l]->b_own);
  if (levels_[L]->active) coarse_solve(L, true);
  for (int l = L - 1; l >= 0; --l) {
    Level& v = *levels_[l];
    if (!v.active) continue;
    if (l > 0) fill_zeros(v, *v.x);
    prolongate_correction(l);
    run_cycle(l, cfg_.cycle, false);
  }
}

template class Multigrid<float>;
template class Multigrid<double>;

}  // namespace perksolve
