/*
 * pubmatch's controls of its OpenMP runtime (pubmatch_omp.c), exported to JavaScript by the
 * threaded build (src/module.ts calls them).
 */
#ifndef PUBMATCH_OMP_EXTENSIONS_H
#define PUBMATCH_OMP_EXTENSIONS_H

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Sets the most threads a region may use (OMP_THREAD_LIMIT) and the default of nthreads-var.
 * Defaults to 1: no worker thread is started until this is raised. Capped at 64.
 */
void pubmatch_omp_set_thread_limit(int threads);
/** How many times a waiting thread polls before it sleeps on a futex. Defaults to 65536 (~70 µs). */
void pubmatch_omp_set_spin(int polls);
/**
 * Counters since start-up: which = 0 regions run by a team of more than one thread, 1 regions
 * run serialised, 2 the largest team so far, 3 worker threads started.
 */
int pubmatch_omp_stat(int which);

#ifdef __cplusplus
}
#endif

#endif /* PUBMATCH_OMP_EXTENSIONS_H */
