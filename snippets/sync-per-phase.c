/* Sync once per output phase, not after every write. */
for (int i = 0; i < nblocks; i++)
    pwrite(fd, buf + i * block, block, offset + i * block);   /* no fsync here */
fsync(fd);          /* one sync when the phase (checkpoint) is complete */
close(fd);
