// Which persistent (PERKS) stencil kernel runs a persistent sweep loop (Backend::persistent_sweeps).
#pragma once

namespace perksolve {

// resident: the whole domain stays on chip, one brick per block (only where it fits; docs/perf/perks.md);
// streaming: the planes that fit are cached and the rest streamed; automatic: resident where it fits.
enum class PerksKernel { automatic, resident, streaming };

}  // namespace perksolve
