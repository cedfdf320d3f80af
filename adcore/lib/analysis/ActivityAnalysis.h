//===- ActivityAnalysis.h - Which values carry derivatives ------*- C++ -*-===//
//
// For a function and the activity of its arguments, decides which values
// carry a derivative:
//  - a *shadowed* pointer points to memory that has shadow memory: derived
//    from a Dup argument, a stack or heap allocation of the function, or
//    loaded from shadowed memory;
//  - a *varied* value depends on a Dup argument, directly or through
//    shadowed memory: a load from shadowed memory is varied, except from a
//    stack slot into which only constant values were ever stored (what -O0
//    code does with every constant parameter).
// Everything else is constant: its derivative is zero and no code is
// emitted for it. The analysis is a fixed point over the def-use graph, so
// loops and phis are handled; it is conservative (may call a value varied
// that is not), never the other way round.
//
//===----------------------------------------------------------------------===//
#ifndef ADCORE_ACTIVITYANALYSIS_H
#define ADCORE_ACTIVITYANALYSIS_H

#include "adcore/Derivative.h"
#include "GlobalShadows.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <tuple>

namespace llvm {
class AllocaInst;
class Instruction;
class CallBase;
class Function;
class GlobalVariable;
class BinaryOperator;
class User;
class LoadInst;
class StoreInst;
class Value;
class raw_ostream;
} // namespace llvm

namespace adcore {

class ActivityAnalysis {
public:
  /// \p Rules (optional) adds the program's inactive functions and
  /// globals to the built-in ones.
  ActivityAnalysis(llvm::Function &F, llvm::ArrayRef<ArgActivity> Args,
                   const class CustomRules *Rules = nullptr);

  /// The program's inactive functions and globals (null: none).
  const class CustomRules *rules() const { return Rules; }

  /// True when \p V carries a derivative (a tangent or a shadow).
  bool isActive(const llvm::Value *V) const { return Active.contains(V); }
  /// The globals with shadows (GlobalShadows.h) the function uses.
  llvm::ArrayRef<llvm::GlobalVariable *> shadowedGlobals() const {
    return ShadowedGlobals;
  }

  /// True when the memory \p Ptr points to may hold derivatives (false
  /// for a stack slot that only ever holds constants).
  bool mayHoldDerivatives(const llvm::Value *Ptr) const;
  /// Whether \p Ptr points only into stack slots that hold no derivative.
  bool cleanStackPointer(const llvm::Value *Ptr) const;

  /// Whether the function stores values with derivatives into the memory
  /// its pointer argument \p ArgNo reaches, or gives it to another file's
  /// function (made at link time) with such values, itself or through the
  /// functions of its file it gives it to (OtherFileResults.h;
  /// ActivityCalls.cpp).
  bool argumentReceivesDerivatives(unsigned ArgNo) const;

  /// Prints every argument and instruction of the function as
  /// `active` or `const`, one per line.
  void print(llvm::raw_ostream &OS) const;

private:
  /// Whether \p V carries a derivative, given what is active so far.
  bool transfer(const llvm::Value &V) const;
  /// transfer for a call (ActivityCalls.cpp).
  bool transferCall(const llvm::CallBase &Call) const;
  /// transfer for an integer: the bits of floats and addresses
  /// (ActivityIntegers.cpp).
  bool transferInteger(const llvm::Instruction &I) const;
  bool anyOperandActive(const llvm::User &U) const;
  /// Whether \p Callee returns an active value when called as \p Call,
  /// whose active arguments \p ActiveOperand tells (memoized;
  /// ActivityCalls.cpp).
  bool returnsActive(
      const llvm::Function &Callee, const llvm::CallBase &Call,
      llvm::function_ref<bool(const llvm::Value *)> ActiveOperand) const;
  /// argumentReceivesDerivatives of \p Call's callee, a function of this
  /// file, for its argument \p ArgNo, analysed with the activity of the
  /// call's arguments (\p ActiveOperand; memoized, three functions deep).
  bool ownCalleeReceives(
      const llvm::CallBase &Call, unsigned ArgNo,
      llvm::function_ref<bool(const llvm::Value *)> ActiveOperand) const;
  /// Local memory: which allocas and heap blocks allocated here (malloc,
  /// calloc, aligned_alloc, new) each pointer may point into, and which
  /// may hold derivatives (an active value was stored or copied into them,
  /// or their address escaped). A heap block's address kept in a local
  /// variable (-O0) is followed through it (HeapRoots.cpp). Local memory's
  /// members are in ActivityMemory.cpp.
  void findStackPointers();
  void addHeapRoots();
  /// Roots the pointers loaded from local memory that holds only
  /// addresses into itself there too (SelfAddressLoads.cpp).
  void addSelfAddressLoads();
  /// Records \p Root as where the pointers derived from it (GEPs, casts,
  /// phis, selects) point; \p More may follow other users (pushing onto
  /// the work list).
  using FollowUser = llvm::function_ref<void(
      const llvm::User &, llvm::SmallVectorImpl<const llvm::Value *> &)>;
  void addRoot(const llvm::Instruction &Root, FollowUser More);
  /// returnsFloatBits (TypeAnalysis.h) of \p Callee, once per function:
  /// asked in every round of the fixed point.
  bool returnsFloatBitsMemo(llvm::Function &Callee) const;
  /// True when \p SI stores the whole bits of a float with a derivative as
  /// an integer (loaded from memory with derivatives, or bitcast).
  bool receivesWholeFloatBits(const llvm::StoreInst &SI) const;
  bool updateDirtyAllocas();
  /// Whether \p Call stores nothing with a derivative into the stack slot
  /// \p P points into (storesNoDerivativeThrough, memoized).
  bool callKeepsSlotClean(const llvm::CallBase &Call, const llvm::Value *P,
                          bool HoldsOwnAddress);

  llvm::Function &F;
  const class CustomRules *Rules;
  llvm::SmallVector<llvm::GlobalVariable *, 4> ShadowedGlobals;
  /// Which callees read or write shadowed globals.
  mutable GlobalUsers Users;
  llvm::DenseSet<const llvm::Value *> Active;
  llvm::DenseMap<const llvm::Value *,
                 llvm::SmallVector<const llvm::Instruction *, 1>>
      StackRoots;
  llvm::DenseSet<const llvm::Instruction *> Dirty;
  /// Stores of a heap block's address into the local variable that holds
  /// it: no escape.
  llvm::DenseSet<const llvm::Value *> HolderStores;
  /// Pointers that may point into stack slots or into other memory (a phi
  /// or select of both, and what is derived from it).
  llvm::DenseSet<const llvm::Value *> Mixed;
  mutable llvm::DenseMap<const llvm::Function *, bool> FloatBitsResults;
  mutable llvm::DenseMap<std::pair<const llvm::Function *, uint64_t>, bool>
      ReturnActivity;
  llvm::DenseMap<std::tuple<const llvm::Function *, uint64_t, uint64_t>, bool>
      SlotCalls;
  mutable llvm::DenseMap<
      std::tuple<const llvm::Function *, uint64_t, unsigned>, bool>
      ReceivingArgs;
};

/// True for types that can carry a derivative: floating point, pointers,
/// and vectors, arrays and structs containing them.
bool canCarryDerivative(const llvm::Type *T);

/// Whether \p F stores through its pointer argument \p ArgNo only what it
/// read through it, constants and integer arguments, and passes it on only to
/// functions that do the same (\p Depth calls deep) or have no
/// derivatives: a stack slot given to it (an iterator given to operator++)
/// receives no derivative (CleanSlots.cpp). \p ReturnsAddress: whether
/// it may return that pointer (or one into the same memory).
/// \p HoldsOwnAddress: the slot holds pointers into itself, so that what
/// the callee stores through a pointer read from it lands in it too.
bool keepsPointeeClean(const llvm::Function &F, unsigned ArgNo, unsigned Depth,
                       bool &ReturnsAddress, bool HoldsOwnAddress = false);

/// Whether \p F, called with arguments of activity \p Args (the stack slots
/// it is given Const), stores through the pointer parameters in the bit set
/// \p SlotArgs only values without derivatives and keeps their addresses
/// to itself, its callees likewise: slots it fills from constant arguments
/// stay clean (InactiveSlotWrites.cpp). \p HoldsOwnAddress as for
/// keepsPointeeClean.
bool storesNoDerivativeThrough(const llvm::Function &F,
                               llvm::ArrayRef<ArgActivity> Args,
                               uint64_t SlotArgs,
                               const class CustomRules *Rules,
                               bool HoldsOwnAddress = false);

/// A parameter with this attribute (a derivative's constant pointer
/// parameter whose primal keeps the pointee clean, returning no pointer into
/// it) keeps it clean by construction: what the derivative adds, records on
/// the tape and tangents or adjoints in shadows, goes elsewhere.
constexpr const char *KeepsPointeeCleanAttribute = "adcc-keeps-pointee-clean";

/// How many calls deep keepsPointeeClean looks from an analysis.
constexpr unsigned CleanCallDepth = 3;

// Integers that hold addresses (ActivityIntegers.cpp).

/// The integer operations that offset or align an address, whose shadow is
/// the same operation on the shadow (add, sub, and, or).
bool isAddressArithmetic(const llvm::BinaryOperator &BO);

/// True when the pointer-sized integer \p LI is made a pointer again
/// (`(double *)c->r` of a `uintptr_t r` field), directly or after address
/// arithmetic: an address kept as an integer, whose shadow the shadow
/// struct holds the same way, whatever the field's declared type says.
bool loadsAddress(const llvm::LoadInst &LI);

/// True when the integer \p V is an address kept as an integer: a pointer's
/// (`ptrtoint`), one read by loadsAddress, address arithmetic on one, or a
/// phi or select of such values (the element an insertion sort moves down
/// an array of addresses, `std::sort` of `uintptr_t` inlined from -O1 on),
/// \p Depth operations deep. Its shadow holds the shadow's address.
bool isIntegerAddress(const llvm::Value &V, unsigned Depth = 8);

/// True when \p Ptr (null: false) points into a local integer variable or
/// array that holds addresses made pointers again (`uintptr_t u =
/// (uintptr_t)x;` at -O0, an array of addresses sorted by value): it has a
/// shadow, which holds the shadows' addresses.
bool localHoldsAddresses(const llvm::Value *Ptr);

/// True when \p Ptr points into a local variable or array into which an
/// address kept as an integer is stored (`uintptr_t a[] = {(uintptr_t)x,
/// ...}` read through by a callee only).
bool localReceivesAddresses(const llvm::Value *Ptr);

/// The one pointer stored into the field of a local record that \p LI
/// loads, where the record's fields are only loaded and stored through
/// constant offsets (`std::initializer_list`'s array at -O0); null
/// otherwise.
const llvm::Value *localFieldPointer(const llvm::LoadInst &LI);

/// True when the local pointer-sized integer \p AI receives an address
/// kept as an integer and is passed by reference to a function of the
/// module that returns a reference the caller reads an integer through
/// (`std::min(a, b)`, `std::max(a, b)` of `uintptr_t` at -O0): the value
/// read may be the variable's, and its shadow the variable's shadow, even
/// where the caller never loads the variable itself.
bool passesReceivedAddresses(const llvm::AllocaInst &AI);

/// True when an integer stored at \p Slot may be turned back into a
/// pointer: a load of the stack variable feeds an inttoptr, through
/// integer arithmetic and copies into other variables (\p Depth steps).
/// Memory other than a stack variable may be read anywhere: true.
bool mayBecomePointer(const llvm::Value *Slot, unsigned Depth);

} // namespace adcore

#endif // ADCORE_ACTIVITYANALYSIS_H
