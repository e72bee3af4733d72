#include "common.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int lab_rank = 0;
int lab_nprocs = 1;

#define MAX_ARGS 64
static const char *keys[MAX_ARGS];
static const char *vals[MAX_ARGS];
static int nargs = 0;

static double t_begin = 0, t_end = 0;
static long long bytes_w = 0, bytes_r = 0;
static double sec_w = 0, sec_r = 0, sec_m = 0;

void lab_fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "lab error (rank %d): ", lab_rank);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  MPI_Abort(MPI_COMM_WORLD, 2);
  exit(2);
}

void lab_init(int *argc, char ***argv, const char *const *allowed) {
  MPI_Init(argc, argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &lab_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &lab_nprocs);
  for (int i = 1; i < *argc; i++) {
    char *a = (*argv)[i];
    char *eq = strchr(a, '=');
    if (!eq || eq == a) lab_fail("argument \"%s\" is not key=value", a);
    *eq = '\0';
    int known = 0;
    for (const char *const *k = allowed; *k; k++)
      if (strcmp(*k, a) == 0) known = 1;
    if (!known) lab_fail("unknown argument \"%s\"", a);
    for (int j = 0; j < nargs; j++)
      if (strcmp(keys[j], a) == 0) lab_fail("argument \"%s\" given twice", a);
    if (nargs == MAX_ARGS) lab_fail("too many arguments");
    keys[nargs] = a;
    vals[nargs] = eq + 1;
    nargs++;
  }
}

const char *arg_str(const char *key, const char *def) {
  for (int i = 0; i < nargs; i++)
    if (strcmp(keys[i], key) == 0) return vals[i];
  return def;
}

long long arg_size(const char *key, long long def) {
  const char *v = arg_str(key, NULL);
  if (!v) return def;
  char *end;
  long long n = strtoll(v, &end, 10);
  if (end == v || n < 0) lab_fail("%s=%s is not a size", key, v);
  if (*end == 'k' || *end == 'K') n <<= 10, end++;
  else if (*end == 'm' || *end == 'M') n <<= 20, end++;
  else if (*end == 'g' || *end == 'G') n <<= 30, end++;
  if (*end) lab_fail("%s=%s is not a size", key, v);
  return n;
}

int arg_int(const char *key, int def) {
  const char *v = arg_str(key, NULL);
  if (!v) return def;
  char *end;
  long n = strtol(v, &end, 10);
  if (end == v || *end) lab_fail("%s=%s is not an integer", key, v);
  return (int)n;
}

int arg_choice(const char *key, const char *def, const char *const *choices) {
  const char *v = arg_str(key, def);
  for (int i = 0; choices[i]; i++)
    if (strcmp(choices[i], v) == 0) return i;
  lab_fail("%s=%s is not one of the accepted values", key, v);
}

void rng_seed(lab_rng *r, uint64_t seed, int stream) {
  r->s = seed * 0x9E3779B97F4A7C15ull + (uint64_t)stream * 0xD1B54A32D192ED03ull + 1;
}

uint64_t rng_next(lab_rng *r) {
  uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

void rng_permute(lab_rng *r, long long *perm, long long n) {
  for (long long i = 0; i < n; i++) perm[i] = i;
  for (long long i = n - 1; i > 0; i--) {
    long long j = (long long)(rng_next(r) % (uint64_t)(i + 1));
    long long t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }
}

uint64_t lab_seed(void) { return (uint64_t)strtoull(arg_str("seed", "1"), NULL, 10); }

char *lab_buffer(size_t n, size_t shift) {
  void *p = NULL;
  if (posix_memalign(&p, 4096, n + shift + 8) != 0) lab_fail("out of memory (%zu bytes)", n);
  char *b = (char *)p + shift;
  lab_rng r;
  rng_seed(&r, lab_seed(), lab_rank);
  for (size_t i = 0; i < n; i += 8) {
    uint64_t x = rng_next(&r);
    memcpy(b + i, &x, n - i < 8 ? n - i : 8);
  }
  return b;
}

double lab_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

void lab_count_write(long long bytes, double seconds) { bytes_w += bytes, sec_w += seconds; }
void lab_count_read(long long bytes, double seconds) { bytes_r += bytes, sec_r += seconds; }
void lab_count_meta(double seconds) { sec_m += seconds; }

void lab_begin(void) {
  MPI_Barrier(MPI_COMM_WORLD);
  t_begin = lab_now();
}

void lab_end(void) {
  MPI_Barrier(MPI_COMM_WORLD);
  t_end = lab_now();
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

void lab_finish(int measured) {
  if (!measured) {
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return;
  }
  long long mine[2] = {bytes_w, bytes_r}, all[2];
  MPI_Reduce(mine, all, 2, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  double io = sec_w + sec_r + sec_m;
  double *times = lab_rank == 0 ? malloc(sizeof(double) * lab_nprocs) : NULL;
  MPI_Gather(&io, 1, MPI_DOUBLE, times, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (lab_rank == 0) {
    qsort(times, lab_nprocs, sizeof(double), cmp_double);
    double median = lab_nprocs % 2 ? times[lab_nprocs / 2] : 0.5 * (times[lab_nprocs / 2 - 1] + times[lab_nprocs / 2]);
    printf("LAB-RESULT {\"bytes_written\":%lld,\"bytes_read\":%lld,\"elapsed_s\":%.6f,"
           "\"rank_io_s_min\":%.6f,\"rank_io_s_median\":%.6f,\"rank_io_s_max\":%.6f}\n",
           all[0], all[1], t_end - t_begin, times[0], median, times[lab_nprocs - 1]);
    fflush(stdout);
    free(times);
  }
  MPI_Finalize();
}

const char *const LAB_ORDERS[] = {"seq", "random", "strided", NULL};

lab_share lab_shares(long long size, int skew, int skewrank, int rank0, int fpp, long long shift) {
  lab_share s = {size * (lab_rank == skewrank ? skew : 1), 0, 0, 0};
  if (rank0) s.mine = lab_rank == 0 ? size * lab_nprocs : 0;
  if (!fpp) MPI_Exscan(&s.mine, &s.base, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (lab_rank == 0 || fpp) s.base = 0;
  s.base += shift;
  MPI_Allreduce(&s.mine, &s.total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&s.mine, &s.maxmine, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
  return s;
}

long long *lab_offsets(int order, long long n, long long base, long long step, long long shift, long long xfer) {
  long long *offs = malloc(sizeof(long long) * (size_t)(n > 0 ? n : 1));
  if (!offs) lab_fail("out of memory (%lld offsets)", n);
  if (order == ORDER_RANDOM) {
    lab_rng rng;
    rng_seed(&rng, lab_seed(), lab_rank);
    rng_permute(&rng, offs, n);
    for (long long i = 0; i < n; i++) offs[i] = base + offs[i] * step;
  } else if (order == ORDER_STRIDED) {
    for (long long i = 0; i < n; i++) offs[i] = shift + (i * lab_nprocs + lab_rank) * xfer;
  } else {
    for (long long i = 0; i < n; i++) offs[i] = base + i * step;
  }
  return offs;
}

void lab_path(char *out, size_t cap, const char *name, int per_rank, int rank) {
  int n = per_rank ? snprintf(out, cap, "%s.%d", name, rank) : snprintf(out, cap, "%s", name);
  if (n < 0 || (size_t)n >= cap) lab_fail("path too long");
}
