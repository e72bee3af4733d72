# ROMIO hints file: no read-modify-write for independent writes (keep collective buffering on).
cat > romio_hints <<'HINTS'
romio_ds_write disable
romio_cb_write enable
HINTS
export ROMIO_HINTS=$PWD/romio_hints
