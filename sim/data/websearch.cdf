# Web search flow sizes: the CDF measured for DCTCP
# (Alizadeh et al., "Data Center TCP (DCTCP)", SIGCOMM 2010, Fig. 4), in
# the tabulated form used by HPCC (Li et al., SIGCOMM 2019) and ACC
# (Zhang et al., NSDI 2024).  Columns: flow size in bytes, CDF in percent.
# Sizes between two rows are interpolated linearly.
0 0
10000 15
20000 20
30000 30
50000 40
80000 53
200000 60
1000000 70
2000000 80
5000000 90
10000000 97
30000000 100
