//===- CC1.cpp - Compile jobs, run in this process -----------------------===//

#include "driver/CC1.h"
#include "driver/AdccOptions.h"
#include "driver/Paths.h"
#include "frontend/Hooks.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/TextDiagnosticBuffer.h"
#include "clang/FrontendTool/Utils.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/BuryPointer.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/TimeProfiler.h"
#include "llvm/Support/Timer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

using namespace clang;

namespace adcc::driver {
namespace {

/// LLVM's fatal errors inside a compile job (report_fatal_error, reachable
/// from some command lines, such as `-mllvm -stop-after=<unknown pass>`)
/// become adcc errors: exit status 1, no stack dump. The output files
/// registered for removal are removed by the interrupt handlers. The job
/// runs under the driver's crash recovery context, which would print a
/// stack dump as for a crash: it is told not to, and ends the job.
void fatalErrorHandler(void *UserData, const char *Message,
                       bool /*GenCrashDiag*/) {
  auto &Diags = *static_cast<DiagnosticsEngine *>(UserData);
  Diags.Report(Diags.getCustomDiagID(DiagnosticsEngine::Error,
                                     "LLVM stopped the compilation: %0"))
      << llvm::StringRef(Message).rtrim(".");
  Diags.getClient()->finish();
  llvm::sys::RunInterruptHandlers();
  if (auto *Recovery = llvm::CrashRecoveryContext::GetCurrent())
    Recovery->DumpStackAndCleanupOnFailure = false;
  llvm::sys::Process::Exit(1);
}

/// Checks the `-mllvm` options before clang does: clang would print its own
/// name and exit from inside its libraries on an unknown option.
bool checkLLVMOptions(const std::vector<std::string> &LLVMArgs) {
  if (LLVMArgs.empty())
    return true;
  llvm::SmallVector<const char *, 8> Args{"adcc"};
  for (const std::string &Arg : LLVMArgs)
    Args.push_back(Arg.c_str());
  std::string Errors;
  llvm::raw_string_ostream OS(Errors);
  bool OK = llvm::cl::ParseCommandLineOptions(Args.size(), Args.data(),
                                              /*Overview=*/"", &OS);
  // Clang parses them again: start from the defaults.
  llvm::cl::ResetAllOptionOccurrences();
  if (OK)
    return true;
  // "adcc: Unknown command line argument '-x'.  Try: ..." for each error.
  llvm::SmallVector<llvm::StringRef, 4> Lines;
  llvm::StringRef(Errors).split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Line : Lines) {
    if (!Line.consume_front("adcc: ") || Line.starts_with("Did you mean"))
      continue;
    std::string Message = Line.split("  Try:").first.rtrim(" .").str();
    if (!Message.empty())
      Message[0] = llvm::toLower(Message[0]);
    llvm::errs() << "adcc: error: -mllvm: " << Message << "\n";
  }
  return false;
}

/// Writes the time trace of the job to the file the driver named
/// (`-ftime-trace[=PATH]`); false (an error reported) when it cannot be
/// created.
bool writeTimeTrace(CompilerInstance &Clang) {
  const std::string &Path = Clang.getFrontendOpts().TimeTracePath;
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC, llvm::sys::fs::OF_TextWithCRLF);
  if (EC) {
    DiagnosticsEngine &Diags = Clang.getDiagnostics();
    Diags.Report(Diags.getCustomDiagID(DiagnosticsEngine::Error,
                                       "cannot write the time trace '%0': %1"))
        << Path << EC.message();
    return false;
  }
  llvm::timeTraceProfilerWrite(OS);
  return true;
}

/// The path prefix maps of a compile, in the order clang applies them:
/// -fdebug-prefix-map's (-ffile-prefix-map adds to it), the last given
/// first, as clang's debug info applies them; then -fmacro-prefix-map's
/// (longest prefix first), as __FILE__ applies them.
adcore::PathPrefixMap pathPrefixes(const CompilerInstance &Clang) {
  adcore::PathPrefixMap Map;
  for (const auto &Entry : llvm::reverse(Clang.getCodeGenOpts().DebugPrefixMap))
    Map.push_back(Entry);
  for (const auto &Entry : Clang.getLangOpts().MacroPrefixMap)
    Map.push_back(Entry);
  return Map;
}

/// `-cc1as` is implemented by clang's executable, not by its libraries.
int runAssemblerJob(llvm::SmallVectorImpl<const char *> &Argv) {
  llvm::SmallString<256> Clang(llvmToolsDir());
  llvm::sys::path::append(Clang, "clang");
  llvm::SmallVector<llvm::StringRef, 32> Args;
  Args.push_back(Clang);
  for (size_t I = 1; I < Argv.size(); ++I)
    Args.push_back(Argv[I]);
  std::string ErrMsg;
  int Status = llvm::sys::ExecuteAndWait(Clang, Args, /*Env=*/std::nullopt,
                                         /*Redirects=*/{}, 0, 0, &ErrMsg);
  if (Status < 0) {
    llvm::errs() << "adcc: error: unable to run the assembler '" << Clang
                 << "': " << ErrMsg << "\n";
    return 1;
  }
  return Status;
}

} // namespace

int runCompileJob(llvm::SmallVectorImpl<const char *> &Argv,
                  const std::string &ExecutablePath) {
  if (Argv.size() > 1 && llvm::StringRef(Argv[1]) == "-cc1as")
    return runAssemblerJob(Argv);

  // Separate adcc's arguments from the cc1 arguments.
  std::vector<std::string> AdccArgs;
  llvm::SmallVector<const char *, 128> CC1Args;
  for (size_t I = 2; I < Argv.size(); ++I) {
    if (isAdccArgument(Argv[I]))
      AdccArgs.push_back(Argv[I]);
    else
      CC1Args.push_back(Argv[I]);
  }
  AdccOptions Opts;
  std::string Error;
  if (!parseAdccArguments(AdccArgs, Opts, Error)) {
    llvm::errs() << "adcc: error: " << Error << "\n";
    return 1;
  }

  // <adcc.h> is found without -I, after the user's include paths.
  std::string AdccInclude =
      adccResourceDir(ExecutablePath, Opts.ResourceDir) + "/include";
  CC1Args.push_back("-internal-isystem");
  CC1Args.push_back(AdccInclude.c_str());
  CC1Args.push_back("-D__ADCC__=1");

  auto Clang = std::make_unique<CompilerInstance>();
  DiagnosticOptions BufferOpts;
  auto *DiagsBuffer = new TextDiagnosticBuffer;
  DiagnosticsEngine BufferDiags(DiagnosticIDs::create(), BufferOpts,
                                DiagsBuffer);
  bool Success = CompilerInvocation::CreateFromArgs(
      Clang->getInvocation(), CC1Args, BufferDiags, Argv[0]);

  HeaderSearchOptions &HS = Clang->getHeaderSearchOpts();
  if (HS.UseBuiltinIncludes && HS.ResourceDir.empty())
    HS.ResourceDir = clangResourceDir();

  Clang->createVirtualFileSystem(llvm::vfs::getRealFileSystem(), DiagsBuffer);
  Clang->createDiagnostics();
  if (!Clang->hasDiagnostics())
    return 1;
  DiagsBuffer->FlushDiagnostics(Clang->getDiagnostics());
  if (!Success) {
    Clang->getDiagnosticClient().finish();
    return 1;
  }

  if (!checkLLVMOptions(Clang->getFrontendOpts().LLVMArgs))
    return 1;
  // A previous job that ended in a fatal error left its handler installed.
  llvm::remove_fatal_error_handler();
  llvm::install_fatal_error_handler(fatalErrorHandler,
                                    &Clang->getDiagnostics());
  // Object files carry their IR, for the derivatives made at link time of
  // functions they define (adcore/CrossTU.h).
  const llvm::Triple Target(Clang->getTargetOpts().Triple);
  Opts.Engine.EmbedIR =
      Opts.Engine.CrossTU && Target.getArch() == llvm::Triple::x86_64 &&
      Target.isOSBinFormatELF() &&
      Clang->getFrontendOpts().ProgramAction == clang::frontend::EmitObj;
  // (The same object in any directory: the maps apply to the IR too.)
  Opts.Engine.PathPrefixes = pathPrefixes(*Clang);
  frontend::installHooks(*Clang, Opts.Engine);
  // -ftime-report: the frontend and the passes time themselves in the
  // compiler instance's timer group (clang's cc1 creates it the same way).
  bool TimePasses = Clang->getCodeGenOpts().TimePasses;
  if (TimePasses)
    Clang->createFrontendTimer();
  // -ftime-trace: the driver names the JSON file; clang's own scopes, the
  // passes (the AD pass's phases and the passes it runs on derivatives
  // included) record into it.
  const FrontendOptions &FE = Clang->getFrontendOpts();
  if (!FE.TimeTracePath.empty())
    llvm::timeTraceProfilerInitialize(FE.TimeTraceGranularity, Argv[0],
                                      FE.TimeTraceVerbose);
  {
    llvm::TimeRegion Timer(TimePasses ? &Clang->getFrontendTimer() : nullptr);
    llvm::TimeTraceScope Scope("ExecuteCompiler");
    Success = ExecuteCompilerInvocation(Clang.get());
  }
  llvm::remove_fatal_error_handler();
  if (llvm::timeTraceProfilerEnabled()) {
    Success &= writeTimeTrace(*Clang);
    llvm::timeTraceProfilerCleanup();
  }
  // (The passes' reports are printed as their managers finish; the
  // frontend's group lives in the compiler instance, kept alive below.)
  if (TimePasses)
    Clang->getTimerGroup().print(llvm::errs());

  // As clang does: with -disable-free (the driver's default) the compiler
  // instance is not torn down, which saves time at exit.
  if (Clang->getFrontendOpts().DisableFree) {
    llvm::BuryPointer(std::move(Clang));
    return !Success;
  }
  return !Success;
}

} // namespace adcc::driver
