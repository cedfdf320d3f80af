//===- Interception.cpp - Compiles that build watchers see ---------------===//
//
// Bear 3 (LD_PRELOAD of its libexec.so) and intercept-build (libear.so)
// record each execution of the build with its program path and arguments.
// Afterwards they keep the executions of recognized compilers: both accept
// file names that match ^([^-]*-)*clang(\+\+)?(-?\d+(\.\d+){0,2})?$, which
// adcc-clang and adcc-clang++ do and adcc does not. adcc compiles in its own
// process, so there is no other execution to record: it runs itself again
// under the recognized name. This costs one more exec per adcc command, only
// under these tools.
//
//===----------------------------------------------------------------------===//

#include "driver/Interception.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdlib>
#include <unistd.h>

namespace adcc::driver {
namespace {

/// Build watchers, by the environment variable they set for the build.
struct Watcher {
  const char *EnvVar;
  const char *Tool;
};
constexpr Watcher Watchers[] = {
    {"INTERCEPT_REPORT_DESTINATION", "Bear 3"},
    {"INTERCEPT_BUILD_TARGET_DIR", "intercept-build, Bear 2"},
};

bool watched() {
  for (const Watcher &W : Watchers)
    if (const char *V = std::getenv(W.EnvVar); V && *V)
      return true;
  return false;
}

/// The names of the links, by the mode the program name selects.
constexpr const char *RecognizedCName = "adcc-clang";
constexpr const char *RecognizedCXXName = "adcc-clang++";

} // namespace

void runAsRecognizedCompiler(llvm::ArrayRef<const char *> Args,
                             const std::string &ExePath) {
  if (Args.empty() || !watched())
    return;
  llvm::StringRef Name = llvm::sys::path::filename(Args[0]);
  // Run as adcc-clang already, or under another name that looks like clang.
  if (Name.contains("clang"))
    return;
  llvm::SmallString<256> Link(llvm::sys::path::parent_path(ExePath));
  llvm::sys::path::append(Link, Name.ends_with("++") ? RecognizedCXXName
                                                     : RecognizedCName);
  if (!llvm::sys::fs::can_execute(Link))
    return;
  // The watchers take the program from the exec call and, for
  // intercept-build, from argv[0]: both name the link.
  llvm::SmallVector<const char *, 256> Argv(Args.begin(), Args.end());
  Argv[0] = Link.c_str();
  Argv.push_back(nullptr);
  ::execv(Link.c_str(), const_cast<char *const *>(Argv.data()));
  // execv failed: compile in this process, unseen by the watcher.
}

} // namespace adcc::driver
