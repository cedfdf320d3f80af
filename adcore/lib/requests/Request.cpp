//===- Request.cpp - One derivative request ------------------------------===//

#include "adcore/Request.h"

#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace adcore {

void print(raw_ostream &OS, const Request &R) {
  OS << describe(R.Kind) << " of '"
     << (R.Primal ? R.Primal->getName() : StringRef("<unknown>")) << "' (width "
     << R.Width << ")";
  if (!R.Site)
    return;
  OS << " requested in '" << R.Site->getFunction()->getName() << "'";
  if (const DebugLoc &Loc = R.Site->getDebugLoc())
    OS << " at " << Loc->getFilename() << ":" << Loc.getLine() << ":"
       << Loc.getCol();
}

} // namespace adcore
