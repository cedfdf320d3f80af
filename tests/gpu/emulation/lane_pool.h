// Host threads standing for the N lanes of one warp (warp_emulation.h) or
// wavefront (wave_emulation.h): they live for the whole program and run
// one launch at a time. Each thread first calls Enter with its lane number
// (the model keeps it in a thread_local of its own).
#ifndef ADCC_TESTS_LANE_POOL_H
#define ADCC_TESTS_LANE_POOL_H

#include <barrier>
#include <functional>
#include <thread>
#include <vector>

template <unsigned N> class LanePool {
public:
  explicit LanePool(void (*Enter)(unsigned Lane)) {
    for (unsigned L = 0; L < N; ++L)
      Threads.emplace_back([this, L, Enter] {
        Enter(L);
        for (;;) {
          Start.arrive_and_wait();
          if (Quit)
            return;
          (*Body)();
          Done.arrive_and_wait();
        }
      });
  }
  ~LanePool() {
    Quit = true;
    Start.arrive_and_wait();
    for (std::thread &T : Threads)
      T.join();
  }
  void run(const std::function<void()> &B) {
    Body = &B;
    Start.arrive_and_wait();
    Done.arrive_and_wait();
  }

private:
  std::barrier<> Start{N + 1}, Done{N + 1};
  const std::function<void()> *Body = nullptr;
  bool Quit = false;
  std::vector<std::thread> Threads;
};

#endif
