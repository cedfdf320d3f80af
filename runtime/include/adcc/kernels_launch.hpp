/*===- adcc/kernels_launch.hpp - Running kernels and their derivatives -*- C++ -*-===*
 *
 * What runs a CPU launch in each of its modes: the primal kernel; the
 * tangent kernel (each item runs the forward derivative of its body,
 * __enzyme_fwddiff, arguments Duplicated); the augmented kernel (each item
 * runs __enzyme_augmentfwd and leaves its handle in its slot of the launch
 * tape, which also holds copies of the arguments and their shadows); the
 * reverse kernel (__enzyme_reverse per item with its slot; the groups one
 * at a time, or in parallel on per-worker copies of the shadows of sized
 * pointers). The per-item derivatives are requested here, for each kernel
 * and argument types, when adcc compiles the launch; kernels_rules.hpp
 * calls these from the launch's derivative rules.
 *
 * Not part of the API: include <adcc/kernels.hpp>.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ADCC_KERNELS_LAUNCH_HPP
#define ADCC_KERNELS_LAUNCH_HPP

#include <cstring>
#include <vector>

#ifdef __ADCC__
extern int enzyme_dup, enzyme_const;
template <typename R> R __enzyme_fwddiff(void *, ...);
template <typename R> R __enzyme_augmentfwd(void *, ...);
template <typename R> R __enzyme_reverse(void *, ...);
#endif

namespace adcc {
namespace detail {

/// What a launch needs of one kernel and its argument types.
struct KernelDesc {
  void (*Primal)(const index *, void *, const void *);
  void (*Tangent)(const index *, void *, void *, const void *);
  void *(*Augmented)(const index *, void *, void *, const void *);
  void (*Reverse)(const index *, void *, void *, const void *, void *);
  std::size_t ActivesBytes, ConstsBytes;
  /// Zeroes the floating-point arguments of a shadow tuple.
  void (*ClearScalars)(void *);
  /// Adds the floating-point arguments of the second tuple into the first.
  void (*AddScalars)(void *, const void *);
  /// Gives the pointer arguments without a shadow (null in the shadow
  /// tuple, the second) the inactive shadow; true if one got it.
  bool (*FillShadows)(const void *, void *);
  /// The bytes each active argument may reach (adcc::sized; 0: unknown).
  const std::size_t *(*Extents)(const void *);
  std::size_t ActiveCount;
  /// Whether active argument J is a pointer to other than numbers.
  bool (*OpaquePointer)(std::size_t);
  /// Active argument J of a tuple: its address if it is a pointer to
  /// floating-point values (one whose shadow takes adjoints), else null.
  void **(*FloatPointer)(void *, std::size_t);
  /// Adds the changes Priv - Orig of the J-th argument's shadow values
  /// (Bytes of them) into Real.
  void (*MergeShadow)(std::size_t, void *, const void *, const void *,
                      std::size_t);
};

/// Where a pointer argument whose pointer carries no derivative in the
/// host function (its shadow there is null) points in a derivative
/// kernel: the middle of a large reserved region that reads as zeros
/// (tangents) and receives adjoints nothing reads. Zeroed again after each
/// derivative launch that used it (the pages are given back).
struct InactiveShadow {
  static constexpr std::size_t Bytes = std::size_t(1) << 36;
  unsigned char *Base = nullptr;

  static InactiveShadow &get() {
    static InactiveShadow S;
    return S;
  }
  void *middle() {
    if (!Base) {
      void *P = mmap(nullptr, Bytes, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (P == MAP_FAILED)
        kernelError("cannot reserve the shadow of kernel arguments that "
                    "carry no derivative");
      Base = static_cast<unsigned char *>(P);
    }
    return Base + Bytes / 2;
  }
  void clear() {
    if (Base)
      madvise(Base, Bytes, MADV_DONTNEED);
  }
};

template <typename T> bool fillShadow(const T &Primal, T &Shadow) {
  if constexpr (std::is_pointer_v<T>) {
    if (Shadow || !Primal)
      return false;
    Shadow = reinterpret_cast<T>(InactiveShadow::get().middle());
    return true;
  }
  return false;
}

template <typename K, typename... Ws> struct KernelFns {
  using Args = KernelArgs<K, Ws...>;
  using A = typename Args::Actives;
  using C = typename Args::Consts;

  static void primal(const index *Ix, void *Av, const void *Cv) {
    Args::item(Ix, static_cast<A *>(Av), static_cast<const C *>(Cv));
  }
  static const std::size_t *extents(const void *Cv) {
    const C &Consts = *static_cast<const C *>(Cv);
    return std::get<std::tuple_size_v<C> - 1>(Consts).data();
  }
  template <typename T> static constexpr bool isFloatPointer() {
    return std::is_pointer_v<T> &&
           std::is_floating_point_v<std::remove_pointer_t<T>>;
  }
  template <std::size_t... Is>
  static bool opaqueAt(std::size_t J, std::index_sequence<Is...>) {
    bool Opaque = false;
    ((Is == J ? void(Opaque = isOpaquePointer<std::tuple_element_t<Is, A>>())
              : void()),
     ...);
    return Opaque;
  }
  template <typename T> static constexpr bool isOpaquePointer() {
    return std::is_pointer_v<T> &&
           !std::is_arithmetic_v<std::remove_pointer_t<T>>;
  }
  static bool opaquePointer(std::size_t J) {
    return opaqueAt(J, std::make_index_sequence<std::tuple_size_v<A>>());
  }
  static void **floatPointer(void *Tuple, std::size_t J) {
    return floatPointerAt(*static_cast<A *>(Tuple), J,
                          std::make_index_sequence<std::tuple_size_v<A>>());
  }
  template <typename T> static void **floatPointerOf(T &Field) {
    if constexpr (isFloatPointer<T>())
      return reinterpret_cast<void **>(
          const_cast<std::remove_const_t<std::remove_pointer_t<T>> **>(
              &Field));
    else
      return nullptr;
  }
  template <std::size_t... Is>
  static void **floatPointerAt(A &Tuple, std::size_t J,
                               std::index_sequence<Is...>) {
    void **Found = nullptr;
    ((Is == J ? void(Found = floatPointerOf(std::get<Is>(Tuple))) : void()),
     ...);
    return Found;
  }
  template <typename T>
  static void mergeOne(void *Real, const void *Orig, const void *Priv,
                       std::size_t Bytes) {
    if constexpr (isFloatPointer<T>()) {
      using E = std::remove_const_t<std::remove_pointer_t<T>>;
      E *R = static_cast<E *>(Real);
      const E *O = static_cast<const E *>(Orig);
      const E *P = static_cast<const E *>(Priv);
      for (std::size_t I = 0; I < Bytes / sizeof(E); ++I)
        R[I] += P[I] - O[I];
    }
  }
  template <std::size_t... Is>
  static void mergeAt(std::size_t J, void *Real, const void *Orig,
                      const void *Priv, std::size_t Bytes,
                      std::index_sequence<Is...>) {
    ((Is == J ? mergeOne<std::tuple_element_t<Is, A>>(Real, Orig, Priv, Bytes)
              : void()),
     ...);
  }
  static void mergeShadow(std::size_t J, void *Real, const void *Orig,
                          const void *Priv, std::size_t Bytes) {
    mergeAt(J, Real, Orig, Priv, Bytes,
            std::make_index_sequence<std::tuple_size_v<A>>());
  }
  static bool fillShadows(const void *Av, void *Dv) {
    return fillAll(*static_cast<const A *>(Av), *static_cast<A *>(Dv),
                   std::make_index_sequence<std::tuple_size_v<A>>());
  }
  template <std::size_t... Is>
  static bool fillAll(const A &Primal, A &Shadow, std::index_sequence<Is...>) {
    return (fillShadow(std::get<Is>(Primal), std::get<Is>(Shadow)) | ... |
            false);
  }

#if defined(__ADCC__) && !defined(ADCC_KERNELS_NO_DERIVATIVES)
  static void tangent(const index *Ix, void *Av, void *Dv, const void *Cv) {
    index Shadow = *Ix;
    __enzyme_fwddiff<void>(reinterpret_cast<void *>(&Args::item), enzyme_dup,
                           Ix, &Shadow, enzyme_dup, static_cast<A *>(Av),
                           static_cast<A *>(Dv), enzyme_const,
                           static_cast<const C *>(Cv));
  }
  static void *augmented(const index *Ix, void *Av, void *Dv, const void *Cv) {
    index Shadow = *Ix;
    return __enzyme_augmentfwd<void *>(
        reinterpret_cast<void *>(&Args::item), enzyme_dup, Ix, &Shadow,
        enzyme_dup,
        static_cast<A *>(Av), static_cast<A *>(Dv), enzyme_const,
        static_cast<const C *>(Cv));
  }
  static void reverse(const index *Ix, void *Av, void *Dv, const void *Cv,
                      void *Tape) {
    index Shadow = *Ix;
    __enzyme_reverse<void>(reinterpret_cast<void *>(&Args::item), enzyme_dup,
                           Ix, &Shadow, enzyme_dup, static_cast<A *>(Av),
                           static_cast<A *>(Dv), enzyme_const,
                           static_cast<const C *>(Cv), Tape);
  }
  static constexpr KernelDesc Desc = {
      &primal, &tangent, &augmented, &reverse, sizeof(A), sizeof(C),
      &Args::clearScalars, &Args::addScalars, &fillShadows, &extents,
      std::tuple_size_v<A>, &opaquePointer, &floatPointer, &mergeShadow};
#else
  // (ADCC_KERNELS_NO_DERIVATIVES: no derivative kernels are made; a
  // derivative of a launch stops with a message.)
  static constexpr KernelDesc Desc = {
      &primal, nullptr, nullptr, nullptr, sizeof(A), sizeof(C),
      &Args::clearScalars, &Args::addScalars, &fillShadows, &extents,
      std::tuple_size_v<A>, &opaquePointer, &floatPointer, &mergeShadow};
#endif
};

enum class LaunchMode { Primal, Tangent, Augmented, Reverse };

/// What the augmented launch leaves for the reverse one: copies of the
/// arguments and their shadows, one tape slot per work-item, and the groups
/// each worker ran.
struct LaunchTape {
  std::vector<unsigned char> Actives, Shadows, Consts;
  std::vector<void *> Slots;
  /// Whether a pointer argument got the inactive shadow.
  bool InactiveShadows = false;
  /// A reverse kernel in parallel (planParallelReverse): the privatized
  /// arguments, each worker's shadow tuple and copies of their shadows.
  std::vector<std::size_t> Privatized;
  std::vector<std::vector<unsigned char>> WorkerTuples;
  std::vector<std::vector<std::vector<unsigned char>>> Copies;
  std::vector<std::vector<std::size_t>> GroupsOf;
};

/// One launch in progress.
struct Launch {
  const KernelDesc *D;
  LaunchMode Mode;
  std::size_t Groups[3], Items[3];
  void *Actives, *Shadows;
  const void *Consts;
  LaunchTape *Tape;
  /// A reverse launch in parallel: each worker's own shadow tuple (else
  /// null: one shadow tuple, one group at a time).
  std::vector<unsigned char> *WorkerShadows = nullptr;
  /// The group that a worker runs now, its worker, and its shadows.
  struct Running {
    const Launch *L;
    std::size_t Group;
    WorkerState *W;
    void *Shadows;
  };

  std::size_t groupCount() const { return Groups[0] * Groups[1] * Groups[2]; }
  std::size_t itemCount() const { return Items[0] * Items[1] * Items[2]; }

  static void runItem(void *Ctx, std::size_t Item) {
    const Running &R = *static_cast<const Running *>(Ctx);
    const Launch &L = *R.L;
    index Ix;
    std::size_t G = R.Group;
    for (int Dim = 0; Dim < 3; ++Dim) {
      Ix.Local[Dim] = Item % L.Items[Dim];
      Item /= L.Items[Dim];
      Ix.Group[Dim] = G % L.Groups[Dim];
      G /= L.Groups[Dim];
      Ix.LocalRange[Dim] = L.Items[Dim];
      Ix.GroupRange[Dim] = L.Groups[Dim];
    }
    Ix.LocalOffset = 0;
    Ix.Backend = R.W;
    switch (L.Mode) {
    case LaunchMode::Primal:
      L.D->Primal(&Ix, L.Actives, L.Consts);
      break;
    case LaunchMode::Tangent:
      L.D->Tangent(&Ix, L.Actives, R.Shadows, L.Consts);
      break;
    case LaunchMode::Augmented:
      L.Tape->Slots[Ix.global_linear_id()] =
          L.D->Augmented(&Ix, L.Actives, R.Shadows, L.Consts);
      break;
    case LaunchMode::Reverse:
      L.D->Reverse(&Ix, L.Actives, R.Shadows, L.Consts,
                   L.Tape->Slots[Ix.global_linear_id()]);
      break;
    }
  }

  void runGroupOn(std::size_t Worker, std::size_t Group) const {
    WorkerState &W = WorkerPool::get().state(Worker);
    W.reserve(itemCount());
    if (Mode != LaunchMode::Primal)
      W.clearShadow();
    void *Shadows =
        WorkerShadows ? WorkerShadows[Worker].data() : this->Shadows;
    Running R{this, Group, &W, Shadows};
    runGroup(W, itemCount(), Mode == LaunchMode::Reverse, &runItem, &R);
  }

  void run() const {
    WorkerPool &P = WorkerPool::get();
    if (Mode == LaunchMode::Augmented)
      Tape->GroupsOf.assign(P.size(), {});
    std::atomic<std::size_t> Next{0};
    std::mutex OneGroup;
    P.run([&](std::size_t Worker) {
      if (Mode == LaunchMode::Reverse) {
        // On the worker that ran the group forward, last group first, one
        // group of the launch at a time.
        std::vector<std::size_t> &Mine = Tape->GroupsOf[Worker];
        for (auto It = Mine.rbegin(); It != Mine.rend(); ++It) {
          if (WorkerShadows) {
            runGroupOn(Worker, *It);
            continue;
          }
          std::lock_guard<std::mutex> Lock(OneGroup);
          runGroupOn(Worker, *It);
        }
        return;
      }
      for (;;) {
        std::size_t G = Next.fetch_add(1);
        if (G >= groupCount())
          return;
        if (Mode == LaunchMode::Augmented)
          Tape->GroupsOf[Worker].push_back(G);
        runGroupOn(Worker, G);
      }
    });
  }
};

/// Plans a reverse kernel in parallel, when every pointer argument whose
/// shadow takes adjoints is sized (adcc::sized) and there are several
/// workers: each worker gets a shadow tuple of its own, whose sized
/// pointers point to copies of their shadow values. The augmented kernel
/// runs with these tuples already (its items record the shadow pointers
/// they read). Returns false, planning nothing, otherwise.
inline bool planParallelReverse(const Launch &L, LaunchTape &T) {
  const KernelDesc &D = *L.D;
  const std::size_t Workers = WorkerPool::get().size();
  const std::size_t *Extents = D.Extents(L.Consts);
  std::vector<std::size_t> Privatized;
  for (std::size_t J = 0; J < D.ActiveCount; ++J) {
    if (D.OpaquePointer(J))
      return false; // (a struct's shadow: not merged value by value)
    void **Field = D.FloatPointer(T.Shadows.data(), J);
    if (!Field || !*Field || *Field == InactiveShadow::get().middle())
      continue;
    if (!Extents[J])
      return false;
    Privatized.push_back(J);
  }
  if (Workers < 2 || Privatized.empty())
    return false;
  T.Privatized = Privatized;
  T.WorkerTuples.assign(Workers, T.Shadows);
  T.Copies.assign(Workers, {});
  for (std::size_t W = 0; W < Workers; ++W)
    for (std::size_t J : Privatized) {
      T.Copies[W].emplace_back(Extents[J]);
      *D.FloatPointer(T.WorkerTuples[W].data(), J) = T.Copies[W].back().data();
    }
  return true;
}

/// The reverse kernel as planned above: each worker's copies start from
/// the shadow values as they are now (the seeds the caller has set since
/// the augmented kernel), its scalar adjoints from zero; afterwards the
/// changes each worker made are added into the real shadows, its scalar
/// adjoints into the caller's shadow tuple \p Caller. (Exact for kernels
/// whose primal has no races: an adjoint that one worker zeroes, no other
/// touches.)
inline void runParallelReverse(Launch &L, LaunchTape &T, void *Caller) {
  const KernelDesc &D = *L.D;
  const std::size_t *Extents = D.Extents(L.Consts);
  std::vector<std::vector<unsigned char>> Originals;
  for (std::size_t J : T.Privatized) {
    auto *Real = static_cast<unsigned char *>(
        *D.FloatPointer(T.Shadows.data(), J));
    Originals.emplace_back(Real, Real + Extents[J]);
  }
  for (std::size_t W = 0; W < T.WorkerTuples.size(); ++W) {
    D.ClearScalars(T.WorkerTuples[W].data());
    for (std::size_t K = 0; K < T.Privatized.size(); ++K)
      std::memcpy(T.Copies[W][K].data(), Originals[K].data(),
                  Originals[K].size());
  }
  L.WorkerShadows = T.WorkerTuples.data();
  L.run();
  for (std::size_t K = 0; K < T.Privatized.size(); ++K) {
    std::size_t J = T.Privatized[K];
    void *Real = *D.FloatPointer(T.Shadows.data(), J);
    for (std::size_t W = 0; W < T.WorkerTuples.size(); ++W)
      D.MergeShadow(J, Real, Originals[K].data(), T.Copies[W][K].data(),
                    Extents[J]);
  }
  for (std::size_t W = 0; W < T.WorkerTuples.size(); ++W)
    D.AddScalars(Caller, T.WorkerTuples[W].data());
}

/// Checks a launch's shape and fills \p L's group and item counts.
inline void shapeLaunch(Launch &L, const std::size_t *Global,
                        const std::size_t *Local) {
  for (int D = 0; D < 3; ++D) {
    if (Local[D] == 0 || Global[D] % Local[D] != 0)
      kernelError("the global range must be a non-zero multiple of the "
                  "work-group size in each dimension");
    L.Groups[D] = Global[D] / Local[D];
    L.Items[D] = Local[D];
  }
  if (L.itemCount() > 1024)
    kernelError("a work-group has at most 1024 items");
}

inline Launch makeLaunch(std::uintptr_t Desc, const std::size_t *Global,
                         const std::size_t *Local, LaunchMode M) {
  if (CurrentFiber)
    kernelError("a kernel cannot launch kernels (adcc::launch called by a "
                "work-item)");
  Launch L{};
  L.D = reinterpret_cast<const KernelDesc *>(Desc);
  if (M != LaunchMode::Primal && !L.D->Tangent)
    kernelError("a derivative of a launch compiled with "
                "ADCC_KERNELS_NO_DERIVATIVES");
  L.Mode = M;
  shapeLaunch(L, Global, Local);
  return L;
}

inline WorkerState &workerOf(const void *Ix) {
  return *static_cast<WorkerState *>(
      static_cast<const index *>(Ix)->Backend);
}

/// The next \p Bytes of group-local memory of the item \p Ix: its offset.
inline std::size_t takeLocal(const void *Ix, std::size_t Bytes) {
  const index &I = *static_cast<const index *>(Ix);
  std::size_t Offset = I.LocalOffset;
  std::size_t End = Offset + ((Bytes + 63) & ~std::size_t(63));
  if (End > WorkerState::LocalBytes)
    kernelError("a work-group asks for more than 1 MiB of group-local "
                "memory");
  I.LocalOffset = End;
  WorkerState &W = workerOf(Ix);
  if (End > W.ShadowUsed)
    W.ShadowUsed = End;
  return Offset;
}

} // namespace detail
} // namespace adcc

#endif // ADCC_KERNELS_LAUNCH_HPP
