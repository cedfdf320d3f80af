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
 * hvp returns the Hessian of f times a direction, for floating-point
 * arguments (or std::arrays of them) given as adcc::Dual(value, direction)
 * (forward mode over gradient, in one pass):
 *
 *   auto [hx, hy] = adcc::hvp(f2, adcc::Dual(x, vx), adcc::Dual(y, vy));
 *
 * jacobian differentiates a function returning a std::array with respect
 * to its Active arguments (floating-point values or std::arrays of them;
 * forward mode, a pass per column):
 *
 *   std::array<double, 2> polar(double r, double t);  // {r cos t, r sin t}
 *   auto J = adcc::jacobian(polar, adcc::Active(r), adcc::Active(t));
 *   // J[i][j] = d polar[i] / d (argument j): 2 x 2
 *
 * Active and Dual values may be structs, std::arrays and complex values of
 * any size (they travel through pointers to copies); a forward result too.
 * Not yet: jacobian and hvp with respect to pointer arguments.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ADCC_HPP
#define ADCC_HPP

#if __cplusplus < 201703L
#error "<adcc.hpp> needs C++17 or later"
#endif

#include <adcc.h>

#include <array>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include <adcc_request.hpp>

namespace adcc {

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
  static_assert((detail::Copyable<Ws>::value && ...),
                "adcc::gradient: an Active value must be trivially copyable "
                "(floating-point, complex, a struct or std::array of them); "
                "give other objects as adcc::Duplicated(&value, &shadow)");
  return detail::gradientOf(f, std::index_sequence_for<Ws...>(), args...);
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
  static_assert((detail::Copyable<Ws>::value && ...),
                "adcc::forward: a Dual value must be trivially copyable "
                "(floating-point, complex, a struct or std::array of them); "
                "give other objects as adcc::Dual(&value, &tangent)");
  using Result = detail::ResultOf<F, Ws...>;
  if constexpr (detail::ReturnedInMemory<Result>::value) {
    // (A result too large for registers comes back through memory, which
    // a request cannot name: stored through a Dual pointer instead.)
    Result Out{}, Tangent{};
    forward(detail::StoredResult<F, Result, Ws...>{&f},
            Dual<Result *>(&Out, &Tangent), args...);
    return Tangent;
  } else {
    return detail::forwardOf(f, std::index_sequence_for<Ws...>(), args...);
  }
}

namespace detail {

/// What hvp hands gradient for each argument: a Dual's value is Active, a
/// Const stays constant.
template <typename W> struct ForGradient;
template <typename T> struct ForGradient<Dual<T>> {
  using type = Active<T>;
};
template <typename T> struct ForGradient<Const<T>> {
  using type = Const<T>;
};

template <typename R> struct IsFloatArray : std::false_type {};
template <typename T, std::size_t M>
struct IsFloatArray<std::array<T, M>> : std::is_floating_point<T> {};

template <typename... Ts, std::size_t... Is>
Pack<Ts...> packOf(const std::tuple<Ts...> &T, std::index_sequence<Is...>) {
  return Pack<Ts...>(std::get<Is>(T)...);
}

/// Given value \p K of the converted arguments \p Cs for the values \p xs:
/// an Indirect one's copy and shadow from \p St, the others' values.
template <typename... Cs> struct StoredGiven {
  template <std::size_t K, typename S, typename... Xs>
  [[gnu::always_inline]] static auto at(S &St, Xs... xs) {
    using L = Layout<Cs...>;
    constexpr std::size_t I = L::argumentOf(K);
    using C = std::tuple_element_t<I, std::tuple<Cs...>>;
    if constexpr (!IsIndirect<C>::value)
      return nth<I>(xs...);
    else if constexpr (K == L::first(I))
      return &std::get<I>(St).value;
    else
      return &std::get<I>(St).shadow;
  }
};

/// The gradient of f with respect to hvp's Dual arguments, as a function
/// of all its arguments that stores the adjoints into *out: forward mode
/// over it gives the Hessian times the direction as out's tangent. (Stored,
/// not returned: a struct of three or more values comes back through
/// memory the caller passes, which a request cannot name.)
template <typename F, typename... Ws> struct GradientOf {
  const F *f;
  using Adjoints =
      typename ActivePack<Pack<>, typename ForGradient<Ws>::type...>::type;

  // (The values go to the request as they are: no wrapper is made here,
  // whose construction would look like making active memory at -O0.)
  // (std::arrays go through copies and their shadows, Indirect, whose
  // tangents forward mode follows.)
  void operator()(Adjoints *out, typename Role<Ws>::type... xs) const {
    std::tuple<StorageOf<typename ForGradient<Ws>::type>...> St;
    withStorage(out, St, std::index_sequence_for<Ws...>(), xs...);
  }

private:
  /// What the inner request is given for argument W.
  template <typename W>
  using Conv = typename Converted<typename ForGradient<W>::type>::type;

  template <typename S, std::size_t... Is>
  void withStorage(Adjoints *out, S &St, std::index_sequence<Is...>,
                   typename Role<Ws>::type... xs) const {
    (fill<Is>(St, xs), ...);
    request(out, St,
            std::make_index_sequence<Layout<Conv<Ws>...>::first(
                sizeof...(Ws))>(),
            xs...);
  }
  template <std::size_t I, typename S, typename X>
  static void fill(S &St, const X &x) {
    if constexpr (IsIndirect<
                      Conv<std::tuple_element_t<I, std::tuple<Ws...>>>>::value) {
      std::get<I>(St).value = x;
      std::get<I>(St).shadow = X{};
    }
  }
  template <typename S, std::size_t... Ks>
  void request(Adjoints *out, S &St, std::index_sequence<Ks...>,
               typename Role<Ws>::type... xs) const {
    using Order = AdjointsInOrder<typename ForGradient<Ws>::type...>;
    using Returned = typename ActivePack<Pack<>, Conv<Ws>...>::type;
    constexpr bool NoneReturned = std::is_same_v<Returned, Pack<>>;
    using Req = Request<true, std::conditional_t<NoneReturned, void, Returned>,
                        F, Conv<Ws>...>;
    using Given = StoredGiven<Conv<Ws>...>;
    // (No lambda here: its captures would make addresses of constant
    // memory look active at -O0.)
    if constexpr (NoneReturned) {
      Req::run(*f, std::index_sequence_for<Ws...>(), Passed<Conv<Ws>...>(),
               Given::template at<Ks>(St, xs...)...);
      store(out, Order::make(std::tuple<>(), St));
    } else {
      store(out, Order::make(Req::run(*f, std::index_sequence_for<Ws...>(),
                                      Passed<Conv<Ws>...>(),
                                      Given::template at<Ks>(St, xs...)...)
                                 .tuple(),
                             St));
    }
  }
  template <typename T> static void store(Adjoints *out, const T &Values) {
    *out = packOf(Values, std::make_index_sequence<std::tuple_size_v<T>>());
  }
};

} // namespace detail

/// The Hessian of \p f (a function, lambda or functor with a floating-point
/// result) at the values of the adcc::Dual arguments (floating-point values
/// or std::arrays of them), times the direction their tangents form: a
/// std::tuple with one entry per Dual argument, in order. adcc::Const
/// arguments are held constant. Forward mode over reverse mode (gradient),
/// in one pass.
template <typename F, typename... Ws> auto hvp(const F &f, Ws... args) {
  static_assert(((std::is_same_v<Ws, Dual<typename detail::Role<Ws>::type>> ||
                  detail::IsConst<Ws>::value) &&
                 ...),
                "adcc::hvp: wrap each argument in adcc::Dual(value, "
                "direction) or adcc::Const");
  static_assert(((detail::IsConst<Ws>::value ||
                  std::is_floating_point_v<typename detail::Role<Ws>::type> ||
                  detail::IsFloatArray<typename detail::Role<Ws>::type>::value) &&
                 ...),
                "adcc::hvp: the Dual arguments must be floating-point values "
                "or std::arrays of them");
  static_assert(!(detail::IsConst<Ws>::value && ...),
                "adcc::hvp: at least one argument must be adcc::Dual");
  static_assert(std::is_floating_point_v<detail::ResultOf<F, Ws...>>,
                "adcc::hvp: the function must return a floating-point value");
  using G = detail::GradientOf<F, Ws...>;
  typename G::Adjoints Out{}, Hv{};
  forward(G{&f}, Dual<typename G::Adjoints *>(&Out, &Hv), args...);
  return Hv.tuple();
}

namespace detail {

/// What jacobian hands forward for each argument: an Active value becomes
/// a Dual one, a Const stays constant.
template <typename W> struct ForForward;
template <typename T> struct ForForward<Active<T>> {
  using type = Dual<T>;
};
template <typename T> struct ForForward<Const<T>> {
  using type = Const<T>;
};


/// How many columns of the Jacobian a wrapped argument has: one for an
/// Active floating-point value, K for an Active std::array of K of them.
template <typename W> struct Columns : std::integral_constant<std::size_t, 0> {};
template <typename T>
struct Columns<Active<T>> : std::integral_constant<std::size_t, 1> {};
template <typename T, std::size_t K>
struct Columns<Active<std::array<T, K>>>
    : std::integral_constant<std::size_t, K> {};

/// The columns of the first \p I arguments.
template <typename... Ws> constexpr std::size_t columnsBefore(std::size_t I) {
  constexpr std::size_t C[] = {Columns<Ws>::value..., 0};
  std::size_t N = 0;
  for (std::size_t J = 0; J < I; ++J)
    N += C[J];
  return N;
}

/// Argument \p I for the pass that seeds column \p Seeded: a Dual whose
/// tangent is 1 in that column, 0 in the others.
template <std::size_t I, typename... Ws>
typename ForForward<std::tuple_element_t<I, std::tuple<Ws...>>>::type
seededArgument(const std::tuple<Ws...> &Args, std::size_t Seeded) {
  using W = std::tuple_element_t<I, std::tuple<Ws...>>;
  const auto &A = std::get<I>(Args);
  using T = typename Role<W>::type;
  constexpr std::size_t First = columnsBefore<Ws...>(I);
  if constexpr (!IsActive<W>::value) {
    return A;
  } else if constexpr (std::is_floating_point_v<T>) {
    return Dual<T>(A.value, First == Seeded ? T(1) : T(0));
  } else {
    T Tangent{};
    if (Seeded >= First && Seeded < First + Columns<W>::value)
      Tangent[Seeded - First] = 1;
    return Dual<T>(A.value, Tangent);
  }
}

template <typename F, typename R, typename... Ws, std::size_t... Is>
void jacobianColumn(const F &f, const std::tuple<Ws...> &Args,
                    std::size_t Seeded, R *Tangent,
                    std::index_sequence<Is...>) {
  using G = StoredResult<F, R, typename ForForward<Ws>::type...>;
  R Out{};
  forward(G{&f}, Dual<R *>(&Out, Tangent),
          seededArgument<Is>(Args, Seeded)...);
}

} // namespace detail

/// The Jacobian of \p f (a function, lambda or functor returning a
/// std::array of M floating-point values) with respect to its adcc::Active
/// arguments (floating-point values, or std::arrays of them: N values in
/// all), at the wrapped arguments: a std::array of M rows of N entries,
/// J[i][j] = d result[i] / d (Active value j, the elements of an array in
/// order). adcc::Const arguments are held constant. Forward mode, one pass
/// per column.
template <typename F, typename... Ws> auto jacobian(const F &f, Ws... args) {
  static_assert(((detail::IsActive<Ws>::value || detail::IsConst<Ws>::value) &&
                 ...),
                "adcc::jacobian: wrap each argument in adcc::Active or "
                "adcc::Const");
  static_assert(((detail::IsConst<Ws>::value ||
                  std::is_floating_point_v<typename detail::Role<Ws>::type> ||
                  detail::IsFloatArray<typename detail::Role<Ws>::type>::value) &&
                 ...),
                "adcc::jacobian: the Active arguments must be floating-point "
                "values or std::arrays of them");
  using R = detail::ResultOf<F, Ws...>;
  static_assert(detail::IsFloatArray<R>::value,
                "adcc::jacobian: the function must return a std::array of "
                "floating-point values");
  using T = typename R::value_type;
  constexpr std::size_t M = std::tuple_size_v<R>;
  constexpr std::size_t N = detail::columnsBefore<Ws...>(sizeof...(Ws));
  static_assert(N > 0, "adcc::jacobian: at least one argument must be "
                       "adcc::Active");
  std::array<std::array<T, N>, M> J{};
  std::tuple<Ws...> Args(args...);
  for (std::size_t Col = 0; Col < N; ++Col) {
    R Tangent{};
    detail::jacobianColumn(f, Args, Col, &Tangent,
                           std::index_sequence_for<Ws...>());
    for (std::size_t Row = 0; Row < M; ++Row)
      J[Row][Col] = Tangent[Row];
  }
  return J;
}

/// Checkpointed loops and fixed points (<adcc_checkpoint.h>,
/// docs/checkpointing.md) over a state object and a parameter object (a
/// struct or std::array each; the gradient copies the parameters once). The
/// step is a function known at compile time, given as a template argument:
///
///   void rk4(State *y, const Params *p);
///   adcc::checkpointed_steps<rk4>(n, y, p, adcc::revolve(8));
///   adcc::checkpointed_while<rk4, running>(y, p, 8);
///   adcc::fixed_point<g>(x.data(), x.size(), p, 1e-12, 100);
struct Checkpoints {
  int schedule;
  long snapshots;
};
/// The binomial schedule with \p snapshots copies of the state.
constexpr Checkpoints revolve(long snapshots) {
  return {ADCC_REVOLVE, snapshots};
}
/// A copy of the state every ceil(n / snapshots) steps.
constexpr Checkpoints interval(long snapshots) {
  return {ADCC_INTERVAL, snapshots};
}

template <auto Step, typename S, typename P>
void checkpointed_steps(long n, S &state, const P &params, Checkpoints c) {
  static_assert(std::is_invocable_v<decltype(Step), S *, const P *>,
                "the step must be a function void (S *state, const P *params)");
  adcc_checkpointed_steps(reinterpret_cast<void *>(Step), n, &state,
                          sizeof(S), const_cast<P *>(&params), sizeof(P),
                          c.schedule, c.snapshots);
}

namespace detail {
/// The condition as the `int` function the runtime calls.
template <auto Cond, typename S, typename P>
int checkpointCondition(const void *state, const void *params) {
  return Cond(static_cast<const S *>(state), static_cast<const P *>(params))
             ? 1
             : 0;
}
} // namespace detail

template <auto Step, auto Cond, typename S, typename P>
void checkpointed_while(S &state, const P &params, long snapshots) {
  static_assert(std::is_invocable_v<decltype(Step), S *, const P *>,
                "the step must be a function void (S *state, const P *params)");
  static_assert(std::is_invocable_r_v<bool, decltype(Cond), const S *,
                                      const P *>,
                "the condition must be a function int (const S *state, "
                "const P *params)");
  adcc_checkpointed_while(
      reinterpret_cast<void *>(Step),
      reinterpret_cast<void *>(&detail::checkpointCondition<Cond, S, P>),
      &state, sizeof(S),
                          const_cast<P *>(&params), sizeof(P), snapshots);
}

template <auto G, typename P>
void fixed_point(double *state, std::size_t count, const P &params,
                 double tolerance, long max_iterations) {
  static_assert(std::is_invocable_v<decltype(G), double *, const P *>,
                "the iteration must be a function void (double *state, "
                "const P *params)");
  adcc_fixed_point(reinterpret_cast<void *>(G), state, count,
                   const_cast<P *>(&params), sizeof(P), tolerance,
                   max_iterations);
}

} // namespace adcc

#endif // ADCC_HPP
