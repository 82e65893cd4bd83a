//! Encodings of the trap controller (spec trap-controller.md §2.4, §4, §7.1–§7.3), written once.
//!
//! The RTL compares against these as `k_<kind>_<name>` constants, the golden model, the tests,
//! the BIST top and its model use them by name, `eu-gen` writes them into
//! `eu_trap_controller_defs.vh` and docs/trap_controller.md carries them as tables.

crate::enc_table! {
    /// Global mode `mode` (§2.4).
    pub mod mode: 2 {
        /// Warps run their own code.
        NORM = 0,
        /// Fetch halted, waiting for the pipeline to quiesce (`drain_req`).
        DRAIN = 1,
        /// One cycle that redirects the trapped warps to the handler.
        ENTER = 2,
        /// Warps run handler code.
        HANDLER = 3,
    }
}

crate::enc_table! {
    /// Per-warp state `ws[w]` (§2.4).
    pub mod ws: 3 {
        /// Slot empty (`warp_valid` = 0) or just launched.
        IDLE = 0,
        /// Owns a context in its own code.
        RUN = 1,
        /// In the handler, not yet returned.
        TRAP = 2,
        /// Executed RETURN, waits at the exit barrier.
        RETW = 3,
        /// Executed PAUSE, waits for the host.
        PAUSED = 4,
        /// Faulted inside the handler or with trapping disabled, waits for the host.
        PARKED = 5,
        /// One cycle while its saved PC/mask is written back to the scheduler.
        RSTR = 6,
        /// Killed by the host, waits for the scheduler to drop `warp_valid`.
        KILLED = 7,
    }
}

crate::enc_table! {
    /// Cause codes (§4): LCAUSE, NCAUSE, GCAUSE, `exc_cause`, `sm_evt_cause`, the ESR nibbles, TGID.CAUSE.
    pub mod cause: 4 {
        /// No cause (a cause-0 exception or SM event is spurious).
        NONE = 0x0,
        /// Illegal instruction (local).
        ILLEGAL_INSTR = 0x1,
        /// Bad memory address (local).
        MEM_FAULT = 0x2,
        /// Divide by zero (local).
        DIV_ZERO = 0x3,
        /// Breakpoint (local).
        BREAKPOINT = 0x4,
        /// System call (local).
        SYSCALL = 0x5,
        /// Out-of-range register access (local; the highest code `exc_cause` carries as given).
        REG_RANGE = 0x6,
        /// Single-step completion (generated internally at SAVE).
        SSTEP = 0x7,
        /// ECC error (SM-wide).
        ECC = 0x8,
        /// Timeout (SM-wide).
        TIMEOUT = 0x9,
        /// Host interrupt (SM-wide, targetable: `host_int` pin or HINT CSR).
        HOST_INT = 0xA,
        /// Context switch (SM-wide).
        CTX_SWITCH = 0xB,
        /// Trap broadcast from another SM (SM-wide, `bcast_in`).
        BCAST = 0xC,
        /// A reserved local or SM-event code, accepted as unknown (ERR_UNK).
        UNKNOWN = 0xF,
    }
}

crate::enc_table! {
    /// Sticky bits of GSTATUS / STICKY (§7.2), as masks of the 16-bit register.
    pub mod sticky: 16 {
        /// An episode started (NORM -> DRAIN).
        TRAP_TAKEN = 1 << 4,
        /// A warp executed PAUSE.
        PAUSE = 1 << 5,
        /// Double fault: an unmasked exception inside the handler parked a warp.
        DBLF = 1 << 6,
        /// An exception with TRAP_EN = 0 parked a warp.
        FATAL = 1 << 7,
        /// Two or more warps recorded exceptions in one episode.
        MULTI = 1 << 8,
        /// RETURN/PAUSE from a warp not in TRAP, or both at once.
        ERR_BADRET = 1 << 9,
        /// Exception with cause 0, from a halted warp, or a second one in an episode; SM event 0.
        ERR_SPUR = 1 << 10,
        /// Reserved local or SM-event cause (accepted as UNKNOWN).
        ERR_UNK = 1 << 11,
        /// A handler exception masked by HMASK was dropped.
        SUPPR = 1 << 12,
        /// The episode's global cause found no target warp.
        GDROP = 1 << 13,
        /// Handler SR write outside HANDLER/TRAP or to sel 3-7.
        ERR_SR = 1 << 14,
        /// Host write to a read-only or unmapped CSR, or WEPC/WEMASK of a warp not PAUSED/PARKED.
        ERR_CSR = 1 << 15,
    }
}

crate::enc_table! {
    /// Register masks (§7.2).
    pub mod mask: 16 {
        /// STICKY_MASK: the sticky bits of GSTATUS (15:4).
        STICKY = 0xFFF0,
        /// GPEND_MASK: the causes GPEND can hold (ECC, TIMEOUT, HOST_INT, CTX_SWITCH, BCAST, UNKNOWN).
        GPEND = 1 << 0x8 | 1 << 0x9 | 1 << 0xA | 1 << 0xB | 1 << 0xC | 1 << 0xF,
    }
}

crate::enc_table! {
    /// CTRL bits (§7.3), as masks.
    pub mod ctrl: 3 {
        /// Trapping enabled (0: a local exception parks the warp, FATAL).
        TRAP_EN = 1 << 0,
        /// Broadcast episodes started here on `bcast_out`.
        BCAST_EN = 1 << 1,
        /// Hardware single-step (reads 0 when HAS_SSTEP = 0).
        SSTEP_EN = 1 << 2,
    }
}

crate::enc_table! {
    /// Reset values of the host-programmable registers that do not reset to 0 (§7.2; HADDR/HLAT
    /// reset to the HADDR_RESET parameter).
    pub mod reset: 16 {
        /// CTRL: TRAP_EN.
        CTRL = 0x0001,
        /// IRQ_EN: PAUSE, DBLF and FATAL reach `host_irq`.
        IRQ_EN = 0x00E0,
        /// HMASK: REG_RANGE is suppressed inside the handler.
        HMASK = 0x0040,
    }
}

crate::enc_table! {
    /// Host CSR byte addresses (§7.3).
    pub mod csr: 8 {
        /// RW: TRAP_EN, BCAST_EN, SSTEP_EN.
        CTRL = 0x00,
        /// RW: handler entry address.
        HADDR = 0x04,
        /// R / W1C: mode (1:0), sticky bits (15:4).
        GSTATUS = 0x08,
        /// RW: sticky bits enabled onto `host_irq`.
        IRQ_EN = 0x0C,
        /// RO: VALID/EXT/CAUSE/WID of the last episode.
        TGID = 0x10,
        /// R / W1C: pending global causes.
        GPEND = 0x14,
        /// W: post HOST_INT to a warp mask (R: HTMASK).
        HINT = 0x18,
        /// W: resume PAUSED/PARKED warps (R: 0).
        RESUME = 0x1C,
        /// W: kill warps (R: 0).
        KILL = 0x20,
        /// RW: causes suppressed inside the handler.
        HMASK = 0x24,
        /// RO: bitmap of TRAP warps.
        WS_TRAP = 0x28,
        /// RO: bitmap of PAUSED warps.
        WS_PAUSED = 0x2C,
        /// RO: bitmap of PARKED warps.
        WS_PARKED = 0x30,
        /// RO: bitmap of RUN warps.
        WS_RUN = 0x34,
        /// RW: window warp index.
        WSEL = 0x38,
        /// RO: ws, LCAUSE, NCAUSE, GPW, STEPPED of the window warp.
        WINFO = 0x3C,
        /// RW: EPC of the window warp (writable while PAUSED/PARKED).
        WEPC = 0x40,
        /// RW: EMASK of the window warp (writable while PAUSED/PARKED).
        WEMASK = 0x44,
        /// RW: vector-table base.
        VTBASE = 0x48,
        /// RO: global cause of the last episode.
        GCAUSE = 0x4C,
        /// RO: W, T, PC_W, HAS_SSTEP.
        PARAMS = 0x50,
    }
}

crate::enc_table! {
    /// Handler special-register selectors `sr_sel` (§7.1).
    pub mod sr: 3 {
        /// ESR: {GPW ? GCAUSE : 0, LCAUSE} of the warp while TRAP.
        ESR = 0,
        /// Saved PC of the warp while TRAP.
        EPC = 1,
        /// Saved active mask of the warp while TRAP.
        EMASK = 2,
        /// TGID (read-only).
        TGID = 3,
    }
}

crate::enc_table! {
    /// TGID flag bits (§4); CAUSE is bits 11:8 and WID bits 4:0.
    pub mod tgid: 32 {
        /// Set by every SAVE.
        VALID = 1 << 31,
        /// The episode's cause is global (GCAUSE), not a local exception or single-step.
        EXT = 1 << 30,
    }
}

/// Every table, for `BlockGen::ENCODINGS`.
pub const TABLES: &[&crate::enc::Table] = &[
    &mode::TABLE,
    &ws::TABLE,
    &cause::TABLE,
    &sticky::TABLE,
    &mask::TABLE,
    &ctrl::TABLE,
    &reset::TABLE,
    &csr::TABLE,
    &sr::TABLE,
    &tgid::TABLE,
];

#[cfg(test)]
mod tests {
    use super::*;

    /// The derived values agree with the spec's statements about them.
    #[test]
    fn masks_and_reset_values_follow_the_named_codes() {
        assert_eq!(mask::STICKY, sticky::TABLE.codes.iter().fold(0, |a, c| a | c.value));
        assert_eq!(reset::IRQ_EN, sticky::PAUSE | sticky::DBLF | sticky::FATAL);
        assert_eq!(reset::HMASK, 1 << cause::REG_RANGE);
        assert_eq!(reset::CTRL, ctrl::TRAP_EN);
        let g = [cause::ECC, cause::TIMEOUT, cause::HOST_INT, cause::CTX_SWITCH, cause::BCAST, cause::UNKNOWN];
        assert_eq!(mask::GPEND, g.iter().fold(0, |a, c| a | 1 << c));
        for t in TABLES {
            t.check().unwrap();
        }
    }
}
