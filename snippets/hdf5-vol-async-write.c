/* HDF5 asynchronous VOL (github.com/hpc-io/vol-async): writes run in a background thread.
   Run with HDF5_VOL_CONNECTOR="async under_vol=0;under_info={}" and HDF5_PLUGIN_PATH set. */
hid_t es = H5EScreate();
H5Dwrite_async(dset, H5T_NATIVE_DOUBLE, mem_space, file_space, H5P_DEFAULT, buffer, es);
compute_next_step();                     /* buffer must stay untouched until the wait */
size_t pending; hbool_t failed;
H5ESwait(es, H5ES_WAIT_FOREVER, &pending, &failed);
H5ESclose(es);
