; Kernel 1: an activation layer. 4096 values at byte 0 of the data memory go through tanh and
; sigmoid; the results go to byte 16384 (tanh) and 32768 (sigmoid). Thread t, lane l takes the
; elements 32k + 8t + l, so 4 threads cover the 4096 elements in 128 iterations. The format
; is fp32 here; the test also runs the same kernel with .fp16 and .bf16 (the value in the low
; 16 bits of each word).
    srd r1:ud, lane
    srd r2:ud, tid
    shl r2, r2, 3
    add r1, r1, r2
    shl r1, r1, 2               ; byte address of this lane's first element
    mov r10, 0
    do
        ld r3, r1
        tanh.fp32 r4, r3
        add r5, r1, 16384
        st r5, r4
        sigmoid.fp32 r4, r3
        add r5, r1, 32768
        st r5, r4
        add r1, r1, 128
        add r10, r10, 1
        cmp.lt.f0 r10, 128
    (f0) while
