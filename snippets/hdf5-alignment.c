/* Align every HDF5 object of 1 MiB or more on 4 MiB boundaries (e.g. the Lustre stripe size). */
hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL);
H5Pset_alignment(fapl, 1048576 /* threshold */, 4194304 /* alignment */);
hid_t file = H5Fcreate("data.h5", H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
