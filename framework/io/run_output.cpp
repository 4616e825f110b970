#include "framework/io/run_output.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <limits>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include "framework/io/blocks.hpp"
#include "framework/io/checkpoint.hpp"
#include "framework/io/field_output.hpp"
#include "framework/io/history.hpp"
#include "framework/io/io_options.hpp"
#include "framework/io/signals.hpp"
#include "framework/util/build_info.hpp"
#include "framework/util/log.hpp"

namespace perksolve::io {

namespace fs = std::filesystem;

namespace {

// Test hooks (fault injection for the restart tests), read once:
//   PERKSOLVE_TEST_KILL_AT=N      every rank SIGKILLs itself after iteration N (a crash between checkpoints)
//   PERKSOLVE_TEST_SIGNAL_AT=N[:USR1|:TERM]  the last rank raises SIGTERM (SIGUSR1) after iteration N
// -1 where unset; any other value than these is an error naming the variable (framework/util/env.hpp's rule).
long env_test_hook(const char* name, int* sig = nullptr) {
  const char* v = std::getenv(name);
  if (v == nullptr) return -1;
  const std::string s(v);
  const std::size_t colon = s.find(':');
  const std::string number = s.substr(0, colon);
  const std::string kind = colon == std::string::npos ? std::string() : s.substr(colon + 1);
  char* end = nullptr;
  const long n = std::strtol(number.c_str(), &end, 10);
  const bool kind_ok = sig != nullptr ? colon == std::string::npos || kind == "USR1" || kind == "TERM"
                                      : colon == std::string::npos;
  if (number.empty() || *end != '\0' || n < 0 || !kind_ok)
    throw std::invalid_argument(std::string(name) + "='" + s + "': expected " +
                                (sig != nullptr ? "N, N:USR1 or N:TERM (an iteration N >= 0)" : "an iteration N >= 0"));
  if (sig != nullptr) *sig = kind == "USR1" ? SIGUSR1 : SIGTERM;
  return n;
}

template <class Real>
class RunOutputImpl final : public RunOutput<Real> {
 public:
  explicit RunOutputImpl(const OutputContext<Real>& c) : c_(c) {
    const config::Deck& deck = c.deck;
    opt_ = io_options_from_deck(deck);
    quiet_ = deck.has("monitor.quiet") && deck.get_bool("monitor.quiet");
    comm_ = c.decomp.comm();
    rank_ = c.decomp.rank();
    size_ = c.decomp.size();
    for (const auto& f : opt_.output.fields) {
      if (f == "error" && !c.setup.exact)
        throw deck.error_at("output.fields", "'error' needs an exact solution, which problem '" + c.problem_name +
                                                 "' does not have");
      if (f == "residual" && !c.linear_system)
        throw deck.error_at("output.fields", "'residual' is defined for linear solves only, not for solver '" +
                                                 c.solver_name + "' (fixed-step time stepping)");
    }
    const bool h5_needed = opt_.output.fields_enabled() || opt_.checkpoint.active() || !c.restart_file.empty();
    if (h5_needed) {
      try {
        mode_ = resolve_h5_mode(opt_.output.hdf5_mode);
      } catch (const std::invalid_argument& e) {
        throw deck.error_at("output.hdf5_mode", e.what());
      }
    }
    meta_.deck = deck.to_toml();
    meta_.solver = c.solver_name;
    meta_.problem = c.problem_name;
    meta_.linear_system = c.linear_system;

    if (!c.restart_file.empty()) {
      Stopwatch sw;
      data_ = std::make_unique<CheckpointData<Real>>(read_checkpoint<Real>(c.restart_file, mode_, c.decomp));
      c_.timers.add("checkpoint_read", sw.seconds(), 0.0, data_->bytes);
    }
    if (opt_.output.fields_enabled())
      writer_ = std::make_unique<FieldWriter<Real>>(opt_.output, mode_, c.decomp, c.backend, c.halo, c.setup.op,
                                                    c.setup, c.b, meta_, c.A);
    if (opt_.output.history) {
      agree(comm_, [&] {
        if (rank_ != 0) return;
        std::error_code ec;
        fs::create_directories(opt_.output.directory, ec);
        if (ec) throw IoError("cannot create output directory " + opt_.output.directory + ": " + ec.message());
        history_ = std::make_unique<HistoryCsv>(
            (fs::path(opt_.output.directory) / (opt_.output.prefix + "_history.csv")).string(),
            data_ ? data_->iteration : -1);
      });
    }
    if (opt_.checkpoint.active()) signals_ = std::make_unique<SignalGuard>();
    kill_at_ = env_test_hook("PERKSOLVE_TEST_KILL_AT");
    signal_at_ = env_test_hook("PERKSOLVE_TEST_SIGNAL_AT", &test_signal_);
    per_iteration_ = opt_.output.every > 0 || opt_.output.history || opt_.checkpoint.active() || data_ != nullptr ||
                     kill_at_ >= 0;
  }

  ~RunOutputImpl() override = default;

  IterationObserver<Real>* observer() override { return per_iteration_ ? this : nullptr; }

  bool restore(SolverState<Real>& state) override {
    restore_called_ = true;
    if (!data_) {
      if (writer_ && opt_.output.every > 0) write_fields(state.iteration);
      return false;
    }
    // Fields by name, scalars by name: the checkpoint must hold exactly what this solver needs.
    std::string missing;
    for (const auto& [name, field] : state.fields) {
      auto it = std::find_if(data_->fields.begin(), data_->fields.end(), [&](const auto& p) { return p.first == name; });
      if (it == data_->fields.end()) {
        missing += " field '" + name + "'";
        continue;
      }
      const FieldLayout& l = field->layout();
      std::vector<Real> host(l.size(), Real(0));
      unpack_owned(l, it->second, host);
      c_.backend.upload(*field, host);
    }
    for (auto& [name, value] : state.scalars) {
      auto it =
          std::find_if(data_->scalars.begin(), data_->scalars.end(), [&](const auto& p) { return p.first == name; });
      if (it == data_->scalars.end()) missing += " scalar '" + name + "'";
      else value = it->second;
    }
    if (!missing.empty())
      throw IoError(fmt::format("cannot restart from checkpoint '{}': it lacks the{} that solver '{}' needs (was it "
                                "written by another solver or version?)",
                                data_->path, missing, c_.solver_name));
    state.iteration = data_->iteration;
    restart_iteration_ = data_->iteration;
    if (!quiet_)
      log::info(fmt::format("restarted from checkpoint {} at iteration {}", data_->path, data_->iteration));
    data_.reset();
    restored_ = true;
    return true;
  }

  bool after_iteration(const SolverState<Real>& state, const IterationState& progress) override {
    const long it = state.iteration;
    last_iteration_ = it;
    if (kill_at_ == it) ::kill(::getpid(), SIGKILL);
    if (signal_at_ == it && rank_ == size_ - 1) std::raise(test_signal_);
    if (history_) history_->row(it, progress.residual, progress.initial_residual, progress.elapsed_s, c_.timers);

    int stop[2] = {0, 0};  // the signal caught (by any rank), the wall-time limit reached (rank 0's clock)
    if (opt_.checkpoint.active()) {
      stop[0] = pending_signal();
      if (opt_.checkpoint.walltime_s > 0 && rank_ == 0 && wall_.seconds() >= opt_.checkpoint.walltime_s) stop[1] = 1;
      if (size_ > 1) MPI_Allreduce(MPI_IN_PLACE, stop, 2, MPI_INT, MPI_MAX, comm_);  // every rank agrees
    }
    if (writer_ && opt_.output.every > 0 && it % opt_.output.every == 0) write_fields(it);
    const bool must_stop = stop[0] != 0 || stop[1] != 0;
    if ((opt_.checkpoint.every > 0 && it % opt_.checkpoint.every == 0) || must_stop) {
      const std::string path = write_checkpoint_now(state);
      if (must_stop) {
        const std::string why = stop[0] ? std::string(signal_name(stop[0])) + " received"
                                        : fmt::format("wall-time limit checkpoint.walltime_s = {} s reached",
                                                      opt_.checkpoint.walltime_s);
        log::info(fmt::format("{}: checkpoint {} written at iteration {}; stopping (restart with --restart {})", why,
                              path, it, path));
        clear_pending_signal();
        interrupted_ = true;
        return true;
      }
    }
    return false;
  }

  long next_wanted_iteration(long it) const override {
    if (history_ || kill_at_ >= 0 || signal_at_ >= 0) return it + 1;  // a history row per iteration; test hooks
    long next = std::numeric_limits<long>::max();
    for (const long every : {opt_.output.every, opt_.checkpoint.every})
      if (every > 0) next = std::min(next, (it / every + 1) * every);
    return next;  // signals and the wall-time limit are polled whenever after_iteration runs
  }

  void finish(const SolveResult& result, const std::optional<ErrorNorms>& error) override {
    if (!c_.restart_file.empty() && !restored_)
      throw IoError("solver '" + c_.solver_name +
                    "' does not support restart (it never called IterationObserver::restore); the run above started "
                    "from scratch");
    if (writer_ && opt_.output.at_end && writer_->last_iteration() != result.iterations)
      write_fields(result.iterations);
    if (history_) history_->flush();
    signals_.reset();
    const std::vector<TimerSummary> timers = reduce_timers(c_.timers, comm_);
    if (opt_.output.history && rank_ == 0) write_summary(result, error, timers);
    if (!quiet_ && (files_ > 0 || checkpoints_ > 0)) {
      std::string s;
      if (files_ > 0)
        s += fmt::format("output: {} field file(s) in {}/ ({}, {})", files_, opt_.output.directory, to_string(mode_),
                         hdf5_description());
      if (checkpoints_ > 0)
        s += fmt::format("{}checkpoints: {} written in {}/, last {}", s.empty() ? "" : "\n", checkpoints_,
                         opt_.checkpoint.directory, last_checkpoint_);
      log::info(s);
    }
  }

 private:
  void write_fields(long iteration) {
    Stopwatch sw;
    const double bytes = writer_->write(iteration, c_.x);
    c_.timers.add("output", sw.seconds(), 0.0, bytes);
    ++files_;
  }

  std::string write_checkpoint_now(const SolverState<Real>& state) {
    Stopwatch sw;
    std::string path;
    CheckpointMeta meta{meta_.deck, meta_.solver, meta_.problem};
    const double bytes = write_checkpoint<Real>(opt_.checkpoint.directory, opt_.checkpoint.prefix, opt_.checkpoint.keep,
                                                mode_, c_.decomp, c_.backend, state, meta, &path);
    c_.timers.add("checkpoint", sw.seconds(), 0.0, bytes);
    ++checkpoints_;
    last_checkpoint_ = path;
    if (history_) history_->flush();
    return path;
  }

  void write_summary(const SolveResult& r, const std::optional<ErrorNorms>& error,
                     const std::vector<TimerSummary>& timers) {
    const auto& d = c_.decomp.dims();
    std::string j = "{\n";
    auto field = [&](const std::string& k, const std::string& v, bool last = false) {
      j += "  " + json_string(k) + ": " + v + (last ? "\n" : ",\n");
    };
    field("perksolve", json_string(build_info()));
    field("git_revision", json_string(git_revision()));
    field("deck_file", json_string(c_.deck.file()));
    field("problem", json_string(c_.problem_name));
    field("solver", json_string(c_.solver_name));
    field("precision", json_string(sizeof(Real) == 8 ? "double" : "float"));
    field("ranks", std::to_string(size_));
    field("rank_grid", fmt::format("[{}, {}, {}]", d[0], d[1], d[2]));
    field("unknowns", std::to_string(c_.decomp.grid().total_unknowns()));
    field("iterations", std::to_string(r.iterations));
    field("converged", r.converged() ? "true" : "false");
    field("reason", json_string(to_string(r.reason)));
    field("interrupted", interrupted_ ? "true" : "false");
    field("initial_residual", json_number(r.initial_residual));
    field("final_residual", json_number(r.final_residual));
    field("solve_seconds", json_number(r.seconds));
    field("wall_seconds", json_number(wall_.seconds()));
    field("restarted_from", c_.restart_file.empty() ? "null" : json_string(c_.restart_file));
    field("restart_iteration", restart_iteration_ >= 0 ? std::to_string(restart_iteration_) : "null");
    if (error)
      field("error", fmt::format("{{\"max_abs\": {}, \"rms\": {}, \"max_exact\": {}}}", json_number(error->max_abs),
                                 json_number(error->rms), json_number(error->max_exact)));
    else
      field("error", "null");
    std::string t = "[";
    for (size_t i = 0; i < timers.size(); ++i) {
      const auto& e = timers[i];
      t += fmt::format(
          "{}\n    {{\"name\": {}, \"calls\": {}, \"seconds\": {}, \"cells\": {}, \"bytes\": {}, \"gb_per_s\": {}}}",
          i ? "," : "", json_string(e.name), e.calls, json_number(e.seconds), json_number(e.cells),
          json_number(e.bytes), e.seconds > 0 && e.bytes > 0 ? json_number(e.bytes / e.seconds * 1e-9) : "null");
    }
    t += timers.empty() ? "]" : "\n  ]";
    field("timers", t);
    field("history_csv", history_ ? json_string(history_->path()) : "null");
    field("last_checkpoint", last_checkpoint_.empty() ? "null" : json_string(last_checkpoint_));
    field("deck", json_string(meta_.deck), true);
    j += "}\n";
    const std::string path = (fs::path(opt_.output.directory) / (opt_.output.prefix + "_summary.json")).string();
    std::ofstream out(path, std::ios::trunc);
    out << j;
    if (!out) log::error("cannot write " + path);
  }

  OutputContext<Real> c_;
  IoOptions opt_;
  H5Mode mode_ = H5Mode::gather;
  RunMeta meta_;
  bool quiet_ = false;
  MPI_Comm comm_;
  int rank_ = 0, size_ = 1;
  std::unique_ptr<CheckpointData<Real>> data_;
  std::unique_ptr<FieldWriter<Real>> writer_;
  std::unique_ptr<HistoryCsv> history_;
  std::unique_ptr<SignalGuard> signals_;
  Stopwatch wall_;
  bool per_iteration_ = false, restore_called_ = false, restored_ = false, interrupted_ = false;
  long kill_at_ = -1, signal_at_ = -1, last_iteration_ = 0, restart_iteration_ = -1;
  int test_signal_ = SIGTERM;
  long files_ = 0, checkpoints_ = 0;
  std::string last_checkpoint_;
};

}  // namespace

template <class Real>
std::unique_ptr<RunOutput<Real>> create_run_output(const OutputContext<Real>& ctx) {
  return std::make_unique<RunOutputImpl<Real>>(ctx);
}

template std::unique_ptr<RunOutput<float>> create_run_output<float>(const OutputContext<float>&);
template std::unique_ptr<RunOutput<double>> create_run_output<double>(const OutputContext<double>&);

}  // namespace perksolve::io
