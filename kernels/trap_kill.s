; Kernel 5b: a trap whose handler gives up: the excepting thread pauses (TPAUSE), which raises
; the host interrupt; the host kills it. The other threads read ESR 0, return and finish.
    srd r1:ud, tid
    cmp.eq.f0 r1, 2
    (f0) if
        trap 1                  ; only thread 2
    endif
    add r2, r1, 100
.handler
    srd r120, esr
    cmp.ne.f0 r120, 0
    (f0) if
        tpause
    endif
    tret
.endhandler
