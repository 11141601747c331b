# Chapter 7's reference times CUB's DeviceScan as its anchor, as chapter 3 times DeviceReduce; CUB's
# headers cost seconds of compiling that a student's build of the starter need not pay.
SOLFLAGS_7 := -DWB_CUB
