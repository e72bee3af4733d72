/* Format records into a large buffer and write it in big chunks. */
static char out[4 << 20];
size_t used = 0;
for (long i = 0; i < nrec; i++) {
    used += snprintf(out + used, sizeof out - used, "%ld %.6f %.6f\n", i, x[i], y[i]);
    if (sizeof out - used < 256) { write(fd, out, used); used = 0; }
}
if (used) write(fd, out, used);
