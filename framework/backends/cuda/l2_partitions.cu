// probe_l2_partitions (l2_partitions.hpp).
#include <cuda_runtime.h>

#include <algorithm>
#include <numeric>

#include "framework/backends/cuda/l2_partitions.hpp"

namespace perksolve::cuda_detail {

namespace {

__device__ unsigned sm_id() {
  unsigned s;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  return s;
}

// Every block waits until all have started: with one block per SM (most of the shared memory each) they are then
// spread one per SM, and none frees its SM for another block before all are placed.
__device__ void all_started(unsigned* arrived) {
  if (threadIdx.x == 0) {
    atomicAdd(arrived, 1u);
    while (atomicAdd(arrived, 0u) < gridDim.x) {
    }
  }
  __syncthreads();
}

__global__ void census_kernel(unsigned* ids, unsigned* arrived) {
  extern __shared__ unsigned char pad[];
  all_started(arrived);
  if (threadIdx.x == 0) {
    pad[0] = 0;
    ids[blockIdx.x] = sm_id();
  }
}

// The block on SM `target`: mode 0 reads every line of the chain; mode 1 walks it as a dependent chain and writes the
// mean cycles per load to cycles[target]. found counts the blocks that were on their target.
__global__ void chain_kernel(const unsigned* __restrict__ chain, int lines, unsigned target, int mode, double* cycles,
                             unsigned* found, unsigned* arrived) {
  extern __shared__ unsigned char pad[];
  all_started(arrived);
  if (sm_id() != target || threadIdx.x != 0) return;
  pad[0] = 0;
  atomicAdd(found, 1u);
  if (mode == 0) {
    unsigned acc = 0;
    for (int l = 0; l < lines; ++l) acc += __ldcg(chain + l * 32);
    if (acc == 0xffffffffu) cycles[target] = -1;  // keeps the loads
    return;
  }
  unsigned p = 0;
  const long long t0 = clock64();
  for (int l = 0; l < lines; ++l) p = __ldcg(chain + p * 32);
  const long long t1 = clock64();
  cycles[target] = static_cast<double>(t1 - t0) / lines + (p == 0xffffffffu ? 1 : 0);
}

__global__ void evict_kernel(float4* buf, long n) {
  for (long i = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long>(gridDim.x) * blockDim.x)
    buf[i] = make_float4(1, 2, 3, 4);
}

struct DeviceBuffers {
  unsigned* chain = nullptr;
  float4* evict = nullptr;
  double* cycles = nullptr;
  unsigned* ids = nullptr;
  unsigned* counters = nullptr;  // found, then arrived x 3
  ~DeviceBuffers() {
    cudaFree(chain);
    cudaFree(evict);
    cudaFree(cycles);
    cudaFree(ids);
    cudaFree(counters);
  }
};

}  // namespace

std::vector<unsigned char> L2Partitions::by_sm_id() const {
  std::vector<unsigned char> t(sm.empty() ? 0 : sm.back() + 1, 0);
  for (std::size_t q = 0; q < sm.size(); ++q) t[sm[q]] = group[q];
  return t;
}

L2Partitions probe_l2_partitions(unsigned ref_sm, int reps, int lines) {
  L2Partitions r;
  int dev = 0, sms = 0, smem = 0;
  if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess || sms < 2) {
    cudaGetLastError();
    return r;
  }
  const int block_smem = smem - 1024;  // one block per SM
  DeviceBuffers d;
  const long evict_n = (192L << 20) / 16;
  bool ok = cudaFuncSetAttribute(census_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, block_smem) == cudaSuccess &&
            cudaFuncSetAttribute(chain_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, block_smem) == cudaSuccess &&
            cudaMalloc(&d.chain, static_cast<std::size_t>(lines) * 128) == cudaSuccess &&
            cudaMalloc(&d.evict, evict_n * sizeof(float4)) == cudaSuccess &&
            cudaMalloc(&d.ids, sms * sizeof(unsigned)) == cudaSuccess &&
            cudaMalloc(&d.counters, 4 * sizeof(unsigned)) == cudaSuccess;
  // A random cyclic chain over the lines: the first word of line l holds the next line.
  std::vector<unsigned> host(static_cast<std::size_t>(lines) * 32, 0), order(lines);
  std::iota(order.begin(), order.end(), 0u);
  unsigned seed = 12345;
  for (int l = lines - 1; l > 1; --l) {
    seed = seed * 1103515245u + 12345u;
    std::swap(order[l], order[1 + (seed >> 8) % l]);
  }
  for (int l = 0; l < lines; ++l) host[static_cast<std::size_t>(order[l]) * 32] = order[(l + 1) % lines];
  ok = ok && cudaMemcpy(d.chain, host.data(), host.size() * sizeof(unsigned), cudaMemcpyHostToDevice) == cudaSuccess &&
       cudaMemset(d.counters, 0, 4 * sizeof(unsigned)) == cudaSuccess;
  if (ok) census_kernel<<<sms, 32, block_smem>>>(d.ids, d.counters + 1);
  std::vector<unsigned> ids(sms);
  ok = ok && cudaGetLastError() == cudaSuccess &&
       cudaMemcpy(ids.data(), d.ids, sms * sizeof(unsigned), cudaMemcpyDeviceToHost) == cudaSuccess;
  std::sort(ids.begin(), ids.end());
  ok = ok && std::adjacent_find(ids.begin(), ids.end()) == ids.end();
  if (ok && std::find(ids.begin(), ids.end(), ref_sm) == ids.end()) ref_sm = ids[0];
  ok = ok && cudaMalloc(&d.cycles, (ids.back() + 1) * sizeof(double)) == cudaSuccess;
  std::vector<double> mean(sms, 0.0);
  for (int rep = 0; ok && rep < reps; ++rep)
    for (int q = 0; ok && q < sms; ++q) {
      evict_kernel<<<4 * sms, 512>>>(d.evict, evict_n);
      ok = cudaMemset(d.counters, 0, 4 * sizeof(unsigned)) == cudaSuccess;
      chain_kernel<<<sms, 32, block_smem>>>(d.chain, lines, ref_sm, 0, d.cycles, d.counters, d.counters + 2);
      chain_kernel<<<sms, 32, block_smem>>>(d.chain, lines, ids[q], 1, d.cycles, d.counters, d.counters + 3);
      unsigned found = 0;
      double c = 0;
      ok = ok && cudaGetLastError() == cudaSuccess &&
           cudaMemcpy(&found, d.counters, sizeof found, cudaMemcpyDeviceToHost) == cudaSuccess &&
           cudaMemcpy(&c, d.cycles + ids[q], sizeof c, cudaMemcpyDeviceToHost) == cudaSuccess && found == 2;
      mean[q] += c / reps;
    }
  if (!ok) {
    cudaGetLastError();
    return r;
  }
  r.sm = ids;
  r.cycles = mean;
  const double lo = *std::min_element(mean.begin(), mean.end()), hi = *std::max_element(mean.begin(), mean.end());
  const double cut = 0.5 * (lo + hi);
  r.group.resize(sms);
  double top0 = lo, bottom1 = hi;
  for (int q = 0; q < sms; ++q) {
    r.group[q] = mean[q] < cut ? 0 : 1;
    ++r.count[r.group[q]];
    if (r.group[q] == 0) top0 = std::max(top0, mean[q]);
    else bottom1 = std::min(bottom1, mean[q]);
  }
  r.valid = r.count[0] > 0 && r.count[1] > 0 && bottom1 - top0 >= 0.25 * (hi - lo) && hi - lo > 20.0;
  return r;
}

}  // namespace perksolve::cuda_detail
