/* HDF5 workloads of the IOLens lab (parallel HDF5 over MPI-IO, or the sec2 POSIX driver).
 *
 *   hdf5_lab mode=data ...  each rank moves `size` bytes of one 1-D byte dataset in hyperslabs of `xfer` bytes:
 *                           collective or independent transfers, contiguous or rank-interleaved, chunked or not,
 *                           with or without file alignment and collective metadata
 *   hdf5_lab mode=meta ...  many small datasets with attributes, written over `reopen` open/close cycles
 *
 * lab/README.md lists every parameter. */
#include "common.h"

#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const ALLOWED[] = {"mode", "op", "xfer", "size", "layout", "driver", "order", "coll", "align",
                                      "chunk", "collmeta", "who", "gather", "readers", "skew", "skewrank", "ndsets",
                                      "dsize", "nattrs", "reopen", "prep", "seed", "name", NULL};

#define H5_OK(x)                                   \
  do {                                               \
    if ((x) < 0) lab_fail("HDF5 call failed: %s", #x); \
  } while (0)

enum { OP_WRITE, OP_READ, OP_WRITEREAD };
static const char *const OPS[] = {"write", "read", "writeread", NULL};
static const char *const LAYOUTS[] = {"shared", "fpp", NULL};
static const char *const DRIVERS[] = {"mpio", "sec2", NULL};
static const char *const ORDERS[] = {"seq", "strided", NULL};
static const char *const WHOS[] = {"all", "rank0", NULL};
static const char *const READERS[] = {"own", "all", NULL};

/* File access properties: MPI-IO on `comm` (or sec2), optional alignment, optional collective metadata. */
static hid_t fapl_for(MPI_Comm comm, int sec2, long long align, int collmeta) {
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  if (sec2) {
    H5_OK(H5Pset_fapl_sec2(fapl));
  } else {
    H5_OK(H5Pset_fapl_mpio(fapl, comm, MPI_INFO_NULL));
    if (collmeta) {
      H5_OK(H5Pset_all_coll_metadata_ops(fapl, 1));
      H5_OK(H5Pset_coll_metadata_write(fapl, 1));
    }
  }
  if (align > 0) H5_OK(H5Pset_alignment(fapl, 65536, (hsize_t)align));
  return fapl;
}

static hid_t dxpl_for(int sec2, int coll) {
  hid_t dxpl = H5Pcreate(H5P_DATASET_XFER);
  if (!sec2) H5_OK(H5Pset_dxpl_mpio(dxpl, coll ? H5FD_MPIO_COLLECTIVE : H5FD_MPIO_INDEPENDENT));
  return dxpl;
}

static double t0;
static void tick(void) { t0 = lab_now(); }
static double tock(void) { return lab_now() - t0; }

/* ------------------------------------------------------------------------------------------------------------ */

static void data_mode(void) {
  const int op = arg_choice("op", "write", OPS);
  const long long xfer = arg_size("xfer", 1 << 20);
  const long long size = arg_size("size", 4 << 20);
  const int fpp = arg_choice("layout", "shared", LAYOUTS);
  const int sec2 = arg_choice("driver", "mpio", DRIVERS);
  const int strided = arg_choice("order", "seq", ORDERS);
  const int coll = arg_int("coll", 1);
  const long long align = arg_size("align", 0);
  const long long chunk = arg_size("chunk", 0);
  const int collmeta = arg_int("collmeta", 0);
  const int rank0 = arg_choice("who", "all", WHOS);
  const int gather = arg_int("gather", 0);
  const int readers_all = arg_choice("readers", "own", READERS);
  const int skew = arg_int("skew", 1);
  const int skewrank = arg_int("skewrank", lab_nprocs - 1);
  const int prep = arg_int("prep", 0);
  const char *name = arg_str("name", "data.h5");
  const int r = lab_rank, np = lab_nprocs;

  if (xfer <= 0 || size <= 0 || size % xfer) lab_fail("size must be a positive multiple of xfer");
  if (sec2 && !fpp && !rank0) lab_fail("driver=sec2 writes one file per process or rank 0's file");
  if (strided && (fpp || rank0 || skew > 1)) lab_fail("order=strided interleaves ranks in one shared dataset");
  if (rank0 && !gather) lab_fail("who=rank0 gathers the data on rank 0 (gather=1)");
  if (gather && (!rank0 || op == OP_WRITEREAD)) lab_fail("gather=1 needs who=rank0 and op=write or read");
  if (readers_all && (op != OP_READ || fpp || rank0)) lab_fail("readers=all: every rank reads the whole shared dataset");
  if (skew < 1) lab_fail("skew >= 1");

  /* Elements (bytes) of this rank, the dataset size and where this rank's part starts. */
  const lab_share sh = lab_shares(size, skew, skewrank, rank0, fpp, 0);
  const long long mine = sh.mine, start = sh.base, total = sh.total, maxmine = sh.maxmine;
  const long long extent = fpp ? mine : total;

  char path[256];
  lab_path(path, sizeof path, name, fpp, r);
  const int self = fpp || rank0;
  const int opens = !rank0 || r == 0;
  MPI_Comm comm = self ? MPI_COMM_SELF : MPI_COMM_WORLD;

  if (prep) {
    if (op == OP_READ && opens) {
      hid_t fapl = fapl_for(comm, sec2, align, 0);
      hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
      H5_OK(f);
      hsize_t dims[1] = {(hsize_t)extent};
      hid_t space = H5Screate_simple(1, dims, NULL);
      hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
      if (chunk > 0) {
        hsize_t cd[1] = {(hsize_t)chunk};
        H5_OK(H5Pset_chunk(dcpl, 1, cd));
      }
      H5_OK(H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER));
      hid_t d = H5Dcreate2(f, "data", H5T_NATIVE_UCHAR, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
      H5_OK(d);
      /* Every rank writes its own part collectively (rank 0 everything when it alone reads later). */
      char *buf = lab_buffer((size_t)(mine > 0 ? mine : 1), 0);
      hid_t fs = H5Dget_space(d);
      hsize_t off[1] = {(hsize_t)start}, cnt[1] = {(hsize_t)mine};
      if (mine > 0) H5Sselect_hyperslab(fs, H5S_SELECT_SET, off, NULL, cnt, NULL);
      else H5Sselect_none(fs);
      hid_t ms = H5Screate_simple(1, cnt[0] > 0 ? cnt : (hsize_t[]){1}, NULL);
      if (mine == 0) H5Sselect_none(ms);
      hid_t dxpl = dxpl_for(sec2 || self, 1);
      H5_OK(H5Dwrite(d, H5T_NATIVE_UCHAR, ms, fs, dxpl, buf));
      H5Pclose(dxpl), H5Sclose(ms), H5Sclose(fs), H5Dclose(d), H5Pclose(dcpl), H5Sclose(space), H5Fclose(f), H5Pclose(fapl);
      free(buf);
    }
    return;
  }

  const long long ureq = gather ? xfer * np : xfer;
  const long long n = readers_all ? total / xfer : gather ? size / xfer : mine / ureq;
  const long long rounds = coll && !self && !readers_all ? maxmine / ureq : n;
  char *buf = lab_buffer((size_t)ureq, 0);
  char *piece = gather ? lab_buffer((size_t)xfer, 0) : NULL;

  lab_begin();
  hid_t f = -1, d = -1, fapl = -1, dxpl = -1, dcpl = -1;
  if (opens) {
    tick();
    fapl = fapl_for(comm, sec2, align, collmeta);
    dxpl = dxpl_for(sec2 || self, coll && !self);
    if (op == OP_READ) {
      f = H5Fopen(path, H5F_ACC_RDONLY, fapl);
      H5_OK(f);
      d = H5Dopen2(f, "data", H5P_DEFAULT);
      H5_OK(d);
    } else {
      f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
      H5_OK(f);
      hsize_t dims[1] = {(hsize_t)extent};
      hid_t space = H5Screate_simple(1, dims, NULL);
      dcpl = H5Pcreate(H5P_DATASET_CREATE);
      if (chunk > 0) {
        hsize_t cd[1] = {(hsize_t)chunk};
        H5_OK(H5Pset_chunk(dcpl, 1, cd));
      }
      H5_OK(H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER));
      d = H5Dcreate2(f, "data", H5T_NATIVE_UCHAR, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
      H5_OK(d);
      H5Sclose(space);
    }
    lab_count_meta(tock());
  }

  hsize_t one[1] = {(hsize_t)ureq};
  hid_t ms = H5Screate_simple(1, one, NULL);
  hid_t fs = opens ? H5Dget_space(d) : -1;
  for (int phase = 0; phase < 2; phase++) {
    const int writing = phase == 0;
    if (writing && op == OP_READ) continue;
    if (!writing && op == OP_WRITE) continue;
    for (long long i = 0; i < rounds; i++) {
      long long elem;
      if (readers_all) elem = i * xfer;
      else if (strided) elem = (i * np + r) * xfer;
      else elem = start + i * ureq;
      const int active = i < n && opens;
      if (gather && !writing) {
        if (r == 0) {
          hsize_t off[1] = {(hsize_t)(i * ureq)}, cnt[1] = {(hsize_t)ureq};
          H5Sselect_hyperslab(fs, H5S_SELECT_SET, off, NULL, cnt, NULL);
          tick();
          H5_OK(H5Dread(d, H5T_NATIVE_UCHAR, ms, fs, dxpl, buf));
          lab_count_read(ureq, tock());
        }
        MPI_Scatter(buf, (int)xfer, MPI_BYTE, piece, (int)xfer, MPI_BYTE, 0, MPI_COMM_WORLD);
        continue;
      }
      if (gather) {
        MPI_Gather(piece, (int)xfer, MPI_BYTE, buf, (int)xfer, MPI_BYTE, 0, MPI_COMM_WORLD);
        if (r != 0) continue;
        elem = i * ureq;
      }
      if (!opens) continue;
      const long long bytes = ureq;
      if (active) {
        hsize_t off[1] = {(hsize_t)elem}, cnt[1] = {(hsize_t)bytes};
        H5Sselect_hyperslab(fs, H5S_SELECT_SET, off, NULL, cnt, NULL);
        H5Sselect_all(ms);
      } else {
        /* A rank with fewer blocks joins the remaining collective transfers with an empty selection. */
        H5Sselect_none(fs);
        H5Sselect_none(ms);
      }
      tick();
      if (writing) H5_OK(H5Dwrite(d, H5T_NATIVE_UCHAR, ms, fs, dxpl, buf));
      else H5_OK(H5Dread(d, H5T_NATIVE_UCHAR, ms, fs, dxpl, buf));
      if (writing) lab_count_write(active ? bytes : 0, tock());
      else lab_count_read(active ? bytes : 0, tock());
    }
  }
  if (opens) {
    tick();
    H5Sclose(fs);
    H5Dclose(d);
    if (dcpl >= 0) H5Pclose(dcpl);
    H5Pclose(dxpl);
    H5Fclose(f);
    H5Pclose(fapl);
    lab_count_meta(tock());
  }
  H5Sclose(ms);
  lab_end();
}

/* ------------------------------------------------------------------------------------------------------------ */
/* mode=meta: `reopen` cycles of open file, create ndsets/reopen datasets of dsize bytes (each rank writes its  */
/* dsize/np share), attach nattrs small attributes to each, close file.                                        */

static void meta_mode(void) {
  const int ndsets = arg_int("ndsets", 256);
  const long long dsize = arg_size("dsize", 64 << 10);
  const int nattrs = arg_int("nattrs", 4);
  const int reopen = arg_int("reopen", 1);
  const int coll = arg_int("coll", 0);
  const int collmeta = arg_int("collmeta", 0);
  const long long align = arg_size("align", 0);
  const char *name = arg_str("name", "meta.h5");
  const int r = lab_rank, np = lab_nprocs;
  if (arg_int("prep", 0)) return;
  if (ndsets < 1 || reopen < 1 || ndsets % reopen || dsize % np) lab_fail("ndsets must be a multiple of reopen, dsize of the rank count");

  const long long share = dsize / np;
  char *buf = lab_buffer((size_t)(share > 0 ? share : 1), 0);
  double attr_values[8] = {1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0};
  char dname[64], aname[64];

  lab_begin();
  for (int cycle = 0; cycle < reopen; cycle++) {
    tick();
    hid_t fapl = fapl_for(MPI_COMM_WORLD, 0, align, collmeta);
    hid_t f = cycle == 0 ? H5Fcreate(name, H5F_ACC_TRUNC, H5P_DEFAULT, fapl) : H5Fopen(name, H5F_ACC_RDWR, fapl);
    H5_OK(f);
    hid_t dxpl = dxpl_for(0, coll);
    lab_count_meta(tock());
    for (int k = 0; k < ndsets / reopen; k++) {
      tick();
      snprintf(dname, sizeof dname, "d%05d", cycle * (ndsets / reopen) + k);
      hsize_t dims[1] = {(hsize_t)dsize};
      hid_t space = H5Screate_simple(1, dims, NULL);
      hid_t d = H5Dcreate2(f, dname, H5T_NATIVE_UCHAR, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
      H5_OK(d);
      for (int a = 0; a < nattrs; a++) {
        snprintf(aname, sizeof aname, "attr%03d", a);
        hsize_t adims[1] = {8};
        hid_t as = H5Screate_simple(1, adims, NULL);
        hid_t at = H5Acreate2(d, aname, H5T_NATIVE_DOUBLE, as, H5P_DEFAULT, H5P_DEFAULT);
        H5_OK(at);
        H5_OK(H5Awrite(at, H5T_NATIVE_DOUBLE, attr_values));
        H5Aclose(at);
        H5Sclose(as);
      }
      lab_count_meta(tock());
      hsize_t off[1] = {(hsize_t)(r * share)}, cnt[1] = {(hsize_t)share};
      hid_t fs = H5Dget_space(d);
      H5Sselect_hyperslab(fs, H5S_SELECT_SET, off, NULL, cnt, NULL);
      hid_t ms = H5Screate_simple(1, cnt, NULL);
      tick();
      H5_OK(H5Dwrite(d, H5T_NATIVE_UCHAR, ms, fs, dxpl, buf));
      lab_count_write(share, tock());
      tick();
      H5Sclose(ms), H5Sclose(fs), H5Dclose(d), H5Sclose(space);
      lab_count_meta(tock());
    }
    tick();
    H5Pclose(dxpl);
    H5Fclose(f);
    H5Pclose(fapl);
    lab_count_meta(tock());
  }
  lab_end();
}

int main(int argc, char **argv) {
  lab_init(&argc, &argv, ALLOWED);
  static const char *const MODES[] = {"data", "meta", NULL};
  const int mode = arg_choice("mode", "data", MODES);
  if (mode == 0) data_mode();
  else meta_mode();
  H5close();
  lab_finish(!arg_int("prep", 0));
  return 0;
}
