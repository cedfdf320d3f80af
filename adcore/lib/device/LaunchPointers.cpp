//===- LaunchPointers.cpp - Pointers a launched kernel uses --------------===//
//
// The fields of a launched kernel's pointer parameters, and what the kernel
// does through them (LaunchPointers.h).
//
//===----------------------------------------------------------------------===//

#include "device/LaunchPointers.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Operator.h"

#include <map>
#include <set>

using namespace llvm;

namespace adcore {
namespace {

/// The loads of the stack slot \p Slot (-O0's copy of a pointer), through
/// its casts (AMDGPU's slots are private memory, used through a cast to the
/// generic address space); false where the slot is used otherwise.
bool slotLoads(const AllocaInst &Slot, SmallVectorImpl<const Value *> &Out) {
  SmallVector<const Value *, 4> Casts{&Slot};
  while (!Casts.empty())
    for (const User *SU : Casts.pop_back_val()->users())
      if (isa<LoadInst>(SU))
        Out.push_back(SU);
      else if (isa<AddrSpaceCastInst, BitCastInst>(SU))
        Casts.push_back(SU);
      else if (const auto *II = dyn_cast<IntrinsicInst>(SU);
               !isa<StoreInst>(SU) && !(II && II->isLifetimeStartOrEnd()))
        return false;
  return true;
}

/// The stack slot that \p SI stores a pointer into, where the slot holds
/// only that pointer's copies; null otherwise.
const AllocaInst *pointerSlot(const StoreInst &SI) {
  const auto *Slot =
      dyn_cast<AllocaInst>(getUnderlyingObject(SI.getPointerOperand()));
  if (!Slot || Slot != SI.getPointerOperand()->stripPointerCasts())
    return nullptr;
  return Slot;
}

constexpr int64_t AnyOffset = -1;
/// How deep collectFields follows calls.
constexpr unsigned CallDepth = 12;

/// Collects the fields of \p Param: the loads of pointers from its data at
/// constant offsets, through constant-offset addresses, -O0's stack slots,
/// calls and what they return (`std::get` of a tuple at -O0). (A pointer
/// loaded at an offset not known is no field: what the kernel does through
/// it counts as done through the parameter.)
void collectFields(const Value *Param,
                   std::map<uint64_t, SmallVector<const Value *, 2>> &Fields) {
  struct Item {
    const Value *V;
    int64_t Off;
    /// The calls entered, innermost last: where a return goes.
    SmallVector<const CallBase *, 4> Sites;
  };
  SmallVector<Item, 16> Work{{Param, 0, {}}};
  std::set<std::tuple<const Value *, int64_t, const CallBase *>> Seen;
  while (!Work.empty()) {
    Item It = Work.pop_back_val();
    const Value *V = It.V;
    const int64_t Off = It.Off;
    if (!Seen.insert({V, Off, It.Sites.empty() ? nullptr : It.Sites.back()})
             .second)
      continue;
    const DataLayout &DL =
        isa<Argument>(V) ? cast<Argument>(V)->getParent()->getDataLayout()
                         : cast<Instruction>(V)->getDataLayout();
    auto Push = [&](const Value *To, int64_t At) {
      Work.push_back({To, At, It.Sites});
    };
    for (const Use &U : V->uses()) {
      const User *I = U.getUser();
      if (const auto *GEP = dyn_cast<GEPOperator>(I)) {
        APInt At(DL.getIndexTypeSizeInBits(GEP->getType()), 0);
        bool Known = Off != AnyOffset && GEP->accumulateConstantOffset(DL, At);
        Push(I, Known ? Off + At.getSExtValue() : AnyOffset);
      } else if (isa<BitCastInst, AddrSpaceCastInst>(I)) {
        Push(I, Off);
      } else if (isa<PHINode, SelectInst>(I)) {
        Push(I, AnyOffset);
      } else if (const auto *L = dyn_cast<LoadInst>(I)) {
        if (L->getType()->isPointerTy() && Off != AnyOffset && Off >= 0)
          Fields[uint64_t(Off)].push_back(L);
      } else if (const auto *SI = dyn_cast<StoreInst>(I)) {
        // (An address in the data kept in a stack slot at -O0.)
        SmallVector<const Value *, 4> Loads;
        if (U.getOperandNo() == 0)
          if (const AllocaInst *Slot = pointerSlot(*SI);
              Slot && slotLoads(*Slot, Loads))
            for (const Value *Load : Loads)
              Push(Load, Off);
      } else if (isa<ReturnInst>(I)) {
        if (It.Sites.empty())
          continue;
        Item Back{It.Sites.back(), Off, It.Sites};
        Back.Sites.pop_back();
        Work.push_back(Back);
      } else if (const auto *Call = dyn_cast<CallBase>(I)) {
        const Function *Callee = Call->getCalledFunction();
        if (!Call->isArgOperand(&U) || !Callee || Callee->isDeclaration() ||
            It.Sites.size() >= CallDepth)
          continue;
        unsigned No = Call->getArgOperandNo(&U);
        if (No >= Callee->arg_size())
          continue;
        Item Into{Callee->getArg(No), Off, It.Sites};
        Into.Sites.push_back(Call);
        Work.push_back(Into);
      }
    }
  }
}

} // namespace

bool mayAccessThrough(const Value *Root, bool Read,
                      const SmallPtrSetImpl<const Value *> *Fields,
                      unsigned Depth) {
  SmallVector<const Value *, 16> Work{Root};
  SmallPtrSet<const Value *, 16> Seen;
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    for (const Use &U : V->uses()) {
      const User *I = U.getUser();
      if (isa<GetElementPtrInst, CastInst, PHINode, SelectInst>(I) &&
          !isa<PtrToIntInst>(I)) {
        Work.push_back(I);
      } else if (isa<LoadInst>(I)) {
        // (A pointer in the data, `double **`: what it points to is
        // reached through the parameter too, but for the fields.)
        if (I->getType()->isPtrOrPtrVectorTy()) {
          if (!Fields || !Fields->contains(I))
            Work.push_back(I);
        } else if (Read) {
          return true;
        }
      } else if (isa<ICmpInst>(I)) {
        continue;
      } else if (const auto *SI = dyn_cast<StoreInst>(I)) {
        if (U.getOperandNo() == SI->getPointerOperandIndex()) {
          if (!Read)
            return true;
          continue;
        }
        // (The pointer kept in a stack slot: followed through its loads,
        // where the slot holds nothing else the code accesses through.)
        SmallVector<const Value *, 4> Loads;
        const AllocaInst *Slot = pointerSlot(*SI);
        if (!Slot || !slotLoads(*Slot, Loads))
          return true;
        Work.append(Loads.begin(), Loads.end());
      } else if (const auto *MT = dyn_cast<MemTransferInst>(I)) {
        if (U.get() == (Read ? MT->getRawSource() : MT->getRawDest()))
          return true;
      } else if (const auto *II = dyn_cast<IntrinsicInst>(I)) {
        if (II->isAssumeLikeIntrinsic() || II->isLifetimeStartOrEnd() ||
            II->doesNotAccessMemory())
          continue;
        if (Read || !II->onlyReadsMemory())
          return true;
      } else if (const auto *Call = dyn_cast<CallBase>(I)) {
        const Function *Callee = Call->getCalledFunction();
        if (!Call->isArgOperand(&U))
          return true;
        unsigned No = Call->getArgOperandNo(&U);
        if (Call->doesNotAccessMemory(No) ||
            (!Read && Call->onlyReadsMemory(No)))
          continue;
        if (!Callee || Callee->isDeclaration() || Depth == 0 ||
            No >= Callee->arg_size() ||
            mayAccessThrough(Callee->getArg(No), Read, Fields, Depth - 1))
          return true;
      } else {
        return true;
      }
    }
  }
  return false;
}

LaunchPointers launchPointers(const Function &K) {
  LaunchPointers Out;
  for (const Argument &A : K.args()) {
    if (!A.getType()->isPointerTy() || A.getArgNo() >= 63 ||
        A.hasByValAttr() || A.hasByRefAttr())
      continue;
    const uint64_t Bit = uint64_t(1) << A.getArgNo();
    if (mayAccessThrough(&A, /*Read=*/false))
      Out.Written |= Bit;
    std::map<uint64_t, SmallVector<const Value *, 2>> Fields;
    collectFields(&A, Fields);
    SmallPtrSet<const Value *, 8> Loads;
    for (auto &[Offset, Of] : Fields)
      Loads.insert(Of.begin(), Of.end());
    if (mayAccessThrough(&A, false, &Loads))
      Out.OwnWritten |= Bit;
    if (mayAccessThrough(&A, true, &Loads))
      Out.OwnRead |= Bit;
    for (auto &[Offset, Of] : Fields) {
      LaunchField F{A.getArgNo(), Offset, false, false};
      for (const Value *L : Of) {
        F.Written |= mayAccessThrough(L, false);
        F.Read |= mayAccessThrough(L, true);
      }
      if (!F.Written && !F.Read)
        continue;
      if (Out.Fields.size() == MaxLaunchFields) {
        Out.TooMany = true;
        break;
      }
      Out.Fields.push_back(F);
    }
  }
  return Out;
}

namespace {

/// What the fields \p Of (per offset, the loads) are used for, as words
/// (\p Mark: bit 63 for fields of an argument); false past \p Most.
bool fieldWords(const std::map<uint64_t, SmallVector<const Value *, 2>> &Of,
                uint64_t Mark, SmallVectorImpl<uint64_t> &Words,
                unsigned Most) {
  for (auto &[Offset, Loads] : Of) {
    LaunchField F{0, Offset, false, false};
    for (const Value *L : Loads) {
      F.Written |= mayAccessThrough(L, false);
      F.Read |= mayAccessThrough(L, true);
    }
    if (!F.Written && !F.Read)
      continue;
    if (Words.size() == Most)
      return false;
    Words.push_back(F.word() | Mark);
  }
  return true;
}

/// The words of the work-item \p Item (KernelPointersQuery); the first,
/// their count.
SmallVector<uint64_t, 16> itemWords(const Function &Item) {
  SmallVector<uint64_t, 16> Words{0};
  if (Item.arg_size() < 2 || !Item.getArg(1)->getType()->isPointerTy())
    return Words;
  std::map<uint64_t, SmallVector<const Value *, 2>> Arguments;
  collectFields(Item.getArg(1), Arguments);
  for (auto &[Offset, Loads] : Arguments) {
    std::map<uint64_t, SmallVector<const Value *, 2>> Fields;
    for (const Value *L : Loads)
      collectFields(L, Fields);
    SmallPtrSet<const Value *, 8> FieldLoads;
    for (auto &[At, Of] : Fields)
      FieldLoads.insert(Of.begin(), Of.end());
    LaunchField A{0, Offset, false, false};
    for (const Value *L : Loads) {
      A.Written |= mayAccessThrough(L, false, &FieldLoads);
      A.Read |= mayAccessThrough(L, true, &FieldLoads);
    }
    if (Words.size() == MaxLaunchFields + 1) {
      Words[0] = ~uint64_t(0);
      return Words;
    }
    Words.push_back(A.word());
    if (!fieldWords(Fields, uint64_t(1) << 63, Words, MaxLaunchFields + 1)) {
      Words[0] = ~uint64_t(0);
      return Words;
    }
  }
  Words[0] = Words.size() - 1;
  return Words;
}

} // namespace

bool lowerKernelPointerQueries(Module &M) {
  Function *Query = M.getFunction(KernelPointersQuery);
  if (!Query)
    return false;
  SmallVector<CallBase *, 4> Calls;
  for (User *U : Query->users())
    if (auto *Call = dyn_cast<CallBase>(U);
        Call && Call->getCalledOperand() == Query && Call->arg_size() == 2)
      Calls.push_back(Call);
  for (CallBase *Call : Calls) {
    const auto *Item =
        dyn_cast<Function>(Call->getArgOperand(0)->stripPointerCasts());
    SmallVector<uint64_t, 16> Words{~uint64_t(0)};
    if (Item && !Item->isDeclaration())
      Words = itemWords(*Item);
    IRBuilder<> B(Call);
    Type *I64 = B.getInt64Ty();
    for (auto [No, Word] : enumerate(Words))
      B.CreateStore(ConstantInt::get(I64, Word),
                    B.CreateConstInBoundsGEP1_64(I64, Call->getArgOperand(1),
                                                 No));
    Call->eraseFromParent();
  }
  // (Nothing to link: the declaration goes too.)
  if (Query->use_empty())
    Query->eraseFromParent();
  return !Calls.empty();
}

} // namespace adcore
