/* Let one rank do metadata I/O and broadcast it, instead of every rank reading and writing it. */
hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL);
H5Pset_all_coll_metadata_ops(fapl, 1);   /* metadata reads are collective */
H5Pset_coll_metadata_write(fapl, 1);     /* metadata writes are collective */
hid_t file = H5Fopen("data.h5", H5F_ACC_RDWR, fapl);
