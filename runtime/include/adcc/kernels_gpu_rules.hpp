/*===- adcc/kernels_gpu_rules.hpp - Derivatives of GPU launches -*- C++ -*-===*
 *
 * The launch of adcc::cuda and adcc::hip (adcc_kernel_launch_gpu) and its
 * derivative rules (docs/custom-derivatives.md), the GPU form of
 * kernels_rules.hpp:
 *
 * - forward: the tangent kernel, over the same range; each thread runs
 *   the forward derivative of its work-item's body (__enzyme_fwddiff).
 * - reverse: the augmented kernel where the primal launch was; each
 *   thread runs its forward sweep (__enzyme_augmentfwd with enzyme_tape)
 *   and records in its own slot of a device buffer allocated for the
 *   launch: one slot per global linear index, of the bytes
 *   __enzyme_augmentsize gives (the size the compiler found for the
 *   item's tape; a query kernel asks it once per kernel). At the reverse
 *   point, the reverse kernel: each thread runs its reverse sweep
 *   (__enzyme_reverse) from its slot; the buffer is freed. Adjoint updates
 *   of memory other threads may touch are atomic adds (device code's rule).
 *   Both kernels take the argument tuples (values, shadows, constants) by
 *   pointer, in one device copy made at the augmented launch: what a
 *   thread records may point into them (the shadow of a scalar argument),
 *   so they must be the same memory in both kernels, not copies in each
 *   kernel's frame. A scalar argument's adjoint is then the sum of the
 *   threads' atomic adds into the shadow tuple's copy, copied back.
 * - group-local memory: the block's dynamic shared memory holds the
 *   primal's (gpu_derivative_local_bytes) and after it the shadow, zeroed
 *   by the block before each derivative kernel's body runs.
 *
 * Not part of the API: include <adcc/kernels.hpp>.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ADCC_KERNELS_GPU_RULES_HPP
#define ADCC_KERNELS_GPU_RULES_HPP

#include <cstring>
#include <vector>

#if defined(__ADCC__) && !defined(ADCC_KERNELS_NO_DERIVATIVES)
#define ADCC_GPU_DERIVATIVES 1
#endif

#if defined(ADCC_GPU_DERIVATIVES) &&                                           \
    (defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__))
#define ADCC_GPU_DEVICE_DERIVATIVES 1
// (Defined here, so that no extern variable is left in the PTX at -O0.)
__attribute__((device)) inline int enzyme_dup, enzyme_const, enzyme_tape;
#ifndef ADCC_DEVICE_TAPE_BYTES
#define ADCC_DEVICE_TAPE_BYTES 8192
#endif
/// The bytes a work-item's tape slot keeps for records of unknown size (a
/// loop of run-time trip count in the kernel's body; docs/gpu.md).
extern "C" __attribute__((device, used)) inline const unsigned long long
    adcc_device_tape_bytes = ADCC_DEVICE_TAPE_BYTES;
extern "C" {
__attribute__((device)) void __enzyme_fwddiff(void *, ...);
__attribute__((device)) void __enzyme_augmentfwd(void *, ...);
__attribute__((device)) void __enzyme_reverse(void *, ...);
__attribute__((device)) std::size_t __enzyme_augmentsize(void *, ...);
/// What a work-item does through the pointers of its arguments and their
/// fields, as words: adcc makes the stores (device/LaunchPointers.h).
__attribute__((device)) void adcc_kernel_gpu_pointers(void *,
                                                      unsigned long long *);

/// Group-local memory of a derivative kernel, with its shadow after it
/// (the rules below); the primal is index::local_memory's.
struct adcc_kernel_gpu_local_pair {
  void *primal, *shadow;
};
ADCC_FORWARD_RULE(adcc_kernel_local_gpu)
static __attribute__((device)) inline adcc_kernel_gpu_local_pair
adcc_kernel_local_gpu_fwd(const void *Ix, const void *, std::size_t Bytes) {
  auto *P = static_cast<unsigned char *>(adcc_kernel_local_gpu(Ix, Bytes));
  return {P, P + adcc::gpu_derivative_local_bytes};
}
static __attribute__((device)) inline adcc_kernel_gpu_local_pair
adcc_kernel_local_gpu_aug(const void *Ix, const void *DIx, std::size_t Bytes) {
  return adcc_kernel_local_gpu_fwd(Ix, DIx, Bytes);
}
ADCC_REVERSE_RULE(adcc_kernel_local_gpu, adcc_kernel_local_gpu_aug)
static __attribute__((device)) inline void
adcc_kernel_local_gpu_rev(const void *, const void *, std::size_t) {}
}
#endif

/// The check of GpuFns::checkPointers (runtime/lib/gpu_launch.c).
extern "C" void adcc_gpu_check_item_pointers(
    const char *Name, int Hip, const unsigned long long *Words,
    const void *Actives, const void *Shadows, const unsigned *Offsets,
    const unsigned *Positions, unsigned N);

namespace adcc {
namespace detail {

#ifdef ADCC_GPU_DEVICE_DERIVATIVES
/// Zeroes the shadow of the block's group-local memory, then waits for the
/// block.
__attribute__((device)) inline void gpuClearLocalShadow(const index &Ix) {
  auto *S = reinterpret_cast<unsigned long long *>(
      adcc_kernel_shared + gpu_derivative_local_bytes);
  const std::size_t N = Ix.local_range(0) * Ix.local_range(1) *
                        Ix.local_range(2);
  for (std::size_t I = Ix.local_linear_id();
       I < gpu_derivative_local_bytes / sizeof(*S); I += N)
    S[I] = 0;
  Ix.barrier();
}

#endif

template <typename K, typename... Ws>
__attribute__((global)) void
gpuTangentKernel(typename KernelArgs<K, Ws...>::Actives A,
                 typename KernelArgs<K, Ws...>::Actives D,
                 typename KernelArgs<K, Ws...>::Consts C) {
#ifdef ADCC_GPU_DEVICE_DERIVATIVES
  index Ix = gpuIndex(), Shadow = Ix;
  gpuClearLocalShadow(Ix);
  __enzyme_fwddiff(reinterpret_cast<void *>(&KernelArgs<K, Ws...>::item),
                   enzyme_dup, &Ix, &Shadow, enzyme_dup, &A, &D, enzyme_const,
                   &C);
#endif
}

template <typename K, typename... Ws>
__attribute__((global)) void gpuSlotBytesKernel(std::size_t *Bytes) {
#ifdef ADCC_GPU_DEVICE_DERIVATIVES
  *Bytes = __enzyme_augmentsize(
      reinterpret_cast<void *>(&KernelArgs<K, Ws...>::item), enzyme_dup,
      enzyme_dup, enzyme_const);
#endif
}

/// The words of adcc_kernel_gpu_pointers of the work-item (at most 64).
template <typename K, typename... Ws>
__attribute__((global)) void gpuPointersKernel(unsigned long long *Words) {
#ifdef ADCC_GPU_DEVICE_DERIVATIVES
  adcc_kernel_gpu_pointers(
      reinterpret_cast<void *>(&KernelArgs<K, Ws...>::item), Words);
#endif
}

template <typename K, typename... Ws>
__attribute__((global)) void
gpuAugmentedKernel(typename KernelArgs<K, Ws...>::Actives *A,
                   typename KernelArgs<K, Ws...>::Actives *D,
                   const typename KernelArgs<K, Ws...>::Consts *C,
                   unsigned char *Slots, std::size_t SlotBytes,
                   unsigned long long *Need) {
#ifdef ADCC_GPU_DEVICE_DERIVATIVES
  index Ix = gpuIndex(), Shadow = Ix;
  gpuClearLocalShadow(Ix);
  unsigned char *Slot = Slots + Ix.global_linear_id() * SlotBytes;
  __enzyme_augmentfwd(reinterpret_cast<void *>(&KernelArgs<K, Ws...>::item),
                      enzyme_dup, &Ix, &Shadow, enzyme_dup, A, D,
                      enzyme_const, C, enzyme_tape, Slot);
  // (The slot's offset: the bytes the item recorded, past the slot's end
  // where its records were of unknown size and the slot too small.)
  const unsigned long long Top = *reinterpret_cast<unsigned long long *>(Slot);
  if (Top > SlotBytes - 16)
    __atomic_fetch_max(Need, Top, __ATOMIC_RELAXED);
#endif
}

template <typename K, typename... Ws>
__attribute__((global)) void
gpuReverseKernel(typename KernelArgs<K, Ws...>::Actives *A,
                 typename KernelArgs<K, Ws...>::Actives *D,
                 const typename KernelArgs<K, Ws...>::Consts *C,
                 unsigned char *Slots, std::size_t SlotBytes) {
#ifdef ADCC_GPU_DEVICE_DERIVATIVES
  index Ix = gpuIndex(), Shadow = Ix;
  gpuClearLocalShadow(Ix);
  unsigned char *Slot = Slots + Ix.global_linear_id() * SlotBytes;
  // (The scalar arguments' adjoints: atomic adds into *D, zeroed before.)
  __enzyme_reverse(reinterpret_cast<void *>(&KernelArgs<K, Ws...>::item),
                   enzyme_dup, &Ix, &Shadow, enzyme_dup, A, D, enzyme_const, C,
                   Slot);
#endif
}

#if defined(__HIP__)
inline gpuError gpuMalloc(void **P, std::size_t N) { return hipMalloc(P, N); }
inline gpuError gpuFree(void *P) { return hipFree(P); }
inline gpuError gpuToHost(void *To, const void *From, std::size_t N) {
  return hipMemcpy(To, From, N, hipMemcpyDeviceToHost);
}
inline gpuError gpuToDevice(void *To, const void *From, std::size_t N) {
  return hipMemcpy(To, From, N, hipMemcpyHostToDevice);
}
template <typename F> void gpuAllowLocal(F *, std::size_t) {}
#else
inline gpuError gpuMalloc(void **P, std::size_t N) { return cudaMalloc(P, N); }
inline gpuError gpuFree(void *P) { return cudaFree(P); }
inline gpuError gpuToHost(void *To, const void *From, std::size_t N) {
  return cudaMemcpy(To, From, N, cudaMemcpyDeviceToHost);
}
inline gpuError gpuToDevice(void *To, const void *From, std::size_t N) {
  return cudaMemcpy(To, From, N, cudaMemcpyHostToDevice);
}
/// Lets \p Kernel's blocks have \p Bytes of dynamic shared memory.
template <typename F> void gpuAllowLocal(F *Kernel, std::size_t Bytes) {
  gpuCheck(cudaFuncSetAttribute(reinterpret_cast<const void *>(Kernel),
                                cudaFuncAttributeMaxDynamicSharedMemorySize,
                                int(Bytes)),
           "the shared memory of a derivative kernel");
}
#endif

/// The kernel's type as the compiler names it, for messages.
template <typename K> const char *kernelName() {
  static char Name[160];
  if (!Name[0]) {
    const char *P = __PRETTY_FUNCTION__, *At = std::strstr(P, "K = ");
    At = At ? At + 4 : P;
    std::size_t N = std::strcspn(At, ";]");
    if (N >= sizeof Name)
      N = sizeof Name - 1;
    std::memcpy(Name, At, N);
  }
  return Name;
}

template <typename T> bool missingShadow(const T &Primal, const T &Shadow) {
  if constexpr (std::is_pointer_v<T>)
    return Primal && !Shadow;
  return false;
}

/// The host functions that launch a kernel's primal and derivative kernels.
template <typename K, typename... Ws> struct GpuFns : GpuPrimal<K, Ws...> {
  using Args = KernelArgs<K, Ws...>;
  using A = typename Args::Actives;
  using C = typename Args::Consts;
  static constexpr std::size_t LocalBytes = 2 * gpu_derivative_local_bytes;

  static dim3 dims(const std::size_t *N) {
    return dim3(unsigned(N[0]), unsigned(N[1]), unsigned(N[2]));
  }
  template <std::size_t... Is>
  static bool missingAll(const A &P, const A &S, std::index_sequence<Is...>) {
    return (missingShadow(std::get<Is>(P), std::get<Is>(S)) || ... || false);
  }
  static bool missingShadows(const void *Av, const void *Dv) {
    return missingAll(*static_cast<const A *>(Av), *static_cast<const A *>(Dv),
                      std::make_index_sequence<std::tuple_size_v<A>>());
  }
  /// Where active argument \p J is in the launch's arguments (from 0).
  static constexpr unsigned position(std::size_t J) {
    for (std::size_t I = 0; I < sizeof...(Ws); ++I)
      if (!Args::IsConstArg[I] && J-- == 0)
        return unsigned(I);
    return 0;
  }
  template <std::size_t... Js>
  static void placesOf(const A &T, unsigned *Offsets, unsigned *Positions,
                       std::index_sequence<Js...>) {
    ((Offsets[Js] = unsigned(reinterpret_cast<const char *>(&std::get<Js>(T)) -
                             reinterpret_cast<const char *>(&T)),
      Positions[Js] = position(Js)),
     ...);
  }

#ifdef ADCC_GPU_DERIVATIVES
  static void tangent(const std::size_t *Grid, const std::size_t *Block,
                      void *Av, void *Dv, const void *Cv) {
    gpuAllowLocal(&gpuTangentKernel<K, Ws...>, LocalBytes);
    gpuTangentKernel<K, Ws...><<<dims(Grid), dims(Block), LocalBytes>>>(
        *static_cast<A *>(Av), *static_cast<A *>(Dv),
        *static_cast<const C *>(Cv));
    gpuFinish();
  }
  static std::size_t querySlotBytes() {
    void *Bytes = nullptr;
    gpuCheck(gpuMalloc(&Bytes, sizeof(std::size_t)),
             "the query of a tape slot's size");
    gpuSlotBytesKernel<K, Ws...>
        <<<1, 1>>>(static_cast<std::size_t *>(Bytes));
    gpuFinish();
    std::size_t Host = 0;
    gpuCheck(gpuToHost(&Host, Bytes, sizeof Host),
             "the query of a tape slot's size");
    gpuCheck(gpuFree(Bytes), "the query of a tape slot's size");
    return Host;
  }
  static std::size_t slotBytes() {
    static const std::size_t Bytes = querySlotBytes();
    return Bytes;
  }
  struct PointerWords {
    unsigned long long W[64] = {};
  };
  static PointerWords queryPointers() {
    void *Words = nullptr;
    PointerWords Host;
    gpuCheck(gpuMalloc(&Words, sizeof Host.W), "the query of the pointers");
    gpuPointersKernel<K, Ws...>
        <<<1, 1>>>(static_cast<unsigned long long *>(Words));
    gpuFinish();
    gpuCheck(gpuToHost(Host.W, Words, sizeof Host.W),
             "the query of the pointers");
    gpuCheck(gpuFree(Words), "the query of the pointers");
    return Host;
  }
  /// Stops where a pointer read from an argument's data has a null shadow
  /// and would lose a derivative (runtime/lib/gpu_launch.c).
  static void checkPointers(const void *Av, const void *Dv) {
    static const PointerWords Words = queryPointers();
    constexpr std::size_t N = std::tuple_size_v<A>;
    unsigned Offsets[N + 1] = {}, Positions[N + 1] = {};
    placesOf(*static_cast<const A *>(Av), Offsets, Positions,
             std::make_index_sequence<N>());
#if defined(__HIP__)
    constexpr int Hip = 1;
#else
    constexpr int Hip = 0;
#endif
    adcc_gpu_check_item_pointers(kernelName<K>(), Hip, Words.W, Av, Dv,
                                 Offsets, Positions, unsigned(N));
  }
  static void augmented(const std::size_t *Grid, const std::size_t *Block,
                        void *Av, void *Dv, const void *Cv, void *Slots,
                        std::size_t SlotBytes, void *Need) {
    gpuAllowLocal(&gpuAugmentedKernel<K, Ws...>, LocalBytes);
    gpuAugmentedKernel<K, Ws...><<<dims(Grid), dims(Block), LocalBytes>>>(
        static_cast<A *>(Av), static_cast<A *>(Dv), static_cast<const C *>(Cv),
        static_cast<unsigned char *>(Slots), SlotBytes,
        static_cast<unsigned long long *>(Need));
    gpuFinish();
  }
  static void reverse(const std::size_t *Grid, const std::size_t *Block,
                      void *Av, void *Dv, const void *Cv, void *Slots,
                      std::size_t SlotBytes) {
    gpuAllowLocal(&gpuReverseKernel<K, Ws...>, LocalBytes);
    gpuReverseKernel<K, Ws...><<<dims(Grid), dims(Block), LocalBytes>>>(
        static_cast<A *>(Av), static_cast<A *>(Dv), static_cast<const C *>(Cv),
        static_cast<unsigned char *>(Slots), SlotBytes);
    gpuFinish();
  }
  static constexpr GpuDesc Desc = {
      &GpuPrimal<K, Ws...>::run, &tangent, &slotBytes, &augmented, &reverse,
      sizeof(A), sizeof(C), &Args::clearScalars, &Args::addScalars,
      &missingShadows, &checkPointers};
#else
  // (No derivative kernels: a derivative of the launch stops with a
  // message.)
  static constexpr GpuDesc Desc = {
      &GpuPrimal<K, Ws...>::run, nullptr, nullptr, nullptr, nullptr,
      sizeof(A), sizeof(C), &Args::clearScalars, &Args::addScalars,
      &missingShadows, nullptr};
#endif
};

/// The grid and block of a launch of (G0, G1, G2) items in groups of
/// (L0, L1, L2).
struct GpuShape {
  std::size_t Grid[3], Block[3];
  GpuShape(std::size_t G0, std::size_t G1, std::size_t G2, std::size_t L0,
           std::size_t L1, std::size_t L2) {
    const std::size_t Global[3] = {G0, G1, G2}, Local[3] = {L0, L1, L2};
    for (int D = 0; D < 3; ++D) {
      if (Local[D] == 0 || Global[D] % Local[D] != 0)
        gpuLaunchError("the global range must be a non-zero multiple of the "
                       "work-group size in each dimension");
      Grid[D] = Global[D] / Local[D];
      Block[D] = Local[D];
    }
  }
};

/// What the augmented launch leaves for the reverse one: the device copy
/// of the arguments, their shadows and the constants (at Args, Args +
/// ShadowsAt, Args + ConstsAt; at Args + NeedAt the most bytes an item's
/// records took past its slot), the host's copy of the shadows, and the
/// device buffer of tape slots.
struct GpuLaunchTape {
  std::vector<unsigned char> Shadows;
  unsigned char *Args = nullptr;
  std::size_t ShadowsAt = 0, ConstsAt = 0, NeedAt = 0;
  void *Slots = nullptr;
  std::size_t SlotBytes = 0;
};

/// \p N rounded up to a multiple of 16 bytes.
constexpr std::size_t gpuAligned(std::size_t N) { return (N + 15) / 16 * 16; }

} // namespace detail
} // namespace adcc

// The launch every GPU backend's launch calls, with its rules.
extern "C" {

inline void adcc_kernel_launch_gpu(std::uintptr_t Desc, std::size_t G0,
                                   std::size_t G1, std::size_t G2,
                                   std::size_t L0, std::size_t L1,
                                   std::size_t L2, void *Actives,
                                   std::uintptr_t Consts) {
  const adcc::detail::GpuShape S(G0, G1, G2, L0, L1, L2);
  reinterpret_cast<const adcc::detail::GpuDesc *>(Desc)->Primal(
      S.Grid, S.Block, Actives, reinterpret_cast<const void *>(Consts));
}

#ifdef __ADCC__
/// The descriptor of a derivative launch, checked.
inline const adcc::detail::GpuDesc &adcc_kernel_gpu_desc(std::uintptr_t Desc) {
  const auto &D = *reinterpret_cast<const adcc::detail::GpuDesc *>(Desc);
  if (!D.Tangent)
    adcc::detail::gpuLaunchError("a derivative of a launch compiled with "
                                 "ADCC_KERNELS_NO_DERIVATIVES");
  return D;
}
inline void adcc_kernel_gpu_check_shadows(const adcc::detail::GpuDesc &D,
                                          const void *Actives,
                                          const void *Shadows) {
  if (D.MissingShadow(Actives, Shadows))
    adcc::detail::gpuLaunchError(
        "a pointer argument of a differentiated launch on a GPU backend has "
        "no shadow (it carries no derivative in the host function): pass it "
        "as adcc::Const(pointer), or give it a shadow in device memory");
  if (D.CheckPointers)
    D.CheckPointers(Actives, Shadows);
}

/// Stops the program when an item's records did not fit in its slot (a
/// loop of run-time trip count in the kernel's body): the reverse kernel
/// would read garbage.
inline void adcc_kernel_gpu_check_slots(const adcc::detail::GpuLaunchTape &T) {
  unsigned long long Need = 0;
  adcc::detail::gpuCheck(
      adcc::detail::gpuToHost(&Need, T.Args + T.NeedAt, sizeof Need),
      "the tape of the augmented kernel");
  if (!Need)
    return;
  char Message[512];
  std::snprintf(Message, sizeof Message,
                "the tape of a work-item of the augmented kernel takes %llu "
                "bytes, more than the %zu bytes of its slot (records of a "
                "loop whose trip count is known only at run time); compile "
                "with -DADCC_DEVICE_TAPE_BYTES=%llu or more",
                Need, T.SlotBytes - 16, Need);
  adcc::detail::gpuLaunchError(Message);
}

ADCC_FORWARD_RULE(adcc_kernel_launch_gpu)
inline void adcc_kernel_launch_gpu_fwd(std::uintptr_t Desc, std::size_t G0,
                                       std::size_t G1, std::size_t G2,
                                       std::size_t L0, std::size_t L1,
                                       std::size_t L2, void *Actives,
                                       void *Shadows, std::uintptr_t Consts) {
  const adcc::detail::GpuShape S(G0, G1, G2, L0, L1, L2);
  const adcc::detail::GpuDesc &D = adcc_kernel_gpu_desc(Desc);
  adcc_kernel_gpu_check_shadows(D, Actives, Shadows);
  D.Tangent(S.Grid, S.Block, Actives, Shadows,
            reinterpret_cast<const void *>(Consts));
}

inline void *adcc_kernel_launch_gpu_aug(std::uintptr_t Desc, std::size_t G0,
                                        std::size_t G1, std::size_t G2,
                                        std::size_t L0, std::size_t L1,
                                        std::size_t L2, void *Actives,
                                        void *Shadows, std::uintptr_t Consts) {
  const adcc::detail::GpuShape S(G0, G1, G2, L0, L1, L2);
  const adcc::detail::GpuDesc &D = adcc_kernel_gpu_desc(Desc);
  adcc_kernel_gpu_check_shadows(D, Actives, Shadows);
  // The arguments as they are now (the caller may change its own before
  // the reverse launch), in device memory, and one tape slot per work-item.
  using adcc::detail::gpuAligned;
  auto *T = new adcc::detail::GpuLaunchTape();
  auto *Sv = static_cast<unsigned char *>(Shadows);
  T->Shadows.assign(Sv, Sv + D.ActivesBytes);
  T->ShadowsAt = gpuAligned(D.ActivesBytes);
  T->ConstsAt = 2 * T->ShadowsAt;
  T->NeedAt = T->ConstsAt + gpuAligned(D.ConstsBytes);
  void *Args = nullptr;
  const unsigned long long Need = 0;
  adcc::detail::gpuCheck(
      adcc::detail::gpuMalloc(&Args, T->NeedAt + sizeof Need),
      "the arguments of the augmented kernel");
  T->Args = static_cast<unsigned char *>(Args);
  adcc::detail::gpuCheck(
      adcc::detail::gpuToDevice(T->Args + T->NeedAt, &Need, sizeof Need),
      "the arguments of the augmented kernel");
  adcc::detail::gpuCheck(
      adcc::detail::gpuToDevice(T->Args, Actives, D.ActivesBytes),
      "the arguments of the augmented kernel");
  adcc::detail::gpuCheck(
      adcc::detail::gpuToDevice(T->Args + T->ShadowsAt, Shadows,
                                D.ActivesBytes),
      "the arguments of the augmented kernel");
  adcc::detail::gpuCheck(
      adcc::detail::gpuToDevice(T->Args + T->ConstsAt,
                                reinterpret_cast<const void *>(Consts),
                                D.ConstsBytes),
      "the arguments of the augmented kernel");
  T->SlotBytes = D.SlotBytes();
  const std::size_t Items = G0 * G1 * G2;
  if (T->SlotBytes && Items > std::size_t(-1) / T->SlotBytes)
    adcc::detail::gpuLaunchError("the tape of the augmented kernel is larger "
                                 "than the address space");
  const std::size_t Bytes = Items * T->SlotBytes;
  if (adcc::detail::gpuMalloc(&T->Slots, Bytes ? Bytes : 1) !=
      adcc::detail::gpuError(0)) {
    char Message[256];
    std::snprintf(Message, sizeof Message,
                  "the tape of the augmented kernel does not fit in device "
                  "memory: %zu bytes (%zu work-items x %zu bytes per item)",
                  Bytes, Items, T->SlotBytes);
    adcc::detail::gpuLaunchError(Message);
  }
  D.Augmented(S.Grid, S.Block, T->Args, T->Args + T->ShadowsAt,
              T->Args + T->ConstsAt, T->Slots, T->SlotBytes,
              T->Args + T->NeedAt);
  adcc_kernel_gpu_check_slots(*T);
  return T;
}

ADCC_REVERSE_RULE(adcc_kernel_launch_gpu, adcc_kernel_launch_gpu_aug)
inline void adcc_kernel_launch_gpu_rev(std::uintptr_t Desc, std::size_t G0,
                                       std::size_t G1, std::size_t G2,
                                       std::size_t L0, std::size_t L1,
                                       std::size_t L2, void *, void *Shadows,
                                       std::uintptr_t, void *Tape) {
  const adcc::detail::GpuShape S(G0, G1, G2, L0, L1, L2);
  const adcc::detail::GpuDesc &D = adcc_kernel_gpu_desc(Desc);
  auto *T = static_cast<adcc::detail::GpuLaunchTape *>(Tape);
  // The scalar arguments' adjoints: the threads add theirs into the device
  // copy of the shadows, zeroed first, which is then added into the
  // caller's.
  unsigned char *DeviceShadows = T->Args + T->ShadowsAt;
  D.ClearScalars(T->Shadows.data());
  adcc::detail::gpuCheck(adcc::detail::gpuToDevice(DeviceShadows,
                                                   T->Shadows.data(),
                                                   D.ActivesBytes),
                         "the adjoints of the scalar arguments");
  D.Reverse(S.Grid, S.Block, T->Args, DeviceShadows, T->Args + T->ConstsAt,
            T->Slots, T->SlotBytes);
  adcc::detail::gpuCheck(adcc::detail::gpuToHost(T->Shadows.data(),
                                                 DeviceShadows,
                                                 D.ActivesBytes),
                         "the adjoints of the scalar arguments");
  D.AddScalars(Shadows, T->Shadows.data());
  adcc::detail::gpuCheck(adcc::detail::gpuFree(T->Args), "freeing a tape");
  adcc::detail::gpuCheck(adcc::detail::gpuFree(T->Slots), "freeing a tape");
  delete T;
}
#endif // __ADCC__

} // extern "C"

#endif // ADCC_KERNELS_GPU_RULES_HPP
