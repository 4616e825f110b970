#include "framework/io/checkpoint.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <regex>
#include <set>

#include "framework/config/value.hpp"
#include "framework/io/blocks.hpp"
#include "framework/io/io_options.hpp"
#include "framework/util/build_info.hpp"

namespace perksolve::io {

namespace fs = std::filesystem;

namespace {

constexpr const char* kFormat = "perksolve-checkpoint";
constexpr long kFormatVersion = 1;

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : "\n") + x;
  return s;
}
std::vector<std::string> split_lines(const std::string& s) {
  std::vector<std::string> out;
  size_t a = 0;
  while (a < s.size()) {
    size_t b = s.find('\n', a);
    if (b == std::string::npos) b = s.size();
    out.push_back(s.substr(a, b - a));
    a = b + 1;
  }
  return out;
}

// Checksum over everything that defines the state (iteration, scalars, field checksums, deck).
std::uint64_t content_checksum(long iteration, const std::vector<std::pair<std::string, double>>& scalars,
                               const std::vector<std::pair<std::string, std::uint64_t>>& fields,
                               const std::string& deck) {
  long long it = iteration;
  std::uint64_t h = fnv1a(&it, sizeof it);
  for (const auto& [n, v] : scalars) {
    h = fnv1a(n.data(), n.size(), h);
    h = fnv1a(&v, sizeof v, h);
  }
  for (const auto& [n, c] : fields) {
    h = fnv1a(n.data(), n.size(), h);
    h = fnv1a(&c, sizeof c, h);
  }
  return fnv1a(deck.data(), deck.size(), h);
}

std::string escape_regex(const std::string& s) {
  return std::regex_replace(s, std::regex(R"([.^$|()\[\]{}*+?\\])"), R"(\$&)");
}

void fsync_path(const std::string& path, bool directory) {
  const int fd = ::open(path.c_str(), directory ? (O_RDONLY | O_DIRECTORY) : O_RDONLY);
  if (fd < 0) throw IoError("cannot open " + path + " to sync it");
  const int rc = ::fsync(fd);
  ::close(fd);
  if (rc != 0 && !directory) throw IoError("fsync of " + path + " failed");
}

std::string now_iso() {
  std::time_t t = std::time(nullptr);
  char buf[64];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S%z", std::localtime(&t));
  return buf;
}

std::array<long, 3> extents_of(const Decomposition& d) { return d.grid().extents; }

// Adds the list of other checkpoints next to `path` to an error message.
std::string with_alternatives(const std::string& message, const std::string& path) {
  std::string out = message;
  std::error_code ec;
  const fs::path p(path);
  const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  std::vector<std::string> others;
  std::smatch m;
  const std::string name = p.filename().string();
  std::string prefix;
  if (std::regex_match(name, m, std::regex(R"(^(.*)_(\d+)\.h5$)"))) prefix = m[1].str();
  if (!prefix.empty() && fs::is_directory(dir, ec))
    for (const auto& c : list_checkpoints(dir.string(), prefix))
      if (fs::path(c.path).filename() != p.filename()) others.push_back(c.path);
  if (!others.empty()) {
    out += "; it was not modified, and neither were the other checkpoints in " + dir.string() + ":";
    for (const auto& o : others) out += " " + o;
    out += " (restart from the newest good one with --restart FILE)";
  }
  return out;
}

}  // namespace

std::vector<CheckpointFile> list_checkpoints(const std::string& dir, const std::string& prefix) {
  std::vector<CheckpointFile> out;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return out;
  const std::regex re("^" + escape_regex(prefix) + R"(_(\d+)\.h5$)");
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    std::smatch m;
    const std::string name = e.path().filename().string();
    if (e.is_regular_file() && std::regex_match(name, m, re))
      out.push_back(CheckpointFile{e.path().string(), std::stol(m[1].str())});
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.iteration < b.iteration; });
  return out;
}

std::string resolve_restart_path(const std::string& arg) {
  std::error_code ec;
  if (!fs::exists(arg, ec)) throw IoError("--restart: no such file or directory: " + arg);
  if (!fs::is_directory(arg, ec)) return arg;
  const std::regex re(R"(^(.*)_(\d+)\.h5$)");
  std::string best;
  long best_it = -1;
  for (const auto& e : fs::directory_iterator(arg, ec)) {
    std::smatch m;
    const std::string name = e.path().filename().string();
    if (e.is_regular_file() && name[0] != '.' && std::regex_match(name, m, re) && std::stol(m[2].str()) > best_it) {
      best_it = std::stol(m[2].str());
      best = e.path().string();
    }
  }
  if (best.empty()) throw IoError("--restart: no checkpoint file (PREFIX_N.h5) in directory " + arg);
  return best;
}

template <class Real>
double write_checkpoint(const std::string& dir, const std::string& prefix, long keep, H5Mode mode,
                        const Decomposition& d, Backend<Real>& be, const SolverState<Real>& state,
                        const CheckpointMeta& meta, std::string* written) {
  MPI_Comm comm = d.comm();
  const std::string name = fmt::format("{}_{:08d}.h5", prefix, state.iteration);
  const std::string final_path = (fs::path(dir) / name).string();
  const std::string tmp_path = (fs::path(dir) / ("." + name + ".tmp")).string();
  agree(comm, [&] {
    if (d.rank() == 0) {
      std::error_code ec;
      fs::create_directories(dir, ec);
      if (ec) throw IoError("cannot create checkpoint directory " + dir + ": " + ec.message());
    }
  });

  const GridSpec& g = d.grid();
  const std::array<long, 3> global = extents_of(d);
  const Block block = owned_block(d);
  double bytes = 0.0;
  std::vector<std::pair<std::string, std::uint64_t>> sums;
  std::vector<std::string> field_names, scalar_names;
  {
    H5File f(tmp_path, H5File::Access::create, comm, mode);
    f.set_attr("/", "format", std::string(kFormat));
    f.set_attr("/", "format_version", kFormatVersion);
    f.set_attr("/", "deck", meta.deck);
    f.set_attr("/", "git_revision", git_revision());
    f.set_attr("/", "build", build_info());
    f.set_attr("/", "hdf5", hdf5_description());
    f.set_attr("/", "solver", meta.solver);
    f.set_attr("/", "problem", meta.problem);
    f.set_attr("/", "precision", std::string(sizeof(Real) == 8 ? "double" : "float"));
    f.set_attr("/", "iteration", state.iteration);
    f.set_attr("/", "dimension", static_cast<long>(g.dim));
    f.set_attr("/", "extents", fmt::format("{} {} {}", global[0], global[1], global[2]));
    f.set_attr("/", "written_by_ranks", static_cast<long>(d.size()));
    f.set_attr("/", "created", now_iso());
    f.create_group("/fields");
    f.create_group("/state");
    for (const auto& [fname, field] : state.fields) {
      std::vector<Real> host(field->layout().size());
      be.download(*field, host);
      const std::vector<Real> owned = pack_owned<Real>(field->layout(), host);
      const std::string path = "/fields/" + fname;
      bytes += f.write_block<Real>(path, g.dim, global, block, owned.data());
      const std::uint64_t sum = global_checksum(comm, block, global, owned);
      f.set_attr_u64(path, "checksum", sum);
      sums.emplace_back(fname, sum);
      field_names.push_back(fname);
    }
    for (const auto& [sname, value] : state.scalars) {
      f.set_attr("/state", sname, value);
      scalar_names.push_back(sname);
    }
    f.set_attr("/state", "field_names", join(field_names));
    f.set_attr("/state", "scalar_names", join(scalar_names));
    f.set_attr_u64("/", "checksum", content_checksum(state.iteration, state.scalars, sums, meta.deck));
    f.close(/*durable=*/true);
  }
  // Durable, then atomically visible, then old ones go.
  agree(comm, [&] {
    if (d.rank() != 0) return;
    fsync_path(tmp_path, false);
    std::error_code ec;
    fs::rename(tmp_path, final_path, ec);
    if (ec) throw IoError("cannot rename " + tmp_path + " to " + final_path + ": " + ec.message());
    fsync_path(dir, true);
    auto all = list_checkpoints(dir, prefix);
    for (size_t i = 0; i + static_cast<size_t>(keep) < all.size(); ++i) fs::remove(all[i].path, ec);
  });
  if (written) *written = final_path;
  return bytes;
}

template <class Real>
CheckpointData<Real> read_checkpoint(const std::string& path, H5Mode mode, const Decomposition& d) {
  MPI_Comm comm = d.comm();
  CheckpointData<Real> out;
  out.path = path;
  try {
    H5File f(path, H5File::Access::read, comm, mode);
    if (!f.has_attr("/", "format") || f.attr_string("/", "format") != kFormat)
      throw IoError("not a perksolve checkpoint (no format = \"perksolve-checkpoint\" attribute)");
    const long version = f.attr_long("/", "format_version");
    if (version > kFormatVersion)
      throw IoError(fmt::format("checkpoint format version {} is newer than this perksolve reads ({})", version,
                                kFormatVersion));
    const std::string precision = f.attr_string("/", "precision");
    const std::string want = sizeof(Real) == 8 ? "double" : "float";
    if (precision != want)
      throw IoError("the checkpoint holds " + precision + " fields but this run uses " + want);
    const std::array<long, 3> global = extents_of(d);
    const std::string ext = f.attr_string("/", "extents");
    if (ext != fmt::format("{} {} {}", global[0], global[1], global[2]))
      throw IoError("the checkpoint's grid extents (" + ext + ") differ from the deck's");
    const std::string deck = f.attr_string("/", "deck");
    out.iteration = f.attr_long("/", "iteration");
    const Block block = owned_block(d);
    std::vector<std::pair<std::string, std::uint64_t>> sums;
    for (const auto& name : split_lines(f.attr_string("/state", "field_names"))) {
      const std::string p = "/fields/" + name;
      std::vector<Real> owned(static_cast<size_t>(block.size()));
      f.read_block<Real>(p, d.grid().dim, global, block, owned.data());
      out.bytes += static_cast<double>(owned.size()) * sizeof(Real);
      const std::uint64_t stored = f.attr_u64(p, "checksum");
      const std::uint64_t computed = global_checksum(comm, block, global, owned);
      if (stored != computed)
        throw IoError(fmt::format("corrupted data: the checksum of field '{}' does not match (stored {:016x}, "
                                  "computed {:016x})",
                                  name, stored, computed));
      sums.emplace_back(name, stored);
      out.fields.emplace_back(name, std::move(owned));
    }
    for (const auto& name : split_lines(f.attr_string("/state", "scalar_names")))
      out.scalars.emplace_back(name, f.attr_double("/state", name));
    if (f.attr_u64("/", "checksum") != content_checksum(out.iteration, out.scalars, sums, deck))
      throw IoError("corrupted metadata: the content checksum does not match");
    f.close();
  } catch (const IoError& e) {
    throw IoError(with_alternatives("cannot restart from checkpoint '" + path + "': " + e.what(), path));
  }
  return out;
}

std::string read_checkpoint_deck(const std::string& path, MPI_Comm comm) {
  try {
    H5File f(path, H5File::Access::read, comm, H5Mode::gather);
    if (!f.has_attr("/", "format") || f.attr_string("/", "format") != kFormat)
      throw IoError("not a perksolve checkpoint (no format = \"perksolve-checkpoint\" attribute)");
    std::string deck = f.attr_string("/", "deck");
    f.close();
    return deck;
  } catch (const IoError& e) {
    std::string msg = e.what();
    if (msg.find("truncated") != std::string::npos || msg.find("signature") != std::string::npos ||
        msg.find("cannot open") != std::string::npos)
      msg = "the file is truncated or corrupted (" + msg + ")";
    throw IoError(with_alternatives("cannot restart from checkpoint '" + path + "': " + msg, path));
  }
}

void check_restart_deck(const config::Deck& now, const config::Deck& saved, const std::string& checkpoint_path) {
  std::set<std::string> keys;
  for (const auto& k : now.keys()) keys.insert(k);
  for (const auto& k : saved.keys()) keys.insert(k);
  for (const auto& k : keys) {
    if (restart_may_change(k)) continue;
    const bool in_now = now.has(k), in_saved = saved.has(k);
    const std::string a = in_now ? config::format_value(now.get(k)) : "(not set)";
    const std::string b = in_saved ? config::format_value(saved.get(k)) : "(not set)";
    if (a == b) continue;
    const std::string msg = fmt::format(
        "cannot be changed on restart: the checkpoint {} was written with '{}' = {} (it changes the discrete "
        "problem; {})",
        checkpoint_path, k, b, restart_changeable_keys_help());
    if (in_now) throw now.error_at(k, msg);
    throw config::DeckError(fmt::format("{}: error: '{}' is not set but {}", now.file(), k, msg));
  }
}

std::string prepare_restart(const config::Deck& deck, const std::string& restart_arg, MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::string path;
  agree(comm, [&] {
    if (rank == 0) path = resolve_restart_path(restart_arg);
  });
  int len = static_cast<int>(path.size());
  MPI_Bcast(&len, 1, MPI_INT, 0, comm);
  path.resize(static_cast<size_t>(len));
  MPI_Bcast(path.data(), len, MPI_CHAR, 0, comm);
  const std::string text = read_checkpoint_deck(path, comm);
  const config::Deck saved = config::load_deck_from_string(text, path + " (embedded deck)", {});
  check_restart_deck(deck, saved, path);
  return path;
}

#define PERKSOLVE_INSTANTIATE(Real)                                                                             \
  template double write_checkpoint<Real>(const std::string&, const std::string&, long, H5Mode,                  \
                                         const Decomposition&, Backend<Real>&, const SolverState<Real>&,        \
                                         const CheckpointMeta&, std::string*);                                  \
  template CheckpointData<Real> read_checkpoint<Real>(const std::string&, H5Mode, const Decomposition&);
PERKSOLVE_INSTANTIATE(float)
PERKSOLVE_INSTANTIATE(double)
#undef PERKSOLVE_INSTANTIATE

}  // namespace perksolve::io
