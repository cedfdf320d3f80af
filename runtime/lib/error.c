/*===- error.c - Reporting runtime errors --------------------------------===*
 *
 * Errors in the runtime come from generated code (an unbalanced pop) or from
 * the environment (the memory bound, out of memory). Either way there is no
 * caller that could act on an error code, so they go to one handler, which
 * by default stops the program with a clear message rather than letting it
 * compute wrong derivatives.
 *
 *===----------------------------------------------------------------------===*/

#include "tape_internal.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void default_handler(const char *message) {
  fprintf(stderr, "%s\n", message);
  fflush(stderr);
  abort();
}

static _Atomic(adcc_error_handler) handler = default_handler;

adcc_error_handler adcc_set_error_handler(adcc_error_handler h) {
  return atomic_exchange(&handler, h ? h : default_handler);
}

void adcc_rt_report(const char *format, ...) {
  char message[512];
  static const char prefix[] = "adcc runtime: error: ";
  size_t n = sizeof(prefix) - 1;
  memcpy(message, prefix, n);
  va_list args;
  va_start(args, format);
  vsnprintf(message + n, sizeof(message) - n, format, args);
  va_end(args);
  adcc_error_handler report = atomic_load(&handler);
  report(message);
}

void adcc_unknown_derivative(const void *function) {
  adcc_rt_report("a function pointer called in differentiated code points "
                 "to %p, a function that has no derivative in this program; "
                 "define it in the translation unit that requests the "
                 "derivative",
                 function);
}

void adcc_exception_caught(const char *where) {
  adcc_rt_report("an exception left a differentiated call in %s and was "
                 "caught inside the differentiated code: the derivative of "
                 "a run that takes such a handler is not supported; catch "
                 "it in the caller of the derivative",
                 where);
  abort();
}

void adcc_derivative_stopped(const char *why) {
  adcc_rt_report("%s", why);
  abort();
}

/* Split reverse mode: a handle names the tape position right after an
   augmented sweep, tagged with the top bit (never set in a user-space
   address), so that a reverse sweep may be given either the handle or a
   caller-allocated tape buffer holding it (enzyme_allocated/enzyme_tape). */
#define ADCC_HANDLE_TAG ((uintptr_t)1 << (sizeof(uintptr_t) * 8 - 1))

void *adcc_split_mark(void) { return adcc_split_mark_level(0); }

void *adcc_split_mark_level(unsigned level) {
  adcc_tape_mark m = adcc_tape_get_mark(adcc_tape_thread_level(level));
  return (void *)(ADCC_HANDLE_TAG | (uintptr_t)m.position);
}

void adcc_split_check(const void *handle) { adcc_split_check_level(handle, 0); }

void adcc_split_check_level(const void *handle, unsigned level) {
  adcc_tape_mark m = adcc_tape_get_mark(adcc_tape_thread_level(level));
  uintptr_t h = (uintptr_t)handle;
  if (handle && !(h & ADCC_HANDLE_TAG))
    memcpy(&h, handle, sizeof h); /* a tape buffer holding the handle */
  if (h == (ADCC_HANDLE_TAG | (uintptr_t)m.position))
    return;
  adcc_rt_report("__enzyme_reverse was given a tape that is not the most "
                 "recent augmented sweep on this thread: reverse sweeps must "
                 "run in the reverse order of their __enzyme_augmentfwd "
                 "calls, on the same thread");
}
