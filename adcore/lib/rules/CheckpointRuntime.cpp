//===- CheckpointRuntime.cpp - The calls of checkpointed loops -----------===//

#include "rules/CheckpointRuntime.h"

#include "llvm/ADT/Twine.h"
#include "llvm/IR/Function.h"

using namespace llvm;

namespace adcore {

std::string nestedCheckpointMessage(const Function &Callee) {
  StringRef Name = Callee.getName();
  for (const CheckpointRow &Row : CheckpointRows)
    if (Name == Row.Tangent || Name == Row.Record || Name == Row.Reverse ||
        (Row.RecordTangent && Name == Row.RecordTangent) ||
        (Row.ReverseTangent && Name == Row.ReverseTangent))
      return (Twine("a derivative of the derivative of ") + Row.Name +
              (Row.RecordTangent
                   ? " other than forward mode over its gradient (reverse "
                     "mode over a gradient or tangent through the loop, "
                     "forward mode over a tangent, a third derivative)"
                   : " (forward or reverse mode over a gradient or tangent "
                     "through the loop)") +
              " is not supported yet; differentiate the loop written "
              "without it")
          .str();
  return "";
}

} // namespace adcore
