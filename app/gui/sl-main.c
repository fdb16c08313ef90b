/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-main.c: entry point of the sightline GUI. */
#include "sl-application.h"

#include <glib/gi18n.h>
#include <locale.h>

int
main (int   argc,
      char *argv[])
{
  g_autoptr(SlApplication) app = NULL;

  setlocale (LC_ALL, "");
  /* SIGHTLINE_LOCALEDIR: the build tree's catalogues (meson devenv, the GUI test),
     so translations can be seen without installing. */
  bindtextdomain (GETTEXT_PACKAGE, g_getenv ("SIGHTLINE_LOCALEDIR") ? g_getenv ("SIGHTLINE_LOCALEDIR") : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  app = sl_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
