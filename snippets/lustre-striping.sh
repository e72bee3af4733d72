# Stripe new files of a directory over 8 OSTs in 4 MiB stripes (choose a count near the number of writers
# and a size that the requests are multiples of).
lfs setstripe --stripe-count 8 --stripe-size 4M /path/to/output_dir
lfs getstripe /path/to/output_dir/file.dat   # check the layout a file got
