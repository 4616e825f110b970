// XDMF sidecars so ParaView / VisIt open the HDF5 field files directly: one per output step and a
// temporal collection of all steps (PREFIX.xmf), rebuilt from the per-step files on every write.
#pragma once

#include <array>
#include <string>
#include <vector>

namespace perksolve::io {

struct XdmfStep {
  long iteration = 0;
  double time = 0.0;             // physical time (time stepping) or the iteration number
  std::string h5_file;           // file name relative to the .xmf (same directory)
  int dim = 3;
  std::array<long, 3> extents{1, 1, 1};  // x fastest
  std::vector<std::string> fields;       // datasets /fields/NAME
  int precision_bytes = 8;               // of the field datasets (coordinates are always double)
};

// The <Grid> element of one step (a rectilinear mesh through the unknowns' physical coordinates,
// datasets /grid/x, /grid/y[, /grid/z], node-centred scalars).
std::string xdmf_grid(const XdmfStep& step, const std::string& indent);
// A complete XDMF document holding one step.
std::string xdmf_document(const XdmfStep& step);
// Writes PREFIX.xmf in `dir`: a temporal collection of every PREFIX_NNNNNN.xmf with iteration
// <= up_to (steps from a run that was later restarted at an earlier point are left out).
void write_xdmf_series(const std::string& dir, const std::string& prefix, long up_to);

// Writes `text` to `path` through a temporary file and rename (readers never see a partial file).
void write_text_file_atomically(const std::string& path, const std::string& text);

}  // namespace perksolve::io
