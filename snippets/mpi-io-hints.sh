# One collective-buffering aggregator per compute node (here 16 nodes).
# MPICH / Cray MPICH: hints for every file the job opens
export MPICH_MPIIO_HINTS="*:cb_nodes=16:romio_cb_write=enable:romio_cb_read=enable"
# ROMIO (MPICH, Open MPI's romio component): a hints file
printf 'cb_nodes 16\nromio_cb_write enable\n' > romio-hints.txt
export ROMIO_HINTS=$PWD/romio-hints.txt
# Or in the code: MPI_Info_set(info, "cb_nodes", "16") before MPI_File_open
