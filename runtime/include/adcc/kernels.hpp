/*===- adcc/kernels.hpp - Portable kernels and their derivatives -*- C++ -*-===*
 *
 * A kernel is a function object called once per work-item with the item's
 * index context and the launch's arguments:
 *
 *   #include <adcc/kernels.hpp>
 *   auto saxpy = [](const adcc::index &ix, double a, const double *x,
 *                   double *y) {
 *     std::size_t i = ix.global_id();
 *     y[i] += a * x[i];
 *   };
 *   adcc::launch(adcc::cpu, saxpy, adcc::range(n), adcc::range(64), a, x, y);
 *
 * The global range is a multiple of the work-group's in each dimension.
 * Work-items of a group share group-local memory (ix.local_memory<T>(n))
 * and wait for each other at ix.barrier(), on every backend. A host
 * function that launches kernels is differentiable as a whole (adcc::
 * gradient, adcc::forward, the attributes, the __enzyme_* calls): forward
 * mode launches the tangent kernel, reverse mode an augmented kernel that
 * keeps one tape slot per work-item, then the reverse kernel
 * (docs/gpu.md, "Kernel launches"). Arguments wrapped in adcc::Const(v)
 * carry no derivative; pointers given as adcc::sized(p, n) let the CPU
 * backend's reverse kernel run its work-groups in parallel.
 *
 * Backends: adcc::cpu (host threads; always), adcc::cuda (compiled with
 * -x cuda), adcc::hip (compiled with -x hip).
 *
 *===----------------------------------------------------------------------===*/
#ifndef ADCC_KERNELS_HPP
#define ADCC_KERNELS_HPP

#if __cplusplus < 201703L
#error "<adcc/kernels.hpp> needs C++17 or later"
#endif

#include <adcc.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

#if defined(__CUDA__) || defined(__HIP__)
// (Spelled as attributes: HIP code compiled with -nogpuinc has no macros.)
#define ADCC_KERNEL_FN __attribute__((host, device))
#else
#define ADCC_KERNEL_FN
#endif

#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
#define ADCC_KERNELS_HOST 1
#include <adcc/kernels_cpu.hpp>
#endif

namespace adcc {

/// Sizes in up to three dimensions (unused ones are 1).
struct range {
  std::size_t n[3];
  ADCC_KERNEL_FN constexpr range(std::size_t X, std::size_t Y = 1,
                                 std::size_t Z = 1)
      : n{X, Y, Z} {}
  ADCC_KERNEL_FN constexpr std::size_t size() const { return n[0] * n[1] * n[2]; }
};

/// What a work-item knows of itself and the launch.
class index {
public:
  /// The item's position in the launch, in its group, and its group's.
  ADCC_KERNEL_FN std::size_t global_id(int D = 0) const {
    return Group[D] * LocalRange[D] + Local[D];
  }
  ADCC_KERNEL_FN std::size_t local_id(int D = 0) const { return Local[D]; }
  ADCC_KERNEL_FN std::size_t group_id(int D = 0) const { return Group[D]; }
  /// The sizes of the launch, of a group, and the number of groups.
  ADCC_KERNEL_FN std::size_t global_range(int D = 0) const {
    return GroupRange[D] * LocalRange[D];
  }
  ADCC_KERNEL_FN std::size_t local_range(int D = 0) const {
    return LocalRange[D];
  }
  ADCC_KERNEL_FN std::size_t group_range(int D = 0) const {
    return GroupRange[D];
  }
  ADCC_KERNEL_FN std::size_t global_linear_id() const {
    return (global_id(2) * global_range(1) + global_id(1)) * global_range(0) +
           global_id(0);
  }
  ADCC_KERNEL_FN std::size_t local_linear_id() const {
    return (Local[2] * LocalRange[1] + Local[1]) * LocalRange[0] + Local[0];
  }

  /// Waits until every item of the group has reached this barrier; the
  /// group-local memory written before it is visible after it.
  ADCC_KERNEL_FN void barrier() const;

  /// Group-local memory for \p N values of T, the same for every item of
  /// the group (each item asks for the same sizes in the same order).
  /// Uninitialized, as GPU shared memory is.
  template <typename T> ADCC_KERNEL_FN T *local_memory(std::size_t N) const;

  // The backends fill these.
  std::size_t Local[3], Group[3], LocalRange[3], GroupRange[3];
  /// Bytes of group-local memory given out to this item so far.
  mutable std::size_t LocalOffset;
  /// The backend's state of the item's group (CPU: its worker).
  void *Backend;
};

struct cpu_backend {};
/// Host threads (the number of processors, or ADCC_KERNEL_THREADS).
inline constexpr cpu_backend cpu{};

/// A pointer argument with the number of values the kernel may reach
/// through it (from the pointer on); the kernel receives the pointer. The
/// CPU backend's reverse kernel gives each worker a copy of its shadow and
/// runs the work-groups in parallel when every pointer argument with a
/// derivative is sized.
template <typename T> struct Sized {
  T *value;
  std::size_t size;
};
template <typename T> Sized<T> sized(T *Pointer, std::size_t Size) {
  static_assert(std::is_arithmetic_v<std::remove_const_t<T>>,
                "adcc::sized: a pointer to numbers");
  return {Pointer, Size};
}

namespace detail {

/// Zeroes a floating-point argument (of a shadow tuple); else nothing.
template <typename T> void clearScalar(T &V) {
  if constexpr (std::is_floating_point_v<T>)
    V = T(0);
}
/// Adds a floating-point argument into another; else nothing.
template <typename T> void addScalar(T &Into, const T &From) {
  if constexpr (std::is_floating_point_v<T>)
    Into += From;
}

template <typename W> struct Unwrap {
  using type = W;
  ADCC_KERNEL_FN static W get(const W &V) { return V; }
  static std::size_t bytes(const W &) { return 0; }
};
template <typename T> struct Unwrap<Const<T>> {
  using type = T;
  ADCC_KERNEL_FN static T get(const Const<T> &V) { return V.value; }
  static std::size_t bytes(const Const<T> &) { return 0; }
};
template <typename W> struct IsSized : std::false_type {};
template <typename T> struct IsSized<Sized<T>> : std::true_type {};
template <typename T> struct Unwrap<Sized<T>> {
  using type = T *;
  ADCC_KERNEL_FN static T *get(const Sized<T> &V) { return V.value; }
  static std::size_t bytes(const Sized<T> &V) { return V.size * sizeof(T); }
};

/// The kernel's arguments in two tuples: Actives (with derivatives) and
/// Consts (the kernel object first, then the adcc::Const ones).
template <typename K, typename... Ws> struct KernelArgs {
  static constexpr bool IsConstArg[] = {IsConst<Ws>::value..., false};
  template <bool C, typename W>
  using Keep = std::conditional_t<IsConst<W>::value == C,
                                  std::tuple<typename Unwrap<W>::type>,
                                  std::tuple<>>;
  using Actives = decltype(std::tuple_cat(std::declval<Keep<false, Ws>>()...,
                                          std::tuple<>()));
  static constexpr std::size_t ActiveCount = std::tuple_size_v<Actives>;
  /// Last in Consts: the bytes each active argument may reach (0: not
  /// known).
  using Extents = std::array<std::size_t, ActiveCount>;
  using Consts = decltype(std::tuple_cat(std::declval<std::tuple<K>>(),
                                         std::declval<Keep<true, Ws>>()...,
                                         std::declval<std::tuple<Extents>>()));

  /// Argument I's place in its tuple.
  static constexpr std::size_t slot(std::size_t I) {
    std::size_t N = IsConstArg[I] ? 1 : 0;
    for (std::size_t J = 0; J < I; ++J)
      N += IsConstArg[J] == IsConstArg[I];
    return N;
  }
  template <bool C, typename W> static Keep<C, W> keep(const W &V) {
    if constexpr (IsConst<W>::value == C)
      return Keep<C, W>(Unwrap<W>::get(V));
    else
      return {};
  }
  static Actives actives(const Ws &...V) {
    return std::tuple_cat(keep<false>(V)..., std::tuple<>());
  }
  static Consts consts(const K &F, const Ws &...V) {
    Extents E{};
    [[maybe_unused]] std::size_t J = 0;
    ((IsConst<Ws>::value ? void() : void(E[J++] = Unwrap<Ws>::bytes(V))), ...);
    return std::tuple_cat(std::tuple<K>(F), keep<true>(V)...,
                          std::tuple<Extents>(E));
  }

  template <std::size_t I>
  ADCC_KERNEL_FN static decltype(auto) arg(Actives &A, const Consts &C) {
    if constexpr (IsConstArg[I])
      return std::get<slot(I)>(C);
    else
      return std::get<slot(I)>(A);
  }
  template <std::size_t... Is>
  ADCC_KERNEL_FN static void call(const index &Ix, Actives &A, const Consts &C,
                                  std::index_sequence<Is...>) {
    std::get<0>(C)(Ix, arg<Is>(A, C)...);
  }
  /// Zeroes the floating-point arguments of a tuple of shadows.
  static void clearScalars(void *Dv) {
    std::apply([](auto &...V) { (clearScalar(V), ...); },
               *static_cast<Actives *>(Dv));
  }
  /// Adds the floating-point arguments of tuple \p From into \p Into's.
  static void addScalars(void *Into, const void *From) {
    addAll(*static_cast<Actives *>(Into), *static_cast<const Actives *>(From),
           std::make_index_sequence<ActiveCount>());
  }
  template <std::size_t... Is>
  static void addAll(Actives &Into, const Actives &From,
                     std::index_sequence<Is...>) {
    (addScalar(std::get<Is>(Into), std::get<Is>(From)), ...);
  }

  /// One work-item of the kernel (what the derivatives are made of).
  ADCC_KERNEL_FN static void item(const index *Ix, Actives *A,
                                  const Consts *C) {
    call(*Ix, *A, *C, std::index_sequence_for<Ws...>());
  }
};

template <typename K, typename... Ws> void checkKernel() {
  static_assert(!std::is_pointer_v<K> && !std::is_function_v<K>,
                "adcc::launch: pass the kernel as a lambda or function "
                "object, e.g. [](const adcc::index &ix, auto... a) { "
                "f(ix, a...); }, not as a function pointer");
  static_assert(std::is_trivially_copyable_v<K> &&
                    (std::is_trivially_copyable_v<Ws> && ...),
                "adcc::launch: the kernel object and the arguments must be "
                "trivially copyable (values, pointers)");
}

} // namespace detail
} // namespace adcc

#ifdef ADCC_KERNELS_HOST
extern "C" void adcc_kernel_barrier(const void *Ix);
extern "C" void *adcc_kernel_local(const void *Ix, std::size_t Bytes);
#endif
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
/// A block's dynamic shared memory: its group-local memory.
extern __attribute__((shared, aligned(16))) unsigned char
    adcc_kernel_shared[];
#endif

namespace adcc {

ADCC_KERNEL_FN inline void index::barrier() const {
#if defined(__HIP_DEVICE_COMPILE__)
  // (__syncthreads() as HIP's headers define it.)
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
#elif defined(__CUDA_ARCH__)
  __syncthreads();
#else
  adcc_kernel_barrier(this);
#endif
}

} // namespace adcc

#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
/// The next \p Bytes of the block's group-local memory for the item \p Ix
/// (in the derivative kernels, its rules give the shadow too:
/// kernels_gpu_rules.hpp).
// (Internal: AMDGPU code objects are shared objects, where a call of a
// preemptible symbol needs a relocation their linker refuses.)
extern "C" {
static __attribute__((device)) inline void *
adcc_kernel_local_gpu(const void *Ix, std::size_t Bytes) {
  const adcc::index &I = *static_cast<const adcc::index *>(Ix);
  std::size_t Offset = I.LocalOffset;
  I.LocalOffset += (Bytes + 63) & ~std::size_t(63);
  return adcc_kernel_shared + Offset;
}
}
#endif

namespace adcc {

template <typename T>
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
// (Inlined at every level: the kernel's body then calls the function whose
// rules give the shadow.)
__attribute__((always_inline))
#endif
ADCC_KERNEL_FN inline T *index::local_memory(std::size_t N) const {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  return static_cast<T *>(adcc_kernel_local_gpu(this, N * sizeof(T)));
#else
  return static_cast<T *>(adcc_kernel_local(this, N * sizeof(T)));
#endif
}

} // namespace adcc

#ifdef ADCC_KERNELS_HOST
#include <adcc/kernels_rules.hpp>
#else
namespace adcc {
// (Host code that a device compilation parses, never emits: the host
// compilation has the definition.)
template <typename K, typename... Ws>
void launch(cpu_backend, const K &, range, range, Ws...) {}
} // namespace adcc
#endif
#if defined(__CUDA__) || defined(__HIP__)
#include <adcc/kernels_gpu.hpp>
#endif

#endif // ADCC_KERNELS_HPP
