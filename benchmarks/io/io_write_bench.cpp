// Writes one N^3 double field (default 256^3 = 128 MiB) decomposed over the MPI ranks into an HDF5
// file through the output layer's writer (io::H5File::write_block: collective hyperslab writes, or the
// gather fallback), and reports the time from file creation to close (+ fsync with --sync).
//   mpirun -n 4 io_write_bench [--n 256] [--reps 5] [--mode auto|collective|gather] [--sync] [--dir DIR]
// Prints one JSON line per configuration; benchmarks/io/run_io_bench.sh compares it with dd.
#include <fcntl.h>
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "framework/grid/decomposition.hpp"
#include "framework/io/h5file.hpp"

using namespace perksolve;

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long n = 256;
  int reps = 5;
  bool sync = false;
  std::string mode_name = "auto", dir = ".";
  std::array<int, 3> dims{0, 0, 0};
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--n" && i + 1 < argc) n = std::atol(argv[++i]);
    else if (a == "--reps" && i + 1 < argc) reps = std::atoi(argv[++i]);
    else if (a == "--mode" && i + 1 < argc) mode_name = argv[++i];
    else if (a == "--dir" && i + 1 < argc) dir = argv[++i];
    else if (a == "--sync") sync = true;
    else if (a == "--ranks" && i + 1 < argc) std::sscanf(argv[++i], "%d,%d,%d", &dims[0], &dims[1], &dims[2]);
  }
  GridSpec g;
  g.dim = 3;
  g.extents = {n, n, n};
  g.validate();
  int code = 0;
  try {
    Decomposition d(g, MPI_COMM_WORLD, dims, 1);
    io::Block b;
    for (int a = 0; a < 3; ++a) {
      b.offset[a] = d.offset()[a];
      b.count[a] = d.local_extents()[a];
    }
    std::vector<double> data(static_cast<size_t>(b.size()));
    for (size_t i = 0; i < data.size(); ++i) data[i] = 1e-3 * static_cast<double>(i % 1000) + rank;
    const io::H5Mode mode = io::resolve_h5_mode(mode_name);
    const std::string path = dir + "/io_write_bench.h5";
    std::vector<double> times;
    double phase[3] = {0, 0, 0};  // open, write, close (rank 0, summed over repetitions)
    for (int r = 0; r < reps; ++r) {
      if (rank == 0) std::remove(path.c_str());  // a new file each time, as for output steps (and dd below)
      MPI_Barrier(MPI_COMM_WORLD);
      const auto t0 = std::chrono::steady_clock::now();
      {
        io::H5File f(path, io::H5File::Access::create, MPI_COMM_WORLD, mode);
        const auto t1 = std::chrono::steady_clock::now();
        f.write_block<double>("/field", 3, g.extents, b, data.data());
        const auto t2 = std::chrono::steady_clock::now();
        f.close();
        const auto t3 = std::chrono::steady_clock::now();
        phase[0] += std::chrono::duration<double>(t1 - t0).count();
        phase[1] += std::chrono::duration<double>(t2 - t1).count();
        phase[2] += std::chrono::duration<double>(t3 - t2).count();
      }
      if (sync && rank == 0) {
        const int fd = ::open(path.c_str(), O_RDONLY);
        ::fsync(fd);
        ::close(fd);
      }
      MPI_Barrier(MPI_COMM_WORLD);
      times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(times.begin(), times.end());
    const double bytes = 8.0 * n * n * n;
    if (rank == 0) {
      std::printf("{\"what\": \"perksolve_hdf5\", \"n\": %ld, \"ranks\": %d, \"rank_grid\": [%d, %d, %d], \"mode\": \"%s\", "
                  "\"sync\": %s, \"bytes\": %.0f, \"reps\": %d, \"median_s\": %.6f, \"min_s\": %.6f, "
                  "\"median_gb_per_s\": %.4f, \"mean_open_write_close_s\": [%.4f, %.4f, %.4f], \"hdf5\": \"%s\"}\n",
                  n, size, d.dims()[0], d.dims()[1], d.dims()[2], io::to_string(mode).c_str(), sync ? "true" : "false",
                  bytes, reps, times[times.size() / 2], times[0], bytes / times[times.size() / 2] * 1e-9, phase[0] / reps, phase[1] / reps, phase[2] / reps,
                  io::hdf5_description().c_str());
      std::remove(path.c_str());
    }
  } catch (const std::exception& e) {
    if (rank == 0) std::fprintf(stderr, "io_write_bench: %s\n", e.what());
    code = 1;
  }
  MPI_Finalize();
  return code;
}
