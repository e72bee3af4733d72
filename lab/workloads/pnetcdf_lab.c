/* PnetCDF workloads of the IOLens lab (CDF-5 files over MPI-IO).
 *
 *   pnetcdf_lab mode=data ...  each rank moves `size` bytes of one 1-D NC_BYTE variable in pieces of `xfer`
 *                              bytes: collective (put_vara_all), independent (indep data mode) or non-blocking
 *                              (iput_vara, one wait_all per `batch` pieces); contiguous or rank-interleaved
 *   pnetcdf_lab mode=meta ...  many small variables, defined and written over `reopen` open/close cycles
 *
 * `align` sets the nc_var_align_size hint (0: PnetCDF's default placement). lab/README.md lists every parameter. */
#include "common.h"

#include <pnetcdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const ALLOWED[] = {"mode", "op", "xfer", "size", "order", "coll", "nb", "batch", "align",
                                      "readers", "skew", "skewrank", "nvars", "vsize", "reopen", "prep", "seed",
                                      "name", NULL};

#define NC_OK(x)                                                        \
  do {                                                                  \
    int rc_ = (x);                                                      \
    if (rc_ != NC_NOERR) lab_fail("%s: %s", #x, ncmpi_strerror(rc_)); \
  } while (0)

enum { OP_WRITE, OP_READ };
static const char *const OPS[] = {"write", "read", NULL};
static const char *const ORDERS[] = {"seq", "strided", NULL};
static const char *const READERS[] = {"own", "all", NULL};

static double t0;
static void tick(void) { t0 = lab_now(); }
static double tock(void) { return lab_now() - t0; }

static MPI_Info file_info(long long align) {
  MPI_Info info;
  MPI_Info_create(&info);
  if (align > 0) {
    char v[32];
    snprintf(v, sizeof v, "%lld", align);
    MPI_Info_set(info, "nc_var_align_size", v);
    MPI_Info_set(info, "nc_header_align_size", v);
  }
  return info;
}

static void data_mode(void) {
  const int op = arg_choice("op", "write", OPS);
  const long long xfer = arg_size("xfer", 1 << 20);
  const long long size = arg_size("size", 4 << 20);
  const int strided = arg_choice("order", "seq", ORDERS);
  const int coll = arg_int("coll", 1);
  const int nb = arg_int("nb", 0);
  const int batch = arg_int("batch", 0);
  const long long align = arg_size("align", 0);
  const int readers_all = arg_choice("readers", "own", READERS);
  const int skew = arg_int("skew", 1);
  const int skewrank = arg_int("skewrank", lab_nprocs - 1);
  const int prep = arg_int("prep", 0);
  const char *name = arg_str("name", "data.nc");
  const int r = lab_rank, np = lab_nprocs;

  if (xfer <= 0 || size <= 0 || size % xfer) lab_fail("size must be a positive multiple of xfer");
  if (strided && skew > 1) lab_fail("order=strided needs equal shares");
  if (readers_all && (op != OP_READ || strided)) lab_fail("readers=all: every rank reads the whole variable in order");
  if (nb && (op != OP_WRITE || skew > 1)) lab_fail("nb=1 is for writes with equal shares (ncmpi_wait_all is collective)");
  if (skew < 1) lab_fail("skew >= 1");

  const lab_share sh = lab_shares(size, skew, skewrank, 0, 0, 0);
  const long long mine = sh.mine, start = sh.base, total = sh.total, maxmine = sh.maxmine;
  MPI_Info info = file_info(align);
  int ncid, dim, var;

  if (prep) {
    if (op == OP_READ) {
      NC_OK(ncmpi_create(MPI_COMM_WORLD, name, NC_CLOBBER | NC_64BIT_DATA, info, &ncid));
      NC_OK(ncmpi_def_dim(ncid, "x", (MPI_Offset)total, &dim));
      NC_OK(ncmpi_def_var(ncid, "data", NC_BYTE, 1, &dim, &var));
      NC_OK(ncmpi_enddef(ncid));
      signed char *buf = (signed char *)lab_buffer((size_t)mine, 0);
      MPI_Offset s[1] = {start}, c[1] = {mine};
      NC_OK(ncmpi_put_vara_schar_all(ncid, var, s, c, buf));
      NC_OK(ncmpi_close(ncid));
      free(buf);
    }
    MPI_Info_free(&info);
    return;
  }

  const long long n = readers_all ? total / xfer : mine / xfer;
  const long long rounds = coll && !readers_all && !nb ? maxmine / xfer : n;
  signed char *buf = (signed char *)lab_buffer((size_t)(nb ? mine : xfer), 0);
  int *reqs = nb ? malloc(sizeof(int) * (size_t)(n + 1)) : NULL;

  lab_begin();
  tick();
  if (op == OP_WRITE) {
    NC_OK(ncmpi_create(MPI_COMM_WORLD, name, NC_CLOBBER | NC_64BIT_DATA, info, &ncid));
    NC_OK(ncmpi_def_dim(ncid, "x", (MPI_Offset)total, &dim));
    NC_OK(ncmpi_def_var(ncid, "data", NC_BYTE, 1, &dim, &var));
    NC_OK(ncmpi_enddef(ncid));
  } else {
    NC_OK(ncmpi_open(MPI_COMM_WORLD, name, NC_NOWRITE, info, &ncid));
    NC_OK(ncmpi_inq_varid(ncid, "data", &var));
  }
  if (!coll && !nb) NC_OK(ncmpi_begin_indep_data(ncid));
  lab_count_meta(tock());

  int pending = 0;
  for (long long i = 0; i < rounds; i++) {
    const int active = i < n;
    MPI_Offset s[1], c[1] = {active ? xfer : 0};
    if (readers_all) s[0] = i * xfer;
    else if (strided) s[0] = (i * np + r) * xfer;
    else s[0] = active ? start + i * xfer : 0;
    tick();
    if (op == OP_WRITE) {
      if (nb) {
        NC_OK(ncmpi_iput_vara_schar(ncid, var, s, c, buf + i * xfer, &reqs[pending++]));
        if (batch > 0 && pending == batch) {
          NC_OK(ncmpi_wait_all(ncid, pending, reqs, NULL));
          pending = 0;
        }
      } else if (coll) {
        NC_OK(ncmpi_put_vara_schar_all(ncid, var, s, c, buf));
      } else {
        NC_OK(ncmpi_put_vara_schar(ncid, var, s, c, buf));
      }
      lab_count_write(active ? xfer : 0, tock());
    } else {
      if (coll) NC_OK(ncmpi_get_vara_schar_all(ncid, var, s, c, buf));
      else NC_OK(ncmpi_get_vara_schar(ncid, var, s, c, buf));
      lab_count_read(active ? xfer : 0, tock());
    }
  }
  tick();
  if (nb) NC_OK(ncmpi_wait_all(ncid, pending, reqs, NULL));
  if (!coll && !nb) NC_OK(ncmpi_end_indep_data(ncid));
  NC_OK(ncmpi_close(ncid));
  lab_count_meta(tock());
  lab_end();
  MPI_Info_free(&info);
}

/* `reopen` cycles: open (create the first time), define nvars/reopen more variables of vsize bytes, leave
 * define mode, each rank writes its vsize/np share of each new variable, close. */
static void meta_mode(void) {
  const int nvars = arg_int("nvars", 256);
  const long long vsize = arg_size("vsize", 64 << 10);
  const int reopen = arg_int("reopen", 1);
  const int coll = arg_int("coll", 1);
  const long long align = arg_size("align", 0);
  const char *name = arg_str("name", "meta.nc");
  const int r = lab_rank, np = lab_nprocs;
  if (arg_int("prep", 0)) return;
  if (nvars < 1 || reopen < 1 || nvars % reopen || vsize % np) lab_fail("nvars must be a multiple of reopen, vsize of the rank count");
  const long long share = vsize / np;
  signed char *buf = (signed char *)lab_buffer((size_t)share, 0);
  MPI_Info info = file_info(align);
  int ncid, dim, *vars = malloc(sizeof(int) * (size_t)nvars);
  char vname[32];

  lab_begin();
  for (int cycle = 0; cycle < reopen; cycle++) {
    tick();
    if (cycle == 0) {
      NC_OK(ncmpi_create(MPI_COMM_WORLD, name, NC_CLOBBER | NC_64BIT_DATA, info, &ncid));
      NC_OK(ncmpi_def_dim(ncid, "x", (MPI_Offset)vsize, &dim));
    } else {
      NC_OK(ncmpi_open(MPI_COMM_WORLD, name, NC_WRITE, info, &ncid));
      NC_OK(ncmpi_inq_dimid(ncid, "x", &dim));
      NC_OK(ncmpi_redef(ncid));
    }
    const int first = cycle * (nvars / reopen), last = first + nvars / reopen;
    for (int k = first; k < last; k++) {
      snprintf(vname, sizeof vname, "v%05d", k);
      NC_OK(ncmpi_def_var(ncid, vname, NC_BYTE, 1, &dim, &vars[k]));
      NC_OK(ncmpi_put_att_text(ncid, vars[k], "units", 5, "bytes"));
    }
    NC_OK(ncmpi_enddef(ncid));
    if (!coll) NC_OK(ncmpi_begin_indep_data(ncid));
    lab_count_meta(tock());
    for (int k = first; k < last; k++) {
      MPI_Offset s[1] = {r * share}, c[1] = {share};
      tick();
      if (coll) NC_OK(ncmpi_put_vara_schar_all(ncid, vars[k], s, c, buf));
      else NC_OK(ncmpi_put_vara_schar(ncid, vars[k], s, c, buf));
      lab_count_write(share, tock());
    }
    tick();
    if (!coll) NC_OK(ncmpi_end_indep_data(ncid));
    NC_OK(ncmpi_close(ncid));
    lab_count_meta(tock());
  }
  lab_end();
  MPI_Info_free(&info);
  free(vars);
}

int main(int argc, char **argv) {
  lab_init(&argc, &argv, ALLOWED);
  static const char *const MODES[] = {"data", "meta", NULL};
  const int mode = arg_choice("mode", "data", MODES);
  if (mode == 0) data_mode();
  else meta_mode();
  lab_finish(!arg_int("prep", 0));
  return 0;
}
