/* Give the metadata cache more room so metadata is written less often. */
H5AC_cache_config_t cfg;
cfg.version = H5AC__CURR_CACHE_CONFIG_VERSION;
H5Fget_mdc_config(file, &cfg);
cfg.set_initial_size = 1;
cfg.initial_size = 64 * 1024 * 1024;     /* 64 MiB */
cfg.max_size = 128 * 1024 * 1024;
H5Fset_mdc_config(file, &cfg);
