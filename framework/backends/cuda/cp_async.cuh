// Asynchronous global -> shared copies (cp.async, sm_80+): the copy is issued without holding the value in a
// register, so a thread can have many of them in flight; it completes at cp_async_wait (the issuing thread's
// copies only: other threads see them after a block barrier).
#pragma once

#include <cuda_runtime.h>

namespace perksolve::cuda_detail {

// cp.async of one element (SIZE = 4, 8 or 16 bytes) into shared memory; when !pred nothing is read and zeros are
// stored.
template <int SIZE>
__device__ __forceinline__ void cp_async_elem(void* smem, const void* gmem, bool pred) {
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  const int src_size = pred ? SIZE : 0;
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(s), "l"(gmem), "n"(SIZE), "r"(src_size)
               : "memory");
}
// 16-byte cp.async (CA: through L1, else L1 bypassed) of the first src_size bytes (0..16); the rest of the 16 bytes
// are stored as zeros (cp_async16: all or, when !pred, nothing read and zeros stored).
template <bool CA>
__device__ __forceinline__ void cp_async16_part(void* smem, const void* gmem, int src_size) {
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  if constexpr (CA)
    asm volatile("cp.async.ca.shared.global [%0], [%1], 16, %2;\n" ::"r"(s), "l"(gmem), "r"(src_size) : "memory");
  else
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(s), "l"(gmem), "r"(src_size) : "memory");
}
template <bool CA>
__device__ __forceinline__ void cp_async16(void* smem, const void* gmem, bool pred) {
  cp_async16_part<CA>(smem, gmem, pred ? 16 : 0);
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
// Waits until at most N of this thread's committed groups are still in flight.
template <int N>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

}  // namespace perksolve::cuda_detail
