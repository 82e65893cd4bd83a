; Kernel 3: per-lane GCD (subtraction) and Collatz step count, nested control flow with
; CALL/RET, BREAK and CONT.
; In:  r1 = a, r2 = b (1..255), r3 = n (1..10000).   Out: r1 = gcd(a, b), r4 = Collatz steps of n
; (0 for n > 5000: an early RET).
.func gcd
    do
        cmp.eq.f0 r2, 0
        (f0) break
        cmp.gt.f0 r1, r2
        (f0) sub r1, r1, r2     ; a > b: a -= b, next iteration
        (f0) cont
        sub r2, r2, r1          ; else b -= a
    while
.endfunc

.func collatz
    mov r4, 0
    cmp.gt.f0 r3, 5000
    (f0) ret                    ; large n: no count (early return)
    do
        cmp.le.f0 r3, 1
        (f0) break
        add r4, r4, 1
        and.ne.f1 r5, r3, 1     ; f1 = n odd
        (!f1) shr r3, r3, 1     ; even: n / 2, next iteration
        (!f1) cont
        mul r3, r3, 3
        add r3, r3, 1           ; odd: 3n + 1
    while
.endfunc

    call gcd
    call collatz
