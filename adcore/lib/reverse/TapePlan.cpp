//===- TapePlan.cpp - What a reverse-mode derivative records -------------===//
//
// The tape plan of a derivative: the values its augmented sweep records
// (per call and per loop iteration), its control-flow records and its
// shadow stack. Reported as an optimization remark (-Rpass=adcc) and, with
// -fadcc-print-tape-plan, listed value by value.
//
//===----------------------------------------------------------------------===//

#include "ReverseEmitter.h"
#include "TapeRecords.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace adcore {

void ReverseEmitter::reportTapePlan() {
  // (The loops of the augmented sweep's final control flow, from the
  // planning of counted loops.)
  LoopInfo &LI = *AugLoops;
  const DataLayout &DL = Aug.getParent()->getDataLayout();
  auto RecordBytes = [&](Type *T) { return recordBytes(DL, T); };
  TapePlan Plan;
  // The listing is written only when asked for: printing an operand
  // numbers the whole module's values and metadata, each time.
  std::string Listing;
  raw_string_ostream OS(Listing);
  bool List = Ctx.printTapePlans();
  auto Operand = [&](const Value *V, bool PrintType) {
    if (List)
      V->printAsOperand(OS, PrintType);
  };
  DenseSet<std::pair<unsigned, uint64_t>> SharedSlots;
  DenseSet<std::pair<BasicBlock *, uint64_t>> ArraySlots;
  for (BasicBlock &BB : Aug) {
    bool InLoop = LI.getLoopFor(&BB) != nullptr;
    uint64_t &Bytes = InLoop ? Plan.LoopBytes : Plan.CallBytes;
    const char *Each = InLoop ? " (each loop iteration)" : "";
    SmallSetVector<BasicBlock *, 4> Distinct(pred_begin(&BB), pred_end(&BB));
    if (auto It = PathConditions.find(&BB); It != PathConditions.end()) {
      OS << "  recompute the condition that decides the predecessor of block ";
      Operand(&BB, /*PrintType=*/false);
      OS << Each << "\n";
    } else if (Distinct.size() > 1 && !CountedLoops.count(&BB)) {
      Bytes += 8;
      ++Plan.PathRecords;
      OS << "  record the predecessor of block ";
      Operand(&BB, /*PrintType=*/false);
      OS << Each << "\n";
    }
    // (Exit records kept in the row of the loop around the exit block:
    // ExitArrays.cpp.)
    auto InExitArray = [&] {
      if (auto EA = ExitArrays.find(&BB); EA != ExitArrays.end()) {
        OS << "    (in the array sized by the trip count of the loop at "
              "block ";
        Operand(EA->second.Header, /*PrintType=*/false);
        OS << ")\n";
      }
    };
    if (auto It = ExitCounts.find(&BB); It != ExitCounts.end())
      for (BasicBlock *H : It->second) {
        if (!recordsTripCount(H))
          continue;
        Bytes += 8;
        ++Plan.LoopCounts;
        OS << "  record the trip count of the loop at block ";
        Operand(H, /*PrintType=*/false);
        OS << " on its exit to block ";
        Operand(BB.getSingleSuccessor(), /*PrintType=*/false);
        OS << Each << "\n";
        InExitArray();
      }
    for (BasicBlock *H : TripsAt.lookup(&BB)) {
      OS << "  read the trip count of the loop at block ";
      Operand(H, /*PrintType=*/false);
      OS << " from the one recorded once per run of the loop at block ";
      Operand(InvariantTrips.lookup(H).first, /*PrintType=*/false);
      OS << Each << "\n";
    }
    for (BasicBlock *H : RebuiltTripsAt.lookup(&BB)) {
      OS << "  recompute the trip count of the loop at block ";
      Operand(H, /*PrintType=*/false);
      OS << " on its exit to block ";
      Operand(BB.getSingleSuccessor(), /*PrintType=*/false);
      OS << Each << "\n";
    }
    for (auto [H, V] : ExitValues.lookup(&BB)) {
      // (In a loop's row, a record takes its own size: LoopArrays.cpp.)
      Bytes += ExitArrays.count(&BB)
                   ? DL.getTypeAllocSize(recordType(V->getType()))
                   : RecordBytes(V->getType());
      ++Plan.ValueRecords;
      OS << "  record ";
      Operand(V, /*PrintType=*/true);
      OS << " once per run of the loop at block ";
      Operand(H, /*PrintType=*/false);
      OS << ", at its exit" << Each << "\n";
      InExitArray();
    }
    if (auto It = ExitCounts.find(&BB); It != ExitCounts.end())
      for (BasicBlock *H : It->second)
        if (auto R = EntryReloads.find(H); R != EntryReloads.end())
          for (Value *V : R->second) {
            OS << "  read ";
            Operand(V, /*PrintType=*/true);
            OS << " again once per run of the loop at block ";
            Operand(H, /*PrintType=*/false);
            OS << ", as the reverse sweep enters it" << Each << "\n";
          }
    if (auto It = ExitCounts.find(&BB); It != ExitCounts.end())
      for (BasicBlock *H : It->second)
        for (const ReusedRecord &U : ReusedRecords.lookup(H)) {
          OS << "  read ";
          Operand(U.V, /*PrintType=*/true);
          OS << " once per run of the loop at block ";
          Operand(H, /*PrintType=*/false);
          OS << " from the record of ";
          Operand(U.From.V, /*PrintType=*/false);
          OS << " in the array of the loop at block ";
          Operand(U.From.Header, /*PrintType=*/false);
          OS << " (row: the iteration of the loop at block ";
          Operand(U.RowLoop, /*PrintType=*/false);
          OS << ")" << Each << "\n";
        }
    for (Instruction &I : BB) {
      auto Print = [&](const char *What, Value *V) {
        OS << "  " << What << " ";
        Operand(V, /*PrintType=*/true);
        OS << " for '" << I.getOpcodeName() << "'" << Each << "\n";
      };
      // (A value several instructions record shares one slot.)
      for (Value *V : Recorded.lookup(&I)) {
        auto G = GroupOf.find({&I, V});
        if (G != GroupOf.end() && !SharedSlots.insert(G->second).second) {
          Print("share the record of", V);
          continue;
        }
        Bytes += RecordBytes(V->getType());
        ++Plan.ValueRecords;
        Print("record", V);
      }
      for (const ArrayRecord &R : ArrayRecords.lookup(&I)) {
        if (!ArraySlots.insert({R.Header, R.Offset}).second) {
          Print("share the record of", R.V);
          continue;
        }
        Bytes += DL.getTypeAllocSize(recordType(R.V->getType()));
        ++Plan.ValueRecords;
        Print("record", R.V);
        OS << "    (in the array sized by the trip count of the loop at "
              "block ";
        Operand(R.Header, /*PrintType=*/false);
        OS << ")\n";
      }
      for (Value *V : Recomputed.lookup(&I))
        Print("recompute", V);
    }
  }
  for (Value *V : EndRecords) {
    Plan.CallBytes += RecordBytes(V->getType());
    ++Plan.ValueRecords;
    OS << "  record ";
    Operand(V, /*PrintType=*/true);
    OS << " once, at the return\n";
  }
  for (auto &[AI, Bytes] : ShadowAllocas)
    Plan.StackShadowBytes += Bytes;

  std::string Summary;
  raw_string_ostream SS(Summary);
  SS << "reverse mode of " << Ctx.describe(*Key.Primal) << ": tape "
     << Plan.CallBytes << " bytes per call";
  if (Plan.LoopBytes)
    SS << " + " << Plan.LoopBytes << " bytes per loop iteration";
  SS << " (" << Plan.ValueRecords << " recorded values, " << Plan.PathRecords
     << " control-flow records, " << Plan.LoopCounts << " loop counts";
  if (Plan.StackShadowBytes)
    SS << ", " << Plan.StackShadowBytes << " bytes of shadow stack";
  SS << "); every other value is recomputed or constant";
  OptimizationRemarkEmitter ORE(Key.Primal);
  ORE.emit(OptimizationRemark("adcc", "TapePlan", Key.Primal) << Summary);
  if (Ctx.printTapePlans())
    errs() << "adcc: " << Summary << "\n" << Listing;
}

} // namespace adcore
