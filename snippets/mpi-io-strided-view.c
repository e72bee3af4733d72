/* Rank r owns blocks r, r+P, r+2P, ... of size B: describe them once with a file view, write them in one collective call. */
MPI_Datatype blocks;
MPI_Type_vector(nblocks, B, B * nprocs, MPI_BYTE, &blocks);
MPI_Type_commit(&blocks);
MPI_File_set_view(fh, (MPI_Offset)rank * B, MPI_BYTE, blocks, "native", MPI_INFO_NULL);
MPI_File_write_all(fh, buf, nblocks * B, MPI_BYTE, MPI_STATUS_IGNORE);
MPI_Type_free(&blocks);
