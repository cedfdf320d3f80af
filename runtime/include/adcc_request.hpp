/*===- adcc_request.hpp - The wrappers of <adcc.hpp> and their requests -===*
 *
 * Part of adcc's C++ API, included by <adcc.hpp> (include that instead):
 * the argument wrappers (Active, Duplicated, Const, Dual) and how a call of
 * adcc::gradient or adcc::forward becomes one __enzyme_autodiff or
 * __enzyme_fwddiff request of a trampoline that calls the callable, with
 * the callable and the Const values in a closure.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ADCC_REQUEST_HPP
#define ADCC_REQUEST_HPP

#include <array>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

extern int enzyme_dup, enzyme_const, enzyme_out, enzyme_primal_return;
template <typename R> R __enzyme_autodiff(void *, ...);
template <typename R> R __enzyme_fwddiff(void *, ...);

namespace adcc {

/// A floating-point value whose adjoint gradient() returns.
template <typename T> struct Active {
  T value;
  explicit Active(T v) : value(v) {}
};
/// A pointer and its shadow memory: adjoints are added into the shadow
/// (gradient), or the shadow holds the tangent (forward).
template <typename T> struct Duplicated {
  T *value;
  std::remove_const_t<T> *shadow;
  Duplicated(T *v, std::remove_const_t<T> *s) : value(v), shadow(s) {}
};
/// A value with no derivative.
template <typename T> struct Const {
  T value;
  explicit Const(T v) : value(v) {}
};
/// A value and its tangent (forward mode).
template <typename T> struct Dual {
  T value;
  T tangent;
  Dual(T v, T t) : value(v), tangent(t) {}
};
template <typename T, typename U> Duplicated(T *, U *) -> Duplicated<T>;
template <typename T> Dual(T, T) -> Dual<T>;

namespace detail {

template <typename W> struct IsWrapper : std::false_type {};
template <typename T> struct IsWrapper<Active<T>> : std::true_type {};
template <typename T> struct IsWrapper<Duplicated<T>> : std::true_type {};
template <typename T> struct IsWrapper<Const<T>> : std::true_type {};
template <typename T> struct IsWrapper<Dual<T>> : std::true_type {};

template <typename W> struct IsConst : std::false_type {};
template <typename T> struct IsConst<Const<T>> : std::true_type {};
template <typename W> struct IsActive : std::false_type {};
template <typename T> struct IsActive<Active<T>> : std::true_type {};
template <typename T> struct Indirect;
template <typename W> struct IsIndirect : std::false_type {};
template <typename T> struct IsIndirect<Indirect<T>> : std::true_type {};

/// The parameter a wrapped argument is for the function.
template <typename W> struct Role;
template <typename T> struct Role<Active<T>> { using type = T; };
template <typename T> struct Role<Duplicated<T>> { using type = T *; };
template <typename T> struct Role<Const<T>> { using type = T; };
template <typename T> struct Role<Dual<T>> { using type = T; };

/// An Active or Dual value of a class type (a struct, std::array,
/// std::complex), given to the function adcc differentiates through a
/// pointer: it receives the address of a copy and of its shadow (zeros for
/// a gradient, which adds the adjoint there; the tangent for forward mode),
/// the callable the value. (Requests take a struct by value only up to 16
/// bytes; pointers serve every size alike.)
template <typename T> struct Indirect {
  T *value;
  T *shadow;
};
template <typename T> struct Role<Indirect<T>> { using type = T; };

template <typename T> using PassedIndirectly = std::is_class<T>;

/// A result that comes back through memory the caller passes (more than 16
/// bytes), which a request cannot name.
template <typename T>
struct LargerThanRegisters : std::bool_constant<(sizeof(T) > 16)> {};
template <typename T>
using ReturnedInMemory =
    std::conjunction<std::is_class<T>, LargerThanRegisters<T>>;

/// The parameter of the function adcc differentiates for a wrapped
/// argument: the callable's, or a pointer for an Indirect one.
template <typename W> struct Param : Role<W> {};
template <typename T> struct Param<Indirect<T>> { using type = T *; };

/// An Active or Dual argument of a class type that must be copied by a
/// constructor cannot be given a shadow here (a std::vector's shadow is
/// another vector with memory of its own): Duplicated pointers are for
/// those.
template <typename W> struct Copyable : std::true_type {};
template <typename T>
struct Copyable<Active<T>> : std::is_trivially_copyable<T> {};
template <typename T>
struct Copyable<Dual<T>> : std::is_trivially_copyable<T> {};

template <typename... Ts> struct List {};

/// The parameters of the function adcc differentiates: those of the
/// wrapped arguments that are not Const.
template <typename Acc, typename... Ws> struct Varying;
template <typename... As> struct Varying<List<As...>> {
  using type = List<As...>;
};
template <typename... As, typename W, typename... Ws>
struct Varying<List<As...>, W, Ws...> {
  using type = typename std::conditional_t<
      IsConst<W>::value, Varying<List<As...>, Ws...>,
      Varying<List<As..., typename Param<W>::type>, Ws...>>::type;
};

/// How many values stand for a wrapped argument: its value, and for
/// Duplicated and Dual its shadow or tangent.
template <typename W> struct Given : std::integral_constant<std::size_t, 1> {};
template <typename T>
struct Given<Duplicated<T>> : std::integral_constant<std::size_t, 2> {};
template <typename T>
struct Given<Dual<T>> : std::integral_constant<std::size_t, 2> {};
template <typename T>
struct Given<Indirect<T>> : std::integral_constant<std::size_t, 2> {};

/// Where the values of the wrapped arguments \p Ws lie in the list of all
/// their given values, and which of them a request passes (those of the
/// arguments that are not Const: adcc's default activities apply, a
/// floating-point value is active in reverse mode and dual in forward mode,
/// a pointer is duplicated).
template <typename... Ws> struct Layout {
  static constexpr std::size_t Count[] = {Given<Ws>::value..., 0};
  static constexpr bool Const[] = {IsConst<Ws>::value..., false};
  static constexpr std::size_t first(std::size_t I) {
    std::size_t K = 0;
    for (std::size_t J = 0; J < I; ++J)
      K += Count[J];
    return K;
  }
  static constexpr std::size_t argumentOf(std::size_t K) {
    std::size_t I = 0;
    while (first(I + 1) <= K)
      ++I;
    return I;
  }
  /// How many of the first \p I arguments are not Const.
  static constexpr std::size_t varyingBefore(std::size_t I) {
    std::size_t N = 0;
    for (std::size_t J = 0; J < I; ++J)
      N += !Const[J];
    return N;
  }
  static constexpr std::size_t passedCount() {
    std::size_t N = 0;
    for (std::size_t I = 0; I < sizeof...(Ws); ++I)
      N += Const[I] ? 0 : Count[I];
    return N;
  }
  static constexpr std::array<std::size_t, passedCount() + 1> passed() {
    std::array<std::size_t, passedCount() + 1> P{};
    std::size_t N = 0;
    for (std::size_t I = 0; I < sizeof...(Ws); ++I)
      for (std::size_t J = 0; J < Count[I] && !Const[I]; ++J)
        P[N++] = first(I) + J;
    return P;
  }
};

template <typename L, std::size_t... Js>
std::index_sequence<L::passed()[Js]...> passedSequence(std::index_sequence<Js...>);
/// The positions of the values a request passes, among all given values.
template <typename... Ws>
using Passed = decltype(passedSequence<Layout<Ws...>>(
    std::make_index_sequence<Layout<Ws...>::passedCount()>()));

// (Everything from here to the request call is inlined even at -O0 and
// passes values, never addresses: the closure's address goes nowhere but
// to the request, so that where the code making it is differentiated
// itself (forward mode over a function that calls gradient: hvp) the
// closure is visibly memory that holds no derivative.)

/// Value \p K of \p vs (by value).
template <std::size_t K, typename V, typename... Vs>
[[gnu::always_inline]] inline auto nth(V v, Vs... vs) {
  if constexpr (K == 0)
    return v;
  else
    return nth<K - 1>(vs...);
}

template <typename T>
[[gnu::always_inline]] inline std::remove_const_t<T> *second(Duplicated<T> d) {
  return d.shadow;
}
template <typename T> [[gnu::always_inline]] inline T second(Dual<T> d) {
  return d.tangent;
}
template <typename T>
[[gnu::always_inline]] inline T *second(Indirect<T> d) {
  return d.shadow;
}

/// Given value \p K of the wrapped arguments.
template <std::size_t K, typename... Ws>
[[gnu::always_inline]] inline auto given(Ws... args) {
  using L = Layout<Ws...>;
  constexpr std::size_t I = L::argumentOf(K);
  auto W = nth<I>(args...);
  if constexpr (K == L::first(I))
    return W.value;
  else
    return second(W);
}

/// The closure's copy of argument \p I: a Const one as it is, the others
/// (read from the function's parameters, never from here) as zeros where
/// their type has a default value.
template <std::size_t I, typename T> struct Slot {
  T value;
};
template <typename W, typename T> [[gnu::always_inline]] inline T held(T v) {
  if constexpr (!IsConst<W>::value && std::is_default_constructible_v<T>)
    return T{};
  else
    return v;
}
template <typename Seq, typename... Ws> struct Slots;
template <std::size_t... Is, typename... Ws>
struct Slots<std::index_sequence<Is...>, Ws...>
    : Slot<Is, typename Param<Ws>::type>... {};

/// The callable and the arguments' copies.
template <typename F, typename... Ws> struct Closure {
  const F *f;
  Slots<std::index_sequence_for<Ws...>, Ws...> held;
};

/// Argument \p I of the callable: a Const one straight from the closure
/// (so that nothing makes it look active), the others from \p Rs.
template <std::size_t I, typename F, typename... Ws, typename Refs>
[[gnu::always_inline]] inline decltype(auto)
pick(const Closure<F, Ws...> *C, Refs &Rs) {
  using W_I = std::tuple_element_t<I, std::tuple<Ws...>>;
  if constexpr (IsConst<W_I>::value)
    return static_cast<const Slot<I, typename Param<W_I>::type> &>(C->held)
        .value;
  else if constexpr (IsIndirect<W_I>::value)
    return *std::get<Layout<Ws...>::varyingBefore(I)>(Rs);
  else
    return std::get<Layout<Ws...>::varyingBefore(I)>(Rs);
}

/// The function adcc differentiates: calls the callable.
template <typename F, typename L, typename... Ws> struct Trampoline;
template <typename F, typename... Rs, typename... Ws>
struct Trampoline<F, List<Rs...>, Ws...> {
  static auto call(const Closure<F, Ws...> *c, Rs... rs) {
    auto Refs = std::forward_as_tuple(rs...);
    return with(c, Refs, std::index_sequence_for<Ws...>());
  }
  // (Inlined even at -O0: a Const argument is then read from the closure
  // in the function adcc differentiates, where it is visibly constant.)
  template <typename Refs, std::size_t... Is>
  [[gnu::always_inline]] static auto with(const Closure<F, Ws...> *c, Refs &R,
                                          std::index_sequence<Is...>) {
    return (*c->f)(pick<Is>(c, R)...);
  }
};

template <typename F, typename... Ws>
using TrampolineOf =
    Trampoline<F, typename Varying<List<>, Ws...>::type, Ws...>;

template <bool Reverse, bool WithPrimal, typename R, typename F,
          typename... Ws>
struct RequestWith {
  template <std::size_t... Is, std::size_t... Ps, typename... Vs>
  [[gnu::always_inline]] static R run(const F &f, std::index_sequence<Is...>,
                                      std::index_sequence<Ps...>, Vs... vs) {
    using L = Layout<Ws...>;
    using Tr = TrampolineOf<F, Ws...>;
    Closure<F, Ws...> C{
        &f,
        {Slot<Is, typename Param<Ws>::type>{
            held<Ws>(nth<L::first(Is)>(vs...))}...}};
    if constexpr (Reverse && WithPrimal)
      return __enzyme_autodiff<R>(reinterpret_cast<void *>(&Tr::call),
                                  enzyme_primal_return, enzyme_const, &C,
                                  nth<Ps>(vs...)...);
    else if constexpr (Reverse)
      return __enzyme_autodiff<R>(reinterpret_cast<void *>(&Tr::call),
                                  enzyme_const, &C, nth<Ps>(vs...)...);
    else if constexpr (WithPrimal)
      return __enzyme_fwddiff<R>(reinterpret_cast<void *>(&Tr::call),
                                 enzyme_primal_return, enzyme_const, &C,
                                 nth<Ps>(vs...)...);
    else
      return __enzyme_fwddiff<R>(reinterpret_cast<void *>(&Tr::call),
                                 enzyme_const, &C, nth<Ps>(vs...)...);
  }
  template <std::size_t... Ks>
  [[gnu::always_inline]] static R fromWrapped(const F &f,
                                              std::index_sequence<Ks...>,
                                              Ws... args) {
    return run(f, std::index_sequence_for<Ws...>(), Passed<Ws...>(),
               given<Ks>(args...)...);
  }
  /// From the wrapped arguments.
  [[gnu::always_inline]] static R call(const F &f, Ws... args) {
    return fromWrapped(
        f, std::make_index_sequence<Layout<Ws...>::first(sizeof...(Ws))>(),
        args...);
  }
};

/// The request of \p f's derivative at the wrapped arguments \p Ws, from
/// their given values \p vs: reverse mode (result \p R: the adjoints) or
/// forward mode (the tangent); \p WithPrimal: the primal's result first
/// (enzyme_primal_return).
template <bool Reverse, typename R, typename F, typename... Ws>
struct Request : RequestWith<Reverse, false, R, F, Ws...> {};

/// The adjoints of the Active arguments as adcc returns them: one value,
/// or a struct of them in order, laid out flat as C lays out a struct
/// (each value a base of its own, in order: `{float, float, double}` has
/// the double at byte 8, where a nested `{float, {float, {double}}}` would
/// put it at 16).
template <std::size_t I, typename T> struct PackSlot {
  T value;
};
template <typename Seq, typename... Ts> struct PackBase;
template <> struct PackBase<std::index_sequence<>> {
  std::tuple<> tuple() const { return {}; }
};
template <std::size_t... Is, typename... Ts>
struct PackBase<std::index_sequence<Is...>, Ts...> : PackSlot<Is, Ts>... {
  PackBase() = default;
  PackBase(Ts... vs) : PackSlot<Is, Ts>{vs}... {}
  std::tuple<Ts...> tuple() const {
    return std::tuple<Ts...>(static_cast<const PackSlot<Is, Ts> &>(*this)
                                 .value...);
  }
};
template <typename... Ts>
struct Pack : PackBase<std::index_sequence_for<Ts...>, Ts...> {
  using PackBase<std::index_sequence_for<Ts...>, Ts...>::PackBase;
};

template <typename Acc, typename... Ws> struct ActivePack;
template <typename... As> struct ActivePack<Pack<As...>> {
  using type = Pack<As...>;
};
template <typename... As, typename W, typename... Ws>
struct ActivePack<Pack<As...>, W, Ws...> {
  using type = typename std::conditional_t<
      IsActive<W>::value,
      ActivePack<Pack<As..., typename Role<W>::type>, Ws...>,
      ActivePack<Pack<As...>, Ws...>>::type;
};

template <typename F, typename... Ws>
using ResultOf = decltype(std::declval<const F &>()(
    std::declval<typename Role<Ws>::type>()...));

/// f as a function that stores its result into *out: forward mode over it
/// gives the result's tangent as out's tangent (a std::array of three or
/// more values comes back through memory the caller passes, which a
/// request cannot name).
template <typename F, typename R, typename... Ws> struct StoredResult {
  const F *f;
  void operator()(R *out, typename Role<Ws>::type... xs) const {
    *out = (*f)(xs...);
  }
};

/// What a request is given for a wrapped argument: an Indirect one for an
/// Active or Dual value of a class type, the argument otherwise.
template <typename W> struct Converted {
  using type = W;
};
template <typename T> struct Converted<Active<T>> {
  using type = std::conditional_t<PassedIndirectly<T>::value, Indirect<T>,
                                  Active<T>>;
};
template <typename T> struct Converted<Dual<T>> {
  using type =
      std::conditional_t<PassedIndirectly<T>::value, Indirect<T>, Dual<T>>;
};

/// Where an Indirect argument's copy and shadow live during the request.
template <typename T> struct IndirectStorage {
  T value;
  T shadow;
};
template <typename W>
using StorageOf =
    std::conditional_t<IsIndirect<typename Converted<W>::type>::value,
                       IndirectStorage<typename Role<W>::type>, std::tuple<>>;

template <typename W, typename S>
[[gnu::always_inline]] inline typename Converted<W>::type convert(W w, S &St) {
  using C = typename Converted<W>::type;
  if constexpr (IsIndirect<C>::value) {
    St.value = w.value;
    if constexpr (IsActive<W>::value)
      St.shadow = typename Role<W>::type{};
    else
      St.shadow = w.tangent;
    return C{&St.value, &St.shadow};
  } else {
    return w;
  }
}

/// The adjoints of the Active arguments \p Ws in order, from what the
/// request returned (\p Returned, those passed by value) and from the
/// shadows of the Indirect ones (\p St).
template <typename... Ws> struct AdjointsInOrder {
  static constexpr bool Active[] = {IsActive<Ws>::value..., false};
  static constexpr bool Returned[] = {
      (IsActive<Ws>::value &&
       !IsIndirect<typename Converted<Ws>::type>::value)...,
      false};
  static constexpr std::size_t count() {
    std::size_t N = 0;
    for (std::size_t I = 0; I < sizeof...(Ws); ++I)
      N += Active[I];
    return N;
  }
  static constexpr std::array<std::size_t, count() + 1> positions() {
    std::array<std::size_t, count() + 1> P{};
    std::size_t N = 0;
    for (std::size_t I = 0; I < sizeof...(Ws); ++I)
      if (Active[I])
        P[N++] = I;
    return P;
  }
  static constexpr std::size_t returnedBefore(std::size_t I) {
    std::size_t N = 0;
    for (std::size_t J = 0; J < I; ++J)
      N += Returned[J];
    return N;
  }
  template <std::size_t I, typename R, typename S>
  static auto at(const R &Ret, const S &St) {
    using W = std::tuple_element_t<I, std::tuple<Ws...>>;
    if constexpr (IsIndirect<typename Converted<W>::type>::value)
      return std::get<I>(St).shadow;
    else
      return std::get<returnedBefore(I)>(Ret);
  }
  template <typename R, typename S, std::size_t... Js>
  static auto make(const R &Ret, const S &St, std::index_sequence<Js...>) {
    return std::make_tuple(at<positions()[Js]>(Ret, St)...);
  }
  template <typename R, typename S>
  static auto make(const R &Ret, const S &St) {
    return make(Ret, St, std::make_index_sequence<count()>());
  }
};

template <typename F, typename... Ws, std::size_t... Is>
auto gradientOf(const F &f, std::index_sequence<Is...>, Ws... args) {
  std::tuple<StorageOf<Ws>...> St;
  using Adjoints =
      typename ActivePack<Pack<>, typename Converted<Ws>::type...>::type;
  if constexpr (std::is_same_v<Adjoints, Pack<>>) {
    Request<true, void, F, typename Converted<Ws>::type...>::call(
        f, convert(args, std::get<Is>(St))...);
    return AdjointsInOrder<Ws...>::make(std::tuple<>(), St);
  } else {
    auto Returned =
        Request<true, Adjoints, F, typename Converted<Ws>::type...>::call(
            f, convert(args, std::get<Is>(St))...)
            .tuple();
    return AdjointsInOrder<Ws...>::make(Returned, St);
  }
}

/// gradientOf with the primal's result: {result, std::tuple of the
/// adjoints}, from one run of \p f.
template <typename F, typename... Ws, std::size_t... Is>
auto valueAndGradientOf(const F &f, std::index_sequence<Is...>, Ws... args) {
  std::tuple<StorageOf<Ws>...> St;
  using Result = ResultOf<F, Ws...>;
  using Adjoints =
      typename ActivePack<Pack<Result>, typename Converted<Ws>::type...>::type;
  auto Returned =
      RequestWith<true, true, Adjoints, F,
                  typename Converted<Ws>::type...>::call(
          f, convert(args, std::get<Is>(St))...)
          .tuple();
  Result Value = std::get<0>(Returned);
  auto Rest = std::apply(
      [](auto, auto... As) { return std::make_tuple(As...); }, Returned);
  return std::make_pair(Value, AdjointsInOrder<Ws...>::make(Rest, St));
}

/// forwardOf with the primal's result: {result, tangent}.
template <typename F, typename... Ws, std::size_t... Is>
auto valueAndForwardOf(const F &f, std::index_sequence<Is...>, Ws... args) {
  std::tuple<StorageOf<Ws>...> St;
  using Result = ResultOf<F, Ws...>;
  auto Both = RequestWith<false, true, Pack<Result, Result>, F,
                          typename Converted<Ws>::type...>::call(
                  f, convert(args, std::get<Is>(St))...)
                  .tuple();
  return std::make_pair(std::get<0>(Both), std::get<1>(Both));
}

template <typename F, typename... Ws, std::size_t... Is>
auto forwardOf(const F &f, std::index_sequence<Is...>, Ws... args) {
  std::tuple<StorageOf<Ws>...> St;
  return Request<false, ResultOf<F, Ws...>, F,
                 typename Converted<Ws>::type...>::call(f,
                                                        convert(
                                                            args,
                                                            std::get<Is>(St))...);
}

} // namespace detail

} // namespace adcc

#endif // ADCC_REQUEST_HPP
