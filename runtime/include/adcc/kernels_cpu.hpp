/*===- adcc/kernels_cpu.hpp - The CPU backend of <adcc/kernels.hpp> -*- C++ -*-===*
 *
 * Work-groups run on a pool of host threads (workers); the work-items of one
 * group run on the worker that took the group, each on a fiber of its own,
 * so that a group barrier suspends an item until every item of the group
 * has reached it, as on a GPU. Fibers switch only at barriers and when an
 * item ends: the items of one group never run at the same time, the groups
 * of a launch do.
 *
 * Items are resumed in a fixed order: 0, 1, ... up to the group's size, in
 * every pass between two barriers; a reverse launch resumes them in the
 * opposite order. Together with the mirrored barriers of the reverse
 * kernel, this makes the records that the augmented kernel's items push on
 * their worker's tape come off it in the exact reverse order (see the
 * reverse rule in <adcc/kernels.hpp>). A reverse launch runs each group on
 * the worker that ran it in the augmented launch, last group first, and one
 * group at a time (adjoint updates of shared memory never race).
 *
 * Not part of the API: include <adcc/kernels.hpp>.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ADCC_KERNELS_CPU_HPP
#define ADCC_KERNELS_CPU_HPP

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include <sys/mman.h>
#if !defined(__x86_64__)
#include <ucontext.h>
#endif

namespace adcc {
namespace detail {

/// A launch that cannot run: the message, and the program stops (exit
/// status 1), as the tape runtime reports its errors.
[[noreturn]] inline void kernelError(const char *What) {
  std::fprintf(stderr, "adcc: kernel launch: %s\n", What);
  std::fflush(stderr);
  std::_Exit(1);
}

#if defined(__x86_64__)
/// Saves the callee-saved registers on the running stack, stores the stack
/// pointer into *From and resumes the stack To (System V x86-64).
[[gnu::naked, gnu::noinline]] static inline void
fiberSwitch(void ** /*From*/, void * /*To*/) {
  __asm__ volatile("pushq %rbp\n\tpushq %rbx\n\tpushq %r12\n\tpushq %r13\n\t"
                   "pushq %r14\n\tpushq %r15\n\t"
                   "movq %rsp, (%rdi)\n\tmovq %rsi, %rsp\n\t"
                   "popq %r15\n\tpopq %r14\n\tpopq %r13\n\tpopq %r12\n\t"
                   "popq %rbx\n\tpopq %rbp\n\tret\n\t");
}
#endif

struct Fiber;
/// The fiber the worker is running (null: the worker's own stack).
inline thread_local Fiber *CurrentFiber = nullptr;

/// One work-item's execution: its stack and where it stopped.
struct Fiber {
  static constexpr std::size_t StackBytes = std::size_t(256) << 10;
  void *Stack = nullptr;
  /// What the fiber runs: Fn(Ctx, Item).
  void (*Fn)(void *, std::size_t) = nullptr;
  void *Ctx = nullptr;
  std::size_t Item = 0;
  bool Done = true;
  bool AtBarrier = false;
#if defined(__x86_64__)
  void *Sp = nullptr;
  void *SchedulerSp = nullptr;
#else
  ucontext_t Context, Scheduler;
#endif

  Fiber() {
    Stack = mmap(nullptr, StackBytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (Stack == MAP_FAILED)
      kernelError("out of memory for the stacks of a work-group's items");
  }
  ~Fiber() { munmap(Stack, StackBytes); }
  Fiber(const Fiber &) = delete;
  Fiber &operator=(const Fiber &) = delete;

  [[noreturn]] static void start() {
    Fiber *F = CurrentFiber;
    F->Fn(F->Ctx, F->Item);
    F->Done = true;
    F->yield();
    kernelError("internal error: a finished work-item was resumed");
  }

  /// Prepares the fiber to run Fn(Ctx, Item) from its start.
  void reset(void (*F)(void *, std::size_t), void *C, std::size_t I) {
    Fn = F;
    Ctx = C;
    Item = I;
    Done = false;
    AtBarrier = false;
#if defined(__x86_64__)
    auto Top = reinterpret_cast<std::uintptr_t>(Stack) + StackBytes;
    Top &= ~std::uintptr_t(15);
    auto **Slots = reinterpret_cast<void **>(Top) - 8;
    for (int I = 0; I < 6; ++I)
      Slots[I] = nullptr;
    Slots[6] = reinterpret_cast<void *>(&Fiber::start);
    Slots[7] = nullptr;
    Sp = Slots;
#else
    getcontext(&Context);
    Context.uc_stack.ss_sp = Stack;
    Context.uc_stack.ss_size = StackBytes;
    Context.uc_link = nullptr;
    makecontext(&Context, reinterpret_cast<void (*)()>(&Fiber::start), 0);
#endif
  }

  /// Runs the fiber until it ends or waits at a barrier.
  void resume() {
    CurrentFiber = this;
#if defined(__x86_64__)
    fiberSwitch(&SchedulerSp, Sp);
#else
    swapcontext(&Scheduler, &Context);
#endif
    CurrentFiber = nullptr;
  }

  /// Back to the scheduler (from the fiber's own stack).
  void yield() {
#if defined(__x86_64__)
    fiberSwitch(&Sp, SchedulerSp);
#else
    swapcontext(&Context, &Scheduler);
#endif
  }
};

/// A worker's fibers and group-local memory, kept from group to group.
struct WorkerState {
  std::vector<std::unique_ptr<Fiber>> Fibers;
  /// Group-local memory and its shadow (adjoints or tangents).
  static constexpr std::size_t LocalBytes = std::size_t(1) << 20;
  unsigned char *Local = nullptr, *LocalShadow = nullptr;
  /// The most shadow bytes a group has used (cleared before each group).
  std::size_t ShadowUsed = 0;

  void reserve(std::size_t Items) {
    while (Fibers.size() < Items)
      Fibers.push_back(std::make_unique<Fiber>());
    if (!Local) {
      Local = static_cast<unsigned char *>(std::malloc(LocalBytes));
      LocalShadow = static_cast<unsigned char *>(std::calloc(1, LocalBytes));
      if (!Local || !LocalShadow)
        kernelError("out of memory for group-local memory");
    }
  }
  /// Zero shadow group-local memory for the next group.
  void clearShadow() { std::memset(LocalShadow, 0, ShadowUsed); }
};

/// Runs Fn(Ctx, I) for the \p Items items I of one group, as fibers:
/// passes over the items (first to last, or last to first when \p
/// Backward) until each has ended; a pass stops every item at its next
/// barrier.
inline void runGroup(WorkerState &W, std::size_t Items, bool Backward,
                     void (*Fn)(void *, std::size_t), void *Ctx) {
  W.reserve(Items);
  for (std::size_t I = 0; I < Items; ++I)
    W.Fibers[I]->reset(Fn, Ctx, I);
  std::size_t Left = Items;
  while (Left) {
    std::size_t Waiting = 0;
    for (std::size_t K = 0; K < Items; ++K) {
      Fiber &F = *W.Fibers[Backward ? Items - 1 - K : K];
      if (F.Done)
        continue;
      F.AtBarrier = false;
      F.resume();
      if (F.Done)
        --Left;
      else
        ++Waiting;
    }
    if (Waiting && Waiting != Left)
      kernelError("a barrier was reached by some work-items of a group and "
                  "not by others (a barrier must be reached by every item "
                  "of the group)");
  }
}

/// Called by a work-item at a group barrier.
inline void groupBarrier() {
  Fiber *F = CurrentFiber;
  if (!F)
    kernelError("barrier() called outside a kernel launched on the CPU "
                "backend");
  F->AtBarrier = true;
  F->yield();
}

/// The host threads that run work-groups. One launch at a time; the
/// launching thread waits.
class WorkerPool {
public:
  static WorkerPool &get() {
    // (Never destroyed: its threads wait for work until the program ends.)
    static WorkerPool *Pool = new WorkerPool();
    return *Pool;
  }

  std::size_t size() const { return Threads.size(); }

  /// Runs Job(Worker) on every worker and waits for all of them.
  void run(const std::function<void(std::size_t)> &Job) {
    std::lock_guard<std::mutex> Launch(LaunchMutex);
    {
      std::lock_guard<std::mutex> L(M);
      Current = &Job;
      Pending = Threads.size();
      ++Generation;
    }
    Wake.notify_all();
    std::unique_lock<std::mutex> L(M);
    Finished.wait(L, [&] { return Pending == 0; });
    Current = nullptr;
  }

  WorkerState &state(std::size_t Worker) { return *States[Worker]; }

private:
  WorkerPool() {
    std::size_t N = std::thread::hardware_concurrency();
    if (const char *E = std::getenv("ADCC_KERNEL_THREADS"))
      N = std::strtoul(E, nullptr, 10);
    if (N == 0)
      N = 1;
    for (std::size_t I = 0; I < N; ++I)
      States.push_back(std::make_unique<WorkerState>());
    for (std::size_t I = 0; I < N; ++I)
      Threads.emplace_back([this, I] { loop(I); });
    for (std::thread &T : Threads)
      T.detach();
  }

  void loop(std::size_t Worker) {
    unsigned long Seen = 0;
    for (;;) {
      const std::function<void(std::size_t)> *Job;
      {
        std::unique_lock<std::mutex> L(M);
        Wake.wait(L, [&] { return Generation != Seen; });
        Seen = Generation;
        Job = Current;
      }
      (*Job)(Worker);
      std::lock_guard<std::mutex> L(M);
      if (--Pending == 0)
        Finished.notify_all();
    }
  }

  std::vector<std::thread> Threads;
  std::vector<std::unique_ptr<WorkerState>> States;
  std::mutex LaunchMutex, M;
  std::condition_variable Wake, Finished;
  const std::function<void(std::size_t)> *Current = nullptr;
  std::size_t Pending = 0;
  unsigned long Generation = 0;
};

} // namespace detail
} // namespace adcc

#endif // ADCC_KERNELS_CPU_HPP
