//! branch_unit: the SIMD structured branch unit (SBU) of spec branch-unit.md.
//!
//! One request per cycle, latency 1: the whole §2.4 step is one combinational function of the
//! state registers and the request, and the state and the response register on the same edge.
//!
//! State (§2.1): per-lane counters `cnt[n]` (`{type[2:0], depth[DW-1:0]}`), five CICs, per-type
//! convergence stacks, `loop_nest`, `fault`. The stacks are **shift stacks**: entry 0 is always the
//! top of stack (depth `CIC[t]`), a push shifts every entry one place down and a pop one place
//! up. The TOS compare then needs no read mux indexed by the CIC, and a push or pop is the same
//! 3:1 mux per entry that an indexed write-decoder would need.
//!
//! Widths fixed by the config are const generics (lanes, DW and the widths derived from them);
//! the stack depths are run-time lengths of `Vec`s of flip-flops. Constants that depend on DW
//! (type codes, shift amounts, depth limits) are `Constant`s computed here, never pasted.

use crate::check::{check_one_of, check_range, ConfigError};
use crate::emit::{emit_module, EmitError, EmittedModule};
use crate::BlockGen;
use rust_hdl::prelude::*;
use serde::{Deserialize, Serialize};

/// `[branch_unit]` section of the eu-gen TOML config (spec §3.2).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// `N`: SIMD lanes, one of {1, 4, 8, 16, 32}.
    pub lanes: usize,
    /// `MAXD`: depth of the IF, LOOP and BR stacks; 0 means "= lanes" (the spec default, R8).
    pub maxd: usize,
    /// `MAXD_CALL`: call/recursion depth.
    pub maxd_call: usize,
    /// `IPW`: IP width; `jip`/`uip` are signed `IPW`-bit values, `IMEM_DEPTH = 2^IPW`.
    pub ipw: usize,
}

impl Default for Config {
    fn default() -> Self {
        Self { lanes: 16, maxd: 0, maxd_call: 8, ipw: 16 }
    }
}

pub const LANES_ALLOWED: [usize; 5] = [1, 4, 8, 16, 32];
/// IP widths built. The spec gives only the default (16, §3.2 [P]) and no range; 12 (4 Ki
/// instructions, small FPGA instruction memories), 24 and 32 are the practical alternatives.
pub const IPW_ALLOWED: [usize; 4] = [12, 16, 24, 32];
/// Every depth width the config keys allow: `maxd` 1..=32 (0 = lanes) and `maxd_call` 1..=32
/// give DW = clog2(max+1) in 1..=6.
pub const DW_ALLOWED: [usize; 6] = [1, 2, 3, 4, 5, 6];

/// DW at the default depths (MAXD = N, MAXD_CALL = 8).
pub fn default_dw(lanes: usize) -> usize {
    Config::with(lanes, 0, 8).dw()
}

/// Whether (lanes, DW, IPW) is monomorphised: the full product, 5 lane counts x 6 depth widths
/// x 4 IP widths = 120 types (docs/branch_unit.md has the compile time this costs).
pub fn supported(lanes: usize, dw: usize, ipw: usize) -> bool {
    LANES_ALLOWED.contains(&lanes) && DW_ALLOWED.contains(&dw) && IPW_ALLOWED.contains(&ipw)
}

impl Config {
    pub fn with(lanes: usize, maxd: usize, maxd_call: usize) -> Self {
        Self { lanes, maxd, maxd_call, ipw: 16 }
    }
    /// Resolved MAXD (0 = lanes).
    pub fn maxd_r(&self) -> usize {
        if self.maxd == 0 {
            self.lanes
        } else {
            self.maxd
        }
    }
    /// `DW = clog2(max(MAXD, MAXD_CALL) + 1)`.
    pub fn dw(&self) -> usize {
        let m = self.maxd_r().max(self.maxd_call) + 1;
        let mut w = 0;
        while (1usize << w) < m {
            w += 1;
        }
        w
    }
    pub fn cw(&self) -> usize {
        3 + self.dw()
    }
}

/// The spec's op codes (§2.4).
/// The encodings tables: op, counter type, error, warning and event codes, the one source for
/// the golden model, the tests, eu_branch_unit_defs.vh and the docs (`op`, `ty`, `err` are
/// re-exported here; `ev::NAMES` is checked against `enc::ev`).
pub mod enc;

pub use enc::{err, op, ty};

/// Event codes (§6.2, in order 0-41).
pub mod ev {
    pub const NAMES: [&str; 42] = [
        "nop", "jmp", "do", "eot", "init", "if-empty", "if-uniform-true", "if-uniform-false", "if-diverge",
        "else-swap", "else-skip", "conv-nomatch", "conv-pop", "conv-partial", "break-none", "break-shortcut",
        "break-park-open", "break-park-reuse", "cont-none", "cont-shortcut", "cont-park-open", "cont-park-reuse",
        "while-uniform-loop", "while-uniform-loop-close", "while-diverge", "while-diverge-open", "while-exit",
        "while-exit-pop", "call-none", "call-uniform", "call-diverge", "ret-shortcut", "ret-park",
        "ret-park-rejoin", "ret-complete", "br-none", "br-all", "br-diverge", "br-diverge-reuse", "halt-none",
        "halt-shortcut", "halt-park",
    ];
    /// Code of an event name (panics on an unknown name).
    pub fn code(name: &str) -> u64 {
        NAMES.iter().position(|n| *n == name).unwrap_or_else(|| panic!("unknown event {name}")) as u64
    }
}

/// The SBU. Const generics: lanes `N`, `DW`, `CW = DW+3`, `IPW`, `XW = IPW+2` (exact target
/// arithmetic), `NCW = N*CW`, `CICW = 5*DW`, `EW = IPW+DW`, `TOSW = 5*EW`.
#[derive(LogicBlock)]
pub struct BranchUnit<
    const N: usize,
    const DW: usize,
    const CW: usize,
    const IPW: usize,
    const XW: usize,
    const NCW: usize,
    const CICW: usize,
    const EW: usize,
    const TOSW: usize,
> {
    pub clk: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub req_valid: Signal<In, Bit>,
    pub req_ready: Signal<Out, Bit>,
    pub req_op: Signal<In, Bits<5>>,
    pub req_ip: Signal<In, Bits<IPW>>,
    pub req_jip: Signal<In, Bits<IPW>>,
    pub req_uip: Signal<In, Bits<IPW>>,
    pub req_pred: Signal<In, Bits<N>>,
    pub rsp_valid: Signal<Out, Bit>,
    pub rsp_next_ip: Signal<Out, Bits<IPW>>,
    pub rsp_exec_mask: Signal<Out, Bits<N>>,
    pub rsp_lane_mask: Signal<Out, Bits<N>>,
    pub rsp_pred_mask: Signal<Out, Bits<N>>,
    pub rsp_err: Signal<Out, Bit>,
    pub rsp_err_code: Signal<Out, Bits<5>>,
    pub rsp_err_type: Signal<Out, Bits<3>>,
    pub rsp_warn: Signal<Out, Bits<2>>,
    pub rsp_event: Signal<Out, Bits<6>>,
    pub lane_mask: Signal<Out, Bits<N>>,
    pub fault: Signal<Out, Bit>,
    pub dbg_cnt: Signal<Out, Bits<NCW>>,
    pub dbg_cic: Signal<Out, Bits<CICW>>,
    pub dbg_loop_nest: Signal<Out, Bits<DW>>,
    pub dbg_tos: Signal<Out, Bits<TOSW>>,

    // ---- architectural state ----
    cnt: Vec<DFF<Bits<CW>>>,
    cic_if: DFF<Bits<DW>>,
    cic_loop: DFF<Bits<DW>>,
    cic_call: DFF<Bits<DW>>,
    cic_br: DFF<Bits<DW>>,
    cic_halt: DFF<Bits<DW>>,
    sif_ip: Vec<DFF<Bits<IPW>>>,
    sif_aux: Vec<DFF<Bits<DW>>>,
    sloop_ip: Vec<DFF<Bits<IPW>>>,
    sloop_aux: Vec<DFF<Bits<DW>>>,
    sbr_ip: Vec<DFF<Bits<IPW>>>,
    sbr_aux: Vec<DFF<Bits<DW>>>,
    scall_ip: Vec<DFF<Bits<IPW>>>,
    scall_aux: Vec<DFF<Bits<DW>>>,
    shalt_ip: DFF<Bits<IPW>>,
    loop_nest: DFF<Bits<DW>>,
    fault_r: DFF<Bit>,
    // ---- response registers ----
    r_valid: DFF<Bit>,
    r_next_ip: DFF<Bits<IPW>>,
    r_exec: DFF<Bits<N>>,
    r_lane: DFF<Bits<N>>,
    r_predm: DFF<Bits<N>>,
    r_err: DFF<Bit>,
    r_code: DFF<Bits<5>>,
    r_type: DFF<Bits<3>>,
    r_warn: DFF<Bits<2>>,
    r_event: DFF<Bits<6>>,

    // ---- constants (depend on DW / IPW / config) ----
    c_tif: Constant<Bits<CW>>,
    c_tloop: Constant<Bits<CW>>,
    c_tcont: Constant<Bits<CW>>,
    c_tcall: Constant<Bits<CW>>,
    c_tbr: Constant<Bits<CW>>,
    c_thalt1: Constant<Bits<CW>>,
    c_off: Constant<Bits<CW>>,
    c_ones: Constant<Bits<N>>,
    c_maxd: Constant<Bits<DW>>,
    c_maxdc: Constant<Bits<DW>>,
    c_cw: Constant<Bits<16>>,
    c_dw: Constant<Bits<16>>,
    c_ew: Constant<Bits<16>>,
    c_imem: Constant<Bits<XW>>,
    c_xhi: Constant<Bits<XW>>,

    // ---- combinational temporaries ----
    op_nop: Signal<Local, Bit>,
    op_if: Signal<Local, Bit>,
    op_else: Signal<Local, Bit>,
    op_endif: Signal<Local, Bit>,
    op_do: Signal<Local, Bit>,
    op_while: Signal<Local, Bit>,
    op_break: Signal<Local, Bit>,
    op_cont: Signal<Local, Bit>,
    op_call: Signal<Local, Bit>,
    op_ret: Signal<Local, Bit>,
    op_branch: Signal<Local, Bit>,
    op_halt: Signal<Local, Bit>,
    op_jbr: Signal<Local, Bit>,
    op_jhalt: Signal<Local, Bit>,
    op_jmp: Signal<Local, Bit>,
    op_init: Signal<Local, Bit>,
    op_eot: Signal<Local, Bit>,
    bad_op: Signal<Local, Bit>,
    e: Signal<Local, Bits<N>>,
    live: Signal<Local, Bits<N>>,
    t: Signal<Local, Bits<N>>,
    fc: Signal<Local, Bit>,
    e_none: Signal<Local, Bit>,
    t_none: Signal<Local, Bit>,
    t_all: Signal<Local, Bit>,
    pred_all: Signal<Local, Bit>,
    ip_x: Signal<Local, Bits<XW>>,
    jip_x: Signal<Local, Bits<XW>>,
    uip_x: Signal<Local, Bits<XW>>,
    jneg: Signal<Local, Bit>,
    uneg: Signal<Local, Bit>,
    jzero: Signal<Local, Bit>,
    jpos: Signal<Local, Bit>,
    upos: Signal<Local, Bit>,
    tgt_n: Signal<Local, Bits<XW>>,
    tgt_j: Signal<Local, Bits<XW>>,
    tgt_u: Signal<Local, Bits<XW>>,
    tgt_u1: Signal<Local, Bits<XW>>,
    oor_n: Signal<Local, Bit>,
    oor_j: Signal<Local, Bit>,
    oor_u: Signal<Local, Bit>,
    oor_u1: Signal<Local, Bit>,
    lab_j: Signal<Local, Bits<IPW>>,
    lab_u: Signal<Local, Bits<IPW>>,
    lab_n: Signal<Local, Bits<IPW>>,
    m_lbl: Signal<Local, Bits<IPW>>,
    m_cic: Signal<Local, Bits<DW>>,
    m_tip: Signal<Local, Bits<IPW>>,
    m_taux: Signal<Local, Bits<DW>>,
    m_chk: Signal<Local, Bit>,
    m: Signal<Local, Bit>,
    sk_if: Signal<Local, Bit>,
    sk_loop: Signal<Local, Bit>,
    sk_br: Signal<Local, Bit>,
    cur_if: Signal<Local, Bits<CW>>,
    new_if: Signal<Local, Bits<CW>>,
    cur_loop: Signal<Local, Bits<CW>>,
    cur_cont: Signal<Local, Bits<CW>>,
    open_loop_d: Signal<Local, Bits<CW>>,
    cur_call: Signal<Local, Bits<CW>>,
    new_call: Signal<Local, Bits<CW>>,
    cur_br: Signal<Local, Bits<CW>>,
    open_br_d: Signal<Local, Bits<CW>>,
    rja_en: Signal<Local, Bit>,
    rja_code: Signal<Local, Bits<CW>>,
    rja_q: Signal<Local, Bits<N>>,
    rjb_en: Signal<Local, Bit>,
    rjb_code: Signal<Local, Bits<CW>>,
    eqa: Signal<Local, Bits<N>>,
    eqb: Signal<Local, Bits<N>>,
    rja_hit: Signal<Local, Bits<N>>,
    still: Signal<Local, Bits<N>>,
    e1: Signal<Local, Bits<N>>,
    wc: Signal<Local, Bits<N>>,
    wx: Signal<Local, Bits<N>>,
    park_m: Signal<Local, Bits<N>>,
    park_code: Signal<Local, Bits<CW>>,
    en_next: Signal<Local, Bits<N>>,
    next_x: Signal<Local, Bits<XW>>,
    go_on: Signal<Local, Bit>,
    go_tgt: Signal<Local, Bits<XW>>,
    pm: Signal<Local, Bits<N>>,
    warn: Signal<Local, Bits<2>>,
    evt: Signal<Local, Bits<6>>,
    berr: Signal<Local, Bit>,
    bcode: Signal<Local, Bits<5>>,
    btype: Signal<Local, Bits<3>>,
    bad_off: Signal<Local, Bit>,
    oor: Signal<Local, Bit>,
    err_any: Signal<Local, Bit>,
    ecode: Signal<Local, Bits<5>>,
    etype: Signal<Local, Bits<3>>,
    commit: Signal<Local, Bit>,
    psh_if: Signal<Local, Bit>,
    psh_loop: Signal<Local, Bit>,
    psh_call: Signal<Local, Bit>,
    psh_br: Signal<Local, Bit>,
    psh_halt: Signal<Local, Bit>,
    pop_if: Signal<Local, Bit>,
    pop_loop: Signal<Local, Bit>,
    pop_call: Signal<Local, Bit>,
    pop_br: Signal<Local, Bit>,
    pop_halt: Signal<Local, Bit>,
    clr_call: Signal<Local, Bit>,
    push_ip: Signal<Local, Bits<IPW>>,
    push_aux: Signal<Local, Bits<DW>>,
    ln_next: Signal<Local, Bits<DW>>,
    sh: Signal<Local, Bits<16>>,
    tmp_c: Signal<Local, Bits<CW>>,
    // 32-bit copies for bit selects (a 1-lane mask is a scalar in Verilog: no `[0]` on it)
    p32: Signal<Local, Bits<32>>,
    pk32: Signal<Local, Bits<32>>,
    rh32: Signal<Local, Bits<32>>,
    eb32: Signal<Local, Bits<32>>,
    e32: Signal<Local, Bits<32>>,
    acc_cnt: Signal<Local, Bits<NCW>>,
    acc_tos: Signal<Local, Bits<TOSW>>,
    acc_cic: Signal<Local, Bits<CICW>>,
    ent_if: Signal<Local, Bits<EW>>,
    ent_loop: Signal<Local, Bits<EW>>,
    ent_call: Signal<Local, Bits<EW>>,
    ent_br: Signal<Local, Bits<EW>>,
    ent_halt: Signal<Local, Bits<EW>>,

    _maxd: usize,
    _maxdc: usize,
    _maxd1: usize,
    _maxdc1: usize,
}

fn dffs<T: Synth>(n: usize) -> Vec<DFF<T>> {
    (0..n).map(|_| DFF::default()).collect()
}

impl<
        const N: usize,
        const DW: usize,
        const CW: usize,
        const IPW: usize,
        const XW: usize,
        const NCW: usize,
        const CICW: usize,
        const EW: usize,
        const TOSW: usize,
    > BranchUnit<N, DW, CW, IPW, XW, NCW, CICW, EW, TOSW>
{
    pub fn new(maxd: usize, maxd_call: usize) -> Self {
        assert!(CW == DW + 3 && XW == IPW + 2 && NCW == N * CW && CICW == 5 * DW && EW == IPW + DW && TOSW == 5 * EW);
        assert!(maxd >= 1 && maxd_call >= 1 && maxd.max(maxd_call) < (1 << DW) && N <= 32);
        let code = |t: u64, d: u64| Constant::new(Bits::<CW>::from((t << DW) | d));
        Self {
            clk: Default::default(),
            rst: Default::default(),
            req_valid: Default::default(),
            req_ready: Default::default(),
            req_op: Default::default(),
            req_ip: Default::default(),
            req_jip: Default::default(),
            req_uip: Default::default(),
            req_pred: Default::default(),
            rsp_valid: Default::default(),
            rsp_next_ip: Default::default(),
            rsp_exec_mask: Default::default(),
            rsp_lane_mask: Default::default(),
            rsp_pred_mask: Default::default(),
            rsp_err: Default::default(),
            rsp_err_code: Default::default(),
            rsp_err_type: Default::default(),
            rsp_warn: Default::default(),
            rsp_event: Default::default(),
            lane_mask: Default::default(),
            fault: Default::default(),
            dbg_cnt: Default::default(),
            dbg_cic: Default::default(),
            dbg_loop_nest: Default::default(),
            dbg_tos: Default::default(),
            cnt: dffs(N),
            cic_if: Default::default(),
            cic_loop: Default::default(),
            cic_call: Default::default(),
            cic_br: Default::default(),
            cic_halt: Default::default(),
            sif_ip: dffs(maxd),
            sif_aux: dffs(maxd),
            sloop_ip: dffs(maxd),
            sloop_aux: dffs(maxd),
            sbr_ip: dffs(maxd),
            sbr_aux: dffs(maxd),
            scall_ip: dffs(maxd_call),
            scall_aux: dffs(maxd_call),
            shalt_ip: Default::default(),
            loop_nest: Default::default(),
            fault_r: Default::default(),
            r_valid: Default::default(),
            r_next_ip: Default::default(),
            r_exec: Default::default(),
            r_lane: Default::default(),
            r_predm: Default::default(),
            r_err: Default::default(),
            r_code: Default::default(),
            r_type: Default::default(),
            r_warn: Default::default(),
            r_event: Default::default(),
            c_tif: code(ty::IF, 0),
            c_tloop: code(ty::LOOP, 0),
            c_tcont: code(ty::CONT, 0),
            c_tcall: code(ty::CALL, 0),
            c_tbr: code(ty::BR, 0),
            c_thalt1: code(ty::HALT, 1),
            c_off: Constant::new(Bits::<CW>::from((1u64 << CW) - 1)),
            c_ones: Constant::new(Bits::<N>::from(if N == 64 { u64::MAX } else { (1u64 << N) - 1 })),
            c_maxd: Constant::new(Bits::<DW>::from(maxd as u64)),
            c_maxdc: Constant::new(Bits::<DW>::from(maxd_call as u64)),
            c_cw: Constant::new(Bits::<16>::from(CW as u64)),
            c_dw: Constant::new(Bits::<16>::from(DW as u64)),
            c_ew: Constant::new(Bits::<16>::from(EW as u64)),
            c_imem: Constant::new(Bits::<XW>::from(1u64 << IPW)),
            c_xhi: Constant::new(Bits::<XW>::from(3u64 << IPW)),
            op_nop: Default::default(),
            op_if: Default::default(),
            op_else: Default::default(),
            op_endif: Default::default(),
            op_do: Default::default(),
            op_while: Default::default(),
            op_break: Default::default(),
            op_cont: Default::default(),
            op_call: Default::default(),
            op_ret: Default::default(),
            op_branch: Default::default(),
            op_halt: Default::default(),
            op_jbr: Default::default(),
            op_jhalt: Default::default(),
            op_jmp: Default::default(),
            op_init: Default::default(),
            op_eot: Default::default(),
            bad_op: Default::default(),
            e: Default::default(),
            live: Default::default(),
            t: Default::default(),
            fc: Default::default(),
            e_none: Default::default(),
            t_none: Default::default(),
            t_all: Default::default(),
            pred_all: Default::default(),
            ip_x: Default::default(),
            jip_x: Default::default(),
            uip_x: Default::default(),
            jneg: Default::default(),
            uneg: Default::default(),
            jzero: Default::default(),
            jpos: Default::default(),
            upos: Default::default(),
            tgt_n: Default::default(),
            tgt_j: Default::default(),
            tgt_u: Default::default(),
            tgt_u1: Default::default(),
            oor_n: Default::default(),
            oor_j: Default::default(),
            oor_u: Default::default(),
            oor_u1: Default::default(),
            lab_j: Default::default(),
            lab_u: Default::default(),
            lab_n: Default::default(),
            m_lbl: Default::default(),
            m_cic: Default::default(),
            m_tip: Default::default(),
            m_taux: Default::default(),
            m_chk: Default::default(),
            m: Default::default(),
            sk_if: Default::default(),
            sk_loop: Default::default(),
            sk_br: Default::default(),
            cur_if: Default::default(),
            new_if: Default::default(),
            cur_loop: Default::default(),
            cur_cont: Default::default(),
            open_loop_d: Default::default(),
            cur_call: Default::default(),
            new_call: Default::default(),
            cur_br: Default::default(),
            open_br_d: Default::default(),
            rja_en: Default::default(),
            rja_code: Default::default(),
            rja_q: Default::default(),
            rjb_en: Default::default(),
            rjb_code: Default::default(),
            eqa: Default::default(),
            eqb: Default::default(),
            rja_hit: Default::default(),
            still: Default::default(),
            e1: Default::default(),
            wc: Default::default(),
            wx: Default::default(),
            park_m: Default::default(),
            park_code: Default::default(),
            en_next: Default::default(),
            next_x: Default::default(),
            go_on: Default::default(),
            go_tgt: Default::default(),
            pm: Default::default(),
            warn: Default::default(),
            evt: Default::default(),
            berr: Default::default(),
            bcode: Default::default(),
            btype: Default::default(),
            bad_off: Default::default(),
            oor: Default::default(),
            err_any: Default::default(),
            ecode: Default::default(),
            etype: Default::default(),
            commit: Default::default(),
            psh_if: Default::default(),
            psh_loop: Default::default(),
            psh_call: Default::default(),
            psh_br: Default::default(),
            psh_halt: Default::default(),
            pop_if: Default::default(),
            pop_loop: Default::default(),
            pop_call: Default::default(),
            pop_br: Default::default(),
            pop_halt: Default::default(),
            clr_call: Default::default(),
            push_ip: Default::default(),
            push_aux: Default::default(),
            ln_next: Default::default(),
            sh: Default::default(),
            tmp_c: Default::default(),
            p32: Default::default(),
            pk32: Default::default(),
            rh32: Default::default(),
            eb32: Default::default(),
            e32: Default::default(),
            acc_cnt: Default::default(),
            acc_tos: Default::default(),
            acc_cic: Default::default(),
            ent_if: Default::default(),
            ent_loop: Default::default(),
            ent_call: Default::default(),
            ent_br: Default::default(),
            ent_halt: Default::default(),
            _maxd: maxd,
            _maxdc: maxd_call,
            _maxd1: maxd - 1,
            _maxdc1: maxd_call - 1,
        }
    }
}

impl<
        const N: usize,
        const DW: usize,
        const CW: usize,
        const IPW: usize,
        const XW: usize,
        const NCW: usize,
        const CICW: usize,
        const EW: usize,
        const TOSW: usize,
    > Logic for BranchUnit<N, DW, CW, IPW, XW, NCW, CICW, EW, TOSW>
{
    #[hdl_gen]
    fn update(&mut self) {
        // ---------------- clocks and hold ----------------
        dff_setup!(
            self, clk, cic_if, cic_loop, cic_call, cic_br, cic_halt, shalt_ip, loop_nest, fault_r, r_valid,
            r_next_ip, r_exec, r_lane, r_predm, r_err, r_code, r_type, r_warn, r_event
        );
        for i in 0..N {
            self.cnt[i].clock.next = self.clk.val();
            self.cnt[i].d.next = self.cnt[i].q.val();
        }
        for k in 0..self._maxd {
            self.sif_ip[k].clock.next = self.clk.val();
            self.sif_ip[k].d.next = self.sif_ip[k].q.val();
            self.sif_aux[k].clock.next = self.clk.val();
            self.sif_aux[k].d.next = self.sif_aux[k].q.val();
            self.sloop_ip[k].clock.next = self.clk.val();
            self.sloop_ip[k].d.next = self.sloop_ip[k].q.val();
            self.sloop_aux[k].clock.next = self.clk.val();
            self.sloop_aux[k].d.next = self.sloop_aux[k].q.val();
            self.sbr_ip[k].clock.next = self.clk.val();
            self.sbr_ip[k].d.next = self.sbr_ip[k].q.val();
            self.sbr_aux[k].clock.next = self.clk.val();
            self.sbr_aux[k].d.next = self.sbr_aux[k].q.val();
        }
        for k in 0..self._maxdc {
            self.scall_ip[k].clock.next = self.clk.val();
            self.scall_ip[k].d.next = self.scall_ip[k].q.val();
            self.scall_aux[k].clock.next = self.clk.val();
            self.scall_aux[k].d.next = self.scall_aux[k].q.val();
        }

        // ---------------- decode ----------------
        self.op_nop.next = self.req_op.val() == 0x00;
        self.op_if.next = self.req_op.val() == 0x01;
        self.op_else.next = self.req_op.val() == 0x02;
        self.op_endif.next = self.req_op.val() == 0x03;
        self.op_do.next = self.req_op.val() == 0x04;
        self.op_while.next = self.req_op.val() == 0x05;
        self.op_break.next = self.req_op.val() == 0x06;
        self.op_cont.next = self.req_op.val() == 0x07;
        self.op_call.next = self.req_op.val() == 0x08;
        self.op_ret.next = self.req_op.val() == 0x09;
        self.op_branch.next = self.req_op.val() == 0x0A;
        self.op_halt.next = self.req_op.val() == 0x0B;
        self.op_jbr.next = self.req_op.val() == 0x0C;
        self.op_jhalt.next = self.req_op.val() == 0x0D;
        self.op_jmp.next = self.req_op.val() == 0x0E;
        self.op_init.next = self.req_op.val() == 0x10;
        self.op_eot.next = self.req_op.val() == 0x11;
        self.bad_op.next = (self.req_op.val() == 0x0F) || (self.req_op.val() > 0x11);

        // ---------------- lane masks ----------------
        self.e.next = 0.into();
        self.live.next = 0.into();
        for i in 0..N {
            self.e.next = self.e.val().replace_bit(i, self.cnt[i].q.val() == 0);
            self.live.next = self.live.val().replace_bit(i, self.cnt[i].q.val() != self.c_off.val());
        }
        self.t.next = self.req_pred.val() & self.e.val();
        self.fc.next = self.e.val() == self.live.val();
        self.e_none.next = self.e.val() == 0;
        self.t_none.next = self.t.val() == 0;
        self.t_all.next = self.t.val() == self.e.val();
        self.pred_all.next = self.req_pred.val() == self.c_ones.val();

        // ---------------- targets (exact, IPW+2 bits) ----------------
        self.ip_x.next = bit_cast::<XW, IPW>(self.req_ip.val());
        self.jip_x.next = bit_cast::<XW, IPW>(self.req_jip.val());
        self.uip_x.next = bit_cast::<XW, IPW>(self.req_uip.val());
        self.jneg.next = false;
        self.uneg.next = false;
        for b in (IPW - 1)..IPW {
            self.jneg.next = self.req_jip.val().get_bit(b);
            self.uneg.next = self.req_uip.val().get_bit(b);
        }
        if self.jneg.val() {
            self.jip_x.next = self.jip_x.val() | self.c_xhi.val();
        }
        if self.uneg.val() {
            self.uip_x.next = self.uip_x.val() | self.c_xhi.val();
        }
        self.jzero.next = self.req_jip.val() == 0;
        self.jpos.next = !self.jneg.val() && !self.jzero.val();
        self.upos.next = !self.uneg.val() && (self.req_uip.val() != 0);
        self.tgt_n.next = self.ip_x.val() + 1;
        self.tgt_j.next = self.ip_x.val() + self.jip_x.val();
        self.tgt_u.next = self.ip_x.val() + self.uip_x.val();
        self.tgt_u1.next = self.tgt_u.val() + 1;
        self.oor_n.next = self.tgt_n.val() >= self.c_imem.val();
        self.oor_j.next = self.tgt_j.val() >= self.c_imem.val();
        self.oor_u.next = self.tgt_u.val() >= self.c_imem.val();
        self.oor_u1.next = self.tgt_u1.val() >= self.c_imem.val();
        self.lab_j.next = bit_cast::<IPW, XW>(self.tgt_j.val());
        self.lab_u.next = bit_cast::<IPW, XW>(self.tgt_u.val());
        self.lab_n.next = bit_cast::<IPW, XW>(self.tgt_n.val());

        // ---------------- label match (one TOS compare, type chosen by the op) ----------------
        self.m_lbl.next = self.lab_u.val();
        self.m_cic.next = self.cic_if.q.val();
        self.m_tip.next = self.sif_ip[0].q.val();
        self.m_taux.next = self.sif_aux[0].q.val();
        self.m_chk.next = true;
        if self.op_endif.val() {
            self.m_lbl.next = self.req_ip.val();
        }
        if self.op_break.val() || self.op_cont.val() || self.op_while.val() {
            self.m_cic.next = self.cic_loop.q.val();
            self.m_tip.next = self.sloop_ip[0].q.val();
            self.m_taux.next = self.sloop_aux[0].q.val();
        }
        if self.op_while.val() {
            self.m_lbl.next = self.req_ip.val();
        }
        if self.op_branch.val() || self.op_jbr.val() {
            self.m_cic.next = self.cic_br.q.val();
            self.m_tip.next = self.sbr_ip[0].q.val();
            self.m_taux.next = self.sbr_aux[0].q.val();
            self.m_lbl.next = self.lab_j.val();
        }
        if self.op_jbr.val() {
            self.m_lbl.next = self.req_ip.val();
        }
        if self.op_halt.val() || self.op_jhalt.val() {
            self.m_cic.next = self.cic_halt.q.val();
            self.m_tip.next = self.shalt_ip.q.val();
            self.m_chk.next = false;
        }
        if self.op_jhalt.val() {
            self.m_lbl.next = self.req_ip.val();
        }
        self.m.next = (self.m_cic.val() != 0)
            && (self.m_tip.val() == self.m_lbl.val())
            && (!self.m_chk.val() || (self.m_taux.val() == self.cic_call.q.val()));

        // ---------------- skipped-convergence check ----------------
        self.sk_if.next = (self.cic_if.q.val() != 0)
            && (self.sif_aux[0].q.val() == self.cic_call.q.val())
            && (self.req_ip.val() > self.sif_ip[0].q.val());
        self.sk_loop.next = (self.cic_loop.q.val() != 0)
            && (self.sloop_aux[0].q.val() == self.cic_call.q.val())
            && (self.req_ip.val() > self.sloop_ip[0].q.val());
        self.sk_br.next = (self.cic_br.q.val() != 0)
            && (self.sbr_aux[0].q.val() == self.cic_call.q.val())
            && (self.req_ip.val() > self.sbr_ip[0].q.val());

        // ---------------- counter codes ----------------
        self.cur_if.next = self.c_tif.val() | bit_cast::<CW, DW>(self.cic_if.q.val());
        self.new_if.next = self.c_tif.val() | bit_cast::<CW, DW>(self.cic_if.q.val() + 1);
        self.cur_loop.next = self.c_tloop.val() | bit_cast::<CW, DW>(self.cic_loop.q.val());
        self.cur_cont.next = self.c_tcont.val() | bit_cast::<CW, DW>(self.cic_loop.q.val());
        self.open_loop_d.next = bit_cast::<CW, DW>(self.cic_loop.q.val() + 1);
        if self.m.val() {
            self.open_loop_d.next = bit_cast::<CW, DW>(self.cic_loop.q.val());
        }
        self.cur_call.next = self.c_tcall.val() | bit_cast::<CW, DW>(self.cic_call.q.val());
        self.new_call.next = self.c_tcall.val() | bit_cast::<CW, DW>(self.cic_call.q.val() + 1);
        self.cur_br.next = self.c_tbr.val() | bit_cast::<CW, DW>(self.cic_br.q.val());
        self.open_br_d.next = self.c_tbr.val() | bit_cast::<CW, DW>(self.cic_br.q.val() + 1);
        if self.m.val() {
            self.open_br_d.next = self.cur_br.val();
        }

        // ---------------- stage A: rejoin controls (state and op only) ----------------
        self.rja_en.next = false;
        self.rja_code.next = self.cur_if.val();
        self.rja_q.next = self.c_ones.val();
        self.rjb_code.next = self.cur_loop.val();
        if self.op_else.val() && self.m.val() {
            self.rja_en.next = true;
        }
        if self.op_endif.val() && self.m.val() {
            self.rja_en.next = true;
            self.rja_q.next = self.req_pred.val();
        }
        if self.op_jbr.val() && self.m.val() {
            self.rja_en.next = true;
            self.rja_code.next = self.cur_br.val();
            self.rja_q.next = self.req_pred.val();
        }
        if self.op_jhalt.val() && self.m.val() {
            self.rja_en.next = true;
            self.rja_code.next = self.c_thalt1.val();
            self.rja_q.next = self.req_pred.val();
        }
        if self.op_while.val() {
            self.rja_en.next = self.m.val();
            self.rja_code.next = self.cur_cont.val();
        }
        if self.op_ret.val() {
            self.rja_code.next = self.cur_call.val();
            // a final RET that does not take the shortcut releases the caller's level
            self.rja_en.next = self.jzero.val()
                && !(!self.e_none.val() && self.fc.val())
                && (self.cic_call.q.val() != 0);
        }

        // ---------------- lane pass 1: compares ----------------
        self.eqa.next = 0.into();
        self.eqb.next = 0.into();
        for i in 0..N {
            self.eqa.next = self.eqa.val().replace_bit(i, self.cnt[i].q.val() == self.rja_code.val());
            self.eqb.next = self.eqb.val().replace_bit(i, self.cnt[i].q.val() == self.rjb_code.val());
        }
        self.rja_hit.next = 0.into();
        if self.rja_en.val() {
            self.rja_hit.next = self.eqa.val() & self.rja_q.val();
        }
        self.still.next = self.eqa.val() & !self.rja_q.val();
        self.e1.next = self.e.val() | self.rja_hit.val();
        self.wc.next = self.req_pred.val() & self.e1.val();
        self.wx.next = self.e1.val() & !self.wc.val();

        // ---------------- stage B: per-op body ----------------
        self.rjb_en.next = false;
        self.park_m.next = 0.into();
        self.park_code.next = self.cur_if.val();
        self.next_x.next = self.tgt_n.val();
        self.go_on.next = false;
        self.go_tgt.next = self.tgt_j.val();
        self.pm.next = 0.into();
        self.warn.next = 0.into();
        self.evt.next = 0.into();
        self.berr.next = false;
        self.bcode.next = 0.into();
        self.btype.next = 0.into();
        self.bad_off.next = false;
        self.oor.next = false;
        self.psh_if.next = false;
        self.psh_loop.next = false;
        self.psh_call.next = false;
        self.psh_br.next = false;
        self.psh_halt.next = false;
        self.pop_if.next = false;
        self.pop_loop.next = false;
        self.pop_call.next = false;
        self.pop_br.next = false;
        self.pop_halt.next = false;
        self.clr_call.next = false;
        self.push_ip.next = self.m_lbl.val();
        self.push_aux.next = self.cic_call.q.val();
        self.ln_next.next = self.loop_nest.q.val();

        if self.op_nop.val() {
            self.oor.next = self.oor_n.val();
        }
        if self.op_jmp.val() {
            self.oor.next = self.oor_j.val();
            self.next_x.next = self.tgt_j.val();
            self.evt.next = 1.into();
            if !self.pred_all.val() {
                self.warn.next = 2.into();
            }
        }
        if self.op_do.val() {
            self.oor.next = self.oor_n.val();
            self.evt.next = 2.into();
            if !self.pred_all.val() {
                self.warn.next = 2.into();
            }
            if self.loop_nest.q.val().all() {
                self.berr.next = true;
                self.bcode.next = 7.into();
            }
            self.ln_next.next = self.loop_nest.q.val() + 1;
        }
        if self.op_eot.val() {
            self.next_x.next = self.ip_x.val();
            self.evt.next = 3.into();
            if !self.pred_all.val() {
                self.warn.next = 2.into();
            }
            if (self.cic_if.q.val() != 0)
                || (self.cic_loop.q.val() != 0)
                || (self.cic_call.q.val() != 0)
                || (self.cic_br.q.val() != 0)
                || (self.cic_halt.q.val() != 0)
                || (self.loop_nest.q.val() != 0)
                || !self.fc.val()
            {
                self.berr.next = true;
                self.bcode.next = 13.into();
            }
        }
        if self.op_if.val() {
            self.bad_off.next = !(self.jpos.val() && self.upos.val() && (self.req_jip.val() <= self.req_uip.val()));
            self.oor.next = self.oor_n.val() || self.oor_j.val() || self.oor_u.val();
            self.pm.next = self.e.val();
            if self.e_none.val() {
                self.next_x.next = self.tgt_u.val();
                self.evt.next = 5.into();
            } else if self.t_all.val() {
                self.evt.next = 6.into();
            } else if self.t_none.val() {
                self.next_x.next = self.tgt_j.val();
                self.evt.next = 7.into();
            } else {
                if self.cic_if.q.val() == self.c_maxd.val() {
                    self.berr.next = true;
                    self.bcode.next = 8.into();
                    self.btype.next = 1.into();
                }
                self.psh_if.next = true;
                self.park_m.next = self.e.val() & !self.t.val();
                self.park_code.next = self.new_if.val();
                self.evt.next = 8.into();
            }
        }
        if self.op_else.val() {
            self.bad_off.next = !self.upos.val();
            self.oor.next = self.oor_n.val() || self.oor_u.val();
            if !self.pred_all.val() {
                self.warn.next = 2.into();
            }
            if self.m.val() {
                self.park_m.next = self.e.val();
                self.park_code.next = self.cur_if.val();
                self.go_on.next = true;
                self.go_tgt.next = self.tgt_u.val();
                self.evt.next = 9.into();
            } else {
                self.next_x.next = self.tgt_u.val();
                self.evt.next = 10.into();
            }
        }
        if self.op_endif.val() || self.op_jbr.val() || self.op_jhalt.val() {
            self.bad_off.next = !self.jpos.val();
            self.oor.next = self.oor_n.val() || self.oor_j.val();
            self.go_on.next = true;
            self.go_tgt.next = self.tgt_j.val();
            self.evt.next = 11.into();
            if self.m.val() {
                if self.still.val() != 0 {
                    self.warn.next = 1.into();
                    self.evt.next = 13.into();
                } else {
                    self.evt.next = 12.into();
                    self.pop_if.next = self.op_endif.val();
                    self.pop_br.next = self.op_jbr.val();
                    self.pop_halt.next = self.op_jhalt.val();
                }
            }
        }
        if self.op_break.val() || self.op_cont.val() {
            self.bad_off.next = !self.jpos.val() || !self.upos.val();
            self.oor.next = self.oor_n.val() || self.oor_j.val() || self.oor_u.val();
            if self.op_break.val() {
                self.oor.next = self.oor_n.val() || self.oor_j.val() || self.oor_u.val() || self.oor_u1.val();
            }
            self.pm.next = self.e.val();
            if self.loop_nest.q.val() == 0 {
                self.berr.next = true;
                self.bcode.next = 6.into();
            }
            if self.t_none.val() {
                self.evt.next = 14.into();
            } else if self.fc.val() && self.t_all.val() {
                self.evt.next = 15.into();
                self.next_x.next = self.tgt_u1.val();
                self.ln_next.next = self.loop_nest.q.val() - 1;
            } else {
                if !self.m.val() {
                    if (self.cic_loop.q.val() == self.c_maxd.val()) && (self.loop_nest.q.val() != 0) {
                        self.berr.next = true;
                        self.bcode.next = 8.into();
                        self.btype.next = 2.into();
                    }
                    self.psh_loop.next = true;
                    self.evt.next = 16.into();
                } else {
                    self.evt.next = 17.into();
                }
                self.park_m.next = self.t.val();
                self.park_code.next = self.c_tloop.val() | self.open_loop_d.val();
                self.go_on.next = true;
                self.go_tgt.next = self.tgt_j.val();
            }
            if self.op_cont.val() {
                self.evt.next = self.evt.val() + 4;
                self.park_code.next = self.c_tcont.val() | self.open_loop_d.val();
                if self.fc.val() && self.t_all.val() && !self.t_none.val() {
                    self.next_x.next = self.tgt_u.val();
                    self.ln_next.next = self.loop_nest.q.val();
                }
            }
        }
        if self.op_while.val() {
            self.bad_off.next = self.jpos.val() || !self.upos.val();
            self.oor.next = self.oor_n.val() || self.oor_j.val() || self.oor_u.val();
            self.pm.next = self.e1.val();
            if self.wc.val() != 0 {
                self.next_x.next = self.tgt_j.val();
                if self.wx.val() != 0 {
                    self.park_m.next = self.wx.val();
                    self.park_code.next = self.c_tloop.val() | self.open_loop_d.val();
                    if !self.m.val() {
                        if (self.cic_loop.q.val() == self.c_maxd.val()) && (self.loop_nest.q.val() != 0) {
                            self.berr.next = true;
                            self.bcode.next = 8.into();
                            self.btype.next = 2.into();
                        }
                        self.psh_loop.next = true;
                        self.evt.next = 25.into();
                    } else {
                        self.evt.next = 24.into();
                    }
                } else if self.m.val() && (self.eqb.val() == 0) {
                    self.pop_loop.next = true;
                    self.evt.next = 23.into();
                } else {
                    self.evt.next = 22.into();
                }
            } else {
                if self.m.val() {
                    self.rjb_en.next = true;
                    self.pop_loop.next = true;
                    self.evt.next = 27.into();
                } else {
                    self.evt.next = 26.into();
                }
                self.ln_next.next = self.loop_nest.q.val() - 1;
                self.go_on.next = true;
                self.go_tgt.next = self.tgt_u.val();
            }
            if self.loop_nest.q.val() == 0 {
                self.berr.next = true;
                self.bcode.next = 6.into();
                self.btype.next = 0.into();
            }
        }
        if self.op_call.val() {
            self.oor.next = self.oor_n.val() || self.oor_j.val();
            self.pm.next = self.e.val();
            if self.t_none.val() {
                self.evt.next = 28.into();
            } else {
                if self.cic_call.q.val() == self.c_maxdc.val() {
                    self.berr.next = true;
                    self.bcode.next = 8.into();
                    self.btype.next = 4.into();
                }
                self.psh_call.next = true;
                self.push_ip.next = self.lab_n.val();
                self.push_aux.next = self.loop_nest.q.val();
                self.ln_next.next = 0.into();
                self.next_x.next = self.tgt_j.val();
                if self.t_all.val() {
                    self.evt.next = 29.into();
                } else {
                    self.park_m.next = self.e.val() & !self.t.val();
                    self.park_code.next = self.new_call.val();
                    self.evt.next = 30.into();
                }
            }
        }
        if self.op_ret.val() {
            self.bad_off.next = self.jneg.val();
            self.oor.next = !self.jzero.val() && (self.oor_n.val() || self.oor_j.val());
            if self.cic_call.q.val() == 0 {
                self.berr.next = true;
                self.bcode.next = 9.into();
            }
            if self.jzero.val() {
                if !self.pred_all.val() {
                    self.warn.next = 2.into();
                }
                if !self.e_none.val() && self.fc.val() {
                    self.evt.next = 31.into();
                } else {
                    self.evt.next = 34.into();
                }
                self.pop_call.next = true;
                self.next_x.next = bit_cast::<XW, IPW>(self.scall_ip[0].q.val());
                self.ln_next.next = self.scall_aux[0].q.val();
            } else {
                self.pm.next = self.e.val();
                if !self.e_none.val() && self.fc.val() && self.t_all.val() {
                    self.evt.next = 31.into();
                    self.pop_call.next = true;
                    self.next_x.next = bit_cast::<XW, IPW>(self.scall_ip[0].q.val());
                    self.ln_next.next = self.scall_aux[0].q.val();
                } else {
                    self.park_m.next = self.t.val();
                    self.park_code.next = self.cur_call.val();
                    if (self.e.val() & !self.t.val()) != 0 {
                        self.evt.next = 32.into();
                    } else {
                        self.evt.next = 33.into();
                        self.next_x.next = self.tgt_j.val();
                    }
                }
            }
        }
        if self.op_branch.val() {
            self.bad_off.next = self.jzero.val();
            self.oor.next = self.oor_n.val() || self.oor_j.val();
            self.pm.next = self.e.val();
            if self.t_none.val() {
                self.evt.next = 35.into();
            } else if self.t_all.val() {
                self.evt.next = 36.into();
                self.next_x.next = self.tgt_j.val();
            } else {
                if !self.jpos.val() {
                    self.berr.next = true;
                    self.bcode.next = 10.into();
                } else if (self.cic_br.q.val() != 0)
                    && (self.sbr_aux[0].q.val() == self.cic_call.q.val())
                    && (self.lab_j.val() > self.sbr_ip[0].q.val())
                {
                    self.berr.next = true;
                    self.bcode.next = 11.into();
                } else if !self.m.val() && (self.cic_br.q.val() == self.c_maxd.val()) {
                    self.berr.next = true;
                    self.bcode.next = 8.into();
                    self.btype.next = 5.into();
                }
                if self.m.val() {
                    self.evt.next = 38.into();
                } else {
                    self.evt.next = 37.into();
                    self.psh_br.next = true;
                }
                self.park_m.next = self.t.val();
                self.park_code.next = self.open_br_d.val();
            }
        }
        if self.op_halt.val() {
            self.bad_off.next = !self.jpos.val() || !self.upos.val();
            self.oor.next = self.oor_n.val() || self.oor_j.val() || self.oor_u.val();
            self.pm.next = self.e.val();
            if self.t_none.val() {
                self.evt.next = 39.into();
            } else if self.fc.val() && self.t_all.val() {
                self.evt.next = 40.into();
                self.clr_call.next = true;
                self.ln_next.next = 0.into();
                self.next_x.next = self.tgt_u.val();
            } else {
                if self.cic_halt.q.val() == 0 {
                    self.psh_halt.next = true;
                } else if self.shalt_ip.q.val() != self.lab_u.val() {
                    self.berr.next = true;
                    self.bcode.next = 12.into();
                }
                self.park_m.next = self.t.val();
                self.park_code.next = self.c_thalt1.val();
                self.go_on.next = true;
                self.go_tgt.next = self.tgt_j.val();
                self.evt.next = 41.into();
            }
        }
        if self.op_init.val() {
            self.next_x.next = self.ip_x.val();
            self.evt.next = 4.into();
        }

        // ---------------- error priority (§7) ----------------
        self.err_any.next = true;
        self.ecode.next = 0.into();
        self.etype.next = 0.into();
        if self.op_init.val() {
            self.err_any.next = self.req_pred.val() == 0;
            self.ecode.next = 14.into();
        } else if self.fault_r.q.val() {
            self.ecode.next = 1.into();
        } else if self.bad_op.val() {
            self.ecode.next = 2.into();
        } else if self.sk_if.val() {
            self.ecode.next = 3.into();
            self.etype.next = 1.into();
        } else if self.sk_loop.val() {
            self.ecode.next = 3.into();
            self.etype.next = 2.into();
        } else if self.sk_br.val() {
            self.ecode.next = 3.into();
            self.etype.next = 5.into();
        } else if self.bad_off.val() {
            self.ecode.next = 4.into();
        } else if self.oor.val() {
            self.ecode.next = 5.into();
        } else {
            self.err_any.next = self.berr.val();
            self.ecode.next = self.bcode.val();
            self.etype.next = self.btype.val();
        }
        self.commit.next = self.req_valid.val() && !self.err_any.val();

        // ---------------- lane pass 2: next counters ----------------
        self.en_next.next = 0.into();
        self.p32.next = bit_cast::<32, N>(self.req_pred.val());
        self.pk32.next = bit_cast::<32, N>(self.park_m.val());
        self.rh32.next = bit_cast::<32, N>(self.rja_hit.val());
        self.eb32.next = bit_cast::<32, N>(self.eqb.val());
        self.e32.next = bit_cast::<32, N>(self.e.val());
        for i in 0..N {
            if self.op_init.val() {
                self.en_next.next = self.en_next.val().replace_bit(i, self.p32.val().get_bit(i));
                if self.commit.val() {
                    if self.p32.val().get_bit(i) {
                        self.cnt[i].d.next = 0.into();
                    } else {
                        self.cnt[i].d.next = self.c_off.val();
                    }
                }
            } else if self.pk32.val().get_bit(i) {
                if self.commit.val() {
                    self.cnt[i].d.next = self.park_code.val();
                }
            } else if self.rh32.val().get_bit(i) || (self.rjb_en.val() && self.eb32.val().get_bit(i)) {
                self.en_next.next = self.en_next.val().replace_bit(i, true);
                if self.commit.val() {
                    self.cnt[i].d.next = 0.into();
                }
            } else {
                self.en_next.next = self.en_next.val().replace_bit(i, self.e32.val().get_bit(i));
            }
        }
        if self.go_on.val() {
            if self.en_next.val() != 0 {
                self.next_x.next = self.tgt_n.val();
            } else {
                self.next_x.next = self.go_tgt.val();
            }
        }

        // ---------------- CICs, stacks, loop_nest, fault ----------------
        if self.commit.val() {
            self.loop_nest.d.next = self.ln_next.val();
            if self.psh_if.val() {
                self.cic_if.d.next = self.cic_if.q.val() + 1;
                self.sif_ip[0].d.next = self.push_ip.val();
                self.sif_aux[0].d.next = self.push_aux.val();
                for k in 0..self._maxd1 {
                    self.sif_ip[k + 1].d.next = self.sif_ip[k].q.val();
                    self.sif_aux[k + 1].d.next = self.sif_aux[k].q.val();
                }
            }
            if self.pop_if.val() {
                self.cic_if.d.next = self.cic_if.q.val() - 1;
                for k in 0..self._maxd1 {
                    self.sif_ip[k].d.next = self.sif_ip[k + 1].q.val();
                    self.sif_aux[k].d.next = self.sif_aux[k + 1].q.val();
                }
            }
            if self.psh_loop.val() {
                self.cic_loop.d.next = self.cic_loop.q.val() + 1;
                self.sloop_ip[0].d.next = self.push_ip.val();
                self.sloop_aux[0].d.next = self.push_aux.val();
                for k in 0..self._maxd1 {
                    self.sloop_ip[k + 1].d.next = self.sloop_ip[k].q.val();
                    self.sloop_aux[k + 1].d.next = self.sloop_aux[k].q.val();
                }
            }
            if self.pop_loop.val() {
                self.cic_loop.d.next = self.cic_loop.q.val() - 1;
                for k in 0..self._maxd1 {
                    self.sloop_ip[k].d.next = self.sloop_ip[k + 1].q.val();
                    self.sloop_aux[k].d.next = self.sloop_aux[k + 1].q.val();
                }
            }
            if self.psh_br.val() {
                self.cic_br.d.next = self.cic_br.q.val() + 1;
                self.sbr_ip[0].d.next = self.push_ip.val();
                self.sbr_aux[0].d.next = self.push_aux.val();
                for k in 0..self._maxd1 {
                    self.sbr_ip[k + 1].d.next = self.sbr_ip[k].q.val();
                    self.sbr_aux[k + 1].d.next = self.sbr_aux[k].q.val();
                }
            }
            if self.pop_br.val() {
                self.cic_br.d.next = self.cic_br.q.val() - 1;
                for k in 0..self._maxd1 {
                    self.sbr_ip[k].d.next = self.sbr_ip[k + 1].q.val();
                    self.sbr_aux[k].d.next = self.sbr_aux[k + 1].q.val();
                }
            }
            if self.psh_call.val() {
                self.cic_call.d.next = self.cic_call.q.val() + 1;
                self.scall_ip[0].d.next = self.push_ip.val();
                self.scall_aux[0].d.next = self.push_aux.val();
                for k in 0..self._maxdc1 {
                    self.scall_ip[k + 1].d.next = self.scall_ip[k].q.val();
                    self.scall_aux[k + 1].d.next = self.scall_aux[k].q.val();
                }
            }
            if self.pop_call.val() {
                self.cic_call.d.next = self.cic_call.q.val() - 1;
                for k in 0..self._maxdc1 {
                    self.scall_ip[k].d.next = self.scall_ip[k + 1].q.val();
                    self.scall_aux[k].d.next = self.scall_aux[k + 1].q.val();
                }
            }
            if self.clr_call.val() {
                self.cic_call.d.next = 0.into();
            }
            if self.psh_halt.val() {
                self.cic_halt.d.next = 1.into();
                self.shalt_ip.d.next = self.push_ip.val();
            }
            if self.pop_halt.val() {
                self.cic_halt.d.next = 0.into();
            }
            if self.op_init.val() {
                self.cic_if.d.next = 0.into();
                self.cic_loop.d.next = 0.into();
                self.cic_call.d.next = 0.into();
                self.cic_br.d.next = 0.into();
                self.cic_halt.d.next = 0.into();
                self.loop_nest.d.next = 0.into();
                self.fault_r.d.next = false;
            }
        }
        if self.req_valid.val() && self.err_any.val() {
            self.fault_r.d.next = true;
        }

        // ---------------- response register ----------------
        self.r_valid.d.next = self.req_valid.val();
        self.r_next_ip.d.next = 0.into();
        self.r_exec.d.next = 0.into();
        self.r_lane.d.next = 0.into();
        self.r_predm.d.next = 0.into();
        self.r_err.d.next = false;
        self.r_code.d.next = 0.into();
        self.r_type.d.next = 0.into();
        self.r_warn.d.next = 0.into();
        self.r_event.d.next = 0.into();
        if self.req_valid.val() {
            if self.err_any.val() {
                self.r_next_ip.d.next = self.req_ip.val();
                self.r_err.d.next = true;
                self.r_code.d.next = self.ecode.val();
                self.r_type.d.next = self.etype.val();
            } else {
                self.r_next_ip.d.next = bit_cast::<IPW, XW>(self.next_x.val());
                self.r_exec.d.next = self.e.val();
                self.r_lane.d.next = self.en_next.val();
                self.r_predm.d.next = self.pm.val();
                self.r_warn.d.next = self.warn.val();
                self.r_event.d.next = self.evt.val();
            }
        }

        // ---------------- synchronous reset: all state ----------------
        if self.rst.val() {
            for i in 0..N {
                self.cnt[i].d.next = self.c_off.val();
            }
            for k in 0..self._maxd {
                self.sif_ip[k].d.next = 0.into();
                self.sif_aux[k].d.next = 0.into();
                self.sloop_ip[k].d.next = 0.into();
                self.sloop_aux[k].d.next = 0.into();
                self.sbr_ip[k].d.next = 0.into();
                self.sbr_aux[k].d.next = 0.into();
            }
            for k in 0..self._maxdc {
                self.scall_ip[k].d.next = 0.into();
                self.scall_aux[k].d.next = 0.into();
            }
            self.cic_if.d.next = 0.into();
            self.cic_loop.d.next = 0.into();
            self.cic_call.d.next = 0.into();
            self.cic_br.d.next = 0.into();
            self.cic_halt.d.next = 0.into();
            self.shalt_ip.d.next = 0.into();
            self.loop_nest.d.next = 0.into();
            self.fault_r.d.next = false;
            self.r_valid.d.next = false;
            self.r_next_ip.d.next = 0.into();
            self.r_exec.d.next = 0.into();
            self.r_lane.d.next = 0.into();
            self.r_predm.d.next = 0.into();
            self.r_err.d.next = false;
            self.r_code.d.next = 0.into();
            self.r_type.d.next = 0.into();
            self.r_warn.d.next = 0.into();
            self.r_event.d.next = 0.into();
        }

        // ---------------- outputs ----------------
        self.req_ready.next = true;
        self.rsp_valid.next = self.r_valid.q.val();
        self.rsp_next_ip.next = self.r_next_ip.q.val();
        self.rsp_exec_mask.next = self.r_exec.q.val();
        self.rsp_lane_mask.next = self.r_lane.q.val();
        self.rsp_pred_mask.next = self.r_predm.q.val();
        self.rsp_err.next = self.r_err.q.val();
        self.rsp_err_code.next = self.r_code.q.val();
        self.rsp_err_type.next = self.r_type.q.val();
        self.rsp_warn.next = self.r_warn.q.val();
        self.rsp_event.next = self.r_event.q.val();
        self.lane_mask.next = self.e.val();
        self.fault.next = self.fault_r.q.val();
        self.dbg_loop_nest.next = self.loop_nest.q.val();
        // dbg_cnt: lane n at bits [n*CW, (n+1)*CW)
        self.acc_cnt.next = 0.into();
        self.sh.next = 0.into();
        for i in 0..N {
            self.tmp_c.next = self.cnt[i].q.val();
            self.acc_cnt.next = self.acc_cnt.val() | (bit_cast::<NCW, CW>(self.tmp_c.val()) << self.sh.val());
            self.sh.next = self.sh.val() + self.c_cw.val();
        }
        self.dbg_cnt.next = self.acc_cnt.val();
        // dbg_cic: IF, LOOP, CALL, BR, HALT from bit 0 up
        self.acc_cic.next = bit_cast::<CICW, DW>(self.cic_halt.q.val());
        self.acc_cic.next = (self.acc_cic.val() << self.c_dw.val()) | bit_cast::<CICW, DW>(self.cic_br.q.val());
        self.acc_cic.next = (self.acc_cic.val() << self.c_dw.val()) | bit_cast::<CICW, DW>(self.cic_call.q.val());
        self.acc_cic.next = (self.acc_cic.val() << self.c_dw.val()) | bit_cast::<CICW, DW>(self.cic_loop.q.val());
        self.acc_cic.next = (self.acc_cic.val() << self.c_dw.val()) | bit_cast::<CICW, DW>(self.cic_if.q.val());
        self.dbg_cic.next = self.acc_cic.val();
        // dbg_tos: {ip, aux} of each type's top entry (0 when the type has no open level)
        self.ent_if.next = 0.into();
        self.ent_loop.next = 0.into();
        self.ent_call.next = 0.into();
        self.ent_br.next = 0.into();
        self.ent_halt.next = 0.into();
        if self.cic_if.q.val() != 0 {
            self.ent_if.next = (bit_cast::<EW, IPW>(self.sif_ip[0].q.val()) << self.c_dw.val())
                | bit_cast::<EW, DW>(self.sif_aux[0].q.val());
        }
        if self.cic_loop.q.val() != 0 {
            self.ent_loop.next = (bit_cast::<EW, IPW>(self.sloop_ip[0].q.val()) << self.c_dw.val())
                | bit_cast::<EW, DW>(self.sloop_aux[0].q.val());
        }
        if self.cic_call.q.val() != 0 {
            self.ent_call.next = (bit_cast::<EW, IPW>(self.scall_ip[0].q.val()) << self.c_dw.val())
                | bit_cast::<EW, DW>(self.scall_aux[0].q.val());
        }
        if self.cic_br.q.val() != 0 {
            self.ent_br.next = (bit_cast::<EW, IPW>(self.sbr_ip[0].q.val()) << self.c_dw.val())
                | bit_cast::<EW, DW>(self.sbr_aux[0].q.val());
        }
        if self.cic_halt.q.val() != 0 {
            self.ent_halt.next = bit_cast::<EW, IPW>(self.shalt_ip.q.val()) << self.c_dw.val();
        }
        self.acc_tos.next = bit_cast::<TOSW, EW>(self.ent_halt.val());
        self.acc_tos.next = (self.acc_tos.val() << self.c_ew.val()) | bit_cast::<TOSW, EW>(self.ent_br.val());
        self.acc_tos.next = (self.acc_tos.val() << self.c_ew.val()) | bit_cast::<TOSW, EW>(self.ent_call.val());
        self.acc_tos.next = (self.acc_tos.val() << self.c_ew.val()) | bit_cast::<TOSW, EW>(self.ent_loop.val());
        self.acc_tos.next = (self.acc_tos.val() << self.c_ew.val()) | bit_cast::<TOSW, EW>(self.ent_if.val());
        self.dbg_tos.next = self.acc_tos.val();
    }
}

/// One monomorphised `BranchUnit` for (lanes, DW, IPW); returns from the enclosing fn on a match.
macro_rules! emit_leaf {
    ($cfg:expr, $params:expr, $n:literal, $dw:literal, $ipw:literal) => {
        if ($cfg.lanes, $cfg.dw(), $cfg.ipw) == ($n, $dw, $ipw) {
            return emit_module(
                BranchUnit::<$n, $dw, { $dw + 3 }, $ipw, { $ipw + 2 }, { $n * ($dw + 3) }, { 5 * $dw }, { $ipw + $dw }, { 5 * ($ipw + $dw) }>::new(
                    $cfg.maxd_r(),
                    $cfg.maxd_call,
                ),
                "eu_branch_unit",
                "branch_unit",
                $params,
            );
        }
    };
}

/// Every IPW for one (lanes, DW).
macro_rules! emit_ipws {
    ($cfg:expr, $params:expr, $n:literal, $dw:literal; [$($ipw:literal),*]) => {
        $( emit_leaf!($cfg, $params, $n, $dw, $ipw); )*
    };
}

/// Every DW x IPW for one lane count.
macro_rules! emit_dws {
    ($cfg:expr, $params:expr, $n:literal; [$($dw:literal),*]; $ipws:tt) => {
        $( emit_ipws!($cfg, $params, $n, $dw; $ipws); )*
    };
}

/// The product lanes x DW x IPW of the given lists (`supported` must agree; the unit test
/// `every_supported_combination_emits_and_lints` checks it).
macro_rules! emit_all {
    ($cfg:expr, $params:expr; [$($n:literal),*]; $dws:tt; $ipws:tt) => {{
        $( emit_dws!($cfg, $params, $n; $dws; $ipws); )*
    }};
}

fn emit_any(cfg: &Config, params: Vec<(String, String)>) -> Result<EmittedModule, EmitError> {
    emit_all!(cfg, params.clone(); [1, 4, 8, 16, 32]; [1, 2, 3, 4, 5, 6]; [12, 16, 24, 32]);
    unreachable!("validated config has lanes {}, DW {}, IPW {}", cfg.lanes, cfg.dw(), cfg.ipw)
}

pub struct Block;

impl BlockGen for Block {
    const NAME: &'static str = "branch_unit";
    type Config = Config;
    const ENCODINGS: &'static [&'static crate::enc::Table] =
        &[&enc::op::TABLE, &enc::ty::TABLE, &enc::err::TABLE, &enc::warn::TABLE, &enc::ev::TABLE];
    fn validate(cfg: &Config) -> Result<(), ConfigError> {
        check_one_of("branch_unit", "lanes", cfg.lanes, &LANES_ALLOWED)?;
        check_range("branch_unit", "maxd", cfg.maxd as u64, 0, 32)?;
        check_range("branch_unit", "maxd_call", cfg.maxd_call as u64, 1, 32)?;
        check_one_of("branch_unit", "ipw", cfg.ipw, &IPW_ALLOWED)?;
        Ok(())
    }
    fn emit(cfg: &Config) -> Result<Vec<EmittedModule>, EmitError> {
        let params = crate::params!(
            "lanes" => cfg.lanes, "maxd" => cfg.maxd_r(), "maxd_call" => cfg.maxd_call, "ipw" => cfg.ipw,
            "dw" => cfg.dw(), "cw" => cfg.cw()
        );
        Ok(vec![emit_any(cfg, params)?])
    }
    fn cosim_configs() -> Vec<(&'static str, Config)> {
        vec![
            ("n1", Config::with(1, 0, 8)),
            ("n4", Config::with(4, 0, 8)),
            ("n8", Config::with(8, 0, 8)),
            ("n16", Config::with(16, 0, 8)),
            ("n32", Config::with(32, 0, 8)),
            ("n4_d2", Config::with(4, 2, 2)),
            // non-default IP widths: the narrowest (IPs and targets at the top of a 12-bit
            // range) and the widest (IPW+2 = 34-bit target arithmetic), at default depths
            ("n8_ipw12", Config { ipw: 12, ..Config::with(8, 0, 8) }),
            ("n4_ipw32", Config { ipw: 32, ..Config::with(4, 0, 8) }),
        ]
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn event_names_are_the_encodings_table() {
        for (code, name) in super::ev::NAMES.iter().enumerate() {
            assert_eq!(super::enc::event_name(code as u64).as_deref(), Some(*name));
        }
    }

    use super::*;

    #[test]
    fn config_errors_name_the_key() {
        let bad = |c: Config, key: &str| {
            let e = Block::validate(&c).unwrap_err();
            assert_eq!(e.key, format!("branch_unit.{key}"), "{e}");
        };
        bad(Config { lanes: 3, ..Default::default() }, "lanes");
        bad(Config { maxd: 33, ..Default::default() }, "maxd");
        bad(Config { maxd_call: 0, ..Default::default() }, "maxd_call");
        bad(Config { ipw: 20, ..Default::default() }, "ipw");
        Block::validate(&Config { lanes: 16, maxd: 2, maxd_call: 2, ipw: 12 }).unwrap();
        Block::validate(&Config { lanes: 16, maxd: 2, maxd_call: 2, ipw: 16 }).unwrap();
        Block::validate(&Config { lanes: 1, maxd: 1, maxd_call: 1, ipw: 16 }).unwrap();
        Block::validate(&Config { lanes: 32, maxd: 0, maxd_call: 8, ipw: 32 }).unwrap();
        Block::validate(&Config::default()).unwrap();
        let c: crate::EuConfig = toml::from_str("[branch_unit]\nlanes = 8\nmaxd_call = 4\n").unwrap();
        assert_eq!(c.branch_unit.unwrap(), Config::with(8, 0, 4));
        assert!(toml::from_str::<crate::EuConfig>("[branch_unit]\nlane = 8\n").is_err());
    }

    #[test]
    fn widths_follow_the_spec() {
        // §3.2: DW = clog2(max(MAXD, MAXD_CALL)+1): 5 at defaults, 4 for the §4 vectors (N<=8).
        assert_eq!(Config::default().dw(), 5);
        assert_eq!(Config::with(8, 0, 8).dw(), 4);
        assert_eq!(Config::with(4, 0, 2).dw(), 3); // E-2 config
        assert_eq!(Config::with(32, 0, 8).dw(), 6);
    }

    /// Emits every co-sim variant and runs the project lint gate
    /// (verilator -Wall with the generator waivers) and the yosys latch check on it.
    #[test]
    fn emitted_verilog_passes_lint_and_yosys() {
        let dir = std::env::temp_dir().join(format!("eu_branch_unit_lint_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for (v, cfg) in Block::cosim_configs() {
            let m = Block::emit(&cfg).unwrap().remove(0);
            let f = dir.join(format!("{v}.v"));
            std::fs::write(&f, &m.verilog).unwrap();
            let o = std::process::Command::new("verilator")
                .args(["--lint-only", "-Wall", "-Wno-DECLFILENAME", "-Wno-WIDTH", "-Wno-UNUSEDSIGNAL", "-Wno-UNUSEDPARAM"])
                .args(["--top-module", "eu_branch_unit"])
                .arg(&f)
                .output()
                .expect("verilator not found: run scripts/setup.sh (apt-get install -y verilator)");
            assert!(o.status.success(), "{v}: verilator lint:\n{}", String::from_utf8_lossy(&o.stderr));
            if v == "n4" || v == "n4_d2" {
                let script = format!(
                    "read_verilog {}; hierarchy -check -top eu_branch_unit; proc; check -assert; synth -top eu_branch_unit; select -assert-none t:$dlatch t:$_DLATCH_*",
                    f.display()
                );
                let o = std::process::Command::new("yosys")
                    .args(["-q", "-p", &script])
                    .output()
                    .expect("yosys not found: run scripts/setup.sh (apt-get install -y yosys)");
                assert!(o.status.success(), "{v}: yosys:\n{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
            }
        }
    }

    /// Every (lanes, DW, IPW) combination (`validate` accepts them all) emits, has the spec's port widths and
    /// passes the Verilator lint gate (generate-time panics and width slips at DW = 1 or IPW = 32
    /// would show here; only the co-sim variants are verilated for simulation).
    #[test]
    fn every_supported_combination_emits_and_lints() {
        type HCfg = Config;
        let dir = std::env::temp_dir().join(format!("eu_branch_unit_all_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut n = 0;
        for &lanes in &LANES_ALLOWED {
            for &ipw in &IPW_ALLOWED {
                for &dw in &DW_ALLOWED {
                    // the smallest depth with this DW: clog2(2^(dw-1) + 1) = dw
                    let d = 1usize << (dw - 1);
                    let cfg = if dw == default_dw(lanes) { HCfg { ipw, ..HCfg::with(lanes, 0, 8) } } else { HCfg { lanes, maxd: d, maxd_call: d, ipw } };
                    assert_eq!(cfg.dw(), dw);
                    let ok = Block::validate(&cfg);
                    assert_eq!(ok.is_ok(), supported(lanes, dw, ipw), "{cfg:?}");
                    if ok.is_err() {
                        assert_eq!(ok.unwrap_err().key, "branch_unit.ipw");
                        continue;
                    }
                    let m = Block::emit(&cfg).unwrap().remove(0);
                    let w = |name: &str| m.ports.iter().find(|p| p.name == name).unwrap_or_else(|| panic!("{name}")).width;
                    assert_eq!((w("req_ip"), w("req_jip"), w("rsp_next_ip")), (ipw, ipw, ipw), "{cfg:?}");
                    assert_eq!((w("req_pred"), w("dbg_cnt"), w("dbg_cic")), (lanes, lanes * (dw + 3), 5 * dw), "{cfg:?}");
                    assert_eq!((w("dbg_loop_nest"), w("dbg_tos")), (dw, 5 * (ipw + dw)), "{cfg:?}");
                    let f = dir.join(format!("n{lanes}_dw{dw}_ipw{ipw}.v"));
                    std::fs::write(&f, &m.verilog).unwrap();
                    let o = std::process::Command::new("verilator")
                        .args(["--lint-only", "-Wall", "-Wno-DECLFILENAME", "-Wno-WIDTH", "-Wno-UNUSEDSIGNAL", "-Wno-UNUSEDPARAM"])
                        .args(["--top-module", "eu_branch_unit"])
                        .arg(&f)
                        .output()
                        .expect("verilator not found: run scripts/setup.sh (apt-get install -y verilator)");
                    assert!(o.status.success(), "{cfg:?}: verilator lint:\n{}", String::from_utf8_lossy(&o.stderr));
                    n += 1;
                }
            }
        }
        println!("{n} (lanes, DW, IPW) combinations emitted and linted");
        assert_eq!(n, LANES_ALLOWED.len() * DW_ALLOWED.len() * IPW_ALLOWED.len());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
