// Which persistent (PERKS) stencil kernel runs a persistent sweep loop (Backend::persistent_sweeps).
#pragma once

#include <optional>
#include <string_view>

namespace perksolve {

// resident: the whole domain stays on chip, one brick per block (only where it fits);
// pipelined: the per-sweep streaming kernel's pipeline in the sweep loop, nothing cached (large domains);
// streaming: a 512-thread streaming tile whose first planes per block are cached in shared memory;
// automatic: resident where it fits, else pipelined. docs/perf/perks.md compares them.
enum class PerksKernel { automatic, resident, pipelined, streaming };

inline const char* perks_kernel_name(PerksKernel k) {
  switch (k) {
    case PerksKernel::resident: return "resident";
    case PerksKernel::pipelined: return "pipelined";
    case PerksKernel::streaming: return "streaming";
    case PerksKernel::automatic: break;
  }
  return "auto";
}
inline std::optional<PerksKernel> parse_perks_kernel(std::string_view s) {
  for (PerksKernel k : {PerksKernel::automatic, PerksKernel::resident, PerksKernel::pipelined, PerksKernel::streaming})
    if (s == perks_kernel_name(k)) return k;
  return std::nullopt;
}

}  // namespace perksolve
