//===- driver/LinkJob.h - Linking with link-time derivatives ---*- C++ -*-===//
//
// adcc runs the linker through its link step, so that derivatives of
// functions defined in another file than the one that requests them are
// made before the linker runs (adcore/CrossTU.h).
//
//===----------------------------------------------------------------------===//
#ifndef ADCC_DRIVER_LINKJOB_H
#define ADCC_DRIVER_LINKJOB_H

#include "adcore/Options.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace adcc::driver {

/// Makes the derivatives the objects among \p Linker's arguments call and
/// no object defines, then runs the linker (\p Linker[0]) with its
/// arguments and one more object holding them, its standard streams
/// redirected as \p Redirects says (llvm::sys::ExecuteAndWait). Returns
/// the exit status. The driver runs it in its own process for each host
/// link job.
int runLinkJob(llvm::ArrayRef<const char *> Linker,
               const adcore::Options &Opts,
               llvm::ArrayRef<std::optional<llvm::StringRef>> Redirects = {});

/// The argument that runs a link job as a process of its own: `adcc
/// -adcc-link-job LINKER ARGS...` (what adcc 0.1 ran for each link).
inline constexpr const char *LinkJobArgument = "-adcc-link-job";

} // namespace adcc::driver

#endif // ADCC_DRIVER_LINKJOB_H
