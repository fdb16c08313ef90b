/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sl-table-scan.c: a read-only scanner of SQLite table b-trees.
 *
 * Why: sqlite3_step + sqlite3_column_int64 cost ~70 ns per value on the
 * wide activity tables, three times the budget of the loader.  The file
 * format is stable and documented (https://sqlite.org/fileformat2.html), so
 * the big tables' leaf pages are decoded here directly, with every offset
 * checked against the page; anything unusual (WITHOUT ROWID, generated
 * columns, defaults on added columns) falls back to a plain statement.
 * Pages are read with pread, never mapped, so that a file truncated under
 * our feet gives an error instead of SIGBUS and the page cache does not
 * count as our memory. */
#include "sl-table-scan.h"
#include "sl-value.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <gio/gio.h>

#define COL_ROWID   (-1)
#define COL_MISSING (-2)
#define MAX_DEPTH   40
#define RUN_PAGES   256      /* pages read per pread when leaves are contiguous */
#define MAX_COLUMNS 64
#define MAX_ROW_BYTES (G_GUINT64_CONSTANT (256) << 20)
#define READ_PAD    8        /* readable bytes past any payload, see decode_int() */
#define SHAPE_KEY_MAX 32     /* header bytes a cached record shape compares */
#define N_SHAPES    8        /* record shapes a scan remembers */

/* What a table scan reads and how: decided once per table, then shared by
 * the scans of its parts (ranges of leaf pages read by different threads). */
struct _SlScanPlan {
  guint         n_columns;
  gboolean      direct;
  char         *table;
  char        **columns;

  /* direct: the b-tree's leaves in key order */
  int           fd;              /* the loader's; not closed here */
  guint32       page_size;
  guint32       usable;
  guint32       page_count;
  guint32      *leaves;
  guint         n_leaves;
  int           error;           /* a damaged tree, reported by the first next() */
  int           record_col[MAX_COLUMNS];
  gboolean      real_affinity[MAX_COLUMNS]; /* per requested column */
  int           max_col;

  /* SQLite: the statement, or why SQLite cannot describe the table */
  char         *select_sql;
  char         *schema_error;
};

/* A record header: the types of the columns through the last one wanted
 * and where their values start; and how each wanted column reads from it.
 * Rows whose headers start with the same bytes (key) share all of it. */
typedef struct {
  guint8        key[SHAPE_KEY_MAX]; /* the header's bytes through the last type read */
  guint         key_len;            /* 0: not to be matched (a longer header) */
  guint64       head, head_mask;    /* its first 8 bytes (fewer when shorter), compared first */
  /* the key as words with their masks (the last word's bytes past the key
   * masked off), compared word by word: memcmp's call for the 9-32 bytes of a
   * kernel row's header was a twentieth of loading */
  guint         n_key_words;
  guint64       key_word[SHAPE_KEY_MAX / 8], key_mask[SHAPE_KEY_MAX / 8];
  guint64       body_end;           /* payload bytes the values read need */
  gboolean      whole;              /* all types read: the payload is exactly that long */
  int           n_types;
  guint64       types[MAX_COLUMNS];
  guint64       offsets[MAX_COLUMNS];
  guint8        kind[MAX_COLUMNS];  /* per wanted column, READ_* */
  guint8        shift[MAX_COLUMNS];
  guint32       value_at[MAX_COLUMNS];
} RowShape;

struct _SlTableScan {
  guint         n_columns;
  int           error;

  /* fallback: an ordinary statement */
  sqlite3_stmt *stmt;

  /* direct: b-tree leaves of the table in key order (a slice of the plan's) */
  int           fd;
  guint32       page_size;
  guint32       usable;
  guint32       page_count;
  const guint32 *leaves;
  guint32      *owned_leaves;    /* a whole-table scan's, else the plan's */
  guint         n_leaves;
  guint         next_leaf;       /* next leaf to load into buf */
  guint8       *buf;             /* RUN_PAGES pages */
  guint         buf_pages;       /* pages in buf */
  guint         buf_page;        /* current page within buf */
  guint         cell;            /* next cell of the current page */
  guint         n_cells;
  int           record_col[MAX_COLUMNS];
  gboolean      real_affinity[MAX_COLUMNS];
  int           max_col;
  GByteArray   *overflow;

  /* the current row, for _sl_table_scan_text() */
  const guint8 *row_payload;
  const RowShape *shape;         /* its record header */
  char          number_text[40];  /* a number read as text */

  /* Record headers decoded lately: rows of a table have few shapes. */
  RowShape      shapes[N_SHAPES];
  guint         next_shape;      /* the slot the next new shape takes */
};

/* ---- helpers ---------------------------------------------------------------- */

static inline guint32
be16 (const guint8 *p)
{
  return ((guint32) p[0] << 8) | p[1];
}

static inline guint32
be32 (const guint8 *p)
{
  return ((guint32) p[0] << 24) | ((guint32) p[1] << 16) | ((guint32) p[2] << 8) | p[3];
}

/* Reads a varint at p (< end). Returns bytes used, 0 if it runs off end. */
static inline guint
read_varint (const guint8 *p, const guint8 *end, guint64 *out)
{
  guint64 v = 0;

  /* Serial types of numbers and small lengths fit in one byte. */
  if (G_LIKELY (p < end && p[0] < 0x80))
    {
      *out = p[0];
      return 1;
    }

  for (guint i = 0; i < 8; i++)
    {
      if (p + i >= end)
        return 0;
      v = (v << 7) | (p[i] & 0x7f);
      if ((p[i] & 0x80) == 0)
        {
          *out = v;
          return i + 1;
        }
    }
  if (p + 8 >= end)
    return 0;
  *out = (v << 8) | p[8];
  return 9;
}

/* Reads @count pages from @pgno; FALSE with *@error set when the file
 * ends early (SQLITE_CORRUPT) or the read fails. */
static gboolean
read_pages (int fd, guint32 page_size, guint32 pgno, guint8 *into, guint count, int *error)
{
  gsize want = (gsize) page_size * count;
  off_t offset = (off_t) (pgno - 1) * page_size;
  gsize done = 0;

  while (done < want)
    {
      ssize_t got = pread (fd, into + done, want - done, offset + (off_t) done);
      if (got < 0 && errno == EINTR)
        continue;
      if (got <= 0)
        {
          *error = got == 0 ? SQLITE_CORRUPT : SQLITE_IOERR;
          return FALSE;
        }
      done += (gsize) got;
    }
  return TRUE;
}

static gboolean
read_page (SlTableScan *scan, guint32 pgno, guint8 *into, guint count)
{
  return read_pages (scan->fd, scan->page_size, pgno, into, count, &scan->error);
}

/* ---- schema checks ------------------------------------------------------------ */

/* One column as SQLite describes it (PRAGMA table_xinfo). */
typedef struct {
  char    *name;          /* as declared: SQL finds it in any case */
  int      cid;           /* its place in the record */
  gboolean real_affinity; /* integers stored for REALs read back as REAL */
  gboolean has_default;   /* rows older than ALTER TABLE ADD COLUMN read it */
  gboolean hidden;        /* generated (not in the record) or virtual */
  gboolean pk;
  gboolean declared_integer;
} ColumnInfo;

/* A table as SQLite describes it: the page reader reads only plain rowid
 * tables whose every column it can place, everything else goes to SQLite. */
typedef struct {
  gboolean  found;
  gboolean  has_rowid;     /* a table, not a view, not WITHOUT ROWID */
  guint32   root;
  int       rowid_alias;   /* cid of the INTEGER PRIMARY KEY, or -1 */
  GArray   *columns;       /* ColumnInfo */
} TableInfo;

static void
column_info_clear (gpointer data)
{
  g_free (((ColumnInfo *) data)->name);
}

/* SQLite's affinity rule (sqlite3AffinityType): only REAL matters here. */
static gboolean
type_is_real (const char *type)
{
  g_autofree char *up = g_ascii_strup (type != NULL ? type : "", -1);

  if (strstr (up, "INT") != NULL || strstr (up, "CHAR") != NULL || strstr (up, "CLOB") != NULL ||
      strstr (up, "TEXT") != NULL || strstr (up, "BLOB") != NULL || *up == '\0')
    return FALSE;
  return strstr (up, "REAL") != NULL || strstr (up, "FLOA") != NULL || strstr (up, "DOUB") != NULL;
}

/* Kind and WITHOUT ROWID from PRAGMA table_list, the root page from the
 * schema; names compare as SQLite compares them, in any ASCII case. */
static gboolean
read_table_kind (sqlite3 *db, const char *table, TableInfo *info)
{
  sqlite3_stmt *stmt = NULL;
  sqlite3_int64 root = 0;

  if (sqlite3_prepare_v2 (db, "SELECT l.type, l.wr, s.rootpage FROM pragma_table_list AS l "
                              "LEFT JOIN sqlite_master AS s ON s.type = 'table' AND s.name = l.name COLLATE NOCASE "
                              "WHERE l.schema = 'main' AND l.name = ?1 COLLATE NOCASE", -1, &stmt, NULL) != SQLITE_OK)
    {
      sqlite3_finalize (stmt);
      return FALSE;
    }
  sqlite3_bind_text (stmt, 1, table, -1, SQLITE_STATIC);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    {
      const char *type = (const char *) sqlite3_column_text (stmt, 0);
      info->found = TRUE;
      info->has_rowid = g_strcmp0 (type, "table") == 0 && sqlite3_column_int (stmt, 1) == 0;
      root = sqlite3_column_int64 (stmt, 2);
    }
  sqlite3_finalize (stmt);
  info->root = root > 1 && root <= G_MAXUINT32 ? (guint32) root : 0;
  return TRUE;
}

static gboolean
read_columns (sqlite3 *db, const char *table, TableInfo *info)
{
  sqlite3_stmt *stmt = NULL;

  if (sqlite3_prepare_v2 (db, "SELECT cid, name, type, pk, hidden, dflt_value FROM pragma_table_xinfo(?1)",
                          -1, &stmt, NULL) != SQLITE_OK)
    {
      sqlite3_finalize (stmt);
      return FALSE;
    }
  sqlite3_bind_text (stmt, 1, table, -1, SQLITE_STATIC);
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      const char *type = (const char *) sqlite3_column_text (stmt, 2);
      ColumnInfo column = {
        .name = g_strdup ((const char *) sqlite3_column_text (stmt, 1)),
        .cid = sqlite3_column_int (stmt, 0),
        .real_affinity = type_is_real (type),
        .has_default = sqlite3_column_type (stmt, 5) != SQLITE_NULL,
        .hidden = sqlite3_column_int (stmt, 4) != 0,
        .pk = sqlite3_column_int (stmt, 3) != 0,
        .declared_integer = type != NULL && g_ascii_strcasecmp (type, "INTEGER") == 0,
      };
      if (column.name != NULL)
        g_array_append_val (info->columns, column);
    }
  sqlite3_finalize (stmt);
  return TRUE;
}

/* Whether SQLite made the primary key an index of its own: then it is no
 * rowid alias, even declared INTEGER PRIMARY KEY (the DESC case). */
static gboolean
has_pk_index (sqlite3 *db, const char *table)
{
  sqlite3_stmt *stmt = NULL;
  gboolean found = FALSE;

  if (sqlite3_prepare_v2 (db, "SELECT 1 FROM pragma_index_list(?1) WHERE origin = 'pk'", -1, &stmt, NULL) == SQLITE_OK)
    {
      sqlite3_bind_text (stmt, 1, table, -1, SQLITE_STATIC);
      found = sqlite3_step (stmt) == SQLITE_ROW;
    }
  sqlite3_finalize (stmt);
  return found;
}

/* The rowid alias: the one primary-key column of a rowid table, declared
 * exactly INTEGER, with no index of its own (https://sqlite.org/lang_createtable.html#rowid). */
static int
find_rowid_alias (sqlite3 *db, const char *table, const TableInfo *info)
{
  int alias = -1, pks = 0;

  for (guint i = 0; i < info->columns->len; i++)
    {
      const ColumnInfo *c = &g_array_index (info->columns, ColumnInfo, i);
      if (c->pk)
        {
          pks++;
          alias = c->declared_integer ? c->cid : -1;
        }
    }
  if (!info->has_rowid || pks != 1 || alias < 0 || has_pk_index (db, table))
    return -1;
  return alias;
}

static gboolean
table_info_read (sqlite3 *db, const char *table, TableInfo *info)
{
  info->columns = g_array_new (FALSE, TRUE, sizeof (ColumnInfo));
  g_array_set_clear_func (info->columns, column_info_clear);
  info->rowid_alias = -1;
  if (!read_table_kind (db, table, info) || !read_columns (db, table, info))
    return FALSE;
  info->rowid_alias = find_rowid_alias (db, table, info);
  return TRUE;
}

static void
table_info_clear (TableInfo *info)
{
  g_clear_pointer (&info->columns, g_array_unref);
}

static const ColumnInfo *
find_column (const TableInfo *info, const char *name)
{
  for (guint i = 0; i < info->columns->len; i++)
    if (g_ascii_strcasecmp (g_array_index (info->columns, ColumnInfo, i).name, name) == 0)
      return &g_array_index (info->columns, ColumnInfo, i);
  return NULL;
}

/* Why the page reader cannot read this table at all, or NULL. */
static const char *
table_unsupported (sqlite3 *db, const TableInfo *info)
{
  sqlite3_stmt *stmt = NULL;
  gboolean utf8 = FALSE;

  if (!info->has_rowid)
    return "it is a view, a virtual table or a WITHOUT ROWID table";
  if (info->root == 0)
    return "its root page is not a page of the file";
  for (guint i = 0; i < info->columns->len; i++)
    if (g_array_index (info->columns, ColumnInfo, i).hidden)
      return "it has generated or hidden columns, which are not stored in the record";
  /* Text is returned as stored: only UTF-8 databases (what nsys writes)
   * are read directly; SQLite converts the others. */
  if (sqlite3_prepare_v2 (db, "PRAGMA encoding", -1, &stmt, NULL) == SQLITE_OK && sqlite3_step (stmt) == SQLITE_ROW)
    utf8 = g_strcmp0 ((const char *) sqlite3_column_text (stmt, 0), "UTF-8") == 0;
  sqlite3_finalize (stmt);
  return utf8 ? NULL : "the database's text is not UTF-8";
}

/* Where requested column @name is: COL_ROWID, COL_MISSING or its place in
 * the record; *@reason says why the page reader cannot read it. */
static int
locate_column (const TableInfo *info, const char *name, gboolean *real_affinity, const char **reason)
{
  const ColumnInfo *c = find_column (info, name);

  *real_affinity = c != NULL && c->real_affinity;
  /* "rowid" names a real column when the table declares one. */
  if (c == NULL && g_ascii_strcasecmp (name, "rowid") == 0)
    return info->has_rowid ? COL_ROWID : COL_MISSING;
  if (c == NULL)
    return COL_MISSING;
  if (c->cid == info->rowid_alias)
    return COL_ROWID;
  if (c->has_default)
    *reason = "a column added with a DEFAULT reads its default in older rows";
  else if (c->cid >= MAX_COLUMNS)
    *reason = "a column lies beyond the record slots it decodes";
  return c->cid;
}

/* ---- leaf collection ------------------------------------------------------------- */

/* Marks page @pgno visited; FALSE when it is out of the file, too deep, or
 * seen before (damaged files can contain cycles). */
static gboolean
visit_page (const SlScanPlan *plan, guint8 *visited, guint32 pgno, guint depth)
{
  if (pgno < 1 || pgno > plan->page_count || depth > MAX_DEPTH || (visited[pgno / 8] & (1u << (pgno % 8))))
    return FALSE;
  visited[pgno / 8] |= 1u << (pgno % 8);
  return TRUE;
}

/* The child pages of an interior page, left to right; FALSE when its
 * cell pointers leave the page. */
static gboolean
interior_children (const SlScanPlan *plan, const guint8 *page, guint hdr, GArray *children)
{
  guint n_cells = be16 (page + hdr + 3);
  guint ptrs = hdr + 12;

  if (ptrs + 2 * n_cells > plan->usable)
    return FALSE;
  g_array_set_size (children, 0);
  for (guint c = 0; c < n_cells; c++)
    {
      guint off = be16 (page + ptrs + 2 * c);
      if (off < ptrs + 2 * n_cells || off + 4 > plan->usable)
        return FALSE;
      guint32 child = be32 (page + off);
      g_array_append_val (children, child);
    }
  guint32 right = be32 (page + hdr + 8);
  g_array_append_val (children, right);
  return TRUE;
}

/* Pushed in reverse so that the leftmost child is visited first. */
static void
push_children (GArray *stack, const GArray *children, guint depth)
{
  for (guint c = children->len; c > 0; c--)
    {
      guint64 next = ((guint64) depth << 32) | g_array_index (children, guint32, c - 1);
      g_array_append_val (stack, next);
    }
}

/* The depth of the b-tree's leaves below @root (0: the root is a leaf),
 * found down its leftmost path; -1 when a page there is not a table
 * b-tree page or cannot be read. */
static int
leaf_depth (SlScanPlan *plan, guint32 root, guint8 *page, GArray *children)
{
  guint32 pgno = root;

  for (int depth = 0; depth <= MAX_DEPTH; depth++)
    {
      guint hdr = pgno == 1 ? 100 : 0;
      if (pgno < 1 || pgno > plan->page_count || !read_pages (plan->fd, plan->page_size, pgno, page, 1, &plan->error))
        return -1;
      if (page[hdr] == 0x0D)
        return depth;
      if (page[hdr] != 0x05 || !interior_children (plan, page, hdr, children))
        return -1;
      pgno = g_array_index (children, guint32, 0);
    }
  return -1;
}

/* Walks the b-tree from @root in key order and lists its leaf pages.
 * Every interior page is read and checked by visit_page(); the leaves are
 * not read here: an SQLite b-tree keeps all its leaves at one depth, so the
 * children of the pages just above it are listed as they are, and the
 * scan refuses any of them that is not a leaf page (a damaged file). */
static gboolean
collect_leaves (SlScanPlan *plan, guint32 root)
{
  g_autoptr(GArray) leaves = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint64)); /* depth << 32 | page */
  g_autofree guint8 *visited = g_new0 (guint8, plan->page_count / 8 + 1);
  g_autofree guint8 *page = g_malloc (plan->page_size);
  g_autoptr(GArray) children = g_array_new (FALSE, FALSE, sizeof (guint32));
  int leaves_at = leaf_depth (plan, root, page, children);
  guint64 first = root;

  if (plan->error != SQLITE_OK)
    return FALSE;
  if (leaves_at < 0)
    goto corrupt;
  g_array_append_val (stack, first);
  while (stack->len > 0)
    {
      guint64 entry = g_array_index (stack, guint64, stack->len - 1);
      guint32 pgno = (guint32) entry;
      guint depth = (guint) (entry >> 32);
      guint hdr = pgno == 1 ? 100 : 0;

      g_array_set_size (stack, stack->len - 1);
      if (!visit_page (plan, visited, pgno, depth))
        goto corrupt;
      if ((int) depth == leaves_at)
        {
          g_array_append_val (leaves, pgno);   /* the root alone */
          continue;
        }
      if (!read_pages (plan->fd, plan->page_size, pgno, page, 1, &plan->error))
        return FALSE;
      if (page[hdr] != 0x05 || !interior_children (plan, page, hdr, children))
        goto corrupt;
      if ((int) depth + 1 < leaves_at)
        {
          push_children (stack, children, depth + 1);
          continue;
        }
      for (guint c = 0; c < children->len; c++)
        {
          guint32 leaf = g_array_index (children, guint32, c);
          if (!visit_page (plan, visited, leaf, depth + 1))
            goto corrupt;
          g_array_append_val (leaves, leaf);
        }
    }
  plan->n_leaves = leaves->len;
  plan->leaves = (guint32 *) g_array_free (g_steal_pointer (&leaves), FALSE);
  return TRUE;

corrupt:
  plan->error = SQLITE_CORRUPT;
  return FALSE;
}

/* Reads the file's geometry; FALSE when the page reader cannot read this
 * database (then SQLite does). */
static gboolean
plan_direct (SlScanPlan *plan, guint32 root)
{
  guint8 header[100];
  struct stat st;

  if (fstat (plan->fd, &st) != 0 || pread (plan->fd, header, sizeof header, 0) != sizeof header)
    return FALSE;
  plan->page_size = be16 (header + 16);
  if (plan->page_size == 1)
    plan->page_size = 65536;
  if (plan->page_size < 512 || (plan->page_size & (plan->page_size - 1)) != 0)
    return FALSE;
  plan->usable = plan->page_size - header[20];
  if (plan->usable < 480)
    return FALSE;
  /* Text is returned as stored: only UTF-8 databases (what nsys writes)
   * are read directly; SQLite converts the others. */
  if (be32 (header + 56) != 1)
    return FALSE;
  /* Pages actually present in the file bound every page number. */
  guint64 pages = (guint64) st.st_size / plan->page_size;
  plan->page_count = (guint32) MIN (pages, (guint64) G_MAXUINT32 - 1);
  if (root > plan->page_count)
    plan->error = SQLITE_CORRUPT;
  else
    collect_leaves (plan, root); /* an error is reported by the first next() */
  return TRUE;
}

/* @name as an SQL identifier: quoted, its quotes doubled. */
static void
append_identifier (GString *sql, const char *name)
{
  g_string_append_c (sql, '"');
  for (const char *p = name; *p != '\0'; p++)
    {
      if (*p == '"')
        g_string_append_c (sql, '"');
      g_string_append_c (sql, *p);
    }
  g_string_append_c (sql, '"');
}

/* SQLite's statement for the same columns as the page reader would read:
 * a column the table lacks, or the rowid of a table without one, reads
 * NULL. */
static char *
build_select (const SlScanPlan *plan, const TableInfo *info)
{
  GString *sql = g_string_new ("SELECT ");

  for (guint i = 0; i < plan->n_columns; i++)
    {
      const ColumnInfo *c = find_column (info, plan->columns[i]);
      if (c != NULL)
        append_identifier (sql, c->name);
      else
        g_string_append (sql, g_ascii_strcasecmp (plan->columns[i], "rowid") == 0 && info->has_rowid ? "rowid" : "NULL");
      g_string_append (sql, i + 1 < plan->n_columns ? ", " : " FROM ");
    }
  append_identifier (sql, plan->table);
  return g_string_free (sql, FALSE);
}

/* Places every requested column in the record; the reason the page reader
 * cannot read one of them, or NULL. */
static const char *
locate_columns (SlScanPlan *plan, const TableInfo *info)
{
  const char *reason = NULL;

  for (guint i = 0; i < plan->n_columns; i++)
    {
      gboolean real_affinity;
      int index = locate_column (info, plan->columns[i], &real_affinity, &reason);
      plan->record_col[i] = index;
      plan->real_affinity[i] = real_affinity;
      plan->max_col = MAX (plan->max_col, index);
    }
  return reason;
}

/* Why the page reader does not read the table, or NULL when it can. */
static const char *
direct_unsupported (SlScanPlan *plan, sqlite3 *db, const TableInfo *info)
{
  if (plan->n_columns > MAX_COLUMNS)
    return "too many columns are read";
  if (!info->found)
    return "SQLite does not list it";
  const char *reason = table_unsupported (db, info);
  return reason != NULL ? reason : locate_columns (plan, info);
}

/* Decides how the table is read: SQLite describes it (sl-value.h and
 * table_info_read()), the page reader takes what it supports and says in
 * a debug message why it leaves the rest to SQLite. */
static void
plan_reading (SlScanPlan *plan, sqlite3 *db)
{
  gboolean sqlite_only = g_getenv ("SL_LOADER_SQLITE_ONLY") != NULL;
  TableInfo info = { 0 };
  const char *reason;

  if (!table_info_read (db, plan->table, &info))
    {
      plan->schema_error = g_strdup (sqlite3_errmsg (db));
      table_info_clear (&info);
      return;
    }
  plan->select_sql = build_select (plan, &info);
  reason = direct_unsupported (plan, db, &info);
  plan->direct = !sqlite_only && reason == NULL && plan_direct (plan, info.root);
  if (!plan->direct && !sqlite_only)
    g_debug ("page reader: %s: %s; SQLite reads it", plan->table,
             reason != NULL ? reason : "the file header is one it does not read (page size, reserved bytes, encoding)");
  table_info_clear (&info);
}

SlScanPlan *
_sl_scan_plan_new (sqlite3            *db,
                   int                 fd,
                   const char         *table,
                   const char *const  *columns,
                   guint               n_columns)
{
  SlScanPlan *plan = g_new0 (SlScanPlan, 1);

  plan->fd = fd;
  plan->n_columns = n_columns;
  plan->max_col = -1;
  plan->table = g_strdup (table);
  plan->columns = g_new0 (char *, n_columns + 1);
  for (guint i = 0; i < n_columns; i++)
    plan->columns[i] = g_strdup (columns[i]);
  plan_reading (plan, db);
  if (!plan->direct)
    {
      g_clear_pointer (&plan->leaves, g_free);
      plan->n_leaves = 0;
      plan->error = SQLITE_OK;
    }
  return plan;
}

guint
_sl_scan_plan_n_leaves (const SlScanPlan *plan)
{
  return plan->direct ? plan->n_leaves : 0;
}

void
_sl_scan_plan_free (SlScanPlan *plan)
{
  if (plan == NULL)
    return;
  g_free (plan->leaves);
  g_free (plan->table);
  g_strfreev (plan->columns);
  g_free (plan->select_sql);
  g_free (plan->schema_error);
  g_free (plan);
}

/* ---- the fallback ------------------------------------------------------------------- */

static gboolean
open_statement (SlTableScan *scan, sqlite3 *db, const SlScanPlan *plan, GError **error)
{
  int rc;

  if (plan->select_sql == NULL)
    {
      scan->error = SQLITE_ERROR;
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s", plan->schema_error);
      return FALSE;
    }
  rc = sqlite3_prepare_v2 (db, plan->select_sql, -1, &scan->stmt, NULL);
  if (rc != SQLITE_OK)
    {
      scan->error = rc;
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s", sqlite3_errmsg (db));
      return FALSE;
    }
  return TRUE;
}

/* Part @part of @n_parts of the plan's leaves, in key order. */
static void
open_direct_part (SlTableScan *scan, const SlScanPlan *plan, guint part, guint n_parts)
{
  guint first = (guint) ((guint64) plan->n_leaves * part / n_parts);
  guint end = (guint) ((guint64) plan->n_leaves * (part + 1) / n_parts);

  scan->fd = plan->fd;
  scan->error = plan->error;
  scan->page_size = plan->page_size;
  scan->usable = plan->usable;
  scan->page_count = plan->page_count;
  scan->leaves = plan->leaves != NULL ? plan->leaves + first : NULL;
  scan->n_leaves = end - first;
  scan->max_col = plan->max_col;
  memcpy (scan->record_col, plan->record_col, sizeof scan->record_col);
  memcpy (scan->real_affinity, plan->real_affinity, sizeof scan->real_affinity);
  scan->buf = g_malloc0 ((gsize) plan->page_size * RUN_PAGES + READ_PAD);
  scan->overflow = g_byte_array_new ();
}

SlTableScan *
_sl_scan_plan_open (const SlScanPlan *plan,
                    sqlite3          *db,
                    guint             part,
                    guint             n_parts,
                    GError          **error)
{
  SlTableScan *scan = g_new0 (SlTableScan, 1);

  g_return_val_if_fail (part < n_parts && (plan->direct || n_parts == 1), NULL);
  scan->fd = -1;
  scan->n_columns = plan->n_columns;
  if (plan->direct)
    {
      open_direct_part (scan, plan, part, n_parts);
      return scan;
    }
  if (!open_statement (scan, db, plan, error))
    {
      _sl_table_scan_free (scan);
      return NULL;
    }
  return scan;
}

SlTableScan *
_sl_table_scan_open (sqlite3            *db,
                     int                 fd,
                     const char         *table,
                     const char *const  *columns,
                     guint               n_columns,
                     GError            **error)
{
  SlScanPlan *plan = _sl_scan_plan_new (db, fd, table, columns, n_columns);
  SlTableScan *scan = _sl_scan_plan_open (plan, db, 0, 1, error);

  /* A whole-table scan owns its plan's leaves. */
  if (scan != NULL && plan->direct)
    scan->owned_leaves = g_steal_pointer (&plan->leaves);
  _sl_scan_plan_free (plan);
  return scan;
}

/* ---- reading rows ---------------------------------------------------------------- */

static gboolean
next_statement (SlTableScan *scan, gint64 *values, guint64 *nulls)
{
  int rc = sqlite3_step (scan->stmt);

  if (rc != SQLITE_ROW)
    {
      scan->error = rc == SQLITE_DONE ? SQLITE_OK : rc;
      return FALSE;
    }
  *nulls = 0;
  for (guint i = 0; i < scan->n_columns; i++)
    if (!_sl_value_column_int (scan->stmt, (int) i, &values[i]))
      {
        /* NULL, or a value that is no integer (sl-value.h). */
        values[i] = 0;
        *nulls |= G_GUINT64_CONSTANT (1) << i;
      }
  return TRUE;
}

/* Loads the next run of contiguous leaf pages into the buffer. */
static gboolean
load_run (SlTableScan *scan)
{
  guint first = scan->next_leaf, n = 1;

  if (first >= scan->n_leaves)
    return FALSE;
  while (first + n < scan->n_leaves && n < RUN_PAGES && scan->leaves[first + n] == scan->leaves[first + n - 1] + 1)
    n++;
  if (!read_page (scan, scan->leaves[first], scan->buf, n))
    return FALSE;
  scan->next_leaf = first + n;
  scan->buf_pages = n;
  scan->buf_page = 0;
  return TRUE;
}

/* The leaf page being read, and the offset of its header (page 1 starts
 * with the 100-byte file header). */
static inline const guint8 *
current_page (const SlTableScan *scan, guint *hdr)
{
  guint32 pgno = scan->leaves[scan->next_leaf - scan->buf_pages + scan->buf_page];

  *hdr = pgno == 1 ? 100 : 0;
  return scan->buf + (gsize) scan->buf_page * scan->page_size;
}

/* Moves to the next page that has cells; FALSE at the end or on error. */
static gboolean
next_page (SlTableScan *scan)
{
  for (;;)
    {
      if (scan->buf_pages > 0 && scan->buf_page + 1 < scan->buf_pages)
        scan->buf_page++;
      else if (!load_run (scan))
        return FALSE;
      guint hdr;
      const guint8 *page = current_page (scan, &hdr);
      if (page[hdr] != 0x0D)
        {
          scan->error = SQLITE_CORRUPT;
          return FALSE;
        }
      scan->n_cells = be16 (page + hdr + 3);
      scan->cell = 0;
      if (hdr + 8 + 2 * scan->n_cells > scan->usable)
        {
          scan->error = SQLITE_CORRUPT;
          return FALSE;
        }
      if (scan->n_cells > 0)
        return TRUE;
    }
}

/* Assembles a payload that spills onto overflow pages. */
static const guint8 *
gather_overflow (SlTableScan *scan, const guint8 *local, guint32 local_size, guint64 payload_size, guint32 first)
{
  g_autofree guint8 *page = NULL;
  guint32 pgno = first;
  guint pages = 0;

  /* Bounded by the file, and by what a row of an activity table can hold. */
  if (payload_size > (guint64) scan->page_count * scan->usable || payload_size > MAX_ROW_BYTES)
    return NULL;
  g_byte_array_set_size (scan->overflow, 0);
  g_byte_array_append (scan->overflow, local, local_size);
  page = g_malloc (scan->page_size);
  while (scan->overflow->len < payload_size)
    {
      if (pgno < 1 || pgno > scan->page_count || ++pages > scan->page_count || !read_page (scan, pgno, page, 1))
        return NULL;
      guint32 take = (guint32) MIN ((guint64) scan->usable - 4, payload_size - scan->overflow->len);
      g_byte_array_append (scan->overflow, page + 4, take);
      pgno = be32 (page);
    }
  /* Padding for decode_int()'s 8-byte loads; not part of the payload. */
  guint len = scan->overflow->len;
  g_byte_array_set_size (scan->overflow, len + READ_PAD);
  memset (scan->overflow->data + len, 0, READ_PAD);
  g_byte_array_set_size (scan->overflow, len);
  return scan->overflow->data;
}

/* Decodes an integer serial type (1-6: 1, 2, 3, 4, 6 or 8 bytes,
 * big-endian) as one 8-byte load shifted into place, which avoids a jump
 * table per value; every buffer holding payloads has READ_PAD readable
 * bytes past its end for this. */
static inline gint64
decode_int (guint64 type, const guint8 *p)
{
  static const guint8 shift[7] = { 0, 56, 48, 40, 32, 16, 0 };
  guint64 raw;

  memcpy (&raw, p, sizeof raw);
  /* Arithmetic shift: sign-extends the top bytes. */
  return (gint64) GUINT64_FROM_BE (raw) >> shift[type];
}

static inline double
decode_real (const guint8 *p)
{
  union { guint64 u; double d; } v = { .u = (guint64) be32 (p) << 32 | be32 (p + 4) };
  return v.d;
}

static inline guint64
serial_size (guint64 type)
{
  static const guint8 sizes[] = { 0, 1, 2, 3, 4, 6, 8, 8, 0, 0, 0, 0 };
  if (type < 12)
    return sizes[type];
  return (type - 12) / 2;
}

/* The cell's payload: in the page, or gathered from overflow pages.  A
 * table leaf keeps up to U-35 bytes locally.  NULL when damaged. */
static inline const guint8 *
cell_payload (SlTableScan *scan, const guint8 *p, const guint8 *end, guint64 payload_size)
{
  guint64 max_local = scan->usable - 35;

  if (G_LIKELY (payload_size <= max_local))
    return p + payload_size > end ? NULL : p;
  guint64 min_local = ((guint64) (scan->usable - 12) * 32 / 255) - 23;
  guint64 k = min_local + (payload_size - min_local) % (scan->usable - 4);
  guint64 local = k <= max_local ? k : min_local;
  if (p + local + 4 > end)
    return NULL;
  return gather_overflow (scan, p, (guint32) local, payload_size, be32 (p + local));
}

/* How a wanted column reads in a record shape. */
enum {
  READ_ROWID,
  READ_INT,       /* serial types 1-6: an 8-byte load shifted into place */
  READ_CONST,     /* serial types 8 and 9: 0 and 1 */
  READ_MISSING,   /* NULL, or a column the row is too short for */
  READ_OTHER,     /* REAL, text or BLOB: the value rule decides */
};

/* The shape's way to read each wanted column, from its types. */
static void
plan_shape (const SlTableScan *scan, RowShape *shape)
{
  static const guint8 shift[7] = { 0, 56, 48, 40, 32, 16, 0 };

  for (guint i = 0; i < scan->n_columns; i++)
    {
      int col = scan->record_col[i];
      guint64 type = col >= 0 && col < shape->n_types ? shape->types[col] : 0;
      guint8 kind = col == COL_ROWID ? READ_ROWID
                  : type - 1 < 6 ? READ_INT
                  : type == 8 || type == 9 ? READ_CONST
                  : type == 0 ? READ_MISSING : READ_OTHER;
      shape->kind[i] = kind;
      shape->shift[i] = kind == READ_INT ? shift[type] : (guint8) (type - 8);
      shape->value_at[i] = kind == READ_INT || kind == READ_OTHER ? (guint32) shape->offsets[col] : 0;
    }
}

/* Whether the record starts with @shape's bytes, so that its header size,
 * its types read and their offsets are the shape's; the length checks are
 * the ones a full decode would make. */
static inline gboolean
key_words_match (const RowShape *shape, const guint8 *payload)
{
  guint64 diff = 0;

  for (guint w = 1; w < shape->n_key_words; w++)
    {
      guint64 v;

      memcpy (&v, payload + 8 * w, sizeof v);
      diff |= (v & shape->key_mask[w]) ^ shape->key_word[w];
    }
  return diff == 0;
}

static inline gboolean
has_shape (const RowShape *shape, const guint8 *payload, guint64 payload_size)
{
  guint64 head;

  /* Payloads have READ_PAD readable bytes past their end, so the word
   * holding the key's last byte (at most 7 bytes past it) can be read. */
  memcpy (&head, payload, sizeof head);
  return shape->key_len > 0 && (head & shape->head_mask) == shape->head &&
         payload_size >= shape->body_end &&
         (!shape->whole || payload_size == shape->body_end) &&
         payload_size >= shape->key_len &&
         key_words_match (shape, payload);
}

/* @shape's key as masked words. */
static void
plan_key_words (RowShape *shape)
{
  shape->n_key_words = (shape->key_len + 7) / 8;
  for (guint w = 0; w < SHAPE_KEY_MAX / 8; w++)
    {
      guint bytes = shape->key_len > 8 * w ? MIN (shape->key_len - 8 * w, 8u) : 0;

      shape->key_mask[w] = 0;
      memset (&shape->key_mask[w], 0xff, bytes);
      memcpy (&shape->key_word[w], shape->key + 8 * w, sizeof shape->key_word[w]);
      shape->key_word[w] &= shape->key_mask[w];
    }
}

/* The remembered shape the record has, or NULL. */
static inline const RowShape *
find_shape (const SlTableScan *scan, const guint8 *payload, guint64 payload_size)
{
  if (G_LIKELY (scan->shape != NULL && has_shape (scan->shape, payload, payload_size)))
    return scan->shape;
  for (guint k = 0; k < N_SHAPES; k++)
    if (has_shape (&scan->shapes[k], payload, payload_size))
      return &scan->shapes[k];
  return NULL;
}

/* Decodes the types of the record's header into @shape, up to the last
 * column wanted.  FALSE when damaged. */
static gboolean
decode_shape (const SlTableScan *scan, RowShape *shape, const guint8 *payload, guint64 payload_size)
{
  guint64 header_size, body;
  guint n = read_varint (payload, payload + payload_size, &header_size);
  int n_types = 0;

  if (n == 0 || header_size > payload_size || header_size < n)
    return FALSE;
  const guint8 *h = payload + n;
  for (body = header_size; h < payload + header_size && n_types <= scan->max_col; n_types++)
    {
      guint64 type;
      guint used = read_varint (h, payload + header_size, &type);
      if (used == 0 || type == 10 || type == 11)
        return FALSE;
      h += used;
      shape->types[n_types] = type;
      shape->offsets[n_types] = body;
      /* body <= payload_size holds here, so this cannot wrap around. */
      if (serial_size (type) > payload_size - body)
        return FALSE;
      body += serial_size (type);
    }
  /* As SQLite checks once it has parsed the whole header: the values
   * fill the payload exactly. */
  if (h == payload + header_size && body != payload_size)
    return FALSE;
  shape->n_types = n_types;
  shape->body_end = body;
  shape->whole = h == payload + header_size;
  /* A longer header is used for this row and never matched. */
  shape->key_len = h - payload <= SHAPE_KEY_MAX ? (guint) (h - payload) : 0;
  memcpy (shape->key, payload, shape->key_len);
  plan_key_words (shape);
  shape->head_mask = shape->key_len >= 8 ? G_MAXUINT64 : 0;
  memset (&shape->head_mask, 0xff, MIN (shape->key_len, 8u));
  memcpy (&shape->head, payload, sizeof shape->head);
  shape->head &= shape->head_mask;
  plan_shape (scan, shape);
  return TRUE;
}

/* The record's header, from the shapes remembered or decoded into the
 * next slot.  FALSE when damaged. */
static inline gboolean
read_record_header (SlTableScan *scan, const guint8 *payload, guint64 payload_size)
{
  const RowShape *known = find_shape (scan, payload, payload_size);
  RowShape *slot;

  scan->row_payload = payload;
  if (G_LIKELY (known != NULL))
    {
      scan->shape = known;
      return TRUE;
    }
  slot = &scan->shapes[scan->next_shape];
  scan->shape = NULL;
  slot->key_len = 0;
  if (!decode_shape (scan, slot, payload, payload_size))
    return FALSE;
  scan->next_shape = (scan->next_shape + 1) % N_SHAPES;
  scan->shape = slot;
  return TRUE;
}

/* A value that is not a plain integer: a REAL, text or a BLOB, read by
 * the same rule as the SQLite statement (sl-value.h).  FALSE when it is
 * no integer. */
static G_GNUC_NO_INLINE gboolean
decode_other (guint64 type, const guint8 *p, gint64 *value)
{
  if (type == 7)
    return _sl_value_real_to_int (decode_real (p), value);
  if (type >= 13 && (type & 1) == 1)
    return _sl_value_text_to_int ((const char *) p, (gsize) serial_size (type), value);
  return FALSE; /* NULL, a BLOB, or reserved types */
}

/* Column @i of the row when its shape reads it as no plain integer. */
static G_GNUC_NO_INLINE gboolean
read_other (const SlTableScan *scan, guint i, gint64 *value)
{
  const RowShape *shape = scan->shape;

  if (shape->kind[i] == READ_MISSING)
    return FALSE;
  return decode_other (shape->types[scan->record_col[i]], scan->row_payload + shape->value_at[i], value);
}

/* The row's values from its decoded record, as its shape reads them. */
static inline void
record_values (const SlTableScan *scan, gint64 rowid, gint64 *values, guint64 *nulls)
{
  const RowShape *shape = scan->shape;
  const guint8 *payload = scan->row_payload;
  guint64 raw;

  *nulls = 0;
  for (guint i = 0; i < scan->n_columns; i++)
    switch (shape->kind[i])
      {
      case READ_INT:
        memcpy (&raw, payload + shape->value_at[i], sizeof raw);
        /* Arithmetic shift: sign-extends the top bytes. */
        values[i] = (gint64) GUINT64_FROM_BE (raw) >> shape->shift[i];
        break;
      case READ_ROWID:
        values[i] = rowid;
        break;
      case READ_CONST:
        values[i] = shape->shift[i];
        break;
      default:
        /* Missing (added later), NULL, or no integer. */
        if (!read_other (scan, i, &values[i]))
          {
            values[i] = 0;
            *nulls |= G_GUINT64_CONSTANT (1) << i;
          }
        break;
      }
}

/* Decodes the next cell of the current page: payload size, rowid, record. */
static gboolean
decode_cell (SlTableScan *scan, gint64 *values, guint64 *nulls)
{
  guint hdr;
  const guint8 *page = current_page (scan, &hdr);
  const guint8 *end = page + scan->usable;
  guint off = be16 (page + hdr + 8 + 2 * scan->cell);
  guint64 payload_size, rowid;
  const guint8 *p, *payload;
  guint n;

  scan->cell++;
  if (off < hdr + 8 || off >= scan->usable)
    goto corrupt;
  p = page + off;
  if ((n = read_varint (p, end, &payload_size)) == 0)
    goto corrupt;
  p += n;
  if ((n = read_varint (p, end, &rowid)) == 0)
    goto corrupt;
  p += n;
  payload = cell_payload (scan, p, end, payload_size);
  if (payload == NULL || !read_record_header (scan, payload, payload_size))
    goto corrupt;
  record_values (scan, (gint64) rowid, values, nulls);
  return TRUE;

corrupt:
  scan->error = SQLITE_CORRUPT;
  return FALSE;
}

gboolean
_sl_table_scan_next (SlTableScan *scan, gint64 *values, guint64 *nulls)
{
  if (scan->stmt != NULL)
    return next_statement (scan, values, nulls);
  if (scan->error != SQLITE_OK)
    return FALSE;
  if (scan->cell >= scan->n_cells && !next_page (scan))
    return FALSE;
  return decode_cell (scan, values, nulls);
}

/* Column @column as sqlite3_column_text() shows it (sl-value.h): text and
 * BLOBs as stored, numbers printed, a REAL-affinity column's integers as
 * REALs. */
static const char *
record_text (SlTableScan *scan, guint column, gsize *len)
{
  int col = column < scan->n_columns ? scan->record_col[column] : COL_MISSING;
  const RowShape *shape = scan->shape;
  guint64 type = col >= 0 && col < shape->n_types ? shape->types[col] : 0;
  const guint8 *p = type != 0 ? scan->row_payload + shape->offsets[col] : NULL;
  gint64 i;

  *len = 0;
  if (type >= 12)
    {
      /* The bytes are not NUL-terminated. */
      *len = (gsize) serial_size (type);
      return (const char *) p;
    }
  if (type == 0 || type == 10 || type == 11)
    return NULL;
  if (type == 7)
    return _sl_value_real_text (decode_real (p), scan->number_text, sizeof scan->number_text, len);
  i = type == 8 || type == 9 ? (gint64) type - 8 : decode_int (type, p);
  if (scan->real_affinity[column])
    return _sl_value_real_text ((double) i, scan->number_text, sizeof scan->number_text, len);
  *len = (gsize) g_snprintf (scan->number_text, sizeof scan->number_text, "%" G_GINT64_FORMAT, i);
  return scan->number_text;
}

const char *
_sl_table_scan_text (SlTableScan *scan, guint column, gsize *len)
{
  if (scan->stmt != NULL)
    return _sl_value_column_text (scan->stmt, (int) column, len);
  return record_text (scan, column, len);
}

int
_sl_table_scan_error (SlTableScan *scan)
{
  return scan->error;
}

gboolean
_sl_table_scan_is_direct (SlTableScan *scan)
{
  return scan->stmt == NULL;
}

void
_sl_table_scan_free (SlTableScan *scan)
{
  if (scan == NULL)
    return;
  sqlite3_finalize (scan->stmt);
  g_free (scan->owned_leaves);
  g_free (scan->buf);
  if (scan->overflow != NULL)
    g_byte_array_unref (scan->overflow);
  g_free (scan);
}
