// Which L2 partition each SM sits beside (H100 / H200: two L2 partitions joined by a fabric; docs/perf/
// two-load-stencils.md, eleventh round): cuda_detail::probe_l2_partitions (framework/backends/cuda/l2_partitions.hpp)
// with three repetitions, printed per SM.
//
//   l2_partition_probe [--ref 0] [--out probe.json]
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "framework/backends/cuda/l2_partitions.hpp"

int main(int argc, char** argv) {
  unsigned ref = 0;
  std::string out;
  for (int a = 1; a < argc; ++a) {
    const std::string s = argv[a];
    if (s == "--ref" && a + 1 < argc) ref = static_cast<unsigned>(std::atoi(argv[++a]));
    else if (s == "--out" && a + 1 < argc) out = argv[++a];
    else {
      std::fprintf(stderr, "usage: l2_partition_probe [--ref SM] [--out FILE.json]\n");
      return 2;
    }
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIPPED: no CUDA device\n");
    return 0;
  }
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) return 1;
  const perksolve::cuda_detail::L2Partitions p = perksolve::cuda_detail::probe_l2_partitions(ref, 3);
  if (p.sm.empty()) {
    std::fprintf(stderr, "l2_partition_probe: the probe's launches failed\n");
    return 1;
  }
  std::printf("device: %s, %zu SMs, %s\n", prop.name, p.sm.size(), p.valid ? "two groups" : "no clear groups");
  std::printf("%4s %10s %6s\n", "sm", "cycles", "group");
  for (std::size_t q = 0; q < p.sm.size(); ++q) std::printf("%4u %10.1f %6d\n", p.sm[q], p.cycles[q], p.group[q]);
  for (int g = 0; g < 2; ++g) {
    std::printf("group %d (%s the reference SM's partition):", g, g == 0 ? "beside" : "across");
    for (std::size_t q = 0; q < p.sm.size(); ++q)
      if (p.group[q] == g) std::printf(" %u", p.sm[q]);
    std::printf("  (%d SMs)\n", p.count[g]);
  }
  if (!out.empty()) {
    if (std::FILE* f = std::fopen(out.c_str(), "w")) {
      std::fprintf(f, "{\"device\": \"%s\", \"valid\": %s, \"sm\": [", prop.name, p.valid ? "true" : "false");
      for (std::size_t q = 0; q < p.sm.size(); ++q) std::fprintf(f, "%s%u", q ? ", " : "", p.sm[q]);
      std::fprintf(f, "], \"cycles_per_load\": [");
      for (std::size_t q = 0; q < p.sm.size(); ++q) std::fprintf(f, "%s%.2f", q ? ", " : "", p.cycles[q]);
      std::fprintf(f, "], \"group\": [");
      for (std::size_t q = 0; q < p.sm.size(); ++q) std::fprintf(f, "%s%d", q ? ", " : "", p.group[q]);
      std::fprintf(f, "]}\n");
      std::fclose(f);
    }
  }
  return 0;
}
