// The one seam between algorithms and hardware. Solvers, problems and the halo exchanger call only
// these operations; each backend (Kokkos, CUDA, ...) implements them. Operations act on the owned
// cells of a field unless said otherwise; reductions return *global* values (MPI-reduced over the
// backend's communicator).
#pragma once

#include <mpi.h>

#include <array>
#include <functional>
#include <memory>
#include <stdexcept>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "framework/backend/boundary_rule.hpp"
#include "framework/backend/field.hpp"
#include "framework/backend/perks_kernel.hpp"
#include "framework/grid/grid.hpp"
#include "framework/stencil/stencil.hpp"

namespace perksolve {

// What the boundary-ghost fill needs to know about one physical face.
struct BoundaryFace {
  int axis = 0;
  int side = 0;  // 0 = low, 1 = high
  FaceBoundary bc;
  Centering centering = Centering::vertex;
  double spacing = 1.0;
};

// The point-wise ghost rule of a face (framework/backend/boundary_rule.hpp), value 0 when homogeneous.
template <class Real>
boundary_rule::FaceRule<Real> face_rule(const BoundaryFace& f, bool homogeneous) {
  boundary_rule::FaceRule<Real> r;
  r.axis = f.axis;
  r.low = f.side == 0;
  r.dirichlet = f.bc.type == BoundaryType::dirichlet;
  r.vertex = f.centering == Centering::vertex;
  r.value = homogeneous ? Real(0) : static_cast<Real>(f.bc.value);
  r.spacing = static_cast<Real>(f.spacing);
  return r;
}

// Rank-local index map between a grid level and the next coarser one (multigrid transfers). Along
// axis a, coarse local index ic corresponds to fine local index 2*ic + shift[a]: for vertex-centred
// grids the coincident fine vertex, for cell-centred grids the first of the two child cells.
struct TransferMap {
  int dim = 3;
  Centering centering = Centering::vertex;
  std::array<int, 3> shift{0, 0, 0};
};

// An assembled sparse matrix in a backend's memory: the rank's row block in CSR form with local
// column numbers, owned columns 0..owned_cols-1 first, then `ghost_cols` halo columns; plus the list of
// owned entries other ranks need (the inspector's send list, packed in this order).
struct CsrBlock {
  long rows = 0;
  long ghost_cols = 0;
  std::vector<long> row_ptr;     // rows + 1
  std::vector<int> col;          // local column numbers
  std::vector<double> val;
  std::vector<long> send_index;  // owned rows whose x values are sent, concatenated over neighbours
};
template <class Real>
class SparseMatrix {
 public:
  virtual ~SparseMatrix() = default;
  virtual std::string_view backend_name() const = 0;
  long rows() const { return rows_; }
  long ghost_cols() const { return ghost_cols_; }
  long send_count() const { return send_count_; }
  long nnz() const { return nnz_; }

 protected:
  SparseMatrix(long rows, long ghosts, long sends, long nnz)
      : rows_(rows), ghost_cols_(ghosts), send_count_(sends), nnz_(nnz) {}

 private:
  long rows_, ghost_cols_, send_count_, nnz_;
};

// Pinned (page-locked where the backend can) host memory for halo messages.
template <class Real>
struct HostBuffer {
  std::shared_ptr<Real[]> data;
  long size = 0;
};

// Device work recorded once and replayed many times (Backend::record): a CUDA graph on the CUDA backend,
// the recorded function itself on host backends. A replay touches the same fields (the same storage)
// with the same host-side decisions as the recording.
class RecordedWork {
 public:
  virtual ~RecordedWork() = default;
  virtual void replay() = 0;
};

// Persistent sweeps (PERKS, issue 6): many sweeps of one constant stencil inside the backend.
enum class SweepKind { apply, jacobi };  // x <- S x  |  x <- x + omega / a_c (b - A x)
struct PersistentSweepsRequest {
  SweepKind kind = SweepKind::apply;
  double omega = 1.0;  // Jacobi damping
  long sweeps = 0;     // at most this many
  long first = 0;      // iteration number of the first sweep (for check_every)
  int check_every = 0; // Jacobi: test the thresholds at iterations k with k % check_every == 0 (0: never)
  // Jacobi: stop at a check when ||b - A x_k|| <= stop_rel or <= stop_abs, exceeds stop_div, or is not finite.
  double stop_rel = -1.0, stop_abs = -1.0, stop_div = 1e300;
  long cache_bytes = -1;  // on-chip cache per block; -1: all the backend can spare, 0: none
  int max_blocks = 0;     // at most this many blocks (tests, tuning: several work items per block); 0: all
  PerksKernel kernel = PerksKernel::automatic;  // resident / pipelined / streaming: that kernel or none (ran = false)
  // Jacobi, resident kernel: keep b on chip beside the iterate where both fit (read once per launch); false, or
  // where only the iterate fits: stream b from global memory every sweep.
  bool rhs_on_chip = true;
};
struct PersistentSweeps {
  bool ran = false;   // false: not supported for these fields / this stencil (the caller sweeps itself)
  long sweeps = 0;    // sweeps done; after k sweeps the iterate is in x for even k, else in y
  bool stopped = false;  // Jacobi: a threshold was met; the kept iterate is the last sweep's input
  double last_rr = 0.0;  // Jacobi: squared residual norm of the last sweep's input iterate
  // Jacobi: the squared residual norm of each sweep's input iterate, at the check sweeps (first + t a multiple
  // of check_every) and the last sweep; NaN at the others (the kernel need not compute those residuals).
  std::vector<double> rr_history;
  PerksKernel kernel = PerksKernel::automatic;  // the kernel that ran: resident, pipelined or streaming
  int blocks = 0, threads = 0, cache_planes = 0;
  double cached_fraction = 0.0;  // domain cells kept on chip between sweeps
  bool rhs_on_chip = false;      // Jacobi: b was kept on chip too (every array of the iteration on chip)
  // Resident kernel: the bricks at the faces of the streamed axis computed the ghost planes of their halo on chip
  // between sweeps (framework/backends/cuda/brick_face_planes.hpp).
  bool face_planes_on_chip = false;
  // Resident kernel: between sweeps each block waited for the bricks around it only, not for the whole grid (a
  // device-wide barrier only where the grid must agree: the Jacobi sums).
  bool neighbour_sync = false;
  int tile_x = 0;  // resident kernel: the columns of a brick's tile (3D: 32 or 64, chosen by the domain's width)
  // Resident kernel: the most plane steps from one block barrier of its plane loop to the next: the reach R_s along the
  // streamed axis where it is >= 2 (the most its in-place write-back allows), else 1.
  int plane_sync_steps = 0;
  // Resident kernel: planes by which the first chunk is shorter and the last one longer than with equal chunks (the
  // face bricks, which do more work per sweep, get fewer planes; framework/backends/cuda/stream_schedule.hpp).
  int chunk_lead = 0;
  // The concurrency model behind the launch (docs/perf/perks.md): bytes in flight per SM that the chosen
  // occupancy keeps, the bytes Little's law asks for, and the predicted speed-up over per-sweep kernels.
  double inflight_bytes_per_sm = 0.0, needed_bytes_per_sm = 0.0, model_speedup = 0.0;
};

// Persistent CG (PERKS, issue 6): unpreconditioned CG iterations on an assembled matrix inside the backend
// (one cooperative kernel on CUDA). The state handed in is the solver's at the top of iteration `first`:
// x, r = b - A x, p, and rr = r.r. Each iteration is q = A p, alpha = rr / p.q, x += alpha p,
// r -= alpha q, rr' = r.r, p = r + (rr' / rr) p, exactly the solver's loop.
struct PersistentCgRequest {
  long iterations = 0;   // at most this many
  long first = 0;        // iteration number of the state handed in
  double rr = 0.0;       // r.r of that state
  int check_every = 1;   // after iteration k with k % check_every == 0, stop when a threshold is met:
  double stop_rel = -1.0, stop_abs = -1.0, stop_div = 1e300;  // ||r|| <= rel or <= abs, > div, or not finite
  long cache_bytes = -1;  // on-chip memory per block for (p,) r, A p, x, A of the block's rows; -1: all spare, 0: none
  int blocks_per_sm = 0;  // 0: the backend chooses
  int max_blocks = 0;     // at most this many blocks (tests: several blocks on a small matrix); 0: no limit
  // [solver] persistent = "auto": decline (ran = false, `declined` says why) where the backend's measurements say
  // the operation-by-operation loop is faster; "on" leaves it false and always runs where the backend can. (CUDA:
  // only a merge-path CSR walk forced above L2, perks_model.hpp; the matrix-free loop runs wherever it can.)
  bool only_where_faster = false;
};
enum class PersistentCgStop { budget, threshold, breakdown };
struct PersistentCg {
  bool ran = false;  // false: not supported for this matrix / backend (the caller iterates itself)
  long iterations = 0;  // completed iterations (each with its p update)
  PersistentCgStop stop = PersistentCgStop::budget;
  double rr = 0.0;  // r.r after the last completed iteration
  double pq = 0.0;  // breakdown: the p.Ap that stopped the solve (before any update of that iteration)
  std::vector<double> rr_history;  // r.r after each completed iteration
  int blocks = 0, threads = 0;
  double cached_r = 0.0, cached_q = 0.0, cached_x = 0.0;  // fraction of the rows whose r / A p / x stay on chip
  bool cached_p = false, cached_a = false;  // p (one block) / the matrix kept on chip
  std::string declined;  // !ran because of only_where_faster: why (for the log)
};

// Throws std::invalid_argument unless the layout is usable (positive extents, non-negative ghosts, a
// power-of-two row alignment). Backends call it in create_field.
void require_valid_layout(const FieldLayout& l);

// Thrown when a backend is not compiled in, or does not implement an operation yet.
struct BackendUnavailable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Throws BackendUnavailable("backend '<backend>' does not implement <op> yet").
[[noreturn]] void backend_unavailable(std::string_view backend, const char* op);

// The other floating-point type of the pair (float <-> double): mixed-precision conversions.
template <class Real>
using OtherReal = std::conditional_t<std::is_same_v<Real, double>, float, double>;

// Which cells an operation writes (a contract callers rely on: multigrid skips the ghost refreshes of fields
// whose ghosts hold zeros, GridOperator::homogeneous_ghosts_are_zero): upload, fill and copy write the whole
// allocation, unpack and copy_boxes the boxes they are given, fill_boundary_* and the persistent loops
// (persistent_sweeps, persistent_stencil_cg: they refresh faces between iterations) the ghosts of physical faces;
// every other operation writes owned cells only and leaves ghosts and padding as they were. The GPU tests check this
// for the CUDA backend with poisoned ghosts; the Kokkos backend loops over owned cells only.
template <class Real>
class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string_view name() const = 0;
  MPI_Comm comm() const { return comm_; }

  // ---- storage -------------------------------------------------------------------------------
  virtual FieldPtr<Real> create_field(const FieldLayout& layout) = 0;
  virtual HostBuffer<Real> create_host_buffer(long size) = 0;
  // Whole allocation (ghosts included) from/to a host array of layout.size() elements.
  virtual void upload(Field<Real>& f, std::span<const Real> host) = 0;
  virtual void download(const Field<Real>& f, std::span<Real> host) = 0;

  // ---- pointwise / BLAS-1 (owned cells) --------------------------------------------------------
  virtual void fill(Field<Real>& f, Real value) = 0;  // ghosts included
  virtual void copy(const Field<Real>& src, Field<Real>& dst) = 0;  // ghosts included
  // y = a*x + b*y
  virtual void axpby(Real a, const Field<Real>& x, Real b, Field<Real>& y) = 0;
  // y = a*x (owned cells; y is only written, so its old contents may be anything, NaN included).
  // Default: fill y with 0, then axpby.
  virtual void scale(Real a, const Field<Real>& x, Field<Real>& y) {
    fill(y, Real(0));
    axpby(a, x, Real(0), y);
  }
  virtual double dot(const Field<Real>& x, const Field<Real>& y) = 0;
  virtual double norm2(const Field<Real>& x) = 0;
  virtual double norm_inf(const Field<Real>& x) = 0;

  // ---- stencils (inputs must have up-to-date ghosts) ---------------------------------------------
  // out = S * in
  virtual void apply_stencil(const Stencil& s, const Field<Real>& in, Field<Real>& out) = 0;
  // out = S * in and the global in . out in one pass (CG's q = A p with p.q). Default: apply_stencil, then dot.
  virtual double apply_stencil_dot(const Stencil& s, const Field<Real>& in, Field<Real>& out) {
    apply_stencil(s, in, out);
    return dot(in, out);
  }
  // r = b - A x
  virtual void residual(const Stencil& A, const Field<Real>& b, const Field<Real>& x, Field<Real>& r) = 0;
  // x_new = x + omega * D^{-1} (b - A x), D = centre coefficient of A. Returns the global
  // ||b - A x||_2^2 of the *input* iterate (fused into the sweep).
  virtual double jacobi_sweep(const Stencil& A, Real omega, const Field<Real>& b, const Field<Real>& x,
                              Field<Real>& x_new) = 0;

  // The same update without the residual norm: no reduction, so a device backend need not wait for
  // the sweep to finish (multigrid smoothing). Default: jacobi_sweep with the norm discarded.
  virtual void jacobi_update(const Stencil& A, Real omega, const Field<Real>& b, const Field<Real>& x,
                             Field<Real>& x_new) {
    (void)jacobi_sweep(A, omega, b, x, x_new);
  }

  // Two constant-stencil Jacobi sweeps in one pass over memory (temporal blocking; multigrid smoothing):
  //   x1 = x + omega1 / a_c (b - A x),   out = x1 + omega2 / a_c (b - A x1),
  // each with the bits of jacobi_update, where the ghost cells of x1 hold +0. The caller uses it only where a ghost
  // refresh of x1 would write exactly that (homogeneous Dirichlet values on one rank without periodic axes:
  // GridOperator::homogeneous_ghosts_are_zero). x == nullptr: x = 0, and x1 = omega1 / a_c b with the bits of
  // scale(). x's ghosts must be current; out must be distinct from x and b; owned cells of out only are written.
  // Where jacobi_pair_supported is false (e.g. CUDA: shapes other than the 3D 7-point star, rows not on 16-byte
  // boundaries) the caller runs the sweeps one by one.
  virtual bool jacobi_pair_supported(const Stencil& A, const FieldLayout& layout) const {
    (void)A;
    (void)layout;
    return false;
  }
  virtual void jacobi_update_pair(const Stencil& A, Real omega1, Real omega2, const Field<Real>& b,
                                  const Field<Real>* x, Field<Real>& out) {
    (void)A, (void)omega1, (void)omega2, (void)b, (void)x, (void)out;
    backend_unavailable(name(), "jacobi_update_pair");
  }
  // The pair from zero and the residual of its result in one pass where the backend can (multigrid pre-smoothing
  // followed by the residual): out = jacobi_update_pair(A, omega1, omega2, b, nullptr), then r = b - A out, with the
  // bits of the two calls. out's ghosts must hold +0 on entry (they are not written; the same condition as x1's), and
  // the caller must be allowed to call jacobi_update_pair on this stencil and layout.
  virtual void jacobi_pair_residual(const Stencil& A, Real omega1, Real omega2, const Field<Real>& b, Field<Real>& out,
                                    Field<Real>& r) {
    jacobi_update_pair(A, omega1, omega2, b, nullptr, out);
    residual(A, b, out, r);
  }
  // The pair from x with the global b . out of its result left in sum slot `slot` (below): the preconditioned CG's r.z
  // when b is the multigrid cycle's r and out its z, at no extra pass where the backend fuses it. Default:
  // jacobi_update_pair, then dot_later(b, out, slot).
  virtual void jacobi_update_pair_dot(const Stencil& A, Real omega1, Real omega2, const Field<Real>& b,
                                      const Field<Real>& x, Field<Real>& out, int slot) {
    jacobi_update_pair(A, omega1, omega2, b, &x, out);
    dot_later(b, out, slot);
  }
  // The argument checks of jacobi_update_pair, shared by the backends that have it.
  void check_jacobi_pair_call(const Stencil& A, const Field<Real>& b, const Field<Real>* x, const Field<Real>& out) const {
    if (!(b.layout() == out.layout()) || (x && !(b.layout() == x->layout())))
      throw std::invalid_argument("jacobi_update_pair: x, b and out must have the same layout");
    if (x == &out || &b == &out) throw std::invalid_argument("jacobi_update_pair: out must be distinct from x and b");
    if (!jacobi_pair_supported(A, b.layout()))
      throw std::logic_error("jacobi_update_pair: not supported for this stencil and layout (ask jacobi_pair_supported)");
  }

  // ---- sums collected later -----------------------------------------------------------------------
  // An operation given a sum slot k (0 <= k < kSumSlots) leaves its global sum there instead of returning it: the
  // host does not wait for the device between it and the operations after it, and it may be recorded (record(); a
  // replay computes the sum again). collect_sum(k) waits for the device and returns the slot's global sum (over the
  // ranks). A slot keeps its value until an operation fills it again. Default: the sum is computed at once (host
  // backends have nothing to wait for).
  static constexpr int kSumSlots = 2;
  virtual void dot_later(const Field<Real>& x, const Field<Real>& y, int slot) {
    later_sums_[check_sum_slot(slot)] = dot(x, y);
  }
  virtual double collect_sum(int slot) { return later_sums_[check_sum_slot(slot)]; }
  // axpby with the global y.y of the new y left in sum slot `slot` (CG's r update with r.r). Default: axpby, then
  // dot_later(y, y, slot).
  virtual void axpby_norm_later(Real a, const Field<Real>& x, Real b, Field<Real>& y, int slot) {
    axpby(a, x, b, y);
    dot_later(y, y, slot);
  }

  // ---- halos and boundaries ------------------------------------------------------------------
  // Pack the listed boxes one after another (x fastest within a box) into host memory.
  virtual void pack(const Field<Real>& f, std::span<const IndexBox> boxes, Real* host) = 0;
  virtual void unpack(Field<Real>& f, std::span<const IndexBox> boxes, const Real* host) = 0;
  // Copy box src_boxes[i] of `src` into dst_boxes[i] of `dst` (equal cell counts; the cells are paired
  // in x-fastest order, so the shapes may differ, e.g. an owned 3D block into a flat vector). `src` and
  // `dst` may be the same field when no destination box overlaps a source box. Stays in the backend's
  // memory (halo messages to this rank itself, multigrid redistribution within a rank). The default goes
  // through host memory with pack/unpack; device backends override it.
  virtual void copy_boxes(const Field<Real>& src, std::span<const IndexBox> src_boxes, Field<Real>& dst,
                          std::span<const IndexBox> dst_boxes) {
    check_box_pairs(src_boxes, dst_boxes);
    long total = 0;
    for (const IndexBox& b : src_boxes) total += b.count();
    if (total == 0) return;
    std::vector<Real> tmp(static_cast<std::size_t>(total));
    pack(src, src_boxes, tmp.data());
    unpack(dst, dst_boxes, tmp.data());
  }
  // Fill the ghost slab of one physical face from the boundary condition. The slab spans the full
  // padded extents of the other axes. `homogeneous` uses value 0 (for Krylov search directions).
  virtual void fill_boundary_ghosts(Field<Real>& f, const BoundaryFace& face, bool homogeneous) = 0;
  // Several faces, in the order listed: the result is that of one fill_boundary_ghosts per face in that
  // order (a later face's slab reads the ghosts an earlier face wrote, which settles edges and corners).
  // Device backends override it with one launch.
  virtual void fill_boundary_faces(Field<Real>& f, std::span<const BoundaryFace> faces, bool homogeneous) {
    for (const BoundaryFace& face : faces) fill_boundary_ghosts(f, face, homogeneous);
  }

  // Wait for outstanding device work (no-op on synchronous host backends).
  virtual void fence() {}
  // True when operations return before their work is done (device backends): fences cost real time.
  virtual bool asynchronous() const { return false; }

  // Record the operations `work` issues, to be run by RecordedWork::replay() (recording runs nothing).
  // `work` may only issue operations that return no value to the host: no dot products or norms, no
  // upload/download/pack/unpack, no fences, no MPI messages. Device backends capture the launches once
  // (a CUDA graph: one launch per replay instead of one per kernel); the default keeps `work` and calls
  // it on every replay. Returns null when the work could not be recorded (the caller runs it directly).
  virtual std::unique_ptr<RecordedWork> record(std::function<void()> work) {
    struct Replay final : RecordedWork {
      explicit Replay(std::function<void()> w) : work(std::move(w)) {}
      void replay() override { work(); }
      std::function<void()> work;
    };
    return std::make_unique<Replay>(std::move(work));
  }
  // Record the operations `work` issues as ONE persistent device program (PERKS): on replay they run in
  // order inside a single kernel, separated by device-wide barriers, instead of one launch each (the win
  // for small grids, whose operations each take less time than a launch). Null when the backend has no
  // persistent programs (host backends) or `work` issues an operation a program cannot hold; the caller
  // then runs `work` directly or records it with record().
  virtual std::unique_ptr<RecordedWork> record_persistent(std::function<void()> work) {
    (void)work;
    return nullptr;
  }
  // Up to q.sweeps sweeps of the constant stencil A from x (ghosts up to date), ping-ponging with y; the
  // physical faces are refilled between sweeps. Only for fields without MPI or periodic halos (the caller
  // checks). Device backends run them as one persistent kernel that keeps part of the iterate on chip
  // (PERKS), with bit-identical results to sweep-by-sweep. Default: ran = false.
  virtual PersistentSweeps persistent_sweeps(const Stencil& A, const PersistentSweepsRequest& q, const Field<Real>* b,
                                             Field<Real>& x, Field<Real>& y, std::span<const BoundaryFace> faces,
                                             bool homogeneous) {
    (void)A, (void)q, (void)b, (void)x, (void)y, (void)faces, (void)homogeneous;
    return {};
  }
  // Persistent CG on an assembled matrix without halo columns (PersistentCgRequest); the default backend
  // has none (ran = false).
  virtual PersistentCg persistent_cg(const SparseMatrix<Real>& A, Field<Real>& x, Field<Real>& r, Field<Real>& p,
                                     Field<Real>& q, const PersistentCgRequest& req) {
    (void)A, (void)x, (void)r, (void)p, (void)q, (void)req;
    return {};
  }
  // The same CG loop with a constant stencil operator on grid fields (matrix-free): q = A p applies the
  // stencil to p with its boundary ghosts filled by `faces` with homogeneous values (the linear part of the
  // operator, as GridOperator::apply does). On entry p's ghosts must be filled so; on return they are, for
  // the p handed back. No MPI or periodic ghosts. Default: none (ran = false).
  virtual PersistentCg persistent_stencil_cg(const Stencil& A, std::span<const BoundaryFace> faces, Field<Real>& x,
                                             Field<Real>& r, Field<Real>& p, Field<Real>& q,
                                             const PersistentCgRequest& req) {
    (void)A, (void)faces, (void)x, (void)r, (void)p, (void)q, (void)req;
    return {};
  }

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#endif
  // ---- solver kernels (issue 3). Defaults throw BackendUnavailable so that a backend compiles
  // before it implements them; the Kokkos backend is the reference implementation. ----------------
  // Fused CG update: x += alpha p, r -= alpha q; returns the global r.r of the updated r.
  virtual double cg_update(Real alpha, const Field<Real>& p, const Field<Real>& q, Field<Real>& x, Field<Real>& r) {
    backend_unavailable(name(), "cg_update");
  }
  // The end of a preconditioned CG iteration in one pass: x += alpha p, then p = z + beta p (reads x, p, z;
  // writes x, p). Default: axpby(alpha, p, 1, x), then axpby(1, z, beta, p); a backend that fuses them gives
  // the same values.
  virtual void cg_advance(Real alpha, Real beta, const Field<Real>& z, Field<Real>& p, Field<Real>& x) {
    axpby(alpha, p, Real(1), x);
    axpby(Real(1), z, beta, p);
  }
  // dst = src rounded to Real on owned cells (dst's ghosts untouched). `src` holds the other precision and comes
  // from a backend of the same kind (the same memory space; on a GPU the same stream): the multigrid
  // preconditioner in float for a double CG hands its vectors across with this.
  virtual void convert(const Field<OtherReal<Real>>& src, Field<Real>& dst) {
    backend_unavailable(name(), "convert");
  }
  // Two dot products in one reduction: {x.y, u.v}.
  virtual std::array<double, 2> dot2(const Field<Real>& x, const Field<Real>& y, const Field<Real>& u,
                                     const Field<Real>& v) {
    backend_unavailable(name(), "dot2");
  }
  // ---- mixed precision: one operand in the other precision (a double CG with its multigrid cycle in float) ----
  // Each gives the values of the same-precision operation applied after a convert() of that operand, without the
  // converted copy's pass: CG hands r to the float cycle and takes z from it with no conversion pass of its own.
  // y = a x + b y (as axpby), and y_other = y rounded to the other precision (owned cells; ghosts untouched).
  virtual void axpby_mixed(Real a, const Field<Real>& x, Real b, Field<Real>& y, Field<OtherReal<Real>>& y_other) {
    backend_unavailable(name(), "axpby_mixed");
  }
  // axpby_mixed with the global y.y of the new y left in sum slot `slot` (CG's r update with r.r).
  virtual void axpby_mixed_norm_later(Real a, const Field<Real>& x, Real b, Field<Real>& y,
                                      Field<OtherReal<Real>>& y_other, int slot) {
    axpby_mixed(a, x, b, y, y_other);
    dot_later(y, y, slot);
  }
  // {x.y, u.v} (as dot2) with y in the other precision.
  virtual std::array<double, 2> dot2_mixed(const Field<Real>& x, const Field<OtherReal<Real>>& y, const Field<Real>& u,
                                           const Field<Real>& v) {
    backend_unavailable(name(), "dot2_mixed");
  }
  // cg_advance with z in the other precision: x += alpha p, then p = z + beta p.
  virtual void cg_advance_mixed(Real alpha, Real beta, const Field<OtherReal<Real>>& z, Field<Real>& p,
                                Field<Real>& x) {
    backend_unavailable(name(), "cg_advance_mixed");
  }
  // y = a * r / d + b * y, pointwise (diagonal scaling: Jacobi preconditioner and smoother updates).
  virtual void diag_scale_add(Real a, const Field<Real>& r, const Field<Real>& d, Real b, Field<Real>& y) {
    backend_unavailable(name(), "diag_scale_add");
  }
  // Variable-coefficient stencils: the coefficient of offset p at cell n (linear index of the
  // field layout) is coeffs[n + p * L], L = layout.size(); `coeffs` has layout {{L, points, 1}, no ghosts}.
  virtual void apply_stencil_var(const Stencil& shape, const Field<Real>& coeffs, const Field<Real>& in,
                                 Field<Real>& out) {
    backend_unavailable(name(), "apply_stencil_var");
  }
  virtual void residual_var(const Stencil& shape, const Field<Real>& coeffs, const Field<Real>& b,
                            const Field<Real>& x, Field<Real>& r) {
    backend_unavailable(name(), "residual_var");
  }
  // d <- coefficient of offset `point` (e.g. the centre: the diagonal), owned cells.
  virtual void stencil_coefficient(const Field<Real>& coeffs, int point, Field<Real>& d) {
    backend_unavailable(name(), "stencil_coefficient");
  }
  // One colour of a red-black Gauss-Seidel sweep, in place: cells whose global index sum
  // (i + j + k + parity) is even (color 0) or odd (color 1) get x <- x + (b - A x) / a_centre.
  // Only star stencils of radius 1 (colours decouple). `coeffs` null => constant stencil.
  virtual void gs_color_sweep(const Stencil& A, const Field<Real>* coeffs, const Field<Real>& b, Field<Real>& x,
                              int color, long parity) {
    backend_unavailable(name(), "gs_color_sweep");
  }
  // Multigrid transfers (fine fields with up-to-date ghosts, corners included, for restriction;
  // coarse fields with up-to-date ghosts for prolongation). Vertex: full weighting (1/4,1/2,1/4 per
  // axis) and (bi/tri)linear interpolation; cell-centred: the transpose of the linear
  // interpolation (1/8,3/8,3/8,1/8 per axis) and linear interpolation (3/4,1/4 per axis).
  virtual void restrict_to_coarse(const TransferMap& m, const Field<Real>& fine, Field<Real>& coarse) {
    backend_unavailable(name(), "restrict_to_coarse");
  }
  // fine += P coarse
  virtual void prolongate_add(const TransferMap& m, const Field<Real>& coarse, Field<Real>& fine) {
    backend_unavailable(name(), "prolongate_add");
  }
  // Sparse matrices (row-block distributed CSR, vectors are fields with layout {{rows,1,1}, no ghosts}).
  virtual std::unique_ptr<SparseMatrix<Real>> create_sparse_matrix(const CsrBlock& block) {
    backend_unavailable(name(), "create_sparse_matrix");
  }
  // host[s] = x[send_index[s]] (the executor's pack step).
  virtual void sparse_gather(const SparseMatrix<Real>& A, const Field<Real>& x, Real* host) {
    backend_unavailable(name(), "sparse_gather");
  }
  // y = A [x; ghosts], ghosts from host memory (ghost_cols values).
  virtual void spmv(const SparseMatrix<Real>& A, const Field<Real>& x, const Real* ghosts, Field<Real>& y) {
    backend_unavailable(name(), "spmv");
  }
  // y = A x on the owned cells of two fields of one layout: A's rows and columns are the layout's owned cells in
  // x-fastest order (multigrid's dense coarse inverse, docs/solvers.md). Ghosts are neither read nor written; x and y
  // may be the same field. The default goes through the flat vectors flat_x and flat_y ({{cells,1,1}}, no ghosts):
  // copy_boxes, spmv, copy_boxes. Device backends override it with one pass that reads and writes the fields (where
  // x and y differ).
  virtual void spmv_cells(const SparseMatrix<Real>& A, const Field<Real>& x, Field<Real>& y, Field<Real>& flat_x,
                          Field<Real>& flat_y) {
    const IndexBox owned[1] = {x.layout().owned()};
    const IndexBox flat[1] = {flat_x.layout().owned()};
    copy_boxes(x, owned, flat_x, flat);
    spmv(A, flat_x, nullptr, flat_y);
    copy_boxes(flat_y, flat, y, owned);
  }
  // d = diag(A) (rows without a stored diagonal give 0).
  virtual void sparse_diagonal(const SparseMatrix<Real>& A, Field<Real>& d) { backend_unavailable(name(), "sparse_diagonal"); }
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

 protected:
  explicit Backend(MPI_Comm comm) : comm_(comm) {}
  double allreduce_sum(double local) const;
  double allreduce_max(double local) const;
  // Throws std::invalid_argument unless the two lists pair boxes of equal cell counts.
  static void check_box_pairs(std::span<const IndexBox> src_boxes, std::span<const IndexBox> dst_boxes) {
    bool ok = src_boxes.size() == dst_boxes.size();
    for (std::size_t i = 0; ok && i < src_boxes.size(); ++i) ok = src_boxes[i].count() == dst_boxes[i].count();
    if (!ok) throw std::invalid_argument("copy_boxes: source and destination boxes do not pair up (counts differ)");
  }
  // The slot, or std::out_of_range unless 0 <= slot < kSumSlots.
  static int check_sum_slot(int slot) {
    if (slot < 0 || slot >= kSumSlots) throw std::out_of_range("backend: sum slot out of range");
    return slot;
  }

 private:
  MPI_Comm comm_;
  std::array<double, kSumSlots> later_sums_{};
};

// Backend factory by name ("kokkos", "cuda"). Throws BackendUnavailable with a clear message when
// the backend is not compiled in or not implemented.

enum class Precision { float32, float64 };

template <class Real>
std::unique_ptr<Backend<Real>> create_backend(std::string_view name, MPI_Comm comm);

// Registration used by backend libraries (self-registering at load time).
template <class Real>
using BackendFactory = std::unique_ptr<Backend<Real>> (*)(MPI_Comm);
void register_backend(std::string name, BackendFactory<float> f32, BackendFactory<double> f64);
std::vector<std::string> registered_backends();

}  // namespace perksolve
