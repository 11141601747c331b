# cuBLAS is chapter 4's speed-of-light reference only (the grader never links it to student code).
LDLIBS_4 := -lcublas
