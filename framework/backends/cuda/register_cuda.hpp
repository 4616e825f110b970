// Registers the native CUDA backend under the name "cuda" (call once, e.g. from the app when the
// build has PERKSOLVE_ENABLE_CUDA). Creating it on a machine without a usable CUDA device throws
// BackendUnavailable("backend 'cuda': no CUDA device found (...)").
#pragma once

namespace perksolve {

void register_cuda_backend();

}  // namespace perksolve
