/*===- gpu_launch.c - Derivatives of CUDA's and HIP's own launches -------===*
 *
 * The host side of the derivative of `k<<<grid, block>>>(args)` in
 * differentiated code (adcore's rules/LaunchRules.cpp calls these; the
 * device code has the derivative kernels, device/LaunchKernels.cpp):
 *
 * - forward: the tangent kernel over the launch's grid and blocks;
 * - augmented: the augmented kernel, each thread recording in its slot of a
 *   tape buffer allocated on the device for the launch (one slot per
 *   thread, the bytes the size kernel gives); the record of the launch
 *   (configuration, device copies of the arguments and their shadows, the
 *   slots) goes to the caller's tape;
 * - reverse: the reverse kernel from the slots, then a synchronization;
 *   the shadows (with the number arguments' adjoints, which the threads
 *   added atomically) come back, and the device memory is freed.
 *
 * The derivative kernels get twice the launch's dynamic shared memory: a
 * kernel that names it (`extern __shared__`) has its shadow in the second
 * half (device/LaunchKernels.cpp).
 *
 * The CUDA and HIP runtimes are weak references: this member is linked only
 * into programs whose derivatives launch kernels, and those link the
 * runtime (-lcudart, -lamdhip64) themselves.
 *
 *===----------------------------------------------------------------------===*/

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_launch_internal.h"

typedef struct {
  unsigned x, y, z;
} adcc_dim3;

typedef struct {
  adcc_dim3 grid, block;
  size_t shared;
  void *stream;
  void *values, *shadows; /* device copies */
  unsigned char *slots;
  unsigned long long slot_bytes;
} adcc_gpu_record;

#define WEAK __attribute__((weak))
WEAK int cudaLaunchKernel(const void *, adcc_dim3, adcc_dim3, void **, size_t,
                          void *);
WEAK unsigned __cudaPopCallConfiguration(adcc_dim3 *, adcc_dim3 *, size_t *,
                                         void **);
WEAK int cudaMalloc(void **, size_t);
WEAK int cudaFree(void *);
WEAK int cudaMemcpy(void *, const void *, size_t, int);
WEAK int cudaMemset(void *, int, size_t);
WEAK int cudaDeviceSynchronize(void);
WEAK const char *cudaGetErrorString(int);
WEAK int cudaFuncSetAttribute(const void *, int, int);
WEAK int hipLaunchKernel(const void *, adcc_dim3, adcc_dim3, void **, size_t,
                         void *);
WEAK unsigned __hipPopCallConfiguration(adcc_dim3 *, adcc_dim3 *, size_t *,
                                        void **);
WEAK int hipMalloc(void **, size_t);
WEAK int hipFree(void *);
WEAK int hipMemcpy(void *, const void *, size_t, int);
WEAK int hipMemset(void *, int, size_t);
WEAK int hipDeviceSynchronize(void);
WEAK const char *hipGetErrorString(int);
WEAK int hipFuncSetAttribute(const void *, int, int);

enum { ToDevice = 1, ToHost = 2 }; /* cudaMemcpyKind, hipMemcpyKind */

static void stop(const adcc_gpu_kernel *k, const char *what, int error) {
  const char *text = "";
  if (error)
    text = k->hip ? (hipGetErrorString ? hipGetErrorString(error) : "")
                  : (cudaGetErrorString ? cudaGetErrorString(error) : "");
  fprintf(stderr, "adcc: the derivative of the launch of '%s': %s%s%s\n",
          k->name, what, error ? ": " : "", text);
  fflush(stderr);
  exit(1);
}

static void check(const adcc_gpu_kernel *k, int error, const char *what) {
  if (error)
    stop(k, what, error);
}

static void need_runtime(const adcc_gpu_kernel *k) {
  if (k->hip ? !hipLaunchKernel : !cudaLaunchKernel)
    stop(k, k->hip ? "the program does not link the HIP runtime"
                   : "the program does not link the CUDA runtime", 0);
}

static void *device_alloc(const adcc_gpu_kernel *k, size_t n,
                          const char *what) {
  void *p = NULL;
  int e = k->hip ? hipMalloc(&p, n ? n : 1) : cudaMalloc(&p, n ? n : 1);
  if (e) {
    char message[256];
    snprintf(message, sizeof message,
             "%s does not fit in device memory: %zu bytes", what, n);
    stop(k, message, e);
  }
  return p;
}

static void device_free(const adcc_gpu_kernel *k, void *p) {
  check(k, k->hip ? hipFree(p) : cudaFree(p), "freeing device memory");
}

static void copy(const adcc_gpu_kernel *k, void *to, const void *from,
                 size_t n, int kind) {
  check(k, k->hip ? hipMemcpy(to, from, n, kind) : cudaMemcpy(to, from, n, kind),
        "copying the arguments");
}

/* A derivative kernel's dynamic shared memory: the launch's twice (the
   primal's, then the shadow's). Beyond the 48 KiB a kernel may have
   without asking, it asks (cudaFuncAttributeMaxDynamicSharedMemorySize,
   hipFuncAttributeMaxDynamicSharedMemorySize: 8). */
static size_t doubled(const adcc_gpu_kernel *k, const void *handle,
                      size_t shared) {
  const size_t bytes = 2 * shared;
  if (bytes > 48 * 1024) {
    int e = k->hip ? (hipFuncSetAttribute
                          ? hipFuncSetAttribute(handle, 8, (int)bytes)
                          : 0)
                   : (cudaFuncSetAttribute
                          ? cudaFuncSetAttribute(handle, 8, (int)bytes)
                          : 0);
    if (e) {
      char message[256];
      snprintf(message, sizeof message,
               "the derivative kernels need twice the launch's %zu bytes "
               "of dynamic shared memory (its shadow), more than a block "
               "of the device may have",
               shared);
      stop(k, message, e);
    }
  }
  return bytes;
}

static void launch(const adcc_gpu_kernel *k, const void *handle,
                   adcc_dim3 grid, adcc_dim3 block, size_t shared,
                   void *stream, void **args, const char *which) {
  if (shared)
    shared = doubled(k, handle, shared);
  int e = k->hip ? hipLaunchKernel(handle, grid, block, args, shared, stream)
                 : cudaLaunchKernel(handle, grid, block, args, shared, stream);
  if (!e)
    e = k->hip ? hipDeviceSynchronize() : cudaDeviceSynchronize();
  if (e) {
    char message[256];
    snprintf(message, sizeof message,
             "its %s kernel failed (where the device code has no "
             "derivative kernels of the kernel, adcc's compile of the "
             "device code warned why)",
             which);
    stop(k, message, e);
  }
}

void adcc_rt_gpu_stop(const adcc_gpu_kernel *k, const char *what,
                      int error) {
  stop(k, what, error);
}

void adcc_rt_gpu_copy(const adcc_gpu_kernel *k, void *to, const void *from,
                      size_t n, int kind) {
  copy(k, to, from, n, kind);
}

static void pop(const adcc_gpu_kernel *k, adcc_gpu_record *r) {
  if (k->hip)
    __hipPopCallConfiguration(&r->grid, &r->block, &r->shared, &r->stream);
  else
    __cudaPopCallConfiguration(&r->grid, &r->block, &r->shared, &r->stream);
}

/* What the size kernel says of the kernel (once): the bytes of a thread's
   tape slot, the pointer parameters it may write through, and what it does
   through the pointers it reads from their data (the answer's words,
   device/LaunchKernels.cpp). */
static void ask_size(adcc_gpu_kernel *k) {
  if (k->written >> 63)
    return;
  enum { Words = 64 };
  unsigned long long *answer =
      device_alloc(k, Words * sizeof *answer, "the size of a tape slot");
  void *args[1] = {&answer};
  adcc_dim3 one = {1, 1, 1};
  launch(k, k->size, one, one, 0, NULL, args, "tape size");
  unsigned long long *got = calloc(Words, sizeof *got);
  if (!got)
    stop(k, "out of host memory", 0);
  copy(k, got, answer, Words * sizeof *got, ToHost);
  device_free(k, answer);
  k->slot_bytes = got[0];
  k->pointers = got + 1;
  k->written = got[1] | 1ull << 63;
}

void adcc_rt_gpu_ask_size(adcc_gpu_kernel *k) { ask_size(k); }

/* Pointer arguments without a shadow: constant where the kernel only reads
   through them (the derivative kernels read zero tangents and drop the
   adjoints of a null shadow); where it may write through one, the
   derivative would lose what it writes. */
static void check_shadows(adcc_gpu_kernel *k, const void *values,
                          const void *shadows) {
  for (unsigned i = 0; i < k->params; ++i) {
    if (k->kinds[i] != 3)
      continue;
    void *p, *d;
    memcpy(&p, (const char *)values + k->offsets[i], sizeof p);
    memcpy(&d, (const char *)shadows + k->offsets[i], sizeof d);
    if (!p || d)
      continue;
    ask_size(k);
    if (i < 63 && !(k->written >> i & 1))
      continue;
    char message[320];
    snprintf(message, sizeof message,
             "its pointer argument %u has no shadow (a pointer whose data "
             "the derivative treats as constant), and the kernel may write "
             "through it; give it a shadow in device memory (Duplicated, "
             "enzyme_dup)",
             i + 1);
    stop(k, message, 0);
  }
  /* The pointers of a struct by value: the kernel's reads and writes
     through them are not followed; each needs a shadow. */
  for (const unsigned *m = k->members; *m != ~0u; ++m) {
    void *p, *d;
    memcpy(&p, (const char *)values + *m, sizeof p);
    memcpy(&d, (const char *)shadows + *m, sizeof d);
    if (p && !d) {
      char message[320];
      snprintf(message, sizeof message,
               "a pointer in a struct that the launch passes by value (at "
               "byte %u of the arguments) has no shadow; pass the struct's "
               "address with a shadow struct whose pointers are shadows in "
               "device memory (enzyme_dup, Duplicated)",
               *m);
      stop(k, message, 0);
    }
  }
  adcc_rt_gpu_check_graph(k, values, shadows);
}

static void *to_device(const adcc_gpu_kernel *k, const void *host) {
  void *d = device_alloc(k, k->bytes, "the arguments");
  copy(k, d, host, k->bytes, ToDevice);
  return d;
}

void adcc_gpu_launch_forward(adcc_gpu_kernel *k, const void *values,
                             const void *shadows) {
  need_runtime(k);
  adcc_gpu_record r;
  pop(k, &r);
  check_shadows(k, values, shadows);
  void *v = to_device(k, values), *d = to_device(k, shadows);
  void *args[2] = {&v, &d};
  launch(k, k->fwd, r.grid, r.block, r.shared, r.stream, args, "tangent");
  device_free(k, v);
  device_free(k, d);
}

void *adcc_gpu_launch_augmented(adcc_gpu_kernel *k, const void *values,
                                const void *shadows) {
  need_runtime(k);
  adcc_gpu_record *r = calloc(1, sizeof *r);
  if (!r)
    stop(k, "out of host memory", 0);
  pop(k, r);
  check_shadows(k, values, shadows);
  ask_size(k);
  r->slot_bytes = k->slot_bytes;
  const unsigned long long items =
      (unsigned long long)r->grid.x * r->grid.y * r->grid.z * r->block.x *
      r->block.y * r->block.z;
  if (r->slot_bytes && items > SIZE_MAX / r->slot_bytes)
    stop(k, "the tape of the augmented kernel does not fit in device memory",
         0);
  char what[160];
  snprintf(what, sizeof what,
           "the tape of the augmented kernel (%llu threads x %llu bytes)",
           items, r->slot_bytes);
  r->slots = device_alloc(k, items * r->slot_bytes, what);
  r->values = to_device(k, values);
  r->shadows = to_device(k, shadows);
  unsigned long long *need = device_alloc(k, sizeof *need, "a counter");
  check(k, k->hip ? hipMemset(need, 0, sizeof *need)
                  : cudaMemset(need, 0, sizeof *need),
        "clearing a counter");
  void *args[5] = {&r->values, &r->shadows, &r->slots, &r->slot_bytes, &need};
  launch(k, k->aug, r->grid, r->block, r->shared, r->stream, args,
         "augmented");
  unsigned long long needed = 0;
  copy(k, &needed, need, sizeof needed, ToHost);
  device_free(k, need);
  if (needed) {
    char message[320];
    snprintf(message, sizeof message,
             "the tape of a thread of the augmented kernel takes %llu bytes, "
             "more than the %llu bytes of its slot (records of a loop whose "
             "trip count is known only at run time); define "
             "adcc_device_tape_bytes larger in the device code (docs/gpu.md)",
             needed + 16, r->slot_bytes);
    stop(k, message, 0);
  }
  return r;
}

void adcc_gpu_launch_reverse(adcc_gpu_kernel *k, void *record,
                             void *shadows) {
  adcc_gpu_record *r = record;
  void *args[4] = {&r->values, &r->shadows, &r->slots, &r->slot_bytes};
  launch(k, k->rev, r->grid, r->block, r->shared, r->stream, args, "reverse");
  copy(k, shadows, r->shadows, k->bytes, ToHost);
  device_free(k, r->slots);
  device_free(k, r->values);
  device_free(k, r->shadows);
  free(r);
}
