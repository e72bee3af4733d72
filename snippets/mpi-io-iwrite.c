/* Hand the buffer to MPI-IO, keep computing, and reuse the buffer only after the wait. */
MPI_Request req;
MPI_File_iwrite_at(fh, offset, out_buffer, count, MPI_DOUBLE, &req);
compute_next_step(work_buffer);       /* overlaps with the write */
MPI_Wait(&req, MPI_STATUS_IGNORE);    /* out_buffer may be modified again */
