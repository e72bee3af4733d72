/* Every rank writes its block of a shared file in one collective call. */
MPI_File fh;
MPI_Offset offset = (MPI_Offset)rank * block_bytes;
MPI_File_open(MPI_COMM_WORLD, "output.dat", MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
MPI_File_write_at_all(fh, offset, buffer, block_count, MPI_DOUBLE, MPI_STATUS_IGNORE);
MPI_File_close(&fh);
