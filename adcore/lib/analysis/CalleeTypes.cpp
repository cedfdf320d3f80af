//===- CalleeTypes.cpp - Types of pointer arguments from their callees ---===//
//
// A buffer a function fills with memcpy and hands to a helper that works on
// it (`memcpy(u, u0, n * 8); heat_from(u, v, steps);`, every helper at -O0)
// is typed by nothing in the function itself: the loads and stores that
// say "doubles" are in the helper. A pointer passed to a function of the
// module is therefore seeded with what that function reads and writes
// through the parameter: the types of its loads and stores at constant
// offsets from it (or at any element, through a variable index), followed
// through local slots it is stored into and loaded from (every variable at
// -O0), phis, selects and the helper's own calls, up to 3 calls deep; a
// variable index counts only over floating-point elements (`u[i]`). An
// offset read or written as two different kinds says nothing, and only
// an indexed array of floating-point data of one type is seeded (a
// struct's mix of fields is left to its declared type). A std::variant
// passed to its member functions or to a function that declares it
// (`std::get<1>(std::variant<A, B>&)`) is laid out as its alternatives
// agree (SourceTypes.h, variantStruct): at -O0 a local variant is copied
// as bytes where nothing else says what they are.
//
//===----------------------------------------------------------------------===//

#include "analysis/SourceTypes.h"
#include "analysis/TypeAnalysis.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"

#include <set>

using namespace llvm;

namespace adcore {
namespace {

constexpr unsigned MaxCallDepth = 3;
constexpr int64_t AnyElement = -1;

/// The kind of a load or store of \p T: integers of 16 bits or more count
/// (a struct's integer field next to its doubles), bytes do not.
Kind accessKind(Type *T) {
  if (T->isIntegerTy() && T->getIntegerBitWidth() >= 16)
    return Kind::Integer;
  return kindOfType(T);
}

class CalleeAccesses {
public:
  /// What is read and written through \p V, the address \p Offset bytes
  /// past the parameter (AnyElement: some element of it).
  void follow(const Value *V, int64_t Offset, unsigned Depth) {
    if (!Visited.insert({V, Offset}).second || Visited.size() > 512)
      return;
    const DataLayout &DL = DataLayoutOf(V);
    for (const Use &U : V->uses()) {
      const User *Usr = U.getUser();
      if (auto *LI = dyn_cast<LoadInst>(Usr)) {
        note(Offset, accessKind(LI->getType()));
      } else if (auto *SI = dyn_cast<StoreInst>(Usr)) {
        if (SI->getPointerOperand() == V)
          note(Offset, accessKind(SI->getValueOperand()->getType()));
        else if (auto *Slot = dyn_cast<AllocaInst>(SI->getPointerOperand()))
          // (Stored into a local variable and loaded back: -O0.)
          for (const User *SU : Slot->users())
            if (auto *Back = dyn_cast<LoadInst>(SU);
                Back && Back->getType()->isPointerTy())
              follow(Back, Offset, Depth);
      } else if (auto *GEP = dyn_cast<GEPOperator>(Usr)) {
        APInt C(DL.getIndexTypeSizeInBits(GEP->getType()), 0);
        if (GEP->accumulateConstantOffset(DL, C))
          follow(GEP,
                 Offset == AnyElement ? AnyElement : Offset + C.getSExtValue(),
                 Depth);
        // A variable index over floating-point elements (`u[i]`): some
        // element of an array of them. Not over bytes or structs (fields
        // of an array of structs, whose other fields are not seen).
        else if (GEP->getNumIndices() == 1 &&
                 GEP->getSourceElementType()->isFloatingPointTy())
          follow(GEP, AnyElement, Depth);
      } else if (isa<PHINode>(Usr) || isa<SelectInst>(Usr) ||
                 isa<BitCastInst>(Usr)) {
        follow(Usr, Offset, Depth);
      } else if (auto *Call = dyn_cast<CallBase>(Usr)) {
        const Function *Callee = Call->getCalledFunction();
        if (Depth == 0 || !Callee || Callee->isDeclaration() ||
            !Call->isArgOperand(&U) ||
            Callee->arg_size() <= Call->getArgOperandNo(&U) ||
            Callee->isVarArg())
          continue;
        follow(Callee->getArg(Call->getArgOperandNo(&U)), Offset, Depth - 1);
      }
    }
  }

  /// Offsets read or written as one kind only.
  MemoryLayout Layout;

private:
  static const DataLayout &DataLayoutOf(const Value *V) {
    if (auto *A = dyn_cast<Argument>(V))
      return A->getParent()->getDataLayout();
    return cast<Instruction>(V)->getModule()->getDataLayout();
  }

  void note(int64_t Offset, Kind K) {
    if (K == Kind::Unknown || Mixed.count(Offset))
      return;
    auto [It, New] = Layout.try_emplace(Offset, K);
    if (!New && It->second != K) {
      Layout.erase(It);
      Mixed.insert(Offset);
    }
  }

  DenseSet<std::pair<const Value *, int64_t>> Visited;
  std::set<int64_t> Mixed;
};

/// Whether \p L reads as an array of scalars of \p Size bytes: indexed
/// (AnyElement), or its constant offsets are every element from the first
/// on (a loop over 8 doubles unrolled), not one field of each element of an
/// array of structs (0, 24, 48: what std::sort's comparator reads).
bool isArrayOfScalars(const MemoryLayout &L, int64_t Size) {
  if (L.count(AnyElement))
    return true;
  int64_t Next = 0;
  for (auto [Offset, K] : L) {
    if (Offset != Next)
      return false;
    Next += Size;
  }
  return Next > Size;
}

/// The arguments of \p Call to \p Callee that are std::variants, with the
/// layout variantStruct gives them: `this` of a member function of
/// std::variant, and parameters declared as one.
SmallVector<std::pair<unsigned, StructType *>, 2>
variantArguments(const CallBase &Call, const Function &Callee) {
  SmallVector<std::pair<unsigned, StructType *>, 2> Out;
  // (Only names that may mention a variant are demangled.)
  if (!Callee.getName().contains("St7variant"))
    return Out;
  if (Callee.getName().starts_with("_ZNSt7variantI") && Call.arg_size() &&
      Call.getArgOperand(0)->getType()->isPointerTy())
    if (StructType *ST = variantStruct(*Callee.getParent(),
                                       declContextOf(Callee.getName())))
      Out.push_back({0, ST});
  for (auto [ArgNo, ST] : seedsFromSignature(Callee).Structs)
    if (!ST->hasName() && ArgNo < Call.arg_size()) // (a variant's layout)
      Out.push_back({ArgNo, ST});
  return Out;
}

} // namespace

void TypeAnalysis::seedFromCallees() {
  for (Instruction &I : instructions(F)) {
    auto *Call = dyn_cast<CallBase>(&I);
    const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
    if (!Callee || Callee->isDeclaration() || Callee->isVarArg() ||
        Callee == &F)
      continue;
    for (auto [ArgNo, ST] : variantArguments(*Call, *Callee))
      if (!isa<Constant>(Call->getArgOperand(ArgNo)))
        seedStructElements(Call->getArgOperand(ArgNo), ST);
    for (unsigned ArgNo = 0; ArgNo < Call->arg_size(); ++ArgNo) {
      const Value *Arg = Call->getArgOperand(ArgNo);
      if (!Arg->getType()->isPointerTy() || ArgNo >= Callee->arg_size() ||
          isa<Constant>(Arg))
        continue;
      CalleeAccesses Accesses;
      Accesses.follow(Callee->getArg(ArgNo), 0, MaxCallDepth - 1);
      // Only an array of floating-point data of one type, indexed (a
      // buffer of doubles): a struct's mix of fields is what its declared
      // type says, more precisely than the fields a callee happens to read
      // (std::sort's comparator reads one double of each element and
      // moves the rest as bytes).
      const MemoryLayout &L = Accesses.Layout;
      Kind First = L.empty() ? Kind::Unknown : L.begin()->second;
      if ((First != Kind::Double && First != Kind::Float) ||
          !isArrayOfScalars(L, First == Kind::Double ? 8 : 4) ||
          any_of(L, [&](const auto &E) { return E.second != First; }))
        continue;
      for (auto [Offset, K] : L)
        joinMemory(Arg, Offset, K);
    }
  }
}

} // namespace adcore
