; Kernel 4: regions. Every operand is a region descriptor Rr.s<VS;W,HS>:t.
;
; (a) 8x8 transpose: A is r10..r17 (row i in r(10+i), 8 x :d); column j of A is the region
;     r10.(4j)<8;1,0>:d (vertical stride 8 elements = one register, width 1, stride 0);
;     it becomes row j of T in r20..r27.
    mov r20.0<1>:d, r10.0<8;1,0>:d
    mov r21.0<1>:d, r10.4<8;1,0>:d
    mov r22.0<1>:d, r10.8<8;1,0>:d
    mov r23.0<1>:d, r10.12<8;1,0>:d
    mov r24.0<1>:d, r10.16<8;1,0>:d
    mov r25.0<1>:d, r10.20<8;1,0>:d
    mov r26.0<1>:d, r10.24<8;1,0>:d
    mov r27.0<1>:d, r10.28<8;1,0>:d
;
; (b) 3-tap 2-D convolution, separable: K = (1, 2, 1) along x, then (1, 2, 1) along y.
;     Image: 10 rows of 16 signed words, row y in r(30+y) (columns 0..9 used).
;     Horizontal: h[y][x] = in[y][x] + 2 in[y][x+1] + in[y][x+2], the taps are sub-register
;     offsets 0, 2, 4 bytes of <8;8,1>:w; the coefficient 2 is a scalar region r5.0<0;1,0>:d
;     (stride 0: one element broadcast to every lane). h row y in r(50+y) as :d.
    mov r5.0<1>:d, 2
    mul r60.0<1>:d, r30.2<8;8,1>:w, r5.0<0;1,0>:d
    add r60.0<1>:d, r60.0<8;8,1>:d, r30.0<8;8,1>:w
    add r50.0<1>:d, r60.0<8;8,1>:d, r30.4<8;8,1>:w
    mul r60.0<1>:d, r31.2<8;8,1>:w, r5.0<0;1,0>:d
    add r60.0<1>:d, r60.0<8;8,1>:d, r31.0<8;8,1>:w
    add r51.0<1>:d, r60.0<8;8,1>:d, r31.4<8;8,1>:w
    mul r60.0<1>:d, r32.2<8;8,1>:w, r5.0<0;1,0>:d
    add r60.0<1>:d, r60.0<8;8,1>:d, r32.0<8;8,1>:w
    add r52.0<1>:d, r60.0<8;8,1>:d, r32.4<8;8,1>:w
    mul r60.0<1>:d, r33.2<8;8,1>:w, r5.0<0;1,0>:d
    add r60.0<1>:d, r60.0<8;8,1>:d, r33.0<8;8,1>:w
    add r53.0<1>:d, r60.0<8;8,1>:d, r33.4<8;8,1>:w
    mul r60.0<1>:d, r34.2<8;8,1>:w, r5.0<0;1,0>:d
    add r60.0<1>:d, r60.0<8;8,1>:d, r34.0<8;8,1>:w
    add r54.0<1>:d, r60.0<8;8,1>:d, r34.4<8;8,1>:w
    mul r60.0<1>:d, r35.2<8;8,1>:w, r5.0<0;1,0>:d
    add r60.0<1>:d, r60.0<8;8,1>:d, r35.0<8;8,1>:w
    add r55.0<1>:d, r60.0<8;8,1>:d, r35.4<8;8,1>:w
    mul r60.0<1>:d, r36.2<8;8,1>:w, r5.0<0;1,0>:d
    add r60.0<1>:d, r60.0<8;8,1>:d, r36.0<8;8,1>:w
    add r56.0<1>:d, r60.0<8;8,1>:d, r36.4<8;8,1>:w
    mul r60.0<1>:d, r37.2<8;8,1>:w, r5.0<0;1,0>:d
    add r60.0<1>:d, r60.0<8;8,1>:d, r37.0<8;8,1>:w
    add r57.0<1>:d, r60.0<8;8,1>:d, r37.4<8;8,1>:w
    mul r60.0<1>:d, r38.2<8;8,1>:w, r5.0<0;1,0>:d
    add r60.0<1>:d, r60.0<8;8,1>:d, r38.0<8;8,1>:w
    add r58.0<1>:d, r60.0<8;8,1>:d, r38.4<8;8,1>:w
    mul r60.0<1>:d, r39.2<8;8,1>:w, r5.0<0;1,0>:d
    add r60.0<1>:d, r60.0<8;8,1>:d, r39.0<8;8,1>:w
    add r59.0<1>:d, r60.0<8;8,1>:d, r39.4<8;8,1>:w
;     Vertical: out[y][x] = h[y][x] + 2 h[y+1][x] + h[y+2][x], out row y in r(70+y) as :d.
    shl r60.0<1>:d, r51.0<8;8,1>:d, 1
    add r60.0<1>:d, r60.0<8;8,1>:d, r50.0<8;8,1>:d
    add r70.0<1>:d, r60.0<8;8,1>:d, r52.0<8;8,1>:d
    shl r60.0<1>:d, r52.0<8;8,1>:d, 1
    add r60.0<1>:d, r60.0<8;8,1>:d, r51.0<8;8,1>:d
    add r71.0<1>:d, r60.0<8;8,1>:d, r53.0<8;8,1>:d
    shl r60.0<1>:d, r53.0<8;8,1>:d, 1
    add r60.0<1>:d, r60.0<8;8,1>:d, r52.0<8;8,1>:d
    add r72.0<1>:d, r60.0<8;8,1>:d, r54.0<8;8,1>:d
    shl r60.0<1>:d, r54.0<8;8,1>:d, 1
    add r60.0<1>:d, r60.0<8;8,1>:d, r53.0<8;8,1>:d
    add r73.0<1>:d, r60.0<8;8,1>:d, r55.0<8;8,1>:d
    shl r60.0<1>:d, r55.0<8;8,1>:d, 1
    add r60.0<1>:d, r60.0<8;8,1>:d, r54.0<8;8,1>:d
    add r74.0<1>:d, r60.0<8;8,1>:d, r56.0<8;8,1>:d
    shl r60.0<1>:d, r56.0<8;8,1>:d, 1
    add r60.0<1>:d, r60.0<8;8,1>:d, r55.0<8;8,1>:d
    add r75.0<1>:d, r60.0<8;8,1>:d, r57.0<8;8,1>:d
    shl r60.0<1>:d, r57.0<8;8,1>:d, 1
    add r60.0<1>:d, r60.0<8;8,1>:d, r56.0<8;8,1>:d
    add r76.0<1>:d, r60.0<8;8,1>:d, r58.0<8;8,1>:d
    shl r60.0<1>:d, r58.0<8;8,1>:d, 1
    add r60.0<1>:d, r60.0<8;8,1>:d, r57.0<8;8,1>:d
    add r77.0<1>:d, r60.0<8;8,1>:d, r59.0<8;8,1>:d
;
; (c) horizontal strides 2 and 4 and a 2-D region: from image row 0 (r30, :w)
;     r80 = columns 0, 2, .., 14 (<16;8,2>:w);  r81 lanes 0..3 = columns 0, 4, 8, 12 ((4) <16;4,4>:w);
;     r82 = the 2x4 block of rows 0-1, columns 1-4 (<16;4,1>:w: vertical stride 16 words = one register);
;     r83 = columns 0..7 written to every other word of r83 (:w destination stride 2).
    mov r80.0<1>:d, r30.0<16;8,2>:w
    mov (4) r81.0<1>:d, r30.0<16;4,4>:w
    mov r82.0<1>:d, r30.2<16;4,1>:w
    mov r83.0<2>:w, r30.0<8;8,1>:w
