//===- LaunchKernels.cpp - Derivative kernels of <<<>>> launches ---------===//
//
// A kernel that the host code launches with CUDA's `k<<<grid,
// block>>>(args)` (or HIP's) in a file that mentions AD gets, in the device
// code, the kernels that the host code's derivative of that launch runs
// (rules/LaunchRules.cpp makes the host side):
//
//   __adcc_fwd_K(V, D)                    the tangent kernel
//   __adcc_size_K(Bytes)                  Bytes[0] = one thread's tape slot,
//                                         Bytes[1..] = what K does through
//                                         its pointer parameters and their
//                                         fields (LaunchPointers.h)
//   __adcc_aug_K(V, D, Slots, Bytes, Need) the augmented kernel
//   __adcc_rev_K(V, D, Slots, Bytes)      the reverse kernel
//
// V points to K's arguments as one struct of K's parameter types (natural
// alignment; the host lays out the same struct), D to a struct of the same
// type holding their shadows (a pointer's shadow pointer, a number's
// tangent or adjoint). Both are in device memory that the launch's
// derivative allocates and copies. Each kernel calls an *item* function of
// (V, D) that loads the arguments and runs K's body (a copy of K as a
// device function); the derivatives are requested as the program would
// request them (__enzyme_fwddiff, and split mode with a tape slot per
// thread, enzyme_tape: device/DeviceTape.cpp), so they are device code's
// derivatives: atomic adjoint updates where threads may meet, the scalar
// arguments' adjoints summed by atomic adds into D, mirrored barriers.
// The slot of a thread is at its global linear index (x fastest; blocks,
// then threads). The augmented kernel raises *Need to the bytes a thread
// recorded beyond its slot (records of unknown size: DeviceTape.cpp).
//
// A kernel that names dynamic shared memory (`extern __shared__ double
// s[]`, declarations in address space 3: all of them at the start of the
// block's dynamic shared memory, whose size the launch gives) gets its
// base as a last parameter of the body and the item, passed duplicated:
// the launch's derivative gives the derivative kernels twice the bytes
// (runtime/lib/gpu_launch.c), the primal in the first half, the shadow in
// the second. The reverse kernel zeroes that half with the threads of the
// block, then meets at a barrier, before the reverse sweep; the shadows of
// static `__shared__` arrays are zeroed there too (SharedShadows.cpp):
// shared memory does not outlive the augmented kernel.
//
//===----------------------------------------------------------------------===//

#include "device/DeviceCode.h"
#include "device/LaunchPointers.h"
#include "rules/GpuLaunches.h"
#include "support/ScalarMembers.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ReplaceConstant.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <memory>

using namespace llvm;

namespace adcore {
namespace {

bool isKernel(const Function &F) {
  return F.getCallingConv() == CallingConv::PTX_Kernel ||
         F.getCallingConv() == CallingConv::AMDGPU_KERNEL;
}

/// The type of \p A's value in the arguments' struct: a struct passed by
/// value (byval, AMDGPU's byref) is there whole.
Type *fieldType(const Argument &A) {
  if (Type *T = A.getParamByValType())
    return T;
  if (Type *T = A.getParamByRefType())
    return T;
  return A.getType();
}

/// A kernel whose parameters are numbers, pointers, and structs of
/// pointers, integers and floating-point numbers passed by value: the host
/// passes them as the same bytes.
bool simpleParameters(const Function &K) {
  for (const Argument &A : K.args()) {
    Type *T = A.getType();
    if (A.hasByValAttr() || A.hasByRefAttr()) {
      if (!isPlainData(fieldType(A)))
        return false;
      continue;
    }
    if (A.hasStructRetAttr() ||
        !(T->isIntegerTy() || T->isFloatingPointTy() || T->isPointerTy()))
      return false;
  }
  return true;
}

/// A copy of a struct of type \p T from \p Src to \p Dest at \p B, each
/// floating-point member a load and a store (device code has no adjoint of
/// a copy of floating-point memory; the member's load gets the adjoint),
/// the bytes between them (pointers, integers: their shadows copied) a
/// copy.
void copyMemberwise(IRBuilder<> &B, Value *Dest, Align To, Value *Src,
                    Align From, Type *T) {
  const DataLayout &DL = B.GetInsertBlock()->getModule()->getDataLayout();
  SmallVector<std::pair<uint64_t, Type *>, 8> Floats;
  floatMembers(T, 0, DL, Floats);
  auto At = [&](Value *P, uint64_t Offset) {
    return B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), P, Offset);
  };
  auto Bytes = [&](uint64_t Begin, uint64_t End) {
    if (Begin < End)
      B.CreateMemCpy(At(Dest, Begin), commonAlignment(To, Begin),
                     At(Src, Begin), commonAlignment(From, Begin),
                     End - Begin);
  };
  uint64_t Done = 0;
  for (auto [Offset, Member] : Floats) {
    Bytes(Done, Offset);
    B.CreateAlignedStore(B.CreateAlignedLoad(Member, At(Src, Offset),
                                             commonAlignment(From, Offset)),
                         At(Dest, Offset), commonAlignment(To, Offset));
    Done = Offset + DL.getTypeStoreSize(Member);
  }
  Bytes(Done, DL.getTypeAllocSize(T));
}

/// Whether \p Body may write into its struct parameter \p A's memory
/// (`p.a *= 2;`: CUDA's kernels take it as their own copy, byval): stores,
/// copies and clears into it, calls given it that may write.
bool writesParameter(const Argument &A) {
  SmallVector<const Value *, 8> Work{&A};
  SmallPtrSet<const Value *, 8> Seen;
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    for (const Use &U : V->uses()) {
      const User *I = U.getUser();
      if (isa<GetElementPtrInst, AddrSpaceCastInst, BitCastInst, PHINode,
              SelectInst>(I))
        Work.push_back(I);
      else if (isa<LoadInst, ICmpInst>(I))
        continue;
      else if (const auto *SI = dyn_cast<StoreInst>(I)) {
        if (U.getOperandNo() == SI->getPointerOperandIndex() ||
            U.getOperandNo() == 0) // (its address stored: may be written)
          return true;
      } else if (const auto *MT = dyn_cast<MemTransferInst>(I)) {
        if (U.get() != MT->getRawSource())
          return true;
      } else if (const auto *II = dyn_cast<IntrinsicInst>(I);
                 II && (II->isLifetimeStartOrEnd() ||
                        isa<DbgInfoIntrinsic>(II)))
        continue;
      else if (const auto *Call = dyn_cast<CallBase>(I)) {
        if (!Call->isArgOperand(&U) ||
            !Call->onlyReadsMemory(Call->getArgOperandNo(&U)))
          return true;
      } else
        return true;
    }
  }
  return false;
}

/// Whether the local \p Slot is written only by \p Copy, and only read
/// otherwise (loads, copies from it; through casts and addresses computed
/// from it).
bool onlyCopiedInto(const AllocaInst &Slot, const MemCpyInst &Copy) {
  SmallVector<const Value *, 8> Work{&Slot};
  SmallPtrSet<const Value *, 8> Seen;
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    for (const Use &U : V->uses()) {
      const User *I = U.getUser();
      if (isa<GetElementPtrInst, AddrSpaceCastInst, BitCastInst>(I))
        Work.push_back(I);
      else if (I == &Copy)
        continue;
      else if (const auto *MT = dyn_cast<MemTransferInst>(I);
               MT && U.get() == MT->getRawSource() &&
               MT->getRawDest() != MT->getRawSource())
        continue;
      else if (const auto *II = dyn_cast<IntrinsicInst>(I);
               II && (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II)))
        continue;
      else if (!isa<LoadInst>(I))
        return false;
    }
  }
  return true;
}

/// The copies in \p Body of a struct parameter with floating-point members
/// (AMDGPU's byref parameter at -O0 is copied into a local; `Params q =
/// p;`) split: each floating-point member a load and a store (device code
/// has no adjoint of a copy of floating-point memory; the member's load
/// from the parameter gets the scalar's adjoint update into D), the bytes
/// between them (pointers, integers: their shadows copied) a copy.
void expandParameterCopies(Function &Body) {
  const DataLayout &DL = Body.getDataLayout();
  for (Argument &A : Body.args()) {
    Type *T = A.getParamByValType() ? A.getParamByValType()
                                    : A.getParamByRefType();
    if (!T || !T->isAggregateType())
      continue;
    SmallVector<std::pair<uint64_t, Type *>, 8> Floats;
    floatMembers(T, 0, DL, Floats);
    if (Floats.empty())
      continue;
    const uint64_t Size = DL.getTypeAllocSize(T);
    SmallVector<MemCpyInst *, 2> Copies;
    for (User *U : A.users())
      if (auto *MC = dyn_cast<MemCpyInst>(U);
          MC && MC->getRawSource() == &A && MC->getRawDest() != &A)
        if (auto *Len = dyn_cast<ConstantInt>(MC->getLength());
            Len && Len->getZExtValue() == Size)
          Copies.push_back(MC);
    for (MemCpyInst *MC : Copies) {
      // (A local that is the parameter's copy and only read, AMDGPU's at
      // -O0: the parameter itself, read where the copy was. Its pointers
      // are then the parameter's members, whose shadows the launch
      // checks.)
      Value *Dest = MC->getRawDest();
      if (auto *Slot = dyn_cast<AllocaInst>(getUnderlyingObject(Dest));
          Slot && (Dest == Slot || Slot->hasOneUse()) &&
          onlyCopiedInto(*Slot, *MC)) {
        Value *Same = CastInst::CreatePointerBitCastOrAddrSpaceCast(
            &A, Dest->getType(), "", MC->getIterator());
        MC->eraseFromParent();
        Dest->replaceAllUsesWith(Same);
        continue;
      }
      IRBuilder<> B(MC);
      copyMemberwise(B, Dest, MC->getDestAlign().valueOrOne(),
                     MC->getRawSource(), MC->getSourceAlign().valueOrOne(), T);
      MC->eraseFromParent();
    }
  }
}

constexpr unsigned SharedAddressSpace = 3; // NVPTX shared, AMDGPU LDS

/// Whether \p V (a global, or a constant expression of it) is used in \p F.
bool usedIn(const Value *V, const Function &F, unsigned Depth = 4) {
  for (const User *U : V->users()) {
    if (const auto *I = dyn_cast<Instruction>(U)) {
      if (I->getFunction() == &F)
        return true;
    } else if (isa<ConstantExpr>(U) && Depth > 0 && usedIn(U, F, Depth - 1)) {
      return true;
    }
  }
  return false;
}

/// The dynamic shared memory (`extern __shared__`) that \p K names.
SmallVector<GlobalVariable *, 2> dynamicSharedOf(const Function &K) {
  SmallVector<GlobalVariable *, 2> Out;
  for (GlobalVariable &G : const_cast<Module &>(*K.getParent()).globals())
    if (G.getAddressSpace() == SharedAddressSpace && G.isDeclaration() &&
        usedIn(&G, K))
      Out.push_back(&G);
  return Out;
}

/// The marker `enzyme_*` as the program spells it: a load of the global.
Value *marker(IRBuilder<> &B, Module &M, StringRef Name) {
  GlobalVariable *G = M.getGlobalVariable(Name, /*AllowInternal=*/true);
  if (!G) {
    G = new GlobalVariable(M, B.getInt32Ty(), false,
                           GlobalValue::InternalLinkage, B.getInt32(0), Name,
                           nullptr, GlobalValue::NotThreadLocal, 1);
  }
  return B.CreateLoad(B.getInt32Ty(),
                      B.CreateAddrSpaceCast(G, B.getPtrTy()));
}

FunctionCallee entry(Module &M, StringRef Name, Type *Result) {
  return M.getOrInsertFunction(
      Name, FunctionType::get(Result, {PointerType::get(M.getContext(), 0)},
                              /*isVarArg=*/true));
}

Value *zext64(IRBuilder<> &B, Value *V) {
  return B.CreateZExtOrTrunc(V, B.getInt64Ty());
}

/// The thread's global linear index: blocks x fastest, then the thread in
/// its block, x fastest.
Value *globalLinearId(IRBuilder<> &B, Module &M) {
  Value *Tid[3], *Ntid[3], *Ctaid[3], *Nctaid[3];
  if (M.getTargetTriple().isNVPTX()) {
    const Intrinsic::ID T[3] = {Intrinsic::nvvm_read_ptx_sreg_tid_x,
                                Intrinsic::nvvm_read_ptx_sreg_tid_y,
                                Intrinsic::nvvm_read_ptx_sreg_tid_z};
    const Intrinsic::ID NT[3] = {Intrinsic::nvvm_read_ptx_sreg_ntid_x,
                                 Intrinsic::nvvm_read_ptx_sreg_ntid_y,
                                 Intrinsic::nvvm_read_ptx_sreg_ntid_z};
    const Intrinsic::ID C[3] = {Intrinsic::nvvm_read_ptx_sreg_ctaid_x,
                                Intrinsic::nvvm_read_ptx_sreg_ctaid_y,
                                Intrinsic::nvvm_read_ptx_sreg_ctaid_z};
    const Intrinsic::ID NC[3] = {Intrinsic::nvvm_read_ptx_sreg_nctaid_x,
                                 Intrinsic::nvvm_read_ptx_sreg_nctaid_y,
                                 Intrinsic::nvvm_read_ptx_sreg_nctaid_z};
    for (int D = 0; D < 3; ++D) {
      Tid[D] = zext64(B, B.CreateIntrinsic(T[D], {}));
      Ntid[D] = zext64(B, B.CreateIntrinsic(NT[D], {}));
      Ctaid[D] = zext64(B, B.CreateIntrinsic(C[D], {}));
      Nctaid[D] = zext64(B, B.CreateIntrinsic(NC[D], {}));
    }
  } else {
    const Intrinsic::ID T[3] = {Intrinsic::amdgcn_workitem_id_x,
                                Intrinsic::amdgcn_workitem_id_y,
                                Intrinsic::amdgcn_workitem_id_z};
    const Intrinsic::ID C[3] = {Intrinsic::amdgcn_workgroup_id_x,
                                Intrinsic::amdgcn_workgroup_id_y,
                                Intrinsic::amdgcn_workgroup_id_z};
    // (Code object version 5's implicit arguments: the block counts, 3 x
    // u32 from byte 0; the group sizes, 3 x u16 from byte 12.)
    Value *Implicit = B.CreateIntrinsic(Intrinsic::amdgcn_implicitarg_ptr, {});
    for (int D = 0; D < 3; ++D) {
      Tid[D] = zext64(B, B.CreateIntrinsic(T[D], {}));
      Ctaid[D] = zext64(B, B.CreateIntrinsic(C[D], {}));
      Nctaid[D] = zext64(
          B, B.CreateLoad(B.getInt32Ty(),
                          B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Implicit,
                                                       4 * D)));
      Ntid[D] = zext64(
          B, B.CreateLoad(B.getInt16Ty(),
                          B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Implicit,
                                                       12 + 2 * D)));
    }
  }
  Value *Block = B.CreateAdd(
      B.CreateMul(B.CreateAdd(B.CreateMul(Ctaid[2], Nctaid[1]), Ctaid[1]),
                  Nctaid[0]),
      Ctaid[0]);
  Value *Threads = B.CreateMul(B.CreateMul(Ntid[0], Ntid[1]), Ntid[2]);
  Value *InBlock = B.CreateAdd(
      B.CreateMul(B.CreateAdd(B.CreateMul(Tid[2], Ntid[1]), Tid[1]), Ntid[0]),
      Tid[0]);
  return B.CreateAdd(B.CreateMul(Block, Threads), InBlock);
}

struct Maker {
  Module &M;
  Function &K;
  LLVMContext &Ctx = M.getContext();
  bool Amdgpu = M.getTargetTriple().isAMDGPU();
  /// A kernel's pointer parameter: global memory on AMDGPU.
  PointerType *ParamPtr = PointerType::get(Ctx, Amdgpu ? 1 : 0);
  PointerType *Generic = PointerType::get(Ctx, 0);
  Function *Item = nullptr, *Body = nullptr;

  /// The dynamic shared memory K names (none: no extra parameter).
  SmallVector<GlobalVariable *, 2> Dynamic;
  PointerType *SharedPtr = PointerType::get(Ctx, SharedAddressSpace);

  /// K's body as a device function (with the base of the dynamic shared
  /// memory as a last parameter where K names it), and the item of V (its
  /// shadow D; the base and its shadow) that calls it.
  void makeItem() {
    Dynamic = dynamicSharedOf(K);
    SmallVector<Type *, 8> BodyParams(K.getFunctionType()->params());
    if (!Dynamic.empty())
      BodyParams.push_back(SharedPtr);
    Body = Function::Create(
        FunctionType::get(K.getReturnType(), BodyParams, false),
        GlobalValue::InternalLinkage, "__adcc_body_" + K.getName(), M);
    ValueToValueMapTy Map;
    for (auto [From, To] : zip(K.args(), Body->args())) {
      Map[&From] = &To;
      To.setName(From.getName());
    }
    SmallVector<ReturnInst *, 4> Returns;
    CloneFunctionInto(Body, &K, Map, CloneFunctionChangeType::LocalChangesOnly,
                      Returns);
    Body->setCallingConv(CallingConv::C);
    Body->setLinkage(GlobalValue::InternalLinkage);
    Body->addFnAttr(KernelBodyAttr);
    expandParameterCopies(*Body);
    if (!Dynamic.empty()) {
      Argument *Base = Body->getArg(BodyParams.size() - 1);
      SmallVector<Constant *, 2> Globals(Dynamic.begin(), Dynamic.end());
      convertUsersOfConstantsToInstructions(Globals, Body);
      for (GlobalVariable *G : Dynamic)
        G->replaceUsesWithIf(Base, [&](Use &U) {
          auto *I = dyn_cast<Instruction>(U.getUser());
          return I && I->getFunction() == Body;
        });
    }
    SmallVector<Type *, 8> Fields;
    for (const Argument &A : K.args())
      Fields.push_back(fieldType(A));
    StructType *Args = StructType::get(Ctx, Fields);
    SmallVector<Type *, 2> ItemParams = {Generic};
    if (!Dynamic.empty())
      ItemParams.push_back(SharedPtr);
    Item = Function::Create(
        FunctionType::get(Type::getVoidTy(Ctx), ItemParams, false),
        GlobalValue::InternalLinkage, "__adcc_item_" + K.getName(), M);
    Item->setAttributes(AttributeList::get(
        Ctx, AttributeList::FunctionIndex,
        AttrBuilder(Ctx, Body->getAttributes().getFnAttrs())));
    IRBuilder<> B(BasicBlock::Create(Ctx, "", Item));
    SmallVector<Value *, 8> Values;
    for (const Argument &A : K.args()) {
      Value *At = B.CreateStructGEP(Args, Item->getArg(0), A.getArgNo());
      // (A struct by value: its address in V, in the parameter's address
      // space; the body copies it, as a kernel's parameter.)
      Values.push_back(fieldType(A) != A.getType()
                           ? B.CreateAddrSpaceCast(At, A.getType())
                           : B.CreateLoad(A.getType(), At));
    }
    if (!Dynamic.empty())
      Values.push_back(Item->getArg(1));
    B.CreateCall(Body, Values);
    B.CreateRetVoid();
  }

  /// The bytes of the block's dynamic shared memory, as the launch gave
  /// them (i32): NVPTX's %dynamic_smem_size; on AMDGPU the dispatch
  /// packet's group segment size (bytes 28-31) less the static LDS.
  Value *dynamicBytes(IRBuilder<> &B) {
    if (!Amdgpu)
      return B.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_dynamic_smem_size,
                               {});
    Value *Packet = B.CreateIntrinsic(Intrinsic::amdgcn_dispatch_ptr, {});
    auto *Group = B.CreateAlignedLoad(
        B.getInt32Ty(), B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Packet, 28),
        Align(4));
    Group->setMetadata(LLVMContext::MD_invariant_load, MDNode::get(Ctx, {}));
    return B.CreateSub(
        Group, B.CreateIntrinsic(Intrinsic::amdgcn_groupstaticsize, {}));
  }

  /// The markers and the two halves of the dynamic shared memory (the
  /// primal's, the shadow's) that the derivative requests pass after V
  /// and D where K names it; \p Half the shadow's bytes.
  void dynamicArguments(IRBuilder<> &B, SmallVectorImpl<Value *> &Args,
                        Value **Half = nullptr) {
    if (Dynamic.empty())
      return;
    Value *Bytes = B.CreateLShr(dynamicBytes(B), 1);
    if (Half)
      *Half = Bytes;
    Value *Base = Dynamic.front();
    Args.append({marker(B, M, "enzyme_dup"), Base,
                 B.CreateInBoundsGEP(B.getInt8Ty(), Base, Bytes)});
  }

  /// The shadow half of the dynamic shared memory zeroed by the threads of
  /// the block (thread k of n: bytes k, k + n, ...), then a barrier.
  void zeroDynamicShadow(IRBuilder<> &B, Value *Shadow, Value *Bytes) {
    auto [Linear, Count] = threadInBlock(B, M);
    Function *F = B.GetInsertBlock()->getParent();
    BasicBlock *Entry = B.GetInsertBlock();
    BasicBlock *Loop = BasicBlock::Create(Ctx, "dynamic.shadow.zero", F);
    BasicBlock *Done = BasicBlock::Create(Ctx, "dynamic.shadow.zeroed", F);
    B.CreateCondBr(B.CreateICmpULT(Linear, Bytes), Loop, Done);
    B.SetInsertPoint(Loop);
    PHINode *I = B.CreatePHI(B.getInt32Ty(), 2);
    I->addIncoming(Linear, Entry);
    B.CreateStore(B.getInt8(0), B.CreateInBoundsGEP(B.getInt8Ty(), Shadow, I));
    Value *Next = B.CreateAdd(I, Count);
    I->addIncoming(Next, Loop);
    B.CreateCondBr(B.CreateICmpULT(Next, Bytes), Loop, Done);
    B.SetInsertPoint(Done);
    blockBarrier(B, M);
  }

  Function *kernel(StringRef Prefix, ArrayRef<Type *> Params) {
    Function *F = Function::Create(
        FunctionType::get(Type::getVoidTy(Ctx), Params, false),
        GlobalValue::ExternalLinkage, Prefix + K.getName(), M);
    F->setCallingConv(K.getCallingConv());
    F->setAttributes(AttributeList::get(
        Ctx, AttributeList::FunctionIndex,
        AttrBuilder(Ctx, K.getAttributes().getFnAttrs())));
    F->setVisibility(K.getVisibility());
    F->setDSOLocal(K.isDSOLocal());
    // (A kernel that several files may define, a template's from a header
    // with -fgpu-rdc: so may its derivative kernels, which the device link
    // then keeps one of, as it does the kernel. They were strong, and
    // nvlink refused the second file's.)
    if (K.hasLinkOnceLinkage() || K.hasWeakLinkage())
      F->setLinkage(GlobalValue::WeakODRLinkage);
    return F;
  }

  Value *generic(IRBuilder<> &B, Value *P) {
    return B.CreateAddrSpaceCast(P, Generic);
  }

  void make() {
    makeItem();
    Type *I64 = Type::getInt64Ty(Ctx);
    Type *Void = Type::getVoidTy(Ctx);
    Value *ItemPtr = ConstantExpr::getPointerCast(Item, Generic);
    {
      Function *F = kernel("__adcc_fwd_", {ParamPtr, ParamPtr});
      IRBuilder<> B(BasicBlock::Create(Ctx, "", F));
      SmallVector<Value *, 8> Args = {ItemPtr, marker(B, M, "enzyme_dup"),
                                      generic(B, F->getArg(0)),
                                      generic(B, F->getArg(1))};
      dynamicArguments(B, Args);
      B.CreateCall(entry(M, "__enzyme_fwddiff", Void), Args);
      B.CreateRetVoid();
    }
    {
      Function *F = kernel("__adcc_size_", {ParamPtr});
      IRBuilder<> B(BasicBlock::Create(Ctx, "", F));
      SmallVector<Value *, 4> Args = {ItemPtr, marker(B, M, "enzyme_dup"),
                                      marker(B, M, "enzyme_dup")};
      if (!Dynamic.empty())
        Args.push_back(marker(B, M, "enzyme_dup"));
      Value *Bytes =
          B.CreateCall(entry(M, "__enzyme_augmentsize", I64), Args);
      B.CreateStore(Bytes, generic(B, F->getArg(0)));
      // (Then what K does through its pointer parameters and the pointers
      // it reads from their data: the launch's derivative lets those it
      // only reads go without a shadow, and checks the pointers whose
      // shadows are null: LaunchPointers.h. Words: [1] the parameters K
      // may write through, nodes included, as bits (the runtime takes a
      // parameter from the 64th on as written; bit 63 is its own); [2], [3]
      // those it writes, reads numbers through itself; [4] the count of
      // nodes (~0: more than the answer holds), then the nodes.)
      // (The body's: where a struct parameter's copy became the
      // parameter, expandParameterCopies, its pointers are followed.)
      LaunchPointers P = launchPointers(*Body, K.arg_size());
      SmallVector<uint64_t, 8> Words = {
          P.Written, P.OwnWritten, P.OwnRead,
          P.TooMany ? ~uint64_t(0) : uint64_t(P.Nodes.size())};
      for (const LaunchNode &Node : P.Nodes)
        Words.push_back(Node.word());
      for (auto [No, Word] : enumerate(Words))
        B.CreateStore(ConstantInt::get(I64, Word),
                      B.CreateConstInBoundsGEP1_64(
                          I64, generic(B, F->getArg(0)), No + 1));
      B.CreateRetVoid();
    }
    Function *Augmented = nullptr;
    for (bool Reverse : {false, true}) {
      SmallVector<Type *, 5> Params = {ParamPtr, ParamPtr, ParamPtr, I64};
      if (!Reverse)
        Params.push_back(ParamPtr);
      Function *F = kernel(Reverse ? "__adcc_rev_" : "__adcc_aug_", Params);
      BasicBlock *Entry = BasicBlock::Create(Ctx, "", F);
      IRBuilder<> B(Entry);
      Value *SlotBytes = F->getArg(3);
      Value *Slot = B.CreateInBoundsGEP(
          B.getInt8Ty(), generic(B, F->getArg(2)),
          B.CreateMul(globalLinearId(B, M), SlotBytes));
      Value *V = generic(B, F->getArg(0)), *D = generic(B, F->getArg(1));
      SmallVector<Value *, 10> Args = {ItemPtr, marker(B, M, "enzyme_dup"), V,
                                       D};
      Value *Half = nullptr;
      dynamicArguments(B, Args, &Half);
      if (Reverse) {
        // (Naming the augmented kernel, whose records may hold the
        // addresses of shadows that the reverse sweep adds into.)
        F->setMetadata(LaunchReverseMetadata,
                       MDNode::get(Ctx, {ValueAsMetadata::get(Augmented)}));
        if (Half)
          zeroDynamicShadow(B, Args.back(), Half);
        Args.push_back(Slot);
        B.CreateCall(entry(M, "__enzyme_reverse", Void), Args);
        B.CreateRetVoid();
        continue;
      }
      Augmented = F;
      Args.append({marker(B, M, "enzyme_tape"), Slot});
      B.CreateCall(entry(M, "__enzyme_augmentfwd", Void), Args);
      // (The slot's offset: the bytes the thread recorded, beyond the
      // slot where its records were of unknown size and it was too small.)
      Value *Top = B.CreateLoad(I64, Slot);
      Value *Over = B.CreateICmpUGT(
          Top, B.CreateSub(SlotBytes, ConstantInt::get(I64, 16)));
      BasicBlock *Raise = BasicBlock::Create(Ctx, "", F);
      BasicBlock *Done = BasicBlock::Create(Ctx, "", F);
      B.CreateCondBr(Over, Raise, Done);
      B.SetInsertPoint(Raise);
      B.CreateAtomicRMW(AtomicRMWInst::UMax, generic(B, F->getArg(4)), Top,
                        MaybeAlign(8), AtomicOrdering::Monotonic);
      B.CreateBr(Done);
      B.SetInsertPoint(Done);
      B.CreateRetVoid();
    }
  }
};

/// True when \p F, or a function it calls, asks for derivatives itself
/// (a kernel that computes gradients is not differentiated again).
bool requestsDerivatives(const Function &F,
                         SmallPtrSetImpl<const Function *> &Seen) {
  if (!Seen.insert(&F).second)
    return false;
  if (F.getName().contains("__enzyme_"))
    return true;
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB)
      if (const auto *Call = dyn_cast<CallBase>(&I))
        if (const Function *Callee = Call->getCalledFunction();
            Callee && requestsDerivatives(*Callee, Seen))
          return true;
  return false;
}

} // namespace

bool makeLaunchDerivativeKernels(
    Module &M, const std::set<std::string> &Launched,
    function_ref<std::string(Module &)> Try) {
  if (!isDeviceModule(M) || Launched.empty())
    return false;
  SmallVector<Function *, 4> Kernels;
  for (Function &F : M) {
    SmallPtrSet<const Function *, 16> Seen;
    if (isKernel(F) && !F.isDeclaration() &&
        Launched.count(F.getName().str()) && simpleParameters(F) &&
        !M.getFunction("__adcc_fwd_" + F.getName().str()) &&
        !isKernelsHeaderFunction(F) &&
        !requestsDerivatives(F, Seen))
      Kernels.push_back(&F);
  }
  bool Made = false;
  for (Function *K : Kernels) {
    // (A kernel that writes into its struct parameter by value, its own
    // copy: the derivative kernels read the struct from the one copy of
    // the arguments that all threads share, and would race on it.)
    if (const Argument *Written = find_if(K->args(), [](const Argument &A) {
          return A.hasByValAttr() && writesParameter(A);
        });
        Written != K->arg_end()) {
      M.getContext().diagnose(DiagnosticInfoUnsupported(
          *K,
          "the kernel '" + demangle(K->getName()) +
              "', launched with <<<...>>> in a file that asks for "
              "derivatives, has no derivative kernels: it writes into its "
              "parameter " + Twine(Written->getArgNo() + 1) +
              ", a struct passed by value, which its derivative kernels "
              "share among all threads; copy the members it changes into "
              "local variables; a derivative of its launch stops the "
              "program with a message",
          K->getSubprogram()
              ? DebugLoc(DILocation::get(M.getContext(),
                                         K->getSubprogram()->getLine(), 0,
                                         K->getSubprogram()))
              : DebugLoc(),
          DS_Warning));
      continue;
    }
    // (Tried on a copy of the module first: a kernel that cannot be
    // differentiated is no error where no derivative of its launch is
    // asked for; the host's derivative of its launch says so when it runs.)
    std::unique_ptr<Module> Copy = CloneModule(M);
    Maker{*Copy, *Copy->getFunction(K->getName())}.make();
    std::string Error = Try(*Copy);
    if (!Error.empty()) {
      std::string Item = ("'__adcc_item_" + K->getName() + "'").str();
      if (size_t At = Error.find(Item); At != std::string::npos)
        Error.replace(At, Item.size(), "'" + demangle(K->getName()) + "'");
      M.getContext().diagnose(DiagnosticInfoUnsupported(
          *K,
          "the kernel '" + demangle(K->getName()) +
              "', launched with <<<...>>> in a file that asks for "
              "derivatives, has no derivative kernels: " + Error +
              "; a derivative of its launch stops the program with a "
              "message",
          K->getSubprogram()
              ? DebugLoc(DILocation::get(M.getContext(),
                                         K->getSubprogram()->getLine(), 0,
                                         K->getSubprogram()))
              : DebugLoc(),
          DS_Warning));
      continue;
    }
    Maker{M, *K}.make();
    Made = true;
  }
  return Made;
}

} // namespace adcore
