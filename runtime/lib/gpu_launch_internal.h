/*===- gpu_launch_internal.h - Shared by the GPU launch files -------------===*/
#ifndef ADCC_GPU_LAUNCH_INTERNAL_H
#define ADCC_GPU_LAUNCH_INTERNAL_H

#include <stddef.h>

/* What the host code knows of a kernel (one per kernel and module). */
typedef struct {
  const char *name;
  const void *fwd, *aug, *rev, *size;
  /* 0 integer, 1 float, 2 double, 3 pointer, 4 a struct of pointers,
     integers and floating-point numbers by value */
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
     the pointer parameters the kernel may write through (the pointers read
     from their data included), those it writes and reads numbers through
     itself, the count of nodes of its pointer graph, the nodes
     (gpu_launch_graph.c). */
  unsigned long long *pointers;
} adcc_gpu_kernel;

/* Stops the program with a message naming the kernel (and the runtime's
   text of error, where not 0). */
void adcc_rt_gpu_stop(const adcc_gpu_kernel *k, const char *what, int error);

/* Copies n bytes (kind: 1 to the device, 2 to the host), stopping on an
   error. */
void adcc_rt_gpu_copy(const adcc_gpu_kernel *k, void *to, const void *from,
                      size_t n, int kind);

/* What the size kernel says of the kernel (once). */
void adcc_rt_gpu_ask_size(adcc_gpu_kernel *k);

/* Stops where a pointer of the launch (an argument, a pointer of a struct
   by value, a pointer the kernel reads from their data) has a null shadow
   and would lose a derivative (gpu_launch_graph.c). */
void adcc_rt_gpu_check_graph(adcc_gpu_kernel *k, const void *values,
                             const void *shadows);

#endif /* ADCC_GPU_LAUNCH_INTERNAL_H */
