/*===- adcc.hpp - adcc's C++ API ------------------------------*- C++ -*-===*
 *
 * Gradients and tangents of C++ functions, lambdas and functors, with the
 * arguments' roles given by wrappers:
 *
 *   #include <adcc.hpp>
 *   double f(double x, const double *p, int n);
 *   double p[3] = {...}, dp[3] = {};             // adjoints accumulate in dp
 *   auto [dx] = adcc::gradient(f, adcc::Active(2.0), adcc::Duplicated(p, dp),
 *                              adcc::Const(3));
 *   double t = adcc::forward(f, adcc::Dual(2.0, 1.0), adcc::Const(p),
 *                            adcc::Const(3));    // the tangent of f
 *
 * gradient returns a std::tuple with the adjoint of each Active argument,
 * in order (the result is seeded with 1; it must be floating-point);
 * Duplicated arguments get their adjoints added into their shadows.
 * forward returns the tangent of the result for the tangents of the Dual
 * arguments (a Dual pointer's tangent is its shadow memory). A callable
 * object (lambda, functor) is differentiated with respect to its
 * arguments; what it captures is constant. Both are built on
 * __enzyme_autodiff and __enzyme_fwddiff (docs/api.md, "The C++ API").
 * Not yet: adcc::jacobian and adcc::hvp.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ADCC_HPP
#define ADCC_HPP

#if __cplusplus < 201703L
#error "<adcc.hpp> needs C++17 or later"
#endif

#include <adcc.h>

#include <tuple>
#include <type_traits>
#include <utility>

extern int enzyme_dup, enzyme_const, enzyme_out;
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

/// The parameter a wrapped argument is for the function.
template <typename W> struct Role;
template <typename T> struct Role<Active<T>> { using type = T; };
template <typename T> struct Role<Duplicated<T>> { using type = T *; };
template <typename T> struct Role<Const<T>> { using type = T; };
template <typename T> struct Role<Dual<T>> { using type = T; };

/// What the request passes for a wrapped argument (Const ones travel in
/// the closure): the value, then its shadow or tangent. adcc's default
/// activities apply (a floating-point value is active in reverse mode and
/// dual in forward mode, a pointer is duplicated).
template <typename T> std::tuple<T> passed(const Active<T> &a) {
  return std::tuple<T>(a.value);
}
template <typename T>
std::tuple<T *, std::remove_const_t<T> *> passed(const Duplicated<T> &d) {
  return {d.value, d.shadow};
}
template <typename T> std::tuple<> passed(const Const<T> &) { return {}; }
template <typename T> std::tuple<T, T> passed(const Dual<T> &d) {
  return std::tuple<T, T>(d.value, d.tangent);
}

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
      Varying<List<As..., typename Role<W>::type>, Ws...>>::type;
};

/// The callable and the arguments as wrapped (the Const values read from
/// here, where nothing has a derivative).
template <typename F, typename... Ws> struct Closure {
  const F *f;
  std::tuple<Ws...> wrapped;
};

/// How many of the first \p I wrapped arguments are not Const.
template <typename... Ws> constexpr std::size_t varyingBefore(std::size_t I) {
  constexpr bool Const[] = {IsConst<Ws>::value..., false};
  std::size_t N = 0;
  for (std::size_t J = 0; J < I; ++J)
    N += !Const[J];
  return N;
}

/// Argument \p I of the callable: a Const one straight from the closure
/// (so that nothing makes it look active), the others from \p Rs.
template <std::size_t I, typename... Ws, typename Refs>
[[gnu::always_inline]] inline decltype(auto) pick(const std::tuple<Ws...> &W,
                                                  Refs &Rs) {
  using W_I = std::tuple_element_t<I, std::tuple<Ws...>>;
  if constexpr (IsConst<W_I>::value)
    return std::get<I>(W).value;
  else
    return std::get<varyingBefore<Ws...>(I)>(Rs);
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
    return (*c->f)(pick<Is>(c->wrapped, R)...);
  }
};

/// The adjoints of the Active arguments as adcc returns them: one value,
/// or a struct of them in order (nested: the same layout).
template <typename... Ts> struct Pack;
template <> struct Pack<> {};
template <typename T> struct Pack<T> {
  T first;
  std::tuple<T> tuple() const { return std::tuple<T>(first); }
};
template <typename T, typename U, typename... Ts> struct Pack<T, U, Ts...> {
  T first;
  Pack<U, Ts...> rest;
  std::tuple<T, U, Ts...> tuple() const {
    return std::tuple_cat(std::tuple<T>(first), rest.tuple());
  }
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

} // namespace detail

/// The gradient of \p f (a function, lambda or functor with a
/// floating-point result) at the wrapped arguments: a std::tuple of the
/// adjoints of the Active ones, in order; Duplicated shadows receive
/// theirs (+=).
template <typename F, typename... Ws> auto gradient(const F &f, Ws... args) {
  static_assert((detail::IsWrapper<Ws>::value && ...),
                "adcc::gradient: wrap each argument in adcc::Active, "
                "adcc::Duplicated or adcc::Const");
  static_assert(!(std::is_same_v<Ws, Dual<typename detail::Role<Ws>::type>> ||
                  ...),
                "adcc::gradient: adcc::Dual is for adcc::forward");
  static_assert(std::is_floating_point_v<detail::ResultOf<F, Ws...>>,
                "adcc::gradient: the function must return a floating-point "
                "value");
  using Tr = detail::Trampoline<
      F, typename detail::Varying<detail::List<>, Ws...>::type, Ws...>;
  using Adjoints = typename detail::ActivePack<detail::Pack<>, Ws...>::type;
  detail::Closure<F, Ws...> C{&f, std::tuple<Ws...>(args...)};
  auto Request = [&C](auto... xs) {
    if constexpr (std::is_same_v<Adjoints, detail::Pack<>>) {
      __enzyme_autodiff<void>(reinterpret_cast<void *>(&Tr::call),
                              enzyme_const, &C, xs...);
      return std::tuple<>();
    } else {
      return __enzyme_autodiff<Adjoints>(reinterpret_cast<void *>(&Tr::call),
                                         enzyme_const, &C, xs...)
          .tuple();
    }
  };
  return std::apply(Request, std::tuple_cat(detail::passed(args)...));
}

/// The tangent of \p f's result at the wrapped arguments: adcc::Dual for
/// a floating-point value and its tangent, or a pointer and its shadow
/// memory (whose tangents the function may also write); adcc::Const.
template <typename F, typename... Ws> auto forward(const F &f, Ws... args) {
  static_assert((detail::IsWrapper<Ws>::value && ...),
                "adcc::forward: wrap each argument in adcc::Dual or "
                "adcc::Const");
  static_assert(!(detail::IsActive<Ws>::value || ...),
                "adcc::forward: adcc::Active is for adcc::gradient; use "
                "adcc::Dual(value, tangent)");
  using Result = detail::ResultOf<F, Ws...>;
  using Tr = detail::Trampoline<
      F, typename detail::Varying<detail::List<>, Ws...>::type, Ws...>;
  detail::Closure<F, Ws...> C{&f, std::tuple<Ws...>(args...)};
  auto Request = [&C](auto... xs) {
    return __enzyme_fwddiff<Result>(reinterpret_cast<void *>(&Tr::call),
                                    enzyme_const, &C, xs...);
  };
  return std::apply(Request, std::tuple_cat(detail::passed(args)...));
}

} // namespace adcc

#endif // ADCC_HPP
