// a library that does the work: it costs the performance points of the variants using this region
#include <cub/block/block_reduce.cuh>
@REGION@