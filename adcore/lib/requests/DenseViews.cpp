//===- DenseViews.cpp - Enzyme's __enzyme_todense -----------------------===//
//
// See requests/DenseViews.h. A view's value is the null pointer: the address
// of an access through it, as an integer, is its byte offset in the view.
//
//===----------------------------------------------------------------------===//

#include "DenseViews.h"

#include "support/MemoryScopes.h"
#include "Synthesis.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

using namespace llvm;

namespace adcore {
namespace {

/// Rounds of inlining and promotion before a view is lowered; a view
/// passed down a recursion would need more.
constexpr unsigned MaxRounds = 64;

/// The values computed from a view's address: the view, then its casts,
/// getelementptrs and selects.
SetVector<Value *> derivedFrom(CallBase &View) {
  SetVector<Value *> Derived;
  Derived.insert(&View);
  for (unsigned I = 0; I < Derived.size(); ++I)
    for (User *U : Derived[I]->users())
      if (isa<CastInst, GetElementPtrInst, SelectInst, PHINode>(U) &&
          U->getType()->isPointerTy() &&
          !(isa<GetElementPtrInst>(U) &&
            cast<GetElementPtrInst>(U)->getPointerOperand() != Derived[I]))
        Derived.insert(U);
  return Derived;
}

class ViewLowering {
public:
  ViewLowering(CallBase &View, SynthesisContext &Ctx)
      : View(View), F(*View.getFunction()), Ctx(Ctx) {}

  bool run();

private:
  bool error(const Instruction &At, const Twine &What) {
    // (adcc's code has no location: the view's is the place then.)
    Ctx.error(At.getDebugLoc() ? At : View, "the dense view made by '" +
                      View.getCalledFunction()->getName() + "' " + What);
    return false;
  }
  Function *callback(unsigned ArgNo, const char *What);
  /// Inlines a call that passes the view, or promotes a local variable
  /// that holds it; false when there is none left.
  bool bringCloser(bool &Failed);
  bool checkCallback(const Instruction &At, Function &Fn,
                     ArrayRef<Value *> Args, Type *Result);
  bool lower();

  CallBase &View;
  Function &F;
  SynthesisContext &Ctx;
  Function *Load = nullptr, *Store = nullptr;
};

Function *ViewLowering::callback(unsigned ArgNo, const char *What) {
  Function *Fn = nullptr;
  if (ArgNo < View.arg_size())
    Fn = dyn_cast<Function>(View.getArgOperand(ArgNo)->stripPointerCasts());
  if (!Fn)
    error(View, Twine("needs a function as argument ") + Twine(ArgNo + 1) +
                    " (" + What + ")");
  return Fn;
}

bool ViewLowering::bringCloser(bool &Failed) {
  SetVector<Value *> Derived = derivedFrom(View);
  SmallVector<AllocaInst *, 4> Slots;
  for (Value *V : Derived)
    for (User *U : V->users()) {
      auto *S = dyn_cast<StoreInst>(U);
      auto *Slot =
          S ? dyn_cast<AllocaInst>(S->getPointerOperand()) : nullptr;
      if (Slot && S->getValueOperand() == V && isAllocaPromotable(Slot) &&
          !is_contained(Slots, Slot))
        Slots.push_back(Slot);
    }
  if (!Slots.empty()) {
    DominatorTree DT(F);
    PromoteMemToReg(Slots, DT);
    return true;
  }
  for (Value *V : Derived)
    for (User *U : V->users()) {
      auto *Call = dyn_cast<CallBase>(U);
      if (!Call || Call == &View || Call->getCalledOperand() == V ||
          isa<IntrinsicInst>(Call))
        continue;
      Function *Callee = Call->getCalledFunction();
      if (!Callee || Callee->isDeclaration())
        continue;
      InlineFunctionInfo IFI;
      if (!InlineFunction(*Call, IFI).isSuccess()) {
        Failed = !error(*Call, "is passed to '" + Callee->getName() +
                                   "', which adcc cannot inline to turn its "
                                   "accesses into calls");
        return false;
      }
      return true;
    }
  return false;
}

bool ViewLowering::checkCallback(const Instruction &At, Function &Fn,
                                 ArrayRef<Value *> Args, Type *Result) {
  FunctionType *FT = Fn.getFunctionType();
  bool Matches = !FT->isVarArg() && FT->getNumParams() == Args.size() &&
                 FT->getReturnType() == Result;
  for (unsigned I = 0; Matches && I < Args.size(); ++I)
    Matches = FT->getParamType(I) == Args[I]->getType();
  if (Matches)
    return true;
  std::string Want;
  raw_string_ostream OS(Want);
  OS << *Result << " (";
  for (unsigned I = 0; I < Args.size(); ++I)
    OS << (I ? ", " : "") << *Args[I]->getType();
  OS << ")";
  return error(At, "is accessed here, for which '" + Fn.getName() +
                       "' must have the type " + Want +
                       " (the value stored, for a store; the byte offset "
                       "in the view; the view's other arguments)");
}

bool ViewLowering::lower() {
  SetVector<Value *> Derived = derivedFrom(View);
  LLVMContext &C = F.getContext();
  Type *Int64 = Type::getInt64Ty(C);
  ArrayRef<Use> Extra = ArrayRef<Use>(View.arg_begin(), View.arg_end())
                            .drop_front(std::min(2u, View.arg_size()));
  // (In an order where each value comes after what it is computed from.)
  DenseMap<Value *, Value *> Address;
  Address[&View] = ConstantPointerNull::get(cast<PointerType>(View.getType()));
  SmallVector<Instruction *, 16> Dead;
  SmallVector<CallInst *, 16> Made;
  IRBuilder<> B(C);
  for (BasicBlock *BB : ReversePostOrderTraversal<Function *>(&F))
    for (Instruction &I : make_early_inc_range(*BB)) {
      bool Uses = any_of(I.operands(), [&](const Use &U) {
        return Derived.contains(U.get());
      });
      if (!Uses)
        continue;
      B.SetInsertPoint(&I);
      B.SetCurrentDebugLocation(I.getDebugLoc());
      auto Offset = [&](Value *Ptr) {
        return B.CreatePtrToInt(Address.lookup(Ptr), Int64);
      };
      if (auto *Cast = dyn_cast<CastInst>(&I);
          Cast && Derived.contains(Cast)) {
        Address[Cast] = B.CreatePointerCast(Address.lookup(Cast->getOperand(0)),
                                            Cast->getType());
      } else if (auto *GEP = dyn_cast<GetElementPtrInst>(&I);
                 GEP && Derived.contains(GEP)) {
        SmallVector<Value *, 4> Indices(GEP->indices());
        Address[GEP] =
            B.CreateGEP(GEP->getSourceElementType(),
                        Address.lookup(GEP->getPointerOperand()), Indices, "",
                        GEPNoWrapFlags::none());
      } else if (auto *Sel = dyn_cast<SelectInst>(&I);
                 Sel && Derived.contains(Sel) &&
                 Derived.contains(Sel->getTrueValue()) &&
                 Derived.contains(Sel->getFalseValue())) {
        Address[Sel] = B.CreateSelect(Sel->getCondition(),
                                      Address.lookup(Sel->getTrueValue()),
                                      Address.lookup(Sel->getFalseValue()));
      } else if (auto *L = dyn_cast<LoadInst>(&I)) {
        SmallVector<Value *, 4> Args{Offset(L->getPointerOperand())};
        append_range(Args, Extra);
        if (!checkCallback(I, *Load, Args, L->getType()))
          return false;
        CallInst *Call = B.CreateCall(Load, Args);
        Made.push_back(Call);
        L->replaceAllUsesWith(Call);
        Dead.push_back(L);
      } else if (auto *S = dyn_cast<StoreInst>(&I);
                 S && !Derived.contains(S->getValueOperand())) {
        SmallVector<Value *, 4> Args{S->getValueOperand(),
                                     Offset(S->getPointerOperand())};
        append_range(Args, Extra);
        if (!checkCallback(I, *Store, Args, B.getVoidTy()))
          return false;
        Made.push_back(B.CreateCall(Store, Args));
        Dead.push_back(S);
      } else if (isa<StoreInst>(I)) {
        // (A reverse sweep's tape: the shadows of the pointer variables at
        // -O0, the shadow records of forward mode over reverse mode.)
        bool Record = hasMemoryClass(I, MemoryClass::Tape) ||
                      hasMemoryClass(I, MemoryClass::Shadow);
        return error(I, "is stored into memory here" +
                            Twine(Record ? " (a reverse-mode derivative "
                                           "records it on its tape: the "
                                           "shadows of the pointer variables "
                                           "at -O0, the shadow records of "
                                           "forward mode over reverse mode)"
                                         : "") +
                            ", where adcc cannot follow it to turn its "
                            "accesses into calls of '" +
                            Load->getName() + "' and '" + Store->getName() +
                            "'" +
                            (Record ? "; pass the view to __enzyme_fwddiff "
                                      "of a function without reverse-mode "
                                      "requests, or to __enzyme_autodiff at "
                                      "-O1 or above"
                                    : ""));
      } else {
        std::string What = isa<CallBase>(I)
                               ? "a call of a function without a body here"
                               : std::string("the instruction '") +
                                     I.getOpcodeName() + "' here";
        return error(I, "reaches " + What +
                            ", which adcc cannot turn into calls of '" +
                            Load->getName() + "' and '" + Store->getName() +
                            "': only loads and stores through it, with "
                            "address arithmetic, in the function that makes "
                            "it and in the functions it is passed to");
      }
    }
  for (Instruction *I : Dead)
    I->eraseFromParent();
  // (What computed the addresses is used by nothing now.)
  for (Value *V : reverse(Derived)) {
    auto *I = cast<Instruction>(V);
    I->replaceAllUsesWith(PoisonValue::get(I->getType()));
    I->eraseFromParent();
  }
  // The callbacks the program marked always_inline are inlined, as Enzyme
  // does.
  for (CallInst *Call : Made)
    if (Call->getCalledFunction()->hasFnAttribute(Attribute::AlwaysInline)) {
      InlineFunctionInfo IFI;
      InlineFunction(*Call, IFI);
    }
  return true;
}

bool ViewLowering::run() {
  Load = callback(0, "the load function");
  Store = Load ? callback(1, "the store function") : nullptr;
  if (!Store)
    return false;
  bool Failed = false;
  unsigned Round = 0;
  while (bringCloser(Failed))
    if (++Round == MaxRounds)
      return error(View, "is passed down more than " + Twine(MaxRounds) +
                             " calls (a recursion?)");
  return !Failed && lower();
}

} // namespace

bool isDenseViewFunction(StringRef Name) {
  return Name.contains("__enzyme_todense") ||
         Name.contains("__enzyme_post_sparse_todense");
}

bool lowerDenseViews(Module &M, SynthesisContext &Ctx) {
  // (__enzyme_post_sparse_todense after __enzyme_todense, as Enzyme does.)
  bool Ok = true;
  for (bool Post : {false, true}) {
    SmallVector<CallBase *, 4> Views;
    for (Function &Fn : M)
      if (Fn.isDeclaration() && isDenseViewFunction(Fn.getName()) &&
          Fn.getName().contains("__enzyme_post_sparse_todense") == Post)
        for (User *U : Fn.users())
          if (auto *Call = dyn_cast<CallBase>(U);
              Call && Call->getCalledOperand() == &Fn)
            Views.push_back(Call);
    for (CallBase *View : Views) {
      ViewLowering Lowering(*View, Ctx);
      Ok &= Lowering.run();
    }
  }
  for (Function &Fn : make_early_inc_range(M))
    if (Fn.isDeclaration() && isDenseViewFunction(Fn.getName()) &&
        Fn.use_empty())
      Fn.eraseFromParent();
  return Ok;
}

} // namespace adcore
