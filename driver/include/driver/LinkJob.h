//===- driver/LinkJob.h - Linking with link-time derivatives ---*- C++ -*-===//
//
// adcc runs the linker through itself, so that derivatives of functions
// defined in another file than the one that requests them are made before
// the linker runs (adcore/CrossTU.h).
//
//===----------------------------------------------------------------------===//
#ifndef ADCC_DRIVER_LINKJOB_H
#define ADCC_DRIVER_LINKJOB_H

#include "adcore/Options.h"

#include "llvm/ADT/ArrayRef.h"

namespace adcc::driver {

/// The argument that makes adcc a link job: `adcc -adcc-link-job LINKER
/// ARGS...` makes the derivatives the objects among ARGS call and no
/// object defines, then runs LINKER with ARGS and one more object holding
/// them. Returns the exit status.
inline constexpr const char *LinkJobArgument = "-adcc-link-job";
int runLinkJob(llvm::ArrayRef<const char *> Linker,
               const adcore::Options &Opts);

} // namespace adcc::driver

#endif // ADCC_DRIVER_LINKJOB_H
