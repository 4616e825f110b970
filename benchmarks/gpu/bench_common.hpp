// Helpers shared by the GPU benchmark drivers: CUDA error checks, event timing (median of repetitions
// after warm-up), the run's identification (device, UTC date, git revision, command) and JSON escaping.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <ctime>
#include <functional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace perksolve::bench {

inline void check(cudaError_t e, const char* what, const char* file, int line) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string("CUDA error ") + what + " at " + file + ":" + std::to_string(line) + ": " +
                             cudaGetErrorString(e));
}
#define PERKSOLVE_BENCH_CK(x) ::perksolve::bench::check((x), #x, __FILE__, __LINE__)

inline double median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Seconds per call of `f` (which issues work into `stream`): median over `reps` timed calls, each between
// two events, after `warmup` untimed calls.
inline double time_per_call(cudaStream_t stream, int warmup, int reps, const std::function<void()>& f) {
  cudaEvent_t e0, e1;
  PERKSOLVE_BENCH_CK(cudaEventCreate(&e0));
  PERKSOLVE_BENCH_CK(cudaEventCreate(&e1));
  for (int i = 0; i < warmup; ++i) f();
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    PERKSOLVE_BENCH_CK(cudaEventRecord(e0, stream));
    f();
    PERKSOLVE_BENCH_CK(cudaEventRecord(e1, stream));
    PERKSOLVE_BENCH_CK(cudaEventSynchronize(e1));
    float ms = 0;
    PERKSOLVE_BENCH_CK(cudaEventElapsedTime(&ms, e0, e1));
    t.push_back(ms * 1e-3);
  }
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  return median(t);
}

inline std::string utc_now() {
  char buf[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return buf;
}

inline std::string json_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\';
    o += c;
  }
  return o;
}

// The command line as one string (recorded in the JSON).
inline std::string command_line(int argc, char** argv) {
  std::string command;
  for (int i = 0; i < argc; ++i) {
    if (i) command += ' ';
    command += argv[i];
  }
  return command;
}

// The run's identification fields, opening the JSON object: {"benchmark", "device", "date", "git_revision",
// "command", ... (the caller continues with its own fields, each preceded by ",\n").
inline void json_run_header(std::ostream& f, const std::string& benchmark, const std::string& device,
                            const std::string& git_rev, const std::string& command) {
  f << "{\n  \"benchmark\": \"" << json_escape(benchmark) << "\",\n  \"device\": \"" << json_escape(device)
    << "\",\n  \"date\": \"" << utc_now() << "\",\n  \"git_revision\": \"" << json_escape(git_rev)
    << "\",\n  \"command\": \"" << json_escape(command) << "\"";
}

}  // namespace perksolve::bench
