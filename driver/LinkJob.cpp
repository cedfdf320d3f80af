//===- LinkJob.cpp - Linking with derivatives made at link time ----------===//
//
// adcc runs the linker through this step, in the driver's process.
// When the objects to link (and the members of archives that the link
// uses) call derivatives that none of them defines (names made by
// adcore::crossTUSymbol: requests of functions defined in another file),
// it links the IR they carry into one module, makes the
// derivatives there, compiles them into one more object and adds it to the
// linker's command line. Otherwise it runs the linker as given.
//
//===----------------------------------------------------------------------===//

#include "driver/LinkJob.h"
#include "driver/Config.h"

#include "adcore/CrossTU.h"
#include "adcore/MergedStructTypes.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/BinaryFormat/Magic.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Object/Archive.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/IPO/GlobalDCE.h"

#include <optional>

using namespace llvm;

namespace adcc::driver {
namespace {

/// What the objects on a link line hold for adcc.
struct LinkInputs {
  /// Derivatives called and not defined.
  std::vector<std::string> Missing;
  /// The IR sections' contents, with the object each came from.
  std::vector<std::pair<std::string, std::unique_ptr<MemoryBuffer>>> IR;
  /// Where the object with the derivatives goes in the linker's
  /// arguments: after the objects that call them, before the archives
  /// whose members they may call.
  size_t InsertAt = 0;
};

/// One object on the link line, or one member of an archive there.
struct LinkUnit {
  std::string Name;
  /// Index of its argument (the archive's, for a member).
  size_t Arg = 0;
  bool Member = false;
  StringSet<> Defines, Needs;
  /// Its contents (an archive member's are in the archive's buffer).
  std::unique_ptr<MemoryBuffer> File;
  MemoryBufferRef Contents;
};

file_magic magicOf(StringRef Path) {
  file_magic Magic = file_magic::unknown;
  if (!sys::fs::is_regular_file(Path) || identify_magic(Path, Magic))
    return file_magic::unknown;
  return Magic;
}

/// An object file the link job reads: ELF, or bitcode (-flto).
bool isLinkObject(file_magic Magic) {
  return Magic == file_magic::elf_relocatable || Magic == file_magic::bitcode;
}

/// The contents of \p Obj's EmbeddedIRSection, if it has one.
std::optional<StringRef> sectionIR(const object::ObjectFile &Obj) {
  for (const object::SectionRef &S : Obj.sections()) {
    Expected<StringRef> SecName = S.getName();
    if (!SecName) {
      consumeError(SecName.takeError());
      continue;
    }
    if (*SecName != adcore::EmbeddedIRSection)
      continue;
    Expected<StringRef> Contents = S.getContents();
    if (!Contents) {
      consumeError(Contents.takeError());
      continue;
    }
    return *Contents;
  }
  return std::nullopt;
}

/// The IR a bitcode object (-flto) carries in EmbeddedIRSection (the
/// initializer of a global there), if any.
std::optional<std::string> bitcodeIR(MemoryBufferRef Buffer,
                                     LLVMContext &Context) {
  Expected<std::unique_ptr<Module>> M = getLazyBitcodeModule(Buffer, Context);
  if (!M) {
    consumeError(M.takeError());
    return std::nullopt;
  }
  for (GlobalVariable &GV : (*M)->globals()) {
    if (GV.getSection() != adcore::EmbeddedIRSection)
      continue;
    if (Error E = GV.materialize()) {
      consumeError(std::move(E));
      return std::nullopt;
    }
    if (auto *Data =
            dyn_cast_or_null<ConstantDataSequential>(GV.getInitializer()))
      return Data->getRawDataValues().str();
  }
  return std::nullopt;
}

/// The IR the object in \p Buffer carries (read only when a derivative is
/// to be made: with -flto, a bitcode object's own module).
std::unique_ptr<MemoryBuffer> readIR(MemoryBufferRef Buffer, StringRef Name) {
  if (identify_magic(Buffer.getBuffer()) != file_magic::bitcode) {
    auto Obj = object::ObjectFile::createObjectFile(Buffer);
    if (!Obj) {
      consumeError(Obj.takeError());
      return nullptr;
    }
    if (std::optional<StringRef> IR = sectionIR(**Obj))
      return MemoryBuffer::getMemBufferCopy(*IR, Name);
    return nullptr;
  }
  // (Without the section, the object's own module is its IR.)
  LLVMContext Context;
  std::optional<std::string> IR = bitcodeIR(Buffer, Context);
  return MemoryBuffer::getMemBufferCopy(
      IR ? *IR : adcore::frameBitcode(Buffer.getBuffer()), Name);
}

/// The global symbols the object in \p Buffer (ELF, or bitcode from -flto)
/// defines and needs.
std::optional<LinkUnit> readUnit(MemoryBufferRef Buffer, std::string Name) {
  LLVMContext Context;
  auto Obj = object::SymbolicFile::createSymbolicFile(
      Buffer, file_magic::unknown, &Context);
  if (!Obj) {
    consumeError(Obj.takeError());
    return std::nullopt;
  }
  LinkUnit U;
  U.Name = std::move(Name);
  for (const object::BasicSymbolRef &S : (*Obj)->symbols()) {
    std::string SymName;
    raw_string_ostream OS(SymName);
    Expected<uint32_t> Flags = S.getFlags();
    if (!Flags || S.printName(OS)) {
      consumeError(Flags.takeError());
      continue;
    }
    if (*Flags & object::SymbolRef::SF_Undefined)
      U.Needs.insert(SymName);
    else if (*Flags & object::SymbolRef::SF_Global)
      U.Defines.insert(SymName);
  }
  U.Contents = Buffer;
  return U;
}

/// An archive on the link line: its members are read when the link needs
/// them (its symbol table says which member defines what).
struct ArchiveInput {
  std::string Path;
  size_t Arg = 0;
  std::unique_ptr<MemoryBuffer> Buffer;
  std::unique_ptr<object::Archive> Ar;
  DenseSet<uint64_t> Read; // members, by offset
};

std::optional<ArchiveInput> openArchive(StringRef Path, size_t Arg) {
  auto Buffer = MemoryBuffer::getFile(Path);
  if (!Buffer)
    return std::nullopt;
  auto Ar = object::Archive::create((*Buffer)->getMemBufferRef());
  if (!Ar) {
    consumeError(Ar.takeError());
    return std::nullopt;
  }
  ArchiveInput In;
  In.Path = Path.str();
  In.Arg = Arg;
  In.Buffer = std::move(*Buffer);
  In.Ar = std::move(*Ar);
  return In;
}

/// The member of \p A that defines \p Sym, when it is an ELF object not
/// read yet.
std::optional<LinkUnit> readMember(ArchiveInput &A,
                                   const object::Archive::Symbol &Sym) {
  Expected<object::Archive::Child> C = Sym.getMember();
  if (!C) {
    consumeError(C.takeError());
    return std::nullopt;
  }
  if (!A.Read.insert(C->getChildOffset()).second)
    return std::nullopt;
  Expected<MemoryBufferRef> Member = C->getMemoryBufferRef();
  Expected<StringRef> Name = C->getName();
  if (!Member || !Name) {
    consumeError(Member.takeError());
    consumeError(Name.takeError());
    return std::nullopt;
  }
  if (!isLinkObject(identify_magic(Member->getBuffer())))
    return std::nullopt;
  auto U = readUnit(*Member, (A.Path + "(" + *Name + ")").str());
  if (U) {
    U->Arg = A.Arg;
    U->Member = true;
  }
  return U;
}

/// The file `-l<Name>` names among the directories of -L, when it is a
/// static archive (the first of lib<Name>.so and lib<Name>.a found, as the
/// linker searches; `-l:file` names the file).
std::string findLibrary(StringRef Name, ArrayRef<std::string> Dirs) {
  SmallVector<std::string, 2> Files;
  if (Name.consume_front(":"))
    Files.push_back(Name.str());
  else
    Files = {("lib" + Name + ".so").str(), ("lib" + Name + ".a").str()};
  for (const std::string &Dir : Dirs)
    for (const std::string &F : Files) {
      std::string Path = Dir + "/" + F;
      if (sys::fs::exists(Path))
        return magicOf(Path) == file_magic::archive ? Path : "";
    }
  return "";
}

/// Reads the objects among \p Args, and the members of the archives there
/// that the link uses: those that define a symbol that the objects, or the
/// members used already, need (as the linker picks them).
LinkInputs scanInputs(ArrayRef<const char *> Args) {
  std::vector<std::string> LibDirs;
  for (size_t I = 1; I < Args.size(); ++I) {
    StringRef A(Args[I]);
    if (A == "-L" && I + 1 < Args.size())
      LibDirs.push_back(Args[++I]);
    else if (A.starts_with("-L"))
      LibDirs.push_back(A.drop_front(2).str());
  }
  std::vector<LinkUnit> Units;
  std::vector<ArchiveInput> Archives;
  for (size_t I = 1; I < Args.size(); ++I) {
    StringRef A(Args[I]);
    if (A == "-o" || A == "-L") {
      ++I;
      continue;
    }
    std::string Path = A.str();
    if (A.starts_with("-l"))
      Path = findLibrary(A.drop_front(2), LibDirs);
    else if (A.starts_with("-"))
      continue;
    file_magic Magic = magicOf(Path);
    if (Magic == file_magic::archive) {
      if (auto Ar = openArchive(Path, I))
        Archives.push_back(std::move(*Ar));
      continue;
    }
    if (!isLinkObject(Magic))
      continue;
    auto Buffer = MemoryBuffer::getFile(Path);
    if (!Buffer)
      continue;
    if (auto U = readUnit((*Buffer)->getMemBufferRef(), Path)) {
      U->Arg = I;
      U->File = std::move(*Buffer);
      Units.push_back(std::move(*U));
    }
  }

  // The objects, then the archive members that define what the units so
  // far need, until none is added. A derivative made at link time needs
  // the function it differentiates: the object that asks for it refers to
  // the derivative only (`__adcc_xtu....f`), not to f, but the member that
  // defines f must be read for its IR.
  StringSet<> Defined, Needed;
  auto Use = [&](const LinkUnit &U) {
    for (const auto &S : U.Defines)
      Defined.insert(S.getKey());
    for (const auto &S : U.Needs) {
      Needed.insert(S.getKey());
      if (auto R = adcore::parseCrossTUSymbol(S.getKey()))
        Needed.insert(R->Primal);
    }
  };
  for (const LinkUnit &U : Units)
    Use(U);
  for (bool Added = true; Added;) {
    Added = false;
    for (ArchiveInput &A : Archives)
      for (const object::Archive::Symbol &Sym : A.Ar->symbols()) {
        StringRef Name = Sym.getName();
        if (!Needed.contains(Name) || Defined.contains(Name))
          continue;
        if (auto U = readMember(A, Sym)) {
          Use(*U);
          Units.push_back(std::move(*U));
          Added = true;
        }
      }
  }

  LinkInputs In;
  In.InsertAt = Args.size();
  for (const auto &S : Needed)
    if (S.getKey().starts_with(adcore::CrossTUPrefix) &&
        !Defined.contains(S.getKey()))
      In.Missing.push_back(S.getKey().str());
  llvm::sort(In.Missing);
  // The IR is read only when there is a derivative to make.
  if (In.Missing.empty())
    return In;
  std::optional<size_t> LastObject;
  for (LinkUnit &U : Units) {
    std::unique_ptr<MemoryBuffer> IR = readIR(U.Contents, U.Name);
    if (!IR)
      continue;
    In.IR.emplace_back(U.Name, std::move(IR));
    if (U.Member)
      In.InsertAt = std::min(In.InsertAt, U.Arg);
    else
      LastObject = std::max(LastObject.value_or(0), U.Arg);
  }
  if (LastObject)
    In.InsertAt = std::min(In.InsertAt, *LastObject + 1);
  return In;
}

/// Prints the errors of the link-time derivatives as adcc's other errors
/// are printed: `file:line:col: error: ...`.
struct LinkDiagnostics : DiagnosticHandler {
  bool HadError = false;
  bool handleDiagnostics(const DiagnosticInfo &DI) override {
    if (DI.getSeverity() != DS_Error && DI.getSeverity() != DS_Warning)
      return true;
    if (DI.getSeverity() == DS_Error)
      HadError = true;
    const char *Kind = DI.getSeverity() == DS_Error ? "error: " : "warning: ";
    if (auto *U = dyn_cast<DiagnosticInfoUnsupported>(&DI)) {
      if (U->isLocationAvailable())
        errs() << U->getLocationStr() << ": ";
      else
        errs() << "adcc: ";
      errs() << Kind << U->getMessage() << "\n";
      return true;
    }
    errs() << "adcc: " << Kind;
    DiagnosticPrinterRawOStream Printer(errs());
    DI.print(Printer);
    errs() << "\n";
    return true;
  }
};

/// The IR of every object, linked into one module.
std::unique_ptr<Module> linkIR(LinkInputs &In, LLVMContext &C) {
  auto Merged = std::make_unique<Module>("adcc-link-time-derivatives", C);
  Linker L(*Merged);
  // (Linking merges struct types of one layout: MergedStructTypes.h.)
  adcore::StructShapes Shapes;
  for (auto &[Path, Buffer] : In.IR) {
    auto Frames = adcore::embeddedModules(Buffer->getBuffer());
    if (!Frames) {
      errs() << "adcc: error: cannot read the IR that '" << Path
             << "' carries: " << toString(Frames.takeError())
             << "; rebuild it with this version of adcc\n";
      return nullptr;
    }
    std::vector<BitcodeModule> Modules;
    for (const std::string &Frame : *Frames) {
      Expected<std::vector<BitcodeModule>> List =
          getBitcodeModuleList(MemoryBufferRef(Frame, Path));
      if (!List) {
        errs() << "adcc: error: cannot read the IR that '" << Path
               << "' carries: " << toString(List.takeError()) << "\n";
        return nullptr;
      }
      llvm::append_range(Modules, *List);
    }
    for (BitcodeModule &BM : Modules) {
      Expected<std::unique_ptr<Module>> M = BM.parseModule(C);
      if (!M) {
        errs() << "adcc: error: cannot read the IR that '" << Path
               << "' carries: " << toString(M.takeError()) << "\n";
        return nullptr;
      }
      Shapes.note(**M);
      if (L.linkInModule(std::move(*M))) {
        errs() << "adcc: error: cannot link the IR that '" << Path
               << "' carries with that of the other objects\n";
        return nullptr;
      }
    }
  }
  Shapes.widenDeclaredPointees(*Merged);
  return Merged;
}

unsigned optLevelOf(ArrayRef<std::string> Symbols) {
  unsigned Level = 0;
  for (const std::string &S : Symbols)
    if (auto R = adcore::parseCrossTUSymbol(S))
      Level = std::max(Level, R->OptLevel);
  return std::min(Level, 3u);
}

/// The variables of \p M that belong to one file (static) and may change.
/// Not those that nothing in the program stores to or takes the address
/// of (fdlibm's `static volatile double tiny`: every copy holds its
/// initial value), nor those that nothing reads (what the derivative
/// writes into its copy is as unseen as what the program writes into its
/// own), nor adcc's own sinks, which nothing reads (the file's derivatives
/// made when it was compiled may have left one that those made here use
/// too). \p M holds the IR of every file the program links.
std::vector<std::string> fileStatics(const Module &M) {
  std::vector<std::string> Names;
  for (const GlobalVariable &GV : M.globals())
    if (GV.hasLocalLinkage() && !GV.isConstant() && !adcore::isOnlyRead(GV) &&
        !adcore::isOnlyWritten(GV) &&
        !adcore::isScratchVariable(GV.getName()))
      Names.push_back(GV.getName().str());
  return Names;
}

/// Optimizes \p M at \p Level (as the rest of the pipeline after the AD
/// pass would have) and writes it as an object file to \p Path. An error
/// when the result uses one of \p FileStatics.
bool compileToObject(Module &M, unsigned Level, StringRef Path,
                     ArrayRef<std::string> FileStatics) {
  std::string Error;
  const Target *T = TargetRegistry::lookupTarget(M.getTargetTriple(), Error);
  if (!T) {
    errs() << "adcc: error: " << Error << "\n";
    return false;
  }
  const CodeGenOptLevel CGLevels[] = {
      CodeGenOptLevel::None, CodeGenOptLevel::Less, CodeGenOptLevel::Default,
      CodeGenOptLevel::Aggressive};
  std::unique_ptr<TargetMachine> TM(
      T->createTargetMachine(M.getTargetTriple(), "", "", TargetOptions(),
                             Reloc::PIC_, std::nullopt, CGLevels[Level]));
  M.setDataLayout(TM->createDataLayout());

  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassBuilder PB(TM.get());
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  // (Checked before the optimizer runs: seeing no store to a variable in
  // this module, it would take its initial value for a constant.)
  GlobalDCEPass().run(M, MAM);
  // The program's static variables have their own copies here: a
  // derivative that still uses one that is not constant would not see (or
  // change) the program's value.
  bool Shared = true;
  for (const std::string &Name : FileStatics)
    if (GlobalVariable *GV = M.getGlobalVariable(Name, true);
        GV && !GV->use_empty()) {
      errs() << "adcc: error: a derivative made at link time uses '"
             << GV->getName()
             << "', a static variable of the file that defines the function "
                "it differentiates; make the variable non-static (or const), "
                "or request the derivative in that file\n";
      Shared = false;
    }
  if (!Shared)
    return false;
  if (Level > 0) {
    ModulePassManager MPM = PB.buildModuleOptimizationPipeline(
        adcore::crossTULevel(Level), ThinOrFullLTOPhase::None);
    MPM.addPass(GlobalDCEPass());
    MPM.run(M, MAM);
  }

  std::error_code EC;
  ToolOutputFile Out(Path, EC, sys::fs::OF_None);
  if (EC) {
    errs() << "adcc: error: cannot write '" << Path << "': " << EC.message()
           << "\n";
    return false;
  }
  legacy::PassManager PM;
  if (TM->addPassesToEmitFile(PM, Out.os(), nullptr,
                              CodeGenFileType::ObjectFile)) {
    errs() << "adcc: error: cannot emit object code for "
           << M.getTargetTriple().str() << "\n";
    return false;
  }
  PM.run(M);
  Out.keep();
  return true;
}

/// Makes the derivatives \p In misses into a new object file; its path, or
/// none after an error (reported).
std::optional<std::string> makeDerivatives(LinkInputs &In,
                                           const adcore::Options &Opts) {
  LLVMContext C;
  auto Handler = std::make_unique<LinkDiagnostics>();
  LinkDiagnostics *Diags = Handler.get();
  C.setDiagnosticHandler(std::move(Handler));
  std::unique_ptr<Module> M = linkIR(In, C);
  if (!M)
    return std::nullopt;
  std::vector<std::string> FileStatics = fileStatics(*M);
  if (!adcore::defineCrossTU(*M, In.Missing, Opts) || Diags->HadError)
    return std::nullopt;
  StripDebugInfo(*M);
  SmallString<128> Path;
  if (std::error_code EC =
          sys::fs::createTemporaryFile("adcc-derivatives", "o", Path)) {
    errs() << "adcc: error: cannot create a temporary file: " << EC.message()
           << "\n";
    return std::nullopt;
  }
  if (!compileToObject(*M, optLevelOf(In.Missing), Path, FileStatics)) {
    sys::fs::remove(Path);
    return std::nullopt;
  }
  return std::string(Path);
}

} // namespace

int runLinkJob(ArrayRef<const char *> Linker, const adcore::Options &Opts,
               ArrayRef<std::optional<StringRef>> Redirects) {
  if (Linker.empty()) {
    errs() << "adcc: error: -adcc-link-job needs the linker's command line\n";
    return 1;
  }
  SmallVector<StringRef, 256> Args(Linker.begin(), Linker.end());
  // A relocatable link (-r) leaves the derivatives to the link that uses
  // its output, which carries the objects' IR: the functions they need may
  // be defined only there.
  bool Relocatable = any_of(Args, [](StringRef A) {
    return A == "-r" || A == "--relocatable" || A == "-i";
  });
  LinkInputs In = Relocatable ? LinkInputs() : scanInputs(Linker);
  std::optional<std::string> Extra;
  if (!In.Missing.empty()) {
    Extra = makeDerivatives(In, Opts);
    if (!Extra)
      return 1;
    // After the objects that call the derivatives, before the libraries
    // (the archives with the functions, the tape runtime) that the
    // derivatives call.
    size_t At = In.InsertAt;
    for (size_t I = 1; I < Args.size(); ++I)
      if (Args[I].ends_with("/" ADCC_RUNTIME_ARCHIVE) ||
          Args[I].ends_with("/" ADCC_MSAN_RUNTIME_ARCHIVE)) {
        At = std::min(At, I);
        break;
      }
    Args.insert(Args.begin() + At, *Extra);
  }
  std::string ErrMsg;
  int Status =
      sys::ExecuteAndWait(Args[0], Args, std::nullopt, Redirects, 0, 0, &ErrMsg);
  if (Extra)
    sys::fs::remove(*Extra);
  if (Status < 0) {
    errs() << "adcc: error: cannot run the linker '" << Args[0]
           << "': " << ErrMsg << "\n";
    return 1;
  }
  return Status;
}

} // namespace adcc::driver
