; Kernel 2: escape-time fractal (Mandelbrot set) per lane in Q12 fixed point (4096 = 1.0).
; In:  r1 = cx, r2 = cy of the lane's pixel.   Out: r5 = iterations before escape (max 64).
; Lanes leave the loop at different iterations: BREAK on escape (|z|^2 > 4), WHILE on the count.
    mov r3, 0                   ; x
    mov r4, 0                   ; y
    mov r5, 0                   ; iterations
    do
        mul r6, r3, r3
        asr r6, r6, 12          ; xx = x*x in Q12
        mul r7, r4, r4
        asr r7, r7, 12          ; yy
        add r8, r6, r7
        cmp.gt.f0 r8, 16384     ; escaped: xx + yy > 4.0
        (f0) break
        mul r9, r3, r4
        asr r9, r9, 11          ; 2xy in Q12
        add r4, r9, r2          ; y = 2xy + cy
        sub r3, r6, r7
        add r3, r3, r1          ; x = xx - yy + cx
        add r5, r5, 1
        cmp.lt.f1 r5, 64
    (f1) while
