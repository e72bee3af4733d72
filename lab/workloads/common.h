/* Shared helpers for the IOLens lab workloads: key=value arguments, seeded random numbers, buffers,
 * timing and the one-line result every run prints. */
#ifndef LAB_COMMON_H
#define LAB_COMMON_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

extern int lab_rank;
extern int lab_nprocs;

/* MPI_Init, rank and size, and the command line (key=value words). `allowed` is a NULL-terminated list of the
 * keys this program accepts; any other key is an error, so a typo in the sweep cannot pass silently. */
void lab_init(int *argc, char ***argv, const char *const *allowed);

/* Argument accessors; each key may be given once. Sizes take the suffixes k, m, g (powers of 1024). */
const char *arg_str(const char *key, const char *def);
long long arg_size(const char *key, long long def);
int arg_int(const char *key, int def);
/* The value must be one of the NULL-terminated `choices`; returns its index. */
int arg_choice(const char *key, const char *def, const char *const *choices);

/* Print one error line on the failing rank and abort the job. */
void lab_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* splitmix64: one stream per rank, derived from the run's seed. */
typedef struct { uint64_t s; } lab_rng;
void rng_seed(lab_rng *r, uint64_t seed, int stream);
uint64_t rng_next(lab_rng *r);
/* Fisher-Yates permutation of 0..n-1. */
void rng_permute(lab_rng *r, long long *perm, long long n);
uint64_t lab_seed(void);

/* A page-aligned buffer of n bytes plus `shift`, filled with a rank-dependent pattern; the returned pointer is
 * base + shift, so a shift that is not a multiple of 8 gives a misaligned memory buffer. */
char *lab_buffer(size_t n, size_t shift);

double lab_now(void);

/* Accounting: bytes the application asked for and seconds spent inside I/O calls on this rank. */
void lab_count_write(long long bytes, double seconds);
void lab_count_read(long long bytes, double seconds);
void lab_count_meta(double seconds);

/* Brackets the measured part: a barrier, then the clock. lab_end also barriers, so the elapsed time is that of
 * the slowest rank. */
void lab_begin(void);
void lab_end(void);

/* With `measured`, rank 0 prints `LAB-RESULT {json}` with the bytes moved (all ranks), the elapsed time of the
 * measured part and the per-rank I/O call time (min, median, max); without (a prep=1 run), nothing. Then a barrier
 * and MPI_Finalize. */
void lab_finish(int measured);

/* Request order of the stream workloads. */
enum { ORDER_SEQ, ORDER_RANDOM, ORDER_STRIDED };
extern const char *const LAB_ORDERS[];

/* Bytes each rank moves and where its region starts. */
typedef struct {
  long long mine;    /* this rank's bytes */
  long long base;    /* start of its region: regions end to end in rank order on a shared file, 0 per process */
  long long total;   /* all ranks' bytes */
  long long maxmine; /* the busiest rank's bytes */
} lab_share;

/* `size` bytes per rank; `skew` times that on `skewrank`; with rank0, rank 0 moves everything and the others
 * nothing. `shift` is added to every region start (a header in front of the data). Collective. */
lab_share lab_shares(long long size, int skew, int skewrank, int rank0, int fpp, long long shift);

/* Offsets of n requests: seq (base + i*step), random (a seeded permutation of those blocks) or strided (block i of
 * this rank at shift + (i*nprocs + rank)*xfer). The caller frees the array. */
long long *lab_offsets(int order, long long n, long long base, long long step, long long shift, long long xfer);

/* Path helpers: "<name>" for shared files, "<name>.<rank>" for one file per process. */
void lab_path(char *out, size_t cap, const char *name, int per_rank, int rank);

#endif
