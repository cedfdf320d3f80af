/*===- checkpoint_internal.h - Shared by the checkpointing files ----------===*/
#ifndef ADCC_CHECKPOINT_INTERNAL_H
#define ADCC_CHECKPOINT_INTERNAL_H

#include "adcc_checkpoint.h"

typedef struct adcc_rt_steps adcc_rt_steps;

/* The calling thread's counters (adcc_checkpoint_get_stats reads them). */
adcc_checkpoint_stats *adcc_rt_checkpoint_stats(void);

/* The parameters the reverse sweep reads: a copy of `bytes` bytes of
   `params` (freed by adcc_rt_release_params), or params itself when bytes
   is 0 or params is NULL. NULL after reporting when out of memory. */
void *adcc_rt_keep_params(void *params, size_t bytes);
void adcc_rt_release_params(void *kept, void *params);

#endif /* ADCC_CHECKPOINT_INTERNAL_H */
