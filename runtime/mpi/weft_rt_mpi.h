/*===- weft_rt_mpi.h - MPI runtime of weft-generated programs -----*- C -*-===*
 *
 * weft copies this file into every program it generates for --target=mpi
 * (after weft_rt_blocks.h, the blocks of distributed loops,
 * weft_rt_elements.h, the walk over a message's element set, and
 * runtime/common/weft_rt_overlap.h, the check of overlapping arguments),
 * so that the output builds with a plain `mpicc OUT.c -lm`. It starts MPI
 * before main (the sequential program's main is kept as it is), stops it at
 * exit, keeps only rank 0's output, and provides what the distributed regions
 * call: the process grid, the messages of exact element sets (non-blocking
 * point to point, broadcast, all-reduce) and the state of the other ranks'
 * copies.
 *
 * With WEFT_STATS set in the environment, rank 0 prints at exit how many
 * messages and bytes the regions sent (over all ranks), the largest and
 * smallest peak resident memory of a rank, and how many sends and receives
 * needed a packing buffer, on stderr.
 *
 *===----------------------------------------------------------------------===*/
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#define WEFT_RT_UNUSED __attribute__((unused))
/* Distributed region functions stay calls, and GCC does not specialise them
   for their arguments either: seeing the caller's arrays and values through
   the runtime's broadcasts, its -Wall analyses (array bounds, maybe
   uninitialized) flag paths the sequential program has too. */
#if defined(__GNUC__) && !defined(__clang__)
#define WEFT_RT_REGION __attribute__((noipa))
#else
#define WEFT_RT_REGION __attribute__((noinline))
#endif

static int weft_rt_rank WEFT_RT_UNUSED = 0;
static int weft_rt_size WEFT_RT_UNUSED = 1;

/* Set by the CUDA runtime of --target=mpi-cuda outputs
   (runtime/cuda/hpc/weft_cuda.h), whose arrays may be newer in device
   memory: weft_rt_host_access is called before the runtime reads (write =
   0) or writes (write = 1) the runs of an array, weft_rt_more_stats prints
   its statistics after the runtime's (on every rank). */
#define WEFT_RT_MPI_HOOKS 1
static WEFT_RT_UNUSED void (*weft_rt_host_access)(char *base,
                                                  const weft_rt_runs *runs,
                                                  int write) = NULL;
static WEFT_RT_UNUSED void (*weft_rt_more_stats)(void) = NULL;
/* Also set by the CUDA runtime: weft_rt_stage(k, base, runs, bytes,
   receive) gives the contiguous buffer message k goes from (its runs
   gathered on the device) or arrives into (to be scattered on the device by
   weft_rt_unstage after it arrived), in host memory or, with CUDA-aware MPI,
   in device memory; NULL: the message goes from or into the array, after
   weft_rt_host_access. */
static WEFT_RT_UNUSED char *(*weft_rt_stage)(int k, char *base,
                                             const weft_rt_runs *runs,
                                             int64_t bytes,
                                             int receive) = NULL;
static WEFT_RT_UNUSED void (*weft_rt_unstage)(int k, char *base,
                                              const weft_rt_runs *runs,
                                              int64_t bytes,
                                              char *staged) = NULL;

/* Statistics of this rank. */
static int64_t weft_rt_sent_bytes = 0;
static int64_t weft_rt_sent_messages = 0;
static int64_t weft_rt_packed_messages = 0; /* sent or received */

static void weft_rt_print_stats(void) {
  int64_t mine[3] = {weft_rt_sent_bytes, weft_rt_sent_messages,
                     weft_rt_packed_messages};
  int64_t total[3] = {0, 0, 0}, most[3] = {0, 0, 0};
  MPI_Reduce(mine, total, 3, MPI_INT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(mine, most, 3, MPI_INT64_T, MPI_MAX, 0, MPI_COMM_WORLD);
  /* Peak RSS (Linux reports KiB): the arrays are full-size on every rank,
     so this shows what distribution does not save yet. */
  struct rusage usage;
  int64_t rss = getrusage(RUSAGE_SELF, &usage) == 0
                    ? (int64_t)usage.ru_maxrss * 1024
                    : 0;
  int64_t rssMax = 0, rssMin = 0;
  MPI_Reduce(&rss, &rssMax, 1, MPI_INT64_T, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(&rss, &rssMin, 1, MPI_INT64_T, MPI_MIN, 0, MPI_COMM_WORLD);
  if (weft_rt_rank == 0) {
    fprintf(stderr,
            "weft: %d ranks sent %lld bytes in %lld messages "
            "(at most %lld bytes from one rank)\n",
            weft_rt_size, (long long)total[0], (long long)total[1],
            (long long)most[0]);
    fprintf(stderr, "weft: peak memory per rank %lld to %lld bytes\n",
            (long long)rssMin, (long long)rssMax);
    fprintf(stderr,
            "weft: %lld sends and receives went through a packing buffer\n",
            (long long)total[2]);
  }
  if (weft_rt_more_stats)
    weft_rt_more_stats();
}

static void weft_rt_finalize(void) {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) {
    if (getenv("WEFT_STATS"))
      weft_rt_print_stats();
    fflush(stdout);
    fflush(stderr);
    MPI_Finalize();
  }
}

__attribute__((constructor)) static void weft_rt_init(void) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized)
    MPI_Init(NULL, NULL);
  MPI_Comm_rank(MPI_COMM_WORLD, &weft_rt_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &weft_rt_size);
  /* Every rank runs the code outside regions; rank 0 alone prints. */
  if (weft_rt_rank != 0 && (!freopen("/dev/null", "w", stdout) ||
                            !freopen("/dev/null", "w", stderr)))
    MPI_Abort(MPI_COMM_WORLD, 1);
  atexit(weft_rt_finalize);
}

static WEFT_RT_UNUSED int64_t weft_rt_self(void) { return weft_rt_rank; }
static WEFT_RT_UNUSED int64_t weft_rt_nranks(void) { return weft_rt_size; }

/* The 2-D process grid: the preferred rows and columns (0: none; from
   #pragma weft grid) when the ranks fit them, else the most nearly square
   rows x cols = size with rows >= cols (MPI_Dims_create's choice). weft's
   cost estimate assumes the same (gridShape2D). Rank r sits at row
   r / cols, column r % cols. */
static WEFT_RT_UNUSED int64_t weft_rt_grid_cols(int64_t rows, int64_t cols) {
  int64_t p = weft_rt_size;
  if (rows > 0 && cols > 0) {
    if (rows * cols == p)
      return cols;
  } else if (rows > 0 && p % rows == 0) {
    return p / rows;
  } else if (cols > 0 && p % cols == 0) {
    return cols;
  }
  int64_t best = 1;
  for (int64_t c = 1; c * c <= p; ++c)
    if (p % c == 0)
      best = c;
  return best;
}

static WEFT_RT_UNUSED int64_t weft_rt_grid_rows(int64_t rows, int64_t cols) {
  return weft_rt_size / weft_rt_grid_cols(rows, cols);
}

static void weft_rt_fail(const char *what) {
  fprintf(stderr, "weft runtime: %s\n", what);
  MPI_Abort(MPI_COMM_WORLD, 1);
}

/* Rank-local storage of a private array: count elements of size bytes. */
static WEFT_RT_UNUSED void *weft_rt_alloc(int64_t count, int64_t size) {
  void *p = malloc((size_t)(count > 0 ? count * size : 1));
  if (!p)
    weft_rt_fail("out of memory for the rank-local part of an array");
  return p;
}

static WEFT_RT_UNUSED void weft_rt_free(void *p) { free(p); }

/* The integers a message call passes after its own arguments, as one
   array: the linear index of the array's first element (rank-local
   storage), the array's extents after the first (for the row-major
   strides), then the values of the set's parameters. A compound literal, so
   that every value converts to int64_t (a macro, lower case like the
   runtime functions the generated code calls). C++ (the mpi-cuda target)
   has no compound literals, and a temporary would die at the end of the
   statement that names it, before the message call reads it: there the
   values are copied into the next slot of a small per-thread ring, which
   is safe because each message call reads its values right after they
   are made (at most a few are alive at once). */
#ifdef __cplusplus
enum { WEFT_RT_VALUE_SLOTS = 64, WEFT_RT_MAX_VALUES = 64 };
template <typename... WeftT>
static const int64_t *weft_rt_value_list(WeftT... x) {
  static_assert(sizeof...(WeftT) <= WEFT_RT_MAX_VALUES,
                "a message passes more integers than weft_rt_values holds");
  static thread_local int64_t ring[WEFT_RT_VALUE_SLOTS][WEFT_RT_MAX_VALUES];
  static thread_local unsigned next;
  int64_t *slot = ring[next++ % WEFT_RT_VALUE_SLOTS];
  int64_t values[] = {(int64_t)x..., 0};
  for (unsigned k = 0; k < sizeof...(WeftT); ++k)
    slot[k] = values[k];
  return slot;
}
#define weft_rt_values(...) (weft_rt_value_list(__VA_ARGS__))
#else
#define weft_rt_values(...) ((const int64_t[]){__VA_ARGS__})
#endif

/* `e` for the set `table` of `array` (elements of `size` bytes) at
   `values` (weft_rt_values). */
static WEFT_RT_UNUSED void weft_rt_elements_at(weft_rt_elements *e,
                                               const int64_t *table,
                                               void *array, int64_t size,
                                               const int64_t *values) {
  int64_t dims = table[0];
  e->set = table;
  e->base = (char *)array;
  e->size = size;
  e->offset = values[0];
  if (dims > 0)
    e->stride[dims - 1] = 1;
  for (int64_t k = dims - 2; k >= 0; --k)
    e->stride[k] = e->stride[k + 1] * values[k + 1];
  const int64_t *params = values + (dims > 0 ? dims : 1);
  for (int64_t k = 0; k < table[1]; ++k)
    e->params[k] = params[k];
}

/* The messages started since the last weft_rt_wait_all. The generated code
   starts all the messages of an exchange and then waits for them, with
   nothing in between, so weft_rt_wait_all posts them: MPI reads a message
   from the array and writes one into it directly, through a datatype of the
   set's runs, unless it shares elements with a receive of the same exchange
   (or a receive with a send). Such a message is packed into a buffer before
   any receive is posted and unpacked after all have arrived, in the order
   the messages were started, so a send carries the values from before the
   exchange whichever way it goes. The buffers and run lists are kept and
   grown for the next exchanges (a time loop does not allocate at every
   step). */
typedef struct {
  weft_rt_elements elements;
  weft_rt_runs runs;
  int64_t lo, hi; /* bytes [lo, hi) of the array hold all the runs */
  int bytes;      /* of all the runs */
  int receive, peer, tag, packed;
  char *data;   /* the packed elements */
  char *staged; /* weft_rt_stage's buffer, or NULL */
  int64_t capacity;
  /* The runs as (offset, end) pairs in increasing order, made once per
     exchange for weft_rt_messages_share; `sorted_valid` says they are this
     message's. */
  int64_t *sorted;
  int64_t sorted_capacity;
  int sorted_valid;
} weft_rt_message;
static MPI_Request *weft_rt_requests = NULL;
static weft_rt_message *weft_rt_messages = NULL;
static int weft_rt_pending = 0, weft_rt_capacity = 0;

static char *weft_rt_grow(char **data, int64_t *capacity, int64_t bytes) {
  if (bytes > *capacity) {
    free(*data);
    *data = (char *)malloc((size_t)(bytes > 0 ? bytes : 1));
    if (!*data)
      weft_rt_fail("out of memory for a message buffer");
    *capacity = bytes;
  }
  return *data;
}

static int weft_rt_new_request(void) {
  if (weft_rt_pending == weft_rt_capacity) {
    int capacity = weft_rt_capacity ? 2 * weft_rt_capacity : 16;
    weft_rt_requests = (MPI_Request *)realloc(
        weft_rt_requests, sizeof(MPI_Request) * (size_t)capacity);
    weft_rt_messages = (weft_rt_message *)realloc(
        weft_rt_messages, sizeof(weft_rt_message) * (size_t)capacity);
    if (!weft_rt_requests || !weft_rt_messages)
      weft_rt_fail("out of memory for requests");
    memset(weft_rt_messages + weft_rt_capacity, 0,
           sizeof(weft_rt_message) * (size_t)(capacity - weft_rt_capacity));
    weft_rt_capacity = capacity;
  }
  return weft_rt_pending++;
}

static int weft_rt_bytes(int64_t count, int64_t size) {
  if (count * size > INT32_MAX)
    weft_rt_fail("a message is larger than 2 GiB");
  return (int)(count * size);
}

/* Records a message of the elements of the set `table` of `array` at
   `values` (weft_rt_values), to or from `peer`; nothing when the set is
   empty. Returns its bytes. */
static int64_t weft_rt_start_message(const int64_t *table, void *array,
                                     int64_t size, const int64_t *values,
                                     int receive, int64_t peer, int64_t tag) {
  weft_rt_elements e;
  weft_rt_elements_at(&e, table, array, size, values);
  int k = weft_rt_new_request();
  weft_rt_message *m = &weft_rt_messages[k];
  int64_t count = weft_rt_walk_runs(&e, &m->runs);
  if (count == 0) {
    --weft_rt_pending;
    return 0;
  }
  m->elements = e;
  m->lo = m->runs.offset[0];
  m->hi = m->lo;
  for (int64_t r = 0; r < m->runs.count; ++r) {
    int64_t lo = m->runs.offset[r], hi = lo + m->runs.bytes[r];
    m->lo = lo < m->lo ? lo : m->lo;
    m->hi = hi > m->hi ? hi : m->hi;
  }
  m->bytes = weft_rt_bytes(count, size);
  m->sorted_valid = 0;
  m->receive = receive;
  m->peer = (int)peer;
  m->tag = (int)tag;
  return m->bytes;
}

/* dist.isend: the elements, sent to `peer` by the next weft_rt_wait_all. */
static WEFT_RT_UNUSED void weft_rt_isend_elements(const int64_t *table,
                                                  void *array, int64_t size,
                                                  int64_t peer, int64_t tag,
                                                  const int64_t *values) {
  int64_t bytes =
      weft_rt_start_message(table, array, size, values, 0, peer, tag);
  if (bytes > 0) {
    weft_rt_sent_bytes += bytes;
    weft_rt_sent_messages += 1;
  }
}

/* dist.irecv: receives the elements from `peer`; they are in `array` when
   the next weft_rt_wait_all returns. */
static WEFT_RT_UNUSED void weft_rt_irecv_elements(const int64_t *table,
                                                  void *array, int64_t size,
                                                  int64_t peer, int64_t tag,
                                                  const int64_t *values) {
  weft_rt_start_message(table, array, size, values, 1, peer, tag);
}

/* `m`'s runs as (offset, end) pairs in increasing order (m->sorted). A
   piece's runs come in increasing order already; only a set of several
   pieces may need the sort. */
static const int64_t *weft_rt_sorted_runs(weft_rt_message *m) {
  const weft_rt_runs *r = &m->runs;
  if (m->sorted_valid)
    return m->sorted;
  char *buffer = (char *)m->sorted;
  m->sorted = (int64_t *)weft_rt_grow(&buffer, &m->sorted_capacity,
                                      r->count * 2 * (int64_t)sizeof(int64_t));
  int in_order = 1;
  for (int64_t i = 0; i < r->count; ++i) {
    m->sorted[2 * i] = r->offset[i];
    m->sorted[2 * i + 1] = r->offset[i] + r->bytes[i];
    in_order &= i == 0 || r->offset[i - 1] < r->offset[i];
  }
  if (!in_order)
    qsort(m->sorted, (size_t)r->count, 2 * sizeof(int64_t),
          weft_rt_compare_runs);
  m->sorted_valid = 1;
  return m->sorted;
}

/* Whether messages a and b touch a common byte. */
static int weft_rt_messages_share(weft_rt_message *a, weft_rt_message *b) {
  if (a->elements.base != b->elements.base || a->hi <= b->lo ||
      b->hi <= a->lo)
    return 0;
  int64_t na = a->runs.count, nb = b->runs.count;
  const int64_t *pa = weft_rt_sorted_runs(a), *pb = weft_rt_sorted_runs(b);
  int share = 0;
  for (int64_t i = 0, j = 0; i < na && j < nb && !share;) {
    share = pa[2 * i] < pb[2 * j + 1] && pb[2 * j] < pa[2 * i + 1];
    if (pa[2 * i + 1] < pb[2 * j + 1])
      ++i;
    else
      ++j;
  }
  return share;
}

/* The runs of `runs` in the array at `base` as an MPI datatype: MPI_BYTE
   at the returned address for one run (its bytes are the count), else a
   committed hindexed datatype at `base` for the caller to free. */
static char *weft_rt_runs_type(const weft_rt_runs *runs, char *base,
                               MPI_Datatype *type) {
  if (runs->count == 1) {
    *type = MPI_BYTE;
    return base + runs->offset[0];
  }
  /* MPI takes int lengths and MPI_Aint displacements. */
  static int *lengths = NULL;
  static MPI_Aint *displacements = NULL;
  static int64_t room = 0;
  if (runs->count > room) {
    free(lengths);
    free(displacements);
    room = runs->count;
    lengths = (int *)malloc((size_t)room * sizeof(int));
    displacements = (MPI_Aint *)malloc((size_t)room * sizeof(MPI_Aint));
    if (!lengths || !displacements)
      weft_rt_fail("out of memory for a message's runs");
  }
  for (int64_t r = 0; r < runs->count; ++r) {
    lengths[r] = (int)runs->bytes[r];
    displacements[r] = (MPI_Aint)runs->offset[r];
  }
  MPI_Type_create_hindexed((int)runs->count, lengths, displacements, MPI_BYTE,
                           type);
  MPI_Type_commit(type);
  return base;
}

/* Posts message k: from or into the array through a datatype of its runs,
   or from or into its buffer when packed. */
static void weft_rt_post(int k) {
  weft_rt_message *m = &weft_rt_messages[k];
  MPI_Datatype type = MPI_BYTE;
  char *at;
  if (m->staged) {
    at = m->staged;
  } else if (m->packed) {
    weft_rt_packed_messages += 1;
    at = weft_rt_grow(&m->data, &m->capacity, m->bytes);
    if (!m->receive)
      weft_rt_walk(&m->elements, WEFT_RT_PACK, at);
  } else {
    at = weft_rt_runs_type(&m->runs, m->elements.base, &type);
  }
  int count = type == MPI_BYTE ? m->bytes : 1;
  if (m->receive)
    MPI_Irecv(at, count, type, m->peer, m->tag, MPI_COMM_WORLD,
              &weft_rt_requests[k]);
  else
    MPI_Isend(at, count, type, m->peer, m->tag, MPI_COMM_WORLD,
              &weft_rt_requests[k]);
  /* Pending messages keep the datatype they use. */
  if (type != MPI_BYTE)
    MPI_Type_free(&type);
}

/* dist.wait_all: posts the messages started since the last one (sends
   first, so that packed ones hold the values from before the exchange),
   completes them and unpacks the packed receives. */
static WEFT_RT_UNUSED void weft_rt_wait_all(void) {
  int n = weft_rt_pending;
  /* A staged send holds its values from before the exchange, a staged
     receive leaves the array alone until it is unstaged: like packed
     messages, they need no packing. */
  for (int k = 0; k < n; ++k) {
    weft_rt_message *m = &weft_rt_messages[k];
    m->staged = weft_rt_stage ? weft_rt_stage(k, m->elements.base, &m->runs,
                                              m->bytes, m->receive)
                              : NULL;
  }
  if (weft_rt_host_access)
    for (int pass = 0; pass < 2; ++pass) /* reads before writes */
      for (int k = 0; k < n; ++k)
        if (weft_rt_messages[k].receive == pass && !weft_rt_messages[k].staged)
          weft_rt_host_access(weft_rt_messages[k].elements.base,
                              &weft_rt_messages[k].runs, pass);
  for (int k = 0; k < n; ++k)
    weft_rt_messages[k].packed = 0;
  /* Each pair once; two sends may share elements. */
  for (int k = 0; k < n; ++k)
    for (int j = k + 1; j < n; ++j) {
      weft_rt_message *a = &weft_rt_messages[k], *b = &weft_rt_messages[j];
      if ((a->packed && b->packed) || !(a->receive || b->receive) ||
          a->staged || b->staged)
        continue;
      if (weft_rt_messages_share(a, b))
        a->packed = b->packed = 1;
    }
  for (int k = 0; k < n; ++k)
    if (!weft_rt_messages[k].receive)
      weft_rt_post(k);
  for (int k = 0; k < n; ++k)
    if (weft_rt_messages[k].receive)
      weft_rt_post(k);
  MPI_Waitall(n, weft_rt_requests, MPI_STATUSES_IGNORE);
  for (int k = 0; k < n; ++k) {
    weft_rt_message *m = &weft_rt_messages[k];
    if (m->receive && m->staged)
      weft_rt_unstage(k, m->elements.base, &m->runs, m->bytes, m->staged);
    else if (m->receive && m->packed)
      weft_rt_walk(&m->elements, WEFT_RT_UNPACK, m->data);
  }
  weft_rt_pending = 0;
}

/* One buffer for the collectives. */
static char *weft_rt_collective_data = NULL;
static int64_t weft_rt_collective_capacity = 0;

/* dist.broadcast: the root's values of the elements of the set, on every
   rank. */
static WEFT_RT_UNUSED void weft_rt_bcast_elements(const int64_t *table,
                                                  void *array, int64_t size,
                                                  int64_t root,
                                                  const int64_t *values) {
  static weft_rt_runs runs;
  weft_rt_elements e;
  weft_rt_elements_at(&e, table, array, size, values);
  int64_t count = weft_rt_walk_runs(&e, &runs);
  if (count == 0)
    return;
  weft_rt_bytes(count, size);
  if (weft_rt_rank == root)
    weft_rt_sent_bytes += count * size * (weft_rt_size - 1);
  if (weft_rt_host_access)
    weft_rt_host_access(e.base, &runs, weft_rt_rank != root);
  MPI_Datatype type;
  char *at = weft_rt_runs_type(&runs, e.base, &type);
  MPI_Bcast(at, type == MPI_BYTE ? (int)runs.bytes[0] : 1, type, (int)root,
            MPI_COMM_WORLD);
  if (type != MPI_BYTE)
    MPI_Type_free(&type);
}

/* dist.allreduce: combines the elements of the set across all ranks, in
   place. type: 0 double, 1 float, 2..5 signed integers of 8, 4, 2, 1
   bytes; op: 0 sum, 1 product, 2 min, 3 max (dist's ReductionKind).
   Counted as twice the bytes per rank, what a ring all-reduce moves. */
static WEFT_RT_UNUSED void weft_rt_allreduce_elements(const int64_t *table,
                                                      void *array, int64_t size,
                                                      int64_t type, int64_t op,
                                                      const int64_t *values) {
  static const MPI_Op ops[] = {MPI_SUM, MPI_PROD, MPI_MIN, MPI_MAX};
  MPI_Datatype types[] = {MPI_DOUBLE,  MPI_FLOAT,   MPI_INT64_T,
                          MPI_INT32_T, MPI_INT16_T, MPI_INT8_T};
  weft_rt_elements e;
  weft_rt_elements_at(&e, table, array, size, values);
  int64_t count = weft_rt_walk(&e, WEFT_RT_COUNT, NULL);
  if (count > INT32_MAX)
    weft_rt_fail("an all-reduce of more than 2^31 elements");
  if (weft_rt_host_access) {
    static weft_rt_runs runs;
    weft_rt_walk_runs(&e, &runs);
    weft_rt_host_access(e.base, &runs, 0);
    weft_rt_host_access(e.base, &runs, 1);
  }
  char *data = weft_rt_grow(&weft_rt_collective_data,
                            &weft_rt_collective_capacity, count * size);
  weft_rt_walk(&e, WEFT_RT_PACK, data);
  if (weft_rt_size > 1) {
    weft_rt_sent_bytes += 2 * count * size;
    weft_rt_sent_messages += 2;
  }
  MPI_Allreduce(MPI_IN_PLACE, data, (int)count, types[type], ops[op],
                MPI_COMM_WORLD);
  weft_rt_walk(&e, WEFT_RT_UNPACK, data);
}

/* Set once a region sent its live-out values to rank 0 only: from then on
   the other ranks' copies of the arrays may be outdated. */
static int weft_rt_stale = 0;
static WEFT_RT_UNUSED int weft_rt_replicas_stale(void) { return weft_rt_stale; }
static WEFT_RT_UNUSED void weft_rt_set_replicas_stale(void) {
  weft_rt_stale = 1;
}

/* weft_rt_ranges_overlap (dist.ranges_overlap) is in
   runtime/common/weft_rt_overlap.h, which the CUDA outputs carry too. */
