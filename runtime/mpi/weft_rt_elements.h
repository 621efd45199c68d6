/*===- weft_rt_elements.h - Exact element sets of weft's messages -*- C -*-===*
 *
 * weft copies this file, before runtime/mpi/weft_rt_mpi.h, into every
 * program it generates for --target=mpi. A message of a distributed region
 * carries exactly the array elements of an integer set that the compiler
 * computed with ISL (dist-materialize), parametric in the blocks of the
 * sender and the receiver. The compiler passes the set as a table
 * (include/weft/Analysis/Polyhedral/ElementSets.h has the layout): pieces,
 * disjoint unless the table says otherwise, each a conjunction of integer
 * constraints over the parameters, the subscripts and integer divisions,
 * with the bounds of each subscript given by the subscripts before it.
 * weft_rt_walk enumerates the elements of a piece in lexicographic order,
 * piece after piece, as runs of consecutive elements (pieces that may
 * overlap: all their elements once, by address); both ends of a message
 * walk the same table with the same parameters, so they agree on the
 * elements and their order.
 *
 * No MPI here: test/unittests checks the walk against ISL.
 *
 *===----------------------------------------------------------------------===*/
#ifndef WEFT_RT_ELEMENTS_H
#define WEFT_RT_ELEMENTS_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define WEFT_RT_MAX_DIMS 8
#define WEFT_RT_MAX_PARAMS 64

/* One set of elements of one array, with its parameters' values. */
typedef struct {
  const int64_t *set; /* the table */
  char *base;         /* the array's storage */
  int64_t size;       /* bytes per element */
  int64_t offset;     /* linear index of base's first element */
  int64_t stride[WEFT_RT_MAX_DIMS];
  int64_t params[WEFT_RT_MAX_PARAMS];
} weft_rt_elements;

/* What a walk does with each run of elements. */
enum { WEFT_RT_COUNT, WEFT_RT_PACK, WEFT_RT_UNPACK, WEFT_RT_LIST };

/* A set's runs of consecutive elements in the walk's order, as byte offsets
   from the array's storage and lengths in bytes (WEFT_RT_LIST: the MPI
   runtime describes a message to MPI by them instead of packing it).
   Runs that touch are merged. The arrays are kept and grown. */
typedef struct {
  int64_t count, capacity;
  int64_t *offset, *bytes;
} weft_rt_runs;

typedef struct {
  const weft_rt_elements *e;
  int mode;
  char *buffer;       /* WEFT_RT_PACK, WEFT_RT_UNPACK */
  weft_rt_runs *runs; /* WEFT_RT_LIST */
  int64_t count;      /* elements visited so far */
  int64_t dims, params, vars;
  const int64_t *divs, *rows; /* this piece's records, vars + 3 each */
  int64_t ndivs, nrows;
  int64_t *v;       /* parameters, subscripts, divisions */
  int64_t *partial; /* per row, then per division: the parameters' part */
  int indep[WEFT_RT_MAX_DIMS], cached[WEFT_RT_MAX_DIMS];
  int64_t lo[WEFT_RT_MAX_DIMS], hi[WEFT_RT_MAX_DIMS];
} weft_rt_walk_state;

static int64_t weft_rt_floordiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/* A row or division record's value: the parameters' part (computed once per
   piece) plus the subscripts' and divisions'. */
static int64_t weft_rt_value(const weft_rt_walk_state *s, const int64_t *rec,
                             int64_t partial) {
  const int64_t *c = rec + 2 + s->params;
  const int64_t *v = s->v + s->params;
  int64_t n = s->vars - s->params, sum = partial;
  for (int64_t i = 0; i < n; ++i)
    sum += c[i] * v[i];
  return sum;
}

/* The divisions of `level`, now that its subscript and those before are
   set. */
static void weft_rt_eval_divs(weft_rt_walk_state *s, int64_t level) {
  for (int64_t k = 0; k < s->ndivs; ++k) {
    const int64_t *rec = s->divs + k * (s->vars + 3);
    if (rec[0] == level)
      s->v[s->params + s->dims + k] = weft_rt_floordiv(
          weft_rt_value(s, rec, s->partial[s->nrows + k]), rec[1]);
  }
}

/* Whether the filter rows of `level` hold. */
static int weft_rt_filters_hold(const weft_rt_walk_state *s, int64_t level) {
  for (int64_t r = 0; r < s->nrows; ++r) {
    const int64_t *rec = s->rows + r * (s->vars + 3);
    if (rec[0] != level || rec[1] < 2)
      continue;
    int64_t x = weft_rt_value(s, rec, s->partial[r]);
    if (rec[1] == 3 ? x != 0 : x < 0)
      return 0;
  }
  return 1;
}

/* [lo, hi] of subscript `level` from its bound rows (the subscript itself
   counts 0 in them). */
static void weft_rt_bounds(weft_rt_walk_state *s, int64_t level, int64_t *lo,
                           int64_t *hi) {
  int64_t l = INT64_MIN, h = INT64_MAX;
  s->v[s->params + level] = 0;
  for (int64_t r = 0; r < s->nrows; ++r) {
    const int64_t *rec = s->rows + r * (s->vars + 3);
    if (rec[0] != level || rec[1] >= 2)
      continue;
    int64_t a = rec[2 + s->params + level];
    int64_t rest = weft_rt_value(s, rec, s->partial[r]);
    int64_t lower = INT64_MIN, upper = INT64_MAX;
    if (a > 0) { /* a x + rest >= 0 (== 0) */
      lower = -weft_rt_floordiv(rest, a);
      if (rec[1] == 1)
        upper = weft_rt_floordiv(-rest, a);
    } else { /* rest >= -a x (==) */
      upper = weft_rt_floordiv(rest, -a);
      if (rec[1] == 1)
        lower = -weft_rt_floordiv(-rest, -a);
    }
    l = lower > l ? lower : l;
    h = upper < h ? upper : h;
  }
  *lo = l;
  *hi = h;
}

static void weft_rt_list_run(weft_rt_runs *r, int64_t offset, int64_t bytes) {
  if (r->count > 0 &&
      r->offset[r->count - 1] + r->bytes[r->count - 1] == offset) {
    r->bytes[r->count - 1] += bytes;
    return;
  }
  if (r->count == r->capacity) {
    int64_t capacity = r->capacity ? 2 * r->capacity : 16;
    int64_t *o = (int64_t *)realloc(r->offset, (size_t)capacity * 8);
    if (o)
      r->offset = o;
    int64_t *b = (int64_t *)realloc(r->bytes, (size_t)capacity * 8);
    if (b)
      r->bytes = b;
    if (!o || !b)
      abort();
    r->capacity = capacity;
  }
  r->offset[r->count] = offset;
  r->bytes[r->count] = bytes;
  r->count++;
}

static void weft_rt_run(weft_rt_walk_state *s, int64_t linear, int64_t n) {
  if (s->mode == WEFT_RT_LIST) {
    const weft_rt_elements *e = s->e;
    weft_rt_list_run(s->runs, (linear - e->offset) * e->size, n * e->size);
  } else if (s->mode != WEFT_RT_COUNT) {
    const weft_rt_elements *e = s->e;
    char *a = e->base + (linear - e->offset) * e->size;
    char *b = s->buffer + s->count * e->size;
    if (s->mode == WEFT_RT_PACK)
      memcpy(b, a, (size_t)(n * e->size));
    else
      memcpy(a, b, (size_t)(n * e->size));
  }
  s->count += n;
}

static void weft_rt_walk_level(weft_rt_walk_state *s, int64_t level,
                               int64_t linear) {
  int64_t lo, hi;
  if (s->indep[level] && s->cached[level]) {
    lo = s->lo[level];
    hi = s->hi[level];
  } else {
    weft_rt_bounds(s, level, &lo, &hi);
    s->lo[level] = lo;
    s->hi[level] = hi;
    s->cached[level] = 1;
  }
  if (lo > hi)
    return;
  int64_t stride = s->e->stride[level];
  int last = level == s->dims - 1;
  int plain = 1; /* nothing to compute or check per value */
  for (int64_t k = 0; k < s->ndivs && plain; ++k)
    plain = s->divs[k * (s->vars + 3)] != level;
  for (int64_t r = 0; r < s->nrows && plain; ++r)
    plain = !(s->rows[r * (s->vars + 3)] == level &&
              s->rows[r * (s->vars + 3) + 1] >= 2);
  if (last && plain) {
    weft_rt_run(s, linear + lo * stride, hi - lo + 1);
    return;
  }
  for (int64_t x = lo; x <= hi; ++x) {
    s->v[s->params + level] = x;
    if (!plain) {
      weft_rt_eval_divs(s, level);
      if (!weft_rt_filters_hold(s, level))
        continue;
    }
    if (last)
      weft_rt_run(s, linear + x * stride, 1);
    else
      weft_rt_walk_level(s, level + 1, linear + x * stride);
  }
}

/* The parameters' part of the records of level -1 (`params_only`) or of
   the others. */
static void weft_rt_partials(weft_rt_walk_state *s, int params_only) {
  for (int64_t i = 0; i < s->nrows + s->ndivs; ++i) {
    const int64_t *rec = i < s->nrows
                             ? s->rows + i * (s->vars + 3)
                             : s->divs + (i - s->nrows) * (s->vars + 3);
    if ((rec[0] == -1) != params_only)
      continue;
    int64_t sum = rec[2 + s->vars];
    for (int64_t k = 0; k < s->params; ++k)
      sum += rec[2 + k] * s->v[k];
    s->partial[i] = sum;
  }
}

/* Whether the constraints of the current piece on the parameters alone
   hold. */
static int weft_rt_piece_may_hold(weft_rt_walk_state *s) {
  weft_rt_partials(s, 1);
  weft_rt_eval_divs(s, -1);
  return weft_rt_filters_hold(s, -1);
}

/* Visits the elements of `e`'s pieces, piece after piece (see
   weft_rt_visit). */
static int64_t weft_rt_visit_pieces(const weft_rt_elements *e, int mode,
                                    char *buffer, weft_rt_runs *runs) {
  static int64_t *scratch = NULL;
  static int64_t capacity = 0;
  weft_rt_walk_state s;
  memset(&s, 0, sizeof s);
  s.e = e;
  s.mode = mode;
  s.buffer = buffer;
  s.runs = runs;
  s.dims = e->set[0];
  s.params = e->set[1];
  const int64_t *p = e->set + 3;
  int64_t pieces = e->set[2] < 0 ? -e->set[2] : e->set[2];
  for (int64_t piece = 0; piece < pieces; ++piece) {
    s.ndivs = p[0];
    s.nrows = p[1];
    s.vars = s.params + s.dims + s.ndivs;
    s.divs = p + 2;
    s.rows = s.divs + s.ndivs * (s.vars + 3);
    p = s.rows + s.nrows * (s.vars + 3);
    int64_t need = s.vars + s.nrows + s.ndivs;
    if (need > capacity) {
      int64_t *grown =
          (int64_t *)realloc(scratch, (size_t)need * 2 * sizeof(int64_t));
      if (!grown)
        abort();
      scratch = grown;
      capacity = need * 2;
    }
    s.v = scratch;
    s.partial = scratch + s.vars;
    memset(s.v, 0, (size_t)s.vars * sizeof(int64_t));
    memcpy(s.v, e->params, (size_t)s.params * sizeof(int64_t));
    /* The parameters' part of every record: first of those about the
       parameters alone, which decide whether the piece is empty for these
       blocks (most pieces are, for most peers) before anything else is
       computed. */
    if (!weft_rt_piece_may_hold(&s))
      continue;
    weft_rt_partials(&s, 0);
    /* Which subscripts have bounds that do not change with the subscripts
       before them. */
    for (int64_t level = 0; level < s.dims; ++level) {
      s.cached[level] = 0;
      s.indep[level] = 1;
      for (int64_t r = 0; r < s.nrows; ++r) {
        const int64_t *rec = s.rows + r * (s.vars + 3);
        if (rec[0] != level || rec[1] >= 2)
          continue;
        for (int64_t k = s.params; k < s.vars; ++k) {
          int64_t div = k - s.params - s.dims;
          int constant = k == s.params + level ||
                         (div >= 0 && s.divs[div * (s.vars + 3)] < 0);
          if (!constant && rec[2 + k] != 0)
            s.indep[level] = 0;
        }
      }
    }
    if (s.dims == 0)
      weft_rt_run(&s, 0, 1);
    else
      weft_rt_walk_level(&s, 0, 0);
  }
  return s.count;
}

/* Orders runs given as (offset, end) pairs by their offsets (qsort). */
static int weft_rt_compare_runs(const void *a, const void *b) {
  int64_t x = ((const int64_t *)a)[0], y = ((const int64_t *)b)[0];
  return (x > y) - (x < y);
}

/* Visits the elements of `e` in order: counts them (WEFT_RT_COUNT), copies
   them into `buffer` (WEFT_RT_PACK) or from it (WEFT_RT_UNPACK), or appends
   their runs to `runs` (WEFT_RT_LIST). Returns how many there are. The
   order is the pieces' (lexicographic in each), or, where the table's
   pieces may overlap (a negative count), the elements' addresses, each
   element once. */
static int64_t weft_rt_visit(const weft_rt_elements *e, int mode, char *buffer,
                             weft_rt_runs *runs) {
  if (e->set[2] >= 0)
    return weft_rt_visit_pieces(e, mode, buffer, runs);
  static weft_rt_runs all;
  static int64_t *pairs = NULL, pairs_capacity = 0;
  all.count = 0;
  weft_rt_visit_pieces(e, WEFT_RT_LIST, NULL, &all);
  if (2 * all.count > pairs_capacity) {
    int64_t *grown = (int64_t *)realloc(pairs, (size_t)all.count * 16);
    if (!grown)
      abort();
    pairs = grown;
    pairs_capacity = 2 * all.count;
  }
  for (int64_t i = 0; i < all.count; ++i) {
    pairs[2 * i] = all.offset[i];
    pairs[2 * i + 1] = all.offset[i] + all.bytes[i];
  }
  qsort(pairs, (size_t)all.count, 2 * sizeof(int64_t), weft_rt_compare_runs);
  int64_t count = 0;
  for (int64_t i = 0; i < all.count;) {
    /* [begin, end): this run and every later one that starts inside it. */
    int64_t begin = pairs[2 * i], end = pairs[2 * i + 1];
    for (++i; i < all.count && pairs[2 * i] <= end; ++i)
      end = pairs[2 * i + 1] > end ? pairs[2 * i + 1] : end;
    if (mode == WEFT_RT_LIST)
      weft_rt_list_run(runs, begin, end - begin);
    else if (mode == WEFT_RT_PACK)
      memcpy(buffer + count * e->size, e->base + begin, (size_t)(end - begin));
    else if (mode == WEFT_RT_UNPACK)
      memcpy(e->base + begin, buffer + count * e->size, (size_t)(end - begin));
    count += (end - begin) / e->size;
  }
  return count;
}

static int64_t weft_rt_walk(const weft_rt_elements *e, int mode, char *buffer) {
  return weft_rt_visit(e, mode, buffer, NULL);
}

/* `runs` becomes the runs of `e`'s elements; returns how many elements. */
static int64_t weft_rt_walk_runs(const weft_rt_elements *e,
                                 weft_rt_runs *runs) {
  runs->count = 0;
  return weft_rt_visit(e, WEFT_RT_LIST, NULL, runs);
}

#endif /* WEFT_RT_ELEMENTS_H */
