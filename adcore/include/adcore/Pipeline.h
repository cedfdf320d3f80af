//===- adcore/Pipeline.h - Where adcore joins the pipeline ----*- C++ -*-===//
#ifndef ADCORE_PIPELINE_H
#define ADCORE_PIPELINE_H

#include "adcore/Options.h"

namespace llvm {
class PassBuilder;
} // namespace llvm

namespace adcore {

/// Registers adcore with \p PB:
///  - ADPass at the optimizer-early extension point (after inlining and
///    early simplification, before vectorization), at every -O level;
///  - the textual pipeline names `adcc`, `adcc-print-requests` and the
///    analysis printers (`adcc-print-activity`), for adcc-opt and IR tests.
void registerPassBuilderCallbacks(llvm::PassBuilder &PB, const Options &Opts);

} // namespace adcore

#endif // ADCORE_PIPELINE_H
