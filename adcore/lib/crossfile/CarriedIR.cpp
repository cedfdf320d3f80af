//===- CarriedIR.cpp - What of a module its object file carries ----------===//
//
// See EmbeddedIR.h. A derivative made at link time differentiates a
// function that another file can call, with what it calls and reads: the
// functions and variables of the module that are not local to it, and what
// their bodies and initializers refer to. The copy carried in the object
// holds those (GlobalDCE: what only the file's dead code uses goes), and
// line tables for the errors found at link time (which name their source
// line) instead of full debug info: the link step drops debug info from
// what it compiles.
//
// The copy is the same for the same source in another directory: its
// source file name goes through the path prefix maps (-ffile-prefix-map,
// -fdebug-prefix-map, -fmacro-prefix-map) as clang's debug info and
// __FILE__ already do for the other paths in it.
//
//===----------------------------------------------------------------------===//

#include "adcore/EmbeddedIR.h"
#include "support/AnalysisManagers.h"

#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/Path.h"
#include "llvm/Transforms/IPO/GlobalDCE.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace adcore {
namespace {

/// Removes from \p M what no function or variable other files can refer
/// to reaches.
void dropUnreachable(Module &M) {
  PassBuilder PB;
  AnalysisManagers AM(PB);
  GlobalDCEPass().run(M, AM.MAM);
}

/// Whether \p M defines anything (a function or a variable of its own,
/// not one of LLVM's lists such as llvm.used).
bool definesAnything(const Module &M) {
  for (const Function &F : M)
    if (!F.isDeclaration())
      return true;
  for (const GlobalVariable &GV : M.globals())
    if (!GV.isDeclaration() && !GV.getName().starts_with("llvm."))
      return true;
  return !M.alias_empty() || !M.ifunc_empty();
}

} // namespace

std::string remapPath(StringRef Path, const PathPrefixMap &Map) {
  SmallString<256> P(Path);
  for (const auto &[From, To] : Map)
    if (sys::path::replace_path_prefix(P, From, To))
      break;
  return std::string(P);
}

std::unique_ptr<Module> carriedModule(const Module &M,
                                      const PathPrefixMap &Map) {
  std::unique_ptr<Module> Carried = CloneModule(M);
  dropUnreachable(*Carried);
  if (!definesAnything(*Carried))
    return nullptr;
  stripNonLineTableDebugInfo(*Carried);
  Carried->setSourceFileName(remapPath(M.getSourceFileName(), Map));
  Carried->setModuleIdentifier(remapPath(M.getModuleIdentifier(), Map));
  return Carried;
}

void embedModuleIR(Module &M, const Options &Opts) {
  if (!M.getModuleFlag(ContractFlag))
    M.addModuleFlag(Module::Min, ContractFlag,
                    Opts.ContractDerivatives ? 1 : 0);
  std::unique_ptr<Module> Carried = carriedModule(M, Opts.PathPrefixes);
  if (!Carried)
    return;
  // (Without the symbol table of LTO: the link step reads the objects'
  // own symbol tables.)
  SmallVector<char, 0> Bitcode;
  {
    BitcodeWriter Writer(Bitcode);
    Writer.writeModule(*Carried);
    Writer.writeStrtab();
  }
  std::string Frame = packBitcode(StringRef(Bitcode.data(), Bitcode.size()));
  LLVMContext &C = M.getContext();
  Constant *Data = ConstantDataArray::get(
      C, ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Frame.data()),
                           Frame.size()));
  auto *GV = new GlobalVariable(M, Data->getType(), /*isConstant=*/true,
                                GlobalValue::PrivateLinkage, Data,
                                "__adcc_embedded_ir");
  GV->setSection(EmbeddedIRSection);
  // Frames are read from the section one after another.
  GV->setAlignment(Align(8));
  // SHF_EXCLUDE: the linker leaves the section out of what it writes.
  GV->setMetadata(LLVMContext::MD_exclude, MDNode::get(C, {}));
  appendToCompilerUsed(M, {GV});
}

} // namespace adcore
