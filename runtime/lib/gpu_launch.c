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

typedef struct {
  unsigned x, y, z;
} adcc_dim3;

/* What the host code knows of a kernel (one per kernel and module). */
typedef struct {
  const char *name;
  const void *fwd, *aug, *rev, *size;
  /* 0 integer, 1 float, 2 double, 3 pointer, 4 a struct of pointers and
     integers by value */
  const unsigned char *kinds;
  const unsigned *offsets;
  unsigned params, bytes, hip;
  unsigned long long slot_bytes; /* 0 until asked */
  /* The pointer parameters the kernel may write through (bit i: parameter
     i), with bit 63 set once asked. */
  unsigned long long written;
  /* The offsets of the pointers in the structs by value, ~0u last. */
  const unsigned *members;
  /* The size kernel's answer past the slot's bytes (null until asked):
     the pointer parameters the kernel may write through (fields
     included), those it writes and reads numbers through itself, the count
     of fields, the fields (gpu_launch_fields.c). */
  unsigned long long *pointers;
} adcc_gpu_kernel;

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

static void pop(const adcc_gpu_kernel *k, adcc_gpu_record *r) {
  if (k->hip)
    __hipPopCallConfiguration(&r->grid, &r->block, &r->shared, &r->stream);
  else
    __cudaPopCallConfiguration(&r->grid, &r->block, &r->shared, &r->stream);
}

/* What the size kernel says of the kernel (once): the bytes of a thread's
   tape slot, the pointer parameters it may write through, and what it does
   through their fields (the answer's words, device/LaunchKernels.cpp). */
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

/* Where a device allocation begins and ends, where the runtime can tell:
   the driver's cuMemGetAddressRange (through cudaGetDriverEntryPoint),
   HIP's hipMemGetAddressRange. */
WEAK int cudaGetDriverEntryPoint(const char *, void **, unsigned long long,
                                 int *);
WEAK int hipMemGetAddressRange(void **, size_t *, void *);
typedef int (*range_fn)(unsigned long long *, size_t *, unsigned long long);

static int allocation_of(const adcc_gpu_kernel *k, const void *p,
                         uintptr_t *base, size_t *size) {
  if (k->hip) {
    void *b = NULL;
    if (!hipMemGetAddressRange || hipMemGetAddressRange(&b, size, (void *)p))
      return 0;
    *base = (uintptr_t)b;
    return 1;
  }
  static range_fn range;
  static int asked;
  if (!asked) {
    asked = 1;
    void *fn = NULL;
    if (cudaGetDriverEntryPoint &&
        !cudaGetDriverEntryPoint("cuMemGetAddressRange", &fn, 0, NULL))
      range = (range_fn)fn;
  }
  unsigned long long b = 0;
  if (!range || range(&b, size, (unsigned long long)(uintptr_t)p))
    return 0;
  *base = (uintptr_t)b;
  return 1;
}

/* Whether a and b may point into the same data: the same address, or one
   inside the other's allocation. Where the runtime cannot tell where
   either's allocation ends (memory not from cudaMalloc or hipMalloc, a
   runtime without the query), only the same address. */
static int same_data(const adcc_gpu_kernel *k, const void *a, const void *b) {
  uintptr_t base;
  size_t size;
  if (a == b)
    return 1;
  if (allocation_of(k, a, &base, &size))
    return (uintptr_t)b - base < size;
  if (allocation_of(k, b, &base, &size))
    return (uintptr_t)a - base < size;
  return 0;
}

/* A pointer the kernel uses: an argument, a pointer in a struct by value,
   or a field (read from the data of argument param at byte offset). */
typedef struct {
  const void *value;
  int null_shadow, written, read;
  unsigned param;
  unsigned long long offset;
  enum { Argument, Member, Field } where;
} adcc_gpu_pointer;

static void describe(char *out, size_t n, const adcc_gpu_pointer *p) {
  if (p->where == Argument)
    snprintf(out, n, "its pointer argument %u", p->param + 1);
  else if (p->where == Member)
    snprintf(out, n, "the pointer at byte %llu of its arguments", p->offset);
  else
    snprintf(out, n,
             "the pointer at byte %llu of the data of its pointer argument %u",
             p->offset, p->param + 1);
}

static void stop_field(const adcc_gpu_kernel *k, const adcc_gpu_pointer *a,
                       const adcc_gpu_pointer *b) {
  char first[128], second[128], message[768];
  describe(first, sizeof first, a);
  if (!b) {
    snprintf(message, sizeof message,
             "%s has a null shadow (the shadow data the caller gave holds "
             "null there), and the kernel writes through it and reads it "
             "back: device code has nowhere to keep that derivative; give "
             "it a shadow in device memory in the shadow data",
             first);
  } else {
    describe(second, sizeof second, b);
    snprintf(message, sizeof message,
             "%s has a null shadow (the shadow data the caller gave holds "
             "null there) and points into the same data as %s; the kernel "
             "%s through one and %s through the other, and the derivative "
             "kernels cannot carry that derivative through a null shadow; "
             "give it a shadow in device memory in the shadow data",
             first, second, a->written && b->read ? "writes" : "reads",
             a->written && b->read ? "reads" : "writes");
  }
  stop(k, message, 0);
}

/* Stops where a pointer of all[0..count) whose shadow is null while it is
   not (a field: read from the data of a pointer argument, one level down,
   `c->a` of `const Ctx *c`; or an argument) would lose a derivative: the
   derivative kernels drop what they write through it and read zero
   through it, so where the kernel writes through a field and reads it
   back, or writes through one pointer and reads through another into the
   same data, the derivative would be wrong; the launch stops instead. */
static void check_pointers(const adcc_gpu_kernel *k,
                           const adcc_gpu_pointer *all, unsigned count) {
  for (unsigned a = 0; a < count; ++a) {
    const adcc_gpu_pointer *pa = &all[a];
    if (!pa->null_shadow || !pa->value || !(pa->written || pa->read))
      continue;
    if (pa->where == Field && pa->written && pa->read)
      stop_field(k, pa, NULL);
    for (unsigned b = 0; b < count; ++b) {
      const adcc_gpu_pointer *pb = &all[b];
      if (b == a || !pb->value ||
          !((pa->written && pb->read) || (pa->read && pb->written)))
        continue;
      if (same_data(k, pa->value, pb->value))
        stop_field(k, pa, pb);
    }
  }
}

enum { MostPointers = 64 + 59 + 64 };

/* The field at byte offset of the data of argument param (base, its
   shadow shadow: device memory). */
static adcc_gpu_pointer field_of(const adcc_gpu_kernel *k, const char *base,
                                 const char *shadow, unsigned param,
                                 unsigned long long word) {
  adcc_gpu_pointer p = {0};
  p.param = param;
  p.written = word >> 48 & 1;
  p.read = word >> 49 & 1;
  p.offset = word & ((1ull << 48) - 1);
  p.where = Field;
  copy(k, &p.value, base + p.offset, sizeof p.value, ToHost);
  void *d = NULL;
  if (shadow)
    copy(k, &d, shadow + p.offset, sizeof d, ToHost);
  p.null_shadow = !d;
  return p;
}

/* The launch's pointers (its arguments, the pointers of its structs by
   value, the fields the size kernel names), checked (check_pointers). */
static void check_fields(adcc_gpu_kernel *k, const void *values,
                         const void *shadows) {
  ask_size(k);
  const unsigned long long *w = k->pointers;
  const unsigned long long own_written = w[1], own_read = w[2], n = w[3];
  if (n == ~0ull)
    stop(k, "the kernel reads more pointers from the data of its pointer "
            "arguments than the launch's derivative can check",
         0);
  adcc_gpu_pointer all[MostPointers];
  unsigned count = 0;
  for (unsigned i = 0; i < k->params && i < 63 && count < MostPointers; ++i) {
    if (k->kinds[i] != 3)
      continue;
    adcc_gpu_pointer p = {0};
    memcpy(&p.value, (const char *)values + k->offsets[i], sizeof p.value);
    void *d;
    memcpy(&d, (const char *)shadows + k->offsets[i], sizeof d);
    p.null_shadow = !d;
    p.written = own_written >> i & 1;
    p.read = own_read >> i & 1;
    p.param = i;
    p.where = Argument;
    all[count++] = p;
  }
  for (const unsigned *m = k->members; *m != ~0u && count < MostPointers;
       ++m) {
    adcc_gpu_pointer p = {0};
    memcpy(&p.value, (const char *)values + *m, sizeof p.value);
    p.written = p.read = 1;
    p.offset = *m;
    p.where = Member;
    all[count++] = p;
  }
  for (unsigned long long f = 0; f < n && f < 59 && count < MostPointers;
       ++f) {
    const unsigned param = (unsigned)(w[4 + f] >> 56);
    if (param >= k->params || k->kinds[param] != 3)
      continue;
    const char *base, *shadow;
    memcpy(&base, (const char *)values + k->offsets[param], sizeof base);
    memcpy(&shadow, (const char *)shadows + k->offsets[param],
           sizeof shadow);
    if (base)
      all[count++] = field_of(k, base, shadow, param, w[4 + f]);
  }
  check_pointers(k, all, count);
}

/* The same for a launch of <adcc/kernels.hpp> on adcc::cuda or adcc::hip
   (kernels_gpu_rules.hpp): words as its query kernel gives them (the
   count, then per pointer of the argument tuple its offset there and what
   the work-item does through it, each followed by its fields: bit 63), the
   argument tuple and its shadows in host memory, and where each of the n
   elements of the tuple is (offsets) and which argument of the launch it
   is (positions, from 0). */
void adcc_gpu_check_item_pointers(const char *name, int hip,
                                  const unsigned long long *words,
                                  const void *actives, const void *shadows,
                                  const unsigned *offsets,
                                  const unsigned *positions, unsigned n) {
  adcc_gpu_kernel k = {0};
  k.name = name;
  k.hip = (unsigned)hip;
  if (words[0] == ~0ull)
    stop(&k, "the kernel reads more pointers from the data of its pointer "
             "arguments than the launch's derivative can check",
         0);
  adcc_gpu_pointer all[MostPointers];
  unsigned count = 0, param = 0;
  const char *base = NULL, *shadow = NULL;
  for (unsigned long long i = 0;
       i < words[0] && i < 59 && count < MostPointers; ++i) {
    const unsigned long long word = words[1 + i];
    if (word >> 63) {
      if (base)
        all[count++] = field_of(&k, base, shadow, param, word);
      continue;
    }
    adcc_gpu_pointer p = {0};
    const unsigned offset = (unsigned)(word & ((1ull << 48) - 1));
    base = NULL;
    for (unsigned j = 0; j < n; ++j)
      if (offsets[j] == offset)
        param = positions[j];
    memcpy(&p.value, (const char *)actives + offset, sizeof p.value);
    void *d;
    memcpy(&d, (const char *)shadows + offset, sizeof d);
    p.null_shadow = !d;
    p.written = word >> 48 & 1;
    p.read = word >> 49 & 1;
    p.param = param;
    p.where = Argument;
    base = p.value;
    shadow = d;
    all[count++] = p;
  }
  check_pointers(&k, all, count);
}

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
  check_fields(k, values, shadows);
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
