# Chapter @N@'s own build flags (mk/toolchain.mk says what each does; N is the number without a leading
# zero). Each is optional: delete this file if the chapter needs none.
#   LDLIBS_@N@ := -lcublas            libraries of both builds (a speed-of-light library: never linked to
#                                     student code by the grader)
#   SOLFLAGS_@N@ := -DWB_CUB          defines of the reference's build only
#   ARCH_FEATURES_@N@ := sm_90a       arch-specific code (wgmma, setmaxnreg): built only where ARCH is sm_90
