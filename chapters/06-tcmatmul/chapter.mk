# cuBLAS is chapter 6's speed-of-light reference only (the grader never links it to student code).
LDLIBS_6 := -lcublas
# The Hopper variants (wgmma, TMA, setmaxnreg) need sm_90a code, built where ARCH is sm_90.
ARCH_FEATURES_6 := sm_90a
