// Cost of a kernel boundary vs a device-wide barrier (docs/perf/perks.md): the same sequence of backend
// operations run (1) operation by operation, (2) as a CUDA graph (Backend::record) and (3) as one
// persistent program (Backend::record_persistent), per operation:
//   barrier    K fills of a one-cell field: the fixed cost of an operation (launch / graph node / barrier)
//   level N    a multigrid level's smoothing on an N^3 grid: K/2 times (boundary faces + Jacobi sweep)
//   with --breakdown, per level also K times one kind of operation: faces N (boundary faces), jacobi N
//   (7-point Jacobi sweeps), scale N (a point-wise operation)
//
//   --small-work W: runs of operations with <= W work items each run in block 0 alone (0: never;
//   default CudaBackend::kProgramSmallWork)
//
//   --cluster C: the programs run on one thread-block cluster of up to C blocks with its hardware barrier
//   (0: every SM, device-wide barriers; default: PERKSOLVE_PROGRAM_CLUSTER or 0)
//
//   program_bench [--out results.json] [--ops 64] [--reps 30] [--breakdown] [--small-work W] [--cluster C]
//                 [--git-revision REV]
#include <cuda_runtime.h>
#include <mpi.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "benchmarks/gpu/bench_common.hpp"
#include "framework/backends/cuda/cuda_backend.hpp"
#include "framework/stencil/stencil.hpp"

using namespace perksolve;

namespace {

struct Record {
  std::string name;
  long cells = 0;
  int ops = 0;
  double per_op_eager = 0, per_op_graph = 0, per_op_program = 0;
};

Record measure(CudaBackend<double>& be, const std::string& name, long cells, int ops, int reps,
               const std::function<void()>& sequence) {
  cudaStream_t st = be.stream();
  Record r;
  r.name = name;
  r.cells = cells;
  r.ops = ops;
  r.per_op_eager = bench::time_per_call(st, 3, reps, sequence) / ops;
  std::unique_ptr<RecordedWork> graph = be.record(sequence);
  std::unique_ptr<RecordedWork> program = be.record_persistent(sequence);
  if (!graph || !program) throw std::runtime_error(name + ": the sequence could not be recorded");
  r.per_op_graph = bench::time_per_call(st, 3, reps, [&] { graph->replay(); }) / ops;
  r.per_op_program = bench::time_per_call(st, 3, reps, [&] { program->replay(); }) / ops;
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  std::string out_path, git_rev = "unknown";
  int ops = 64, reps = 30;
  bool breakdown = false;
  long small_work = CudaBackend<double>::kProgramSmallWork;
  int cluster = -1;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--out") out_path = next();
    else if (a == "--ops") ops = std::stoi(next());
    else if (a == "--reps") reps = std::stoi(next());
    else if (a == "--git-revision") git_rev = next();
    else if (a == "--breakdown") breakdown = true;
    else if (a == "--small-work") small_work = std::stol(next());
    else if (a == "--cluster") cluster = std::stoi(next());
    else {
      std::fprintf(stderr, "unknown argument %s\nusage: program_bench [--out FILE.json] [--ops K] [--reps R] [--breakdown] [--small-work W] [--cluster C]\n",
                   a.c_str());
      MPI_Finalize();
      return 2;
    }
  }
  const std::string command = bench::command_line(argc, argv);
  int status = 0;
  try {
    CudaBackend<double> be(MPI_COMM_WORLD);
    be.set_program_small_work(small_work);
    if (cluster >= 0) be.set_program_cluster(cluster);
    std::vector<Record> recs;
    {
      FieldLayout one;
      auto f = be.create_field(one);
      recs.push_back(measure(be, "barrier", 1, ops, reps, [&] {
        for (int k = 0; k < ops; ++k) be.fill(*f, static_cast<double>(k));
      }));
    }
    const Stencil A = laplacian_7pt(1.0, 1.0, 1.0);
    std::vector<BoundaryFace> faces;
    for (int a = 0; a < 3; ++a)
      for (int side = 0; side < 2; ++side)
        faces.push_back(BoundaryFace{a, side, FaceBoundary{BoundaryType::dirichlet, 0.0}, Centering::vertex, 1.0});
    for (int n : {7, 15, 31, 63, 127}) {
      FieldLayout l;
      l.n = {n, n, n};
      l.ghost = {1, 1, 1};
      l.align = grid_row_align<double>(l);
      auto x = be.create_field(l), w = be.create_field(l), b = be.create_field(l);
      be.fill(*x, 0.5);
      be.fill(*w, 0.25);
      be.fill(*b, 1.0);
      const std::string size = std::to_string(n);
      recs.push_back(measure(be, "level " + size, l.owned_size(), ops, reps, [&] {
        for (int k = 0; k < ops / 2; ++k) {
          be.fill_boundary_faces(k % 2 ? *w : *x, faces, true);
          be.jacobi_update(A, 0.8, *b, k % 2 ? *w : *x, k % 2 ? *x : *w);
        }
      }));
      if (!breakdown) continue;
      // The level's operations one kind at a time: where an operation's time goes.
      recs.push_back(measure(be, "faces " + size, l.owned_size(), ops, reps, [&] {
        for (int k = 0; k < ops; ++k) be.fill_boundary_faces(k % 2 ? *w : *x, faces, true);
      }));
      recs.push_back(measure(be, "jacobi " + size, l.owned_size(), ops, reps, [&] {
        for (int k = 0; k < ops; ++k) be.jacobi_update(A, 0.8, *b, k % 2 ? *w : *x, k % 2 ? *x : *w);
      }));
      recs.push_back(measure(be, "scale " + size, l.owned_size(), ops, reps, [&] {
        for (int k = 0; k < ops; ++k) be.scale(0.5, k % 2 ? *w : *x, k % 2 ? *x : *w);
      }));
    }
    std::printf("device: %s\nsmall work: %ld items (runs of smaller operations in block 0)\nprogram cluster: %d blocks (0: "
                "every SM, device-wide barriers)\n\n%-12s %10s %6s %14s %14s %14s\n",
                be.device_name().c_str(), small_work, be.program_cluster(), "case", "cells", "ops",
                "eager [us/op]", "graph [us/op]", "program [us/op]");
    for (const Record& r : recs)
      std::printf("%-12s %10ld %6d %14.2f %14.2f %14.2f\n", r.name.c_str(), r.cells, r.ops, r.per_op_eager * 1e6,
                  r.per_op_graph * 1e6, r.per_op_program * 1e6);
    if (!out_path.empty()) {
      std::ofstream f(out_path);
      bench::json_run_header(f, "program_bench", be.device_name(), git_rev, command);
      f << ",\n  \"small_work\": " << small_work << ",\n  \"program_cluster\": " << be.program_cluster()
        << ",\n  \"records\": [\n";
      for (std::size_t i = 0; i < recs.size(); ++i) {
        const Record& r = recs[i];
        char buf[512];
        std::snprintf(buf, sizeof buf,
                      "    {\"case\": \"%s\", \"cells\": %ld, \"ops\": %d, \"eager_s_per_op\": %.4e, "
                      "\"graph_s_per_op\": %.4e, \"program_s_per_op\": %.4e}%s\n",
                      r.name.c_str(), r.cells, r.ops, r.per_op_eager, r.per_op_graph, r.per_op_program,
                      i + 1 < recs.size() ? "," : "");
        f << buf;
      }
      f << "  ]\n}\n";
      std::printf("wrote %s\n", out_path.c_str());
    }
  } catch (const BackendUnavailable& e) {
    std::printf("SKIPPED: no CUDA device (%s)\n", e.what());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "program_bench: %s\n", e.what());
    status = 1;
  }
  MPI_Finalize();
  return status;
}
