// Which L2 partition each SM sits beside (H100 / H200: two L2 partitions joined by a fabric; docs/perf/
// two-load-stencils.md, eleventh round). For every SM k: a block on a reference SM s0 reads a 256 KB buffer (its lines
// are then in L2: at their home partition, and in s0's partition if that keeps copies of far lines), then a block on SM k
// walks the buffer as a dependent chain and times it. SMs beside s0's partition hit every line close by; the others
// fetch about half of the lines across the fabric, so their mean latency is higher. Between measurements a 192 MB
// write evicts the buffer from L2.
//
//   l2_partition_probe [--ref 0] [--out probe.json] [--git-revision REV]
// Prints the mean cycles per load of every SM and the two groups (threshold halfway between the extremes); the JSON
// has the run's identification (bench_common.hpp) and the per-SM figures.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <string>
#include <vector>

#include "benchmarks/gpu/bench_common.hpp"


namespace {

// Every block waits until all have started: with one block per SM (most of the shared memory each) they are then
// spread one per SM, and none leaves its SM free for another before the others have been placed.
__device__ void all_started(unsigned* arrived) {
  if (threadIdx.x == 0) {
    atomicAdd(arrived, 1u);
    while (atomicAdd(arrived, 0u) < gridDim.x) {
    }
  }
  __syncthreads();
}

__device__ unsigned smid() {
  unsigned s;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  return s;
}

// The block on SM `target` (one block per SM: the launch asks for most of the shared memory) runs the phase:
// mode 0 touches every line of the chain, mode 1 walks it as a dependent chain and writes the mean cycles per load.
__global__ void probe_kernel(const unsigned* __restrict__ chain, int lines, unsigned target, int mode,
                             double* cycles_out, unsigned* found, unsigned* arrived) {
  extern __shared__ unsigned char pad[];
  all_started(arrived);
  if (smid() != target || threadIdx.x != 0) return;
  pad[0] = 0;
  atomicAdd(found, 1u);
  if (mode == 0) {
    unsigned acc = 0;
    for (int l = 0; l < lines; ++l) acc += __ldcg(chain + l * 32);
    if (acc == 0xffffffffu) cycles_out[target] = -1;  // keeps the loads
    return;
  }
  unsigned p = 0;
  const long long t0 = clock64();
  for (int l = 0; l < lines; ++l) p = __ldcg(chain + p * 32);
  const long long t1 = clock64();
  cycles_out[target] = static_cast<double>(t1 - t0) / lines + (p == 0xffffffffu ? 1 : 0);
}

// Records the SM of every block (the %smid values need not be 0 .. SMs - 1).
__global__ void census_kernel(unsigned* ids, unsigned* arrived) {
  extern __shared__ unsigned char pad[];
  all_started(arrived);
  if (threadIdx.x == 0) {
    pad[0] = 0;
    ids[blockIdx.x] = smid();
  }
}

__global__ void evict_kernel(float4* buf, long n) {
  for (long i = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x; i < n; i += static_cast<long>(gridDim.x) * blockDim.x)
    buf[i] = make_float4(1, 2, 3, 4);
}

int run(unsigned ref, const std::string& out, const std::string& git_rev, const std::string& command) {
  int dev = 0, sms = 0, smem = 0;
  if (cudaGetDeviceCount(&dev) != cudaSuccess || dev == 0) {
    std::printf("SKIPPED: no CUDA device\n");
    return 0;
  }
  PERKSOLVE_BENCH_CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  PERKSOLVE_BENCH_CK(cudaDeviceGetAttribute(&smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
  cudaDeviceProp prop{};
  PERKSOLVE_BENCH_CK(cudaGetDeviceProperties(&prop, 0));
  const int block_smem = smem - 1024;
  PERKSOLVE_BENCH_CK(cudaFuncSetAttribute(probe_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, block_smem));

  // A random cyclic chain over `lines` 128-byte lines (the value at line l is the next line).
  const int lines = 2048;  // 256 KB
  std::vector<unsigned> host(static_cast<std::size_t>(lines) * 32, 0);
  std::vector<int> order(lines);
  for (int l = 0; l < lines; ++l) order[l] = l;
  unsigned seed = 12345;
  for (int l = lines - 1; l > 0; --l) {
    seed = seed * 1103515245u + 12345u;
    std::swap(order[l], order[1 + (seed >> 8) % l]);
  }
  for (int l = 0; l < lines; ++l) host[static_cast<std::size_t>(order[l]) * 32] = order[(l + 1) % lines];
  unsigned* chain = nullptr;
  PERKSOLVE_BENCH_CK(cudaMalloc(&chain, host.size() * sizeof(unsigned)));
  PERKSOLVE_BENCH_CK(cudaMemcpy(chain, host.data(), host.size() * sizeof(unsigned), cudaMemcpyHostToDevice));
  const long evict_n = (192L << 20) / 16;
  float4* evict = nullptr;
  PERKSOLVE_BENCH_CK(cudaMalloc(&evict, evict_n * sizeof(float4)));
  unsigned* ids_dev = nullptr;
  unsigned* arrived = nullptr;  // [0] census, [1] touch, [2] walk
  PERKSOLVE_BENCH_CK(cudaMalloc(&ids_dev, sms * sizeof(unsigned)));
  PERKSOLVE_BENCH_CK(cudaMalloc(&arrived, 3 * sizeof(unsigned)));
  PERKSOLVE_BENCH_CK(cudaMemset(arrived, 0, 3 * sizeof(unsigned)));
  PERKSOLVE_BENCH_CK(cudaFuncSetAttribute(census_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, block_smem));
  census_kernel<<<sms, 32, block_smem>>>(ids_dev, arrived);
  PERKSOLVE_BENCH_CK(cudaGetLastError());
  std::vector<unsigned> ids(sms);
  PERKSOLVE_BENCH_CK(cudaMemcpy(ids.data(), ids_dev, sms * sizeof(unsigned), cudaMemcpyDeviceToHost));
  std::sort(ids.begin(), ids.end());
  if (std::adjacent_find(ids.begin(), ids.end()) != ids.end()) {
    std::fprintf(stderr, "two blocks shared an SM: the launch is not one block per SM\n");
    return 1;
  }
  if (std::find(ids.begin(), ids.end(), ref) == ids.end()) ref = ids[0];
  const unsigned max_id = ids.back() + 1;
  double* cycles = nullptr;
  unsigned* found = nullptr;
  PERKSOLVE_BENCH_CK(cudaMalloc(&cycles, max_id * sizeof(double)));
  PERKSOLVE_BENCH_CK(cudaMalloc(&found, sizeof(unsigned)));

  std::vector<double> mean(sms, 0.0);
  const int reps = 3;
  for (int rep = 0; rep < reps; ++rep)
    for (int q = 0; q < sms; ++q) {
      const unsigned k = ids[q];
      evict_kernel<<<4 * sms, 512>>>(evict, evict_n);
      PERKSOLVE_BENCH_CK(cudaMemset(found, 0, sizeof(unsigned)));
      PERKSOLVE_BENCH_CK(cudaMemset(arrived + 1, 0, 2 * sizeof(unsigned)));
      probe_kernel<<<sms, 32, block_smem>>>(chain, lines, ref, 0, cycles, found, arrived + 1);
      probe_kernel<<<sms, 32, block_smem>>>(chain, lines, k, 1, cycles, found, arrived + 2);
      PERKSOLVE_BENCH_CK(cudaGetLastError());
      unsigned f = 0;
      double c = 0;
      PERKSOLVE_BENCH_CK(cudaMemcpy(&f, found, sizeof f, cudaMemcpyDeviceToHost));
      PERKSOLVE_BENCH_CK(cudaMemcpy(&c, cycles + k, sizeof c, cudaMemcpyDeviceToHost));
      if (f != 2) {
        std::fprintf(stderr, "SM %u or the reference SM %u had no block (found %u)\n", k, ref, f);
        return 1;
      }
      mean[q] += c / reps;
    }
  const double lo = *std::min_element(mean.begin(), mean.end()), hi = *std::max_element(mean.begin(), mean.end());
  const double cut = 0.5 * (lo + hi);
  std::printf("device: %s, %d SMs, reference SM %u, %d lines, %d repetitions\n", prop.name, sms, ref, lines, reps);
  std::printf("%4s %10s %6s\n", "sm", "cycles", "group");
  std::vector<int> group(sms);
  for (int q = 0; q < sms; ++q) {
    group[q] = mean[q] < cut ? 0 : 1;
    std::printf("%4u %10.1f %6d\n", ids[q], mean[q], group[q]);
  }
  for (int g = 0; g < 2; ++g) {
    int count = 0;
    std::printf("group %d (%s the reference SM's partition):", g, g == 0 ? "beside" : "across");
    for (int q = 0; q < sms; ++q)
      if (group[q] == g) std::printf(" %u", ids[q]), ++count;
    std::printf("  (%d SMs)\n", count);
  }
  std::printf("min %.1f max %.1f cycles per load\n", lo, hi);
  if (!out.empty()) {
    std::ofstream f(out);
    if (!f) {
      std::fprintf(stderr, "l2_partition_probe: cannot write %s\n", out.c_str());
      return 1;
    }
    perksolve::bench::json_run_header(f, "l2_partition_probe", prop.name, git_rev, command);
    f << ",\n  \"reference_sm\": " << ref << ",\n  \"sm\": [";
    for (int q = 0; q < sms; ++q) f << (q ? ", " : "") << ids[q];
    f << "],\n  \"cycles_per_load\": [";
    for (int q = 0; q < sms; ++q) f << (q ? ", " : "") << mean[q];
    f << "],\n  \"group\": [";
    for (int q = 0; q < sms; ++q) f << (q ? ", " : "") << group[q];
    f << "]\n}\n";
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  unsigned ref = 0;
  std::string out, git_rev = "unknown";
  for (int a = 1; a < argc; ++a) {
    const std::string s = argv[a];
    if (s == "--ref" && a + 1 < argc) ref = static_cast<unsigned>(std::atoi(argv[++a]));
    else if (s == "--out" && a + 1 < argc) out = argv[++a];
    else if (s == "--git-revision" && a + 1 < argc) git_rev = argv[++a];
    else {
      std::fprintf(stderr, "usage: l2_partition_probe [--ref SM] [--out FILE.json] [--git-revision REV]\n");
      return 2;
    }
  }
  try {
    return run(ref, out, git_rev, perksolve::bench::command_line(argc, argv));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "l2_partition_probe: %s\n", e.what());
    return 1;
  }
}
