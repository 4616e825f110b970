// Checkpoint files: a solver's complete SolverState (work fields in global layout, named scalars,
// iteration) plus the resolved deck, in one HDF5 file per checkpoint, PREFIX_NNNNNNNN.h5.
//
// Written atomically: a temporary file in the same directory, flushed (MPI_File_sync / fsync),
// renamed into place, directory fsync'ed; only then are older files beyond `keep` removed. Every
// field carries a decomposition-independent checksum and the file a checksum over all its content,
// so a truncated or corrupted file is detected on restart (IoError) and never replaces a good one.
#pragma once

#include <mpi.h>

#include <string>
#include <utility>
#include <vector>

#include "framework/config/deck.hpp"
#include "framework/grid/decomposition.hpp"
#include "framework/io/h5file.hpp"
#include "framework/solver/solver.hpp"

namespace perksolve::io {

struct CheckpointMeta {
  std::string deck;  // resolved deck (TOML)
  std::string solver, problem;
};

// Writes `state` as checkpoint `dir/prefix_<iteration>.h5` and removes all but the newest `keep`.
// Collective. Returns this rank's bytes of field data; the final path in `written`.
template <class Real>
double write_checkpoint(const std::string& dir, const std::string& prefix, long keep, H5Mode mode,
                        const Decomposition& d, Backend<Real>& be, const SolverState<Real>& state,
                        const CheckpointMeta& meta, std::string* written = nullptr);

// This rank's part of a checkpoint, read and verified (checksums, precision, extents).
template <class Real>
struct CheckpointData {
  std::string path;
  long iteration = 0;
  std::vector<std::pair<std::string, std::vector<Real>>> fields;  // owned blocks, x fastest
  std::vector<std::pair<std::string, double>> scalars;
  double bytes = 0.0;  // field bytes this rank read
};

template <class Real>
CheckpointData<Real> read_checkpoint(const std::string& path, H5Mode mode, const Decomposition& d);

struct CheckpointFile {
  std::string path;
  long iteration = 0;
};
// Complete checkpoint files PREFIX_N.h5 in `dir`, oldest first (temporary files are ignored).
std::vector<CheckpointFile> list_checkpoints(const std::string& dir, const std::string& prefix);

// --restart argument -> checkpoint file: a file as is; a directory -> its newest checkpoint file
// (any prefix). Throws IoError when there is none.
std::string resolve_restart_path(const std::string& arg);

// The resolved deck embedded in a checkpoint (rank 0 reads, every rank gets it). Collective; a
// missing, truncated or corrupted file raises IoError on every rank with a clear message.
std::string read_checkpoint_deck(const std::string& path, MPI_Comm comm);

// Refuses (DeckError at the key) every difference between the checkpoint's deck and the restart
// deck except those restart_may_change() allows.
void check_restart_deck(const config::Deck& now, const config::Deck& saved, const std::string& checkpoint_path);

// The complete restart preparation done by perksolve_main: resolve the path, read and parse the
// embedded deck, compare. Returns the checkpoint path.
std::string prepare_restart(const config::Deck& deck, const std::string& restart_arg, MPI_Comm comm);

}  // namespace perksolve::io
