#include "framework/io/field_output.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <type_traits>

#include "framework/io/blocks.hpp"
#include "framework/io/xdmf.hpp"
#include "framework/util/build_info.hpp"

namespace perksolve::io {

namespace fs = std::filesystem;

template <class Real>
FieldWriter<Real>::FieldWriter(const OutputOptions& opt, H5Mode mode, const Decomposition& d, Backend<Real>& be,
                               HaloExchange<Real>& halo, const Stencil& op, const ProblemSetup& setup,
                               const Field<Real>& b, RunMeta meta, LinearOperator<Real>* A)
    : opt_(opt), mode_(mode), d_(d), be_(be), halo_(halo), op_(op), setup_(setup), b_(b), meta_(std::move(meta)),
      A_(A) {
  agree(d.comm(), [&] {
    if (d.rank() == 0) {
      std::error_code ec;
      fs::create_directories(opt_.directory, ec);
      if (ec) throw IoError("cannot create output directory " + opt_.directory + ": " + ec.message());
    }
  });
}

template <class Real>
FieldWriter<Real>::~FieldWriter() = default;

template <class Real>
double FieldWriter<Real>::write(long iteration, const Field<Real>& x, std::string* written) {
  const std::string name = fmt::format("{}_{:06d}", opt_.prefix, iteration);
  const std::string h5 = (fs::path(opt_.directory) / (name + ".h5")).string();
  const double bytes = opt_.precision == "float" ? write_as<float>(iteration, x, h5) : write_as<double>(iteration, x, h5);
  last_ = iteration;
  if (written) *written = h5;
  return bytes;
}

template <class Real>
template <class T>
double FieldWriter<Real>::write_as(long iteration, const Field<Real>& x, const std::string& path) {
  MPI_Comm comm = d_.comm();
  const GridSpec& g = d_.grid();
  const FieldLayout& l = x.layout();
  const std::array<long, 3> global = g.extents;
  const Block block = owned_block(d_);
  const double time = meta_.linear_system ? static_cast<double>(iteration) : iteration * setup_.time_step;
  const double exact_t = meta_.linear_system ? 0.0 : time;

  const fs::path p(path);
  const std::string tmp = (p.parent_path() / ("." + p.filename().string() + ".tmp")).string();
  double bytes = 0.0;
  {
    H5File f(tmp, H5File::Access::create, comm, mode_);
    f.set_attr("/", "format", std::string("perksolve-fields"));
    f.set_attr("/", "deck", meta_.deck);
    f.set_attr("/", "git_revision", git_revision());
    f.set_attr("/", "build", build_info());
    f.set_attr("/", "hdf5", hdf5_description());
    f.set_attr("/", "solver", meta_.solver);
    f.set_attr("/", "problem", meta_.problem);
    f.set_attr("/", "iteration", iteration);
    f.set_attr("/", "time", time);
    f.set_attr("/", "precision", opt_.precision);
    f.set_attr("/", "dimension", static_cast<long>(g.dim));
    f.set_attr("/", "centering", to_string(g.centering));
    f.set_attr("/", "ranks", static_cast<long>(d_.size()));
    f.create_group("/grid");
    const char* axes[3] = {"x", "y", "z"};
    for (int a = 0; a < g.dim; ++a) {
      std::vector<double> c(static_cast<size_t>(g.extents[a]));
      for (long i = 0; i < g.extents[a]; ++i) c[i] = g.coordinate(a, i);
      f.write_vector(std::string("/grid/") + axes[a], c);
    }
    f.create_group("/fields");
    std::vector<Real>& host = host_;
    host.resize(l.size());
    std::vector<T>& owned = [this]() -> std::vector<T>& {
      if constexpr (std::is_same_v<T, float>) return owned_f_;
      else return owned_d_;
    }();
    for (const auto& field : opt_.fields) {
      if (field == "solution" || field == "error") {
        be_.download(x, host);
        pack_owned_into(l, host, owned);
        if (field == "error") {
          // u - u_exact at the unknowns, in double before the conversion to the disk type.
          size_t q = 0;
          const auto& off = d_.offset();
          for (int k = 0; k < l.n[2]; ++k)
            for (int j = 0; j < l.n[1]; ++j)
              for (int i = 0; i < l.n[0]; ++i, ++q) {
                const double u = static_cast<double>(host[l.index(i, j, k)]);
                owned[q] = static_cast<T>(u - setup_.exact(g.coordinate(0, off[0] + i), g.coordinate(1, off[1] + j),
                                                           g.coordinate(2, off[2] + k), exact_t));
              }
        }
      } else if (field == "rhs") {
        be_.download(b_, host);
        pack_owned_into(l, host, owned);
      } else if (field == "residual") {
        if (!scratch_x_) {
          scratch_x_ = be_.create_field(l);
          scratch_r_ = be_.create_field(l);
        }
        be_.copy(x, *scratch_x_);  // the solver's iterate keeps its ghosts untouched
        if (A_) {
          A_->residual(b_, *scratch_x_, *scratch_r_);  // refreshes the copy's ghosts with the boundary values
        } else {
          halo_.update(*scratch_x_);
          be_.residual(op_, b_, *scratch_x_, *scratch_r_);
        }
        be_.download(*scratch_r_, host);
        pack_owned_into(l, host, owned);
      }
      const std::string dpath = "/fields/" + field;
      bytes += f.write_block<T>(dpath, g.dim, global, block, owned.data());
    }
    f.close();
  }
  agree(comm, [&] {
    if (d_.rank() != 0) return;
    std::error_code ec;
    fs::rename(tmp, path, ec);
    if (ec) throw IoError("cannot rename " + tmp + " to " + path + ": " + ec.message());
    XdmfStep s;
    s.iteration = iteration;
    s.time = time;
    s.h5_file = p.filename().string();
    s.dim = g.dim;
    s.extents = g.extents;
    s.fields = opt_.fields;
    s.precision_bytes = sizeof(T);
    const std::string xmf = (p.parent_path() / (p.stem().string() + ".xmf")).string();
    write_text_file_atomically(xmf, xdmf_document(s));
    write_xdmf_series(opt_.directory, opt_.prefix, iteration);
  });
  return bytes;
}

template class FieldWriter<float>;
template class FieldWriter<double>;

}  // namespace perksolve::io
