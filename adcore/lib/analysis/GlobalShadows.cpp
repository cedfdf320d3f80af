//===- GlobalShadows.cpp - Shadows of global variables -------------------===//

#include "GlobalShadows.h"
#include "rules/CustomRules.h"
#include "adcore/MathRules.h"
#include "device/DeviceCode.h"
#include "support/CallSites.h"
#include "support/IRMarks.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ReplaceConstant.h"

using namespace llvm;

namespace adcore {
namespace {

/// Marks the shadow globals derivatives use.
constexpr const char *ShadowGlobalMetadata = "adcc.shadow.global";

/// True when \p T holds no pointer (floating-point numbers, integers, and
/// arrays, vectors and structs of them); sets \p Float when it holds a
/// floating-point number.
bool holdsNumbersOnly(const Type *T, bool &Float) {
  if (T->isFPOrFPVectorTy()) {
    Float = true;
    return true;
  }
  if (T->isIntOrIntVectorTy())
    return true;
  if (const auto *AT = dyn_cast<ArrayType>(T))
    return holdsNumbersOnly(AT->getElementType(), Float);
  if (const auto *ST = dyn_cast<StructType>(T))
    return all_of(ST->elements(),
                  [&](const Type *E) { return holdsNumbersOnly(E, Float); });
  return false;
}

/// The globals of the program and of adcc that are no data of its own.
bool isBookkeeping(const GlobalVariable &G) {
  StringRef N = G.getName();
  return N.starts_with("llvm.") || N.starts_with("__enzyme") ||
         N.starts_with("adcc.") || N.starts_with(".adcc") ||
         G.getSection() == "llvm.metadata";
}

/// A global with a shadow that \p C addresses (through constant casts and
/// GEPs), or null.
GlobalVariable *shadowedIn(Constant *C, const CustomRules *Rules,
                           unsigned Depth = 4) {
  if (auto *G = dyn_cast<GlobalVariable>(C))
    return hasShadowGlobal(*G, Rules) ? G : nullptr;
  auto *CE = dyn_cast<ConstantExpr>(C);
  if (!CE || Depth == 0)
    return nullptr;
  for (Use &Op : CE->operands())
    if (GlobalVariable *G =
            shadowedIn(cast<Constant>(Op.get()), Rules, Depth - 1))
      return G;
  return nullptr;
}

} // namespace

bool hasShadowGlobal(const GlobalVariable &G, const CustomRules *Rules) {
  if (Rules && Rules->namedShadow(&G))
    return true;
  // (Device code: a `__shared__` array's shadow is another one.)
  bool Shared = isSharedArray(G);
  if (G.isConstant() ||
      (G.getAddressSpace() != 0 && !Shared) ||
      G.isDeclaration() || G.hasAvailableExternallyLinkage() ||
      isBookkeeping(G))
    return false;
  // (A shadow global is written by derivatives: differentiated again, as
  // in forward over reverse, it has a shadow of its own.)
  bool Written = !Rules || Rules->writtenGlobal(&G) ||
                 G.hasMetadata(ShadowGlobalMetadata);
  if (!Written ||
      (Rules ? Rules->isInactiveGlobal(&G) : isKnownInactiveMemory(&G)))
    return false;
  bool Float = false;
  return holdsNumbersOnly(G.getValueType(), Float) && Float;
}

std::string whyNoShadowGlobal(const GlobalVariable &G) {
  bool Float = false;
  std::string Fix = "name its shadow with __attribute__((enzyme_shadow(...))) "
                    "(docs/reverse-mode.md#global-variables), mark it "
                    "inactive (enzyme_inactive) if its derivative is not "
                    "wanted, or pass the memory as a duplicated argument";
  if (G.isDeclaration() || G.hasAvailableExternallyLinkage())
    return "it is defined in another file, where its shadow would be "
           "defined; " + Fix;
  if (!holdsNumbersOnly(G.getValueType(), Float))
    return "it holds pointers, whose shadows adcc cannot know (they may "
           "be set outside any derivative); " + Fix;
  return "adcc found no write of it in the differentiated code, where its "
         "shadow would be made; " + Fix;
}

GlobalVariable *shadowGlobal(GlobalVariable &G, unsigned Lane,
                             const CustomRules &Rules) {
  Module &M = *G.getParent();
  Type *Ty = G.getValueType();
  GlobalVariable *Named = Rules.namedShadow(&G);
  if (Named && Lane == 0) {
    Named->setMetadata(ShadowGlobalMetadata, MDNode::get(G.getContext(), {}));
    return Named;
  }
  std::string Name = (Named ? Named->getName() : G.getName()).str() +
                     (Named ? "" : "_shadow");
  if (Lane > 0)
    Name += (".lane" + Twine(Lane)).str();
  auto *Old = dyn_cast_or_null<GlobalVariable>(M.getNamedValue(Name));
  if (Old && !Old->isDeclaration() && Old->getValueType() == Ty) {
    Old->setMetadata(ShadowGlobalMetadata, MDNode::get(G.getContext(), {}));
    return Old;
  }
  // (A declaration the program reads is the shadow; one of another type,
  // `extern double g_shadow[];`, is replaced.)
  GlobalValue::LinkageTypes Linkage =
      Lane > 0 ? GlobalValue::InternalLinkage
      : Old    ? GlobalValue::ExternalLinkage
               : G.getLinkage();
  // (Shared memory has no initial value: a thread writes a tangent where
  // it writes the value, before any thread reads it.)
  Constant *Init = isSharedArray(G) ? UndefValue::get(Ty)
                                    : Constant::getNullValue(Ty);
  auto *S = new GlobalVariable(M, Ty, /*isConstant=*/false, Linkage, Init, "",
                               &G,
                               G.getThreadLocalMode(), G.getAddressSpace());
  S->setAlignment(G.getAlign());
  S->setMetadata(ShadowGlobalMetadata, MDNode::get(G.getContext(), {}));
  // (Of a static global, or a lane's: no other file can name it. Of a
  // global other files see: another file may, which the linker tells.)
  if (!Old && !Named)
    S->setMetadata(
        OwnShadowMetadata,
        S->hasLocalLinkage()
            ? MDNode::get(G.getContext(), {})
            : MDNode::get(G.getContext(),
                          {MDString::get(G.getContext(), "unless named")}));
  if (Lane == 0 && !G.hasLocalLinkage()) {
    S->setVisibility(G.getVisibility());
    S->setDLLStorageClass(G.getDLLStorageClass());
  }
  if (Old) {
    S->takeName(Old);
    Old->replaceAllUsesWith(S);
    Old->eraseFromParent();
  } else {
    S->setName(Name);
  }
  return S;
}

namespace {
/// reusedShadowGlobal for one global.
const Instruction *reusedShadowGlobalOf(const GlobalVariable &G,
                                        const Function &F,
                                        const CustomRules &Rules) {
  const GlobalVariable *S = Rules.namedShadow(&G);
  if (!S)
    S = dyn_cast_or_null<GlobalVariable>(
        G.getParent()->getNamedValue((G.getName() + "_shadow").str()));
  if (!S || !S->hasMetadata(ShadowGlobalMetadata))
    return nullptr;
  auto UsedIn = [&](const GlobalVariable &V) -> const Instruction * {
    for (const Instruction &I : instructions(F))
      if (is_contained(I.operand_values(), &V))
        return &I;
    return nullptr;
  };
  return UsedIn(*S) ? UsedIn(G) : nullptr;
}
} // namespace

const Instruction *reusedShadowGlobal(ArrayRef<GlobalVariable *> Globals,
                                      const Function &F,
                                      const CustomRules &Rules,
                                      std::string &Message) {
  for (const GlobalVariable *G : Globals)
    if (const Instruction *At = reusedShadowGlobalOf(*G, F, Rules)) {
      Message = ("a global variable whose shadow global the derivative "
                 "being differentiated already uses ('" +
                 G->getName() +
                 "_shadow') is differentiated again; higher derivatives "
                 "through global variables are not supported yet: pass the "
                 "global's memory as a duplicated argument instead")
                    .str();
      return At;
    }
  return nullptr;
}


bool expandShadowedGlobalUses(Function &F, const CustomRules &Rules) {
  SmallPtrSet<Constant *, 8> Seen;
  SmallVector<Constant *, 8> Exprs;
  for (Instruction &I : instructions(F))
    for (Use &Op : I.operands())
      if (auto *CE = dyn_cast<ConstantExpr>(Op.get());
          CE && shadowedIn(CE, &Rules) && Seen.insert(CE).second)
        Exprs.push_back(CE);
  if (Exprs.empty())
    return false;
  return convertUsersOfConstantsToInstructions(Exprs, &F,
                                               /*RemoveDeadConstants=*/false,
                                               /*IncludeSelf=*/true);
}

namespace {
/// Whether the integer \p V may be the bits of a floating-point value (or
/// of a pointer): anything but integer arithmetic (+, -, *, /, %) and
/// extensions of comparisons, through casts, phis and selects.
bool mayBeFloatBits(const Value *V, SmallPtrSetImpl<const Value *> &Seen) {
  if (isa<Constant>(V) || !Seen.insert(V).second)
    return false;
  if (!V->getType()->isIntOrIntVectorTy())
    return true;
  if (isa<CmpInst>(V))
    return false;
  if (const auto *B = dyn_cast<BinaryOperator>(V)) {
    switch (B->getOpcode()) {
    case Instruction::Add:
    case Instruction::Sub:
    case Instruction::Mul:
    case Instruction::UDiv:
    case Instruction::SDiv:
    case Instruction::URem:
    case Instruction::SRem:
      return false;
    default: // (and, or, shifts: bits of anything)
      return true;
    }
  }
  if (isa<ZExtInst, SExtInst, TruncInst>(V))
    return mayBeFloatBits(cast<Instruction>(V)->getOperand(0), Seen);
  if (const auto *Phi = dyn_cast<PHINode>(V))
    return any_of(Phi->incoming_values(),
                  [&](const Value *In) { return mayBeFloatBits(In, Seen); });
  if (const auto *Sel = dyn_cast<SelectInst>(V))
    return mayBeFloatBits(Sel->getTrueValue(), Seen) ||
           mayBeFloatBits(Sel->getFalseValue(), Seen);
  // (Loads, arguments, calls, bit casts: may hold anything's bits.)
  return true;
}
/// Whether \p V is computed from constants alone: constants, constant
/// tables, and arithmetic, casts, selects, phis and math functions of them,
/// through local variables that only such values are stored into (-O0). Its
/// store gives a global no derivative, whatever the call's inputs: a table
/// filled on the first call (`cache[k] = cos((2 * k + 1) * M_PI / 16)`)
/// stays a constant to the derivatives. (A shadow for it collected the
/// adjoints of its reads in reverse mode, which a forward derivative of a
/// later call then read as the table's tangents.) Values met again on a
/// cycle (a loop counter) are taken to be such values: the answer is false
/// only where a path leads to something else.
bool fromConstantsOnly(const Value *V, SmallPtrSetImpl<const Value *> &Seen,
                       unsigned Depth = 0) {
  if (isa<Constant>(V))
    return true;
  if (!Seen.insert(V).second)
    return true;
  if (Depth > 48)
    return false;
  const auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return false; // (an argument)
  auto Operands = [&](const User &U) {
    return all_of(U.operands(), [&](const Use &Op) {
      return fromConstantsOnly(Op.get(), Seen, Depth + 1);
    });
  };
  if (isa<BinaryOperator, UnaryOperator, CastInst, CmpInst, SelectInst,
          PHINode, ExtractElementInst, InsertElementInst, ShuffleVectorInst,
          ExtractValueInst, InsertValueInst, FreezeInst,
          GetElementPtrInst>(I))
    return Operands(*I);
  if (const auto *Call = dyn_cast<CallBase>(I)) {
    const Function *F = Call->getCalledFunction();
    bool Pure = F && ((F->isIntrinsic() && Call->doesNotAccessMemory()) ||
                      findMathRule(*F));
    return Pure && all_of(Call->args(), [&](const Use &A) {
             return fromConstantsOnly(A.get(), Seen, Depth + 1);
           });
  }
  if (const auto *LI = dyn_cast<LoadInst>(I)) {
    const Value *P = LI->getPointerOperand();
    const Value *Obj = getUnderlyingObject(P);
    if (const auto *G = dyn_cast<GlobalVariable>(Obj))
      return G->isConstant() && fromConstantsOnly(P, Seen, Depth + 1);
    // A local variable (-O0) whose every store stores such a value, and
    // whose address goes nowhere else.
    const auto *Slot = dyn_cast<AllocaInst>(P);
    if (!Slot)
      return false;
    for (const User *U : Slot->users()) {
      if (const auto *SI = dyn_cast<StoreInst>(U)) {
        if (SI->getValueOperand() == Slot ||
            !fromConstantsOnly(SI->getValueOperand(), Seen, Depth + 1))
          return false;
      } else if (const auto *II = dyn_cast<IntrinsicInst>(U);
                 II && II->isLifetimeStartOrEnd()) {
        continue;
      } else if (!isa<LoadInst>(U)) {
        return false;
      }
    }
    return true;
  }
  return false;
}

} // namespace

void collectWrittenGlobals(ArrayRef<const Function *> Differentiated,
                           DenseSet<const GlobalVariable *> &Written,
                           bool FloatBitsOnly) {
  auto Note = [&](const Value *P) {
    if (const auto *G = dyn_cast<GlobalVariable>(getUnderlyingObject(P)))
      Written.insert(G);
  };
  for (const Function *F : Differentiated)
    for (const Instruction &I : instructions(*F)) {
      if (const auto *SI = dyn_cast<StoreInst>(&I)) {
        SmallPtrSet<const Value *, 8> Seen;
        const Value *V = SI->getValueOperand();
        SmallPtrSet<const Value *, 16> Visited;
        if (FloatBitsOnly ? mayBeFloatBits(V, Seen) &&
                                !fromConstantsOnly(V, Visited)
                          : !isa<Constant>(V))
          Note(SI->getPointerOperand());
        if (SI->getValueOperand()->getType()->isPointerTy())
          Note(SI->getValueOperand()); // (its address escapes)
      } else if (const auto *MT = dyn_cast<MemTransferInst>(&I)) {
        Note(MT->getRawDest());
      } else if (isa<AtomicRMWInst, AtomicCmpXchgInst>(I)) {
        Note(I.getOperand(0)); // (the address)
      } else if (const auto *Call = dyn_cast<CallBase>(&I);
                 Call && !isa<MemIntrinsic, DbgInfoIntrinsic>(Call) &&
                 !Call->isLifetimeStartOrEnd()) {
        for (const Use &Arg : Call->args())
          if (Arg->getType()->isPointerTy())
            Note(Arg.get());
      }
    }
}

bool GlobalUsers::usesDirectly(const Function &F) {
  auto [It, New] = Direct.try_emplace(&F, false);
  if (!New)
    return It->second;
  bool Uses = false;
  for (const Instruction &I : instructions(F)) {
    Uses = any_of(I.operands(), [&](const Use &Op) {
      auto *C = dyn_cast<Constant>(Op.get());
      return C && !isa<Function>(C) && shadowedIn(C, Rules);
    });
    if (Uses)
      break;
  }
  Direct[&F] = Uses;
  return Uses;
}

bool GlobalUsers::touchesShadowedGlobals(const Function &F) {
  if (auto It = Reached.find(&F); It != Reached.end())
    return It->second;
  SmallPtrSet<const Function *, 16> Seen;
  SmallVector<const Function *, 16> Work{&F};
  bool Touches = false;
  while (!Work.empty() && !Touches) {
    const Function *G = Work.pop_back_val();
    if (!Seen.insert(G).second || G->isDeclaration() ||
        (Rules && Rules->isInactive(G)))
      continue;
    if (auto It = Reached.find(G); It != Reached.end()) {
      Touches = It->second;
      continue;
    }
    Touches = usesDirectly(*G);
    for (const Instruction &I : instructions(*G))
      if (const auto *Call = dyn_cast<CallBase>(&I)) {
        if (const Function *Callee = Call->getCalledFunction())
          Work.push_back(Callee);
        else if (!Call->isInlineAsm())
          for (const Function *T : possibleCallTargets(
                   *const_cast<Module *>(G->getParent()),
                   Call->getFunctionType()))
            Work.push_back(T);
      }
  }
  Reached[&F] = Touches;
  return Touches;
}

bool GlobalUsers::touchesShadowedGlobals(const CallBase &Call) {
  if (const Function *Callee = Call.getCalledFunction())
    return touchesShadowedGlobals(*Callee);
  if (Call.isInlineAsm())
    return false;
  auto [It, New] = Indirect.try_emplace(Call.getFunctionType(), false);
  if (New)
    It->second = anyTargetTouches(Call);
  return It->second;
}

bool GlobalUsers::anyTargetTouches(const CallBase &Call) {
  Module &M = *const_cast<Module *>(Call.getModule());
  return any_of(possibleCallTargets(M, Call.getFunctionType()),
                [&](const Function *T) { return touchesShadowedGlobals(*T); });
}

} // namespace adcore
