/*===- checkpoint_internal.h - Shared by the checkpointing files ----------===*/
#ifndef ADCC_CHECKPOINT_INTERNAL_H
#define ADCC_CHECKPOINT_INTERNAL_H

#include "adcc_checkpoint.h"

typedef struct adcc_rt_steps adcc_rt_steps;

/* The calling thread's counters (adcc_checkpoint_get_stats reads them). */
adcc_checkpoint_stats *adcc_rt_checkpoint_stats(void);

#endif /* ADCC_CHECKPOINT_INTERNAL_H */
