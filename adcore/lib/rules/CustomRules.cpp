//===- CustomRules.cpp - User-registered rules and marks -----------------===//

#include "CustomRules.h"
#include "BlasRules.h"
#include "MpiRules.h"
#include "WarpShuffles.h"
#include "adcore/MemoryFunctions.h"

#include "support/CallSites.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace adcore {
namespace {

/// The elements of a registration: an array initializer's elements, or a
/// scalar initializer.
SmallVector<Constant *, 4> elements(GlobalVariable &G) {
  SmallVector<Constant *, 4> Out;
  if (!G.hasInitializer())
    return Out;
  Constant *Init = G.getInitializer();
  if (auto *A = dyn_cast<ConstantArray>(Init)) {
    for (Use &U : A->operands())
      Out.push_back(cast<Constant>(U.get()));
  } else if (auto *S = dyn_cast<ConstantStruct>(Init)) {
    for (Use &U : S->operands())
      Out.push_back(cast<Constant>(U.get()));
  } else {
    Out.push_back(Init);
  }
  return Out;
}

Function *functionOf(Constant *C) {
  return dyn_cast<Function>(C->stripPointerCasts());
}

void report(GlobalVariable &G, const Twine &Message, bool &HadError) {
  HadError = true;
  // Attributed to a function that uses the registration when there is one,
  // which gives a source location; the global's name identifies it.
  G.getContext().diagnose(DiagnosticInfoGeneric(
      "malformed registration '" + G.getName() + "': " + Message, DS_Error));
}

/// The linkage a kept function had (keepRegisteredOutOfLine).
constexpr StringRef KeptLinkageAttr = "adcc-kept-linkage";

/// Registrations whose functions keep their calls, and how many of their
/// elements are such functions (0: all).
struct KeptRow {
  const char *Prefix;
  unsigned Functions;
};

constexpr KeptRow KeptTable[] = {
    {"__enzyme_register_derivative", 1},
    {"__enzyme_register_gradient", 1},
    {"__enzyme_register_splitderivative", 1},
    {"__enzyme_inactivefn", 0},
    {"__enzyme_function_like", 1},
    {"__enzyme_allocation_like", 0},
};

/// The integer a registration element holds: `(void *)2` or 0.
std::optional<uint64_t> integerOf(Constant *C) {
  if (isa<ConstantPointerNull>(C))
    return 0;
  if (auto *CE = dyn_cast<ConstantExpr>(C);
      CE && CE->getOpcode() == Instruction::IntToPtr)
    C = CE->getOperand(0);
  if (auto *CI = dyn_cast<ConstantInt>(C))
    return CI->getZExtValue();
  return std::nullopt;
}

/// __enzyme_allocation_like = {(void *)alloc, (void *)size_index,
/// (void *)"free args", (void *)free}: alloc's calls allocate a block of
/// the size its argument size_index gives, freed by free called with the
/// arguments the string lists (alloc's argument numbers, -1 the block).
void collectAllocationLike(GlobalVariable &G, ArrayRef<Constant *> E,
                           bool &HadError) {
  const char *Shape = "expected {(void *)allocator, (void *)size_argument, "
                      "(void *)\"deallocator arguments\", (void *)deallocator}";
  Function *Alloc = E.size() == 4 ? functionOf(E[0]) : nullptr;
  Function *Free = E.size() == 4 ? functionOf(E[3]) : nullptr;
  std::optional<uint64_t> SizeArg = E.size() == 4 ? integerOf(E[1]) : std::nullopt;
  SmallVector<int, 4> FreeArgs;
  if (!Alloc || !Free || !SizeArg ||
      !parseDeallocationArgs(constantString(E[2]), FreeArgs)) {
    report(G, Shape, HadError);
    return;
  }
  FunctionType *AT = Alloc->getFunctionType(), *FT = Free->getFunctionType();
  if (!AT->getReturnType()->isPointerTy() || *SizeArg >= AT->getNumParams() ||
      !AT->getParamType(*SizeArg)->isIntegerTy()) {
    report(G,
           "the allocator '" + Alloc->getName() +
               "' must return a pointer and take the size (an integer) as "
               "its argument " +
               Twine(*SizeArg),
           HadError);
    return;
  }
  bool Match = FT->getNumParams() == FreeArgs.size();
  for (unsigned I = 0; Match && I < FreeArgs.size(); ++I) {
    int N = FreeArgs[I];
    Match = N < 0 ? FT->getParamType(I)->isPointerTy()
                  : unsigned(N) < AT->getNumParams() &&
                        FT->getParamType(I) == AT->getParamType(N);
  }
  if (!Match) {
    report(G,
           "the deallocator '" + Free->getName() + "' must take " +
               Twine(unsigned(FreeArgs.size())) +
               " arguments: the block (-1) and the allocator's arguments "
               "that the string names, of the same types",
           HadError);
    return;
  }
  markAllocationLike(*Alloc, unsigned(*SizeArg), FreeArgs, *Free);
}

} // namespace

bool CustomRules::keepRegisteredOutOfLine(Module &M) {
  bool Changed = false;
  for (GlobalVariable &G : M.globals()) {
    StringRef Name = G.getName();
    for (const KeptRow &Row : KeptTable) {
      if (!Name.starts_with(Row.Prefix))
        continue;
      SmallVector<Constant *, 4> E = elements(G);
      unsigned N =
          Row.Functions ? std::min<size_t>(Row.Functions, E.size()) : E.size();
      for (unsigned I = 0; I < N; ++I) {
        Function *F = functionOf(E[I]);
        // (always_inline is the program's explicit choice: kept.)
        if (!F || F->isDeclaration() || F->hasAvailableExternallyLinkage() ||
            F->hasFnAttribute(KeptLinkageAttr) ||
            F->hasFnAttribute(Attribute::AlwaysInline))
          continue;
        F->addFnAttr(Attribute::NoInline);
        // Not inlining is not enough: interprocedural passes would still
        // read the body (an identity's result replaced by its argument, a
        // constant result propagated). A definition that may be replaced at
        // link time is opaque to them; restoreKeptLinkage undoes it.
        if (!F->isInterposable()) {
          F->addFnAttr(KeptLinkageAttr, utostr(unsigned(F->getLinkage())));
          F->setLinkage(GlobalValue::WeakAnyLinkage);
        }
        Changed = true;
      }
    }
  }
  return Changed;
}

void CustomRules::restoreKeptLinkage(Module &M) {
  for (Function &F : M) {
    Attribute A = F.getFnAttribute(KeptLinkageAttr);
    if (!A.isValid())
      continue;
    unsigned Linkage = 0;
    if (!A.getValueAsString().getAsInteger(10, Linkage))
      F.setLinkage(GlobalValue::LinkageTypes(Linkage));
    F.removeFnAttr(KeptLinkageAttr);
  }
}

Function *CustomRules::forwardDerivative(const Function *F) const {
  if (Function *Fn = Forward.lookup(F))
    return Fn;
  if (!F)
    return nullptr;
  if (Function *Mpi = mpiForwardRule(*F))
    return Mpi;
  if (Function *Shuffle = warpShuffleForwardRule(*F))
    return Shuffle;
  return blasForwardRule(*F);
}

const CustomGradient *CustomRules::gradient(const Function *F) const {
  if (auto It = Gradients.find(F); It != Gradients.end())
    return &It->second;
  if (auto It = MpiGradients.find(F); It != MpiGradients.end())
    return &It->second;
  CustomGradient G;
  if (!F || (!mpiGradientRule(*F, G.Augmented, G.Reverse) &&
             !warpShuffleGradientRule(*F, G.Augmented, G.Reverse) &&
             !blasGradientRule(*F, G.Augmented, G.Reverse)))
    return nullptr;
  return &(MpiGradients[F] = G);
}

const CustomGradient *CustomRules::blasGradient(const Function *F,
                                                unsigned Stable) const {
  if (Gradients.contains(F))
    return nullptr; // (the program's own rule comes first)
  auto [It, New] = BlasGradients.try_emplace({F, Stable});
  if (New &&
      !blasGradientRule(*F, It->second.Augmented, It->second.Reverse, Stable)) {
    BlasGradients.erase(It);
    return nullptr;
  }
  return &It->second;
}

void CustomRules::collect(Module &M, bool &HadError) {
  for (GlobalVariable &G : M.globals()) {
    StringRef Name = G.getName();
    if (!Name.starts_with("__enzyme_"))
      continue;
    SmallVector<Constant *, 4> E = elements(G);
    if (Name.starts_with("__enzyme_register_derivative")) {
      if (E.size() != 2 || !functionOf(E[0]) || !functionOf(E[1])) {
        report(G, "expected {(void *)function, (void *)derivative}", HadError);
        continue;
      }
      Forward[functionOf(E[0])] = functionOf(E[1]);
    } else if (Name.starts_with("__enzyme_register_gradient") ||
               Name.starts_with("__enzyme_register_splitderivative")) {
      bool Split = Name.starts_with("__enzyme_register_splitderivative");
      if (E.size() != 3 || !functionOf(E[0]) || !functionOf(E[1]) ||
          !functionOf(E[2])) {
        report(G,
               Split ? "expected {(void *)function, (void *)augmented, "
                       "(void *)forward_split}"
                     : "expected {(void *)function, (void *)augmented, "
                       "(void *)reverse}",
               HadError);
        continue;
      }
      if (Split)
        Splits[functionOf(E[0])] = {functionOf(E[1]), functionOf(E[2])};
      else
        Gradients[functionOf(E[0])] = {functionOf(E[1]), functionOf(E[2])};
    } else if (Name.starts_with("__enzyme_inactivefn")) {
      for (Constant *C : E) {
        if (Function *F = functionOf(C))
          InactiveFunctions.insert(F);
        else
          report(G, "expected function addresses", HadError);
      }
    } else if (Name.starts_with("__enzyme_inactive_global")) {
      for (Constant *C : E) {
        Value *V = C->stripPointerCasts();
        if (isa<GlobalVariable>(V))
          InactiveGlobals.insert(V);
        else
          report(G, "expected addresses of global variables", HadError);
      }
    } else if (Name.starts_with("__enzyme_allocation_like")) {
      collectAllocationLike(G, E, HadError);
    } else if (Name.starts_with("__enzyme_shadow_global")) {
      auto *Of = E.size() == 2
                     ? dyn_cast<GlobalVariable>(E[0]->stripPointerCasts())
                     : nullptr;
      auto *Shadow = Of ? dyn_cast<GlobalVariable>(E[1]->stripPointerCasts())
                        : nullptr;
      if (!Shadow || Shadow == Of) {
        report(G, "expected {(void *)&global, (void *)&its_shadow}",
               HadError);
        continue;
      }
      NamedShadows[Of] = Shadow;
    } else if (Name.starts_with("__enzyme_function_like")) {
      if (E.size() != 2 || !functionOf(E[0]) || constantString(E[1]).empty()) {
        report(G, "expected {(void *)function, (void *)\"name\"}", HadError);
        continue;
      }
      Like[functionOf(E[0])] = constantString(E[1]).str();
    }
  }
}

} // namespace adcore
