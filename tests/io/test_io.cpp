// Output layer on 4 ranks (any count works): the HDF5 files hold one global array equal to the
// in-memory solution (collective and gather modes, double and float on disk), the residual and error
// fields agree with the solver's numbers, checkpoints round-trip bit for bit across rank counts and
// detect corruption, and the restart deck check refuses changes of the discrete problem.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cctype>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "framework/backends/kokkos/kokkos_backend.hpp"
#include "framework/io/blocks.hpp"
#include "framework/io/checkpoint.hpp"
#include "framework/io/h5file.hpp"
#include "framework/io/io_options.hpp"
#include "framework/runtime/run.hpp"

using namespace perksolve;
namespace fs = std::filesystem;

namespace {

int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

config::Deck deck(const std::string& text, const std::vector<std::string>& overrides = {}) {
  io::register_io_schema();
  return config::load_deck_from_string(text, "test-deck", overrides);
}

const char* kPoisson = R"(
[grid]
dimension = 3
extents = [20, 17, 13]
box_lo = [0.0, -1.0, 0.5]
box_hi = [2.0, 1.0, 1.5]
[problem]
type = "poisson_sine"
[solver]
type = "jacobi"
omega = 0.9
[solver.stop]
max_iterations = 150
rtol = 0.0
[monitor]
quiet = true
)";

// Rank 0 reads a whole dataset (the others take part with empty blocks).
template <class T>
std::vector<T> read_global(const std::string& path, const std::string& dataset, int dim, std::array<long, 3> ext) {
  io::H5File f(path, io::H5File::Access::read, MPI_COMM_WORLD, io::H5Mode::gather);
  io::Block b;
  if (world_rank() == 0) b.count = ext;
  else b.count = {0, 0, 0};
  std::vector<T> v(static_cast<size_t>(b.size()));
  f.read_block<T>(dataset, dim, ext, b, v.data());
  return v;
}

#define REQUIRE_HDF5() \
  if (!io::hdf5_compiled()) GTEST_SKIP() << "SKIPPED: built without HDF5"

std::string out_dir(const std::string& name) { return (fs::current_path() / ("io_test_" + name)).string(); }

void clean(const std::string& dir) {
  if (world_rank() == 0) fs::remove_all(dir);
  MPI_Barrier(MPI_COMM_WORLD);
}

struct Case {
  std::string mode, precision;
  std::string ranks = "[0,0,0]";  // [1,4,1]: 17 cells in y as 5,4,4,4 (no regular tiling: slab path)
};

class GlobalArray : public ::testing::TestWithParam<Case> {};

TEST_P(GlobalArray, EqualsInMemorySolution) {
  REQUIRE_HDF5();
  const Case c = GetParam();
  if (c.mode == "collective" && !io::hdf5_parallel_compiled()) GTEST_SKIP() << "SKIPPED: serial HDF5 only";
  std::string tag;
  for (char ch : c.ranks)
    if (std::isdigit(static_cast<unsigned char>(ch))) tag += ch;
  const std::string dir = out_dir(c.mode + "_" + c.precision + "_" + tag);
  clean(dir);
  const config::Deck d = deck(kPoisson, {"output.at_end=true", "output.directory=\"" + dir + "\"",
                                         "output.fields=[\"solution\",\"rhs\",\"residual\",\"error\"]",
                                         "output.hdf5_mode=\"" + c.mode + "\"", "output.precision=\"" + c.precision + "\"",
                                         "decomposition.ranks=" + c.ranks});
  const RunOutcome out = solve_deck<double>(d, MPI_COMM_WORLD, true);
  const std::string file = dir + "/perksolve_000150.h5";
  ASSERT_TRUE(fs::exists(file)) << file;
  const std::array<long, 3> ext{20, 17, 13};
  const bool dbl = c.precision == "double";
  std::vector<double> sol, res, err;
  auto read = [&](const std::string& name) {
    if (dbl) return read_global<double>(file, name, 3, ext);
    const auto f = read_global<float>(file, name, 3, ext);
    return std::vector<double>(f.begin(), f.end());
  };
  sol = read("/fields/solution");
  res = read("/fields/residual");
  err = read("/fields/error");
  const auto x = read_global<double>(file, "/grid/x", 1, {20, 1, 1});
  const auto y = read_global<double>(file, "/grid/y", 1, {17, 1, 1});
  if (world_rank() != 0) return;
  ASSERT_EQ(sol.size(), out.global_solution.size());
  for (size_t p = 0; p < sol.size(); ++p) {
    const double want = dbl ? out.global_solution[p] : static_cast<double>(static_cast<float>(out.global_solution[p]));
    ASSERT_EQ(sol[p], want) << "element " << p;
  }
  // Residual field: its norm is the solver's final residual norm (of the returned iterate).
  double rr = 0.0;
  for (double v : res) rr += v * v;
  EXPECT_NEAR(std::sqrt(rr), out.result.final_residual, (dbl ? 1e-10 : 1e-5) * out.result.final_residual);
  // Error field: its max is the reported max error.
  double emax = 0.0;
  for (double v : err) emax = std::max(emax, std::abs(v));
  ASSERT_TRUE(out.error.has_value());
  EXPECT_NEAR(emax, out.error->max_abs, dbl ? 0.0 : 1e-6 * out.error->max_abs);
  // Coordinates: vertex-centred Dirichlet, h = L / (n + 1), first unknown at lo + h.
  EXPECT_DOUBLE_EQ(x[0], 0.0 + 2.0 / 21);
  EXPECT_DOUBLE_EQ(x[19], 2.0 - 2.0 / 21);
  EXPECT_DOUBLE_EQ(y[0], -1.0 + 2.0 / 18);
  // Sidecars.
  EXPECT_TRUE(fs::exists(dir + "/perksolve_000150.xmf"));
  EXPECT_TRUE(fs::exists(dir + "/perksolve.xmf"));
}

INSTANTIATE_TEST_SUITE_P(Modes, GlobalArray,
                         ::testing::Values(Case{"collective", "double"}, Case{"gather", "double"},
                                           Case{"collective", "float"}, Case{"gather", "float"},
                                           Case{"collective", "double", "[1,4,1]"}, Case{"gather", "double", "[4,1,1]"},
                                           Case{"collective", "float", "[1,1,4]"}),
                         [](const auto& info) {
                           std::string r;
                           for (char ch : info.param.ranks)
                             if (std::isdigit(static_cast<unsigned char>(ch))) r += ch;
                           return info.param.mode + "_" + info.param.precision + "_" + r;
                         });

TEST(Attributes, DeckRevisionIteration) {
  REQUIRE_HDF5();
  const std::string dir = out_dir("attrs");
  clean(dir);
  const config::Deck d = deck(kPoisson, {"output.at_end=true", "output.directory=\"" + dir + "\""});
  solve_deck<double>(d, MPI_COMM_WORLD, false);
  io::H5File f(dir + "/perksolve_000150.h5", io::H5File::Access::read, MPI_COMM_WORLD, io::H5Mode::gather);
  EXPECT_EQ(f.attr_long("/", "iteration"), 150);
  EXPECT_EQ(f.attr_string("/", "deck"), d.to_toml());
  EXPECT_FALSE(f.attr_string("/", "git_revision").empty());
  EXPECT_NE(f.attr_string("/", "build").find("perksolve"), std::string::npos);
  EXPECT_EQ(f.attr_string("/", "solver"), "jacobi");
}

// A checkpoint written on the world communicator restores bit for bit on a different rank count
// (rank 0 alone), and a flipped byte in a field is detected.
template <class Real>
void checkpoint_round_trip(const std::string& name) {
  if (!io::hdf5_compiled()) return;
  const std::string dir = out_dir(name);
  clean(dir);
  GridSpec g;
  g.dim = 3;
  g.extents = {13, 11, 9};
  g.validate();
  const std::array<long, 3> ext = g.extents;
  std::string written;
  {
    Decomposition dec(g, MPI_COMM_WORLD, {0, 0, 0}, 1);
    auto be = create_backend<Real>("kokkos", dec.comm());
    const FieldLayout l = dec.grid_layout(1, sizeof(Real));
    auto a = be->create_field(l), b = be->create_field(l);
    std::vector<Real> host(l.size(), Real(0));
    for (int k = 0; k < l.n[2]; ++k)
      for (int j = 0; j < l.n[1]; ++j)
        for (int i = 0; i < l.n[0]; ++i) {
          const long gi = dec.offset()[0] + i, gj = dec.offset()[1] + j, gk = dec.offset()[2] + k;
          host[l.index(i, j, k)] = static_cast<Real>(std::sin(0.1 * gi + 0.37 * gj) / (1.0 + gk) + 1e-9 * gi);
        }
    be->upload(*a, host);
    for (auto& v : host) v = -v;
    be->upload(*b, host);
    SolverState<Real> st;
    st.iteration = 42;
    st.fields = {{"x", a.get()}, {"p", b.get()}};
    st.scalars = {{"rho", 0.1 + 0.2}, {"initial_residual", 3.5}};
    io::write_checkpoint<Real>(dir, "ck", 2, io::resolve_h5_mode("auto"), dec, *be, st, {"deck text", "s", "p"},
                               &written);
  }
  ASSERT_EQ(written, dir + "/ck_00000042.h5");
  if (world_rank() == 0) {
    Decomposition one(g, MPI_COMM_SELF, {0, 0, 0}, 1);
    const auto data = io::read_checkpoint<Real>(written, io::H5Mode::gather, one);
    EXPECT_EQ(data.iteration, 42);
    ASSERT_EQ(data.fields.size(), 2u);
    EXPECT_EQ(data.fields[0].first, "x");
    EXPECT_EQ(data.fields[1].first, "p");
    ASSERT_EQ(data.scalars.size(), 2u);
    EXPECT_EQ(data.scalars[0].second, 0.1 + 0.2);  // bit for bit
    for (long gk = 0; gk < ext[2]; ++gk)
      for (long gj = 0; gj < ext[1]; ++gj)
        for (long gi = 0; gi < ext[0]; ++gi) {
          const Real want = static_cast<Real>(std::sin(0.1 * gi + 0.37 * gj) / (1.0 + gk) + 1e-9 * gi);
          const size_t p = static_cast<size_t>(gi + ext[0] * (gj + ext[1] * gk));
          ASSERT_EQ(data.fields[0].second[p], want);
          ASSERT_EQ(data.fields[1].second[p], -want);
        }
    // Corrupt one value in the middle of field x (find it by its exact bytes) -> checksum error.
    std::string bytes;
    {
      std::ifstream in(written, std::ios::binary);
      bytes.assign(std::istreambuf_iterator<char>(in), {});
    }
    const Real probe = data.fields[0].second[ext[0] * ext[1] * 4 + 5];
    std::string pat(sizeof(Real), '\0');
    std::memcpy(pat.data(), &probe, sizeof(Real));
    const size_t at = bytes.find(pat);
    ASSERT_NE(at, std::string::npos);
    bytes[at] ^= 0x01;
    const std::string bad = dir + "/ck_00000043.h5";
    {
      std::ofstream out(bad, std::ios::binary);
      out << bytes;
    }
    try {
      io::read_checkpoint<Real>(bad, io::H5Mode::gather, one);
      ADD_FAILURE() << "corruption not detected";
    } catch (const io::IoError& e) {
      EXPECT_NE(std::string(e.what()).find("checksum of field 'x'"), std::string::npos) << e.what();
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

TEST(Checkpoint, RoundTripOtherRankCountDouble) { checkpoint_round_trip<double>("ck_double"); }
TEST(Checkpoint, RoundTripOtherRankCountFloat) { checkpoint_round_trip<float>("ck_float"); }

TEST(Checkpoint, KeepsNewestK) {
  REQUIRE_HDF5();
  const std::string dir = out_dir("keep");
  clean(dir);
  GridSpec g;
  g.dim = 2;
  g.extents = {8, 6, 1};
  g.validate();
  Decomposition dec(g, MPI_COMM_WORLD, {0, 0, 0}, 1);
  auto be = create_backend<double>("kokkos", dec.comm());
  auto a = be->create_field(dec.grid_layout(1, sizeof(double)));
  be->fill(*a, 1.0);
  SolverState<double> st;
  st.fields = {{"x", a.get()}};
  for (long it : {10, 20, 30, 40}) {
    st.iteration = it;
    io::write_checkpoint<double>(dir, "c", 2, io::resolve_h5_mode("auto"), dec, *be, st, {"d", "s", "p"});
  }
  const auto files = io::list_checkpoints(dir, "c");
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(files[0].iteration, 30);
  EXPECT_EQ(files[1].iteration, 40);
  MPI_Barrier(MPI_COMM_WORLD);
}

TEST(RestartDeck, AllowsOutputAndStoppingRefusesProblemChanges) {
  const config::Deck saved = deck(kPoisson);
  EXPECT_NO_THROW(io::check_restart_deck(deck(kPoisson, {"solver.stop.max_iterations=500", "output.every=5",
                                                         "checkpoint.every=7", "monitor.every=1",
                                                         "decomposition.ranks=[1,2,2]"}),
                                         saved, "ck.h5"));
  for (const std::string o : {"grid.extents=[20,17,14]", "solver.omega=0.8", "backend.precision=\"float\"",
                              "boundary.value=1.0", "problem.wavenumber=2", "grid.centering=\"cell\""}) {
    try {
      io::check_restart_deck(deck(kPoisson, {o}), saved, "ck.h5");
      ADD_FAILURE() << o << " accepted";
    } catch (const config::DeckError& e) {
      const std::string key = o.substr(0, o.find('='));
      EXPECT_NE(std::string(e.what()).find("'" + key + "'"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("cannot be changed on restart"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
