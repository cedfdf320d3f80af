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
#include "adcore/CrossTU.h"
#include "support/AnalysisManagers.h"

#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TimeProfiler.h"
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

/// Whether \p M is already what carriedModule would make of it but for its
/// names: no debug information beyond the source locations adcc keeps on
/// its own (no compile unit that asks for any: a compile without -g), and
/// nothing GlobalDCE would drop (every definition that may go when unused
/// has uses; unused declarations, which it would drop too, cost nothing).
/// Then the module itself is written, not a copy of it: copying the whole
/// module took 2-3 % of a compile's time. (A group of local functions that
/// only call each other is carried then; the link step links it unused.)
bool carriedAsIs(const Module &M) {
  for (const DICompileUnit *CU : M.debug_compile_units())
    if (CU->getEmissionKind() != DICompileUnit::NoDebug)
      return false;
  auto Droppable = [](const GlobalValue &GV) {
    return !GV.isDeclaration() && GV.isDiscardableIfUnused() &&
           GV.use_empty();
  };
  return none_of(M, Droppable) && none_of(M.globals(), Droppable) &&
         none_of(M.aliases(), Droppable) && none_of(M.ifuncs(), Droppable);
}

SmallVector<char, 0> writeBitcode(const Module &M) {
  // (Without the symbol table of LTO: the link step reads the objects'
  // own symbol tables.)
  SmallVector<char, 0> Bitcode;
  BitcodeWriter Writer(Bitcode);
  Writer.writeModule(M);
  Writer.writeStrtab();
  return Bitcode;
}

/// The bitcode of carriedModule(\p M, \p Map); empty when it would hold no
/// definition.
SmallVector<char, 0> carriedBitcode(Module &M, const PathPrefixMap &Map) {
  if (!carriedAsIs(M)) {
    std::unique_ptr<Module> Carried = carriedModule(M, Map);
    return Carried ? writeBitcode(*Carried) : SmallVector<char, 0>();
  }
  if (!definesAnything(M))
    return {};
  std::string Source = M.getSourceFileName(), Id = M.getModuleIdentifier();
  M.setSourceFileName(remapPath(Source, Map));
  M.setModuleIdentifier(remapPath(Id, Map));
  SmallVector<char, 0> Bitcode = writeBitcode(M);
  M.setSourceFileName(Source);
  M.setModuleIdentifier(Id);
  return Bitcode;
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

std::string carriedFrame(Module &M, const Options &Opts) {
  // (In the object and in what it carries.)
  exportStaticAddresses(M);
  if (!M.getModuleFlag(ContractFlag))
    M.addModuleFlag(Module::Min, ContractFlag,
                    Opts.ContractDerivatives ? 1 : 0);
  TimeTraceScope Scope("adcc: carry IR");
  SmallVector<char, 0> Bitcode;
  {
    TimeTraceScope Write("adcc: write carried IR");
    Bitcode = carriedBitcode(M, Opts.PathPrefixes);
  }
  if (Bitcode.empty())
    return {};
  TimeTraceScope Pack("adcc: compress carried IR");
  return packBitcode(StringRef(Bitcode.data(), Bitcode.size()));
}

void embedFrame(Module &M, StringRef Frame) {
  if (Frame.empty())
    return;
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

void embedModuleIR(Module &M, const Options &Opts) {
  embedFrame(M, carriedFrame(M, Opts));
}

} // namespace adcore
