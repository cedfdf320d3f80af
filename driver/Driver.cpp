//===- Driver.cpp - The adcc command -------------------------------------===//
//
// adcc is clang's command line with an AD engine inside. This file does what
// clang's own main does — response files, driver mode from the program name,
// diagnostics, building and executing the compilation — and adds adcc's part:
// its own options, compile jobs run in-process with adcc's hooks, and the
// tape runtime on link lines.
//
//===----------------------------------------------------------------------===//

#include "driver/Driver.h"
#include "driver/AdccOptions.h"
#include "driver/CC1.h"
#include "driver/Config.h"
#include "driver/Interception.h"
#include "driver/LinkJob.h"
#include "driver/Paths.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/Version.h"
#include "clang/Driver/Compilation.h"
#include "clang/Driver/Driver.h"
#include "clang/Driver/InputInfo.h"
#include "clang/Driver/Job.h"
#include "clang/Driver/SanitizerArgs.h"
#include "clang/Driver/Tool.h"
#include "clang/Driver/ToolChain.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/PrettyStackTrace.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"

#include <memory>

using namespace clang;
using namespace clang::driver;
using llvm::StringRef;

namespace adcc::driver {
namespace {

const char BugReportMessage[] =
    "PLEASE submit a bug report to the adcc issue tracker and include the "
    "crash backtrace, the preprocessed source (-E) and the command line.\n";

/// What adcc itself answers, before Clang's driver sees the command line.
enum class Query { None, Help, HelpClang, Version };

struct CommandLine {
  llvm::SmallVector<const char *, 256> ClangArgs;
  std::vector<std::string> AdccArgs;
  Query Ask = Query::None;
};

CommandLine splitCommandLine(llvm::ArrayRef<const char *> Args) {
  CommandLine Out;
  Out.ClangArgs.push_back(Args[0]);
  for (const char *Arg : Args.drop_front()) {
    StringRef A(Arg);
    if (isAdccArgument(Arg))
      Out.AdccArgs.push_back(Arg);
    else if (A == "--help" || A == "-help")
      Out.Ask = Query::Help;
    else if (A == "--help-clang")
      Out.Ask = Query::HelpClang;
    else if (A == "--version")
      Out.Ask = Query::Version;
    else
      Out.ClangArgs.push_back(Arg);
  }
  return Out;
}

/// The first line of --version. Build systems read a compiler's version as
/// the first version number there (Meson, scripts that parse "clang version
/// X"), and adcc predefines clang's macros; so the line names the clang
/// version first, as vendor builds of clang do ("Debian clang version ...",
/// "Apple clang version ..."), and adcc's own version after it.
void printVersion(llvm::raw_ostream &OS, const std::string &ExePath) {
  OS << "adcc clang version " << CLANG_VERSION_STRING << " (adcc version "
     << ADCC_VERSION_STRING << ")\n"
     << "Target: " << llvm::sys::getDefaultTargetTriple() << "\n"
     << "Thread model: posix\n"
     << "InstalledDir: " << llvm::sys::path::parent_path(ExePath) << "\n";
}

void printHelp(llvm::raw_ostream &OS, StringRef ProgName) {
  OS << "OVERVIEW: adcc " << ADCC_VERSION_STRING
     << " - a C/C++ compiler that differentiates (Clang/LLVM "
     << ADCC_LLVM_VERSION_STRING << ")\n\n"
     << "USAGE: " << ProgName << " [options] file...\n\n"
     << ProgName
     << " accepts the clang command line (-c -o -E -S -emit-llvm "
        "-x -std= -I -D -U -O0..3 -g ...);\n"
     << "run '" << ProgName << " --help-clang' for clang's options.\n\n"
     << "ADCC OPTIONS:\n"
     << adccOptionsHelp() << "\nOTHER:\n"
     << "  --help                        this text\n"
     << "  --help-clang                  clang's options\n"
     << "  --version                     adcc's and LLVM's versions\n\n"
     << "Documentation: docs/driver.md in the adcc sources.\n";
}

/// True when the program name asks for C++ (adcc++), as clang++ does.
bool isCXXProgramName(StringRef ProgName) { return ProgName.ends_with("++"); }

bool hasArg(llvm::ArrayRef<const char *> Args,
            std::initializer_list<StringRef> Names) {
  for (const char *A : Args)
    for (StringRef N : Names)
      if (StringRef(A) == N)
        return true;
  return false;
}

/// The argument index after the last of the link job's inputs, where the
/// runtime archive goes: after the user's objects and libraries, before the
/// default libraries that it may itself need.
size_t runtimeInsertionPoint(const Command &Link) {
  llvm::StringSet<> Inputs;
  for (const InputInfo &II : Link.getInputInfos()) {
    if (II.isFilename())
      Inputs.insert(II.getFilename());
    else if (II.isInputArg())
      for (const char *V : II.getInputArg().getValues()) {
        Inputs.insert(V);
        Inputs.insert((llvm::Twine("-l") + V).str());
      }
  }
  const llvm::opt::ArgStringList &Args = Link.getArguments();
  size_t Point = Args.size();
  for (size_t I = 0; I < Args.size(); ++I)
    if (Inputs.contains(Args[I]))
      Point = I + 1;
  return Point;
}

/// A host link job: adcc's link step (runLinkJob, in this process) first
/// makes the derivatives that the objects request of functions defined in
/// other files, then runs the linker. It prints as the linker's own command
/// (-v, -###): build systems read that line (CMake takes the implicit link
/// directories and libraries from it).
class AdccLinkCommand : public Command {
public:
  explicit AdccLinkCommand(const Command &Link) : Command(Link) {}

  int Execute(llvm::ArrayRef<std::optional<StringRef>> Redirects,
              std::string * /*ErrMsg*/,
              bool * /*ExecutionFailed*/) const override {
    llvm::SmallVector<const char *, 128> Argv = {getExecutable()};
    llvm::append_range(Argv, getArguments());
    // (Its errors are reported as it finds them: a failed link is status 1
    // for the driver, as a linker's.)
    return runLinkJob(Argv, adcore::Options(), Redirects);
  }
};

/// The tape runtime a link job of \p TC links: the one instrumented by
/// MemorySanitizer where clang's driver links MemorySanitizer's runtime
/// (every value the plain runtime writes to the tape would be
/// uninitialized to it), if it was built (runtime/MsanRuntime.cmake).
std::string runtimeArchive(const ToolChain &TC, const llvm::opt::ArgList &Args,
                           const std::string &ResourceDir) {
  std::string Plain = ResourceDir + "/lib/" + ADCC_RUNTIME_ARCHIVE;
  if (!TC.getSanitizerArgs(Args).needsMsanRt())
    return Plain;
  std::string Msan = ResourceDir + "/lib/" + ADCC_MSAN_RUNTIME_ARCHIVE;
  return llvm::sys::fs::exists(Msan) ? Msan : Plain;
}

/// Adds adcc's arguments to compile jobs, and the runtime to host link jobs.
void adjustJobs(Compilation &C, const AdccOptions &Opts,
                llvm::ArrayRef<const char *> ClangArgs,
                const std::string &ResourceDir) {
  std::vector<std::string> JobArgs = compileJobArguments(Opts);
  bool WantRuntime =
      Opts.LinkRuntime &&
      !hasArg(ClangArgs, {"-nostdlib", "-nodefaultlibs", "-r",
                          "--no-standard-libraries", "-fno-adcc-runtime"});
  bool LinkThroughAdcc = Opts.Engine.EnableAD && Opts.Engine.CrossTU;

  // (The list owns its jobs; a link job is replaced by one run through
  // adcc.)
  auto &Jobs = const_cast<JobList::list_type &>(C.getJobs().getJobs());
  for (std::unique_ptr<Command> &Owned : Jobs) {
    Command &Job = *Owned;
    llvm::opt::ArgStringList Args = Job.getArguments();
    if (!Args.empty() && StringRef(Args[0]) == "-cc1" && !JobArgs.empty()) {
      for (const std::string &A : JobArgs)
        Args.push_back(C.getArgs().MakeArgString(A));
      Job.replaceArguments(Args);
      continue;
    }
    const Tool &Creator = Job.getCreator();
    if (!Creator.isLinkJob() ||
        Creator.getToolChain().getTriple().getArch() != llvm::Triple::x86_64)
      continue;
    if (WantRuntime)
      Args.insert(Args.begin() + runtimeInsertionPoint(Job),
                  C.getArgs().MakeArgString(runtimeArchive(
                      Creator.getToolChain(), C.getArgs(), ResourceDir)));
    Job.replaceArguments(Args);
    if (LinkThroughAdcc)
      Owned = std::make_unique<AdccLinkCommand>(Job);
  }
}

/// Inputs Clang would pass on to the linker unchecked: a directory is a user
/// error here, not a linker's puzzle.
bool checkInputs(const Compilation &C, DiagnosticsEngine &Diags) {
  bool OK = true;
  for (const llvm::opt::Arg *A : C.getArgs()) {
    if (A->getOption().getKind() != llvm::opt::Option::InputClass)
      continue;
    if (!llvm::sys::fs::is_directory(A->getValue()))
      continue;
    Diags.Report(Diags.getCustomDiagID(DiagnosticsEngine::Error,
                                       "'%0' is a directory, not an input "
                                       "file"))
        << A->getValue();
    OK = false;
  }
  return OK;
}

int runDriver(CommandLine &CL, const AdccOptions &Opts,
              const std::string &ExePath) {
  StringRef ProgName = llvm::sys::path::filename(CL.ClangArgs[0]);
  llvm::SmallVector<const char *, 256> &Args = CL.ClangArgs;
  if (isCXXProgramName(ProgName) && !llvm::any_of(Args, [](const char *A) {
        return StringRef(A).starts_with("--driver-mode=");
      }))
    Args.insert(Args.begin() + 1, "--driver-mode=g++");
  if (CL.Ask == Query::HelpClang)
    Args.push_back("--help");

  std::unique_ptr<DiagnosticOptions> DiagOpts = CreateAndPopulateDiagOpts(Args);
  auto *DiagClient = new TextDiagnosticPrinter(llvm::errs(), *DiagOpts);
  DiagClient->setPrefix(std::string(ProgName));
  DiagnosticsEngine Diags(DiagnosticIDs::create(), *DiagOpts, DiagClient);
  ProcessWarningOptions(Diags, *DiagOpts, *llvm::vfs::getRealFileSystem(),
                        /*ReportDiags=*/false);

  Driver TheDriver(ExePath, llvm::sys::getDefaultTargetTriple(), Diags,
                   "adcc - a C/C++ compiler that differentiates");
  TheDriver.ResourceDir = clangResourceDir();
  // Tools of LLVM 22 (lld, clang-linker-wrapper, ...) are looked up here.
  TheDriver.Dir = llvmToolsDir();
  auto RunJob = [&ExePath](llvm::SmallVectorImpl<const char *> &Argv) {
    return runCompileJob(Argv, ExePath);
  };
  TheDriver.CC1Main = RunJob;
  // A crash inside an in-process compile job is caught and reported.
  llvm::CrashRecoveryContext::Enable();

  std::unique_ptr<Compilation> C(TheDriver.BuildCompilation(Args));
  if (!C || C->containsError() || !checkInputs(*C, Diags)) {
    DiagClient->finish();
    return 1;
  }
  adjustJobs(*C, Opts, Args, adccResourceDir(ExePath, Opts.ResourceDir));

  llvm::SmallVector<std::pair<int, const Command *>, 4> Failing;
  int Res = TheDriver.ExecuteCompilation(*C, Failing);
  for (const auto &[Status, Cmd] : Failing) {
    // A negative status is a crash (signal) of a job.
    if (Status < 0)
      llvm::errs() << ProgName << ": error: internal compiler error in '"
                   << Cmd->getExecutable() << "'\n"
                   << BugReportMessage;
  }
  DiagClient->finish();
  if (Res != 0 || !Failing.empty() || Diags.hasErrorOccurred())
    return 1;
  return 0;
}

} // namespace

int run(int Argc, const char **Argv, void *MainAddr) {
  llvm::InitLLVM X(Argc, Argv);
  llvm::setBugReportMsg(BugReportMessage);
  llvm::InitializeAllTargetInfos();
  llvm::InitializeAllTargets();
  llvm::InitializeAllTargetMCs();
  llvm::InitializeAllAsmPrinters();
  llvm::InitializeAllAsmParsers();

  std::string ExePath = executablePath(Argv[0], MainAddr);
  llvm::SmallVector<const char *, 256> Args(Argv, Argv + Argc);

  // A compile job started as a process (-fno-integrated-cc1).
  if (Args.size() > 1 && StringRef(Args[1]).starts_with("-cc1"))
    return runCompileJob(Args, ExePath);
  // Under a build watcher (Bear), run as a name it recognizes; adcc's own
  // link job is not a compile.
  if (Args.size() < 2 || StringRef(Args[1]) != LinkJobArgument)
    runAsRecognizedCompiler(Args, ExePath);

  llvm::BumpPtrAllocator Alloc;
  if (llvm::Error E = expandResponseFiles(Args, /*ClangCLMode=*/false, Alloc)) {
    llvm::errs() << llvm::sys::path::filename(Argv[0])
                 << ": error: " << llvm::toString(std::move(E)) << "\n";
    return 1;
  }

  // The link step of a compilation (see LinkJob.h).
  if (Args.size() > 1 && StringRef(Args[1]) == LinkJobArgument)
    return runLinkJob(llvm::ArrayRef(Args).drop_front(2), adcore::Options());

  CommandLine CL = splitCommandLine(Args);
  StringRef ProgName = llvm::sys::path::filename(Argv[0]);
  AdccOptions Opts;
  std::string Error;
  if (!parseAdccArguments(CL.AdccArgs, Opts, Error)) {
    llvm::errs() << ProgName << ": error: " << Error << "\n";
    return 1;
  }
  if (CL.Ask == Query::Help) {
    printHelp(llvm::outs(), ProgName);
    return 0;
  }
  if (CL.Ask == Query::Version) {
    printVersion(llvm::outs(), ExePath);
    return 0;
  }
  if (hasArg(CL.ClangArgs, {"-v"}))
    llvm::errs() << "adcc version " << ADCC_VERSION_STRING << "\n";
  return runDriver(CL, Opts, ExePath);
}

} // namespace adcc::driver
