; Kernel 1 at BIST size (the eu_core BIST top, hdl/src/bist/eu_core.rs): kernels/activation.s
; with 128 values instead of 4 096, so that it fits the default core's 16 KiB data memory and a
; 4 096-cycle BIST run. 128 fp32 values at byte 0 go through tanh and sigmoid; the results go to
; byte 512 (tanh) and 1024 (sigmoid). Thread t, lane l takes the elements 32k + 8t + l, so 4
; threads cover the 128 elements in 4 iterations.
    srd r1:ud, lane
    srd r2:ud, tid
    shl r2, r2, 3
    add r1, r1, r2
    shl r1, r1, 2               ; byte address of this lane's first element
    mov r10, 0
    do
        ld r3, r1
        tanh.fp32 r4, r3
        add r5, r1, 512
        st r5, r4
        sigmoid.fp32 r4, r3
        add r5, r1, 1024
        st r5, r4
        add r1, r1, 128
        add r10, r10, 1
        cmp.lt.f0 r10, 4
    (f0) while
