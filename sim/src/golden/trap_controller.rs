//! Golden model for trap_controller: the pure step function of spec §7.4
//! (/work/shared/spec/trap-controller.md), written from the spec text, never from the RTL.
//!
//! `step(p, s, i) -> (State, Outputs)`: `s` is the state before the clock edge, `i` the inputs
//! during the cycle; the outputs are those seen during the cycle (registered outputs depend on
//! `s` only; `sr_rdata`/`csr_rdata` also on `i`), the returned state is the state after the edge.
//! Per-warp vectors are fixed arrays of 32 entries (W ≤ 32) so a step allocates nothing.

pub const MAXW: usize = 32;

use hdl::trap_controller::enc;

// The spec's codes (§2.4, §4, §7.2), by their names in `hdl::trap_controller::enc`, at the widths
// the state record uses.
// Global modes.
pub const NORM: u8 = enc::mode::NORM as u8;
pub const DRAIN: u8 = enc::mode::DRAIN as u8;
pub const ENTER: u8 = enc::mode::ENTER as u8;
pub const HANDLER: u8 = enc::mode::HANDLER as u8;

// Per-warp states.
pub const IDLE: u8 = enc::ws::IDLE as u8;
pub const RUN: u8 = enc::ws::RUN as u8;
pub const TRAP: u8 = enc::ws::TRAP as u8;
pub const RETW: u8 = enc::ws::RETW as u8;
pub const PAUSED: u8 = enc::ws::PAUSED as u8;
pub const PARKED: u8 = enc::ws::PARKED as u8;
pub const RSTR: u8 = enc::ws::RSTR as u8;
pub const KILLED: u8 = enc::ws::KILLED as u8;

// Cause codes.
pub const NONE: u8 = enc::cause::NONE as u8;
pub const ILLEGAL_INSTR: u8 = enc::cause::ILLEGAL_INSTR as u8;
pub const REG_RANGE: u8 = enc::cause::REG_RANGE as u8;
pub const SSTEP: u8 = enc::cause::SSTEP as u8;
pub const ECC: u8 = enc::cause::ECC as u8;
pub const TIMEOUT: u8 = enc::cause::TIMEOUT as u8;
pub const HOST_INT: u8 = enc::cause::HOST_INT as u8;
pub const CTX_SWITCH: u8 = enc::cause::CTX_SWITCH as u8;
pub const BCAST: u8 = enc::cause::BCAST as u8;
pub const UNKNOWN: u8 = enc::cause::UNKNOWN as u8;

// Sticky bits (masks of STICKY).
pub const TRAP_TAKEN: u16 = enc::sticky::TRAP_TAKEN as u16;
pub const PAUSE: u16 = enc::sticky::PAUSE as u16;
pub const DBLF: u16 = enc::sticky::DBLF as u16;
pub const FATAL: u16 = enc::sticky::FATAL as u16;
pub const MULTI: u16 = enc::sticky::MULTI as u16;
pub const ERR_BADRET: u16 = enc::sticky::ERR_BADRET as u16;
pub const ERR_SPUR: u16 = enc::sticky::ERR_SPUR as u16;
pub const ERR_UNK: u16 = enc::sticky::ERR_UNK as u16;
pub const SUPPR: u16 = enc::sticky::SUPPR as u16;
pub const GDROP: u16 = enc::sticky::GDROP as u16;
pub const ERR_SR: u16 = enc::sticky::ERR_SR as u16;
pub const ERR_CSR: u16 = enc::sticky::ERR_CSR as u16;
pub const STICKY_MASK: u16 = enc::mask::STICKY as u16;
pub const GPEND_MASK: u16 = enc::mask::GPEND as u16;

// CTRL bits.
pub const TRAP_EN: u8 = enc::ctrl::TRAP_EN as u8;
pub const BCAST_EN: u8 = enc::ctrl::BCAST_EN as u8;
pub const SSTEP_EN: u8 = enc::ctrl::SSTEP_EN as u8;

/// Block parameters (§4).
#[derive(Clone, Copy, Debug)]
pub struct Params {
    pub w: usize,
    pub t: usize,
    pub pc_w: usize,
    pub has_sstep: bool,
    pub haddr_reset: u32,
}

impl Params {
    pub fn new(w: usize) -> Self {
        Self { w, t: 32, pc_w: 32, has_sstep: true, haddr_reset: 0 }
    }
    pub fn wid_w(&self) -> usize {
        let mut b = 0;
        while (1usize << b) < self.w {
            b += 1;
        }
        b.max(1)
    }
    pub fn pcm(&self) -> u32 {
        ones(self.pc_w)
    }
    pub fn tm(&self) -> u32 {
        ones(self.t)
    }
    pub fn wm(&self) -> u32 {
        ones(self.w)
    }
}

fn ones(n: usize) -> u32 {
    if n >= 32 {
        u32::MAX
    } else {
        (1u32 << n) - 1
    }
}

fn bit(x: u32, w: usize) -> bool {
    (x >> w) & 1 == 1
}

/// The state record of §7.2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    pub mode: u8,
    pub ws: [u8; MAXW],
    pub lcause: [u8; MAXW],
    pub ncause: [u8; MAXW],
    pub gpw: [bool; MAXW],
    pub stepped: [bool; MAXW],
    pub epc: [u32; MAXW],
    pub emask: [u32; MAXW],
    pub gcause: u8,
    pub gpend: u16,
    pub htmask: u32,
    pub haddr: u32,
    pub hlat: u32,
    pub vtbase: u32,
    pub ctrl: u8,
    pub irq_en: u16,
    pub sticky: u16,
    pub tgid: u32,
    pub fvalid: bool,
    pub fwid: usize,
    pub hmask: u16,
    pub wsel: u32,
    pub bcast_q: bool,
    pub ss_trig: bool,
}

pub fn reset_state(p: &Params) -> State {
    State {
        mode: NORM,
        ws: [IDLE; MAXW],
        lcause: [0; MAXW],
        ncause: [0; MAXW],
        gpw: [false; MAXW],
        stepped: [false; MAXW],
        epc: [0; MAXW],
        emask: [0; MAXW],
        gcause: 0,
        gpend: 0,
        htmask: 0,
        haddr: p.haddr_reset & p.pcm(),
        hlat: p.haddr_reset & p.pcm(),
        vtbase: 0,
        ctrl: enc::reset::CTRL as u8,
        irq_en: enc::reset::IRQ_EN as u16,
        sticky: 0,
        tgid: 0,
        fvalid: false,
        fwid: 0,
        hmask: enc::reset::HMASK as u16,
        wsel: 0,
        bcast_q: false,
        ss_trig: false,
    }
}

/// Inputs of §7.1 (vectors unpacked per warp; bit w of a mask = warp w).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Inputs {
    pub warp_valid: u32,
    pub exc_valid: u32,
    pub exc_cause: [u8; MAXW],
    pub exc_pc: [u32; MAXW],
    pub exc_mask: [u32; MAXW],
    pub ret_valid: u32,
    pub pause_valid: u32,
    pub warp_pc: [u32; MAXW],
    pub warp_mask: [u32; MAXW],
    pub quiesced: bool,
    pub bar_wait: u32,
    pub issue_valid: bool,
    pub issue_wid: u32,
    pub host_int: bool,
    pub sm_evt_valid: bool,
    pub sm_evt_cause: u8,
    pub bcast_in: bool,
    pub sr_valid: bool,
    pub sr_wid: u32,
    pub sr_sel: u8,
    pub sr_we: bool,
    pub sr_wdata: u32,
    pub csr_valid: bool,
    pub csr_we: bool,
    pub csr_addr: u8,
    pub csr_wdata: u32,
}

/// Outputs of §7.1.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outputs {
    pub warp_halt: u32,
    pub drain_req: bool,
    pub trap_mode: bool,
    pub redir_valid: u32,
    pub redir_pc: [u32; MAXW],
    pub redir_mask: [u32; MAXW],
    pub warp_kill: u32,
    pub host_irq: bool,
    pub bcast_out: bool,
    pub vt_base: u32,
    pub sr_rdata: u32,
    pub csr_rdata: u32,
}

/// ESR(w) of §2.4: `{GPW ? GCAUSE : 0, LCAUSE}` while TRAP, else 0.
pub fn esr(s: &State, w: usize) -> u32 {
    if s.ws[w] == TRAP {
        ((if s.gpw[w] { s.gcause as u32 } else { 0 }) << 4) | s.lcause[w] as u32
    } else {
        0
    }
}

fn lmap(c: u8) -> Option<(u8, bool)> {
    match c {
        NONE => None,
        ILLEGAL_INSTR..=REG_RANGE => Some((c, false)),
        _ => Some((UNKNOWN, true)),
    }
}

fn gmap(c: u8) -> Option<(u8, bool)> {
    match c {
        NONE => None,
        ECC | TIMEOUT | CTX_SWITCH => Some((c, false)),
        _ => Some((UNKNOWN, true)),
    }
}

/// TGID (§4): VALID, EXT (global cause), CAUSE in bits 11:8, WID in bits 4:0.
fn tg(ext: bool, c: u8, w: usize) -> u32 {
    enc::tgid::VALID as u32 | if ext { enc::tgid::EXT as u32 } else { 0 } | (c as u32) << 8 | w as u32
}

fn bitmap(p: &Params, s: &State, st: u8) -> u32 {
    (0..p.w).filter(|&w| s.ws[w] == st).fold(0, |a, w| a | 1 << w)
}

/// Host CSR read (table §7.3) of the pre-edge state.
pub fn csr_read(p: &Params, s: &State, addr: u8) -> u32 {
    let wsel = s.wsel as usize;
    let win = wsel < p.w;
    use enc::csr;
    match addr as u64 {
        csr::CTRL => s.ctrl as u32,
        csr::HADDR => s.haddr,
        csr::GSTATUS => s.sticky as u32 | s.mode as u32,
        csr::IRQ_EN => s.irq_en as u32,
        csr::TGID => s.tgid,
        csr::GPEND => s.gpend as u32,
        csr::HINT => s.htmask,
        csr::HMASK => s.hmask as u32,
        csr::WS_TRAP => bitmap(p, s, TRAP),
        csr::WS_PAUSED => bitmap(p, s, PAUSED),
        csr::WS_PARKED => bitmap(p, s, PARKED),
        csr::WS_RUN => bitmap(p, s, RUN),
        csr::WSEL => s.wsel,
        csr::WINFO if win => {
            s.ws[wsel] as u32
                | (s.lcause[wsel] as u32) << 4
                | (s.ncause[wsel] as u32) << 8
                | (s.gpw[wsel] as u32) << 12
                | (s.stepped[wsel] as u32) << 13
        }
        csr::WEPC if win => s.epc[wsel],
        csr::WEMASK if win => s.emask[wsel],
        csr::VTBASE => s.vtbase,
        csr::GCAUSE => s.gcause as u32,
        csr::PARAMS => p.w as u32 | (p.t as u32) << 6 | (p.pc_w as u32) << 12 | (p.has_sstep as u32) << 18,
        _ => 0,
    }
}

pub fn outputs(p: &Params, s: &State, i: &Inputs) -> Outputs {
    let mut o = Outputs::default();
    let ss_on = p.has_sstep && s.ctrl & SSTEP_EN != 0;
    for w in 0..p.w {
        let go = (s.mode == NORM && (s.ws[w] == IDLE || s.ws[w] == RUN) && !(ss_on && s.stepped[w]))
            || (s.mode == HANDLER && s.ws[w] == TRAP);
        if !go {
            o.warp_halt |= 1 << w;
        }
        if s.mode == ENTER && s.ws[w] == TRAP {
            o.redir_valid |= 1 << w;
            o.redir_pc[w] = s.hlat;
            o.redir_mask[w] = s.emask[w];
        } else if s.ws[w] == RSTR {
            o.redir_valid |= 1 << w;
            o.redir_pc[w] = s.epc[w];
            o.redir_mask[w] = s.emask[w];
        }
        if s.ws[w] == KILLED {
            o.warp_kill |= 1 << w;
        }
    }
    o.drain_req = s.mode == DRAIN;
    o.trap_mode = s.mode != NORM;
    o.bcast_out = s.bcast_q;
    o.vt_base = s.vtbase;
    o.host_irq = s.sticky & s.irq_en & STICKY_MASK != 0;
    o.sr_rdata = if i.sr_valid && !i.sr_we && (i.sr_wid as usize) < p.w {
        let w = i.sr_wid as usize;
        let t = s.ws[w] == TRAP;
        match i.sr_sel as u64 {
            enc::sr::ESR => esr(s, w),
            enc::sr::EPC => {
                if t {
                    s.epc[w]
                } else {
                    0
                }
            }
            enc::sr::EMASK => {
                if t {
                    s.emask[w]
                } else {
                    0
                }
            }
            enc::sr::TGID => s.tgid,
            _ => 0,
        }
    } else {
        0
    };
    o.csr_rdata = if i.csr_valid && !i.csr_we { csr_read(p, s, i.csr_addr) } else { 0 };
    o
}

fn lowest_set(x: u32) -> usize {
    x.trailing_zeros() as usize
}

pub fn step(p: &Params, s: &State, i: &Inputs) -> (State, Outputs) {
    let o = outputs(p, s, i);
    let mut n = *s;
    let mut st: u16 = 0;
    let m = s.mode;
    let (pcm, tm, wm) = (p.pcm(), p.tm(), p.wm());
    let trap_en = s.ctrl & TRAP_EN != 0;
    let ss_en = p.has_sstep && s.ctrl & SSTEP_EN != 0;

    // (1) host CSR write
    let (mut gclr, mut hint, mut resume, mut kill) = (0u16, 0u32, 0u32, 0u32);
    if i.csr_valid && i.csr_we {
        let d = i.csr_wdata;
        use enc::csr;
        match i.csr_addr as u64 {
            csr::CTRL => n.ctrl = d as u8 & (TRAP_EN | BCAST_EN | if p.has_sstep { SSTEP_EN } else { 0 }),
            csr::HADDR => n.haddr = d & pcm,
            csr::GSTATUS => n.sticky = s.sticky & !(d as u16) & STICKY_MASK,
            csr::IRQ_EN => n.irq_en = d as u16 & STICKY_MASK,
            csr::GPEND => gclr = d as u16 & GPEND_MASK,
            csr::HINT => hint = d & wm,
            csr::RESUME => resume = d & wm,
            csr::KILL => kill = d & wm,
            csr::HMASK => n.hmask = d as u16,
            csr::WSEL => n.wsel = d & ones(p.wid_w()),
            csr::VTBASE => n.vtbase = d & pcm,
            csr::WEPC | csr::WEMASK => {
                let w = s.wsel as usize;
                if w < p.w && (s.ws[w] == PAUSED || s.ws[w] == PARKED) {
                    if i.csr_addr as u64 == csr::WEPC {
                        n.epc[w] = d & pcm
                    } else {
                        n.emask[w] = d & tm
                    }
                } else {
                    st |= ERR_CSR
                }
            }
            _ => st |= ERR_CSR,
        }
    }
    // (2) global events (clear first, then set)
    let mut gp: u16 = s.gpend & !gclr;
    let mut ht = s.htmask;
    if i.host_int {
        gp |= 1 << HOST_INT;
        ht |= wm;
    }
    if hint != 0 {
        gp |= 1 << HOST_INT;
        ht |= hint;
    }
    if i.sm_evt_valid {
        match gmap(i.sm_evt_cause) {
            None => st |= ERR_SPUR,
            Some((c, u)) => {
                gp |= 1 << c;
                if u {
                    st |= ERR_UNK
                }
            }
        }
    }
    if i.bcast_in {
        gp |= 1 << BCAST;
    }
    if gp & (1 << HOST_INT) == 0 {
        ht = 0;
    }
    // (3) per-warp
    let mut acc: u32 = 0;
    for w in 0..p.w {
        let (x, r, pz) = (bit(i.exc_valid, w), bit(i.ret_valid, w), bit(i.pause_valid, w));
        let spurious = |st: &mut u16| {
            if x {
                *st |= ERR_SPUR
            }
            if r || pz {
                *st |= ERR_BADRET
            }
        };
        if !bit(i.warp_valid, w) {
            spurious(&mut st);
            n.ws[w] = IDLE;
            n.lcause[w] = NONE;
            n.ncause[w] = NONE;
            n.gpw[w] = false;
            n.stepped[w] = false;
            n.epc[w] = 0;
            n.emask[w] = 0;
            continue;
        }
        match s.ws[w] {
            IDLE => {
                spurious(&mut st);
                n.ws[w] = RUN;
            }
            KILLED => spurious(&mut st),
            _ if bit(kill, w) => n.ws[w] = KILLED,
            RUN => {
                if r || pz {
                    st |= ERR_BADRET
                }
                if x {
                    match lmap(i.exc_cause[w]) {
                        None => st |= ERR_SPUR,
                        Some((c, u)) if m == NORM || (m == DRAIN && s.lcause[w] == NONE) => {
                            if u {
                                st |= ERR_UNK
                            }
                            n.lcause[w] = c;
                            n.epc[w] = i.exc_pc[w] & pcm;
                            n.emask[w] = i.exc_mask[w] & tm;
                            if m == NORM && !trap_en {
                                n.ws[w] = PARKED;
                                st |= FATAL
                            } else {
                                acc |= 1 << w
                            }
                        }
                        Some(_) => st |= ERR_SPUR,
                    }
                }
                if m == NORM && ss_en && i.issue_valid && i.issue_wid as usize == w && n.ws[w] == RUN {
                    n.stepped[w] = true
                }
            }
            TRAP if m == HANDLER => {
                if x {
                    match lmap(i.exc_cause[w]) {
                        None => st |= ERR_SPUR,
                        Some((c, u)) => {
                            if u {
                                st |= ERR_UNK
                            }
                            if s.hmask >> c & 1 == 1 {
                                st |= SUPPR
                            } else {
                                n.ws[w] = PARKED;
                                n.ncause[w] = c;
                                st |= DBLF;
                                if r || pz {
                                    st |= ERR_BADRET
                                }
                                continue;
                            }
                        }
                    }
                }
                if pz {
                    n.ws[w] = PAUSED;
                    st |= PAUSE;
                    if r {
                        st |= ERR_BADRET
                    }
                } else if r {
                    n.ws[w] = RETW
                }
            }
            TRAP | RETW => spurious(&mut st),
            PAUSED | PARKED => {
                spurious(&mut st);
                if bit(resume, w) {
                    n.ws[w] = if m == HANDLER { RETW } else { RSTR }
                }
            }
            RSTR => {
                spurious(&mut st);
                n.ws[w] = RUN;
                n.lcause[w] = NONE;
                n.ncause[w] = NONE;
                n.gpw[w] = false;
            }
            _ => unreachable!("ws is 3 bits"),
        }
    }
    // (4) handler SR write (applied after, and overriding, step 3)
    if i.sr_valid && i.sr_we {
        let w = i.sr_wid as usize;
        if w < p.w && m == HANDLER && s.ws[w] == TRAP && bit(i.warp_valid, w) && i.sr_sel as u64 <= enc::sr::EMASK {
            match i.sr_sel as u64 {
                enc::sr::ESR => {
                    n.lcause[w] = NONE;
                    n.gpw[w] = false
                }
                enc::sr::EPC => n.epc[w] = i.sr_wdata & pcm,
                _ => n.emask[w] = i.sr_wdata & tm,
            }
        } else {
            st |= ERR_SR
        }
    }
    // (5) first-exception bookkeeping
    if acc != 0 {
        if s.fvalid || acc.count_ones() >= 2 {
            st |= MULTI
        }
        if !s.fvalid {
            n.fvalid = true;
            n.fwid = lowest_set(acc)
        }
    }
    n.bcast_q = false;
    // (6) mode
    match m {
        NORM => {
            let live = |w: usize| bit(i.warp_valid, w) && s.ws[w] == RUN && n.ws[w] == RUN;
            let any_run = (0..p.w).any(live);
            let mut n_elig = 0;
            let mut all_stepped = true;
            for w in 0..p.w {
                if live(w) && !bit(i.bar_wait, w) {
                    n_elig += 1;
                    all_stepped &= n.stepped[w];
                }
            }
            let g_start = trap_en && gp != 0 && any_run;
            let ss_fire = acc == 0 && !g_start && trap_en && ss_en && n_elig > 0 && all_stepped;
            if acc != 0 || g_start || ss_fire {
                n.mode = DRAIN;
                st |= TRAP_TAKEN;
                n.ss_trig = ss_fire;
                n.bcast_q = s.ctrl & BCAST_EN != 0 && (acc != 0 || ss_fire);
            }
        }
        DRAIN if i.quiesced => {
            // SAVE
            let mut pbits = 0u32;
            for w in 0..p.w {
                if s.ws[w] == RUN && n.ws[w] == RUN {
                    pbits |= 1 << w;
                    if n.lcause[w] == NONE {
                        n.epc[w] = i.warp_pc[w] & pcm;
                        n.emask[w] = i.warp_mask[w] & tm;
                        if s.ss_trig && n.stepped[w] {
                            n.lcause[w] = SSTEP
                        }
                    }
                    n.ws[w] = TRAP;
                }
            }
            for w in 0..p.w {
                n.stepped[w] = false
            }
            let mut tgt = 0u32;
            if gp != 0 {
                let g = lowest_set(gp as u32) as u8;
                gp &= !(1 << g);
                n.gcause = g;
                tgt = pbits & if g == HOST_INT { ht } else { wm };
                if g == HOST_INT {
                    ht = 0
                }
                for w in 0..p.w {
                    if bit(tgt, w) {
                        n.gpw[w] = true
                    }
                }
                if tgt == 0 {
                    st |= GDROP
                }
            } else {
                n.gcause = NONE
            }
            n.hlat = s.haddr;
            let first_ss = (0..p.w).find(|&w| bit(pbits, w) && n.lcause[w] == SSTEP);
            n.tgid = if n.fvalid {
                tg(false, n.lcause[n.fwid], n.fwid)
            } else if s.ss_trig && first_ss.is_some() {
                tg(false, SSTEP, first_ss.unwrap())
            } else if n.gcause != 0 {
                tg(true, n.gcause, if tgt != 0 { lowest_set(tgt) } else { 0 })
            } else {
                tg(true, 0, 0)
            };
            n.fvalid = false;
            n.fwid = 0;
            n.ss_trig = false;
            n.mode = ENTER;
        }
        DRAIN => {}
        ENTER => n.mode = HANDLER,
        _ => {
            // HANDLER
            if !(0..p.w).any(|w| n.ws[w] == TRAP) {
                for w in 0..p.w {
                    if n.ws[w] == RETW {
                        n.ws[w] = RSTR
                    }
                }
                n.mode = NORM;
            }
        }
    }
    // (7) commit
    n.gpend = gp & GPEND_MASK;
    n.htmask = ht;
    n.sticky = (n.sticky | st) & STICKY_MASK;
    (n, o)
}

/// The invariants of §7.4 plus the abstract all-or-none property of §3; returns the first
/// violated one.
pub fn check_invariants(p: &Params, s: &State) -> Result<(), String> {
    let o = outputs(p, s, &Inputs::default());
    let free = |st: u8| (0..p.w).any(|w| s.ws[w] == st && o.warp_halt >> w & 1 == 0);
    if free(RUN) && free(TRAP) {
        return Err("1: an issuing RUN warp and an issuing TRAP warp at once".into());
    }
    // All-or-none in terms of code: every warp allowed to issue runs its own code (IDLE/RUN in
    // NORM) or every one runs the handler (TRAP in HANDLER).
    for w in 0..p.w {
        if o.warp_halt >> w & 1 == 0 {
            let own = s.mode == NORM && (s.ws[w] == RUN || s.ws[w] == IDLE);
            let hnd = s.mode == HANDLER && s.ws[w] == TRAP;
            if !(own || hnd) {
                return Err(format!("all-or-none: warp {w} issues in mode {} state {}", s.mode, s.ws[w]));
            }
        }
    }
    if s.mode == NORM && ((0..p.w).any(|w| s.ws[w] == TRAP || s.ws[w] == RETW) || s.fvalid) {
        return Err("2: NORM with a TRAP/RETW warp or FVALID".into());
    }
    if s.mode == NORM && (0..p.w).any(|w| s.ws[w] == RUN && (s.lcause[w] != 0 || s.gpw[w])) {
        return Err("3: NORM with a RUN warp holding a cause".into());
    }
    if o.redir_valid & !o.warp_halt != 0 {
        return Err("4: redir_valid on an issuing warp".into());
    }
    if s.gpend & !GPEND_MASK != 0 {
        return Err("5: GPEND outside GPEND_MASK".into());
    }
    if s.htmask != 0 && s.gpend & (1 << HOST_INT) == 0 {
        return Err("6: HTMASK without GPEND[10]".into());
    }
    if s.mode != HANDLER && (0..p.w).any(|w| s.ws[w] == RETW) {
        return Err("7: RETW outside HANDLER".into());
    }
    Ok(())
}

/// Cycle model of the block with its `pipe` parameter (timing-closure §3.3): the step function
/// above behind the block's input stage. With `pipe` = 1 the step sees, in each cycle, the
/// inputs of the cycle before (a one-stage [`FixedLatency`](crate::latency::FixedLatency) of
/// [`Inputs`], idle = all zero after reset), so every reaction, the SR/CSR read data included,
/// comes one cycle later; with `pipe` = 0 it is the step function itself. What the step
/// computes is unchanged (§2.1 of timing-closure: latency is the wrapper's, not the model's).
/// `rst` is not delayed: [`Cycle::reset`] clears the state and the delay line together.
#[derive(Clone, Debug)]
pub struct Cycle {
    pub p: Params,
    /// The step's state: after every input the step has seen (with `pipe` = 1, all but the
    /// last cycle's).
    pub s: State,
    delay: Option<crate::latency::FixedLatency<Inputs>>,
}

impl Cycle {
    /// `pipe` ∈ {0, 1}.
    pub fn new(p: Params, pipe: u32) -> Self {
        assert!(pipe <= 1, "trap_controller pipe is 0 or 1, got {pipe}");
        let delay = (pipe == 1).then(|| crate::latency::FixedLatency::new(1, Inputs::default()));
        Cycle { p, s: reset_state(&p), delay }
    }
    pub fn pipe(&self) -> u32 {
        self.delay.is_some() as u32
    }
    /// Synchronous reset: the §7.2 reset state, and idle inputs in the input stage.
    pub fn reset(&mut self) {
        self.s = reset_state(&self.p);
        if let Some(d) = &mut self.delay {
            d.reset();
        }
    }
    /// The inputs the step sees in a cycle with `i` on the ports.
    pub fn seen<'a>(&'a self, i: &'a Inputs) -> &'a Inputs {
        match &self.delay {
            Some(d) => d.out(),
            None => i,
        }
    }
    /// The outputs during a cycle with `i` on the ports (with `pipe` = 1 they do not depend on `i`).
    pub fn outputs(&self, i: &Inputs) -> Outputs {
        outputs(&self.p, &self.s, self.seen(i))
    }
    /// One clock edge at the end of a cycle with `i` on the ports; returns that cycle's outputs.
    pub fn tick(&mut self, i: &Inputs) -> Outputs {
        let (n, o) = step(&self.p, &self.s, self.seen(i));
        self.s = n;
        if let Some(d) = &mut self.delay {
            d.tick(*i);
        }
        o
    }
}

#[cfg(test)]
mod cycle_tests {
    use super::*;

    /// With pipe 1 the wrapper shows, one cycle late, exactly what the step function shows for
    /// the same input sequence (state and every output), resets included.
    #[test]
    fn pipe1_is_the_step_one_cycle_late() {
        let p = Params::new(4);
        let (mut c0, mut c1) = (Cycle::new(p, 0), Cycle::new(p, 1));
        let mut x = 0x9E37_79B9u32;
        let mut rnd = move || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        };
        let mut prev0: Option<Outputs> = None;
        for cycle in 0..5000 {
            let r = rnd();
            let mut i = Inputs { warp_valid: 0xF, quiesced: r & 1 == 1, ..Default::default() };
            if r >> 1 & 7 == 0 {
                i.exc_valid = r >> 4 & 0xF;
                for w in 0..4 {
                    i.exc_cause[w] = (rnd() % 8) as u8;
                    i.exc_pc[w] = rnd();
                }
            }
            i.ret_valid = if r >> 8 & 3 == 0 { r >> 10 & 0xF } else { 0 };
            i.sr_valid = true;
            i.sr_wid = r >> 14 & 3;
            i.csr_valid = r >> 16 & 1 == 1;
            i.csr_addr = (rnd() % 0x54) as u8 & !3;
            // pipe 1 shows in this cycle what pipe 0 showed in the previous one
            let o1 = c1.outputs(&i);
            if let Some(o0) = prev0 {
                assert_eq!(o1, o0, "cycle {cycle}");
            }
            let o0 = c0.tick(&i);
            assert_eq!(c1.tick(&i), o1);
            prev0 = Some(o0);
            if rnd() % 500 == 0 {
                c0.reset();
                c1.reset();
                prev0 = Some(outputs(&p, &reset_state(&p), &Inputs::default()));
            }
        }
    }
}
