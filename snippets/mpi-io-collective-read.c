/* Every rank reads its block of a shared file in one collective call. */
MPI_File fh;
MPI_Offset offset = (MPI_Offset)rank * block_bytes;
MPI_File_open(MPI_COMM_WORLD, "input.dat", MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
MPI_File_read_at_all(fh, offset, buffer, block_count, MPI_DOUBLE, MPI_STATUS_IGNORE);
MPI_File_close(&fh);
