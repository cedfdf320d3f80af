/* Split-mode end-to-end helpers: the entry points and the result shapes of
 * __enzyme_augmentfwd that the split tests declare (one name per shape, as
 * Enzyme's programs declare them). */
#ifndef ADCC_E2E_SPLIT_CHECK_H
#define ADCC_E2E_SPLIT_CHECK_H

#include "rev_check.h"

void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse_v(void *, ...);
/* {tape, result} */
typedef struct {
  void *tape;
  double r;
} tape_result;
tape_result __enzyme_augmentfwd_tr(void *, ...);

#endif
