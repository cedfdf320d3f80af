//===- driver/Interception.h - Compiles that build watchers see -*- C++ -*-===//
//
// Tools that write compile_commands.json by watching a build (Bear,
// intercept-build) record every program the build executes and keep those
// whose file name looks like a compiler's (cc, gcc, clang, clang++-22, ...).
// "adcc" is not such a name, so under such a tool adcc runs itself again
// under a name that is: adcc-clang (adcc-clang++ for adcc++), links to adcc
// installed beside it.
//
//===----------------------------------------------------------------------===//
#ifndef ADCC_DRIVER_INTERCEPTION_H
#define ADCC_DRIVER_INTERCEPTION_H

#include "llvm/ADT/ArrayRef.h"

#include <string>

namespace adcc::driver {

/// When a build watcher is present (its environment variable is set) and
/// \p Args[0] does not already name a compiler it recognizes, replaces this
/// process with the link beside \p ExePath that does (adcc-clang or
/// adcc-clang++), with the same arguments and environment. Returns, without
/// doing anything, when no watcher is present, the name is recognized
/// already, or the link is missing or cannot be executed.
void runAsRecognizedCompiler(llvm::ArrayRef<const char *> Args,
                             const std::string &ExePath);

} // namespace adcc::driver

#endif // ADCC_DRIVER_INTERCEPTION_H
