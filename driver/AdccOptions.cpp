//===- AdccOptions.cpp - adcc's own command-line options -----------------===//
//
// Each option is one row of a table; CLI11 does the parsing. CLI11 only knows
// long options spelled `--name`, so `-fadcc-x` is handed to it as `--fadcc-x`
// and messages are translated back.
//
//===----------------------------------------------------------------------===//

#include "driver/AdccOptions.h"

#include <CLI/CLI.hpp>

#include <cstring>
#include <sstream>

namespace adcc::driver {
namespace {

/// A boolean option: `-f<Name>` turns it on, `-fno-<Name>` off.
struct FlagRow {
  const char *Name;
  const char *Help;
  bool &(*Field)(AdccOptions &);
  /// Forwarded to compile jobs (engine options) or used by the driver only.
  bool ForCompileJobs;
};

/// An option with a value: `-f<Name>=<value>`.
struct ValueRow {
  const char *Name;
  const char *Meta;
  const char *Help;
  std::string &(*Field)(AdccOptions &);
};

const FlagRow FlagTable[] = {
    {"adcc-pass",
     "synthesize the requested derivatives (off: leave AD requests in the IR "
     "untouched)",
     [](AdccOptions &O) -> bool & { return O.Engine.EnableAD; }, true},
    {"adcc-print-requests",
     "print each derivative request found in a translation unit to stderr",
     [](AdccOptions &O) -> bool & { return O.Engine.PrintRequests; }, true},
    {"adcc-print-tape-plan",
     "print what each reverse-mode derivative records on the tape",
     [](AdccOptions &O) -> bool & { return O.Engine.PrintTapePlan; }, true},
    {"adcc-cross-tu",
     "derivatives of functions defined in other files are made when adcc "
     "links the program; object files carry their IR for that",
     [](AdccOptions &O) -> bool & { return O.Engine.CrossTU; }, true},
    {"adcc-runtime",
     "link the adcc tape runtime (libadcc_rt.a) into programs and shared "
     "libraries",
     [](AdccOptions &O) -> bool & { return O.LinkRuntime; }, false},
};

const ValueRow ValueTable[] = {
    {"adcc-resource-dir", "<dir>",
     "directory holding adcc's headers (include/) and runtime (lib/); default: "
     "<adcc executable>/../lib/adcc",
     [](AdccOptions &O) -> std::string & { return O.ResourceDir; }},
};

std::string cli11Spelling(const std::string &Arg) { return "-" + Arg; }

std::string userSpelling(std::string Text) {
  // Undo cli11Spelling in CLI11's messages.
  for (const char *Prefix : {"--fadcc-", "--fno-adcc-"}) {
    std::string::size_type Pos;
    while ((Pos = Text.find(Prefix)) != std::string::npos)
      Text.erase(Pos, 1);
  }
  return Text;
}

bool defaultOf(const FlagRow &Row) {
  AdccOptions Defaults;
  return Row.Field(Defaults);
}

} // namespace

bool isAdccArgument(const char *Arg) {
  return std::strncmp(Arg, "-fadcc-", 7) == 0 ||
         std::strncmp(Arg, "-fno-adcc-", 10) == 0;
}

bool parseAdccArguments(const std::vector<std::string> &Args, AdccOptions &Opts,
                        std::string &Error) {
  CLI::App App("adcc options", "adcc");
  App.set_help_flag();
  for (const FlagRow &Row : FlagTable) {
    std::string Names = std::string("--f") + Row.Name + ",!--fno-" + Row.Name;
    App.add_flag(Names, Row.Field(Opts), Row.Help);
  }
  for (const ValueRow &Row : ValueTable)
    App.add_option(std::string("--f") + Row.Name, Row.Field(Opts), Row.Help);

  std::vector<std::string> Spelled;
  Spelled.push_back("adcc");
  for (const std::string &A : Args)
    Spelled.push_back(cli11Spelling(A));
  std::vector<const char *> Argv;
  for (const std::string &A : Spelled)
    Argv.push_back(A.c_str());

  try {
    App.parse(static_cast<int>(Argv.size()), Argv.data());
  } catch (const CLI::ExtrasError &) {
    std::string Unknown;
    for (const std::string &A : App.remaining()) {
      Unknown += Unknown.empty() ? "'" : ", '";
      Unknown += userSpelling(A) + "'";
    }
    Error = "unknown adcc option " + Unknown + " (see 'adcc --help')";
    return false;
  } catch (const CLI::ParseError &E) {
    Error = userSpelling(E.what());
    return false;
  }
  return true;
}

std::vector<std::string> compileJobArguments(const AdccOptions &Opts) {
  std::vector<std::string> Out;
  AdccOptions Copy = Opts;
  for (const FlagRow &Row : FlagTable) {
    bool Value = Row.Field(Copy);
    if (!Row.ForCompileJobs || Value == defaultOf(Row))
      continue;
    Out.push_back(std::string(Value ? "-f" : "-fno-") + Row.Name);
  }
  for (const ValueRow &Row : ValueTable) {
    const std::string &Value = Row.Field(Copy);
    if (!Value.empty())
      Out.push_back(std::string("-f") + Row.Name + "=" + Value);
  }
  return Out;
}

std::string adccOptionsHelp() {
  std::ostringstream OS;
  auto Line = [&OS](const std::string &Spelling, const std::string &Help) {
    OS << "  " << Spelling;
    if (Spelling.size() < 30)
      OS << std::string(30 - Spelling.size(), ' ');
    else
      OS << "\n" << std::string(32, ' ');
    OS << Help << "\n";
  };
  for (const FlagRow &Row : FlagTable) {
    bool On = defaultOf(Row);
    Line(std::string("-f") + Row.Name,
         std::string(Row.Help) + (On ? " (default)" : ""));
    Line(std::string("-fno-") + Row.Name,
         std::string("the opposite") + (On ? "" : " (default)"));
  }
  for (const ValueRow &Row : ValueTable)
    Line(std::string("-f") + Row.Name + "=" + Row.Meta, Row.Help);
  return OS.str();
}

} // namespace adcc::driver
