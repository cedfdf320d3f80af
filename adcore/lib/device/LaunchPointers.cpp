//===- LaunchPointers.cpp - Pointers a launched kernel uses --------------===//
//
// The pointer graph of a launched kernel's pointer parameters (the pointers
// it reads from their data, at any offset and depth), and what the kernel
// does through each (LaunchPointers.h).
//
//===----------------------------------------------------------------------===//

#include "device/LaunchPointers.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Operator.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <optional>
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

/// How deep the walk follows calls.
constexpr unsigned CallDepth = 12;
/// How many offsets the walk follows a value at before it takes any.
constexpr unsigned MostOffsets = 4;
/// The largest step a node word holds (8 bits).
constexpr unsigned MostStep = 255;

/// A step of an address no word can hold: its largest power-of-two divisor
/// (the addresses it gives are among those).
unsigned storableStep(uint64_t Step) {
  if (Step <= MostStep)
    return unsigned(Step);
  return unsigned(std::min<uint64_t>(Step & -Step, 128));
}

/// The pointer graph of a root (a kernel's pointer parameter, a work-item's
/// argument tuple): node 0 the root, then the pointers read from the data
/// of each node, through constant and variable offsets, -O0's stack
/// slots, calls and what they return (`std::get` of a tuple at -O0).
class PointerGraph {
public:
  struct Node {
    unsigned Parent;
    int64_t Offset;
    unsigned Step, Depth;
    bool Deeper = false;
    SmallVector<const Value *, 2> Loads;
  };

  PointerGraph(const Value *Root, unsigned MostDepth) : MostDepth(MostDepth) {
    Nodes.push_back({0, 0, 0, 0, false, {Root}});
    walk(Root);
  }

  const SmallVector<Node, 8> &nodes() const { return Nodes; }

  /// The loads of all nodes but the root.
  SmallPtrSet<const Value *, 8> loads() const {
    SmallPtrSet<const Value *, 8> Out;
    for (const Node &N : drop_begin(Nodes))
      Out.insert(N.Loads.begin(), N.Loads.end());
    return Out;
  }

private:
  /// Where a value points: node Node's pointers plus Offset (Step 0) or
  /// plus Offset + k * Step for some k not known.
  struct Item {
    const Value *V;
    unsigned Node;
    int64_t Off;
    uint64_t Step;
    /// The calls entered, innermost last: where a return goes.
    SmallVector<const CallBase *, 4> Sites;
  };

  SmallVector<Node, 8> Nodes;
  std::map<std::tuple<unsigned, int64_t, unsigned>, unsigned> Index;
  unsigned MostDepth;

  /// The node of the pointers read at \p It's address.
  std::optional<unsigned> child(const Item &It) {
    const Node &Parent = Nodes[It.Node];
    if (Parent.Depth == MostDepth) {
      Nodes[It.Node].Deeper = true;
      return std::nullopt;
    }
    unsigned Step = storableStep(It.Step);
    int64_t Off = Step ? It.Off % int64_t(Step) : It.Off;
    if (Off < 0)
      Off += Step;
    auto [At, New] = Index.try_emplace({It.Node, Off, Step}, Nodes.size());
    if (New)
      Nodes.push_back({It.Node, Off, Step, Parent.Depth + 1, false, {}});
    return At->second;
  }

  void walk(const Value *Root);
};

void PointerGraph::walk(const Value *Root) {
  SmallVector<Item, 16> Work{{Root, 0, 0, 0, {}}};
  std::set<std::tuple<const Value *, unsigned, int64_t, uint64_t,
                      const CallBase *>>
      Seen;
  // (A pointer kept in a stack slot and moved in a loop, `++q` at -O0,
  // comes back with another offset every time: past a few, any offset.)
  DenseMap<std::pair<const Value *, unsigned>, unsigned> Offsets;
  while (!Work.empty()) {
    Item It = Work.pop_back_val();
    const Value *V = It.V;
    if (It.Step != 1 && ++Offsets[{V, It.Node}] > MostOffsets)
      It.Step = 1;
    // (Offset + k * Step for any k: the offset modulo the step.)
    if (It.Step) {
      It.Off %= int64_t(It.Step);
      if (It.Off < 0)
        It.Off += int64_t(It.Step);
    }
    if (!Seen.insert({V, It.Node, It.Off, It.Step,
                      It.Sites.empty() ? nullptr : It.Sites.back()})
             .second)
      continue;
    const DataLayout &DL =
        isa<Argument>(V) ? cast<Argument>(V)->getParent()->getDataLayout()
                         : cast<Instruction>(V)->getDataLayout();
    auto Push = [&](const Value *To, int64_t Off, uint64_t Step) {
      Work.push_back({To, It.Node, Off, Step, It.Sites});
    };
    for (const Use &U : V->uses()) {
      const User *I = U.getUser();
      if (const auto *GEP = dyn_cast<GEPOperator>(I)) {
        unsigned Bits = DL.getIndexTypeSizeInBits(GEP->getType());
        SmallMapVector<Value *, APInt, 4> Variable;
        APInt Constant(Bits, 0);
        if (!GEP->collectOffset(DL, Bits, Variable, Constant)) {
          Push(I, 0, 1);
          continue;
        }
        uint64_t Step = It.Step;
        for (auto &[Index, Scale] : Variable)
          Step = std::gcd(Step, Scale.abs().getLimitedValue());
        Push(I, It.Off + Constant.getSExtValue(), Step);
      } else if (isa<BitCastInst, AddrSpaceCastInst>(I)) {
        Push(I, It.Off, It.Step);
      } else if (isa<PHINode, SelectInst>(I)) {
        // (Any address of the node's data.)
        Push(I, 0, 1);
      } else if (const auto *L = dyn_cast<LoadInst>(I)) {
        if (!L->getType()->isPointerTy())
          continue;
        if (std::optional<unsigned> To = child(It)) {
          Nodes[*To].Loads.push_back(L);
          Work.push_back({L, *To, 0, 0, It.Sites});
        }
      } else if (const auto *SI = dyn_cast<StoreInst>(I)) {
        // (An address in the data kept in a stack slot at -O0.)
        SmallVector<const Value *, 4> Loads;
        if (U.getOperandNo() == 0)
          if (const AllocaInst *Slot = pointerSlot(*SI);
              Slot && slotLoads(*Slot, Loads))
            for (const Value *Load : Loads)
              Push(Load, It.Off, It.Step);
      } else if (isa<ReturnInst>(I)) {
        if (It.Sites.empty())
          continue;
        Item Back = It;
        Back.V = It.Sites.back();
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
        Item Into = It;
        Into.V = Callee->getArg(No);
        Into.Sites.push_back(Call);
        Work.push_back(Into);
      }
    }
  }
}

/// The nodes of \p G below its root that the runtime needs: those the
/// kernel writes or reads numbers through, or reads pointers from beyond
/// the description, and their parents; with what it does through each.
/// The nodes of the first level have the root, parameter \p Param, as
/// parent (ParentIsParam); the others, the index of their parent among
/// those returned.
SmallVector<LaunchNode, 8> describe(const PointerGraph &G, unsigned Param) {
  const auto &Nodes = G.nodes();
  SmallPtrSet<const Value *, 8> Loads = G.loads();
  SmallVector<LaunchNode, 8> Out(Nodes.size());
  SmallVector<bool, 8> Needed(Nodes.size());
  for (size_t N = Nodes.size(); N-- > 1;) {
    LaunchNode &D = Out[N];
    D.Offset = Nodes[N].Offset;
    D.Step = Nodes[N].Step;
    D.Deeper = Nodes[N].Deeper;
    for (const Value *L : Nodes[N].Loads) {
      D.Written |= mayAccessThrough(L, false, &Loads);
      D.Read |= mayAccessThrough(L, true, &Loads);
    }
    Needed[N] = Needed[N] || D.Written || D.Read || D.Deeper;
    if (Needed[N])
      Needed[Nodes[N].Parent] = true;
  }
  // (Parents first, the children of each by offset, whatever order the
  // walk found them in: the indices of those kept.)
  SmallVector<SmallVector<unsigned, 4>, 8> Children(Nodes.size());
  for (size_t N = 1; N < Nodes.size(); ++N)
    if (Needed[N])
      Children[Nodes[N].Parent].push_back(N);
  SmallVector<unsigned, 8> Kept(Nodes.size());
  SmallVector<LaunchNode, 8> Result;
  SmallVector<unsigned, 8> Order{0};
  while (!Order.empty()) {
    unsigned N = Order.pop_back_val();
    if (N) {
      unsigned Parent = Nodes[N].Parent;
      Out[N].ParentIsParam = Parent == 0;
      Out[N].Parent = Parent ? Kept[Parent] : Param;
      Kept[N] = Result.size();
      Result.push_back(Out[N]);
    }
    auto &Of = Children[N];
    llvm::sort(Of, [&](unsigned A, unsigned B) {
      return std::pair(Nodes[A].Offset, Nodes[A].Step) >
             std::pair(Nodes[B].Offset, Nodes[B].Step);
    });
    Order.append(Of.begin(), Of.end());
  }
  return Result;
}

} // namespace

bool mayAccessThrough(const Value *Root, bool Read,
                      const SmallPtrSetImpl<const Value *> *Nodes,
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
        // reached through the parameter too, but for the nodes.)
        if (I->getType()->isPtrOrPtrVectorTy()) {
          if (!Nodes || !Nodes->contains(I))
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
            mayAccessThrough(Callee->getArg(No), Read, Nodes, Depth - 1))
          return true;
      } else {
        return true;
      }
    }
  }
  return false;
}

uint64_t LaunchNode::word() const {
  return uint64_t(1) << 63 | uint64_t(ParentIsParam) << 62 |
         uint64_t(Parent & 63) << 56 | uint64_t(Deeper) << 50 |
         uint64_t(Read) << 49 | uint64_t(Written) << 48 |
         uint64_t(Step & 255) << 40 |
         (uint64_t(Offset) & ((uint64_t(1) << 40) - 1));
}

LaunchPointers launchPointers(const Function &K, unsigned Params) {
  LaunchPointers Out;
  for (const Argument &A : K.args()) {
    if (!A.getType()->isPointerTy() || A.getArgNo() >= 63 ||
        A.getArgNo() >= Params)
      continue;
    if (A.hasByValAttr() || A.hasByRefAttr()) {
      // A struct by value: the pointers the kernel reads from it (its
      // members, whose shadows the launch requires) and from their data,
      // as nodes below it; the runtime reads the first level from the
      // host's copies of the arguments.
      PointerGraph G(&A, MaxLaunchDepth);
      const unsigned First = Out.Nodes.size();
      for (LaunchNode N : describe(G, A.getArgNo())) {
        if (!N.ParentIsParam)
          N.Parent += First;
        if (Out.Nodes.size() == MaxLaunchNodes || N.Parent >= 64) {
          Out.TooMany = true;
          return Out;
        }
        Out.Nodes.push_back(N);
      }
      continue;
    }
    const uint64_t Bit = uint64_t(1) << A.getArgNo();
    if (mayAccessThrough(&A, /*Read=*/false))
      Out.Written |= Bit;
    PointerGraph G(&A, MaxLaunchDepth);
    SmallPtrSet<const Value *, 8> Loads = G.loads();
    if (mayAccessThrough(&A, false, &Loads))
      Out.OwnWritten |= Bit;
    if (mayAccessThrough(&A, true, &Loads))
      Out.OwnRead |= Bit;
    const unsigned First = Out.Nodes.size();
    for (LaunchNode N : describe(G, A.getArgNo())) {
      if (!N.ParentIsParam)
        N.Parent += First;
      if (Out.Nodes.size() == MaxLaunchNodes || N.Parent >= 64) {
        Out.TooMany = true;
        return Out;
      }
      Out.Nodes.push_back(N);
    }
  }
  return Out;
}

namespace {

/// The words of the work-item \p Item (KernelPointersQuery); the first,
/// their count. The item's argument tuple is the root: the pointers read
/// from it at constant offsets are the arguments, the nodes below them
/// the pointers read from their data.
SmallVector<uint64_t, 16> itemWords(const Function &Item) {
  SmallVector<uint64_t, 16> Words{0};
  if (Item.arg_size() < 2 || !Item.getArg(1)->getType()->isPointerTy())
    return Words;
  PointerGraph G(Item.getArg(1), MaxLaunchDepth + 1);
  for (const LaunchNode &N : describe(G, 0)) {
    // (An argument is read from the tuple at a constant offset.)
    if (Words.size() == MaxLaunchNodes + 1 || N.Parent >= 64 ||
        (N.ParentIsParam && (N.Step || N.Offset < 0 || N.Deeper))) {
      Words[0] = ~uint64_t(0);
      return Words;
    }
    Words.push_back(N.ParentIsParam ? uint64_t(N.Read) << 49 |
                                          uint64_t(N.Written) << 48 |
                                          uint64_t(N.Offset)
                                    : N.word());
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
