//===- driver/AdccOptions.h - adcc's own command-line options -*- C++ -*-===//
//
// adcc accepts the whole clang command line; its own options all start with
// `-fadcc-` / `-fno-adcc-`. They are separated from the clang arguments,
// parsed with CLI11, and forwarded to each compile job in the same spelling.
//
//===----------------------------------------------------------------------===//
#ifndef ADCC_DRIVER_ADCCOPTIONS_H
#define ADCC_DRIVER_ADCCOPTIONS_H

#include "adcore/Options.h"

#include <string>
#include <vector>

namespace adcc::driver {

struct AdccOptions {
  /// Options for the AD engine, forwarded to every compile job.
  adcore::Options Engine;
  /// Link libadcc_rt.a into programs and shared libraries.
  bool LinkRuntime = true;
  /// Where adcc's headers and runtime are; empty: next to the executable.
  std::string ResourceDir;
};

/// True for an argument that belongs to adcc rather than to clang.
bool isAdccArgument(const char *Arg);

/// Parses adcc's own arguments (those isAdccArgument accepts). On a bad
/// argument returns false and sets \p Error to a message for the user.
bool parseAdccArguments(const std::vector<std::string> &Args, AdccOptions &Opts,
                        std::string &Error);

/// The arguments that reproduce the engine options and the resource
/// directory of \p Opts in a compile job (nothing for the defaults).
std::vector<std::string> compileJobArguments(const AdccOptions &Opts);

/// Help text for adcc's own options.
std::string adccOptionsHelp();

} // namespace adcc::driver

#endif // ADCC_DRIVER_ADCCOPTIONS_H
