# Chapter 3's reference also times CUB for its speed-of-light row; CUB's headers cost about 10 s of
# compiling that a student's build of the starter need not pay.
SOLFLAGS_3 := -DWB_CUB
