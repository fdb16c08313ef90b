/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-profile-loader.c: an asynchronous load with progress properties.
 *
 * The worker is a thread of its own, not one of GTask's pool: it lowers its
 * own CPU priority, which Linux keeps per thread and hands on to the
 * threads it starts (the loader's second connection), and a pool thread
 * would keep that priority for whatever GIO runs on it next. */
#include "sl-profile-loader.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <glib/gi18n-lib.h>

/* Nice value of the loading threads: the main loop, at 0, wins a core
 * whenever it has a frame to draw. */
#define WORKER_NICE 8

struct _SlProfileLoader {
  GObject               parent_instance;

  char                 *path;

  /* progress, written by the worker, notified on the caller's context */
  GMutex                lock;
  double                fraction;
  char                 *message;
  GSource              *notify_source;
  GMainContext         *context;

  /* optional last phase in the worker */
  char                 *prepare_message;
  SlProfilePrepareFunc  prepare;
  gpointer              prepare_data;
  GDestroyNotify        prepare_result_free;

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
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (SlProfileLoader, sl_profile_loader, G_TYPE_OBJECT)

/* ---- progress ------------------------------------------------------------ */

static gboolean
notify_progress_cb (gpointer data)
{
  SlProfileLoader *self = data;

  g_mutex_lock (&self->lock);
  g_clear_pointer (&self->notify_source, g_source_unref);
  g_mutex_unlock (&self->lock);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FRACTION]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MESSAGE]);
  return G_SOURCE_REMOVE;
}

/* Any thread.  At most one notification is pending: a worker reporting
 * thousands of times a second never floods the main loop. */
static void
set_progress (SlProfileLoader *self, double fraction, const char *message)
{
  g_mutex_lock (&self->lock);
  self->fraction = CLAMP (fraction, 0.0, 1.0);
  if (g_strcmp0 (self->message, message) != 0)
    {
      g_free (self->message);
      self->message = g_strdup (message);
    }
  if (self->notify_source == NULL && self->context != NULL)
    {
      self->notify_source = g_idle_source_new ();
      g_source_set_priority (self->notify_source, G_PRIORITY_DEFAULT);
      g_source_set_callback (self->notify_source, notify_progress_cb, g_object_ref (self), g_object_unref);
      g_source_set_static_name (self->notify_source, "[sightline] load progress");
      g_source_attach (self->notify_source, self->context);
    }
  g_mutex_unlock (&self->lock);
}

/* The loader's own phases fill the bar; a prepare phase keeps its end. */
static void
load_progress_cb (double fraction, const char *phase, gpointer data)
{
  SlProfileLoader *self = data;

  set_progress (self, self->prepare != NULL ? fraction * 0.95 : fraction, phase);
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

  setpriority (PRIO_PROCESS, (id_t) syscall (SYS_gettid), WORKER_NICE);
  result->profile = sl_profile_load (self->path, cancellable, load_progress_cb, self, &error);
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
  task = g_task_new (self, cancellable, callback, user_data);
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
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_profile_loader_finalize (GObject *object)
{
  SlProfileLoader *self = SL_PROFILE_LOADER (object);

  /* A pending notification holds a reference, so none is left here. */
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
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
sl_profile_loader_init (SlProfileLoader *self)
{
  g_mutex_init (&self->lock);
  self->message = g_strdup ("");
}
