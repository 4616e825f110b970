// A thin wrapper over HDF5 for global arrays distributed by blocks, so the rest of the output layer
// never includes hdf5.h (only h5file.cpp does).
//
// Two modes:
//   collective  every rank opens the file with MPI-IO and writes/reads its own hyperslab of one
//               global dataset with collective transfers (needs parallel HDF5);
//   gather      rank 0 alone opens the file; blocks are gathered to / scattered from it (the
//               fallback compiled when only serial HDF5 is available; also selectable for testing).
// Every call is collective over the communicator. Failures raise IoError on every rank.
#pragma once

#include <mpi.h>

#include <array>
#include <stdexcept>
#include <string>
#include <vector>

namespace perksolve::io {

// An I/O error raised identically on every rank of the communicator (the caller may exit cleanly).
struct IoError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

bool hdf5_compiled();
bool hdf5_parallel_compiled();
std::string hdf5_description();  // "HDF5 1.10.8, parallel (collective MPI-IO)" / "... serial ..." / "not compiled"

enum class H5Mode { collective, gather };
// "auto" -> collective where parallel HDF5 is compiled, else gather; "collective" without parallel
// HDF5 throws std::invalid_argument.
H5Mode resolve_h5_mode(const std::string& name);
std::string to_string(H5Mode m);

// The part of a global array (x fastest, extents padded with 1 to three axes) that one rank holds.
struct Block {
  std::array<long, 3> offset{0, 0, 0};
  std::array<long, 3> count{1, 1, 1};
  long size() const { return count[0] * count[1] * count[2]; }
};

class H5File {
 public:
  enum class Access { create, read };
  // Collective. `create` truncates an existing file.
  H5File(const std::string& path, Access access, MPI_Comm comm, H5Mode mode);
  ~H5File();
  H5File(const H5File&) = delete;
  H5File& operator=(const H5File&) = delete;

  const std::string& path() const { return path_; }
  H5Mode mode() const { return mode_; }
  MPI_Comm comm() const { return comm_; }
  // Closes; errors raise IoError. `durable`: first flush to storage (MPI_File_sync in collective
  // mode; in gather mode the caller fsyncs the closed file).
  void close(bool durable = false);

  void create_group(const std::string& path);
  bool exists(const std::string& path);  // a group or dataset

  // Attributes of a group or dataset; every rank passes the same value.
  void set_attr(const std::string& object, const std::string& name, const std::string& value);
  void set_attr(const std::string& object, const std::string& name, long value);
  void set_attr(const std::string& object, const std::string& name, double value);
  void set_attr_u64(const std::string& object, const std::string& name, unsigned long long value);
  bool has_attr(const std::string& object, const std::string& name);
  std::string attr_string(const std::string& object, const std::string& name);
  long attr_long(const std::string& object, const std::string& name);
  double attr_double(const std::string& object, const std::string& name);
  unsigned long long attr_u64(const std::string& object, const std::string& name);

  // A small 1D array of doubles (identical on every rank).
  void write_vector(const std::string& path, const std::vector<double>& v);

  // A global array of `ndims` (2 or 3) axes with x-fastest extents `global` (HDF5 dims are written
  // slowest first: {nz, ny, nx}); this rank contributes `block`, x fastest. T is float or double and
  // is also the type on disk. Returns the bytes this rank contributed.
  template <class T>
  double write_block(const std::string& path, int ndims, const std::array<long, 3>& global, const Block& block,
                     const T* data);
  // Reads this rank's block; the dataset must have exactly the given extents and element type T
  // (checked: a mismatch is an IoError naming the dataset).
  template <class T>
  void read_block(const std::string& path, int ndims, const std::array<long, 3>& global, const Block& block, T* data);
  // Element type of a dataset: "float", "double" or "other".
  std::string dataset_type(const std::string& path);

 private:
  struct Impl;
  Impl* impl_ = nullptr;
  std::string path_;
  MPI_Comm comm_;
  H5Mode mode_;
  int rank_ = 0;
};

// Runs `fn` on every rank; if it throws on any rank, every rank throws IoError with the message of
// the lowest failing rank (so a rank-local failure cannot leave the others waiting).
template <class F>
void agree(MPI_Comm comm, F&& fn);

// Implementation of agree (header-only so callers need not link anything special).
void agree_impl(MPI_Comm comm, bool failed, const std::string& message);
template <class F>
void agree(MPI_Comm comm, F&& fn) {
  bool failed = false;
  std::string message;
  try {
    fn();
  } catch (const std::exception& e) {
    failed = true;
    message = e.what();
  }
  agree_impl(comm, failed, message);
}

}  // namespace perksolve::io
