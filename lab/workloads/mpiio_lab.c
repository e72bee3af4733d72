/* MPI-IO workloads of the IOLens lab: each rank moves `size` bytes in requests of `xfer` bytes, on one shared
 * file or one file per process, with independent or collective, blocking or non-blocking calls, contiguous,
 * rank-interleaved (strided, per-block calls or one call through a vector file view) or random offsets, and
 * ROMIO hints for data sieving and collective buffering. Which MPI-IO component runs it (ROMIO or OMPIO) is
 * chosen by mpirun (--mca io); lab/README.md lists every parameter. */
#include "common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const ALLOWED[] = {"op", "xfer", "size", "layout", "order", "coll", "view", "nb", "ds", "cb",
                                      "cbnodes", "sync", "shift", "who", "gather", "openall", "readers", "skew",
                                      "skewrank", "repeat", "prep", "seed", "name", NULL};

enum { OP_WRITE, OP_READ, OP_WRITEREAD };
static const char *const OPS[] = {"write", "read", "writeread", NULL};
static const char *const LAYOUTS[] = {"shared", "fpp", NULL};
static const char *const HINTS[] = {"auto", "enable", "disable", NULL};
enum { SYNC_NONE, SYNC_EACH, SYNC_END };
static const char *const SYNCS[] = {"none", "each", "end", NULL};
static const char *const WHOS[] = {"all", "rank0", NULL};
static const char *const READERS[] = {"own", "all", NULL};

static void check(int rc, const char *what) {
  if (rc != MPI_SUCCESS) {
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, msg, &len);
    lab_fail("%s: %s", what, msg);
  }
}

static MPI_Info hints(int for_prep) {
  MPI_Info info;
  MPI_Info_create(&info);
  if (for_prep) return info;
  const int ds = arg_choice("ds", "auto", HINTS), cb = arg_choice("cb", "auto", HINTS);
  if (ds) {
    MPI_Info_set(info, "romio_ds_write", HINTS[ds]);
    MPI_Info_set(info, "romio_ds_read", HINTS[ds]);
  }
  if (cb) {
    MPI_Info_set(info, "romio_cb_write", HINTS[cb]);
    MPI_Info_set(info, "romio_cb_read", HINTS[cb]);
  }
  const char *cbnodes = arg_str("cbnodes", NULL);
  if (cbnodes) MPI_Info_set(info, "cb_nodes", cbnodes);
  return info;
}

typedef struct {
  MPI_File fh;
  int coll, nb;
} io_t;

static void do_write(io_t *io, const char *buf, long long n, long long off, MPI_Request *req) {
  double t = lab_now();
  MPI_Status st;
  if (io->nb) {
    check(io->coll ? MPI_File_iwrite_at_all(io->fh, off, buf, (int)n, MPI_BYTE, req)
                   : MPI_File_iwrite_at(io->fh, off, buf, (int)n, MPI_BYTE, req),
          "MPI_File_iwrite_at");
  } else {
    check(io->coll ? MPI_File_write_at_all(io->fh, off, buf, (int)n, MPI_BYTE, &st)
                   : MPI_File_write_at(io->fh, off, buf, (int)n, MPI_BYTE, &st),
          "MPI_File_write_at");
  }
  lab_count_write(n, lab_now() - t);
}

static void do_read(io_t *io, char *buf, long long n, long long off) {
  double t = lab_now();
  MPI_Status st;
  check(io->coll ? MPI_File_read_at_all(io->fh, off, buf, (int)n, MPI_BYTE, &st)
                 : MPI_File_read_at(io->fh, off, buf, (int)n, MPI_BYTE, &st),
        "MPI_File_read_at");
  lab_count_read(n, lab_now() - t);
}

int main(int argc, char **argv) {
  lab_init(&argc, &argv, ALLOWED);
  const int op = arg_choice("op", "write", OPS);
  const long long xfer = arg_size("xfer", 1 << 20);
  const long long size = arg_size("size", 4 << 20);
  const int fpp = arg_choice("layout", "shared", LAYOUTS);
  const int order = arg_choice("order", "seq", LAB_ORDERS);
  const int coll = arg_int("coll", 1);
  const int view = arg_int("view", 0);
  const int nb = arg_int("nb", 0);
  const int sync = arg_choice("sync", "none", SYNCS);
  const long long shift = arg_size("shift", 0);
  const int rank0 = arg_choice("who", "all", WHOS);
  const int gather = arg_int("gather", 0);
  const int openall = arg_int("openall", 1);
  const int readers_all = arg_choice("readers", "own", READERS);
  const int skew = arg_int("skew", 1);
  const int skewrank = arg_int("skewrank", lab_nprocs - 1);
  const int repeat = arg_int("repeat", 1);
  const int prep = arg_int("prep", 0);
  const char *name = arg_str("name", "data");
  const int r = lab_rank, np = lab_nprocs;

  if (xfer <= 0 || size <= 0 || size % xfer) lab_fail("size must be a positive multiple of xfer");
  if (skew < 1 || repeat < 1) lab_fail("skew and repeat must be >= 1");
  if (order == ORDER_STRIDED && (fpp || skew > 1 || rank0)) lab_fail("order=strided interleaves ranks on one shared file");
  if (view && order != ORDER_STRIDED) lab_fail("view=1 describes the strided layout with a file view");
  if (nb && op != OP_WRITE) lab_fail("nb=1 is for writes");
  if (readers_all && (op != OP_READ || fpp || rank0 || order != ORDER_SEQ)) lab_fail("readers=all: every rank reads the whole shared file in order");
  if (gather && !rank0) lab_fail("gather=1 needs who=rank0");
  if (rank0 && (coll || sync == SYNC_EACH)) lab_fail("who=rank0 does independent I/O on rank 0 (coll=0, no per-write sync)");
  if (sync == SYNC_EACH && (fpp || skew > 1)) lab_fail("sync=each calls the collective MPI_File_sync after every write on a shared file");

  const lab_share sh = lab_shares(size, skew, skewrank, rank0, fpp, shift);
  const long long mine = sh.mine, total = sh.total, maxmine = sh.maxmine;
  long long base = sh.base;

  char path[256];
  lab_path(path, sizeof path, name, fpp, r);
  const int needs_input = op == OP_READ;
  /* With who=rank0 and gather=1, rank 0 alone opens the file (MPI_COMM_SELF); with gather=0 every rank opens the
   * shared file (openall=1) or rank 0 alone does. */
  const int self_open = fpp || (rank0 && (gather || !openall));
  const int opens = !rank0 || r == 0 || !self_open;
  MPI_Comm comm = self_open ? MPI_COMM_SELF : MPI_COMM_WORLD;

  if (prep) {
    if (needs_input) {
      MPI_File fh;
      MPI_Info info = hints(1);
      check(MPI_File_open(fpp ? MPI_COMM_SELF : MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, info, &fh), "open");
      const long long chunk = 4 << 20;
      char *buf = lab_buffer((size_t)chunk, 0);
      long long from = readers_all ? shift : base, bytes = readers_all ? (r == 0 ? total : 0) : mine;
      for (long long done = 0; done < bytes; done += chunk)
        check(MPI_File_write_at(fh, from + done, buf, (int)(bytes - done < chunk ? bytes - done : chunk), MPI_BYTE, MPI_STATUS_IGNORE), "prep write");
      MPI_File_close(&fh);
      MPI_Info_free(&info);
    }
    lab_finish(0);
    return 0;
  }

  const long long ureq = gather ? xfer * np : xfer;
  long long n = readers_all ? total / xfer : gather ? size / xfer : mine / ureq;
  /* Collective calls: every rank makes as many as the busiest one. */
  long long rounds = coll && !readers_all ? maxmine / ureq : n;
  if (readers_all) base = shift;
  long long *offs = lab_offsets(order, n, base, ureq, shift, xfer);
  const long long bufbytes = view ? mine : ureq;
  char *buf = lab_buffer((size_t)bufbytes, 0);
  char *piece = gather ? lab_buffer((size_t)xfer, 0) : NULL;
  MPI_Request *reqs = nb ? malloc(sizeof(MPI_Request) * (size_t)(rounds * repeat + 1)) : NULL;
  int nreq = 0;

  MPI_Info info = hints(0);
  io_t io = {MPI_FILE_NULL, coll, nb};
  lab_begin();
  if (opens) {
    double t = lab_now();
    int amode = op == OP_READ ? MPI_MODE_RDONLY : (MPI_MODE_CREATE | MPI_MODE_RDWR);
    check(MPI_File_open(comm, path, amode, info, &io.fh), "MPI_File_open");
    lab_count_meta(lab_now() - t);
  }

  if (view) {
    /* One request per rank through a vector file view: block i of rank r lies at (i * np + r) * xfer. */
    MPI_Datatype ftype;
    MPI_Type_vector((int)n, (int)xfer, (int)(xfer * np), MPI_BYTE, &ftype);
    MPI_Type_commit(&ftype);
    check(MPI_File_set_view(io.fh, shift + r * xfer, MPI_BYTE, ftype, "native", info), "MPI_File_set_view");
    for (int pass = 0; pass < repeat; pass++) {
      if (op != OP_READ) {
        double t = lab_now();
        MPI_Status st;
        MPI_Request rq;
        if (nb) check(coll ? MPI_File_iwrite_all(io.fh, buf, (int)mine, MPI_BYTE, &rq) : MPI_File_iwrite(io.fh, buf, (int)mine, MPI_BYTE, &rq), "iwrite"), reqs[nreq++] = rq;
        else check(coll ? MPI_File_write_all(io.fh, buf, (int)mine, MPI_BYTE, &st) : MPI_File_write(io.fh, buf, (int)mine, MPI_BYTE, &st), "write");
        lab_count_write(mine, lab_now() - t);
        if (nb) MPI_Waitall(nreq, reqs, MPI_STATUSES_IGNORE), nreq = 0;
        MPI_File_seek(io.fh, 0, MPI_SEEK_SET);
      }
      if (op != OP_WRITE) {
        double t = lab_now();
        MPI_Status st;
        check(coll ? MPI_File_read_all(io.fh, buf, (int)mine, MPI_BYTE, &st) : MPI_File_read(io.fh, buf, (int)mine, MPI_BYTE, &st), "read");
        lab_count_read(mine, lab_now() - t);
        MPI_File_seek(io.fh, 0, MPI_SEEK_SET);
      }
    }
    MPI_Type_free(&ftype);
  } else if (gather) {
    for (int pass = 0; pass < repeat; pass++)
      for (long long i = 0; i < n; i++) {
        if (op == OP_READ) {
          if (r == 0) do_read(&io, buf, ureq, offs[i]);
          MPI_Scatter(buf, (int)xfer, MPI_BYTE, piece, (int)xfer, MPI_BYTE, 0, MPI_COMM_WORLD);
        } else {
          MPI_Gather(piece, (int)xfer, MPI_BYTE, buf, (int)xfer, MPI_BYTE, 0, MPI_COMM_WORLD);
          if (r == 0) do_write(&io, buf, ureq, offs[i], NULL);
        }
      }
  } else if (!rank0 || r == 0) {
    if (op != OP_READ) {
      for (int pass = 0; pass < repeat; pass++)
        for (long long i = 0; i < rounds; i++) {
          /* A rank with fewer blocks than the busiest joins the remaining collective calls with 0 bytes. */
          long long bytes = i < n ? ureq : 0, off = i < n ? offs[i] : base;
          do_write(&io, buf, bytes, off, nb ? &reqs[nreq++] : NULL);
          if (sync == SYNC_EACH) {
            double t = lab_now();
            check(MPI_File_sync(io.fh), "MPI_File_sync");
            lab_count_meta(lab_now() - t);
          }
        }
      if (nb) MPI_Waitall(nreq, reqs, MPI_STATUSES_IGNORE), nreq = 0;
    }
    if (op != OP_WRITE) {
      const int passes = op == OP_READ ? repeat : 1;
      for (int pass = 0; pass < passes; pass++)
        for (long long i = 0; i < rounds; i++) do_read(&io, buf, i < n ? xfer : 0, i < n ? offs[i] : base);
    }
  }
  if (opens) {
    double t = lab_now();
    if (sync == SYNC_END && op != OP_READ) check(MPI_File_sync(io.fh), "MPI_File_sync");
    check(MPI_File_close(&io.fh), "MPI_File_close");
    lab_count_meta(lab_now() - t);
  }
  lab_end();
  MPI_Info_free(&info);
  free(offs);
  lab_finish(1);
  return 0;
}
