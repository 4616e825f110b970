// One HDF5 file per output step (PREFIX_NNNNNN.h5: /fields/NAME global datasets, /grid/x|y|z
// coordinates, the resolved deck, git revision, build and iteration as attributes) with its XDMF
// sidecar, and the time-series PREFIX.xmf.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "framework/backend/backend.hpp"
#include "framework/grid/decomposition.hpp"
#include "framework/halo/halo_exchange.hpp"
#include "framework/io/h5file.hpp"
#include "framework/io/io_options.hpp"
#include "framework/operators/linear_operator.hpp"
#include "framework/problem/problem.hpp"
#include "framework/stencil/stencil.hpp"

namespace perksolve::io {

struct RunMeta {
  std::string deck;  // resolved deck (TOML)
  std::string solver, problem;
  bool linear_system = true;  // false for fixed-step time stepping (time = iteration * time_step)
};

template <class Real>
class FieldWriter {
 public:
  FieldWriter(const OutputOptions& opt, H5Mode mode, const Decomposition& d, Backend<Real>& be,
              HaloExchange<Real>& halo, const Stencil& op, const ProblemSetup& setup, const Field<Real>& b,
              RunMeta meta, LinearOperator<Real>* A = nullptr);
  ~FieldWriter();
  // Writes the fields of step `iteration` (x = current iterate). Collective. Returns this rank's bytes
  // and the file path in `written`.
  double write(long iteration, const Field<Real>& x, std::string* written = nullptr);
  long last_iteration() const { return last_; }

 private:
  template <class T>
  double write_as(long iteration, const Field<Real>& x, const std::string& path);

  OutputOptions opt_;
  H5Mode mode_;
  const Decomposition& d_;
  Backend<Real>& be_;
  HaloExchange<Real>& halo_;
  const Stencil& op_;
  const ProblemSetup& setup_;
  const Field<Real>& b_;
  RunMeta meta_;
  LinearOperator<Real>* A_;  // residual through the solver's operator when given
  FieldPtr<Real> scratch_x_, scratch_r_;  // residual: a copy of x whose ghosts we may update, and r
  std::vector<Real> host_;                 // reused host buffers (no page faults per step)
  std::vector<float> owned_f_;
  std::vector<double> owned_d_;
  long last_ = -1;
};

}  // namespace perksolve::io
