//===- StaticAddresses.cpp - Addresses of a file's static functions ------===//
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
// The name is __adcc_static.<file>.<function>, where <file> is a hash of
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

} // namespace

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
}

void useExportedAddresses(Module &M) {
  for (GlobalAlias &A : M.aliases()) {
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
