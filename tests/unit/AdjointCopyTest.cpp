// Unit tests of the adjoints of memory copies (runtime/lib/adjoint.c):
// ranges apart, walked a cache line at a time with all-zero lines left
// alone, and overlapping ranges in both directions, against a reference
// that moves one element at a time.

#include "adcc_runtime.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

namespace {

// The adjoint of memmove(Dst, Src, N elements), one element at a time in
// the order memmove's semantics need: the copy read every source element
// before it wrote any destination element.
template <typename T> void reference(T *Dst, T *Src, size_t N) {
  std::vector<T> Moved(Dst, Dst + N);
  for (size_t I = 0; I < N; ++I)
    Dst[I] = 0;
  for (size_t I = 0; I < N; ++I)
    Src[I] += Moved[I];
}

template <typename T> void copyAdjoint(T *Dst, T *Src, size_t N) {
  if constexpr (sizeof(T) == 8)
    adcc_adjoint_copy_f64(Dst, Src, N * sizeof(T));
  else
    adcc_adjoint_copy_f32(Dst, Src, N * sizeof(T));
}

// Distinct values, with runs of zeros that cover whole cache lines and
// parts of lines, so that both the skipped and the worked lines are seen.
template <typename T> std::vector<T> pattern(size_t N, unsigned Seed) {
  std::vector<T> V(N);
  for (size_t I = 0; I < N; ++I) {
    bool Zero = ((I / 16 + Seed) % 3 == 0) || ((I + Seed) % 7 == 0);
    V[I] = Zero ? T(0) : T(0.25) * T((I * 37 + Seed) % 101) - T(12);
  }
  return V;
}

template <typename T>
bool sameBits(const std::vector<T> &A, const std::vector<T> &B) {
  return A.size() == B.size() &&
         std::memcmp(A.data(), B.data(), A.size() * sizeof(T)) == 0;
}

template <typename T> void checkOffsets() {
  // One buffer holds both ranges; Dst and Src at every offset apart and
  // overlapping, with lengths around the cache line's element count.
  for (size_t N : {0u, 1u, 7u, 8u, 15u, 16u, 17u, 33u, 100u, 257u})
    for (ptrdiff_t Shift : {-300, -40, -17, -8, -3, -1, 1, 2, 5, 16, 29, 300}) {
      size_t Size = N + 2 * 300 + 64;
      std::vector<T> Got = pattern<T>(Size, unsigned(N + Shift + 400));
      std::vector<T> Want = Got;
      size_t SrcAt = 300 + 32, DstAt = size_t(ptrdiff_t(SrcAt) + Shift);
      copyAdjoint(Got.data() + DstAt, Got.data() + SrcAt, N);
      reference(Want.data() + DstAt, Want.data() + SrcAt, N);
      INFO("n = " << N << ", dst - src = " << Shift);
      CHECK(sameBits(Got, Want));
    }
}

} // namespace

TEST_CASE("adjoint copies match the element-wise reference", "[adjoint]") {
  SECTION("double") { checkOffsets<double>(); }
  SECTION("float") { checkOffsets<float>(); }
}

TEST_CASE("an all-zero destination line leaves the source's bits alone",
          "[adjoint]") {
  // Adding +0.0 would turn a -0.0 source into +0.0; the line is skipped.
  std::vector<double> Src(16, -0.0), Dst(16, 0.0);
  Dst[12] = 2.0; // the second line has work
  adcc_adjoint_copy_f64(Dst.data(), Src.data(), 16 * sizeof(double));
  for (int I = 0; I < 8; ++I)
    CHECK(std::signbit(Src[I]));
  CHECK(Src[12] == 2.0);
  for (double D : Dst)
    CHECK(D == 0.0);

  // A -0.0 adjoint in the destination is not all zero bits: it is moved
  // (and cleared to +0.0) like any other value.
  std::vector<float> SrcF(16, 1.0f), DstF(16, 0.0f);
  DstF[3] = -0.0f;
  adcc_adjoint_copy_f32(DstF.data(), SrcF.data(), 16 * sizeof(float));
  CHECK_FALSE(std::signbit(DstF[3]));
  CHECK(SrcF[3] == 1.0f);
}

TEST_CASE("NaN and infinite adjoints travel through the copy", "[adjoint]") {
  std::vector<double> Src(24, 1.0), Dst(24, 0.0);
  Dst[5] = NAN;
  Dst[19] = INFINITY;
  adcc_adjoint_copy_f64(Dst.data(), Src.data(), 24 * sizeof(double));
  CHECK(std::isnan(Src[5]));
  CHECK(std::isinf(Src[19]));
  CHECK(Dst[5] == 0.0);
  CHECK(Dst[19] == 0.0);
  CHECK(Src[0] == 1.0);
}
