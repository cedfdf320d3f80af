//===- CallerTypes.cpp - Types of pointer arguments from their callers ---===//
//
// At -O0 a C++ object travels through several functions before its bytes
// are used: `std::function<double(double)> f = [x](double v) {...}` hands
// the lambda to the constructor, to _M_init_functor (through std::move and
// std::forward, real calls at -O0) and to _M_create, which copies it with a
// memcpy. Inside _M_create nothing says that the 8 bytes are a double; the
// stack variable the lambda lives in does (its allocated type is
// `{ double }`). A pointer argument is therefore seeded with the declared
// type of the stack variable that every caller in the module passes for it,
// found by following the pointer back: through local slots it was stored
// into and loaded from, calls that return their argument, and the callers
// of the function it is an argument of. Only exact addresses count (a
// variable, or a member of a struct whose declared type is a struct: no
// other offset into the variable), up to 24 steps deep; only functions whose
// every caller is in the module (internal ones, template instances) are
// followed, and one whose address escapes gets nothing. A pointer read
// from memory with a TBAA type that names its pointee (`double *`) seeds
// the argument with that kind, for every element.
//
//===----------------------------------------------------------------------===//

#include "TypeAnalysis.h"
#include "support/SlotValues.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace adcore {
namespace {

constexpr unsigned MaxDepth = 24;

class DeclaredObjects {
public:
  /// The stack variables \p V may be the address of; false when some origin
  /// is not one.
  bool find(const Value *V, unsigned Depth) {
    if (Depth > MaxDepth || !Visited.insert(V).second)
      return Depth <= MaxDepth; // a cycle adds nothing new
    V = V->stripPointerCasts();
    if (auto *AI = dyn_cast<AllocaInst>(V)) {
      Objects.insert(AI);
      return true;
    }
    // A member of a declared struct (`&p.rhs` at -O0): what its type says.
    if (auto *GEP = dyn_cast<GetElementPtrInst>(V);
        GEP && isMemberAddress(*GEP)) {
      Objects.insert(GEP);
      return true;
    }
    if (auto *LI = dyn_cast<LoadInst>(V)) {
      if (const Value *Stored = onlyStoredValue(LI->getPointerOperand()))
        return find(Stored, Depth + 1);
      // A pointer read from memory as a `double *` ("p1 double" TBAA):
      // it points to doubles (a field passed on alone at -O3, where the
      // callee copies an element as an i64).
      if (Kind K = pointeeKindOfTBAA(*LI); K != Kind::Unknown) {
        Pointees.push_back(K);
        return true;
      }
    }
    if (auto *Call = dyn_cast<CallBase>(V))
      if (std::optional<unsigned> ArgNo = returnedArgument(*Call))
        return find(Call->getArgOperand(*ArgNo), Depth + 1);
    if (auto *A = dyn_cast<Argument>(V))
      return fromCallers(*A, Depth + 1);
    return false;
  }

  /// Stack variables and members of declared structs.
  SmallPtrSet<const Instruction *, 4> Objects;
  /// What pointers read from memory point to, by their TBAA types.
  SmallVector<Kind, 4> Pointees;

private:
  /// `gep %struct.S, ptr %p, 0, i, ...` with constant indices: the address
  /// of a member whose declared type is a struct.
  static bool isMemberAddress(const GetElementPtrInst &GEP) {
    if (GEP.getNumIndices() < 2 || !GEP.hasAllConstantIndices() ||
        !isa<StructType>(GEP.getSourceElementType()) ||
        !cast<ConstantInt>(GEP.getOperand(1))->isZero())
      return false;
    auto *Member = dyn_cast<StructType>(GEP.getResultElementType());
    return Member && !Member->isOpaque();
  }

  bool fromCallers(const Argument &A, unsigned Depth) {
    const Function &F = *A.getParent();
    // Callers in other translation units are unknown. An internal function
    // nothing calls (dead, or a derivative being generated) adds nothing.
    if (!F.hasLocalLinkage() && !F.hasLinkOnceODRLinkage())
      return false;
    for (const Use &U : F.uses()) {
      auto *Call = dyn_cast<CallBase>(U.getUser());
      if (!Call || !Call->isCallee(&U) || Call->arg_size() <= A.getArgNo() ||
          !find(Call->getArgOperand(A.getArgNo()), Depth))
        return false;
    }
    return true;
  }

  SmallPtrSet<const Value *, 16> Visited;
};

} // namespace

/// The argument \p Call returns (std::move, std::forward), if its callee
/// returns one argument on every path.
std::optional<unsigned> returnedArgument(const CallBase &Call) {
  const Function *F = Call.getCalledFunction();
  if (!F || F->isDeclaration() || !F->getReturnType()->isPointerTy())
    return std::nullopt;
  std::optional<unsigned> Which;
  for (const BasicBlock &BB : *F) {
    auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator());
    if (!Ret)
      continue;
    const Value *V = Ret->getReturnValue()->stripPointerCasts();
    if (auto *LI = dyn_cast<LoadInst>(V))
      if (const Value *Stored = onlyStoredValue(LI->getPointerOperand()))
        V = Stored->stripPointerCasts();
    auto *A = dyn_cast<Argument>(V);
    if (!A || (Which && *Which != A->getArgNo()))
      return std::nullopt;
    Which = A->getArgNo();
  }
  return Which;
}

void TypeAnalysis::seedFromCallers() {
  for (Argument &A : F.args()) {
    if (!A.getType()->isPointerTy())
      continue;
    DeclaredObjects D;
    if (!D.find(&A, 0))
      continue;
    for (Kind K : D.Pointees)
      joinMemory(&A, -1, K);
    for (const Instruction *Object : D.Objects) {
      if (auto *AI = dyn_cast<AllocaInst>(Object))
        seedFromAllocatedType(&A, *AI);
      else
        seedFromDeclaredType(
            &A, cast<GetElementPtrInst>(Object)->getResultElementType());
    }
  }
}

} // namespace adcore
