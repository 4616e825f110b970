// Deck tables of the output layer: [output] (fields in HDF5 + XDMF, histories) and [checkpoint].
#pragma once

#include <string>
#include <vector>

#include "framework/config/deck.hpp"

namespace perksolve::io {

// Adds [output] and [checkpoint] to the schema registry (idempotent). Called by perksolve_main after
// config::register_core_schema(); decks validated without it simply get the defaults below.
void register_io_schema();

struct OutputOptions {
  std::string directory = "output";
  std::string prefix = "perksolve";
  long every = 0;       // field output every N iterations (0 = none)
  bool at_end = false;  // field output of the final state
  std::vector<std::string> fields{"solution"};  // solution, rhs, residual, error
  std::string precision = "double";             // on disk: double or float
  bool history = false;                         // residual/timer history CSV + JSON run summary
  std::string hdf5_mode = "auto";               // auto, collective, gather
  bool fields_enabled() const { return every > 0 || at_end; }
};

struct CheckpointOptions {
  bool enabled = false;  // SIGTERM/SIGUSR1 write a checkpoint (implied by every / walltime_s)
  long every = 0;        // checkpoint every N iterations (0 = none)
  long keep = 2;         // keep the newest K checkpoint files
  double walltime_s = 0.0;  // write a checkpoint and stop at this elapsed wall time (0 = none)
  std::string directory = "checkpoints";
  std::string prefix = "checkpoint";
  bool active() const { return enabled || every > 0 || walltime_s > 0; }
};

struct IoOptions {
  OutputOptions output;
  CheckpointOptions checkpoint;
};

// From the deck (keys absent from the deck keep the defaults above). Throws DeckError at the
// offending key for choices this build cannot honour (e.g. HDF5 output without HDF5).
IoOptions io_options_from_deck(const config::Deck& deck);

// Keys that may differ between a checkpoint's embedded deck and the deck of the restart.
bool restart_may_change(const std::string& dotted_key);
std::string restart_changeable_keys_help();

}  // namespace perksolve::io
