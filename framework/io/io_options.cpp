#include "framework/io/io_options.hpp"

#include "framework/config/schema.hpp"
#include "framework/io/h5file.hpp"

namespace perksolve::io {

namespace {

config::TableSchema output_table() {
  using namespace config;
  TableSchema t;
  t.path = "output";
  t.help = "Field output (HDF5 + XDMF for ParaView/VisIt), residual history and run summary.";
  t.keys = {
      key_string("directory", std::string("output"), {}, "Directory of the output files (created if needed)."),
      key_string("prefix", std::string("perksolve"), {},
                 "File name prefix: PREFIX_NNNNNN.h5/.xmf per step, PREFIX.xmf (time series), "
                 "PREFIX_history.csv, PREFIX_summary.json."),
      with_range(key_int("every", 0, "Write the fields every N iterations (0 = never); iteration 0 is written too."),
                 0, std::nullopt),
      key_bool("at_end", false, "Write the fields of the final state."),
      with_length(key_string_array("fields", std::vector<std::string>{"solution"},
                                   "Fields to write: solution, rhs (right-hand side), residual (b - A x), "
                                   "error (against the exact solution, when the problem has one)."),
                  1, 4),
      key_string("precision", std::string("double"), {"double", "float"}, "Floating-point type on disk."),
      key_bool("history", false,
               "Write the residual and timer history per iteration (PREFIX_history.csv) and a JSON run summary "
               "(PREFIX_summary.json)."),
      key_string("hdf5_mode", std::string("auto"), {"auto", "collective", "gather"},
                 "auto: collective MPI-IO hyperslab writes where parallel HDF5 is compiled, else gather to "
                 "rank 0 (serial HDF5); also used for checkpoints."),
  };
  t.keys[4].allowed = {"solution", "rhs", "residual", "error"};
  return t;
}

config::TableSchema checkpoint_table() {
  using namespace config;
  TableSchema t;
  t.path = "checkpoint";
  t.help =
      "Checkpoints for --restart: the solver's full state in global layout (restart on any rank count), written "
      "atomically. When active, SIGTERM/SIGUSR1 write a checkpoint at the next iteration and stop (exit 2).";
  t.keys = {
      key_bool("enabled", false,
               "Write a checkpoint on SIGTERM/SIGUSR1 (implied by every > 0 or walltime_s > 0)."),
      with_range(key_int("every", 0, "Write a checkpoint every N iterations (0 = only on signal / wall time)."), 0,
                 std::nullopt),
      with_range(key_int("keep", 2, "Keep the newest K checkpoint files; older ones are removed."), 1, std::nullopt),
      with_unit(with_range(key_real("walltime_s", 0.0,
                                    "Write a checkpoint and stop once the run has lasted this long (0 = no limit)."),
                           0, std::nullopt),
                "s"),
      key_string("directory", std::string("checkpoints"), {}, "Directory of the checkpoint files."),
      key_string("prefix", std::string("checkpoint"), {}, "File name prefix: PREFIX_NNNNNNNN.h5."),
  };
  return t;
}

template <class T, class Get>
void maybe(const config::Deck& d, const std::string& key, T& out, Get get) {
  if (d.has(key)) out = get(key);
}

}  // namespace

void register_io_schema() {
  auto& r = config::SchemaRegistry::instance();
  r.add_table(output_table());
  r.add_table(checkpoint_table());
}

IoOptions io_options_from_deck(const config::Deck& d) {
  IoOptions o;
  auto s = [&](const std::string& k) { return d.get_string(k); };
  auto i = [&](const std::string& k) { return d.get_int(k); };
  auto b = [&](const std::string& k) { return d.get_bool(k); };
  auto r = [&](const std::string& k) { return d.get_real(k); };
  maybe(d, "output.directory", o.output.directory, s);
  maybe(d, "output.prefix", o.output.prefix, s);
  maybe(d, "output.every", o.output.every, i);
  maybe(d, "output.at_end", o.output.at_end, b);
  maybe(d, "output.fields", o.output.fields, [&](const std::string& k) { return d.get_string_array(k); });
  maybe(d, "output.precision", o.output.precision, s);
  maybe(d, "output.history", o.output.history, b);
  maybe(d, "output.hdf5_mode", o.output.hdf5_mode, s);
  maybe(d, "checkpoint.enabled", o.checkpoint.enabled, b);
  maybe(d, "checkpoint.every", o.checkpoint.every, i);
  maybe(d, "checkpoint.keep", o.checkpoint.keep, i);
  maybe(d, "checkpoint.walltime_s", o.checkpoint.walltime_s, r);
  maybe(d, "checkpoint.directory", o.checkpoint.directory, s);
  maybe(d, "checkpoint.prefix", o.checkpoint.prefix, s);

  for (const char* k : {"output.directory", "output.prefix", "checkpoint.directory", "checkpoint.prefix"})
    if (d.has(k) && d.get_string(k).empty()) throw d.error_at(k, "must not be empty");
  for (const char* k : {"output.prefix", "checkpoint.prefix"})
    if (d.has(k) && d.get_string(k).find('/') != std::string::npos)
      throw d.error_at(k, "is a file name prefix; put directories in the matching 'directory' key");
  for (size_t a = 0; a < o.output.fields.size(); ++a)
    for (size_t c = 0; c < a; ++c)
      if (o.output.fields[a] == o.output.fields[c])
        throw d.error_at("output.fields", "lists '" + o.output.fields[a] + "' twice");

  if (!hdf5_compiled()) {
    const char* why = "needs HDF5, but this perksolve was built without it (install libhdf5-openmpi-dev, see "
                      "scripts/setup.sh, and reconfigure)";
    if (o.output.every > 0) throw d.error_at("output.every", why);
    if (o.output.at_end) throw d.error_at("output.at_end", why);
    if (o.checkpoint.every > 0) throw d.error_at("checkpoint.every", why);
    if (o.checkpoint.walltime_s > 0) throw d.error_at("checkpoint.walltime_s", why);
    if (o.checkpoint.enabled) throw d.error_at("checkpoint.enabled", why);
  }
  if (o.output.hdf5_mode == "collective" && !hdf5_parallel_compiled())
    throw d.error_at("output.hdf5_mode", "needs parallel HDF5 (libhdf5-openmpi-dev); this build has " +
                                             hdf5_description() + "; use \"auto\" or \"gather\"");
  return o;
}

bool restart_may_change(const std::string& k) {
  for (const char* prefix : {"output.", "checkpoint.", "monitor.", "solver.stop.", "decomposition."})
    if (k.rfind(prefix, 0) == 0) return true;
  // solver.steps is the stopping rule of fixed-step iteration; the backend does not change the problem.
  return k == "solver.steps" || k == "backend.type";
}

std::string restart_changeable_keys_help() {
  return "only output.*, checkpoint.*, monitor.*, solver.stop.*, solver.steps, decomposition.* and backend.type "
         "may differ on restart";
}

}  // namespace perksolve::io
