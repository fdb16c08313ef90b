/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-profile-loader.c: an asynchronous load with progress properties.
 *
 * The worker is a thread of its own, not one of GTask's pool: it lowers its
 * own CPU priority, which Linux keeps per thread and hands on to the
 * threads it starts (the loader's second connection), and a pool thread
 * would keep that priority for whatever GIO runs on it next.
 *
 * A staged load hands the GPU profile from the worker that finished the GPU
 * tables to the caller's main context (one pending stage, emitted by the
 * next progress notification or, at the latest, by load_finish), then maps
 * the progress that is left onto the CPU side. */
#include "sl-profile-loader.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <glib/gi18n-lib.h>

/* Nice value of the loading threads: the main loop, at 0, wins a core
 * whenever it has a frame to draw. */
#define WORKER_NICE 8
/* Progress is notified at most this often: each notification is a frame of
 * a progress bar, and with software rendering a frame costs tens of
 * milliseconds of a core that the loader would rather have. */
#define NOTIFY_INTERVAL_US (100 * 1000)

struct _SlProfileLoader {
  GObject               parent_instance;

  char                 *path;

  /* progress, written by the worker, notified on the caller's context */
  GMutex                lock;
  double                fraction;
  char                 *message;
  GSource              *notify_source;
  gint64                last_notify_us;
  GMainContext         *context;

  /* optional last phase in the worker */
  char                 *prepare_message;
  SlProfilePrepareFunc  prepare;
  gpointer              prepare_data;
  GDestroyNotify        prepare_result_free;

  /* staged load: the GPU stage waiting for the main context, and the
   * loader's own fraction at the hand-over (guarded by lock) */
  gboolean              staged;
  GCancellable         *cancellable;
  SlProfile            *gpu_profile;
  gpointer              gpu_prepared;
  gboolean              cpu_stage;
  double                raw_fraction;
  double                cpu_base;

  guint                 threads;     /* SlLoadOptions.threads */

  gboolean              started;
};

typedef struct {
  SlProfile *profile;
  gpointer   prepared;
  GDestroyNotify prepared_free;
} LoadResult;

enum {
  PROP_0,
  PROP_PATH,
  PROP_FRACTION,
  PROP_MESSAGE,
  PROP_STAGED,
  N_PROPS
};

enum {
  GPU_READY,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (SlProfileLoader, sl_profile_loader, G_TYPE_OBJECT)

/* ---- progress ------------------------------------------------------------ */

static void flush_gpu_stage (SlProfileLoader *self);

/* A GPU stage goes out before the progress of the CPU side that follows it. */
static gboolean
notify_progress_cb (gpointer data)
{
  SlProfileLoader *self = data;

  g_mutex_lock (&self->lock);
  /* (a source replaced by a sooner one while it ran is not ours to clear) */
  if (self->notify_source == g_main_current_source ())
    g_clear_pointer (&self->notify_source, g_source_unref);
  self->last_notify_us = g_get_monotonic_time ();
  g_mutex_unlock (&self->lock);
  flush_gpu_stage (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FRACTION]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MESSAGE]);
  return G_SOURCE_REMOVE;
}

/* Main context: what is pending goes out now (before the load's callback). */
static void
flush_progress (SlProfileLoader *self)
{
  GSource *pending;

  g_mutex_lock (&self->lock);
  pending = g_steal_pointer (&self->notify_source);
  g_mutex_unlock (&self->lock);
  if (pending == NULL)
    return;
  g_source_destroy (pending);
  g_source_unref (pending);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FRACTION]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MESSAGE]);
}

/* With the lock held.  At most one notification is pending, and they come
 * NOTIFY_INTERVAL_US apart, except that a GPU stage goes out at once. */
static void
schedule_notify_locked (SlProfileLoader *self)
{
  gint64 wait_us = self->gpu_profile != NULL ? 0
                   : self->last_notify_us + NOTIFY_INTERVAL_US - g_get_monotonic_time ();

  if (self->notify_source != NULL && wait_us <= 0 && g_source_get_ready_time (self->notify_source) > 0)
    {
      /* a later one pending: sooner */
      g_source_destroy (self->notify_source);
      g_clear_pointer (&self->notify_source, g_source_unref);
    }
  if (self->notify_source != NULL || self->context == NULL)
    return;
  self->notify_source = wait_us > 0 ? g_timeout_source_new ((guint) (wait_us / 1000) + 1) : g_idle_source_new ();
  g_source_set_priority (self->notify_source, G_PRIORITY_DEFAULT);
  g_source_set_callback (self->notify_source, notify_progress_cb, g_object_ref (self), g_object_unref);
  g_source_set_static_name (self->notify_source, "[sightline] load progress");
  g_source_attach (self->notify_source, self->context);
}

/* Any thread, with the lock held: a worker reporting thousands of times a
 * second never floods the main loop. */
static void
set_progress_locked (SlProfileLoader *self, double fraction, const char *message)
{
  self->fraction = CLAMP (fraction, 0.0, 1.0);
  if (g_strcmp0 (self->message, message) != 0)
    {
      g_free (self->message);
      self->message = g_strdup (message);
    }
  schedule_notify_locked (self);
}

static void
set_progress (SlProfileLoader *self, double fraction, const char *message)
{
  g_mutex_lock (&self->lock);
  set_progress_locked (self, fraction, message);
  g_mutex_unlock (&self->lock);
}

/* The loader's own phases fill the bar; a prepare phase keeps its end.
 * After a staged load's GPU stage the bar starts again for the CPU side:
 * the rows still to read, under a name that says what they are.  One lock
 * around it all, so that no report of the GPU stage lands after the CPU
 * side's first. */
static void
load_progress_cb (double fraction, const char *phase, gpointer data)
{
  SlProfileLoader *self = data;

  g_mutex_lock (&self->lock);
  self->raw_fraction = fraction;
  if (self->cpu_stage)
    {
      double base = self->cpu_base;

      fraction = base < 1.0 ? MAX (fraction - base, 0.0) / (1.0 - base) : 1.0;
      if (g_strcmp0 (phase, _("Reading events")) == 0)
        phase = _("Reading CUDA API calls and NVTX ranges");
    }
  set_progress_locked (self, self->prepare != NULL ? fraction * 0.95 : fraction, phase);
  g_mutex_unlock (&self->lock);
}

/* ---- the GPU stage of a staged load ------------------------------------------ */

/* Main context: emits the pending GPU stage, if any, once. */
static void
flush_gpu_stage (SlProfileLoader *self)
{
  SlProfile *profile;
  gpointer prepared;

  g_mutex_lock (&self->lock);
  profile = g_steal_pointer (&self->gpu_profile);
  prepared = g_steal_pointer (&self->gpu_prepared);
  g_mutex_unlock (&self->lock);
  if (profile == NULL)
    return;
  if (!g_cancellable_is_cancelled (self->cancellable))
    g_signal_emit (self, signals[GPU_READY], 0, profile, prepared);
  if (prepared != NULL && self->prepare_result_free != NULL)
    self->prepare_result_free (prepared);
  sl_profile_unref (profile);
}

/* SL_LOADER_TEST_CPU_GATE=PATH, for tests only: the CPU side of a staged
 * load waits (in the worker) until PATH exists, so that a test sees the
 * GPU stage for as long as it needs, without timing anything. */
static void
hold_cpu_side_for_tests (SlProfileLoader *self)
{
  const char *gate = g_getenv ("SL_LOADER_TEST_CPU_GATE");

  while (gate != NULL && !g_file_test (gate, G_FILE_TEST_EXISTS) && !g_cancellable_is_cancelled (self->cancellable))
    g_usleep (20 * 1000);
}

/* A loading worker: the GPU tables are in.  The stage goes out with the
 * next progress notification, which this one schedules. */
static void
gpu_ready_cb (SlProfile *gpu_profile, gpointer data)
{
  SlProfileLoader *self = data;
  gpointer prepared = NULL;

  if (self->prepare != NULL)
    {
      set_progress (self, sl_profile_loader_get_fraction (self), self->prepare_message);
      prepared = self->prepare (gpu_profile, self->cancellable, self->prepare_data);
      if (prepared == NULL)
        return;   /* cancelled: the load ends so too */
    }
  g_mutex_lock (&self->lock);
  self->gpu_profile = sl_profile_ref (gpu_profile);
  self->gpu_prepared = prepared;
  self->cpu_stage = TRUE;
  self->cpu_base = self->raw_fraction;
  set_progress_locked (self, 0.0, _("Reading CUDA API calls and NVTX ranges"));
  g_mutex_unlock (&self->lock);
  hold_cpu_side_for_tests (self);
}

/* ---- the worker ---------------------------------------------------------- */

static void
load_result_free (LoadResult *result)
{
  g_clear_pointer (&result->profile, sl_profile_unref);
  if (result->prepared != NULL && result->prepared_free != NULL)
    result->prepared_free (result->prepared);
  g_free (result);
}

static gboolean
run_prepare (SlProfileLoader *self, LoadResult *result, GCancellable *cancellable, GError **error)
{
  set_progress (self, 0.95, self->prepare_message);
  result->prepared = self->prepare (result->profile, cancellable, self->prepare_data);
  result->prepared_free = self->prepare_result_free;
  if (result->prepared == NULL)
    {
      g_set_error (error, SL_PROFILE_ERROR, SL_PROFILE_ERROR_CANCELLED,
                   _("Opening “%s” was cancelled."), self->path);
      return FALSE;
    }
  return TRUE;
}

static gpointer
load_thread (gpointer data)
{
  g_autoptr(GTask) task = data;
  SlProfileLoader *self = g_task_get_source_object (task);
  GCancellable *cancellable = g_task_get_cancellable (task);
  LoadResult *result = g_new0 (LoadResult, 1);
  GError *error = NULL;
  SlLoadOptions options = { .threads = self->threads };

  if (self->staged)
    {
      options.gpu_ready = gpu_ready_cb;
      options.gpu_ready_data = self;
    }
  setpriority (PRIO_PROCESS, (id_t) syscall (SYS_gettid), WORKER_NICE);
  result->profile = sl_profile_load_with (self->path, &options, cancellable, load_progress_cb, self, &error);
  if (result->profile != NULL && (self->prepare == NULL || run_prepare (self, result, cancellable, &error)))
    {
      set_progress (self, 1.0, _("Done"));
      g_task_return_pointer (task, result, (GDestroyNotify) load_result_free);
    }
  else
    {
      load_result_free (result);
      g_task_return_error (task, error);
    }
  return NULL;
}

void
sl_profile_loader_load_async (SlProfileLoader     *self,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (SL_IS_PROFILE_LOADER (self));
  g_return_if_fail (!self->started);

  self->started = TRUE;
  self->context = g_main_context_ref_thread_default ();
  self->cancellable = cancellable != NULL ? g_object_ref (cancellable) : g_cancellable_new ();
  task = g_task_new (self, self->cancellable, callback, user_data);
  g_task_set_source_tag (task, sl_profile_loader_load_async);
  g_task_set_name (task, "sightline-load");
  /* The worker says how it ended: a cancelled load is SL_PROFILE_ERROR_CANCELLED. */
  g_task_set_check_cancellable (task, FALSE);
  set_progress (self, 0.0, _("Opening"));
  g_thread_unref (g_thread_new ("sl-profile-loader", load_thread, task));
}

SlProfile *
sl_profile_loader_load_finish (SlProfileLoader  *self,
                               GAsyncResult     *result,
                               gpointer         *prepared,
                               GError          **error)
{
  LoadResult *loaded;
  SlProfile *profile;

  g_return_val_if_fail (SL_IS_PROFILE_LOADER (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  if (prepared != NULL)
    *prepared = NULL;
  /* the GPU stage and the last progress come first, even when their
   * notification has not run yet */
  flush_gpu_stage (self);
  flush_progress (self);
  loaded = g_task_propagate_pointer (G_TASK (result), error);
  if (loaded == NULL)
    return NULL;
  profile = g_steal_pointer (&loaded->profile);
  if (prepared != NULL)
    *prepared = g_steal_pointer (&loaded->prepared);
  load_result_free (loaded);
  return profile;
}

/* ---- properties ---------------------------------------------------------- */

SlProfileLoader *
sl_profile_loader_new (const char *path)
{
  g_return_val_if_fail (path != NULL, NULL);
  return g_object_new (SL_TYPE_PROFILE_LOADER, "path", path, NULL);
}

const char *
sl_profile_loader_get_path (SlProfileLoader *self)
{
  g_return_val_if_fail (SL_IS_PROFILE_LOADER (self), NULL);
  return self->path;
}

double
sl_profile_loader_get_fraction (SlProfileLoader *self)
{
  double fraction;

  g_return_val_if_fail (SL_IS_PROFILE_LOADER (self), 0.0);
  g_mutex_lock (&self->lock);
  fraction = self->fraction;
  g_mutex_unlock (&self->lock);
  return fraction;
}

const char *
sl_profile_loader_get_message (SlProfileLoader *self)
{
  const char *message;

  g_return_val_if_fail (SL_IS_PROFILE_LOADER (self), NULL);
  /* The worker replaces the string only when the phase changes, and only
   * the owning thread reads it; interning keeps the pointer valid. */
  g_mutex_lock (&self->lock);
  message = g_intern_string (self->message);
  g_mutex_unlock (&self->lock);
  return message;
}

void
sl_profile_loader_set_prepare (SlProfileLoader      *self,
                               const char           *message,
                               SlProfilePrepareFunc  func,
                               gpointer              user_data,
                               GDestroyNotify        result_free)
{
  g_return_if_fail (SL_IS_PROFILE_LOADER (self));
  g_return_if_fail (!self->started);

  g_free (self->prepare_message);
  self->prepare_message = g_strdup (message);
  self->prepare = func;
  self->prepare_data = user_data;
  self->prepare_result_free = result_free;
}

void
sl_profile_loader_set_staged (SlProfileLoader *self,
                              gboolean         staged)
{
  g_return_if_fail (SL_IS_PROFILE_LOADER (self));
  g_return_if_fail (!self->started);

  if (self->staged == !!staged)
    return;
  self->staged = !!staged;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STAGED]);
}

void
sl_profile_loader_set_threads (SlProfileLoader *self, guint threads)
{
  g_return_if_fail (SL_IS_PROFILE_LOADER (self));
  g_return_if_fail (!self->started);
  self->threads = threads;
}

gboolean
sl_profile_loader_get_staged (SlProfileLoader *self)
{
  g_return_val_if_fail (SL_IS_PROFILE_LOADER (self), FALSE);
  return self->staged;
}

static void
sl_profile_loader_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  SlProfileLoader *self = SL_PROFILE_LOADER (object);

  switch (prop_id)
    {
    case PROP_PATH:
      g_value_set_string (value, self->path);
      break;
    case PROP_FRACTION:
      g_value_set_double (value, sl_profile_loader_get_fraction (self));
      break;
    case PROP_MESSAGE:
      g_value_set_string (value, sl_profile_loader_get_message (self));
      break;
    case PROP_STAGED:
      g_value_set_boolean (value, self->staged);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_profile_loader_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  SlProfileLoader *self = SL_PROFILE_LOADER (object);

  switch (prop_id)
    {
    case PROP_PATH:
      self->path = g_value_dup_string (value);
      break;
    case PROP_STAGED:
      sl_profile_loader_set_staged (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_profile_loader_finalize (GObject *object)
{
  SlProfileLoader *self = SL_PROFILE_LOADER (object);

  /* A pending notification holds a reference, so none is left here; a GPU
   * stage never emitted (the caller dropped the load) is freed. */
  if (self->gpu_prepared != NULL && self->prepare_result_free != NULL)
    self->prepare_result_free (self->gpu_prepared);
  g_clear_pointer (&self->gpu_profile, sl_profile_unref);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_free (self->path);
  g_free (self->message);
  g_free (self->prepare_message);
  g_mutex_clear (&self->lock);
  G_OBJECT_CLASS (sl_profile_loader_parent_class)->finalize (object);
}

static void
sl_profile_loader_class_init (SlProfileLoaderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sl_profile_loader_finalize;
  object_class->get_property = sl_profile_loader_get_property;
  object_class->set_property = sl_profile_loader_set_property;

  properties[PROP_PATH] =
    g_param_spec_string ("path", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_FRACTION] =
    g_param_spec_double ("fraction", NULL, NULL, 0.0, 1.0, 0.0,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_MESSAGE] =
    g_param_spec_string ("message", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_STAGED] =
    g_param_spec_boolean ("staged", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* see sl_profile_loader_set_staged() */
  signals[GPU_READY] = g_signal_new ("gpu-ready", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                     NULL, NULL, NULL, G_TYPE_NONE, 2,
                                     SL_TYPE_PROFILE | G_SIGNAL_TYPE_STATIC_SCOPE, G_TYPE_POINTER);
}

static void
sl_profile_loader_init (SlProfileLoader *self)
{
  g_mutex_init (&self->lock);
  self->message = g_strdup ("");
}
