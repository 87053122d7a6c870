/*
 * Unit test of pubmatch_omp.c, compiled by clang's -fopenmp like LightGBM and run under Node:
 *   emcc -O2 -fopenmp -pthread -sPTHREAD_POOL_SIZE=3 -sPTHREAD_POOL_SIZE_STRICT=2 -sEXIT_RUNTIME=1
 *        -sENVIRONMENT=node -sWASM_ASYNC_COMPILATION=0 -Icsrc/omp csrc/omp/pubmatch_omp_test.c
 *        csrc/omp/pubmatch_omp.c -o omp-test.js && node omp-test.js
 * (src/omp-runtime.test.ts does this.) Prints one "ok"/"not ok" line per check, TAP-like, and
 * exits with the number of failed checks. Expected values are worked out in the comments.
 */
#include <omp.h>
#include <pubmatch_omp.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int failures = 0;

static void check(int ok, const char *name, const char *detail) {
  if (ok) {
    printf("ok - %s\n", name);
  } else {
    printf("not ok - %s: %s\n", name, detail);
    failures += 1;
  }
}

static int same_ints(const int *got, const int *want, int n, char *detail) {
  for (int i = 0; i < n; ++i) {
    if (got[i] != want[i]) {
      snprintf(detail, 200, "index %d is %d, expected %d", i, got[i], want[i]);
      return 0;
    }
  }
  return 1;
}

static void test_team(void) {
  int ids[8] = {0}, sizes[8] = {0}, in_parallel[8] = {0}, levels[8] = {0};
  _Atomic int arrived = 0;
#pragma omp parallel num_threads(4)
  {
    const int t = omp_get_thread_num();
    ids[t] += 1;
    sizes[t] = omp_get_num_threads();
    in_parallel[t] = omp_in_parallel();
    levels[t] = omp_get_level();
    atomic_fetch_add(&arrived, 1);
  }
  const int ones[4] = {1, 1, 1, 1}, fours[4] = {4, 4, 4, 4};
  char detail[200] = "";
  check(arrived == 4 && same_ints(ids, ones, 4, detail), "a region of 4 runs thread numbers 0..3 once each", detail);
  check(same_ints(sizes, fours, 4, detail) && same_ints(in_parallel, ones, 4, detail) &&
            same_ints(levels, ones, 4, detail),
        "threads see team size 4, level 1 and omp_in_parallel", detail);
  check(omp_get_num_threads() == 1 && omp_get_thread_num() == 0 && !omp_in_parallel() && omp_get_level() == 0,
        "outside a region the team is the calling thread alone", "");
}

static void test_static_balanced(void) {
  /* 10 iterations over 4 threads: 10 = 4 * 2 + 2, so threads 0 and 1 get 3, threads 2 and 3 get 2. */
  int owner[10];
  memset(owner, -1, sizeof owner);
#pragma omp parallel for schedule(static) num_threads(4)
  for (int i = 0; i < 10; ++i) {
    owner[i] = omp_get_thread_num();
  }
  const int want[10] = {0, 0, 0, 1, 1, 1, 2, 2, 3, 3};
  char detail[200] = "";
  check(same_ints(owner, want, 10, detail), "schedule(static) gives balanced contiguous blocks", detail);

  /* 3 iterations over 4 threads: one each for threads 0..2, none for thread 3. */
  int few[3] = {-1, -1, -1};
  int ran[4] = {0};
#pragma omp parallel for schedule(static) num_threads(4)
  for (int i = 0; i < 3; ++i) {
    few[i] = omp_get_thread_num();
    ran[omp_get_thread_num()] += 1;
  }
  const int want_few[3] = {0, 1, 2}, want_ran[4] = {1, 1, 1, 0};
  check(same_ints(few, want_few, 3, detail) && same_ints(ran, want_ran, 4, detail),
        "schedule(static) with fewer iterations than threads leaves the last thread idle", detail);
}

static void test_static_chunked(void) {
  /* schedule(static, 2), 11 iterations, 3 threads: chunk c = i / 2 goes to thread c % 3. */
  int owner[11];
#pragma omp parallel for schedule(static, 2) num_threads(3)
  for (int i = 0; i < 11; ++i) {
    owner[i] = omp_get_thread_num();
  }
  const int want[11] = {0, 0, 1, 1, 2, 2, 0, 0, 1, 1, 2};
  char detail[200] = "";
  check(same_ints(owner, want, 11, detail), "schedule(static, 2) deals chunks round-robin", detail);
}

static void test_loop_types(void) {
  /* i = 20, 17, ..., 2: 7 iterations; 7 = 4 * 1 + 3, so blocks of 2, 2, 2, 1. */
  int owner[21];
  memset(owner, -1, sizeof owner);
#pragma omp parallel for schedule(static) num_threads(4)
  for (int i = 20; i > 0; i -= 3) {
    owner[i] = omp_get_thread_num();
  }
  const int values[7] = {20, 17, 14, 11, 8, 5, 2}, want[7] = {0, 0, 1, 1, 2, 2, 3};
  int got[7];
  for (int k = 0; k < 7; ++k) {
    got[k] = owner[values[k]];
  }
  char detail[200] = "";
  check(same_ints(got, want, 7, detail), "a decreasing loop with step -3 is split by iteration count", detail);

  /* unsigned 32-bit values above 2^31 and signed 64-bit values around zero */
  _Atomic int hits_u[10] = {0}, hits_ll[10] = {0};
#pragma omp parallel for schedule(static) num_threads(4)
  for (unsigned i = 4000000000u; i < 4000000010u; ++i) {
    atomic_fetch_add(&hits_u[i - 4000000000u], 1);
  }
#pragma omp parallel for schedule(static, 3) num_threads(4)
  for (long long i = -5; i < 5; ++i) {
    atomic_fetch_add(&hits_ll[i + 5], 1);
  }
  int ok = 1;
  for (int k = 0; k < 10; ++k) {
    ok = ok && hits_u[k] == 1 && hits_ll[k] == 1;
  }
  check(ok, "unsigned and 64-bit loops run every iteration once", "an iteration ran 0 or 2+ times");
}

static void test_dynamic(void) {
  enum { N = 1000 };
  static _Atomic int dyn[N], guided[N], dyn64[N];
#pragma omp parallel for schedule(dynamic, 3) num_threads(4)
  for (int i = 0; i < N; ++i) {
    atomic_fetch_add(&dyn[i], 1);
  }
#pragma omp parallel for schedule(guided) num_threads(4)
  for (unsigned i = 0; i < N; ++i) {
    atomic_fetch_add(&guided[i], 1);
  }
#pragma omp parallel for schedule(dynamic) num_threads(4)
  for (unsigned long long i = 0; i < N; ++i) {
    atomic_fetch_add(&dyn64[i], 1);
  }
  int ok = 1;
  for (int i = 0; i < N; ++i) {
    ok = ok && dyn[i] == 1 && guided[i] == 1 && dyn64[i] == 1;
  }
  check(ok, "dynamic and guided loops run every iteration once", "an iteration ran 0 or 2+ times");

  /* ten consecutive nowait dynamic loops in one region overlap in the loop ring */
  static _Atomic int ring[10][50];
#pragma omp parallel num_threads(4)
  {
    for (int loop = 0; loop < 10; ++loop) {
#pragma omp for schedule(dynamic, 1) nowait
      for (int i = 0; i < 50; ++i) {
        atomic_fetch_add(&ring[loop][i], 1);
      }
    }
  }
  ok = 1;
  for (int loop = 0; loop < 10; ++loop) {
    for (int i = 0; i < 50; ++i) {
      ok = ok && ring[loop][i] == 1;
    }
  }
  check(ok, "consecutive nowait dynamic loops each run every iteration once", "an iteration ran 0 or 2+ times");
}

static void test_reduction(void) {
  long long total = 0;
#pragma omp parallel for schedule(static) reduction(+ : total) num_threads(4)
  for (int i = 1; i <= 100000; ++i) {
    total += i;
  }
  check(total == 5000050000LL, "an integer + reduction sums 1..100000 to 5000050000", "wrong sum");

  /* Threads add their partial sums in thread order: (((0.5 + p0) + p1) + p2) + p3. With
   * x = 1e16 on thread 0's block and 1 elsewhere that is 2.5e18 exactly, while adding p1..p3
   * first would give 2.5e18 + 512: the check fails if the order is not the thread order. */
  enum { N = 1000 };
  static double x[N];
  for (int i = 0; i < N; ++i) {
    x[i] = i < 250 ? 1e16 : 1.0;
  }
  double p[4] = {0, 0, 0, 0};
  for (int i = 0; i < N; ++i) {
    p[i / 250] += x[i];
  }
  const double want = (((0.5 + p[0]) + p[1]) + p[2]) + p[3];
  int stable = 1;
  for (int run = 0; run < 50; ++run) {
    double sum = 0.5;
#pragma omp parallel for schedule(static) reduction(+ : sum) num_threads(4)
    for (int i = 0; i < N; ++i) {
      sum += x[i];
    }
    stable = stable && sum == want;
  }
  check(want == 2.5e18 && stable, "a double reduction combines partial sums in thread order, every run", "");

  int lo = 1 << 30, hi = -1;
#pragma omp parallel for reduction(min : lo) reduction(max : hi) num_threads(3)
  for (int i = 0; i < 300; ++i) {
    const int v = (i * 37) % 301;
    lo = v < lo ? v : lo;
    hi = v > hi ? v : hi;
  }
  /* v = 37 i mod 301 for i < 300 takes 300 distinct values of 0..300 (gcd(37, 301) = 1); the
   * one it misses is 37 * 300 mod 301 = 264, so the minimum is 0 and the maximum 300. */
  check(lo == 0 && hi == 300, "min and max reductions find 0 and 300", "wrong min/max");
}

static void test_sync(void) {
  int counter = 0;
#pragma omp parallel num_threads(4)
  {
    for (int k = 0; k < 10000; ++k) {
#pragma omp critical
      counter += 1;
    }
  }
  check(counter == 40000, "critical sections make 4 x 10000 plain increments exact", "lost updates");

  static _Atomic int singles[50];
  _Atomic int masters = 0;
  int master_tid = -1;
  int phase_ok = 1;
  int slots[4] = {0};
#pragma omp parallel num_threads(4)
  {
    for (int k = 0; k < 50; ++k) {
#pragma omp single nowait
      atomic_fetch_add(&singles[k], 1);
    }
#pragma omp master
    {
      atomic_fetch_add(&masters, 1);
      master_tid = omp_get_thread_num();
    }
    slots[omp_get_thread_num()] = omp_get_thread_num() + 1;
#pragma omp barrier
    int all = 1;
    for (int t = 0; t < 4; ++t) {
      all = all && slots[t] == t + 1;
    }
    if (!all) {
#pragma omp critical
      phase_ok = 0;
    }
  }
  int ok = 1;
  for (int k = 0; k < 50; ++k) {
    ok = ok && singles[k] == 1;
  }
  check(ok, "each single construct runs on exactly one thread", "a single ran 0 or 2+ times");
  check(masters == 1 && master_tid == 0, "master runs once, on thread 0", "");
  check(phase_ok, "a barrier waits for every thread's writes", "a thread passed the barrier early");
}

static void test_nesting(void) {
  int inner_size = -1, inner_tid = -1, inner_level = -1, inner_active = -1, outer_size = -1;
#pragma omp parallel num_threads(2)
  {
#pragma omp master
    outer_size = omp_get_num_threads();
#pragma omp parallel num_threads(4)
    {
      if (omp_get_thread_num() == 0) {
#pragma omp critical
        {
          inner_size = omp_get_num_threads();
          inner_tid = omp_get_thread_num();
          inner_level = omp_get_level();
          inner_active = omp_in_parallel();
        }
      }
    }
  }
  check(outer_size == 2 && inner_size == 1 && inner_tid == 0 && inner_level == 2 && inner_active == 1,
        "a nested region is serialised: team of one at level 2 inside an active region", "");

  int if_size = -1, if_level = -1, if_active = -1;
  volatile int condition = 0;
#pragma omp parallel num_threads(4) if (condition)
  {
    if_size = omp_get_num_threads();
    if_level = omp_get_level();
    if_active = omp_in_parallel();
  }
  check(if_size == 1 && if_level == 1 && if_active == 0, "if(false) runs the region as a team of one", "");

  int after_if = -1;
#pragma omp parallel
#pragma omp master
  after_if = omp_get_num_threads();
  check(after_if == 4, "a num_threads clause of a serialised region does not leak into the next one", "");
}

static void test_icvs(void) {
  int capped = -1;
#pragma omp parallel num_threads(9)
#pragma omp master
  capped = omp_get_num_threads();
  check(capped == 4, "num_threads above the thread limit is capped at the limit (4)", "");

  omp_set_num_threads(2);
  int two = -1;
#pragma omp parallel
#pragma omp master
  two = omp_get_num_threads();
  check(two == 2 && omp_get_max_threads() == 2, "omp_set_num_threads(2) makes teams of 2", "");
  omp_set_num_threads(4);

  /* LightGBM's OMP_NUM_THREADS(): a region that reads its own size from the master thread */
  int lightgbm_threads = 1;
#pragma omp parallel
#pragma omp master
  { lightgbm_threads = omp_get_num_threads(); }
  check(lightgbm_threads == 4 && omp_get_max_threads() == 4, "LightGBM's team-size probe reads 4", "");
}

static void test_many_regions(void) {
  /* 20000 short regions: fork/join must neither lose a thread nor deadlock */
  long long sum = 0;
  for (int r = 0; r < 20000; ++r) {
    int part[4] = {0, 0, 0, 0};
#pragma omp parallel num_threads(4)
    part[omp_get_thread_num()] = r % 7 + omp_get_thread_num();
    sum += part[0] + part[1] + part[2] + part[3];
  }
  /* per region: 4 (r mod 7) + 0 + 1 + 2 + 3; sum over r < 20000 of r mod 7 is 2857 * 21 + (19999 mod 7 = 0) = 59997 */
  check(sum == 4LL * 59997 + 6LL * 20000, "20000 regions of 4 threads all run and join", "wrong sum");
}

static void test_limits(void) {
  const int before = pubmatch_omp_stat(1);
  pubmatch_omp_set_thread_limit(1);
  int size = -1;
#pragma omp parallel num_threads(4)
  size = omp_get_num_threads();
  check(size == 1 && pubmatch_omp_stat(1) == before + 1, "thread limit 1 serialises every region", "");

  /* The pool holds 3 workers: asking for 8 threads starts no more and lowers the limit to 4. */
  pubmatch_omp_set_thread_limit(8);
  int eight = -1;
#pragma omp parallel num_threads(8)
#pragma omp master
  eight = omp_get_num_threads();
  check(eight == 4 && omp_get_thread_limit() == 4 && pubmatch_omp_stat(3) == 3,
        "a team never waits for a worker the pthread pool cannot provide", "");
  check(pubmatch_omp_stat(2) == 4 && pubmatch_omp_stat(0) > 20000, "statistics count regions and the largest team", "");
}

int main(void) {
  pubmatch_omp_set_thread_limit(4);
  test_team();
  test_static_balanced();
  test_static_chunked();
  test_loop_types();
  test_dynamic();
  test_reduction();
  test_sync();
  test_nesting();
  test_icvs();
  test_many_regions();
  test_limits();
  printf("# %d failed\n", failures);
  return failures;
}
