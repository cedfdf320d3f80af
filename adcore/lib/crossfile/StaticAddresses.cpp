//===- StaticAddresses.cpp - Addresses of a file's statics ---------------===//
//
// See adcore/CrossTU.h. A derivative made at link time differentiates its
// own copy of each function it reaches, a file's static functions
// included. Where the program calls one through a pointer (a callback set
// by the file's init function: CoMD's `pot->force = ljForce`), the
// derivative compares the pointer with the function's address to choose
// the function's derivative; the copy's address is not the program's. So
// each file exports, under a hidden name of its own, the address of every
// static function whose address it takes, and the link step replaces the
// copy's address by that name, which the linker resolves to the program's
// function.
//
// The same for the file's static variables that it writes and reads
// (genann's table of sigmoid values, filled by an init function and read
// by the activation): the derivative's copy of one would never see what
// the program stores, so each is exported too, and the link step makes
// every use of the copy a use of the exported name. Thread-local ones are
// not (the link step reports a derivative that uses one), nor those only
// read, whose copies hold their initial value, nor those that the file
// only writes; an export keeps the variable as it is, where the optimizer
// might have shrunk or removed it.
//
// The name is __adcc_static.<file>.<name>, where <file> is a hash of
// the names of the strong external definitions of the file: two files of
// one program cannot both define one (the linker would refuse them), and
// a file that defines none cannot be asked for a derivative at link time,
// so it exports nothing.
//
//===----------------------------------------------------------------------===//

#include "adcore/CrossTU.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/GlobalAlias.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/xxhash.h"

using namespace llvm;

namespace adcore {
namespace {

constexpr StringLiteral StaticPrefix = "__adcc_static.";

bool isStrongDefinition(const GlobalValue &G) {
  return !G.isDeclaration() && !G.hasLocalLinkage() &&
         !G.hasLinkOnceLinkage() && !G.hasWeakLinkage() &&
         !G.hasCommonLinkage() && !G.hasAvailableExternallyLinkage() &&
         !G.getName().starts_with("llvm.");
}

/// The file part of the exported names, or none when \p M defines nothing
/// strong and external.
std::optional<std::string> fileTag(const Module &M) {
  std::string Names;
  auto Add = [&](const GlobalValue &G) {
    if (isStrongDefinition(G)) {
      Names += G.getName();
      Names += '\0';
    }
  };
  for (const Function &F : M)
    Add(F);
  for (const GlobalVariable &GV : M.globals())
    Add(GV);
  if (Names.empty())
    return std::nullopt;
  return utohexstr(xxh3_64bits(StringRef(Names)), /*LowerCase=*/true);
}

/// Whether the program may hold \p F's address: a use that is not a call
/// of it (nor its mention in llvm.used and the like).
bool addressTaken(const Function &F) {
  return F.hasAddressTaken(/*PutOffender=*/nullptr,
                           /*IgnoreCallbackUses=*/false,
                           /*IgnoreAssumeLikeCalls=*/true,
                           /*IgnoreLLVMUsed=*/true);
}

/// Whether the program may change \p GV, a static variable: its value is
/// exported only then.
bool exportedVariable(const GlobalVariable &GV) {
  return GV.hasLocalLinkage() && !GV.isDeclaration() && !GV.isConstant() &&
         !GV.isThreadLocal() && !GV.hasComdat() && !GV.getName().empty() &&
         !GV.getName().starts_with("llvm.") &&
         !GV.getName().starts_with("__adcc") &&
         !isScratchVariable(GV.getName()) && !isOnlyRead(GV) &&
         !isOnlyWritten(GV);
}

} // namespace

bool isOnlyRead(const Value &V) {
  for (const User *U : V.users()) {
    if (const auto *L = dyn_cast<LoadInst>(U)) {
      if (L->getPointerOperand() != &V)
        return false;
      continue;
    }
    const auto *CE = dyn_cast<ConstantExpr>(U);
    const auto *GEP = dyn_cast<GetElementPtrInst>(U);
    if (CE && (CE->getOpcode() == Instruction::GetElementPtr ||
               CE->getOpcode() == Instruction::BitCast) && isOnlyRead(*CE))
      continue;
    if (GEP && GEP->getPointerOperand() == &V && isOnlyRead(*GEP))
      continue;
    return false;
  }
  return true;
}

bool isOnlyWritten(const Value &V) {
  for (const User *U : V.users()) {
    if (const auto *S = dyn_cast<StoreInst>(U)) {
      if (S->getPointerOperand() != &V)
        return false;
      continue;
    }
    if ((isa<GEPOperator>(U) || isa<BitCastOperator>(U)) &&
        cast<Operator>(U)->getOperand(0) == &V && isOnlyWritten(*U))
      continue;
    return false;
  }
  return true;
}

void exportStaticAddresses(Module &M) {
  std::optional<std::string> Tag = fileTag(M);
  if (!Tag)
    return;
  SmallVector<Function *, 8> Exported;
  for (Function &F : M)
    // (Not one in a comdat: the linker may drop its group, and the
    // exported name would refer to what it dropped.)
    if (F.hasLocalLinkage() && !F.isDeclaration() && !F.hasComdat() &&
        !F.getName().empty() && !F.getName().starts_with(StaticPrefix) &&
        addressTaken(F))
      Exported.push_back(&F);
  for (Function *F : Exported) {
    std::string Name = (StaticPrefix + *Tag + "." + F->getName()).str();
    if (M.getNamedValue(Name))
      continue; // (exported already: the module went through here before)
    auto *A = GlobalAlias::create(F->getValueType(),
                                  F->getAddressSpace(),
                                  GlobalValue::ExternalLinkage, Name, F, &M);
    A->setVisibility(GlobalValue::HiddenVisibility);
  }
  SmallVector<GlobalVariable *, 8> Variables;
  for (GlobalVariable &GV : M.globals())
    if (exportedVariable(GV))
      Variables.push_back(&GV);
  for (GlobalVariable *GV : Variables) {
    std::string Name = (StaticPrefix + *Tag + "." + GV->getName()).str();
    if (M.getNamedValue(Name))
      continue;
    auto *A = GlobalAlias::create(GV->getValueType(), GV->getAddressSpace(),
                                  GlobalValue::ExternalLinkage, Name, GV, &M);
    A->setVisibility(GlobalValue::HiddenVisibility);
  }
}

void useExportedAddresses(Module &M) {
  for (GlobalAlias &A : M.aliases()) {
    // A variable: every use is the program's variable.
    if (auto *GV = dyn_cast<GlobalVariable>(A.getAliasee());
        GV && GV->hasLocalLinkage() &&
        A.getName().starts_with(StaticPrefix)) {
      GV->replaceUsesWithIf(
          &A, [](Use &U) { return !isa<GlobalAlias>(U.getUser()); });
      continue;
    }
    auto *F = dyn_cast<Function>(A.getAliasee());
    if (!A.getName().starts_with(StaticPrefix) || !F || !F->hasLocalLinkage())
      continue;
    // Calls keep calling the copy; every other use (a comparison of a
    // dispatch, a store into a table) takes the program's address.
    F->replaceUsesWithIf(&A, [](Use &U) {
      if (isa<GlobalAlias>(U.getUser()))
        return false;
      auto *Call = dyn_cast<CallBase>(U.getUser());
      return !Call || !Call->isCallee(&U);
    });
  }
}

} // namespace adcore
