/* POSIX and STDIO workloads of the IOLens lab.
 *
 *   posix_lab mode=stream  ...   data written/read in requests of `xfer` bytes (order, sync, layout, imbalance)
 *   posix_lab mode=meta    ...   many files or repeated open/stat/close of a few files
 *   posix_lab mode=records ...   text or binary records through STDIO, or the same bytes in large requests
 *
 * Every run with reads needs its input written beforehand by the same command with prep=1 (run without Darshan),
 * so the measured run does only the reads. lab/README.md lists every parameter. */
#define _GNU_SOURCE
#include "common.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

static const char *const ALLOWED[] = {
    "mode", "api", "op", "xfer", "size", "layout", "order", "sync", "shift", "memshift", "repeat", "readers",
    "who", "gather", "openall", "skew", "skewrank", "slow", "slowsync", "prep", "seed", "name", "nfiles", "fsize",
    "rounds", "statapi", "nrec", "kind", "readback", "bulk", NULL};

/* ------------------------------------------------------------------------------------------------------------ */
/* stat through the glibc < 2.33 entry points (__xstat/__fxstat), as binaries built on older systems call them.  */
/* Darshan 3.4 wraps only these, so this is how a metadata storm's stats become visible in its counters.         */

extern int lab_xstat_compat(int ver, const char *path, struct stat *buf);
extern int lab_fxstat_compat(int ver, int fd, struct stat *buf);
__asm__(".symver lab_xstat_compat,__xstat@GLIBC_2.2.5");
__asm__(".symver lab_fxstat_compat,__fxstat@GLIBC_2.2.5");

static int use_compat_stat = 1;

static void do_stat(const char *path) {
  struct stat st;
  double t = lab_now();
  int rc = use_compat_stat ? lab_xstat_compat(1, path, &st) : stat(path, &st);
  lab_count_meta(lab_now() - t);
  if (rc != 0) lab_fail("stat %s: %s", path, strerror(errno));
}

static void do_fstat(int fd) {
  struct stat st;
  double t = lab_now();
  int rc = use_compat_stat ? lab_fxstat_compat(1, fd, &st) : fstat(fd, &st);
  lab_count_meta(lab_now() - t);
  if (rc != 0) lab_fail("fstat: %s", strerror(errno));
}

/* ------------------------------------------------------------------------------------------------------------ */
/* One open file through POSIX (pread/pwrite) or STDIO (fseek only when the position changes, fwrite/fread).     */

enum { API_POSIX, API_STDIO };
enum { SYNC_NONE, SYNC_FSYNC, SYNC_FDATASYNC, SYNC_OSYNC, SYNC_END, SYNC_DIRECT };

typedef struct {
  int api;
  int fd;
  FILE *fp;
  long long pos;
  const char *path;
} fh_t;

/* osync: 1 opens with O_SYNC, 2 with O_DIRECT | O_SYNC (requests bypass the page cache and wait for the device). */
static void fh_open(fh_t *h, int api, const char *path, int create, int writable, int osync) {
  h->api = api;
  h->path = path;
  h->pos = -1;
  h->fd = -1;
  h->fp = NULL;
  double t = lab_now();
  if (api == API_POSIX) {
    int flags = writable ? O_RDWR : O_RDONLY;
    if (create) flags |= O_CREAT;
    if (osync) flags |= O_SYNC;
    if (osync == 2) flags |= O_DIRECT;
    h->fd = open(path, flags, 0644);
    if (h->fd < 0) lab_fail("open %s: %s", path, strerror(errno));
  } else {
    if (osync) lab_fail("O_SYNC is a POSIX open flag (api=posix)");
    h->fp = fopen(path, create ? "w+" : writable ? "r+" : "r");
    if (!h->fp) lab_fail("fopen %s: %s", path, strerror(errno));
  }
  lab_count_meta(lab_now() - t);
}

static void fh_seek(fh_t *h, long long off) {
  if (h->pos == off) return;
  if (fseeko(h->fp, (off_t)off, SEEK_SET) != 0) lab_fail("fseek %s: %s", h->path, strerror(errno));
  h->pos = off;
}

static void fh_write(fh_t *h, const char *buf, long long n, long long off) {
  double t = lab_now();
  if (h->api == API_POSIX) {
    long long done = 0;
    while (done < n) {
      ssize_t w = pwrite(h->fd, buf + done, (size_t)(n - done), (off_t)(off + done));
      if (w <= 0) lab_fail("pwrite %s: %s", h->path, strerror(errno));
      done += w;
    }
  } else {
    fh_seek(h, off);
    if (fwrite(buf, 1, (size_t)n, h->fp) != (size_t)n) lab_fail("fwrite %s failed", h->path);
    h->pos = off + n;
  }
  lab_count_write(n, lab_now() - t);
}

static void fh_read(fh_t *h, char *buf, long long n, long long off) {
  double t = lab_now();
  if (h->api == API_POSIX) {
    long long done = 0;
    while (done < n) {
      ssize_t r = pread(h->fd, buf + done, (size_t)(n - done), (off_t)(off + done));
      if (r < 0) lab_fail("pread %s: %s", h->path, strerror(errno));
      if (r == 0) lab_fail("pread %s: end of file at %lld (input not prepared?)", h->path, off + done);
      done += r;
    }
  } else {
    fh_seek(h, off);
    if (fread(buf, 1, (size_t)n, h->fp) != (size_t)n) lab_fail("fread %s: short read at %lld", h->path, off);
    h->pos = off + n;
  }
  lab_count_read(n, lab_now() - t);
}

static void fh_sync(fh_t *h, int kind) {
  double t = lab_now();
  int fd = h->fd;
  if (h->api == API_STDIO) {
    if (fflush(h->fp) != 0) lab_fail("fflush %s failed", h->path);
    fd = fileno(h->fp);
  }
  int rc = kind == SYNC_FDATASYNC ? fdatasync(fd) : fsync(fd);
  if (rc != 0) lab_fail("fsync %s: %s", h->path, strerror(errno));
  lab_count_meta(lab_now() - t);
}

static void fh_close(fh_t *h) {
  double t = lab_now();
  int rc = h->api == API_POSIX ? close(h->fd) : fclose(h->fp);
  if (rc != 0) lab_fail("close %s: %s", h->path, strerror(errno));
  lab_count_meta(lab_now() - t);
}

/* ------------------------------------------------------------------------------------------------------------ */
/* mode=stream                                                                                                  */

enum { OP_WRITE, OP_READ, OP_WRITEREAD, OP_RWSWITCH, OP_RMW };

static const char *const OPS[] = {"write", "read", "writeread", "rwswitch", "rmw", NULL};
static const char *const SYNCS[] = {"none", "fsync", "fdatasync", "osync", "end", "direct", NULL};
static const char *const APIS[] = {"posix", "stdio", NULL};
static const char *const LAYOUTS[] = {"shared", "fpp", NULL};
static const char *const WHOS[] = {"all", "rank0", NULL};
static const char *const READERS[] = {"own", "all", NULL};

/* Writes the bytes a later read run expects: each rank its region (rank 0 everything when it alone does the
 * I/O), in large requests. Runs without Darshan (prep=1). */
static void prep_region(int api, const char *path, int create, long long base, long long bytes) {
  if (bytes <= 0) return;
  const long long chunk = 4 << 20;
  char *buf = lab_buffer((size_t)chunk, 0);
  fh_t h;
  fh_open(&h, api, path, create, 1, 0);
  for (long long done = 0; done < bytes; done += chunk)
    fh_write(&h, buf, bytes - done < chunk ? bytes - done : chunk, base + done);
  fh_close(&h);
  free(buf);
}

static int stream(void) {
  const int api = arg_choice("api", "posix", APIS);
  const int op = arg_choice("op", "write", OPS);
  const long long xfer = arg_size("xfer", 1 << 20);
  const long long size = arg_size("size", 4 << 20);
  const int fpp = arg_choice("layout", "shared", LAYOUTS);
  const int order = arg_choice("order", "seq", LAB_ORDERS);
  const int sync = arg_choice("sync", "none", SYNCS);
  const long long shift = arg_size("shift", 0);
  const long long memshift = arg_size("memshift", 0);
  const int repeat = arg_int("repeat", 1);
  const int readers_all = arg_choice("readers", "own", READERS);
  const int rank0 = arg_choice("who", "all", WHOS);
  const int gather = arg_int("gather", 0);
  const int openall = arg_int("openall", 1);
  const int skew = arg_int("skew", 1);
  const int skewrank = arg_int("skewrank", lab_nprocs - 1);
  const int slow = arg_int("slow", -1);
  const int slowsync = arg_choice("slowsync", "fsync", SYNCS);
  const int prep = arg_int("prep", 0);
  const char *name = arg_str("name", "data");
  const int r = lab_rank, np = lab_nprocs;

  if (xfer <= 0 || size <= 0 || size % xfer) lab_fail("size must be a positive multiple of xfer");
  if (repeat < 1 || skew < 1) lab_fail("repeat and skew must be >= 1");
  if (order == ORDER_STRIDED && (fpp || skew > 1 || rank0)) lab_fail("order=strided interleaves ranks on one shared file");
  if (readers_all && (fpp || rank0 || (op != OP_READ))) lab_fail("readers=all: every rank reads the whole shared file");
  if (gather && (!rank0 || (op != OP_WRITE && op != OP_READ))) lab_fail("gather=1 needs who=rank0 and op=write or read");
  if (rank0 && skew > 1) lab_fail("skew and who=rank0 exclude each other");
  if ((sync == SYNC_OSYNC || sync == SYNC_DIRECT || slowsync == SYNC_OSYNC || slowsync == SYNC_DIRECT) && api != API_POSIX)
    lab_fail("sync=osync and sync=direct need api=posix");
  if ((sync == SYNC_DIRECT || slowsync == SYNC_DIRECT) && (xfer % 4096 || shift % 4096 || memshift))
    lab_fail("sync=direct needs 4 KiB-aligned requests and buffers");

  /* Bytes this rank moves, and where its region starts in the file. */
  const lab_share sh = lab_shares(size, skew, skewrank, rank0, fpp, shift);
  const long long mine = sh.mine, total = sh.total;
  long long base = sh.base;

  char path[256];
  lab_path(path, sizeof path, name, fpp, r);
  const int participates = !rank0 || r == 0;
  const int opens = participates || (!fpp && openall && !gather);
  const int needs_input = op == OP_READ || op == OP_RMW;

  if (prep) {
    if (!needs_input) return 0;
    prep_region(API_POSIX, path, 1, readers_all ? shift : base, readers_all ? (r == 0 ? total : 0) : mine);
    return 0;
  }

  /* Request offsets relative to the region start: seq, a seeded permutation, or rank-interleaved blocks. */
  const long long ureq = gather ? xfer * np : xfer; /* bytes per request on the I/O rank */
  long long n = mine / ureq;
  if (readers_all) n = total / xfer, base = shift;
  if (gather) n = size / xfer;
  long long *offs = lab_offsets(order, n, base, ureq, shift, xfer);

  char *buf = lab_buffer((size_t)ureq, (size_t)memshift);
  char *piece = gather ? lab_buffer((size_t)xfer, 0) : NULL;
  const int my_sync = r == slow ? slowsync : sync;
  const int sync_open = my_sync == SYNC_OSYNC ? 1 : my_sync == SYNC_DIRECT ? 2 : 0;

  lab_begin();
  fh_t h;
  if (opens) {
    if (!fpp && !needs_input && !(rank0 && gather)) {
      /* Shared output: rank 0 creates it, the others open it once it exists. */
      if (r == 0) fh_open(&h, api, path, 1, 1, sync_open);
      MPI_Barrier(MPI_COMM_WORLD);
      if (r != 0) fh_open(&h, api, path, 0, 1, sync_open);
    } else {
      fh_open(&h, api, path, !needs_input, op != OP_READ, sync_open);
    }
  } else if (!fpp && !needs_input && !(rank0 && gather)) {
    MPI_Barrier(MPI_COMM_WORLD);
  }

  const int per_write_sync = my_sync == SYNC_FSYNC || my_sync == SYNC_FDATASYNC;
  if (gather) {
    /* Every rank contributes xfer bytes per round; rank 0 writes (or reads and scatters) np * xfer. */
    for (int pass = 0; pass < repeat; pass++)
      for (long long i = 0; i < n; i++) {
        if (op == OP_READ) {
          if (r == 0) fh_read(&h, buf, ureq, offs[i]);
          MPI_Scatter(buf, (int)xfer, MPI_BYTE, piece, (int)xfer, MPI_BYTE, 0, MPI_COMM_WORLD);
        } else {
          MPI_Gather(piece, (int)xfer, MPI_BYTE, buf, (int)xfer, MPI_BYTE, 0, MPI_COMM_WORLD);
          if (r == 0) {
            fh_write(&h, buf, ureq, offs[i]);
            if (per_write_sync) fh_sync(&h, my_sync);
          }
        }
      }
  } else if (participates) {
    if (op == OP_WRITE || op == OP_WRITEREAD) {
      for (int pass = 0; pass < repeat; pass++)
        for (long long i = 0; i < n; i++) {
          fh_write(&h, buf, ureq, offs[i]);
          if (per_write_sync) fh_sync(&h, my_sync);
        }
      if (op == OP_WRITEREAD)
        for (long long i = 0; i < n; i++) fh_read(&h, buf, ureq, offs[i]);
    } else if (op == OP_READ) {
      for (int pass = 0; pass < repeat; pass++)
        for (long long i = 0; i < n; i++) fh_read(&h, buf, xfer, offs[i]);
    } else {
      /* rwswitch: write a block and read it straight back; rmw: read a block, change it, write it back. */
      for (int pass = 0; pass < repeat; pass++)
        for (long long i = 0; i < n; i++) {
          if (op == OP_RMW) fh_read(&h, buf, ureq, offs[i]);
          buf[0] ^= (char)i;
          fh_write(&h, buf, ureq, offs[i]);
          if (per_write_sync) fh_sync(&h, my_sync);
          if (op == OP_RWSWITCH) fh_read(&h, buf, ureq, offs[i]);
        }
    }
  }
  if (opens) {
    if (my_sync == SYNC_END && op != OP_READ) fh_sync(&h, SYNC_FSYNC);
    fh_close(&h);
  }
  lab_end();
  free(offs);
  return 1;
}

/* ------------------------------------------------------------------------------------------------------------ */
/* mode=meta: nfiles files of fsize bytes per rank (created, then `rounds` times stat + open + fstat [+ read] + */
/* close). Many files of a few KiB = many small files; few files with many rounds = a metadata storm; one file  */
/* with the same bytes and one round = the healthy twin.                                                        */

enum { META_WRITE, META_WRITEREAD, META_TOUCH };
static const char *const META_OPS[] = {"write", "writeread", "touch", NULL};
static const char *const STATAPIS[] = {"compat", "plain", NULL};
static const char *const DIRS[] = {"dirperrank", "shared", NULL};

static int meta(void) {
  const int nfiles = arg_int("nfiles", 1000);
  const long long fsize = arg_size("fsize", 4096);
  const int rounds = arg_int("rounds", 1);
  const int op = arg_choice("op", "writeread", META_OPS);
  const int api = arg_choice("api", "posix", APIS);
  const int shared_dir = arg_choice("layout", "dirperrank", DIRS);
  use_compat_stat = arg_choice("statapi", "compat", STATAPIS) == 0;
  if (arg_int("prep", 0)) return 0;
  if (nfiles < 1 || rounds < 0) lab_fail("nfiles >= 1 and rounds >= 0");

  char dir[64], path[512];
  snprintf(dir, sizeof dir, shared_dir ? "files" : "files.%d", lab_rank);
  if (lab_rank == 0 || !shared_dir)
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) lab_fail("mkdir %s: %s", dir, strerror(errno));
  char *buf = lab_buffer(fsize > 0 ? (size_t)fsize : 1, 0);

  lab_begin();
  for (int k = 0; k < nfiles; k++) {
    snprintf(path, sizeof path, "%s/f.%d.%d", dir, lab_rank, k);
    fh_t h;
    fh_open(&h, api, path, 1, 1, 0);
    if (op != META_TOUCH && fsize > 0) fh_write(&h, buf, fsize, 0);
    fh_close(&h);
  }
  for (int round = 0; round < rounds; round++)
    for (int k = 0; k < nfiles; k++) {
      snprintf(path, sizeof path, "%s/f.%d.%d", dir, lab_rank, k);
      do_stat(path);
      fh_t h;
      fh_open(&h, API_POSIX, path, 0, 0, 0);
      do_fstat(h.fd);
      if (op == META_WRITEREAD && round == rounds - 1 && fsize > 0) fh_read(&h, buf, fsize, 0);
      fh_close(&h);
    }
  lab_end();
  return 1;
}

/* ------------------------------------------------------------------------------------------------------------ */
/* mode=records: nrec records per rank into its own file: text (fprintf, ~48 bytes) or binary (32-byte fwrite), */
/* read back with fgets/fread; or (bulk=1) the same bytes formatted in memory and moved in xfer-sized requests  */
/* through write()/read() (api=posix) or fwrite()/fread() (api=stdio).                                          */

static const char *const KINDS[] = {"text", "binary", NULL};

typedef struct {
  long long id;
  double x, y, z;
} rec_t;

static int records(void) {
  const long long nrec = arg_size("nrec", 100000);
  const int binary = arg_choice("kind", "text", KINDS);
  const int readback = arg_int("readback", 0);
  const int bulk = arg_int("bulk", 0);
  const int api = arg_choice("api", "stdio", APIS);
  const long long xfer = arg_size("xfer", 4 << 20);
  const char *name = arg_str("name", "records");
  if (arg_int("prep", 0)) return 0;
  if (!bulk && api != API_STDIO) lab_fail("small records go through STDIO (api=stdio) unless bulk=1");

  char path[256];
  lab_path(path, sizeof path, name, 1, lab_rank);
  lab_rng rng;
  rng_seed(&rng, lab_seed(), lab_rank);

  lab_begin();
  if (!bulk) {
    double t = lab_now();
    FILE *f = fopen(path, "w+");
    if (!f) lab_fail("fopen %s: %s", path, strerror(errno));
    lab_count_meta(lab_now() - t);
    long long bytes = 0;
    t = lab_now();
    for (long long i = 0; i < nrec; i++) {
      rec_t rec = {i, (double)(rng_next(&rng) % 100000) / 7.0, (double)(rng_next(&rng) % 100000) / 11.0, 0.5 * (double)i};
      if (binary) {
        if (fwrite(&rec, sizeof rec, 1, f) != 1) lab_fail("fwrite failed");
        bytes += (long long)sizeof rec;
      } else {
        int w = fprintf(f, "%010lld %14.6f %14.6f %6d\n", rec.id, rec.x, rec.y, lab_rank);
        if (w < 0) lab_fail("fprintf failed");
        bytes += w;
      }
    }
    lab_count_write(bytes, lab_now() - t);
    if (readback) {
      t = lab_now();
      rewind(f);
      long long got = 0;
      char line[128];
      rec_t rec;
      for (long long i = 0; i < nrec; i++) {
        if (binary) {
          if (fread(&rec, sizeof rec, 1, f) != 1) lab_fail("fread short");
          got += (long long)sizeof rec;
        } else {
          if (!fgets(line, sizeof line, f)) lab_fail("fgets short");
          got += (long long)strlen(line);
        }
      }
      lab_count_read(got, lab_now() - t);
    }
    t = lab_now();
    fclose(f);
    lab_count_meta(lab_now() - t);
  } else {
    /* Same content, formatted into one buffer, then large requests. */
    size_t cap = (size_t)nrec * (binary ? sizeof(rec_t) : 64) + 64, len = 0;
    char *text = malloc(cap);
    for (long long i = 0; i < nrec; i++) {
      rec_t rec = {i, (double)(rng_next(&rng) % 100000) / 7.0, (double)(rng_next(&rng) % 100000) / 11.0, 0.5 * (double)i};
      if (binary) memcpy(text + len, &rec, sizeof rec), len += sizeof rec;
      else len += (size_t)snprintf(text + len, cap - len, "%010lld %14.6f %14.6f %6d\n", rec.id, rec.x, rec.y, lab_rank);
    }
    fh_t h;
    fh_open(&h, api, path, 1, 1, 0);
    for (size_t off = 0; off < len; off += (size_t)xfer)
      fh_write(&h, text + off, (long long)(len - off < (size_t)xfer ? len - off : (size_t)xfer), (long long)off);
    if (readback)
      for (size_t off = 0; off < len; off += (size_t)xfer)
        fh_read(&h, text + off, (long long)(len - off < (size_t)xfer ? len - off : (size_t)xfer), (long long)off);
    fh_close(&h);
    free(text);
  }
  lab_end();
  return 1;
}

int main(int argc, char **argv) {
  lab_init(&argc, &argv, ALLOWED);
  static const char *const MODES[] = {"stream", "meta", "records", NULL};
  const int mode = arg_choice("mode", "stream", MODES);
  lab_finish(mode == 0 ? stream() : mode == 1 ? meta() : records());
  return 0;
}
