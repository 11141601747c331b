# Summarises `nvcc -Xptxas -v` output for sgemm_kernel instances: one line per kernel with its
# template arguments (BM BN BK WM WN WNITER TM TN NT MODE STAGES MINB EDGE), registers,
# stack frame, spill stores/loads. Usage: awk -f ptxas_table.awk ptxas.txt
/Compiling entry function/ {
    name = $0; sub(/.*function '/, "", name); sub(/'.*/, "", name)
    args = name
    if (match(args, /sgemm_kernelI.*EEv/)) {
        args = substr(args, RSTART + 13, RLENGTH - 13 - 3)
        gsub(/L[ib]/, "", args); gsub(/E/, " ", args)
        n = split(args, a, " ")
        mode = a[10] == 2 ? "cpa" a[11] : a[10] == 1 ? "mix" : "reg"
        cur = sprintf("%sx%sx%s_w%sx%s_i%s_t%sx%s_%st_%s %s", a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], mode, a[13] == 1 ? "edge" : "fast")
        minb[cur] = a[12]
    } else cur = ""
    next
}
cur != "" && /bytes stack frame/ { frame[cur] = $1; st[cur] = $5; ld[cur] = $9; next }
cur != "" && /Used [0-9]+ registers/ {
    match($0, /Used [0-9]+ registers/); r = substr($0, RSTART + 5, RLENGTH - 15)
    spill = (st[cur] + ld[cur] > 0) ? "  <-- SPILLS" : ""
    printf "%-46s minb %s  regs %3d  stack %4d  spill st/ld %4d/%4d%s\n", cur, minb[cur], r, frame[cur], st[cur], ld[cur], spill
    if (spill != "") nspill++
    nk++
    cur = ""
}
END { printf "%d kernels, %d with spills\n", nk, nspill }
