/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-background.c: views' workers below the main loop.  The NVTX tree
 * (seconds of a core at 10 M kernels), the Summary page's summary and a
 * kernel's instances start while a profile's first frames draw; at the
 * main loop's priority they took half of a core it needed.  A GTask
 * thread is reused by later tasks: it stays lowered, and only ever runs
 * work that waits for no one. */
#include "sl-background.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The profile loader's (sl-profile-loader.c) */
#define BACKGROUND_NICE 8

void
sl_background_thread (void)
{
  static __thread gboolean lowered;

  if (lowered)
    return;
  lowered = TRUE;
  /* per thread on Linux; a failure leaves it where it was */
  (void) setpriority (PRIO_PROCESS, (id_t) syscall (SYS_gettid), BACKGROUND_NICE);
}
