// Threads started inside differentiated code without OpenMP (std::thread,
// pthread_create) are refused at the call: their creation and join are not
// mirrored (docs/parallel.md).
// RUN: %expect-exit 1 %adcc++ -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc++ -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
#include <pthread.h>
#include <thread>
double __enzyme_autodiff(void *, ...);

double two_halves(const double *x, int n) {
  double part[2] = {0, 0};
  std::thread t([&] {
    for (int i = 0; i < n / 2; ++i)
      part[0] += x[i] * x[i];
  });
  for (int i = n / 2; i < n; ++i)
    part[1] += x[i] * x[i];
  t.join();
  return part[0] + part[1];
}
// (-O0: in the constructor, in the standard library's header; optimized,
// inlined here.)
// CHECK-DAG: {{std_thread.h|threads.cpp:12}}:{{.*}}: error: cannot differentiate {{.*}} in reverse mode: a std::thread started inside differentiated code (std::thread::_M_start_thread

struct job {
  const double *x;
  double s;
};
static void *work(void *p) {
  job *j = static_cast<job *>(p);
  j->s = j->x[0] * j->x[0];
  return nullptr;
}
double square(const double *x) {
  job j = {x, 0};
  pthread_t t;
  pthread_create(&t, nullptr, work, &j);
  pthread_join(t, nullptr);
  return j.s;
}
// CHECK-DAG: threads.cpp:[[#@LINE-4]]:3: error: cannot differentiate 'square(double const*)' in reverse mode: a thread started inside differentiated code (pthread_create) is not supported

void gradients(const double *x, double *dx, int n) {
  __enzyme_autodiff((void *)two_halves, x, dx, n);
  __enzyme_autodiff((void *)square, x, dx);
}
