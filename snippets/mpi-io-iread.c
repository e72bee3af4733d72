/* Start the read, compute meanwhile, wait only when the data is needed. */
MPI_Request req;
MPI_File_iread_at(fh, offset, next_buffer, count, MPI_DOUBLE, &req);
compute_on(current_buffer);           /* overlaps with the read */
MPI_Wait(&req, MPI_STATUS_IGNORE);    /* next_buffer is ready from here on */
