// The native CUDA backend: device fields (cudaMalloc, no managed memory) and every Backend op as
// CUDA kernels. This header is plain C++ (no CUDA headers), so host code compiled by the C++
// compiler (tests, the app) can use the types; the implementation lives in the .cu files beside it.
//
// Stencils: a runtime Stencil is matched against the shapes compiled in (the 13 PERKS shapes, which
// include the Laplacian shapes) and runs a kernel templated on its ShapeSpec (the two-load
// z/y-streaming kernel of stencil_kernels.cuh); any other shape runs a generic kernel that loops over
// the offsets held in constant memory. docs/perf/two-load-stencils.md describes the kernels.
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "framework/backend/backend.hpp"
#include "framework/backends/cuda/perks_model.hpp"
#include "framework/backends/cuda/stream_schedule.hpp"

struct CUstream_st;  // cudaStream_t without including cuda_runtime.h

namespace perksolve {
namespace cuda_ops {
template <class Real>
struct ProgramBuilder;  // persistent_program.cuh
template <class Real>
class CudaCsr;  // cuda_csr.cuh
}
namespace cuda_detail {
template <class Real>
struct StencilRequest;  // cuda_common.cuh
enum class StencilMode : int;  // cuda_common.cuh
}

template <class Real>
class CudaField final : public Field<Real> {
 public:
  explicit CudaField(const FieldLayout& layout);
  ~CudaField() override;
  Real* data() override { return data_; }
  const Real* data() const override { return data_; }
  std::string_view backend_name() const override { return "cuda"; }

 private:
  Real* data_ = nullptr;
};

// Which stencil kernel the last stencil op ran (for tests and benchmarks).
enum class CudaStencilPath { none, templated, templated_symmetric, generic };

// CSR SpMV implementation (cuda_sparse.cu): the native stream-CSR kernel (CSR-adaptive: row blocks of
// <= 2048 entries, products streamed through shared memory), the native vector-CSR kernel (a group of
// 2..32 lanes per row, group size from the mean row length) or cuSPARSE's generic SpMV
// (CUSPARSE_SPMV_CSR_ALG2, deterministic). PERKSOLVE_CUDA_SPMV=native|vector|cusparse sets the initial
// choice.
enum class CudaSpmvPath { native, native_vector, cusparse };
// How the persistent CSR CG's SpMV reads a tile of the matrix (persistent_cg.cu). staged: the tile's
// entries are read coalesced, multiplied by the gathered p and staged in shared memory, and the merge
// search reads the tile's row ends from shared memory (the default); per_thread: every thread reads its
// own merge items from global memory (the first version; kept for comparison). A matrix kept whole in
// shared memory always walks per thread. rows: no merge path and no caches; the operation loop's stream SpMV
// (row blocks of <= kStreamNnz entries, strided over the grid) and grid-strided vector phases at six or eight
// 256-thread blocks per SM (persistent_cg_rows.cu, rows_walk_blocks_per_sm). automatic (the default): rows where the matrix and four vectors exceed
// the L2 cache, staged elsewhere (H200: each is 1.3-5x faster than the other on its side).
enum class CudaCgWalk { automatic, staged, per_thread, rows };

template <class Real>
class CudaBackend final : public Backend<Real> {
 public:
  // Throws BackendUnavailable when no CUDA device is usable. Selects device (local rank % devices).
  explicit CudaBackend(MPI_Comm comm);
  ~CudaBackend() override;
  std::string_view name() const override { return "cuda"; }

  FieldPtr<Real> create_field(const FieldLayout& layout) override;
  HostBuffer<Real> create_host_buffer(long size) override;
  void upload(Field<Real>& f, std::span<const Real> host) override;
  void download(const Field<Real>& f, std::span<Real> host) override;

  void fill(Field<Real>& f, Real value) override;
  void copy(const Field<Real>& src, Field<Real>& dst) override;
  void axpby(Real a, const Field<Real>& x, Real b, Field<Real>& y) override;
  void scale(Real a, const Field<Real>& x, Field<Real>& y) override;
  double dot(const Field<Real>& x, const Field<Real>& y) override;
  double norm2(const Field<Real>& x) override;
  double norm_inf(const Field<Real>& x) override;

  void apply_stencil(const Stencil& s, const Field<Real>& in, Field<Real>& out) override;
  // The templated streaming kernel's apply_dot mode (has_apply_dot shapes); others apply, then dot.
  double apply_stencil_dot(const Stencil& s, const Field<Real>& in, Field<Real>& out) override;
  void residual(const Stencil& A, const Field<Real>& b, const Field<Real>& x, Field<Real>& r) override;
  double jacobi_sweep(const Stencil& A, Real omega, const Field<Real>& b, const Field<Real>& x,
                      Field<Real>& x_new) override;
  void jacobi_update(const Stencil& A, Real omega, const Field<Real>& b, const Field<Real>& x,
                     Field<Real>& x_new) override;
  // The pair kernel (jacobi_pair.cuh) for the 3D 7-point star; not while a persistent program is being recorded.
  bool jacobi_pair_supported(const Stencil& A, const FieldLayout& layout) const override;
  void jacobi_update_pair(const Stencil& A, Real omega1, Real omega2, const Field<Real>& b, const Field<Real>* x,
                          Field<Real>& out) override;
  // The pair kernel's residual variant: w and r from one read of b.
  void jacobi_pair_residual(const Stencil& A, Real omega1, Real omega2, const Field<Real>& b, Field<Real>& out,
                            Field<Real>& r) override;
  // The pair kernel's dot variant: b . out summed by the kernel's blocks, finished on the device.
  void jacobi_update_pair_dot(const Stencil& A, Real omega1, Real omega2, const Field<Real>& b, const Field<Real>& x,
                              Field<Real>& out, int slot) override;
  // Sum slots: the finished sum is copied to pinned host memory in stream order; collect_sum synchronises.
  void dot_later(const Field<Real>& x, const Field<Real>& y, int slot) override;
  double collect_sum(int slot) override;

  void pack(const Field<Real>& f, std::span<const IndexBox> boxes, Real* host) override;
  void unpack(Field<Real>& f, std::span<const IndexBox> boxes, const Real* host) override;
  void copy_boxes(const Field<Real>& src, std::span<const IndexBox> src_boxes, Field<Real>& dst,
                  std::span<const IndexBox> dst_boxes) override;
  void fill_boundary_ghosts(Field<Real>& f, const BoundaryFace& face, bool homogeneous) override;
  // All faces in one launch (the composed per-cell rule; sequential fallback for unusual face lists).
  void fill_boundary_faces(Field<Real>& f, std::span<const BoundaryFace> faces, bool homogeneous) override;
  void fence() override;
  // A CUDA graph of the launches `work` issues into this backend's stream (the stream every CudaBackend
  // on this device shares); null when `work` did something a graph cannot hold (a synchronisation).
  std::unique_ptr<RecordedWork> record(std::function<void()> work) override;
  // A persistent program (persistent_program.cuh): one cooperative kernel for the whole sequence.
  std::unique_ptr<RecordedWork> record_persistent(std::function<void()> work) override;
  // PERKS stencil iteration (perks_stencil.cuh): compiled shapes, constant coefficients.
  PersistentSweeps persistent_sweeps(const Stencil& A, const PersistentSweepsRequest& q, const Field<Real>* b,
                                     Field<Real>& x, Field<Real>& y, std::span<const BoundaryFace> faces,
                                     bool homogeneous) override;
  // Persistent CG (persistent_cg.cu): the CG loop on a CSR matrix as one cooperative kernel.
  PersistentCg persistent_cg(const SparseMatrix<Real>& A, Field<Real>& x, Field<Real>& r, Field<Real>& p, Field<Real>& q,
                             const PersistentCgRequest& req) override;
  // Matrix-free persistent CG (persistent_stencil_cg.cu): the compiled CG stencil shapes (3D 7 / 27 points,
  // 2D 5 / 9 points), constant coefficients.
  PersistentCg persistent_stencil_cg(const Stencil& A, std::span<const BoundaryFace> faces, Field<Real>& x,
                                     Field<Real>& r, Field<Real>& p, Field<Real>& q,
                                     const PersistentCgRequest& req) override;
  bool asynchronous() const override { return true; }

  // ---- solver kernels (cuda_solver_ops.cu, cuda_sparse.cu) ------------------------------------------
  double cg_update(Real alpha, const Field<Real>& p, const Field<Real>& q, Field<Real>& x, Field<Real>& r) override;
  void cg_advance(Real alpha, Real beta, const Field<Real>& z, Field<Real>& p, Field<Real>& x) override;
  void convert(const Field<OtherReal<Real>>& src, Field<Real>& dst) override;
  void axpby_mixed(Real a, const Field<Real>& x, Real b, Field<Real>& y, Field<OtherReal<Real>>& y_other) override;
  void axpby_norm_later(Real a, const Field<Real>& x, Real b, Field<Real>& y, int slot) override;
  void axpby_mixed_norm_later(Real a, const Field<Real>& x, Real b, Field<Real>& y, Field<OtherReal<Real>>& y_other,
                              int slot) override;
  std::array<double, 2> dot2_mixed(const Field<Real>& x, const Field<OtherReal<Real>>& y, const Field<Real>& u,
                                   const Field<Real>& v) override;
  void cg_advance_mixed(Real alpha, Real beta, const Field<OtherReal<Real>>& z, Field<Real>& p,
                        Field<Real>& x) override;
  std::array<double, 2> dot2(const Field<Real>& x, const Field<Real>& y, const Field<Real>& u,
                             const Field<Real>& v) override;
  void diag_scale_add(Real a, const Field<Real>& r, const Field<Real>& d, Real b, Field<Real>& y) override;
  void apply_stencil_var(const Stencil& shape, const Field<Real>& coeffs, const Field<Real>& in,
                         Field<Real>& out) override;
  void residual_var(const Stencil& shape, const Field<Real>& coeffs, const Field<Real>& b, const Field<Real>& x,
                    Field<Real>& r) override;
  void stencil_coefficient(const Field<Real>& coeffs, int point, Field<Real>& d) override;
  void gs_color_sweep(const Stencil& A, const Field<Real>* coeffs, const Field<Real>& b, Field<Real>& x, int color,
                      long parity) override;
  void restrict_to_coarse(const TransferMap& m, const Field<Real>& fine, Field<Real>& coarse) override;
  void prolongate_add(const TransferMap& m, const Field<Real>& coarse, Field<Real>& fine) override;
  std::unique_ptr<SparseMatrix<Real>> create_sparse_matrix(const CsrBlock& block) override;
  void sparse_gather(const SparseMatrix<Real>& A, const Field<Real>& x, Real* host) override;
  void spmv(const SparseMatrix<Real>& A, const Field<Real>& x, const Real* ghosts, Field<Real>& y) override;
  void spmv_cells(const SparseMatrix<Real>& A, const Field<Real>& x, Field<Real>& y, Field<Real>& flat_x,
                  Field<Real>& flat_y) override;
  void sparse_diagonal(const SparseMatrix<Real>& A, Field<Real>& d) override;

  // ---- CUDA specifics --------------------------------------------------------------------------
  CUstream_st* stream() const { return stream_; }
  int device() const { return device_; }
  std::string device_name() const;
  // The device as the PERKS models see it (SMs, shared memory, bandwidth, L2), queried once.
  const cuda_detail::PerksDeviceModel& perks_device() const { return perks_device_; }
  CudaStencilPath last_stencil_path() const { return last_path_; }
  // Force the generic (constant-memory) stencil kernel even for compiled shapes (tests, benchmarks).
  void set_force_generic_stencil(bool on) { force_generic_ = on; }
  // Tile variant of the templated kernels: wide (default; several outputs per thread and plane) or
  // the exact Krotkiewski-Dabrowski two-load tile (one output per thread and plane). The environment
  // variable PERKSOLVE_CUDA_TILES=two_load|wide sets the initial choice.
  void set_wide_tiles(bool on) { wide_tiles_ = on; }
  bool wide_tiles() const { return wide_tiles_; }
  // Dynamic stencil schedules end in chunks this many times shorter (0: equal chunks); stream_schedule.hpp.
  void set_schedule_tail(int div) { schedule_tail_ = div; }
  int schedule_tail() const { return schedule_tail_; }
  void set_spmv_path(CudaSpmvPath p) { spmv_path_ = p; }
  CudaSpmvPath spmv_path() const { return spmv_path_; }
  // The persistent CG's SpMV walk (CudaCgWalk; PERKSOLVE_CUDA_CG_WALK=auto|staged|per_thread|rows sets the initial one).
  void set_cg_walk(CudaCgWalk w) { cg_walk_ = w; }
  CudaCgWalk cg_walk() const { return cg_walk_; }
  // Persistent programs recorded from now on run runs of operations with at most this many work items
  // each in block 0 alone (0: never; benchmarks and tests; default kProgramSmallWork).
  void set_program_small_work(long items) { program_small_work_ = items; }
  long program_small_work() const { return program_small_work_; }
  static constexpr long kProgramSmallWork = 4096;
  // Persistent programs recorded from now on run on one thread-block cluster of at most this many blocks,
  // with the cluster's hardware barrier between operations (0: on every SM as a cooperative grid). The
  // environment variable PERKSOLVE_PROGRAM_CLUSTER sets the initial value.
  void set_program_cluster(int blocks) { program_cluster_ = blocks; }
  int program_cluster() const { return program_cluster_; }

 private:
  enum class Mode { apply, residual, jacobi };
  // The templated streaming kernel for A (request r, mode m) where one is compiled for A's shape and offsets and
  // no generic kernel is forced; sets last_path_. Returns its block count (partials written for jacobi /
  // apply_dot), or -1 when nothing was launched.
  int launch_templated(const Stencil& A, cuda_detail::StencilRequest<Real>& r, cuda_detail::StencilMode m);
  // Jacobi mode returns the fused norm unless `want_norm` is false (then nothing waits for the kernel).
  double run_stencil(Mode mode, const Stencil& A, Real scale, const Field<Real>* b, const Field<Real>& x,
                     Field<Real>& out, bool want_norm = true);
  // The pair kernel for jacobi_update_pair (r null) and jacobi_pair_residual (x null), after their argument checks;
  // dot_slot >= 0: b . out into that sum slot (from x).
  void run_pair(const Stencil& A, Real omega1, Real omega2, const Field<Real>& b, const Field<Real>* x,
                Field<Real>& out, Field<Real>* r, int dot_slot = -1);
  // dot_kernel's partial sums of x . y into partials_ (same layouts; the caller checks); returns their count.
  int launch_dot_partials(const Field<Real>& x, const Field<Real>& y);
  double finish_partials(int count);  // sums device partials[0..count) in a fixed order
  // The same sum into sum slot `slot` (result_host_[2 + slot]), without waiting.
  void finish_partials_later(int count, int slot);
  // finish_kernel of partials[0..count) into result_host_[k] in stream order: written there directly (mapped), or
  // into result_dev_[k] and copied (PERKSOLVE_CUDA_SUMS_TO_HOST=0).
  void finish_into(const double* partials, int count, int k);
  // Two reductions at once: partials[0..count) and partials[kMaxPartials/2 ..+count) -> {sum, sum}.
  std::array<double, 2> finish_partials2(int count);
  std::array<double, 2> allreduce_pair(const std::array<double, 2>& local) const;  // MPI sum of both at once
  void ensure_staging(std::size_t bytes);
  void ensure_device_scratch(std::size_t bytes);
  // A stencil launch request on this backend's stream, partials and work counters (scale, symmetric: caller).
  cuda_detail::StencilRequest<Real> stencil_request(const Stencil& A, const FieldLayout& l, const Real* x, const Real* b,
                                                    Real* out) const;
  // After a persistent CG kernel: reads its result (iterations, stop code 0 budget / 1 threshold / 2 breakdown,
  // r.r, p.q; 4 doubles at result_dev) and its r.r history into a PersistentCg marked as run.
  PersistentCg read_persistent_cg_result(const double* result_dev, const double* history_dev);
  // persistent_cg with CudaCgWalk::rows (persistent_cg_rows.cu); A has no ghost columns.
  PersistentCg persistent_cg_rows(const cuda_ops::CudaCsr<Real>& A, Field<Real>& x, Field<Real>& r, Field<Real>& p,
                                  Field<Real>& q, const PersistentCgRequest& req);

  CUstream_st* stream_ = nullptr;
  int device_ = 0;
  int sm_count_ = 1;
  cuda_detail::PerksDeviceModel perks_device_;  // the PERKS concurrency model's device (queried once: some
                                               // attributes, e.g. the memory clock, cost ~1 ms per query)
  double* partials_ = nullptr;  // device, kMaxPartials doubles
  unsigned* work_counters_ = nullptr;  // device, 2 self-resetting counters of the dynamic stencil schedule
  double* result_dev_ = nullptr;   // 4 doubles: [0, 2) finish_partials / finish_partials2, [2, 4) the sum slots
  double* result_host_ = nullptr;  // pinned, 4 doubles (the same)
  double* result_mapped_ = nullptr;  // result_host_ as the device sees it (null: PERKSOLVE_CUDA_SUMS_TO_HOST=0)
  bool spmv_cells_kernel_ = true;    // spmv_cells in one kernel (PERKSOLVE_CUDA_SPMV_CELLS=0: the flat path)
  void* staging_host_ = nullptr;   // pinned staging for pack/unpack with pageable user memory
  void* staging_mapped_ = nullptr;  // staging_host_ as the device sees it (null: PERKSOLVE_CUDA_SUMS_TO_HOST=0)
  std::size_t staging_bytes_ = 0;
  void* scratch_dev_ = nullptr;  // device pack/unpack buffer
  std::size_t scratch_bytes_ = 0;
  std::vector<void*> retired_scratch_;  // outgrown scratch buffers (recorded graphs may still use them)
  CudaStencilPath last_path_ = CudaStencilPath::none;
  bool force_generic_ = false;
  bool wide_tiles_ = true;
  int schedule_tail_ = cuda_detail::kStreamTailDiv;  // StencilRequest::schedule_tail (PERKSOLVE_CUDA_STREAM_TAIL)
  bool perks_chunk_lead_ = true;  // PerksRequest::chunk_lead (PERKSOLVE_PERKS_CHUNK_LEAD)
  bool perks_static_balance_ = true;  // PerksRequest::static_balance (PERKSOLVE_PERKS_STATIC_BALANCE)
  bool perks_two_blocks_ = true;      // PerksRequest::resident_two_blocks (PERKSOLVE_PERKS_TWO_BLOCKS)
  // persistent_sweeps polls the sweep count the kernel writes last into mapped memory instead of synchronising the
  // stream (PERKSOLVE_CUDA_RESULT_POLL=0: synchronises).
  bool result_poll_ = true;
  // The resident PERKS kernel's sweep flags (PerksSweepFlags): perks_flag_count_ flags, one per 128-byte line
  // (kPerksFlagStride apart), then one more line that holds the two epoch words; null: a device-wide barrier after
  // every sweep (PERKSOLVE_PERKS_NEIGHBOUR_SYNC=0).
  unsigned long long* perks_sweep_flags_ = nullptr;
  long perks_flag_count_ = 0;
  bool fast_memory_ = false;  // large grids take the fast-memory stencil tiles (cuda_detail::perks_fast_memory of
                              // this device, or PERKSOLVE_CUDA_MEMORY=fast|normal)
  CudaSpmvPath spmv_path_ = CudaSpmvPath::native;
  CudaCgWalk cg_walk_ = CudaCgWalk::automatic;
  long program_small_work_ = kProgramSmallWork;
  int program_cluster_ = 0;
  cuda_ops::ProgramBuilder<Real>* builder_ = nullptr;  // set while record_persistent describes operations
};

}  // namespace perksolve
