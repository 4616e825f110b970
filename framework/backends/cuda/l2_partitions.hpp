// Which of the device's L2 partitions each SM sits beside (H100 / H200: two partitions joined by a fabric). Used by
// the streaming stencils' partition-affine schedule (docs/perf/two-load-stencils.md, eleventh round): the SMs of one
// partition stream one part of the domain, so a tile's halo rows, just read by a neighbouring tile's block beside the
// same partition, come from that partition's copy instead of across the fabric.
#pragma once

#include <vector>

namespace perksolve::cuda_detail {

struct L2Partitions {
  bool valid = false;                // two groups found (false: one partition, or a launch failed)
  std::vector<unsigned> sm;          // the SM ids (%smid) of the device, ascending
  std::vector<double> cycles;        // mean L2 latency of each SM over a chain a reference SM read, cycles per load
  std::vector<unsigned char> group;  // 0: beside the reference SM's partition (sm[0]); 1: across
  int count[2] = {0, 0};             // SMs per group
  // One byte per SM id (0 .. max id): the group, for the kernels.
  std::vector<unsigned char> by_sm_id() const;
};

// Measures it on the current device: for every SM, a block on the reference SM (ref_sm, or the lowest id when it has
// none) reads `lines` 128-byte lines, then a block on the SM walks them as a dependent chain, `reps` times with L2
// evicted in between. SMs beside the reference's partition hit every line close by (it keeps copies of far lines);
// the others cross the fabric for about half. Groups: below / above halfway between the extremes, valid when the gap
// between the groups is at least a quarter of the spread (the H200: 285-308 against 371-394 cycles). About 5 ms.
L2Partitions probe_l2_partitions(unsigned ref_sm = 0, int reps = 1, int lines = 2048);

}  // namespace perksolve::cuda_detail
