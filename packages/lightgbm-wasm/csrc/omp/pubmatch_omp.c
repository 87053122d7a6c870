/*
 * pubmatch_omp.c: a small OpenMP runtime over Emscripten pthreads, for LightGBM compiled to
 * WebAssembly with clang's -fopenmp (Emscripten 3.1.6 ships no OpenMP runtime).
 *
 * clang lowers `#pragma omp` to calls into the LLVM/Intel runtime ABI ("kmpc", declared in
 * LLVM's openmp/runtime/src/kmp.h). This file implements the subset that clang 14 emits for
 * LightGBM's pragmas, written from that ABI's documented signatures and semantics:
 *
 *   parallel            __kmpc_fork_call, __kmpc_push_num_threads, __kmpc_serialized_parallel,
 *                       __kmpc_end_serialized_parallel, __kmpc_global_thread_num
 *   for schedule(static[, chunk])      __kmpc_for_static_init_{4,4u,8,8u}, __kmpc_for_static_fini
 *   for schedule(dynamic|guided|...)   __kmpc_dispatch_init_* / __kmpc_dispatch_next_* / _fini_*
 *   reduction           __kmpc_reduce(_nowait), __kmpc_end_reduce(_nowait)
 *   barrier, critical, single, master, flush
 *   the user API of omp.h
 *
 * Design:
 * - One persistent team: worker threads 1..N-1 are pthreads started on the first region that
 *   needs them (Emscripten runs them on its pre-allocated pool of Node worker_threads, so the
 *   module must be linked with PTHREAD_POOL_SIZE >= thread limit - 1; with
 *   PTHREAD_POOL_SIZE_STRICT=2 a missing worker makes pthread_create fail and the team is simply
 *   smaller). The thread that forks is thread 0 of the team.
 * - Fork: the master publishes the microtask and its arguments, then bumps each participating
 *   worker's own `go` word; join: a counter of workers still running. Nested regions, and regions
 *   forked while another region is running, are serialised (run by the encountering thread as a
 *   team of one), as OpenMP allows.
 * - Waiting (workers for work, the master at the join, barriers, ordered reductions) polls a
 *   word for a while and then sleeps on it with emscripten_futex_wait. The main runtime thread
 *   sleeps in 1 ms slices so that it keeps serving calls proxied to it (e.g. printf from a worker).
 * - Reductions are combined in thread-number order (thread t waits for threads 0..t-1), so
 *   floating-point results are the same from run to run for a given team size.
 * - Dynamic/guided loops share one atomic "next iteration" counter per loop, in a small ring so
 *   that `nowait` loops may overlap.
 */
#include <emscripten/threading.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "omp.h"
#include "pubmatch_omp.h"

typedef int32_t kmp_int32;
typedef uint32_t kmp_uint32;
typedef int64_t kmp_int64;
typedef uint64_t kmp_uint64;
/** Source location of a construct; clang passes one to every entry point; unused here. */
typedef struct ident ident_t;
/** clang's outlined parallel-region body: (global tid*, bound tid*, captured args...). */
typedef void (*kmpc_micro)(kmp_int32 *global_tid, kmp_int32 *bound_tid, ...);
/** Storage clang allocates per named critical section; word 0 is our lock. */
typedef kmp_int32 kmp_critical_name[8];

#define MAX_THREADS 64
#define MAX_ARGS 32
#define LOOP_RING 4
#define MAX_SERIAL_DEPTH 16

/* Schedule kinds (kmp.h enum sched_type). */
enum {
  SCH_STATIC_CHUNKED = 33,
  SCH_STATIC = 34,
  SCH_DYNAMIC_CHUNKED = 35,
  SCH_GUIDED_CHUNKED = 36,
  SCH_RUNTIME = 37,
  SCH_AUTO = 38,
  SCH_TRAPEZOIDAL = 39,
  SCH_STATIC_GREEDY = 40,
  SCH_STATIC_BALANCED = 41,
  SCH_GUIDED_ITERATIVE = 42,
  SCH_GUIDED_ANALYTICAL = 43,
  SCH_STATIC_STEAL = 44,
  SCH_STATIC_BALANCED_CHUNKED = 45,
  SCH_MODIFIERS = (1 << 29) | (1 << 30), /* monotonic, nonmonotonic */
};

static void fatal(const char *what, long value) {
  fprintf(stderr, "pubmatch-omp: %s (%ld)\n", what, value);
  abort();
}

/* ---------------------------------------------------------------- waiting ---------------- */

/* Polls before a waiting thread sleeps (about 1 ns per poll under Node on x86-64). 65,536 (~70 µs,
 * about what a futex wake-up costs) is the runtime's own default; the TypeScript loader sets
 * 1,000,000 (~1 ms, LoadWasmOptions.spinPolls), which catches the next of LightGBM's short
 * regions far more often and trained the issue-4 benchmark 9 % faster on 2 cores. */
static _Atomic uint32_t spin_polls = 65536;

/** Returns once *word != value: polls, then sleeps on the word (futex). */
static void wait_while_equal(_Atomic uint32_t *word, uint32_t value, _Atomic uint32_t *sleepers) {
  uint32_t polls = atomic_load_explicit(&spin_polls, memory_order_relaxed);
  for (uint32_t i = 0; i < polls; ++i) {
    if (atomic_load_explicit(word, memory_order_acquire) != value) {
      return;
    }
  }
  const double slice_ms = emscripten_is_main_runtime_thread() ? 1.0 : INFINITY;
  while (atomic_load(word) == value) {
    /* A waker bumps the word and then reads `sleepers` (both sequentially consistent), so it
     * either sees this sleeper or the sleeper sees the new word; the futex itself only sleeps
     * while the word still holds `value`. */
    atomic_fetch_add(sleepers, 1);
    if (atomic_load(word) == value) {
      emscripten_futex_wait((volatile void *)word, value, slice_ms);
    }
    atomic_fetch_sub(sleepers, 1);
  }
}

/** Wakes the threads sleeping on `word` (call after changing it). */
static void wake_all(_Atomic uint32_t *word, _Atomic uint32_t *sleepers) {
  if (atomic_load(sleepers) != 0) {
    emscripten_futex_wake((volatile void *)word, INT_MAX);
  }
}

/** Returns once *word == target. */
static void wait_until(_Atomic uint32_t *word, uint32_t target, _Atomic uint32_t *sleepers) {
  for (;;) {
    uint32_t now = atomic_load_explicit(word, memory_order_acquire);
    if (now == target) {
      return;
    }
    wait_while_equal(word, now, sleepers);
  }
}

/* A three-state futex lock (0 free, 1 locked, 2 locked with sleepers). */
static void lock_word(_Atomic uint32_t *word) {
  uint32_t expected = 0;
  if (atomic_compare_exchange_strong(word, &expected, 1)) {
    return;
  }
  uint32_t polls = atomic_load_explicit(&spin_polls, memory_order_relaxed);
  for (uint32_t i = 0; i < polls; ++i) {
    expected = 0;
    if (atomic_load_explicit(word, memory_order_relaxed) == 0 && atomic_compare_exchange_strong(word, &expected, 1)) {
      return;
    }
  }
  const double slice_ms = emscripten_is_main_runtime_thread() ? 1.0 : INFINITY;
  while (atomic_exchange(word, 2) != 0) {
    emscripten_futex_wait((volatile void *)word, 2, slice_ms);
  }
}

static void unlock_word(_Atomic uint32_t *word) {
  if (atomic_exchange(word, 0) == 2) {
    emscripten_futex_wake((volatile void *)word, 1);
  }
}

/* ---------------------------------------------------------------- state ------------------ */

/** Shared state of one dynamically scheduled loop (one slot of the ring). */
typedef struct {
  _Atomic uint64_t next;     /* next unclaimed iteration index */
  _Atomic uint32_t finished; /* threads that have seen the loop end */
  _Atomic uint32_t round;    /* how many loops used this slot so far */
  _Atomic uint32_t sleepers;
} loop_slot;

/** A worker's mailbox, on its own cache line. */
typedef struct {
  _Atomic uint32_t go; /* region sequence number the master asked it to run */
  _Atomic uint32_t sleepers;
  char pad[56];
} worker_box;

typedef struct {
  _Atomic uint32_t busy; /* lock: a region is running */
  int nthreads;          /* team size of the running region */
  kmpc_micro fn;
  int argc;
  void *args[MAX_ARGS];
  uint32_t seq; /* regions run so far */
  _Atomic uint32_t running;
  _Atomic uint32_t join_sleepers;
  _Atomic uint32_t bar_count;
  _Atomic uint32_t bar_gen;
  _Atomic uint32_t bar_sleepers;
  _Atomic uint32_t reduce_ticket;
  _Atomic uint32_t reduce_sleepers;
  _Atomic uint32_t single_next;
  loop_slot loops[LOOP_RING];
  int workers; /* worker threads started (they never exit) */
  worker_box box[MAX_THREADS];
} team_t;

static team_t team;
static pthread_mutex_t start_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic int thread_limit = 1;
static _Atomic int next_gtid = 0;
static _Atomic int stats[4];

/** Per-thread loop iterator of the dispatch (dynamic) interface. */
typedef struct {
  int kind;       /* schedule without modifiers */
  int serial;     /* team of one: the whole loop is one chunk */
  int done;       /* this thread has seen the end */
  uint64_t lb;    /* first value, as a 64-bit pattern */
  int64_t st;     /* step */
  uint64_t trip;  /* iterations */
  uint64_t chunk; /* >= 1 */
  uint64_t next;  /* static kinds: this thread's next chunk start */
  int slot;       /* dynamic kinds: ring slot */
} dispatch_t;

typedef struct {
  int init;
  int gtid;
  team_t *team; /* non-null while this thread runs an active region */
  int tid;
  int serial_depth;  /* serialised regions entered inside (or outside) `team` */
  int nthreads_var;  /* omp_set_num_threads; 0 = the thread limit */
  int pushed;        /* num_threads() clause for the next fork; 0 = none */
  uint32_t loop_seq; /* dynamic loops started in the current region */
  uint32_t reduce_seq;
  uint32_t single_seq;
  dispatch_t dispatch[MAX_SERIAL_DEPTH + 1];
} thread_t;

static _Thread_local thread_t self_state;

static thread_t *self(void) {
  thread_t *me = &self_state;
  if (!me->init) {
    me->init = 1;
    me->gtid = atomic_fetch_add(&next_gtid, 1);
  }
  return me;
}

/** The team the calling thread works in for worksharing, or NULL for a team of one. */
static team_t *current_team(thread_t *me) {
  return me->serial_depth == 0 ? me->team : NULL;
}

static int team_size(thread_t *me) {
  team_t *t = current_team(me);
  return t != NULL ? t->nthreads : 1;
}

static int team_tid(thread_t *me) {
  return current_team(me) != NULL ? me->tid : 0;
}

static void enter_region(thread_t *me, team_t *t, int tid) {
  me->team = t;
  me->tid = tid;
  me->serial_depth = 0;
  me->loop_seq = 0;
  me->reduce_seq = 0;
  me->single_seq = 0;
}

static void serial_enter(thread_t *me) {
  if (me->serial_depth >= MAX_SERIAL_DEPTH) {
    fatal("serialised parallel regions nested too deeply", me->serial_depth);
  }
  me->serial_depth += 1;
  me->pushed = 0;
}

static void serial_exit(thread_t *me) {
  me->serial_depth -= 1;
}

/* ---------------------------------------------------------------- fork / join ------------ */

/* Calls an outlined region body with its captured arguments. WebAssembly checks the exact
 * signature of indirect calls, so each argument count needs its own function type. */
#define P void *
#define A(i) a[i]
static void invoke(kmpc_micro fn, kmp_int32 *gtid, kmp_int32 *btid, int argc, void **a) {
  switch (argc) {
    case 0: ((void (*)(kmp_int32 *, kmp_int32 *))fn)(gtid, btid); break;
    case 1: ((void (*)(kmp_int32 *, kmp_int32 *, P))fn)(gtid, btid, A(0)); break;
    case 2: ((void (*)(kmp_int32 *, kmp_int32 *, P, P))fn)(gtid, btid, A(0), A(1)); break;
    case 3: ((void (*)(kmp_int32 *, kmp_int32 *, P, P, P))fn)(gtid, btid, A(0), A(1), A(2)); break;
    case 4: ((void (*)(kmp_int32 *, kmp_int32 *, P, P, P, P))fn)(gtid, btid, A(0), A(1), A(2), A(3)); break;
    case 5: ((void (*)(kmp_int32 *, kmp_int32 *, P, P, P, P, P))fn)(gtid, btid, A(0), A(1), A(2), A(3), A(4)); break;
    case 6:
      ((void (*)(kmp_int32 *, kmp_int32 *, P, P, P, P, P, P))fn)(gtid, btid, A(0), A(1), A(2), A(3), A(4), A(5));
      break;
    case 7:
      ((void (*)(kmp_int32 *, kmp_int32 *, P, P, P, P, P, P, P))fn)(gtid, btid, A(0), A(1), A(2), A(3), A(4), A(5),
                                                                     A(6));
      break;
    case 8:
      ((void (*)(kmp_int32 *, kmp_int32 *, P, P, P, P, P, P, P, P))fn)(gtid, btid, A(0), A(1), A(2), A(3), A(4),
                                                                        A(5), A(6), A(7));
      break;
    case 9:
      ((void (*)(kmp_int32 *, kmp_int32 *, P, P, P, P, P, P, P, P, P))fn)(gtid, btid, A(0), A(1), A(2), A(3), A(4),
                                                                           A(5), A(6), A(7), A(8));
      break;
    case 10:
      ((void (*)(kmp_int32 *, kmp_int32 *, P, P, P, P, P, P, P, P, P, P))fn)(gtid, btid, A(0), A(1), A(2), A(3),
                                                                              A(4), A(5), A(6), A(7), A(8), A(9));
      break;
    case 11:
      ((void (*)(kmp_int32 *, kmp_int32 *, P, P, P, P, P, P, P, P, P, P, P))fn)(
          gtid, btid, A(0), A(1), A(2), A(3), A(4), A(5), A(6), A(7), A(8), A(9), A(10));
      break;
    case 12:
      ((void (*)(kmp_int32 *, kmp_int32 *, P, P, P, P, P, P, P, P, P, P, P, P))fn)(
          gtid, btid, A(0), A(1), A(2), A(3), A(4), A(5), A(6), A(7), A(8), A(9), A(10), A(11));
      break;
    case 13:
      ((void (*)(kmp_int32 *, kmp_int32 *, P, P, P, P, P, P, P, P, P, P, P, P, P))fn)(
          gtid, btid, A(0), A(1), A(2), A(3), A(4), A(5), A(6), A(7), A(8), A(9), A(10), A(11), A(12));
      break;
    case 14:
      ((void (*)(kmp_int32 *, kmp_int32 *, P, P, P, P, P, P, P, P, P, P, P, P, P, P))fn)(
          gtid, btid, A(0), A(1), A(2), A(3), A(4), A(5), A(6), A(7), A(8), A(9), A(10), A(11), A(12), A(13));
      break;
    case 15:
      ((void (*)(kmp_int32 *, kmp_int32 *, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P))fn)(
          gtid, btid, A(0), A(1), A(2), A(3), A(4), A(5), A(6), A(7), A(8), A(9), A(10), A(11), A(12), A(13), A(14));
      break;
    case 16:
      ((void (*)(kmp_int32 *, kmp_int32 *, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P))fn)(
          gtid, btid, A(0), A(1), A(2), A(3), A(4), A(5), A(6), A(7), A(8), A(9), A(10), A(11), A(12), A(13), A(14),
          A(15));
      break;
    case 17:
      ((void (*)(kmp_int32 *, kmp_int32 *, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P))fn)(
          gtid, btid, A(0), A(1), A(2), A(3), A(4), A(5), A(6), A(7), A(8), A(9), A(10), A(11), A(12), A(13), A(14),
          A(15), A(16));
      break;
    case 18:
      ((void (*)(kmp_int32 *, kmp_int32 *, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P))fn)(
          gtid, btid, A(0), A(1), A(2), A(3), A(4), A(5), A(6), A(7), A(8), A(9), A(10), A(11), A(12), A(13), A(14),
          A(15), A(16), A(17));
      break;
    case 19:
      ((void (*)(kmp_int32 *, kmp_int32 *, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P))fn)(
          gtid, btid, A(0), A(1), A(2), A(3), A(4), A(5), A(6), A(7), A(8), A(9), A(10), A(11), A(12), A(13), A(14),
          A(15), A(16), A(17), A(18));
      break;
    case 20:
      ((void (*)(kmp_int32 *, kmp_int32 *, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P))fn)(
          gtid, btid, A(0), A(1), A(2), A(3), A(4), A(5), A(6), A(7), A(8), A(9), A(10), A(11), A(12), A(13), A(14),
          A(15), A(16), A(17), A(18), A(19));
      break;
    case 21:
      ((void (*)(kmp_int32 *, kmp_int32 *, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P))fn)(
          gtid, btid, A(0), A(1), A(2), A(3), A(4), A(5), A(6), A(7), A(8), A(9), A(10), A(11), A(12), A(13), A(14),
          A(15), A(16), A(17), A(18), A(19), A(20));
      break;
    case 22:
      ((void (*)(kmp_int32 *, kmp_int32 *, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P))fn)(
          gtid, btid, A(0), A(1), A(2), A(3), A(4), A(5), A(6), A(7), A(8), A(9), A(10), A(11), A(12), A(13), A(14),
          A(15), A(16), A(17), A(18), A(19), A(20), A(21));
      break;
    case 23:
      ((void (*)(kmp_int32 *, kmp_int32 *, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P))fn)(
          gtid, btid, A(0), A(1), A(2), A(3), A(4), A(5), A(6), A(7), A(8), A(9), A(10), A(11), A(12), A(13), A(14),
          A(15), A(16), A(17), A(18), A(19), A(20), A(21), A(22));
      break;
    case 24:
      ((void (*)(kmp_int32 *, kmp_int32 *, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P))fn)(
          gtid, btid, A(0), A(1), A(2), A(3), A(4), A(5), A(6), A(7), A(8), A(9), A(10), A(11), A(12), A(13), A(14),
          A(15), A(16), A(17), A(18), A(19), A(20), A(21), A(22), A(23));
      break;
    default: fatal("a parallel region captures more variables than this runtime supports", argc);
  }
}
#undef P
#undef A

static void *worker_main(void *arg) {
  const int tid = (int)(intptr_t)arg;
  thread_t *me = self();
  worker_box *box = &team.box[tid];
  uint32_t seen = 0;
  for (;;) {
    wait_while_equal(&box->go, seen, &box->sleepers);
    seen = atomic_load(&box->go);
    enter_region(me, &team, tid);
    kmp_int32 gtid = me->gtid;
    kmp_int32 btid = tid;
    invoke(team.fn, &gtid, &btid, team.argc, team.args);
    me->team = NULL;
    if (atomic_fetch_sub(&team.running, 1) == 1) {
      wake_all(&team.running, &team.join_sleepers);
    }
  }
  return NULL;
}

/** Starts workers until the team can have `wanted` threads; returns how many it can have. */
static int ensure_workers(int wanted) {
  if (team.workers + 1 >= wanted) {
    return wanted;
  }
  pthread_mutex_lock(&start_lock);
  while (team.workers + 1 < wanted) {
    const int tid = team.workers + 1;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_t thread;
    const int rc = pthread_create(&thread, &attr, worker_main, (void *)(intptr_t)tid);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
      /* No Web Worker left in Emscripten's pool: never ask again for more than we have. */
      atomic_store(&thread_limit, team.workers + 1);
      break;
    }
    team.workers = tid;
    atomic_fetch_add(&stats[3], 1);
  }
  const int available = team.workers + 1;
  pthread_mutex_unlock(&start_lock);
  return wanted < available ? wanted : available;
}

kmp_int32 __kmpc_global_thread_num(ident_t *loc) {
  (void)loc;
  return self()->gtid;
}

void __kmpc_push_num_threads(ident_t *loc, kmp_int32 gtid, kmp_int32 num_threads) {
  (void)loc;
  (void)gtid;
  self()->pushed = num_threads > 0 ? num_threads : 0;
}

void __kmpc_serialized_parallel(ident_t *loc, kmp_int32 gtid) {
  (void)loc;
  (void)gtid;
  serial_enter(self());
  atomic_fetch_add(&stats[1], 1);
}

void __kmpc_end_serialized_parallel(ident_t *loc, kmp_int32 gtid) {
  (void)loc;
  (void)gtid;
  serial_exit(self());
}

void __kmpc_fork_call(ident_t *loc, kmp_int32 argc, kmpc_micro fn, ...) {
  (void)loc;
  if (argc < 0 || argc > MAX_ARGS) {
    fatal("a parallel region captures more variables than this runtime supports", argc);
  }
  void *args[MAX_ARGS];
  va_list ap;
  va_start(ap, fn);
  for (int i = 0; i < argc; ++i) {
    args[i] = va_arg(ap, void *);
  }
  va_end(ap);

  thread_t *me = self();
  const int limit = atomic_load(&thread_limit);
  int n = me->pushed > 0 ? me->pushed : (me->nthreads_var > 0 ? me->nthreads_var : limit);
  me->pushed = 0;
  if (n > limit) {
    n = limit;
  }
  if (me->team != NULL || me->serial_depth > 0) {
    n = 1; /* nested parallelism is serialised */
  }
  if (n > 1) {
    n = ensure_workers(n);
  }
  uint32_t unlocked = 0;
  if (n > 1 && !atomic_compare_exchange_strong(&team.busy, &unlocked, 1)) {
    n = 1; /* another thread is running a region with the team */
  }
  kmp_int32 gtid = me->gtid;
  kmp_int32 btid = 0;
  if (n <= 1) {
    serial_enter(me);
    atomic_fetch_add(&stats[1], 1);
    invoke(fn, &gtid, &btid, argc, args);
    serial_exit(me);
    return;
  }

  team.nthreads = n;
  team.fn = fn;
  team.argc = argc;
  memcpy(team.args, args, sizeof(void *) * (size_t)argc);
  atomic_store(&team.bar_count, 0);
  atomic_store(&team.reduce_ticket, 0);
  atomic_store(&team.single_next, 0);
  for (int i = 0; i < LOOP_RING; ++i) {
    atomic_store(&team.loops[i].next, 0);
    atomic_store(&team.loops[i].finished, 0);
    atomic_store(&team.loops[i].round, 0);
  }
  atomic_store(&team.running, (uint32_t)(n - 1));
  team.seq += 1;
  for (int t = 1; t < n; ++t) {
    atomic_store(&team.box[t].go, team.seq);
    wake_all(&team.box[t].go, &team.box[t].sleepers);
  }

  const int outer_nthreads_var = me->nthreads_var;
  enter_region(me, &team, 0);
  invoke(fn, &gtid, &btid, argc, args);
  me->team = NULL;
  me->nthreads_var = outer_nthreads_var;

  for (;;) {
    const uint32_t left = atomic_load(&team.running);
    if (left == 0) {
      break;
    }
    wait_while_equal(&team.running, left, &team.join_sleepers);
  }
  atomic_fetch_add(&stats[0], 1);
  if (n > atomic_load(&stats[2])) {
    atomic_store(&stats[2], n);
  }
  atomic_store(&team.busy, 0);
}

/* ---------------------------------------------------------------- synchronisation -------- */

static void team_barrier(thread_t *me) {
  team_t *t = current_team(me);
  if (t == NULL || t->nthreads == 1) {
    return;
  }
  const uint32_t gen = atomic_load(&t->bar_gen);
  if (atomic_fetch_add(&t->bar_count, 1) + 1 == (uint32_t)t->nthreads) {
    atomic_store(&t->bar_count, 0);
    atomic_fetch_add(&t->bar_gen, 1);
    wake_all(&t->bar_gen, &t->bar_sleepers);
  } else {
    wait_while_equal(&t->bar_gen, gen, &t->bar_sleepers);
  }
}

void __kmpc_barrier(ident_t *loc, kmp_int32 gtid) {
  (void)loc;
  (void)gtid;
  team_barrier(self());
}

void __kmpc_flush(ident_t *loc) {
  (void)loc;
  atomic_thread_fence(memory_order_seq_cst);
}

/* Names clang gives the lock words of `#pragma omp critical` (unnamed) and of reductions.
 * On native targets they are common symbols; clang leaves them undefined in WebAssembly objects
 * but defines them (common) in LTO bitcode, so these definitions are weak: a bitcode one wins. */
__attribute__((weak, aligned(8))) kmp_critical_name pubmatch_omp_unnamed_critical __asm__(".gomp_critical_user_.var");
__attribute__((weak, aligned(8))) kmp_critical_name pubmatch_omp_reduction_critical __asm__(
    ".gomp_critical_user_.reduction.var");

void __kmpc_critical(ident_t *loc, kmp_int32 gtid, kmp_critical_name *crit) {
  (void)loc;
  (void)gtid;
  lock_word((_Atomic uint32_t *)&(*crit)[0]);
}

void __kmpc_critical_with_hint(ident_t *loc, kmp_int32 gtid, kmp_critical_name *crit, uint32_t hint) {
  (void)hint;
  __kmpc_critical(loc, gtid, crit);
}

void __kmpc_end_critical(ident_t *loc, kmp_int32 gtid, kmp_critical_name *crit) {
  (void)loc;
  (void)gtid;
  unlock_word((_Atomic uint32_t *)&(*crit)[0]);
}

kmp_int32 __kmpc_master(ident_t *loc, kmp_int32 gtid) {
  (void)loc;
  (void)gtid;
  return team_tid(self()) == 0;
}

void __kmpc_end_master(ident_t *loc, kmp_int32 gtid) {
  (void)loc;
  (void)gtid;
}

kmp_int32 __kmpc_masked(ident_t *loc, kmp_int32 gtid, kmp_int32 filter) {
  (void)loc;
  (void)gtid;
  return team_tid(self()) == filter;
}

void __kmpc_end_masked(ident_t *loc, kmp_int32 gtid) {
  (void)loc;
  (void)gtid;
}

/** The first thread to reach its k-th single construct of a region runs it. */
kmp_int32 __kmpc_single(ident_t *loc, kmp_int32 gtid) {
  (void)loc;
  (void)gtid;
  thread_t *me = self();
  team_t *t = current_team(me);
  if (t == NULL) {
    return 1;
  }
  uint32_t k = me->single_seq++;
  return atomic_compare_exchange_strong(&t->single_next, &k, k + 1) ? 1 : 0;
}

void __kmpc_end_single(ident_t *loc, kmp_int32 gtid) {
  (void)loc;
  (void)gtid;
}

/* Reductions. clang's code after a return value of 1 combines this thread's private copies into
 * the shared variables and then calls __kmpc_end_reduce(_nowait). We return 1 to every thread,
 * one at a time in thread-number order: the k-th reduction of thread t runs when the ticket
 * reaches k * nthreads + t. The lock argument (clang's `.reduction.var`) is not needed. */
static kmp_int32 reduce_begin(void) {
  thread_t *me = self();
  team_t *t = current_team(me);
  if (t != NULL && t->nthreads > 1) {
    const uint32_t k = me->reduce_seq++;
    wait_until(&t->reduce_ticket, k * (uint32_t)t->nthreads + (uint32_t)me->tid, &t->reduce_sleepers);
  }
  return 1;
}

static void reduce_end(int barrier) {
  thread_t *me = self();
  team_t *t = current_team(me);
  if (t != NULL && t->nthreads > 1) {
    atomic_fetch_add(&t->reduce_ticket, 1);
    wake_all(&t->reduce_ticket, &t->reduce_sleepers);
    if (barrier) {
      team_barrier(me);
    }
  }
}

kmp_int32 __kmpc_reduce_nowait(ident_t *loc, kmp_int32 gtid, kmp_int32 num_vars, size_t reduce_size,
                               void *reduce_data, void (*reduce_func)(void *lhs, void *rhs),
                               kmp_critical_name *lck) {
  (void)loc, (void)gtid, (void)num_vars, (void)reduce_size, (void)reduce_data, (void)reduce_func, (void)lck;
  return reduce_begin();
}

void __kmpc_end_reduce_nowait(ident_t *loc, kmp_int32 gtid, kmp_critical_name *lck) {
  (void)loc, (void)gtid, (void)lck;
  reduce_end(0);
}

kmp_int32 __kmpc_reduce(ident_t *loc, kmp_int32 gtid, kmp_int32 num_vars, size_t reduce_size, void *reduce_data,
                        void (*reduce_func)(void *lhs, void *rhs), kmp_critical_name *lck) {
  (void)loc, (void)gtid, (void)num_vars, (void)reduce_size, (void)reduce_data, (void)reduce_func, (void)lck;
  return reduce_begin();
}

void __kmpc_end_reduce(ident_t *loc, kmp_int32 gtid, kmp_critical_name *lck) {
  (void)loc, (void)gtid, (void)lck;
  reduce_end(1);
}

/* ---------------------------------------------------------------- loops ------------------ */

/* Loops are handled in a 64-bit iteration space: iteration i (0 <= i < trip) has the value
 * lb + i * st, computed modulo 2^64 and truncated to the loop variable's width on the way out.
 * lb and ub arrive sign-extended (signed variants) or zero-extended (unsigned ones). */
static uint64_t trip_count(uint64_t lb, uint64_t ub, int64_t st, int is_signed) {
  if (st == 0) {
    fatal("loop increment of zero", 0);
  }
  if (st > 0) {
    if (is_signed ? (int64_t)ub < (int64_t)lb : ub < lb) {
      return 0;
    }
    return (ub - lb) / (uint64_t)st + 1;
  }
  if (is_signed ? (int64_t)lb < (int64_t)ub : lb < ub) {
    return 0;
  }
  return (lb - ub) / ((uint64_t)(-(st + 1)) + 1) + 1;
}

/** Static schedules. Outputs are 64-bit patterns of lower/upper bound and stride. */
static void static_init(int sched, kmp_int32 *plastiter, uint64_t *plower, uint64_t *pupper, int64_t *pstride,
                        int64_t st, int64_t chunk, int is_signed) {
  thread_t *me = self();
  const uint64_t lb = *plower;
  const uint64_t trip = trip_count(lb, *pupper, st, is_signed);
  const uint64_t n = (uint64_t)team_size(me);
  const uint64_t tid = (uint64_t)team_tid(me);
  if (trip == 0) {
    *plastiter = 0;
    *pstride = st;
    return;
  }
  if (n == 1) {
    /* The whole loop; a stride that steps past the end ends clang's chunk loop. */
    *plastiter = 1;
    *pupper = lb + (trip - 1) * (uint64_t)st;
    *pstride = (int64_t)(trip * (uint64_t)st);
    return;
  }
  sched &= ~SCH_MODIFIERS;
  if (sched == SCH_STATIC || sched == SCH_STATIC_BALANCED || sched == SCH_STATIC_GREEDY || chunk < 1) {
    if (sched != SCH_STATIC && sched != SCH_STATIC_BALANCED && sched != SCH_STATIC_GREEDY &&
        sched != SCH_STATIC_CHUNKED && sched != SCH_STATIC_BALANCED_CHUNKED) {
      fatal("unsupported static schedule kind", sched);
    }
    /* One contiguous block per thread; the first trip % n threads get one extra iteration. */
    uint64_t begin, count;
    if (trip < n) {
      begin = tid < trip ? tid : trip;
      count = tid < trip ? 1 : 0;
      *plastiter = tid == trip - 1;
    } else {
      const uint64_t small = trip / n, extras = trip % n;
      begin = tid * small + (tid < extras ? tid : extras);
      count = small + (tid < extras ? 1 : 0);
      *plastiter = tid == n - 1;
    }
    *plower = lb + begin * (uint64_t)st;
    *pupper = lb + (begin + count - 1) * (uint64_t)st; /* count 0: one step before lower */
    *pstride = (int64_t)(trip * (uint64_t)st);
    return;
  }
  if (sched != SCH_STATIC_CHUNKED && sched != SCH_STATIC_BALANCED_CHUNKED) {
    fatal("unsupported static schedule kind", sched);
  }
  /* Round-robin chunks: thread t runs chunks t, t + n, t + 2n, ... */
  const uint64_t c = (uint64_t)chunk;
  const uint64_t begin = tid * c;
  uint64_t last_index = begin + c - 1;
  if (begin < trip && last_index >= trip) {
    last_index = trip - 1; /* the final, partial chunk: keeps the upper bound from overflowing */
  }
  *plower = lb + begin * (uint64_t)st;
  *pupper = lb + last_index * (uint64_t)st;
  *pstride = (int64_t)(n * c * (uint64_t)st);
  *plastiter = tid == ((trip - 1) / c) % n;
}

void __kmpc_for_static_init_4(ident_t *loc, kmp_int32 gtid, kmp_int32 schedtype, kmp_int32 *plastiter,
                              kmp_int32 *plower, kmp_int32 *pupper, kmp_int32 *pstride, kmp_int32 incr,
                              kmp_int32 chunk) {
  (void)loc, (void)gtid;
  uint64_t lower = (uint64_t)(int64_t)*plower, upper = (uint64_t)(int64_t)*pupper;
  int64_t stride = 0;
  static_init(schedtype, plastiter, &lower, &upper, &stride, incr, chunk, 1);
  *plower = (kmp_int32)lower;
  *pupper = (kmp_int32)upper;
  *pstride = (kmp_int32)stride;
}

void __kmpc_for_static_init_4u(ident_t *loc, kmp_int32 gtid, kmp_int32 schedtype, kmp_int32 *plastiter,
                               kmp_uint32 *plower, kmp_uint32 *pupper, kmp_int32 *pstride, kmp_int32 incr,
                               kmp_int32 chunk) {
  (void)loc, (void)gtid;
  uint64_t lower = *plower, upper = *pupper;
  int64_t stride = 0;
  static_init(schedtype, plastiter, &lower, &upper, &stride, incr, chunk, 0);
  *plower = (kmp_uint32)lower;
  *pupper = (kmp_uint32)upper;
  *pstride = (kmp_int32)stride;
}

void __kmpc_for_static_init_8(ident_t *loc, kmp_int32 gtid, kmp_int32 schedtype, kmp_int32 *plastiter,
                              kmp_int64 *plower, kmp_int64 *pupper, kmp_int64 *pstride, kmp_int64 incr,
                              kmp_int64 chunk) {
  (void)loc, (void)gtid;
  uint64_t lower = (uint64_t)*plower, upper = (uint64_t)*pupper;
  int64_t stride = 0;
  static_init(schedtype, plastiter, &lower, &upper, &stride, incr, chunk, 1);
  *plower = (kmp_int64)lower;
  *pupper = (kmp_int64)upper;
  *pstride = stride;
}

void __kmpc_for_static_init_8u(ident_t *loc, kmp_int32 gtid, kmp_int32 schedtype, kmp_int32 *plastiter,
                               kmp_uint64 *plower, kmp_uint64 *pupper, kmp_int64 *pstride, kmp_int64 incr,
                               kmp_int64 chunk) {
  (void)loc, (void)gtid;
  uint64_t lower = *plower, upper = *pupper;
  int64_t stride = 0;
  static_init(schedtype, plastiter, &lower, &upper, &stride, incr, chunk, 0);
  *plower = lower;
  *pupper = upper;
  *pstride = stride;
}

void __kmpc_for_static_fini(ident_t *loc, kmp_int32 gtid) {
  (void)loc, (void)gtid;
}

/* Dispatch (dynamic, guided; static kinds too, for schedule(runtime)). */
static void dispatch_init(int sched, uint64_t lb, uint64_t ub, int64_t st, int64_t chunk, int is_signed) {
  thread_t *me = self();
  dispatch_t *d = &me->dispatch[me->serial_depth];
  d->kind = sched & ~SCH_MODIFIERS;
  if (d->kind == SCH_RUNTIME || d->kind == SCH_AUTO || d->kind == SCH_TRAPEZOIDAL || d->kind == SCH_STATIC_STEAL) {
    d->kind = SCH_DYNAMIC_CHUNKED;
  } else if (d->kind == SCH_GUIDED_ITERATIVE || d->kind == SCH_GUIDED_ANALYTICAL) {
    d->kind = SCH_GUIDED_CHUNKED;
  } else if (d->kind == SCH_STATIC_BALANCED || d->kind == SCH_STATIC_GREEDY) {
    d->kind = SCH_STATIC;
  } else if (d->kind == SCH_STATIC_BALANCED_CHUNKED) {
    d->kind = SCH_STATIC_CHUNKED;
  } else if (d->kind != SCH_STATIC && d->kind != SCH_STATIC_CHUNKED && d->kind != SCH_DYNAMIC_CHUNKED &&
             d->kind != SCH_GUIDED_CHUNKED) {
    fatal("unsupported dispatch schedule kind", sched);
  }
  d->lb = lb;
  d->st = st;
  d->trip = trip_count(lb, ub, st, is_signed);
  d->chunk = chunk < 1 ? 1 : (uint64_t)chunk;
  d->done = d->trip == 0;
  team_t *t = current_team(me);
  d->serial = t == NULL || t->nthreads == 1;
  if (d->serial) {
    return;
  }
  const uint64_t n = (uint64_t)t->nthreads, tid = (uint64_t)me->tid;
  if (d->kind == SCH_STATIC) {
    /* one balanced block per thread, handed out as a single chunk */
    const uint64_t small = d->trip / n, extras = d->trip % n;
    d->next = tid * small + (tid < extras ? tid : extras);
    d->chunk = small + (tid < extras ? 1 : 0);
    d->done = d->chunk == 0;
    return;
  }
  if (d->kind == SCH_STATIC_CHUNKED) {
    d->next = tid * d->chunk;
    d->done = d->next >= d->trip;
    return;
  }
  /* dynamic and guided: wait until the ring slot's previous loop is finished by every thread */
  const uint32_t k = me->loop_seq++;
  d->slot = (int)(k % LOOP_RING);
  loop_slot *s = &t->loops[d->slot];
  wait_until(&s->round, k / LOOP_RING, &s->sleepers);
}

static void dispatch_finish(team_t *t, dispatch_t *d) {
  loop_slot *s = &t->loops[d->slot];
  if (atomic_fetch_add(&s->finished, 1) + 1 == (uint32_t)t->nthreads) {
    atomic_store(&s->next, 0);
    atomic_store(&s->finished, 0);
    atomic_fetch_add(&s->round, 1);
    wake_all(&s->round, &s->sleepers);
  }
}

/** Next chunk as iteration indices [*first, *last]; 0 when the loop is over for this thread. */
static int dispatch_next(kmp_int32 *p_last, uint64_t *p_lb, uint64_t *p_ub, int64_t *p_st) {
  thread_t *me = self();
  dispatch_t *d = &me->dispatch[me->serial_depth];
  uint64_t first, count;
  if (d->done) {
    return 0;
  }
  team_t *t = current_team(me);
  if (d->serial) {
    first = 0;
    count = d->trip;
    d->done = 1;
  } else if (d->kind == SCH_STATIC) {
    first = d->next;
    count = d->chunk;
    d->done = 1;
  } else if (d->kind == SCH_STATIC_CHUNKED) {
    first = d->next;
    count = d->trip - first < d->chunk ? d->trip - first : d->chunk;
    d->next += d->chunk * (uint64_t)t->nthreads;
    d->done = d->next >= d->trip;
  } else {
    loop_slot *s = &t->loops[d->slot];
    if (d->kind == SCH_DYNAMIC_CHUNKED) {
      first = atomic_fetch_add(&s->next, d->chunk);
      if (first >= d->trip) {
        d->done = 1;
        dispatch_finish(t, d);
        return 0;
      }
      count = d->trip - first < d->chunk ? d->trip - first : d->chunk;
    } else {
      /* guided: a share of what is left, shrinking towards the chunk size */
      first = atomic_load(&s->next);
      for (;;) {
        if (first >= d->trip) {
          d->done = 1;
          dispatch_finish(t, d);
          return 0;
        }
        const uint64_t left = d->trip - first;
        count = (left + 2 * (uint64_t)t->nthreads - 1) / (2 * (uint64_t)t->nthreads);
        if (count < d->chunk) {
          count = d->chunk;
        }
        if (count > left) {
          count = left;
        }
        if (atomic_compare_exchange_weak(&s->next, &first, first + count)) {
          break;
        }
      }
    }
  }
  *p_lb = d->lb + first * (uint64_t)d->st;
  *p_ub = d->lb + (first + count - 1) * (uint64_t)d->st;
  *p_st = d->st;
  if (p_last != NULL) {
    *p_last = first + count == d->trip;
  }
  return 1;
}

void __kmpc_dispatch_init_4(ident_t *loc, kmp_int32 gtid, kmp_int32 schedule, kmp_int32 lb, kmp_int32 ub,
                            kmp_int32 st, kmp_int32 chunk) {
  (void)loc, (void)gtid;
  dispatch_init(schedule, (uint64_t)(int64_t)lb, (uint64_t)(int64_t)ub, st, chunk, 1);
}

void __kmpc_dispatch_init_4u(ident_t *loc, kmp_int32 gtid, kmp_int32 schedule, kmp_uint32 lb, kmp_uint32 ub,
                             kmp_int32 st, kmp_int32 chunk) {
  (void)loc, (void)gtid;
  dispatch_init(schedule, lb, ub, st, chunk, 0);
}

void __kmpc_dispatch_init_8(ident_t *loc, kmp_int32 gtid, kmp_int32 schedule, kmp_int64 lb, kmp_int64 ub,
                            kmp_int64 st, kmp_int64 chunk) {
  (void)loc, (void)gtid;
  dispatch_init(schedule, (uint64_t)lb, (uint64_t)ub, st, chunk, 1);
}

void __kmpc_dispatch_init_8u(ident_t *loc, kmp_int32 gtid, kmp_int32 schedule, kmp_uint64 lb, kmp_uint64 ub,
                             kmp_int64 st, kmp_int64 chunk) {
  (void)loc, (void)gtid;
  dispatch_init(schedule, lb, ub, st, chunk, 0);
}

int __kmpc_dispatch_next_4(ident_t *loc, kmp_int32 gtid, kmp_int32 *p_last, kmp_int32 *p_lb, kmp_int32 *p_ub,
                           kmp_int32 *p_st) {
  (void)loc, (void)gtid;
  uint64_t lb, ub;
  int64_t st;
  if (!dispatch_next(p_last, &lb, &ub, &st)) {
    return 0;
  }
  *p_lb = (kmp_int32)lb;
  *p_ub = (kmp_int32)ub;
  if (p_st != NULL) {
    *p_st = (kmp_int32)st;
  }
  return 1;
}

int __kmpc_dispatch_next_4u(ident_t *loc, kmp_int32 gtid, kmp_int32 *p_last, kmp_uint32 *p_lb, kmp_uint32 *p_ub,
                            kmp_int32 *p_st) {
  (void)loc, (void)gtid;
  uint64_t lb, ub;
  int64_t st;
  if (!dispatch_next(p_last, &lb, &ub, &st)) {
    return 0;
  }
  *p_lb = (kmp_uint32)lb;
  *p_ub = (kmp_uint32)ub;
  if (p_st != NULL) {
    *p_st = (kmp_int32)st;
  }
  return 1;
}

int __kmpc_dispatch_next_8(ident_t *loc, kmp_int32 gtid, kmp_int32 *p_last, kmp_int64 *p_lb, kmp_int64 *p_ub,
                           kmp_int64 *p_st) {
  (void)loc, (void)gtid;
  uint64_t lb, ub;
  int64_t st;
  if (!dispatch_next(p_last, &lb, &ub, &st)) {
    return 0;
  }
  *p_lb = (kmp_int64)lb;
  *p_ub = (kmp_int64)ub;
  if (p_st != NULL) {
    *p_st = st;
  }
  return 1;
}

int __kmpc_dispatch_next_8u(ident_t *loc, kmp_int32 gtid, kmp_int32 *p_last, kmp_uint64 *p_lb, kmp_uint64 *p_ub,
                            kmp_int64 *p_st) {
  (void)loc, (void)gtid;
  uint64_t lb, ub;
  int64_t st;
  if (!dispatch_next(p_last, &lb, &ub, &st)) {
    return 0;
  }
  *p_lb = lb;
  *p_ub = ub;
  if (p_st != NULL) {
    *p_st = st;
  }
  return 1;
}

/* Only ordered loops call these; they need no action here. */
void __kmpc_dispatch_fini_4(ident_t *loc, kmp_int32 gtid) { (void)loc, (void)gtid; }
void __kmpc_dispatch_fini_4u(ident_t *loc, kmp_int32 gtid) { (void)loc, (void)gtid; }
void __kmpc_dispatch_fini_8(ident_t *loc, kmp_int32 gtid) { (void)loc, (void)gtid; }
void __kmpc_dispatch_fini_8u(ident_t *loc, kmp_int32 gtid) { (void)loc, (void)gtid; }

/* ---------------------------------------------------------------- user API --------------- */

void omp_set_num_threads(int num_threads) {
  self()->nthreads_var = num_threads > 0 ? num_threads : 0;
}

int omp_get_num_threads(void) {
  return team_size(self());
}

int omp_get_thread_num(void) {
  return team_tid(self());
}

int omp_get_max_threads(void) {
  thread_t *me = self();
  if (me->team != NULL || me->serial_depth > 0) {
    return 1; /* a nested region would be serialised */
  }
  const int limit = atomic_load(&thread_limit);
  return me->nthreads_var > 0 && me->nthreads_var < limit ? me->nthreads_var : limit;
}

int omp_get_num_procs(void) {
  return atomic_load(&thread_limit);
}

int omp_get_thread_limit(void) {
  return atomic_load(&thread_limit);
}

int omp_in_parallel(void) {
  return self()->team != NULL;
}

int omp_get_level(void) {
  thread_t *me = self();
  return (me->team != NULL ? 1 : 0) + me->serial_depth;
}

int omp_get_active_level(void) {
  return self()->team != NULL;
}

void omp_set_dynamic(int dynamic_threads) {
  (void)dynamic_threads;
}

int omp_get_dynamic(void) {
  return 0;
}

double omp_get_wtime(void) {
  return emscripten_get_now() / 1000.0;
}

void pubmatch_omp_set_thread_limit(int threads) {
  atomic_store(&thread_limit, threads < 1 ? 1 : threads > MAX_THREADS ? MAX_THREADS : threads);
}

void pubmatch_omp_set_spin(int polls) {
  atomic_store(&spin_polls, polls < 0 ? 0u : (uint32_t)polls);
}

int pubmatch_omp_stat(int which) {
  return which >= 0 && which < 4 ? atomic_load(&stats[which]) : -1;
}
