/*===- env.c - The ADCC_TAPE_LIMIT environment variable ------------------===*
 *
 * The bound is read lazily, on first use, rather than from a static
 * constructor: a program that never pushes never pays for it, and a call to
 * adcc_tape_set_limit() made before the first push still wins over the
 * environment because the one-time read happens first.
 *
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "tape_internal.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static const char limit_variable[] = "ADCC_TAPE_LIMIT";

static unsigned suffix_shift(char c) {
  switch (c) {
  case 'k':
  case 'K':
    return 10;
  case 'm':
  case 'M':
    return 20;
  case 'g':
  case 'G':
    return 30;
  case 't':
  case 'T':
    return 40;
  default:
    return 0;
  }
}

int adcc_runtime_parse_bytes(const char *text, size_t *bytes) {
  if (!text || *text < '0' || *text > '9')
    return -1;
  size_t value = 0;
  for (; *text >= '0' && *text <= '9'; ++text) {
    size_t digit = (size_t)(*text - '0');
    if (value > (SIZE_MAX - digit) / 10)
      return -1;
    value = value * 10 + digit;
  }
  unsigned shift = suffix_shift(*text);
  if (shift)
    ++text;
  if (*text || (shift && value > (SIZE_MAX >> shift)))
    return -1;
  *bytes = value << shift;
  return 0;
}

/* Sets the bound from the environment. Called by the one-time
   initialisation and by adcc_runtime_reload_env(), which must not go
   through adcc_tape_set_limit() since that waits for the former. */
static void load_limit(void) {
  const char *text = getenv(limit_variable);
  size_t bytes = 0;
  if (text && *text && adcc_runtime_parse_bytes(text, &bytes)) {
    fprintf(stderr,
            "adcc runtime: warning: ignoring %s='%.64s': expected a byte "
            "count such as 1048576, 64K, 512M or 2G\n",
            limit_variable, text);
    return;
  }
  adcc_rt_store_limit(bytes);
}

static pthread_once_t limit_once = PTHREAD_ONCE_INIT;

void adcc_rt_init_limit(void) { pthread_once(&limit_once, load_limit); }

void adcc_runtime_reload_env(void) {
  adcc_rt_init_limit();
  load_limit();
}
