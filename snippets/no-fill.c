/* Skip writing fill values when every element will be written anyway. */
/* HDF5: */
hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER);
hid_t dset = H5Dcreate(file, "field", H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
/* PnetCDF: */
ncmpi_set_fill(ncid, NC_NOFILL, NULL);
