/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-profile-loader.h: reading an Nsight Systems export into an SlProfile,
 * either synchronously (sightline-cli, tests) or as a GObject that loads in
 * its own low-priority worker thread and reports progress as properties
 * (the application's progress bar binds to them). */
#pragma once

#include <gio/gio.h>

#include "sl-profile.h"

G_BEGIN_DECLS

/* Progress of a load: fraction in [0,1] and a short translatable phase
 * ("Reading events").  Called from the loading thread. */
typedef void (*SlProgressFunc) (double fraction, const char *phase, gpointer user_data);

/* Called in a loading thread, in a staged load, with a profile of the GPU
 * rows (SL_PARTS_GPU: kernels and copies, no links to API calls) as soon
 * as they are in, while the CPU side still loads.  Take a reference to
 * keep it. */
typedef void (*SlGpuReadyFunc) (SlProfile *gpu_profile, gpointer user_data);

typedef struct {
  SlParts         parts;          /* what to load; 0 means SL_PARTS_ALL */
  SlGpuReadyFunc  gpu_ready;      /* nullable */
  gpointer        gpu_ready_data;
  /* Threads reading the big tables: 0 is one per core (at most two); a
   * caller loading several profiles at once asks for one each.
   * SL_LOADER_THREADS=N overrides both. */
  guint           threads;
} SlLoadOptions;

/* sl_profile_load_with:
 * sl_profile_load() with @options (nullable: everything, not staged).  The
 * profile's parts field says what it holds. */
SlProfile  *sl_profile_load_with (const char          *path,
                                  const SlLoadOptions *options,
                                  GCancellable        *cancellable,
                                  SlProgressFunc       progress,
                                  gpointer             progress_data,
                                  GError             **error);

/* sl_profile_load:
 * Opens @path read-only (never modifies it) and builds the model.  A
 * `.nsys-rep` is first converted with `nsys export` into the user cache
 * directory.  @cancellable may be NULL.  Returns (transfer full) or NULL
 * with @error set (SL_PROFILE_ERROR, message names the file and the fix). */
SlProfile  *sl_profile_load      (const char     *path,
                                  GCancellable   *cancellable,
                                  SlProgressFunc  progress,
                                  gpointer        progress_data,
                                  GError        **error);

#define SL_TYPE_PROFILE_LOADER (sl_profile_loader_get_type ())
G_DECLARE_FINAL_TYPE (SlProfileLoader, sl_profile_loader, SL, PROFILE_LOADER, GObject)

/* Work done on the freshly loaded profile in the loader's worker thread,
 * before the load completes (a view's index, say), so that the main thread
 * never walks every event.  Returns (transfer full) data handed out by
 * sl_profile_loader_load_finish(), or NULL when @cancellable was cancelled. */
typedef gpointer (*SlProfilePrepareFunc) (SlProfile    *profile,
                                          GCancellable *cancellable,
                                          gpointer      user_data);

SlProfileLoader *sl_profile_loader_new          (const char           *path);
const char      *sl_profile_loader_get_path     (SlProfileLoader      *self);
/* Progress in [0,1] and its phase; notified on the thread-default main
 * context of sl_profile_loader_load_async(), at most ten times a second
 * however fast the worker reports, and always before the load's callback. */
double           sl_profile_loader_get_fraction (SlProfileLoader      *self);
const char      *sl_profile_loader_get_message  (SlProfileLoader      *self);
/* Adds a last phase, shown as @message, that runs @func on the loaded
 * profile in the worker thread; @result_free frees what it returns when
 * nobody takes it. */
void             sl_profile_loader_set_prepare  (SlProfileLoader      *self,
                                                 const char           *message,
                                                 SlProfilePrepareFunc  func,
                                                 gpointer              user_data,
                                                 GDestroyNotify        result_free);
/* Staged loading (off by default; set before loading): as soon as the GPU
 * tables are in, the worker that read them runs the prepare function on a
 * profile of the GPU rows alone (SL_PARTS_GPU: kernels and copies, not yet
 * linked to API calls; stream indexes as in the complete profile) and the
 * loader emits "gpu-ready" with it, on the same main context as the
 * progress notifications and always before the load's callback:
 *
 *   void gpu_ready (SlProfileLoader *loader, SlProfile *gpu_profile,
 *                   gpointer prepared, gpointer user_data);
 *
 * @gpu_profile and @prepared (what the prepare function built for it, NULL
 * without one) are (transfer none): take a reference to keep them.  It is
 * not emitted once the load is cancelled, nor when the GPU side failed.
 * From then on "fraction" and "message" describe the rest, the CPU side
 * ("Reading CUDA API calls and NVTX ranges", its fraction from 0), and
 * the load completes with the complete profile as usual.  A cancelled or
 * failed load still ends in an error after "gpu-ready": the caller decides
 * what to keep of the GPU stage. */
void             sl_profile_loader_set_staged   (SlProfileLoader      *self,
                                                 gboolean              staged);
gboolean         sl_profile_loader_get_staged   (SlProfileLoader      *self);
/* Threads reading the big tables (SlLoadOptions.threads): 0, the default,
 * is one per core; a caller loading several profiles at once asks for one
 * each. */
void             sl_profile_loader_set_threads  (SlProfileLoader      *self,
                                                 guint                 threads);
/* Loads in a new thread at a lower CPU priority (so that the main loop
 * gets a core the moment it has a frame to draw).  Call once per loader. */
void             sl_profile_loader_load_async   (SlProfileLoader      *self,
                                                 GCancellable         *cancellable,
                                                 GAsyncReadyCallback   callback,
                                                 gpointer              user_data);
/* Returns (transfer full) the profile, and in @prepared (nullable, transfer
 * full) what the prepare function returned; or NULL with @error set
 * (SL_PROFILE_ERROR; SL_PROFILE_ERROR_CANCELLED when cancelled). */
SlProfile       *sl_profile_loader_load_finish  (SlProfileLoader      *self,
                                                 GAsyncResult         *result,
                                                 gpointer             *prepared,
                                                 GError              **error);

G_END_DECLS
