// A host model of one block of 32 threads (one warp) for device code
// rewritten by nvptx_host_ir.py: each lane is a host thread; a shuffle is
// PTX's shfl.sync (ptx_shuffle.h: modes, segments, clamps, the
// predicate), exchanged through a slot per lane between two barriers;
// __syncthreads() is a barrier of the 32 threads. Every lane must be in
// every shuffle's mask.
#ifndef ADCC_TESTS_WARP_EMULATION_H
#define ADCC_TESTS_WARP_EMULATION_H

#include "lane_pool.h"
#include "ptx_shuffle.h"

#include <barrier>
#include <cstdint>
#include <functional>

namespace warp_emulation {
inline std::barrier<> *Block;
inline uint32_t Slots[32];
inline thread_local unsigned Lane;

inline void enterLane(unsigned L) { Lane = L; }

/// Runs \p Body on 32 lanes, as a launch <<<1, 32>>> would.
inline void launch(const std::function<void()> &Body) {
  static std::barrier<> B(32);
  static LanePool<32> Warp(enterLane);
  Block = &B;
  Warp.run(Body);
}
} // namespace warp_emulation

extern "C" {
uint32_t emu_sreg(uint32_t Which) {
  // tid, ntid, ctaid, nctaid (x, y, z), laneid: one block of 32.
  static const uint32_t Fixed[] = {0, 0, 0, 32, 1, 1, 0, 0, 0, 1, 1, 1, 0};
  return Which == 0 || Which == 12 ? warp_emulation::Lane : Fixed[Which];
}

void emu_barrier() { warp_emulation::Block->arrive_and_wait(); }

/// PTX's shfl.sync (ptx_shuffle.h) among the 32 lanes.
uint64_t emu_shfl(uint32_t Mode, uint32_t Mask, uint32_t V, uint32_t B,
                  uint32_t C) {
  using namespace warp_emulation;
  return ptxShuffle(
      Lane, Slots, [] { Block->arrive_and_wait(); }, Mode, Mask, V, B, C);
}
}

#endif // ADCC_TESTS_WARP_EMULATION_H
