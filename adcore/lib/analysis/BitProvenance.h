//===- BitProvenance.h - Where an integer's bits come from -*- C++ -*-===//
//
// Math libraries written on the words of doubles (fdlibm's GET_HIGH_WORD
// and INSERT_WORDS, Cephes' 16-bit words) move a float's bits through
// integers. For each bit of such an integer, BitProvenance says whether it
// is a bit of a float copied unchanged (which one, where it was), computed
// from floats' bits by integer arithmetic, or unrelated to any float's
// bits (constants, counts, exponents converted from numbers).
//
// findUntraceableFloatBits uses it to find the integer arithmetic on a
// float's significand whose result becomes a float again (a square root
// computed bit by bit, the fast inverse square root's `0x5f3759df - (i >>
// 1)`, a logarithm read from the bits converted as a number): each is
// piecewise constant for the type analysis of integers, a derivative of
// zero that is wrong, so it is an error.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_BITPROVENANCE_H
#define ADCORE_BITPROVENANCE_H

#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <unordered_map>

namespace llvm {
class DataLayout;
class Function;
class Instruction;
class PHINode;
class Type;
class Value;
} // namespace llvm

namespace adcore {

/// Where one bit of an integer comes from.
struct BitSource {
  enum Kind : uint8_t {
    Unrelated, ///< no float's bits (a constant, a count, a load, ...)
    Copy,      ///< bit Pos of the float Float, unchanged
    Computed,  ///< computed from floats' bits by integer arithmetic
  };
  Kind K = Unrelated;
  /// Copy and Computed: whether a bit of a significand takes part.
  bool FromSignificand = false;
  /// Computed: whether bits of a significand from different places take
  /// part (a shift, a product); else they are all from Pos, with carries
  /// from below (fdlibm's floor adding one at the last bit it keeps).
  bool Moved = false;
  /// Copy: whether the bit may also be a constant instead (a mask known
  /// only at run time clears or keeps it; a path of a phi sets it).
  bool MaybeConstant = false;
  /// Copy: the bit of Float; Computed: where its significand's bits are.
  uint16_t Pos = 0;
  /// Copy: the float (double or float), or the phi or select of integers
  /// that merges copies of the same bit of several floats.
  llvm::Value *Float = nullptr;

  bool operator==(const BitSource &O) const {
    return K == O.K && FromSignificand == O.FromSignificand &&
           Moved == O.Moved && MaybeConstant == O.MaybeConstant &&
           Pos == O.Pos && Float == O.Float;
  }
};

using BitSources = llvm::SmallVector<BitSource, 64>;

/// The significand's width of the IEEE format \p T (52 for double, 23 for
/// float), or 0 for other types.
unsigned significandBits(const llvm::Type *T);

/// Whether \p S (unknown: null) may hold copies of a significand's bits
/// (not only numbers computed from them: log's `k += i >> 20`, whose
/// conversion to a float has no derivative).
bool copiesSignificand(const BitSources *S);

/// The sources of the bits of integers of one function, memoized.
class BitProvenance {
public:
  explicit BitProvenance(const llvm::DataLayout &DL) : DL(DL) {}
  /// The sources of each bit of the integer \p V (bit 0 first); null when
  /// unknown (a value carried around a loop, or too deep).
  const BitSources *of(llvm::Value *V);

private:
  std::optional<BitSources> compute(llvm::Value *V);
  std::optional<BitSources> bitwise(llvm::Instruction &I);
  std::optional<BitSources> addSub(llvm::Instruction &I);
  std::optional<BitSources> merged(llvm::Instruction &I);
  /// Whether \p Phi, carried around a loop (a cycle for the walk over
  /// bits), holds no bit of a float's significand, nor a value chosen by
  /// comparisons of one: counts and exponent sums (Cephes' ldexp: `pw2 -=
  /// 1` while it scales a subnormal), unrelated to any float's bits.
  bool holdsNoSignificand(llvm::PHINode &Phi);

  const llvm::DataLayout &DL;
  /// (Node-based: the sources of(V) gives stay where they are while more
  /// are added. In a DenseMap a rehash moved them under the walks that
  /// hold one operand's while they ask for the next one's, which then
  /// read freed memory: Cephes' ldexp at -O0 got a derivative of 0.)
  std::unordered_map<llvm::Value *, std::optional<BitSources>> Memo;
  unsigned Depth = 0;
};

/// An instruction of \p F that turns integer arithmetic on a float's
/// significand into a float (a bitcast, or a conversion of the integer's
/// value), whose derivative adcc cannot follow; null when none.
const llvm::Instruction *findUntraceableFloatBits(llvm::Function &F);

/// The error for a cast marked UnfollowedBitsMetadata (support/IRMarks.h).
inline constexpr const char *UnfollowedFloatBitsError =
    "a floating-point value is made of another's significand bits, which "
    "also go where adcc cannot follow them (stored, passed or converted as "
    "integers); use floating-point operations (ldexp, frexp, fabs), or move "
    "it into a function with a custom derivative";

/// The error for such an instruction in code with derivatives.
inline constexpr const char *UntraceableFloatBitsError =
    "a floating-point value is made by integer arithmetic on the bits of "
    "another's significand (a square root or logarithm computed from the "
    "bits), whose derivative adcc cannot follow; use floating-point "
    "operations, or move it into a function with a custom derivative, or, "
    "where that function computes a math function, mark it as one "
    "(enzyme_function_like(\"sqrt\"))";

} // namespace adcore

#endif // ADCORE_BITPROVENANCE_H
