/*===- adcc/kernels_rules.hpp - The CPU launch and its derivative rules -*- C++ -*-===*
 *
 * adcc::launch(adcc::cpu, ...) and the C functions that it and the index
 * context call (adcc_kernel_launch, adcc_kernel_barrier,
 * adcc_kernel_local), with their derivatives registered as custom rules
 * (docs/custom-derivatives.md): the launch's are the tangent kernel, and
 * the augmented kernel then the reverse kernel (kernels_launch.hpp runs
 * them); a barrier's reverse is a barrier; group-local memory has shadow
 * group-local memory.
 *
 * Not part of the API: include <adcc/kernels.hpp>.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ADCC_KERNELS_RULES_HPP
#define ADCC_KERNELS_RULES_HPP

#include <adcc/kernels_launch.hpp>

// The functions that derivatives of kernels see, with their rules. (C
// names: one function each for every kernel; the rules are registered once
// per translation unit.)
extern "C" {

inline void adcc_kernel_barrier(const void *) { adcc::detail::groupBarrier(); }
inline void *adcc_kernel_local(const void *Ix, std::size_t Bytes) {
  return adcc::detail::workerOf(Ix).Local + adcc::detail::takeLocal(Ix, Bytes);
}

inline void adcc_kernel_launch(std::uintptr_t Desc, std::size_t G0,
                               std::size_t G1, std::size_t G2, std::size_t L0,
                               std::size_t L1, std::size_t L2, void *Actives,
                               std::uintptr_t Consts) {
  const std::size_t G[3] = {G0, G1, G2}, L[3] = {L0, L1, L2};
  adcc::detail::Launch Run = adcc::detail::makeLaunch(
      Desc, G, L, adcc::detail::LaunchMode::Primal);
  Run.Actives = Actives;
  Run.Consts = reinterpret_cast<const void *>(Consts);
  Run.run();
}

#ifdef __ADCC__
struct adcc_kernel_local_pair {
  void *primal, *shadow;
};

ADCC_FORWARD_RULE(adcc_kernel_barrier)
inline void adcc_kernel_barrier_fwd(const void *, const void *) {
  adcc::detail::groupBarrier();
}
inline void adcc_kernel_barrier_aug(const void *, const void *) {
  adcc::detail::groupBarrier();
}
/// The reverse of a barrier: a barrier (between the reverse of what
/// follows it and the reverse of what precedes it).
ADCC_REVERSE_RULE(adcc_kernel_barrier, adcc_kernel_barrier_aug)
inline void adcc_kernel_barrier_rev(const void *, const void *) {
  adcc::detail::groupBarrier();
}

inline adcc_kernel_local_pair
adcc_kernel_local_aug(const void *Ix, const void *, std::size_t Bytes) {
  adcc::detail::WorkerState &W = adcc::detail::workerOf(Ix);
  std::size_t Offset = adcc::detail::takeLocal(Ix, Bytes);
  return {W.Local + Offset, W.LocalShadow + Offset};
}
ADCC_FORWARD_RULE(adcc_kernel_local)
inline adcc_kernel_local_pair
adcc_kernel_local_fwd(const void *Ix, const void *DIx, std::size_t Bytes) {
  return adcc_kernel_local_aug(Ix, DIx, Bytes);
}
ADCC_REVERSE_RULE(adcc_kernel_local, adcc_kernel_local_aug)
inline void adcc_kernel_local_rev(const void *, const void *, std::size_t) {}

ADCC_FORWARD_RULE(adcc_kernel_launch)
inline void adcc_kernel_launch_fwd(std::uintptr_t Desc, std::size_t G0,
                                   std::size_t G1, std::size_t G2,
                                   std::size_t L0, std::size_t L1,
                                   std::size_t L2, void *Actives,
                                   void *Shadows, std::uintptr_t Consts) {
  const std::size_t G[3] = {G0, G1, G2}, L[3] = {L0, L1, L2};
  adcc::detail::Launch Run = adcc::detail::makeLaunch(
      Desc, G, L, adcc::detail::LaunchMode::Tangent);
  // (A copy of the shadows: the pointers without one get the inactive
  // shadow there.)
  std::vector<unsigned char> Filled(static_cast<unsigned char *>(Shadows),
                                    static_cast<unsigned char *>(Shadows) +
                                        Run.D->ActivesBytes);
  bool Inactive = Run.D->FillShadows(Actives, Filled.data());
  Run.Actives = Actives;
  Run.Shadows = Filled.data();
  Run.Consts = reinterpret_cast<const void *>(Consts);
  Run.run();
  if (Inactive)
    adcc::detail::InactiveShadow::get().clear();
}

inline void *adcc_kernel_launch_aug(std::uintptr_t Desc, std::size_t G0,
                                    std::size_t G1, std::size_t G2,
                                    std::size_t L0, std::size_t L1,
                                    std::size_t L2, void *Actives,
                                    void *Shadows, std::uintptr_t Consts) {
  const std::size_t G[3] = {G0, G1, G2}, L[3] = {L0, L1, L2};
  adcc::detail::Launch Run = adcc::detail::makeLaunch(
      Desc, G, L, adcc::detail::LaunchMode::Augmented);
  // The arguments as they are now: the caller may change its own copies
  // before the reverse launch.
  auto *T = new adcc::detail::LaunchTape();
  const adcc::detail::KernelDesc &D = *Run.D;
  auto *Av = static_cast<unsigned char *>(Actives);
  auto *Sv = static_cast<unsigned char *>(Shadows);
  auto *Cv = reinterpret_cast<const unsigned char *>(Consts);
  T->Actives.assign(Av, Av + D.ActivesBytes);
  T->Shadows.assign(Sv, Sv + D.ActivesBytes);
  T->Consts.assign(Cv, Cv + D.ConstsBytes);
  T->InactiveShadows = D.FillShadows(T->Actives.data(), T->Shadows.data());
  T->Slots.assign(Run.groupCount() * Run.itemCount(), nullptr);
  Run.Actives = T->Actives.data();
  Run.Shadows = T->Shadows.data();
  Run.Consts = T->Consts.data();
  Run.Tape = T;
  if (adcc::detail::planParallelReverse(Run, *T))
    Run.WorkerShadows = T->WorkerTuples.data();
  Run.run();
  return T;
}

ADCC_REVERSE_RULE(adcc_kernel_launch, adcc_kernel_launch_aug)
inline void adcc_kernel_launch_rev(std::uintptr_t Desc, std::size_t G0,
                                   std::size_t G1, std::size_t G2,
                                   std::size_t L0, std::size_t L1,
                                   std::size_t L2, void *, void *Shadows,
                                   std::uintptr_t, void *Tape) {
  const std::size_t G[3] = {G0, G1, G2}, L[3] = {L0, L1, L2};
  adcc::detail::Launch Run = adcc::detail::makeLaunch(
      Desc, G, L, adcc::detail::LaunchMode::Reverse);
  auto *T = static_cast<adcc::detail::LaunchTape *>(Tape);
  // The scalar arguments' adjoints: summed over the items in the copy,
  // then added into the caller's shadows.
  Run.D->ClearScalars(T->Shadows.data());
  Run.Actives = T->Actives.data();
  Run.Shadows = T->Shadows.data();
  Run.Consts = T->Consts.data();
  Run.Tape = T;
  if (!T->WorkerTuples.empty()) {
    adcc::detail::runParallelReverse(Run, *T, Shadows);
  } else {
    Run.run();
    Run.D->AddScalars(Shadows, T->Shadows.data());
  }
  if (T->InactiveShadows)
    adcc::detail::InactiveShadow::get().clear();
  delete T;
}
#endif // __ADCC__

} // extern "C"

namespace adcc {

/// Runs \p Kernel(ix, args...) for every item of \p Global, in work-groups
/// of \p Local items, on host threads. Returns when every item has ended.
template <typename K, typename... Ws>
void launch(cpu_backend, const K &Kernel, range Global, range Local,
            Ws... Args) {
  detail::checkKernel<K, Ws...>();
  static_assert(((std::is_arithmetic_v<Ws> || std::is_pointer_v<Ws> ||
                  detail::IsConst<Ws>::value || detail::IsSized<Ws>::value) &&
                 ...),
                "adcc::launch: a kernel argument with a derivative is a "
                "number or a pointer; pass a struct by pointer, or as "
                "adcc::Const(value) when it carries no derivative");
  using Fns = detail::KernelFns<K, Ws...>;
  typename Fns::A Actives = Fns::Args::actives(Args...);
  typename Fns::C Consts = Fns::Args::consts(Kernel, Args...);
  adcc_kernel_launch(reinterpret_cast<std::uintptr_t>(&Fns::Desc),
                     Global.n[0], Global.n[1], Global.n[2], Local.n[0],
                     Local.n[1], Local.n[2], &Actives,
                     reinterpret_cast<std::uintptr_t>(&Consts));
}

} // namespace adcc

#endif // ADCC_KERNELS_RULES_HPP
