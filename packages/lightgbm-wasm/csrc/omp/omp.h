/*
 * omp.h for pubmatch's OpenMP runtime (pubmatch_omp.c): the user-level OpenMP API that
 * LightGBM (and the C test) call, as implemented there. Emscripten 3.1.6 ships no omp.h and no
 * OpenMP runtime; clang's -fopenmp code generation only needs the __kmpc_* entry points, which
 * pubmatch_omp.c defines too. Only what is implemented is declared; pubmatch's own controls
 * are in pubmatch_omp.h.
 */
#ifndef PUBMATCH_OMP_H
#define PUBMATCH_OMP_H

#ifdef __cplusplus
extern "C" {
#endif

/** Sets the nthreads-var ICV of the calling thread: the team size of its next parallel regions. */
void omp_set_num_threads(int num_threads);
/** Threads in the current team (1 outside parallel regions and in serialised ones). */
int omp_get_num_threads(void);
/** The team size a parallel region without num_threads() would get here (1 inside a region). */
int omp_get_max_threads(void);
/** The calling thread's number in its team, 0 to omp_get_num_threads() - 1. */
int omp_get_thread_num(void);
/** Processors available: the runtime's thread limit (see pubmatch_omp_set_thread_limit). */
int omp_get_num_procs(void);
/** The thread limit (OMP_THREAD_LIMIT): at most this many threads run a region. */
int omp_get_thread_limit(void);
/** 1 inside an active parallel region (a team of more than one thread), else 0. */
int omp_in_parallel(void);
/** Nesting depth of parallel regions, active or serialised. */
int omp_get_level(void);
/** Nesting depth of active parallel regions (0 or 1: nested regions are serialised). */
int omp_get_active_level(void);
/** Dynamic adjustment of team sizes: accepted and ignored (teams are never shrunk on the fly). */
void omp_set_dynamic(int dynamic_threads);
/** Always 0. */
int omp_get_dynamic(void);
/** Wall-clock seconds (emscripten_get_now()). */
double omp_get_wtime(void);

#ifdef __cplusplus
}
#endif

#endif /* PUBMATCH_OMP_H */
