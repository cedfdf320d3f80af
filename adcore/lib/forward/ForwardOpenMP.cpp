//===- ForwardOpenMP.cpp - OpenMP parallel regions in forward mode --------===//
//
//   __kmpc_fork_call(loc, n, outlined, a1, ..., an)
//     ->  __kmpc_fork_call(loc, n', fwddiffe_outlined, a1, t(a1), ...)
//
// The region's body (the outlined function) is differentiated like any
// callee, with the shared variables that have derivatives duplicated: each
// thread computes the tangents of what it computes, and writes them where
// it writes its values, so the tangent region races where the primal races
// and nowhere else. Worksharing, barriers and critical sections stay as
// they are (rules/OpenMPRuntime.h); reductions are critical sections
// (prepare/OpenMPReductions.cpp), in which the tangent of the reduced
// variable is updated with its value.
//
// In a reverse sweep differentiated again (a Hessian-vector product), the
// per-thread copies of adjoints (reverse/ThreadAdjoints.cpp) get copies of
// their tangents: the window struct's shadow is a window of its own, which
// the runtime keeps laid out as the primal one after each of its calls
// (adcc_thread_adjoints_add_tangent, _add_up_tangent), so that the
// generated adds into the copy add their tangents at the same offsets of
// the tangent copy.
//
//===----------------------------------------------------------------------===//

#include "ForwardEmitter.h"

#include "prepare/Prepare.h"
#include "rules/OpenMPRuntime.h"
#include "support/CallSites.h"

using namespace llvm;

namespace adcore {

bool ForwardEmitter::emitForkCall(CallBase &Call) {
  Function *Outlined = forkedFunction(Call);
  if (!Outlined)
    return unsupported(Call, "an OpenMP parallel region whose body adcc "
                             "cannot find (__kmpc_fork_call of a function "
                             "pointer or of a function without a body)");
  if (Key.Split)
    return unsupported(Call, "split forward mode of an OpenMP parallel "
                             "region is not supported yet; use "
                             "__enzyme_fwddiff");
  DerivativeKey K;
  K.Primal = Outlined;
  K.Width = Width;
  K.ErrorEstimate = Key.ErrorEstimate;
  K.ScratchLevel = Key.ScratchLevel;
  // (The thread ids first: constants.)
  K.Args.append(2, ArgActivity::Const);
  SmallVector<Value *, 16> Args(Call.args().begin(),
                                Call.args().begin() + ForkSharedArgs);
  for (unsigned I = ForkSharedArgs; I < Call.arg_size(); ++I) {
    Value *A = Call.getArgOperand(I);
    Args.push_back(A);
    if (!duplicatedArgument(A)) {
      // (The bits of a float with a tangent in a wider integer, whose
      // tangent the region would not get.)
      if (const Value *Float = floatBitsThroughCasts(A);
          Float && isActive(Float))
        return unsupported(Call,
                           byValueIntoRegionError(I - ForkSharedArgs + 1));
      K.Args.push_back(ArgActivity::Const);
      continue;
    }
    K.Args.push_back(ArgActivity::Dup);
    Value *T = tangent(A);
    for (unsigned L = 0; L < Width; ++L)
      Args.push_back(lane(T, L));
  }
  // (Shared pointers whose tangents may be null: guarded in the region.)
  NullableBits Bits = CalleeNullableBits.lookup(&Call);
  for (unsigned No = 2; No < K.Args.size() && No < 64; ++No)
    if (hasShadow(K.Args[No])) {
      K.NullableShadows |= forkedParamBits(Bits.Nullable) & uint64_t(1) << No;
      K.NullReaching |= forkedParamBits(Bits.Reaching) & uint64_t(1) << No;
    }
  Function *D = Ctx.getOrCreate(K);
  if (!D)
    return false;
  Args[1] = ConstantInt::get(Args[1]->getType(), Args.size() - ForkSharedArgs);
  Args[2] = D;
  emitReplacementCall(B, Call, Call.getCalledFunction(), Args);
  Dead.push_back(&Call);
  return true;
}

bool ForwardEmitter::emitThreadAdjointsCall(CallBase &Call) {
  StringRef Name = Call.getCalledFunction()->getName();
  if (Width > 1 || Key.ErrorEstimate)
    return unsupported(Call, "a batched forward derivative (or an error "
                             "estimate) of the reverse sweep of an OpenMP "
                             "parallel region with per-thread copies of "
                             "adjoints is not supported yet");
  Value *W = Call.getArgOperand(0);
  Value *DW = tangentOrNull(W);
  if (!DW) {
    // (No adjoint here has a tangent, or adcc lost the window's shadow.)
    if (Call.arg_size() == 4 && tangentOrNull(Call.getArgOperand(2)))
      return unsupported(Call, "forward mode over the reverse sweep of an "
                               "OpenMP parallel region: the per-thread "
                               "copy of adjoints has no shadow");
    return true;
  }
  Module &M = *Call.getModule();
  Type *Ptr = B.getPtrTy(), *I64 = B.getInt64Ty();
  if (Name == "adcc_thread_adjoints_add_up") {
    B.CreateCall(M.getOrInsertFunction("adcc_thread_adjoints_add_up_tangent",
                                       FunctionType::get(B.getVoidTy(), {Ptr},
                                                         false)),
                 {DW});
    return true;
  }
  if (Name != "adcc_thread_adjoints_add" || Call.arg_size() != 4)
    return unsupported(Call, "forward mode of '" + Name +
                                 "', a call of adcc's runtime with no "
                                 "forward rule");
  // add(w, to, value, bytes): the value's tangent into dw's copy, or into
  // the tangent of the shadow where the primal add was atomic.
  Value *To = Call.getArgOperand(1), *Held = Call.getArgOperand(2);
  Value *DTo = tangentOrNull(To);
  // (A constant adjoint has no tangent to add, but the tangents' window
  // still follows the copy's: the generated adds into the copy reach it.)
  Value *DHeld = tangentOrNull(Held);
  Value *Null = ConstantPointerNull::get(B.getPtrTy());
  B.CreateCall(M.getOrInsertFunction(
                   "adcc_thread_adjoints_add_tangent",
                   FunctionType::get(B.getVoidTy(),
                                     {Ptr, Ptr, Ptr, Ptr, Ptr, I64}, false)),
               {W, DW, To, DTo ? DTo : Null, DHeld ? DHeld : Null,
                Call.getArgOperand(3)});
  return true;
}

bool ForwardEmitter::emitTaskCall(CallBase &Call, Function &D,
                                  const DerivativeKey &K) {
  MDNode *Facts = Call.getMetadata(OpenMPTaskMetadata);
  if (!Facts || Facts->getNumOperands() < 3 || Width != 1 || Key.Split ||
      Call.arg_size() != 2 || K.Args.size() != 2 ||
      !hasShadow(K.Args[1]) || hasShadow(K.Args[0]) || K.ReturnShadow ||
      D.arg_size() != 3)
    return false;
  CallBase *Wait = taskDependences(Call);
  if (Call.getMetadata(OpenMPTaskDepsMetadata) && !Wait)
    return unsupported(Call, "internal error: the dependences of an OpenMP "
                             "task were lost");
  auto Size = [&](unsigned No) {
    return mdconst::extract<ConstantInt>(Facts->getOperand(No))
        ->getZExtValue();
  };
  // (kmp_task_t is 40 bytes; the copies start 16-byte aligned after it.)
  const uint64_t Header = 48, Bytes = Size(0), Shareds = Size(1);
  Value *Loc = mdconst::extract<Constant>(Facts->getOperand(2));
  Module &M = *Call.getModule();
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I32 = Type::getInt32Ty(C),
       *I64 = Type::getInt64Ty(C);
  Function *Entry = Function::Create(FunctionType::get(I32, {I32, Ptr}, false),
                                     GlobalValue::InternalLinkage,
                                     D.getName() + ".task", M);
  Entry->addFnAttr(Attribute::NoUnwind);
  {
    IRBuilder<> E(BasicBlock::Create(C, "entry", Entry));
    Value *Copies =
        E.CreateConstGEP1_64(E.getInt8Ty(), Entry->getArg(1), Header);
    E.CreateCall(&D, {Entry->getArg(0), Copies,
                      E.CreateConstGEP1_64(E.getInt8Ty(), Copies, Bytes)});
    E.CreateRet(E.getInt32(0));
  }
  Value *Gtid = Call.getArgOperand(0), *Record = Call.getArgOperand(1);
  FunctionCallee Alloc = M.getOrInsertFunction(
      "__kmpc_omp_task_alloc",
      FunctionType::get(Ptr, {Ptr, I32, I32, I64, I64, Ptr}, false));
  FunctionCallee Start = M.getOrInsertFunction(
      "__kmpc_omp_task", FunctionType::get(I32, {Ptr, I32, Ptr}, false));
  FunctionCallee Copy = M.getOrInsertFunction(
      "adcc_task_copy_into",
      FunctionType::get(Type::getVoidTy(C), {Ptr, Ptr, Ptr, I64, I64}, false));
  Value *Task = B.CreateCall(
      Alloc, {Loc, Gtid, B.getInt32(1),
              B.getInt64(Header + 2 * (Bytes + Shareds)), B.getInt64(0),
              Entry});
  B.CreateCall(Copy, {B.CreateConstGEP1_64(B.getInt8Ty(), Task, Header),
                      Record, tangent(Record), B.getInt64(Bytes),
                      B.getInt64(Shareds)});
  if (Wait) {
    // (The tangent task waits for the task's dependences as the primal's
    // does, not its creator.)
    B.CreateCall(
        M.getOrInsertFunction(
            "__kmpc_omp_task_with_deps",
            FunctionType::get(I32, {Ptr, I32, Ptr, I32, Ptr, I32, Ptr}, false)),
        {Loc, Gtid, Task, Wait->getArgOperand(2), Wait->getArgOperand(3),
         Wait->getArgOperand(4), Wait->getArgOperand(5)});
    Dead.push_back(Wait);
  } else {
    B.CreateCall(Start, {Loc, Gtid, Task});
  }
  Dead.push_back(&Call);
  if (!Call.getType()->isVoidTy())
    Call.replaceAllUsesWith(Constant::getNullValue(Call.getType()));
  return true;
}

} // namespace adcore
