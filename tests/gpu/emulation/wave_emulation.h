// A host model of one work-group of 64 work-items (one AMDGPU wavefront)
// for device code rewritten by amdgcn_host_ir.py: each lane is a host
// thread; a cross-lane read (ds_bpermute, readlane) writes the lane's value
// to its slot, meets the other lanes at a barrier, reads the slot of the
// lane it names (ds_bpermute: by its byte address, modulo the wavefront),
// and meets them again; a ballot is such an exchange of the predicates;
// s_barrier is a barrier of the 64. Every lane runs every cross-lane
// operation (no divergence: all lanes are active).
#ifndef ADCC_TESTS_WAVE_EMULATION_H
#define ADCC_TESTS_WAVE_EMULATION_H

#include "lane_pool.h"

#include <barrier>
#include <cstdint>
#include <functional>

namespace wave_emulation {
constexpr unsigned Size = 64;
inline std::barrier<> *Group;
inline uint64_t Slots[Size];
inline thread_local unsigned Lane;

inline void enterLane(unsigned L) { Lane = L; }

/// Runs \p Body on the 64 lanes, as a launch of one work-group would.
inline void launch(const std::function<void()> &Body) {
  static std::barrier<> B(Size);
  static LanePool<Size> Wave(enterLane);
  Group = &B;
  Wave.run(Body);
}

/// The value \p V of every lane exchanged: lane \p From's.
inline uint64_t exchange(uint64_t V, unsigned From) {
  Slots[Lane] = V;
  Group->arrive_and_wait();
  uint64_t R = Slots[From % Size];
  Group->arrive_and_wait();
  return R;
}
} // namespace wave_emulation

extern "C" {
/// 0: the work-item id (the lane); 1: the wavefront's size.
uint32_t emu_wave(uint32_t Which) {
  return Which == 0 ? wave_emulation::Lane : wave_emulation::Size;
}

/// mbcnt_lo (\p Hi 0) and mbcnt_hi: \p Init plus the set bits of \p Mask
/// for the lanes below this one, among lanes 0-31 or 32-63.
uint32_t emu_mbcnt(uint32_t Hi, uint32_t Mask, uint32_t Init) {
  unsigned Lane = wave_emulation::Lane;
  unsigned Below = Hi ? (Lane > 32 ? Lane - 32 : 0) : (Lane < 32 ? Lane : 32);
  uint64_t Bits = Below >= 32 ? Mask : Mask & ((uint64_t(1) << Below) - 1);
  return Init + uint32_t(__builtin_popcountll(Bits));
}

/// The value \p V of lane \p From (readlane; ds_bpermute's address / 4).
uint64_t emu_read_lane(uint64_t V, uint32_t From) {
  return wave_emulation::exchange(V, From);
}

/// The lanes whose \p P is true, as bits.
uint64_t emu_ballot(bool P) {
  using namespace wave_emulation;
  Slots[Lane] = P;
  Group->arrive_and_wait();
  uint64_t Bits = 0;
  for (unsigned L = 0; L < Size; ++L)
    Bits |= (Slots[L] & 1) << L;
  Group->arrive_and_wait();
  return Bits;
}

void emu_barrier() { wave_emulation::Group->arrive_and_wait(); }
}

#include "dpp_lanes.h"

#endif // ADCC_TESTS_WAVE_EMULATION_H
