/* Read a shared input once and broadcast it, instead of every rank reading the whole file. */
if (rank == 0) {
    FILE *f = fopen("input.dat", "rb");
    fread(buf, 1, size, f);
    fclose(f);
}
MPI_Bcast(buf, (int)size, MPI_BYTE, 0, MPI_COMM_WORLD);   /* or MPI_File_read_all over a split view */
