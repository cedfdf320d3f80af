//===- DeviceMemory.cpp - Which adjoint updates of device code are atomic -===//
//
// The reverse of a load `v = *p` adds v's adjoint into the shadow of *p.
// On a GPU, several threads may run that update on one location at once
// (every thread of a kernel reading the same coefficient): then it is an
// atomic add (`atomicrmw fadd`), as Enzyme's GPU gradients do. It stays a
// plain load and store where the location belongs to one thread:
//
//   private memory       a stack slot, or an address in the private/local
//                        address space (5 on NVPTX and AMDGPU)
//   global thread id     p = base + (blockIdx.x * blockDim.x + threadIdx.x)
//                        (AMDGPU: workgroup id * group size + workitem id)
//   thread's shared slot p = shared_base + threadIdx.x, in shared memory
//                        (address space 3), which each block has its own of
//
// and only where every access of the function to that array is at the same
// kind of element: a stencil that also reads x[i + 1] makes x's updates
// atomic, since the thread next door adds into x[i] too. Nor may another
// array the function reads overlap it: two pointer parameters may point
// into one array (k(x, x + 1): thread i's y[i] is thread i + 1's x[i + 1],
// whose adjoint both add into), unless either is restrict and memory is
// modified through one of them (C promises nothing for restrict pointers
// that are only read); then the update is atomic too, by the CPU's rule
// (support/RestrictParameters.h).
//
// The primal's address decides (the shadow has the same shape).
//
//===----------------------------------------------------------------------===//

#include "device/DeviceCode.h"
#include "support/RestrictParameters.h"

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugProgramInstruction.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/PatternMatch.h"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace adcore {
namespace {

constexpr unsigned PrivateAddressSpace = 5; // NVPTX local, AMDGPU private
constexpr unsigned SharedAddressSpace = 3;  // NVPTX shared, AMDGPU LDS
constexpr const char *OverlapReason =
    "the thread's element of an array another pointer parameter may overlap";

const Value *stripIntCasts(const Value *V) {
  while (isa<SExtInst, ZExtInst, TruncInst>(V))
    V = cast<Instruction>(V)->getOperand(0);
  return V;
}

bool isIntrinsic(const Value *V, std::initializer_list<Intrinsic::ID> IDs) {
  auto *II = dyn_cast<IntrinsicInst>(stripIntCasts(V));
  return II && is_contained(IDs, II->getIntrinsicID());
}

/// threadIdx.x, AMDGPU's workitem id x.
bool isThreadInBlock(const Value *V) {
  return isIntrinsic(V, {Intrinsic::nvvm_read_ptx_sreg_tid_x,
                         Intrinsic::amdgcn_workitem_id_x});
}

/// blockIdx.x * blockDim.x (NVPTX); workgroup id x times the group size
/// read from the dispatch packet or the implicit arguments (AMDGPU).
bool isBlockOffset(const Value *V) {
  const Value *A, *B;
  if (!match(stripIntCasts(V), m_Mul(m_Value(A), m_Value(B))))
    return false;
  for (int Swap = 0; Swap < 2; ++Swap, std::swap(A, B)) {
    if (isIntrinsic(A, {Intrinsic::nvvm_read_ptx_sreg_ctaid_x}) &&
        isIntrinsic(B, {Intrinsic::nvvm_read_ptx_sreg_ntid_x}))
      return true;
    if (isIntrinsic(A, {Intrinsic::amdgcn_workgroup_id_x}) &&
        isa<LoadInst>(stripIntCasts(B)))
      return true;
  }
  return false;
}

/// The global linear thread id in x: block offset + thread in block.
bool isGlobalThreadId(const Value *V) {
  const Value *A, *B;
  if (!match(stripIntCasts(V), m_Add(m_Value(A), m_Value(B))))
    return false;
  return (isBlockOffset(A) && isThreadInBlock(B)) ||
         (isBlockOffset(B) && isThreadInBlock(A));
}

/// Whether \p Ptr is an element of an array indexed by \p IsIndex (one
/// index, the last, of a GEP whose other indices are constants).
bool isIndexedBy(const Value *Ptr, bool (*IsIndex)(const Value *)) {
  auto *GEP = dyn_cast<GEPOperator>(Ptr);
  if (!GEP || GEP->getNumIndices() == 0)
    return false;
  for (unsigned I = 1; I < GEP->getNumOperands() - 1; ++I)
    if (!isa<ConstantInt>(GEP->getOperand(I)))
      return false;
  return IsIndex(GEP->getOperand(GEP->getNumOperands() - 1));
}

/// What names the array an address points into: its underlying object,
/// or, for a pointer loaded from memory (at -O0 each access loads the
/// kernel's argument from its stack slot again), the place it was loaded
/// from.
const Value *arrayOf(const Value *Ptr) {
  const Value *Obj = getUnderlyingObject(Ptr);
  if (const auto *LI = dyn_cast<LoadInst>(Obj))
    return LI->getPointerOperand()->stripPointerCasts();
  return Obj;
}

/// The pointers \p I accesses memory through (null for a call: anything).
bool accessedPointers(const Instruction &I,
                      SmallVectorImpl<const Value *> &Ptrs) {
  if (const auto *LI = dyn_cast<LoadInst>(&I))
    Ptrs.push_back(LI->getPointerOperand());
  else if (const auto *SI = dyn_cast<StoreInst>(&I))
    Ptrs.push_back(SI->getPointerOperand());
  else if (const auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    Ptrs.push_back(RMW->getPointerOperand());
  else if (const auto *CX = dyn_cast<AtomicCmpXchgInst>(&I))
    Ptrs.push_back(CX->getPointerOperand());
  else if (const auto *Call = dyn_cast<CallBase>(&I)) {
    if (const auto *II = dyn_cast<IntrinsicInst>(Call);
        II && (II->isAssumeLikeIntrinsic() || II->isLifetimeStartOrEnd()))
      return true;
    for (const Use &A : Call->args())
      if (A->getType()->isPointerTy())
        Ptrs.push_back(A.get());
    return Ptrs.empty();
  }
  return true;
}

/// Whether every access of the function to the array \p Ptr points into
/// is, like \p Ptr, at the element the index \p IsIndex picks: then only
/// this thread touches that element. A neighbour read elsewhere (`x[i+1]`
/// of a stencil), another index, or the array passed to a call makes the
/// update atomic, since another thread may add into the same element.
bool onlyThreadsElement(const Value *Ptr, bool (*IsIndex)(const Value *)) {
  const auto *I = dyn_cast<Instruction>(Ptr);
  const Function *F = I ? I->getFunction() : nullptr;
  if (!F)
    return false;
  const Value *Array = arrayOf(Ptr);
  // The same element of the array: a GEP of the same element type straight
  // off the array's base (not off `x + 1`), at the thread's index.
  auto AtThreadsElement = [&](const Value *P) {
    const auto *GEP = dyn_cast<GEPOperator>(P);
    const auto *Mine = dyn_cast<GEPOperator>(Ptr);
    if (!GEP || !Mine || !isIndexedBy(P, IsIndex) ||
        GEP->getSourceElementType() != Mine->getSourceElementType())
      return false;
    const Value *Base = GEP->getPointerOperand()->stripPointerCasts();
    return getUnderlyingObject(Base) == Base;
  };
  if (!AtThreadsElement(Ptr))
    return false;
  for (const Instruction &Other : instructions(*F)) {
    SmallVector<const Value *, 4> Ptrs;
    bool Known = accessedPointers(Other, Ptrs);
    for (const Value *P : Ptrs) {
      P = P->stripPointerCasts();
      if (arrayOf(P) != Array)
        continue;
      if (!Known || !AtThreadsElement(P))
        return false;
    }
  }
  return true;
}

/// What an array's address comes from: an argument of the function (at
/// -O0, the stack slot that only its argument is stored into stands for
/// it), a global, a stack slot, a new allocation; null for a pointer read
/// from other memory (a struct's field: it may point anywhere).
const Value *rootOf(const Value *Array) {
  const auto *Slot = dyn_cast<AllocaInst>(Array);
  if (!Slot || !Slot->getAllocatedType()->isPointerTy())
    return isa<Argument, GlobalVariable, AllocaInst>(Array) ||
                   isNoAliasCall(Array)
               ? Array
               : nullptr;
  // (A slot holding a pointer: the argument stored into it, if that is all
  // it is given.)
  const Value *Held = nullptr;
  for (const User *U : Slot->users()) {
    if (const auto *SI = dyn_cast<StoreInst>(U)) {
      if (SI->getValueOperand() == Slot || Held)
        return nullptr;
      Held = SI->getValueOperand();
      continue;
    }
    const auto *II = dyn_cast<IntrinsicInst>(U);
    if (!isa<LoadInst>(U) &&
        !(II && (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II))))
      return nullptr;
  }
  return Held && isa<Argument>(Held) ? Held : nullptr;
}

/// A kernel, or a launched kernel's body made a device function
/// (LaunchKernels.cpp): its pointer parameters hold global memory, its
/// shared memory is its own variables (and the base of the dynamic shared
/// memory, a parameter of the body).
bool isKernel(const Function &F) {
  return F.getCallingConv() == CallingConv::PTX_Kernel ||
         F.getCallingConv() == CallingConv::AMDGPU_KERNEL ||
         F.hasFnAttribute(KernelBodyAttr);
}

/// Whether the arrays with roots \p A and \p B (rootOf, different arrays)
/// may overlap. Two pointer parameters may point into one array (y = x + 1,
/// from the launch or the caller), and a parameter may point into a global
/// (a `__device__` array), unless either is restrict and memory is
/// modified through one of them (support/RestrictParameters.h: two
/// restrict parameters that are only read may point into one array, as on
/// the CPU). Stack slots, private memory,
/// new allocations and distinct globals are distinct; in a kernel, shared
/// memory is distinct from the rest (its pointer parameters hold global
/// memory) and its shared variables from each other.
bool mayOverlap(const Value *A, const Value *B, const Function &F) {
  if (!A || !B || A == B)
    return true;
  auto Distinct = [&](const Value *V) {
    return isa<AllocaInst>(V) || isNoAliasCall(V) ||
           V->getType()->getPointerAddressSpace() == PrivateAddressSpace;
  };
  if (Distinct(A) || Distinct(B))
    return false;
  if (isKernel(F) &&
      (A->getType()->getPointerAddressSpace() == SharedAddressSpace ||
       B->getType()->getPointerAddressSpace() == SharedAddressSpace))
    return false;
  const auto *ArgA = dyn_cast<Argument>(A);
  const auto *ArgB = dyn_cast<Argument>(B);
  if (!ArgA && !ArgB)
    return false; // two globals
  if (!ArgA) {
    std::swap(ArgA, ArgB);
    std::swap(A, B);
  }
  return !restrictKeepsApart(*ArgA, ArgB,
                             modifiedThrough(*ArgA) ||
                                 (ArgB && modifiedThrough(*ArgB)));
}

/// Whether the function reads, through another array than \p Ptr's, memory
/// that may overlap that array: the reverse of that read adds into the
/// same shadow, at any thread's element (y = x + 1 makes thread i's y[i]
/// thread i + 1's x[i + 1]), so a plain update of this thread's element
/// races with it. Writes through another array do not count: one reaching
/// what another thread reads here would be a data race of the program (a
/// write ordered by a barrier is ordered in the reverse sweep too).
bool otherReadMayOverlap(const Value *Ptr) {
  const Function &F = *cast<Instruction>(Ptr)->getFunction();
  const Value *Array = arrayOf(Ptr);
  const Value *Root = rootOf(Array);
  for (const Instruction &I : instructions(F)) {
    SmallVector<const Value *, 4> Reads;
    if (const auto *LI = dyn_cast<LoadInst>(&I)) {
      // (Integers and pointers carry no adjoint.)
      if (LI->getType()->isIntOrIntVectorTy() ||
          LI->getType()->isPtrOrPtrVectorTy())
        continue;
      Reads.push_back(LI->getPointerOperand());
    } else if (isa<CallBase>(I)) {
      // (What a call is given it may read.)
      accessedPointers(I, Reads);
    }
    for (const Value *P : Reads) {
      const Value *Other = arrayOf(P->stripPointerCasts());
      if (Other != Array && mayOverlap(Root, rootOf(Other), F))
        return true;
    }
  }
  return false;
}

/// The name of the parameter \p A: its own, else its debug variable's.
std::string parameterName(const Argument &A) {
  if (A.hasName())
    return A.getName().str();
  for (const Instruction &I : instructions(*A.getParent()))
    for (const DbgVariableRecord &DVR : filterDbgVars(I.getDbgRecordRange()))
      if (DVR.getVariable()->getArg() == A.getArgNo() + 1)
        return DVR.getVariable()->getName().str();
  return "";
}

} // namespace

std::string deviceArrayName(const Value *Ptr) {
  Ptr = Ptr->stripPointerCasts();
  if (Ptr->getType()->getPointerAddressSpace() == PrivateAddressSpace ||
      isa<AllocaInst>(getUnderlyingObject(Ptr)))
    return "";
  const Value *Root = rootOf(arrayOf(Ptr));
  if (const auto *A = dyn_cast_or_null<Argument>(Root)) {
    std::string Name = parameterName(*A);
    return "parameter " + std::to_string(A->getArgNo() + 1) +
           (Name.empty() ? "" : " (" + Name + ")");
  }
  if (const auto *G = dyn_cast_or_null<GlobalVariable>(Root))
    return "'" + demangle(G->getName()) + "'";
  return "";
}

bool needsAtomicUpdate(const Value *Ptr, const char *&Why) {
  // (Through a cast to the generic address space: the cast's operand
  // says which memory it is.)
  Ptr = Ptr->stripPointerCasts();
  unsigned AS = Ptr->getType()->getPointerAddressSpace();
  const Value *Obj = getUnderlyingObject(Ptr);
  if (AS == PrivateAddressSpace || isa<AllocaInst>(Obj)) {
    Why = "private memory";
    return false;
  }
  if (isIndexedBy(Ptr, isGlobalThreadId) &&
      onlyThreadsElement(Ptr, isGlobalThreadId)) {
    if (otherReadMayOverlap(Ptr)) {
      Why = OverlapReason;
      return true;
    }
    Why = "indexed by the global thread id";
    return false;
  }
  // (A `__shared__` array is used through its cast to the generic address
  // space: the array itself says which memory it is.)
  bool Shared = AS == SharedAddressSpace ||
                Obj->getType()->getPointerAddressSpace() == SharedAddressSpace;
  if (Shared && isIndexedBy(Ptr, isThreadInBlock) &&
      onlyThreadsElement(Ptr, isThreadInBlock)) {
    if (otherReadMayOverlap(Ptr)) {
      Why = OverlapReason;
      return true;
    }
    Why = "shared memory indexed by the thread's index in its block";
    return false;
  }
  Why = "memory other threads may update";
  return true;
}

} // namespace adcore
