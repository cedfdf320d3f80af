// A host model of a CUDA GPU for whole programs whose device code was
// rewritten for the host by nvptx_host_ir.py --grid (or, for HIP programs
// of AMDGPU code, amdgcn_host_ir.py --grid: the same model under HIP's
// names, with AMDGPU's implicit kernel arguments): the few functions of
// the CUDA runtime that <adcc/kernels.hpp> and the tests call, and a
// launch that runs a kernel's device code (the code adcc made for the GPU:
// tape slots, atomic adjoint updates, mirrored barriers) over the grid.
//
// - A launch runs the blocks one after the other; the threads of a block
//   are host threads that run at the same time, so that the atomic adds of
//   the device code are real atomic operations between threads, and a
//   plain update where several threads meet can lose an addition as on a
//   GPU. __syncthreads() is a barrier of the block's threads; a warp
//   shuffle (PTX's shfl.sync, ptx_shuffle.h) a barrier of its warp's 32;
//   in a HIP launch, AMDGPU's cross-lane operations (ds_bpermute,
//   readlane, ballot) an exchange among its wavefront's 64.
// - The block's dynamic shared memory (`adcc_kernel_shared`; the
//   program's `extern __shared__` arrays are it) is one buffer (one block
//   at a time), filled with NaNs before each block, as memory that
//   cudaMalloc returns is: code that reads what it has not written gets
//   NaNs, not zeros. So are the static `__shared__` arrays
//   (`emu_shared_globals`), whose contents a GPU does not keep between
//   blocks or kernels either.
// - Device memory is host memory (cudaMalloc and cudaMallocManaged alike),
//   cudaMemcpy a copy; the device is device 0 of one.
//
// Not a CUDA runtime: what a program calls that is not here fails to link.
#include "ptx_shuffle.h"

#include <algorithm>
#include <barrier>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

namespace {

struct Dim3 {
  unsigned x, y, z;
};

/// The kernels of the device code: the host's launch stub, the entry that
/// takes cudaLaunchKernel's argument array (nvptx_host_ir.py makes them).
struct KernelEntry {
  const void *Stub;
  void (*Entry)(void **);
};

/// A static `__shared__` array of the device code and its bytes.
struct SharedGlobal {
  void *Address;
  std::size_t Bytes;
};

constexpr std::size_t SharedBytes = 256 * 1024;
constexpr int LaunchFailed = 719; // cudaErrorLaunchFailure

Dim3 Grid, Block, PushedGrid, PushedBlock;
std::size_t PushedShared, LaunchShared;
thread_local unsigned Tid[3], Ctaid[3];
std::barrier<> *BlockBarrier;
/// The barriers of the block's warps, the values its lanes shuffle.
std::deque<std::barrier<>> *WarpBarriers;
uint32_t WarpSlots[1024];
/// The threads of a warp: 32 for CUDA, 64 (a wavefront) for HIP's launches.
unsigned WarpSize = 32;
/// The values the lanes of the block's wavefronts exchange (HIP).
uint64_t WaveSlots[1024];
int LastError;

/// Memory as cudaMalloc leaves it: NaNs (all ones) rather than zeros.
void poison(void *P, std::size_t N) { std::memset(P, 0xff, N); }

/// Where each allocation begins, and its bytes (cuMemGetAddressRange).
std::map<std::uintptr_t, std::size_t> Allocations;
std::mutex AllocationsLock;

void *allocate(std::size_t Bytes) {
  void *P = std::aligned_alloc(256, (Bytes + 255) / 256 * 256 + 256);
  if (P) {
    poison(P, Bytes);
    std::lock_guard<std::mutex> Lock(AllocationsLock);
    Allocations[reinterpret_cast<std::uintptr_t>(P)] = Bytes;
  }
  return P;
}

/// The driver's cuMemGetAddressRange, as cudaGetDriverEntryPoint gives it.
int memGetAddressRange(unsigned long long *Base, std::size_t *Size,
                       unsigned long long Ptr) {
  std::lock_guard<std::mutex> Lock(AllocationsLock);
  auto It = Allocations.upper_bound(Ptr);
  if (It == Allocations.begin())
    return 1; // CUDA_ERROR_INVALID_VALUE
  --It;
  if (Ptr - It->first >= std::max<std::size_t>(It->second, 1))
    return 1;
  *Base = It->first;
  *Size = It->second;
  return 0;
}

} // namespace

extern "C" {
alignas(16) unsigned char adcc_kernel_shared[SharedBytes];
extern const KernelEntry emu_kernels[];
extern const SharedGlobal emu_shared_globals[];

uint32_t emu_sreg(uint32_t Which) {
  switch (Which) {
  case 0: case 1: case 2: return Tid[Which];
  case 3: return Block.x;
  case 4: return Block.y;
  case 5: return Block.z;
  case 6: case 7: case 8: return Ctaid[Which - 6];
  case 9: return Grid.x;
  case 10: return Grid.y;
  case 11: return Grid.z;
  case 13: return uint32_t(LaunchShared); // %dynamic_smem_size
  default:
    return (Tid[0] + Block.x * (Tid[1] + Block.y * Tid[2])) % 32; // laneid
  }
}

void emu_barrier() { BlockBarrier->arrive_and_wait(); }

/// PTX's shfl.sync (ptx_shuffle.h) among the lanes of the thread's warp.
uint64_t emu_shfl(uint32_t Mode, uint32_t Mask, uint32_t V, uint32_t B,
                  uint32_t C) {
  const unsigned T = Tid[0] + Block.x * (Tid[1] + Block.y * Tid[2]);
  if (Block.x * Block.y * Block.z % 32) {
    std::fprintf(stderr, "grid emulation: warp shuffles need blocks of "
                         "whole warps (a multiple of 32 threads)\n");
    std::abort();
  }
  return ptxShuffle(
      T % 32, &WarpSlots[T / 32 * 32],
      [&] { (*WarpBarriers)[T / 32].arrive_and_wait(); }, Mode, Mask, V, B,
      C);
}

/// What NVVM's reflection pass answers in code compiled for sm_80 without
/// flush-to-zero: libdevice's functions ask it where the pass did not run
/// (-O0).
int __nvvm_reflect(const char *Name) {
  if (!std::strcmp(Name, "__CUDA_ARCH"))
    return 800;
  return !std::strcmp(Name, "__CUDA_PREC_SQRT");
}

/// Between the load and the store of an atomic add made plain
/// (nvptx_host_ir.py --plain-atomics).
void emu_yield() { std::this_thread::yield(); }

void emu_asm(uint32_t Which) {
  std::fprintf(stderr, "grid emulation: the device code ran inline PTX "
                       "assembly (#%u; libdevice's sin and cos use it for "
                       "large arguments), which the host cannot run\n",
               Which);
  std::abort();
}

/// CUDA's assertion failure in device code (assert(), and the overflow of
/// a gradient's tape in a thread's frame): CUDA's message, then the program
/// stops (exit status 1), where a GPU stops the kernel and the launch fails
/// with cudaErrorAssert; the block's other threads cannot be stopped alone.
void __assertfail(const char *Message, const char *File, unsigned Line,
                  const char *Function, std::size_t) {
  std::fprintf(stderr,
               "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion "
               "`%s` failed.\n",
               File, Line, Function, Ctaid[0], Ctaid[1], Ctaid[2], Tid[0],
               Tid[1], Tid[2], Message);
  std::fflush(stderr);
  std::_Exit(1);
}

int cudaGetDeviceCount(int *N) {
  *N = 1;
  return 0;
}
const char *cudaGetErrorString(int E) {
  return E ? "a kernel of the grid emulation failed" : "no error";
}
int cudaGetLastError() {
  int E = LastError;
  LastError = 0;
  return E;
}
int cudaDeviceSynchronize() { return 0; }
int cudaMalloc(void **P, std::size_t Bytes) {
  *P = allocate(Bytes);
  return *P ? 0 : 2; // cudaErrorMemoryAllocation
}
int cudaMallocManaged(void **P, std::size_t Bytes, unsigned) {
  return cudaMalloc(P, Bytes);
}
int cudaFree(void *P) {
  {
    std::lock_guard<std::mutex> Lock(AllocationsLock);
    Allocations.erase(reinterpret_cast<std::uintptr_t>(P));
  }
  std::free(P);
  return 0;
}
int cudaGetDriverEntryPoint(const char *Symbol, void **Fn, unsigned long long,
                            int *) {
  if (std::strcmp(Symbol, "cuMemGetAddressRange") != 0)
    return 500; // cudaErrorSymbolNotFound
  *Fn = reinterpret_cast<void *>(&memGetAddressRange);
  return 0;
}
int cudaMemset(void *P, int V, std::size_t N) {
  std::memset(P, V, N);
  return 0;
}
int cudaMemcpy(void *To, const void *From, std::size_t N, int) {
  std::memcpy(To, From, N);
  return 0;
}
int cudaFuncSetAttribute(const void *, int, int Value) {
  return std::size_t(Value) <= SharedBytes ? 0 : 1;
}

unsigned __cudaPushCallConfiguration(Dim3 G, Dim3 B, std::size_t Shared,
                                     void *) {
  PushedGrid = G;
  PushedBlock = B;
  PushedShared = Shared;
  return 0;
}
unsigned __cudaPopCallConfiguration(Dim3 *G, Dim3 *B, std::size_t *Shared,
                                    void **Stream) {
  *G = PushedGrid;
  *B = PushedBlock;
  *Shared = PushedShared;
  *Stream = nullptr;
  return 0;
}

/// Runs the kernel whose launch stub is \p Stub over \p G blocks of \p B
/// threads; returns when all have ended.
int cudaLaunchKernel(const void *Stub, Dim3 G, Dim3 B, void **Args,
                     std::size_t Shared, void *) {
  const KernelEntry *K = emu_kernels;
  while (K->Stub && K->Stub != Stub)
    ++K;
  const unsigned Threads = B.x * B.y * B.z;
  if (!K->Stub || Threads == 0 || Threads > 1024 || Shared > SharedBytes ||
      G.x * G.y * G.z == 0) {
    std::fprintf(stderr, "grid emulation: %s\n",
                 K->Stub ? "a launch beyond the limits of a block"
                         : "a kernel that the device code does not have");
    LastError = LaunchFailed;
    return LastError;
  }
  Grid = G;
  Block = B;
  LaunchShared = Shared;
  std::barrier<> Barrier(Threads);
  BlockBarrier = &Barrier;
  std::deque<std::barrier<>> Warps;
  for (unsigned W = 0; W < Threads; W += WarpSize)
    Warps.emplace_back(std::min(WarpSize, Threads - W));
  WarpBarriers = &Warps;
  auto Thread = [&](unsigned T) {
    Tid[0] = T % B.x;
    Tid[1] = T / B.x % B.y;
    Tid[2] = T / (B.x * B.y);
    for (unsigned Z = 0; Z < G.z; ++Z)
      for (unsigned Y = 0; Y < G.y; ++Y)
        for (unsigned X = 0; X < G.x; ++X) {
          Ctaid[0] = X;
          Ctaid[1] = Y;
          Ctaid[2] = Z;
          if (T == 0) {
            poison(adcc_kernel_shared, SharedBytes);
            for (const SharedGlobal *S = emu_shared_globals; S->Address; ++S)
              poison(S->Address, S->Bytes);
          }
          Barrier.arrive_and_wait(); // (the shared memory is ready)
          K->Entry(Args);
          Barrier.arrive_and_wait(); // (the block has ended)
        }
  };
  std::vector<std::thread> Pool;
  for (unsigned T = 0; T < Threads; ++T)
    Pool.emplace_back(Thread, T);
  for (std::thread &T : Pool)
    T.join();
  return 0;
}
/// A cooperative launch: the blocks run one after the other here, so a
/// grid-wide barrier would never be met; adcc differentiates only kernels
/// without one.
int cudaLaunchCooperativeKernel(const void *Stub, Dim3 G, Dim3 B, void **Args,
                                std::size_t Shared, void *Stream) {
  return cudaLaunchKernel(Stub, G, B, Args, Shared, Stream);
}

/// AMDGPU's implicit kernel arguments (code object version 5) as the
/// device code reads them: the block counts (3 x u32 from byte 0), the
/// group sizes (3 x u16 from byte 12), no partial groups.
void *emu_implicitarg() {
  alignas(8) thread_local unsigned char Args[256];
  const uint32_t Counts[3] = {Grid.x, Grid.y, Grid.z};
  const uint16_t Sizes[3] = {uint16_t(Block.x), uint16_t(Block.y),
                             uint16_t(Block.z)};
  std::memcpy(Args, Counts, sizeof Counts);
  std::memcpy(Args + 12, Sizes, sizeof Sizes);
  return Args;
}

/// The HSA dispatch packet of the launch as AMDGPU device code reads it
/// (at -O0: the group sizes, 3 x u16 from byte 4; the grid's sizes in
/// work-items, 3 x u32 from byte 12; the group segment's bytes, u32 at
/// byte 28: the dynamic shared memory, the static arrays being elsewhere).
void *emu_dispatch() {
  alignas(8) thread_local unsigned char Packet[64];
  const uint16_t Sizes[3] = {uint16_t(Block.x), uint16_t(Block.y),
                             uint16_t(Block.z)};
  const uint32_t Items[3] = {Grid.x * Block.x, Grid.y * Block.y,
                             Grid.z * Block.z};
  std::memcpy(Packet + 4, Sizes, sizeof Sizes);
  std::memcpy(Packet + 12, Items, sizeof Items);
  const uint32_t Group = uint32_t(LaunchShared);
  std::memcpy(Packet + 28, &Group, sizeof Group);
  return Packet;
}

// HIP's names of the same runtime (a HIP program built without HIP's
// headers, as <adcc/kernels.hpp> declares them). A launch finds the kernel
// by its handle, the global that the host code names after the kernel
// (amdgcn_host_ir.py --grid lists it in emu_kernels).
int hipGetDeviceCount(int *N) { return cudaGetDeviceCount(N); }
const char *hipGetErrorString(int E) { return cudaGetErrorString(E); }
int hipGetLastError() { return cudaGetLastError(); }
int hipDeviceSynchronize() { return 0; }
int hipMalloc(void **P, std::size_t Bytes) { return cudaMalloc(P, Bytes); }
int hipMallocManaged(void **P, std::size_t Bytes, unsigned) {
  return cudaMalloc(P, Bytes);
}
int hipFree(void *P) { return cudaFree(P); }
int hipMemGetAddressRange(void **Base, std::size_t *Size, void *P) {
  unsigned long long B = 0;
  int E = memGetAddressRange(&B, Size, reinterpret_cast<std::uintptr_t>(P));
  *Base = reinterpret_cast<void *>(B);
  return E;
}
int hipMemset(void *P, int V, std::size_t N) { return cudaMemset(P, V, N); }
int hipMemcpy(void *To, const void *From, std::size_t N, int Kind) {
  return cudaMemcpy(To, From, N, Kind);
}
unsigned __hipPushCallConfiguration(Dim3 G, Dim3 B, std::size_t Shared,
                                    void *Stream) {
  return __cudaPushCallConfiguration(G, B, Shared, Stream);
}
unsigned __hipPopCallConfiguration(Dim3 *G, Dim3 *B, std::size_t *Shared,
                                   void **Stream) {
  return __cudaPopCallConfiguration(G, B, Shared, Stream);
}
int hipFuncSetAttribute(const void *F, int Which, int Value) {
  return cudaFuncSetAttribute(F, Which, Value);
}
int hipLaunchKernel(const void *Handle, Dim3 G, Dim3 B, void **Args,
                    std::size_t Shared, void *Stream) {
  WarpSize = 64;
  int E = cudaLaunchKernel(Handle, G, B, Args, Shared, Stream);
  WarpSize = 32;
  return E;
}
int hipLaunchCooperativeKernel(const void *Handle, Dim3 G, Dim3 B, void **Args,
                               unsigned Shared, void *Stream) {
  return hipLaunchKernel(Handle, G, B, Args, Shared, Stream);
}

// AMDGPU's cross-lane operations among the 64 work-items of a wavefront of
// the block (its threads in linear order, as wave_emulation.h's model of
// one wavefront; every lane active): amdgcn_host_ir.py --grid calls these.
/// The thread's lane in its wavefront.
static unsigned waveLane() {
  return (Tid[0] + Block.x * (Tid[1] + Block.y * Tid[2])) % 64;
}
/// 0: the lane; 1: the wavefront's size.
uint32_t emu_wave(uint32_t Which) { return Which == 0 ? waveLane() : 64; }
/// mbcnt_lo (\p Hi 0) and mbcnt_hi: \p Init plus the set bits of \p Mask
/// for the lanes below this one, among lanes 0-31 or 32-63.
uint32_t emu_mbcnt(uint32_t Hi, uint32_t Mask, uint32_t Init) {
  const unsigned Lane = waveLane();
  unsigned Below = Hi ? (Lane > 32 ? Lane - 32 : 0) : (Lane < 32 ? Lane : 32);
  uint64_t Bits = Below >= 32 ? Mask : Mask & ((uint64_t(1) << Below) - 1);
  return Init + uint32_t(__builtin_popcountll(Bits));
}
/// The value \p V of lane \p From of the thread's wavefront (readlane;
/// ds_bpermute's address / 4, modulo the wavefront).
uint64_t emu_read_lane(uint64_t V, uint32_t From) {
  const unsigned T = Tid[0] + Block.x * (Tid[1] + Block.y * Tid[2]);
  if (WarpSize != 64 || Block.x * Block.y * Block.z % 64) {
    std::fprintf(stderr, "grid emulation: cross-lane operations need HIP "
                         "launches of whole wavefronts (64 threads)\n");
    std::abort();
  }
  std::barrier<> &Wave = (*WarpBarriers)[T / 64];
  WaveSlots[T] = V;
  Wave.arrive_and_wait();
  const uint64_t R = WaveSlots[T / 64 * 64 + From % 64];
  Wave.arrive_and_wait();
  return R;
}
/// The lanes of the wavefront whose \p P is true, as bits.
uint64_t emu_ballot(bool P) {
  const unsigned T = Tid[0] + Block.x * (Tid[1] + Block.y * Tid[2]);
  uint64_t Bits = 0;
  for (unsigned L = 0; L < 64; ++L)
    Bits |= (emu_read_lane(P, L) & 1) << L;
  (void)T;
  return Bits;
}
/// The registration of the device code that HIP's host code makes: the
/// emulation finds kernels by emu_kernels instead.
void **__hipRegisterFatBinary(void *) { return nullptr; }
void __hipRegisterFunction(void **, const void *, char *, const char *, int,
                           void *, void *, void *, void *, int *) {}
void __hipUnregisterFatBinary(void **) {}

/// The device libraries' math that AMDGPU device code calls (ROCm's ocml,
/// which adcc links for the partials), as libm's.
double __ocml_exp_f64(double X) { return std::exp(X); }
double __ocml_log_f64(double X) { return std::log(X); }
double __ocml_sin_f64(double X) { return std::sin(X); }
double __ocml_cos_f64(double X) { return std::cos(X); }
double __ocml_sqrt_f64(double X) { return std::sqrt(X); }
double __ocml_pow_f64(double X, double Y) { return std::pow(X, Y); }
}

#include "dpp_lanes.h"
