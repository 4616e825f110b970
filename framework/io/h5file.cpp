// The only translation unit of the output layer that includes hdf5.h.
#include "framework/io/h5file.hpp"

#include "framework/grid/decomposition.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <type_traits>

#if PERKSOLVE_HAVE_HDF5
#include <hdf5.h>
#endif

namespace perksolve::io {

void agree_impl(MPI_Comm comm, bool failed, const std::string& message) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  int size = 1;
  MPI_Comm_size(comm, &size);
  int mine = failed ? rank : size, first = size;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == size) return;
  int len = rank == first ? static_cast<int>(message.size()) : 0;
  MPI_Bcast(&len, 1, MPI_INT, first, comm);
  std::string text(static_cast<size_t>(len), '\0');
  if (rank == first) text = message;
  MPI_Bcast(text.data(), len, MPI_CHAR, first, comm);
  throw IoError(text);
}

std::string to_string(H5Mode m) { return m == H5Mode::collective ? "collective" : "gather"; }

H5Mode resolve_h5_mode(const std::string& name) {
  if (name == "gather") return H5Mode::gather;
  if (name == "collective") {
    if (!hdf5_parallel_compiled())
      throw std::invalid_argument("collective HDF5 I/O needs parallel HDF5 (libhdf5-openmpi-dev); this build has " +
                                  hdf5_description());
    return H5Mode::collective;
  }
  return hdf5_parallel_compiled() ? H5Mode::collective : H5Mode::gather;
}

#if !PERKSOLVE_HAVE_HDF5

bool hdf5_compiled() { return false; }
bool hdf5_parallel_compiled() { return false; }
std::string hdf5_description() { return "HDF5 not compiled"; }

struct H5File::Impl {};
namespace {
[[noreturn]] void no_hdf5() {
  throw IoError("this perksolve was built without HDF5 (install libhdf5-openmpi-dev and reconfigure)");
}
}  // namespace
H5File::H5File(const std::string& path, Access, MPI_Comm comm, H5Mode mode) : path_(path), comm_(comm), mode_(mode) {
  no_hdf5();
}
H5File::~H5File() = default;
void H5File::close(bool) {}
void H5File::create_group(const std::string&) { no_hdf5(); }
bool H5File::exists(const std::string&) { no_hdf5(); }
void H5File::set_attr(const std::string&, const std::string&, const std::string&) { no_hdf5(); }
void H5File::set_attr(const std::string&, const std::string&, long) { no_hdf5(); }
void H5File::set_attr(const std::string&, const std::string&, double) { no_hdf5(); }
void H5File::set_attr_u64(const std::string&, const std::string&, unsigned long long) { no_hdf5(); }
bool H5File::has_attr(const std::string&, const std::string&) { no_hdf5(); }
std::string H5File::attr_string(const std::string&, const std::string&) { no_hdf5(); }
long H5File::attr_long(const std::string&, const std::string&) { no_hdf5(); }
double H5File::attr_double(const std::string&, const std::string&) { no_hdf5(); }
unsigned long long H5File::attr_u64(const std::string&, const std::string&) { no_hdf5(); }
void H5File::write_vector(const std::string&, const std::vector<double>&) { no_hdf5(); }
template <class T>
double H5File::write_block(const std::string&, int, const std::array<long, 3>&, const Block&, const T*) {
  no_hdf5();
}
template <class T>
void H5File::read_block(const std::string&, int, const std::array<long, 3>&, const Block&, T*) {
  no_hdf5();
}
std::string H5File::dataset_type(const std::string&) { no_hdf5(); }

#else  // PERKSOLVE_HAVE_HDF5

bool hdf5_compiled() { return true; }
bool hdf5_parallel_compiled() { return PERKSOLVE_HDF5_PARALLEL != 0; }
std::string hdf5_description() {
  unsigned maj = 0, min = 0, rel = 0;
  H5get_libversion(&maj, &min, &rel);
  return fmt::format("HDF5 {}.{}.{}, {}", maj, min, rel,
                     PERKSOLVE_HDF5_PARALLEL ? "parallel (collective MPI-IO)" : "serial (rank-0 gather)");
}

namespace {

herr_t collect_error(unsigned, const H5E_error2_t* e, void* data) {
  auto* out = static_cast<std::vector<std::string>*>(data);
  if (e && e->desc && *e->desc) out->push_back(e->desc);
  return 0;
}

// The innermost messages of the HDF5 error stack (the specific cause), then clears it.
std::string h5_error() {
  std::vector<std::string> msgs;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, collect_error, &msgs);
  H5Eclear2(H5E_DEFAULT);
  std::string s;
  const size_t from = msgs.size() > 2 ? msgs.size() - 2 : 0;
  for (size_t i = from; i < msgs.size(); ++i) s += (s.empty() ? "" : "; ") + msgs[i];
  return s.empty() ? "unknown HDF5 error" : s;
}

void quiet_hdf5() {
  static bool done = false;
  if (!done) {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // errors are reported by us, not printed by HDF5
    done = true;
  }
}

// Owns an hid_t and closes it with the right function.
class Handle {
 public:
  using Closer = herr_t (*)(hid_t);
  Handle() = default;
  Handle(hid_t id, Closer c) : id_(id), close_(c) {}
  Handle(Handle&& o) noexcept : id_(o.id_), close_(o.close_) { o.id_ = -1; }
  Handle& operator=(Handle&& o) noexcept {
    reset();
    id_ = o.id_;
    close_ = o.close_;
    o.id_ = -1;
    return *this;
  }
  ~Handle() { reset(); }
  void reset() {
    if (id_ >= 0 && close_) close_(id_);
    id_ = -1;
  }
  hid_t get() const { return id_; }
  hid_t release() {
    const hid_t id = id_;
    id_ = -1;
    return id;
  }
  operator hid_t() const { return id_; }

 private:
  hid_t id_ = -1;
  Closer close_ = nullptr;
};

hid_t check(hid_t id, const std::string& what) {
  if (id < 0) throw IoError(what + ": " + h5_error());
  return id;
}
void check_status(herr_t s, const std::string& what) {
  if (s < 0) throw IoError(what + ": " + h5_error());
}

template <class T>
hid_t native_type() {
  return std::is_same_v<T, float> ? H5T_NATIVE_FLOAT : H5T_NATIVE_DOUBLE;
}
template <class T>
hid_t disk_type() {
  return std::is_same_v<T, float> ? H5T_IEEE_F32LE : H5T_IEEE_F64LE;
}

}  // namespace

struct H5File::Impl {
  Handle file;
  bool open = false;    // this rank holds the file (all ranks in collective mode, rank 0 in gather mode)
  bool closed = false;  // close() was called (on every rank)
};

namespace {

// In gather mode rank 0 does the work alone; its outcome (and result) is broadcast so every rank
// either continues with the same value or throws the same IoError.
template <class R, class F>
R on_root(MPI_Comm comm, int rank, F&& fn) {
  R result{};
  std::string err;
  int ok = 1;
  if (rank == 0) {
    try {
      result = fn();
    } catch (const std::exception& e) {
      ok = 0;
      err = e.what();
    }
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, comm);
  if (!ok) {
    int len = static_cast<int>(err.size());
    MPI_Bcast(&len, 1, MPI_INT, 0, comm);
    err.resize(static_cast<size_t>(len));
    MPI_Bcast(err.data(), len, MPI_CHAR, 0, comm);
    throw IoError(err);
  }
  if constexpr (std::is_same_v<R, std::string>) {
    int len = static_cast<int>(result.size());
    MPI_Bcast(&len, 1, MPI_INT, 0, comm);
    result.resize(static_cast<size_t>(len));
    MPI_Bcast(result.data(), len, MPI_CHAR, 0, comm);
  } else if constexpr (std::is_arithmetic_v<R>) {
    MPI_Bcast(&result, sizeof(R), MPI_BYTE, 0, comm);
  }
  return result;
}

struct Unit {};

}  // namespace

namespace {
// Runs fn on the ranks that hold the file: every rank (collective) or rank 0 (gather, broadcast).
template <class R, class F>
R holder_do(H5Mode mode, MPI_Comm comm, int rank, F&& fn) {
  if (mode == H5Mode::collective) return fn();
  return on_root<R>(comm, rank, fn);
}
}  // namespace

H5File::H5File(const std::string& path, Access access, MPI_Comm comm, H5Mode mode)
    : impl_(new Impl), path_(path), comm_(comm), mode_(mode) {
  quiet_hdf5();
  MPI_Comm_rank(comm, &rank_);
#if !PERKSOLVE_HDF5_PARALLEL
  if (mode_ == H5Mode::collective) {
    delete impl_;
    impl_ = nullptr;
    throw IoError("collective HDF5 I/O requested but this build has serial HDF5 only");
  }
#endif
  try {
    holder_do<Unit>(mode_, comm_, rank_, [&]() -> Unit {
      Handle fapl(check(H5Pcreate(H5P_FILE_ACCESS), "H5Pcreate"), H5Pclose);
#if PERKSOLVE_HDF5_PARALLEL
      if (mode_ == H5Mode::collective) {
        check_status(H5Pset_fapl_mpio(fapl, comm_, MPI_INFO_NULL), "H5Pset_fapl_mpio");
        // Metadata reads/writes done collectively (fewer small independent requests).
        H5Pset_all_coll_metadata_ops(fapl, true);
        H5Pset_coll_metadata_write(fapl, true);
      }
#endif
      hid_t f = access == Access::create ? H5Fcreate(path_.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl)
                                         : H5Fopen(path_.c_str(), H5F_ACC_RDONLY, fapl);
      if (f < 0)
        throw IoError(fmt::format("cannot {} HDF5 file '{}': {}", access == Access::create ? "create" : "open", path_,
                                  h5_error()));
      impl_->file = Handle(f, H5Fclose);
      impl_->open = true;
      return Unit{};
    });
  } catch (...) {
    delete impl_;
    impl_ = nullptr;
    throw;
  }
}

H5File::~H5File() {
  if (impl_) impl_->file.reset();  // errors on this path are ignored (close() reports them)
  delete impl_;
}

void H5File::close(bool durable) {
  if (!impl_ || impl_->closed) return;
  impl_->closed = true;  // on every rank, so that every rank takes part (or none does)
  holder_do<Unit>(mode_, comm_, rank_, [&]() -> Unit {
    // With MPI-IO, H5Fflush is MPI_File_sync (data on disk); only checkpoints need that.
    if (durable) check_status(H5Fflush(impl_->file, H5F_SCOPE_GLOBAL), "flushing " + path_);
    const hid_t f = impl_->file.release();
    impl_->open = false;
    // H5Fclose is called directly so its status is checked.
    if (H5Fclose(f) < 0) throw IoError("closing " + path_ + ": " + h5_error());
    return Unit{};
  });
}

void H5File::create_group(const std::string& path) {
  holder_do<Unit>(mode_, comm_, rank_, [&]() -> Unit {
    Handle g(check(H5Gcreate2(impl_->file, path.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                   "creating group " + path + " in " + path_),
             H5Gclose);
    return Unit{};
  });
}

bool H5File::exists(const std::string& path) {
  return holder_do<int>(mode_, comm_, rank_, [&]() -> int {
    // Check each component so a missing parent is "false", not an error.
    std::string partial;
    size_t pos = 1;
    while (pos <= path.size()) {
      const size_t next = path.find('/', pos);
      partial = path.substr(0, next == std::string::npos ? path.size() : next);
      const htri_t e = H5Lexists(impl_->file, partial.c_str(), H5P_DEFAULT);
      if (e <= 0) {
        H5Eclear2(H5E_DEFAULT);
        return 0;
      }
      if (next == std::string::npos) break;
      pos = next + 1;
    }
    return 1;
  }) != 0;
}

namespace {

Handle open_object(hid_t file, const std::string& object, const std::string& fpath) {
  return Handle(check(H5Oopen(file, object.c_str(), H5P_DEFAULT), "opening " + object + " in " + fpath), H5Oclose);
}

void write_attr(hid_t obj, const std::string& name, hid_t type, const void* value, const std::string& where) {
  if (H5Aexists(obj, name.c_str()) > 0) H5Adelete(obj, name.c_str());
  Handle space(check(H5Screate(H5S_SCALAR), "H5Screate"), H5Sclose);
  Handle a(check(H5Acreate2(obj, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT),
                 "creating attribute " + name + " of " + where),
           H5Aclose);
  check_status(H5Awrite(a, type, value), "writing attribute " + name + " of " + where);
}

Handle open_attr(hid_t obj, const std::string& name, const std::string& where) {
  return Handle(check(H5Aopen(obj, name.c_str(), H5P_DEFAULT), "attribute '" + name + "' missing in " + where),
                H5Aclose);
}

}  // namespace

void H5File::set_attr(const std::string& object, const std::string& name, const std::string& value) {
  holder_do<Unit>(mode_, comm_, rank_, [&]() -> Unit {
    Handle o = open_object(impl_->file, object, path_);
    Handle t(check(H5Tcopy(H5T_C_S1), "H5Tcopy"), H5Tclose);
    check_status(H5Tset_size(t, std::max<size_t>(1, value.size())), "H5Tset_size");
    check_status(H5Tset_strpad(t, H5T_STR_NULLPAD), "H5Tset_strpad");
    check_status(H5Tset_cset(t, H5T_CSET_UTF8), "H5Tset_cset");
    std::string padded = value;
    if (padded.empty()) padded.push_back('\0');
    write_attr(o, name, t, padded.data(), path_ + ":" + object);
    return Unit{};
  });
}

void H5File::set_attr(const std::string& object, const std::string& name, long value) {
  holder_do<Unit>(mode_, comm_, rank_, [&]() -> Unit {
    Handle o = open_object(impl_->file, object, path_);
    const long long v = value;
    write_attr(o, name, H5T_NATIVE_LLONG, &v, path_ + ":" + object);
    return Unit{};
  });
}

void H5File::set_attr(const std::string& object, const std::string& name, double value) {
  holder_do<Unit>(mode_, comm_, rank_, [&]() -> Unit {
    Handle o = open_object(impl_->file, object, path_);
    write_attr(o, name, H5T_NATIVE_DOUBLE, &value, path_ + ":" + object);
    return Unit{};
  });
}

void H5File::set_attr_u64(const std::string& object, const std::string& name, unsigned long long value) {
  holder_do<Unit>(mode_, comm_, rank_, [&]() -> Unit {
    Handle o = open_object(impl_->file, object, path_);
    write_attr(o, name, H5T_NATIVE_ULLONG, &value, path_ + ":" + object);
    return Unit{};
  });
}

bool H5File::has_attr(const std::string& object, const std::string& name) {
  return holder_do<int>(mode_, comm_, rank_, [&]() -> int {
    Handle o = open_object(impl_->file, object, path_);
    const htri_t e = H5Aexists(o, name.c_str());
    if (e < 0) throw IoError("checking attribute " + name + " of " + path_ + ":" + object + ": " + h5_error());
    return e > 0 ? 1 : 0;
  }) != 0;
}

std::string H5File::attr_string(const std::string& object, const std::string& name) {
  return holder_do<std::string>(mode_, comm_, rank_, [&]() -> std::string {
    Handle o = open_object(impl_->file, object, path_);
    Handle a = open_attr(o, name, path_ + ":" + object);
    Handle t(check(H5Aget_type(a), "H5Aget_type"), H5Tclose);
    if (H5Tget_class(t) != H5T_STRING) throw IoError("attribute " + name + " of " + path_ + " is not a string");
    if (H5Tis_variable_str(t) > 0) {
      Handle mt(check(H5Tcopy(H5T_C_S1), "H5Tcopy"), H5Tclose);
      H5Tset_size(mt, H5T_VARIABLE);
      char* s = nullptr;
      check_status(H5Aread(a, mt, &s), "reading attribute " + name);
      std::string out = s ? s : "";
      H5free_memory(s);
      return out;
    }
    const size_t n = H5Tget_size(t);
    std::string buf(n, '\0');
    check_status(H5Aread(a, t, buf.data()), "reading attribute " + name + " of " + path_);
    const size_t end = buf.find('\0');
    if (end != std::string::npos) buf.resize(end);
    return buf;
  });
}

long H5File::attr_long(const std::string& object, const std::string& name) {
  return holder_do<long>(mode_, comm_, rank_, [&]() -> long {
    Handle o = open_object(impl_->file, object, path_);
    Handle a = open_attr(o, name, path_ + ":" + object);
    long long v = 0;
    check_status(H5Aread(a, H5T_NATIVE_LLONG, &v), "reading attribute " + name + " of " + path_);
    return static_cast<long>(v);
  });
}

double H5File::attr_double(const std::string& object, const std::string& name) {
  return holder_do<double>(mode_, comm_, rank_, [&]() -> double {
    Handle o = open_object(impl_->file, object, path_);
    Handle a = open_attr(o, name, path_ + ":" + object);
    double v = 0;
    check_status(H5Aread(a, H5T_NATIVE_DOUBLE, &v), "reading attribute " + name + " of " + path_);
    return v;
  });
}

unsigned long long H5File::attr_u64(const std::string& object, const std::string& name) {
  return holder_do<unsigned long long>(mode_, comm_, rank_, [&]() -> unsigned long long {
    Handle o = open_object(impl_->file, object, path_);
    Handle a = open_attr(o, name, path_ + ":" + object);
    unsigned long long v = 0;
    check_status(H5Aread(a, H5T_NATIVE_ULLONG, &v), "reading attribute " + name + " of " + path_);
    return v;
  });
}

void H5File::write_vector(const std::string& path, const std::vector<double>& v) {
  holder_do<Unit>(mode_, comm_, rank_, [&]() -> Unit {
    const hsize_t n = v.size();
    Handle space(check(H5Screate_simple(1, &n, nullptr), "H5Screate_simple"), H5Sclose);
    Handle d(check(H5Dcreate2(impl_->file, path.c_str(), H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                   "creating dataset " + path + " in " + path_),
             H5Dclose);
    Handle dxpl(check(H5Pcreate(H5P_DATASET_XFER), "H5Pcreate"), H5Pclose);
#if PERKSOLVE_HDF5_PARALLEL
    // Every rank passes the same data; a collective write of the whole (small) array is fine.
    if (mode_ == H5Mode::collective) H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE);
#endif
    check_status(H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, dxpl, v.data()), "writing " + path);
    return Unit{};
  });
}

std::string H5File::dataset_type(const std::string& path) {
  return holder_do<std::string>(mode_, comm_, rank_, [&]() -> std::string {
    Handle d(check(H5Dopen2(impl_->file, path.c_str(), H5P_DEFAULT), "dataset '" + path + "' missing in " + path_),
             H5Dclose);
    Handle t(check(H5Dget_type(d), "H5Dget_type"), H5Tclose);
    if (H5Tget_class(t) != H5T_FLOAT) return std::string("other");
    return std::string(H5Tget_size(t) == 4 ? "float" : H5Tget_size(t) == 8 ? "double" : "other");
  });
}

namespace {

// HDF5 dims (slowest first) of an x-fastest extent triple.
std::vector<hsize_t> h5_dims(int ndims, const std::array<long, 3>& x_fastest) {
  std::vector<hsize_t> d;
  for (int a = ndims - 1; a >= 0; --a) d.push_back(static_cast<hsize_t>(x_fastest[a]));
  return d;
}

// Every rank's block, on every rank.
std::vector<Block> all_blocks(MPI_Comm comm, const Block& mine) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  long m[6] = {mine.offset[0], mine.offset[1], mine.offset[2], mine.count[0], mine.count[1], mine.count[2]};
  std::vector<long> all(6 * size);
  MPI_Allgather(m, 6, MPI_LONG, all.data(), 6, MPI_LONG, comm);
  std::vector<Block> blocks;
  for (int r = 0; r < size; ++r)
    blocks.push_back(Block{{all[6 * r], all[6 * r + 1], all[6 * r + 2]}, {all[6 * r + 3], all[6 * r + 4], all[6 * r + 5]}});
  return blocks;
}

template <class T>
MPI_Datatype mpi_type() {
  return std::is_same_v<T, float> ? MPI_FLOAT : MPI_DOUBLE;
}

// The sub-box (start, count) of an x-fastest array with extents `outer`, as an MPI datatype.
MPI_Datatype box_type(const std::array<long, 3>& outer, const std::array<long, 3>& start,
                      const std::array<long, 3>& count, MPI_Datatype elem) {
  int sizes[3] = {static_cast<int>(outer[2]), static_cast<int>(outer[1]), static_cast<int>(outer[0])};
  int subs[3] = {static_cast<int>(count[2]), static_cast<int>(count[1]), static_cast<int>(count[0])};
  int starts[3] = {static_cast<int>(start[2]), static_cast<int>(start[1]), static_cast<int>(start[0])};
  MPI_Datatype t;
  MPI_Type_create_subarray(3, sizes, subs, starts, MPI_ORDER_C, elem, &t);
  MPI_Type_commit(&t);
  return t;
}

// Slab of the slowest axis (z in 3D, y in 2D) that rank r holds for writing.
[[maybe_unused]] void slab_of(long n, int parts, int r, long& start, long& count) {
  int c = 0;
  Decomposition::split(n, parts, r, start, c);
  count = c;
}

template <class T>
std::unique_ptr<T[]> uninitialized(long n) {
  return std::unique_ptr<T[]>(new T[static_cast<size_t>(std::max(1L, n))]);
}

constexpr int kTag = 7301;

// Rank 0's side of moving every rank's block between its global array `whole` (x fastest, extents
// `global`) and the ranks: one subarray receive (gather) or send (scatter) per other rank, and its
// own block copied row by row between `whole` and `mine`. The other ranks Send/Recv `block.size()`.
enum class Direction { gather, scatter };
template <class T>
void root_transfer_blocks(Direction dir, MPI_Comm comm, const std::array<long, 3>& global,
                          const std::vector<Block>& blocks, const Block& block, T* whole, T* mine) {
  std::vector<MPI_Request> reqs;
  std::vector<MPI_Datatype> types;
  for (int r = 1; r < static_cast<int>(blocks.size()); ++r) {
    if (blocks[r].size() == 0) continue;
    types.push_back(box_type(global, blocks[r].offset, blocks[r].count, mpi_type<T>()));
    reqs.emplace_back();
    if (dir == Direction::gather) MPI_Irecv(whole, 1, types.back(), r, kTag, comm, &reqs.back());
    else MPI_Isend(whole, 1, types.back(), r, kTag, comm, &reqs.back());
  }
  size_t p = 0;
  for (long k = 0; k < block.count[2]; ++k)
    for (long j = 0; j < block.count[1]; ++j) {
      const long row = block.offset[0] + global[0] * ((block.offset[1] + j) + global[1] * (block.offset[2] + k));
      if (dir == Direction::gather) std::memcpy(&whole[row], &mine[p], sizeof(T) * block.count[0]);
      else std::memcpy(&mine[p], &whole[row], sizeof(T) * block.count[0]);
      p += block.count[0];
    }
  MPI_Waitall(static_cast<int>(reqs.size()), reqs.data(), MPI_STATUSES_IGNORE);
  for (auto& t : types) MPI_Type_free(&t);
}

}  // namespace

template <class T>
double H5File::write_block(const std::string& path, int ndims, const std::array<long, 3>& global, const Block& block,
                           const T* data) {
  const std::vector<hsize_t> gdims = h5_dims(ndims, global);
  auto create = [&](hid_t space, const std::vector<hsize_t>& chunk = {}) {
    Handle dcpl(check(H5Pcreate(H5P_DATASET_CREATE), "H5Pcreate"), H5Pclose);
    if (!chunk.empty()) check_status(H5Pset_chunk(dcpl, static_cast<int>(chunk.size()), chunk.data()), "H5Pset_chunk");
    // Every element is written: never write fill values first (that would double the I/O).
    H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER);
    H5Pset_alloc_time(dcpl, H5D_ALLOC_TIME_EARLY);
    return Handle(check(H5Dcreate2(impl_->file, path.c_str(), disk_type<T>(), space, H5P_DEFAULT, dcpl, H5P_DEFAULT),
                        "creating dataset " + path + " in " + path_),
                  H5Dclose);
  };
  int size = 1;
  MPI_Comm_size(comm_, &size);
  const std::vector<Block> blocks = all_blocks(comm_, block);
  if (mode_ == H5Mode::collective) {
#if PERKSOLVE_HDF5_PARALLEL
    // The blocks of a Cartesian decomposition are strided in a contiguous dataset (rows of a few
    // KiB), which MPI-IO writes slowly. Two layouts avoid that:
    //  - blocks that tile the array regularly (every block but the last along an axis has the same
    //    extent, the usual case): a chunked dataset with one chunk per block, so each rank's block
    //    is one contiguous extent of the file;
    //  - otherwise: a contiguous dataset, the blocks first redistributed (one MPI_Alltoallv) into
    //    contiguous slabs of the slowest axis, one per rank (a two-phase write done here).
    // Either way every rank writes its own contiguous hyperslab in a collective H5Dwrite; the MPI-IO
    // layer is asked for plain (independent) low-level writes since there is nothing left to merge.
    const int slow = ndims - 1;
    std::vector<hsize_t> chunk;
    {
      std::array<long, 3> c{1, 1, 1};
      for (const Block& b : blocks)
        for (int a = 0; a < 3; ++a) c[a] = std::max(c[a], b.count[a]);
      bool aligned = static_cast<double>(c[0]) * c[1] * c[2] * sizeof(T) < 4.0e9;  // HDF5 chunk limit 4 GiB
      for (const Block& b : blocks)
        for (int a = 0; a < 3; ++a)
          aligned = aligned && b.size() > 0 && b.offset[a] % c[a] == 0 &&
                    (b.count[a] == c[a] || b.offset[a] + b.count[a] == global[a]);
      if (aligned) chunk = h5_dims(ndims, c);
    }
    long s0 = 0, sn = 0;
    slab_of(global[slow], size, rank_, s0, sn);
    Block slab;
    slab.count = global;
    slab.offset[slow] = s0;
    slab.count[slow] = sn;
    bool small = chunk.empty();  // Alltoallv counts and displacements are ints
    for (const Block& b : blocks) small = small && static_cast<double>(b.size()) < 2.0e9;
    small = small && static_cast<double>(slab.size()) < 2.0e9;
    std::unique_ptr<T[]> buf;
    const T* src = data;
    Block mine = block;
    if (small) {
      // Each rank's part of a slab is a run of whole planes of its block (contiguous in memory):
      // contiguous messages (single-copy transport), then rows copied into place.
      buf = uninitialized<T>(slab.size());
      std::vector<int> scounts(size, 0), sdispls(size, 0), rcounts(size, 0), rdispls(size, 0);
      const long plane = block.count[slow] > 0 ? block.size() / block.count[slow] : 0;
      long rtotal = 0;
      std::vector<std::array<long, 2>> rplanes(size, {0, 0});  // per source: first plane (slab-relative), count
      for (int r = 0; r < size; ++r) {
        long rs = 0, rn = 0;
        slab_of(global[slow], size, r, rs, rn);
        const long lo = std::max(block.offset[slow], rs), hi = std::min(block.offset[slow] + block.count[slow], rs + rn);
        if (hi > lo && plane > 0) {
          scounts[r] = static_cast<int>((hi - lo) * plane);
          sdispls[r] = static_cast<int>((lo - block.offset[slow]) * plane);
        }
        const Block& b = blocks[r];
        const long blo = std::max(b.offset[slow], s0), bhi = std::min(b.offset[slow] + b.count[slow], s0 + sn);
        if (bhi > blo && b.size() > 0) {
          rcounts[r] = static_cast<int>(b.size() / b.count[slow] * (bhi - blo));
          rdispls[r] = static_cast<int>(rtotal);
          rtotal += rcounts[r];
          rplanes[r] = {blo - s0, bhi - blo};
        }
      }
      std::unique_ptr<T[]> tmp = uninitialized<T>(rtotal);
      MPI_Alltoallv(data, scounts.data(), sdispls.data(), mpi_type<T>(), tmp.get(), rcounts.data(), rdispls.data(),
                    mpi_type<T>(), comm_);
      // Rows (x runs) of each source's planes into the slab (x fastest, then the middle axis).
      const long nx = slab.count[0], ny = ndims == 3 ? slab.count[1] : 1;
      for (int r = 0; r < size; ++r) {
        if (rcounts[r] == 0) continue;
        const Block& b = blocks[r];
        const T* in = tmp.get() + rdispls[r];
        const long rows_per_plane = ndims == 3 ? b.count[1] : 1;
        for (long q = 0; q < rplanes[r][1]; ++q)
          for (long j = 0; j < rows_per_plane; ++j) {
            const long jj = ndims == 3 ? b.offset[1] + j : 0;
            const long plane_index = rplanes[r][0] + q;
            // 3D: slab[(z * ny + y) * nx + x]; 2D: slab[y * nx + x] with y the slab's plane.
            T* out = buf.get() + (plane_index * ny + jj) * nx + b.offset[0];
            std::memcpy(out, in, sizeof(T) * b.count[0]);
            in += b.count[0];
          }
      }
      src = buf.get();
      mine = slab;
    }
    Handle fspace(check(H5Screate_simple(ndims, gdims.data(), nullptr), "H5Screate_simple"), H5Sclose);
    Handle d = create(fspace, chunk);
    const std::vector<hsize_t> start = h5_dims(ndims, mine.offset), count = h5_dims(ndims, mine.count);
    const bool empty = mine.size() == 0;
    if (empty) H5Sselect_none(fspace);
    else check_status(H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start.data(), nullptr, count.data(), nullptr),
                      "selecting hyperslab");
    Handle mspace(check(H5Screate_simple(ndims, count.data(), nullptr), "H5Screate_simple"), H5Sclose);
    if (empty) H5Sselect_none(mspace);
    Handle dxpl(check(H5Pcreate(H5P_DATASET_XFER), "H5Pcreate"), H5Pclose);
    check_status(H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE), "H5Pset_dxpl_mpio");
    if (small || !chunk.empty()) H5Pset_dxpl_mpio_collective_opt(dxpl, H5FD_MPIO_INDIVIDUAL_IO);
    check_status(H5Dwrite(d, native_type<T>(), mspace, fspace, dxpl, src), "writing " + path + " to " + path_);
#endif
    return static_cast<double>(block.size()) * sizeof(T);
  }
  // Gather mode: rank 0 receives every block straight into place (subarray datatypes) and writes
  // the whole array.
  std::unique_ptr<T[]> whole;
  if (rank_ == 0) {
    whole = uninitialized<T>(global[0] * global[1] * global[2]);
    root_transfer_blocks(Direction::gather, comm_, global, blocks, block, whole.get(), const_cast<T*>(data));
  } else if (block.size() > 0) {
    MPI_Send(data, static_cast<int>(block.size()), mpi_type<T>(), 0, kTag, comm_);
  }
  on_root<Unit>(comm_, rank_, [&]() {
    Handle fspace(check(H5Screate_simple(ndims, gdims.data(), nullptr), "H5Screate_simple"), H5Sclose);
    Handle d = create(fspace);
    check_status(H5Dwrite(d, native_type<T>(), H5S_ALL, H5S_ALL, H5P_DEFAULT, whole.get()),
                 "writing " + path + " to " + path_);
    return Unit{};
  });
  return static_cast<double>(block.size()) * sizeof(T);
}

template <class T>
void H5File::read_block(const std::string& path, int ndims, const std::array<long, 3>& global, const Block& block,
                        T* data) {
  const std::vector<hsize_t> gdims = h5_dims(ndims, global);
  auto open_checked = [&]() {
    Handle d(check(H5Dopen2(impl_->file, path.c_str(), H5P_DEFAULT), "dataset '" + path + "' missing in " + path_),
             H5Dclose);
    Handle t(check(H5Dget_type(d), "H5Dget_type"), H5Tclose);
    if (H5Tget_class(t) != H5T_FLOAT || H5Tget_size(t) != sizeof(T))
      throw IoError(fmt::format("dataset '{}' in {} has the wrong element type (expected {})", path, path_,
                                sizeof(T) == 4 ? "float" : "double"));
    Handle s(check(H5Dget_space(d), "H5Dget_space"), H5Sclose);
    const int nd = H5Sget_simple_extent_ndims(s);
    std::vector<hsize_t> dims(nd > 0 ? nd : 0);
    if (nd > 0) H5Sget_simple_extent_dims(s, dims.data(), nullptr);
    if (dims != gdims) {
      std::string got, want;
      for (auto v : dims) got += (got.empty() ? "" : " x ") + std::to_string(v);
      for (auto v : gdims) want += (want.empty() ? "" : " x ") + std::to_string(v);
      throw IoError(fmt::format("dataset '{}' in {} has extents {} but {} were expected", path, path_, got, want));
    }
    return d;
  };
  if (mode_ == H5Mode::collective) {
#if PERKSOLVE_HDF5_PARALLEL
    // Open/type/extent checks are identical on every rank (same file), so failures are symmetric.
    Handle d = open_checked();
    Handle fspace(check(H5Dget_space(d), "H5Dget_space"), H5Sclose);
    const std::vector<hsize_t> start = h5_dims(ndims, block.offset), count = h5_dims(ndims, block.count);
    const bool empty = block.size() == 0;
    if (empty) H5Sselect_none(fspace);
    else check_status(H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start.data(), nullptr, count.data(), nullptr),
                      "selecting hyperslab");
    Handle mspace(check(H5Screate_simple(ndims, count.data(), nullptr), "H5Screate_simple"), H5Sclose);
    if (empty) H5Sselect_none(mspace);
    Handle dxpl(check(H5Pcreate(H5P_DATASET_XFER), "H5Pcreate"), H5Pclose);
    check_status(H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE), "H5Pset_dxpl_mpio");
    check_status(H5Dread(d, native_type<T>(), mspace, fspace, dxpl, data), "reading " + path + " from " + path_);
#endif
    return;
  }
  // Gather mode: rank 0 reads the whole array and sends each rank its block (subarray datatypes).
  int size = 1;
  MPI_Comm_size(comm_, &size);
  const std::vector<Block> blocks = all_blocks(comm_, block);
  std::unique_ptr<T[]> whole;
  on_root<Unit>(comm_, rank_, [&]() {
    Handle d = open_checked();
    whole = uninitialized<T>(global[0] * global[1] * global[2]);
    check_status(H5Dread(d, native_type<T>(), H5S_ALL, H5S_ALL, H5P_DEFAULT, whole.get()),
                 "reading " + path + " from " + path_);
    return Unit{};
  });
  if (rank_ == 0) {
    root_transfer_blocks(Direction::scatter, comm_, global, blocks, block, whole.get(), data);
  } else if (block.size() > 0) {
    MPI_Recv(data, static_cast<int>(block.size()), mpi_type<T>(), 0, kTag, comm_, MPI_STATUS_IGNORE);
  }
}

#endif  // PERKSOLVE_HAVE_HDF5

template double H5File::write_block<float>(const std::string&, int, const std::array<long, 3>&, const Block&,
                                           const float*);
template double H5File::write_block<double>(const std::string&, int, const std::array<long, 3>&, const Block&,
                                            const double*);
template void H5File::read_block<float>(const std::string&, int, const std::array<long, 3>&, const Block&, float*);
template void H5File::read_block<double>(const std::string&, int, const std::array<long, 3>&, const Block&, double*);

}  // namespace perksolve::io
