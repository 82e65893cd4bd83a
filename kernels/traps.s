; Kernel 5a: traps that the handler records and returns from.
; Every thread raises a software TRAP and then an illegal region (reserved type :rsv); the
; handler appends the cause (ESR) to the thread's log at byte 16*tid of the data memory,
; steps over the excepting instruction (EPC + 1) and returns. Threads that did not except in an
; episode read ESR 0 and just return. r127 counts the log entries (handler-owned register).
    mov r1, 7
    trap 5
    mov r2, r1.0<8;8,1>:rsv
    add r3, r1, 2
.handler
    srd r120, esr
    cmp.ne.f0 r120, 0
    (f0) if
        srd r121, tid
        shl r122, r121, 4
        shl r123, r127, 2
        add r122, r122, r123
        st (1) r122, r120
        add r127, r127, 1
        srd r124, epc
        add r124, r124, 1
        swr epc, r124
    endif
    tret
.endhandler
