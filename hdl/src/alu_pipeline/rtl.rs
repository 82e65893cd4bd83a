//! The alu_pipeline top (`AluPipe`): spec §7.2 ports.

use super::isa;
use super::enc;
use super::counters::Counters;
use super::errors::ErrorLog;
use super::lane::Lane;
use crate::prims::{CgCell, RDff};
use rust_hdl::prelude::*;

/// The unit. `NA` = NUM_ALUS. Ports are the spec's §7.2 names.
#[derive(LogicBlock)]
pub struct AluPipe<const NA: usize> {
    /// Single clock.
    pub clk: Signal<In, Clock>,
    /// Synchronous, active-high reset: clears every register (K to its reset values).
    pub rst: Signal<In, Bit>,
    /// Input row valid; a row transfers when in_valid and in_ready are both 1.
    pub in_valid: Signal<In, Bit>,
    /// A buffer is EMPTY or FILL: the deserializer takes a row.
    pub in_ready: Signal<Out, Bit>,
    /// Input row: 4 registers, field j = [32j+31:32j].
    pub in_data: Signal<In, Bits<128>>,
    /// Pixel p of the row (sideband position).
    pub in_pix: Signal<In, Bits<2>>,
    /// Row k of the row (sideband position).
    pub in_row: Signal<In, Bits<2>>,
    /// R − 1 of the row's group.
    pub in_nrows_m1: Signal<In, Bits<2>>,
    /// Instruction pointer of the row.
    pub in_iptr: Signal<In, Bits<5>>,
    /// Front-end CE bit of the row.
    pub in_ce: Signal<In, Bit>,
    /// Pass-through tag.
    pub in_tag: Signal<In, Bits<8>>,
    /// Output row valid (buffer DONE or DRAIN).
    pub out_valid: Signal<Out, Bit>,
    /// Output row taken when out_valid and out_ready are 1.
    pub out_ready: Signal<In, Bit>,
    /// Processed row: 4 registers.
    pub out_data: Signal<Out, Bits<128>>,
    /// Pixel of the output row.
    pub out_pix: Signal<Out, Bits<2>>,
    /// Row of the output row.
    pub out_row: Signal<Out, Bits<2>>,
    /// R − 1 of the output row's group.
    pub out_nrows_m1: Signal<Out, Bits<2>>,
    /// iptr of the output row.
    pub out_iptr: Signal<Out, Bits<5>>,
    /// Final CE bit of the output row.
    pub out_ce: Signal<Out, Bit>,
    /// Tag of the output row.
    pub out_tag: Signal<Out, Bits<8>>,
    /// Config write strobe.
    pub cfg_we: Signal<In, Bit>,
    /// Config read strobe.
    pub cfg_re: Signal<In, Bit>,
    /// Config address (§7.2 map).
    pub cfg_addr: Signal<In, Bits<9>>,
    /// Config write data.
    pub cfg_wdata: Signal<In, Bits<32>>,
    /// Read data valid, one cycle after cfg_re.
    pub cfg_rvalid: Signal<Out, Bit>,
    /// Read data (0 for unmapped addresses).
    pub cfg_rdata: Signal<Out, Bits<32>>,
    /// Any buffer non-EMPTY or any shadow stage occupied.
    pub busy: Signal<Out, Bit>,
    /// Edges with en1 = 1 (§6.6).
    pub act_s1: Signal<Out, Bits<32>>,
    /// Edges with en2 = 1.
    pub act_s2: Signal<Out, Bits<32>>,
    /// Edges with en3 = 1.
    pub act_s3: Signal<Out, Bits<32>>,
    /// Edges with we4 = 1.
    pub act_s4: Signal<Out, Bits<32>>,
    /// Slots issued.
    pub slots_issued: Signal<Out, Bits<32>>,
    /// Slots issued with CE = 0.
    pub slots_skipped: Signal<Out, Bits<32>>,
    /// Register (r, g) writes.
    pub reg_writes: Signal<Out, Bits<32>>,
    /// CE-bit writes.
    pub ce_writes: Signal<Out, Bits<32>>,
    /// Groups fully drained.
    pub groups_done: Signal<Out, Bits<32>>,
    /// B1 data toggles (TOGGLE_CNT = 1; else 0).
    pub tog_s1: Signal<Out, Bits<48>>,
    /// B2 data toggles.
    pub tog_s2: Signal<Out, Bits<48>>,
    /// B3 data toggles.
    pub tog_s3: Signal<Out, Bits<48>>,
    /// {we4, en3, en2, en1} for the coming edge.
    pub dbg_en: Signal<Out, Bits<4>>,
    /// A slot issues this cycle.
    pub dbg_issue: Signal<Out, Bit>,
    /// {k, p} of the issuing slot.
    pub dbg_issue_pk: Signal<Out, Bits<4>>,
    /// §8 error bits since reset or clear.
    pub err_sticky: Signal<Out, Bits<16>>,
    /// First error: {1, code, info, lane}.
    pub err_first: Signal<Out, Bits<32>>,
    /// Any sticky error bit.
    pub err_any: Signal<Out, Bit>,

    // ---- generation-time parameters ----
    _depth: usize,
    /// 1 for GATE_STYLE = ICG (bank clocks through `cg`), 0 for CE
    _icg: usize,
    cg: Vec<CgCell>,
    scope: Constant<Bits<2>>,
    k_scope_all: Constant<Bits<2>>,
    k_scope_none: Constant<Bits<2>>,
    k_state_empty: Constant<Bits<3>>,
    k_state_fill: Constant<Bits<3>>,
    k_state_full: Constant<Bits<3>>,
    k_state_run: Constant<Bits<3>>,
    k_state_done: Constant<Bits<3>>,
    k_state_drain: Constant<Bits<3>>,
    k_op_nop: Constant<Bits<4>>,
    k_op_illegal: Constant<Bits<4>>,
    k_src_k0: Constant<Bits<5>>,
    k_src_dst_none: Constant<Bits<5>>,
    k_cxw_fn_and: Constant<Bits<2>>,
    k_cxw_fn_or: Constant<Bits<2>>,
    k_cxw_fn_illegal: Constant<Bits<2>>,
    c2: Vec<Constant<Bits<2>>>,
    c4: Vec<Constant<Bits<4>>>,
    c5: Vec<Constant<Bits<5>>>,
    kinit: Vec<Constant<Bits<32>>>,
    ca9: Vec<Constant<Bits<9>>>,
    cgk9: Vec<Constant<Bits<9>>>,

    // ---- group buffers (index b*64 + p*16 + n, b*16 + p*4 + k) ----
    regs: Vec<RDff<Bits<32>>>,
    ce: Vec<RDff<Bit>>,
    iptr: Vec<RDff<Bits<5>>>,
    tag: Vec<RDff<Bits<8>>>,
    bst: Vec<RDff<Bits<3>>>,
    bn: Vec<RDff<Bits<4>>>,
    brm1: Vec<RDff<Bits<2>>>,
    bseq: Vec<RDff<Bits<8>>>,
    fp: RDff<Bits<2>>,
    ip: RDff<Bits<2>>,
    dp: RDff<Bits<2>>,
    ix: RDff<Bits<4>>,
    gcount: RDff<Bits<8>>,
    // ---- configuration state ----
    imem: Vec<RDff<Bits<32>>>,
    greg: Vec<RDff<Bits<32>>>,
    kreg: Vec<RDff<Bits<32>>>,
    // ---- shadow pipe {k[7:6], p[5:4], b[3:2], live[1], occ[0]} (never gated) ----
    sh1: RDff<Bits<8>>,
    sh2: RDff<Bits<8>>,
    sh3: RDff<Bits<8>>,
    // ---- control word of stages 1..3 (gated with the banks) ----
    cx1: RDff<Bits<13>>,
    cx2: RDff<Bits<13>>,
    cx3: RDff<Bits<13>>,
    /// the NUM_ALUS lane datapaths (banks B1..B3 of each lane)
    lanes: Vec<Lane>,
    // ---- counters, errors, cfg read ----
    counters: Counters,
    errors: ErrorLog,
    rvalid: RDff<Bit>,
    rdata: RDff<Bits<32>>,

    // ---- combinational temporaries ----
    issue: Signal<Local, Bit>,
    live: Signal<Local, Bit>,
    ilast: Signal<Local, Bit>,
    en1: Signal<Local, Bit>,
    en2: Signal<Local, Bit>,
    en3: Signal<Local, Bit>,
    we4: Signal<Local, Bit>,
    ip_st: Signal<Local, Bits<3>>,
    ip_rm1: Signal<Local, Bits<2>>,
    ip_seq: Signal<Local, Bits<8>>,
    iptr0: Signal<Local, Bits<5>>,
    iptr_ok: Signal<Local, Bit>,
    vmask: Signal<Local, Bits<4>>,
    iw: Vec<Signal<Local, Bits<32>>>,
    pr: Vec<Signal<Local, Bits<32>>>,
    lop: Vec<Signal<Local, Bits<4>>>,
    ldst: Vec<Signal<Local, Bits<5>>>,
    lwr: Vec<Signal<Local, Bit>>,
    llose: Vec<Signal<Local, Bit>>,
    lsrc: Vec<Signal<Local, Bits<5>>>,
    lval: Vec<Signal<Local, Bits<32>>>,
    cxn: Signal<Local, Bits<13>>,
    csrc_ok: Signal<Local, Bit>,
    fp_st: Signal<Local, Bits<3>>,
    fp_n: Signal<Local, Bits<4>>,
    fp_rm1: Signal<Local, Bits<2>>,
    fp_seq: Signal<Local, Bits<8>>,
    fill_rm1: Signal<Local, Bits<2>>,
    fill: Signal<Local, Bit>,
    flast: Signal<Local, Bit>,
    fiptr0: Signal<Local, Bits<5>>,
    dp_st: Signal<Local, Bits<3>>,
    dp_n: Signal<Local, Bits<4>>,
    dp_rm1: Signal<Local, Bits<2>>,
    ovalid: Signal<Local, Bit>,
    drain: Signal<Local, Bit>,
    dlast: Signal<Local, Bit>,
    busy_l: Signal<Local, Bit>,
    cval: Signal<Local, Bit>,
    sh1n: Signal<Local, Bits<8>>,
    cfn_new: Signal<Local, Bit>,
    nreg_w: Signal<Local, Bits<32>>,
    nce_w: Signal<Local, Bits<32>>,
    cfg_imem: Signal<Local, Bit>,
    cfg_gk: Signal<Local, Bit>,
    cfg_ctrl: Signal<Local, Bit>,
    cfg_rv: Signal<Local, Bits<32>>,
    clr_cnt: Signal<Local, Bit>,
    clr_err: Signal<Local, Bit>,
    enew: Signal<Local, Bits<16>>,
    elane: Vec<Signal<Local, Bits<2>>>,
    /// elane packed for the error log
    elanes: Signal<Local, Bits<14>>,
    einfo_iss: Signal<Local, Bits<32>>,
    einfo_fill: Signal<Local, Bits<32>>,
    ow: Vec<Signal<Local, Bits<32>>>,
    /// One write enable and one write data per buffer register (`rwe`/`rwd`), CE bit
    /// (`cwe`/`cwd`) and G register (`gwe`/`gwd`), gathered from their writers (fill or config,
    /// and S4) and applied once, so that synthesis maps them to clock-enable flops: yosys does
    /// not extract an enable from two separate hold-muxes.
    rwe: Vec<Signal<Local, Bit>>,
    rwd: Vec<Signal<Local, Bits<32>>>,
    cwe: Vec<Signal<Local, Bit>>,
    cwd: Vec<Signal<Local, Bit>>,
    gwe: Vec<Signal<Local, Bit>>,
    gwd: Vec<Signal<Local, Bits<32>>>,
    /// per-bank toggle sums of this edge over the lanes (0 unless TOGGLE_CNT = 1)
    tsum: Vec<Signal<Local, Bits<32>>>,
}

fn vecd<T: Default>(n: usize) -> Vec<T> {
    (0..n).map(|_| T::default()).collect()
}
fn consts<const N: usize>(n: usize) -> Vec<Constant<Bits<N>>> {
    (0..n).map(|i| Constant::new((i as u64).into())).collect()
}


impl<const NA: usize> AluPipe<NA> {
    pub fn new(depth: usize, scope: u32, icg: bool, tog: bool) -> Self {
        assert!((1..=4).contains(&NA) && (1..=32).contains(&depth));
        Self {
            clk: Default::default(),
            rst: Default::default(),
            in_valid: Default::default(),
            in_ready: Default::default(),
            in_data: Default::default(),
            in_pix: Default::default(),
            in_row: Default::default(),
            in_nrows_m1: Default::default(),
            in_iptr: Default::default(),
            in_ce: Default::default(),
            in_tag: Default::default(),
            out_valid: Default::default(),
            out_ready: Default::default(),
            out_data: Default::default(),
            out_pix: Default::default(),
            out_row: Default::default(),
            out_nrows_m1: Default::default(),
            out_iptr: Default::default(),
            out_ce: Default::default(),
            out_tag: Default::default(),
            cfg_we: Default::default(),
            cfg_re: Default::default(),
            cfg_addr: Default::default(),
            cfg_wdata: Default::default(),
            cfg_rvalid: Default::default(),
            cfg_rdata: Default::default(),
            busy: Default::default(),
            act_s1: Default::default(),
            act_s2: Default::default(),
            act_s3: Default::default(),
            act_s4: Default::default(),
            slots_issued: Default::default(),
            slots_skipped: Default::default(),
            reg_writes: Default::default(),
            ce_writes: Default::default(),
            groups_done: Default::default(),
            tog_s1: Default::default(),
            tog_s2: Default::default(),
            tog_s3: Default::default(),
            dbg_en: Default::default(),
            dbg_issue: Default::default(),
            dbg_issue_pk: Default::default(),
            err_sticky: Default::default(),
            err_first: Default::default(),
            err_any: Default::default(),
            _depth: depth,
            _icg: icg as usize,
            cg: vecd(3 * icg as usize),
            scope: Constant::new((scope as u64).into()),
            k_scope_all: Constant::new(enc::scope::ALL.into()),
            k_scope_none: Constant::new(enc::scope::NONE.into()),
            k_state_empty: Constant::new(enc::state::EMPTY.into()),
            k_state_fill: Constant::new(enc::state::FILL.into()),
            k_state_full: Constant::new(enc::state::FULL.into()),
            k_state_run: Constant::new(enc::state::RUN.into()),
            k_state_done: Constant::new(enc::state::DONE.into()),
            k_state_drain: Constant::new(enc::state::DRAIN.into()),
            k_op_nop: Constant::new(enc::op::NOP.into()),
            k_op_illegal: Constant::new(enc::op::ILLEGAL.into()),
            k_src_k0: Constant::new(enc::src::K0.into()),
            k_src_dst_none: Constant::new(enc::src::DST_NONE.into()),
            k_cxw_fn_and: Constant::new(enc::cxw_fn::AND.into()),
            k_cxw_fn_or: Constant::new(enc::cxw_fn::OR.into()),
            k_cxw_fn_illegal: Constant::new(enc::cxw_fn::ILLEGAL.into()),
            c2: consts(4),
            c4: consts(16),
            c5: consts(32),
            kinit: isa::K_RESET.iter().map(|&v| Constant::new((v as u64).into())).collect(),
            ca9: (0..depth * 5).map(|i| Constant::new((isa::cfg_imem((i / 5) as u32, (i % 5) as u32) as u64).into())).collect(),
            cgk9: (0..16).map(|i| Constant::new((isa::CFG_G as u64 + i).into())).collect(),
            regs: vecd(192),
            ce: vecd(48),
            iptr: vecd(48),
            tag: vecd(48),
            bst: vecd(3),
            bn: vecd(3),
            brm1: vecd(3),
            bseq: vecd(3),
            fp: Default::default(),
            ip: Default::default(),
            dp: Default::default(),
            ix: Default::default(),
            gcount: Default::default(),
            imem: vecd(depth * 5),
            greg: vecd(8),
            kreg: vecd(8),
            sh1: Default::default(),
            sh2: Default::default(),
            sh3: Default::default(),
            cx1: Default::default(),
            cx2: Default::default(),
            cx3: Default::default(),
            lanes: (0..NA).map(|_| Lane::new(tog)).collect(),
            counters: Counters::new(),
            errors: Default::default(),
            rvalid: Default::default(),
            rdata: Default::default(),
            issue: Default::default(),
            live: Default::default(),
            ilast: Default::default(),
            en1: Default::default(),
            en2: Default::default(),
            en3: Default::default(),
            we4: Default::default(),
            ip_st: Default::default(),
            ip_rm1: Default::default(),
            ip_seq: Default::default(),
            iptr0: Default::default(),
            iptr_ok: Default::default(),
            vmask: Default::default(),
            iw: vecd(5),
            pr: vecd(16),
            lop: vecd(4),
            ldst: vecd(4),
            lwr: vecd(4),
            llose: vecd(4),
            lsrc: vecd(4 * NA),
            lval: vecd(4 * NA),
            cxn: Default::default(),
            csrc_ok: Default::default(),
            fp_st: Default::default(),
            fp_n: Default::default(),
            fp_rm1: Default::default(),
            fp_seq: Default::default(),
            fill_rm1: Default::default(),
            fill: Default::default(),
            flast: Default::default(),
            fiptr0: Default::default(),
            dp_st: Default::default(),
            dp_n: Default::default(),
            dp_rm1: Default::default(),
            ovalid: Default::default(),
            drain: Default::default(),
            dlast: Default::default(),
            busy_l: Default::default(),
            cval: Default::default(),
            sh1n: Default::default(),
            cfn_new: Default::default(),
            nreg_w: Default::default(),
            nce_w: Default::default(),
            cfg_imem: Default::default(),
            cfg_gk: Default::default(),
            cfg_ctrl: Default::default(),
            cfg_rv: Default::default(),
            clr_cnt: Default::default(),
            clr_err: Default::default(),
            enew: Default::default(),
            elane: vecd(7),
            elanes: Default::default(),
            einfo_iss: Default::default(),
            einfo_fill: Default::default(),
            ow: vecd(4),
            rwe: vecd(192),
            rwd: vecd(192),
            cwe: vecd(48),
            cwd: vecd(48),
            gwe: vecd(8),
            gwd: vecd(8),
            tsum: vecd(3),
        }
    }
}

impl<const NA: usize> Logic for AluPipe<NA> {
    #[hdl_gen]
    fn update(&mut self) {
        // ================= clocks and hold (every flop holds unless written) =================
        dff_setup!(self, clk, fp, ip, dp, ix, gcount, sh1, sh2, sh3, cx1, cx2, cx3, rvalid, rdata);
        self.fp.rst.next = self.rst.val();
        self.ip.rst.next = self.rst.val();
        self.dp.rst.next = self.rst.val();
        self.ix.rst.next = self.rst.val();
        self.gcount.rst.next = self.rst.val();
        self.sh1.rst.next = self.rst.val();
        self.sh2.rst.next = self.rst.val();
        self.sh3.rst.next = self.rst.val();
        self.cx1.rst.next = self.rst.val();
        self.cx2.rst.next = self.rst.val();
        self.cx3.rst.next = self.rst.val();
        self.rvalid.rst.next = self.rst.val();
        self.rdata.rst.next = self.rst.val();
        for i in 0..192 {
            self.regs[i].clock.next = self.clk.val();
            self.regs[i].rst.next = self.rst.val();
            self.regs[i].d.next = self.regs[i].q.val();
            self.rwe[i].next = false;
            self.rwd[i].next = 0.into();
        }
        for i in 0..48 {
            self.ce[i].clock.next = self.clk.val();
            self.ce[i].rst.next = self.rst.val();
            self.ce[i].d.next = self.ce[i].q.val();
            self.cwe[i].next = false;
            self.cwd[i].next = false;
            self.iptr[i].clock.next = self.clk.val();
            self.iptr[i].rst.next = self.rst.val();
            self.iptr[i].d.next = self.iptr[i].q.val();
            self.tag[i].clock.next = self.clk.val();
            self.tag[i].rst.next = self.rst.val();
            self.tag[i].d.next = self.tag[i].q.val();
        }
        for b in 0..3 {
            self.bst[b].clock.next = self.clk.val();
            self.bst[b].rst.next = self.rst.val();
            self.bst[b].d.next = self.bst[b].q.val();
            self.bn[b].clock.next = self.clk.val();
            self.bn[b].rst.next = self.rst.val();
            self.bn[b].d.next = self.bn[b].q.val();
            self.brm1[b].clock.next = self.clk.val();
            self.brm1[b].rst.next = self.rst.val();
            self.brm1[b].d.next = self.brm1[b].q.val();
            self.bseq[b].clock.next = self.clk.val();
            self.bseq[b].rst.next = self.rst.val();
            self.bseq[b].d.next = self.bseq[b].q.val();
        }
        for i in 0..(self._depth * 5) {
            self.imem[i].clock.next = self.clk.val();
            self.imem[i].rst.next = self.rst.val();
            self.imem[i].d.next = self.imem[i].q.val();
        }
        for i in 0..8 {
            self.greg[i].clock.next = self.clk.val();
            self.greg[i].rst.next = self.rst.val();
            self.greg[i].d.next = self.greg[i].q.val();
            self.gwe[i].next = false;
            self.gwd[i].next = 0.into();
            self.kreg[i].clock.next = self.clk.val();
            self.kreg[i].rst.next = self.rst.val();
            self.kreg[i].d.next = self.kreg[i].q.val();
        }
        for j in 0..NA {
            self.lanes[j].clock_s1.next = self.clk.val();
            self.lanes[j].clock_s2.next = self.clk.val();
            self.lanes[j].clock_s3.next = self.clk.val();
            self.lanes[j].rst.next = self.rst.val();
        }
        // ================= buffer selection by pointer =================
        self.ip_st.next = 0.into();
        self.ip_rm1.next = 0.into();
        self.ip_seq.next = 0.into();
        self.fp_st.next = 0.into();
        self.fp_n.next = 0.into();
        self.fp_rm1.next = 0.into();
        self.fp_seq.next = 0.into();
        self.dp_st.next = 0.into();
        self.dp_n.next = 0.into();
        self.dp_rm1.next = 0.into();
        self.busy_l.next = self.sh1.q.val().get_bit(0) | self.sh2.q.val().get_bit(0) | self.sh3.q.val().get_bit(0);
        for b in 0..3 {
            if self.ip.q.val() == self.c2[b].val() {
                self.ip_st.next = self.bst[b].q.val();
                self.ip_rm1.next = self.brm1[b].q.val();
                self.ip_seq.next = self.bseq[b].q.val();
            }
            if self.fp.q.val() == self.c2[b].val() {
                self.fp_st.next = self.bst[b].q.val();
                self.fp_n.next = self.bn[b].q.val();
                self.fp_rm1.next = self.brm1[b].q.val();
                self.fp_seq.next = self.bseq[b].q.val();
            }
            if self.dp.q.val() == self.c2[b].val() {
                self.dp_st.next = self.bst[b].q.val();
                self.dp_n.next = self.bn[b].q.val();
                self.dp_rm1.next = self.brm1[b].q.val();
            }
            if self.bst[b].q.val().any() {
                self.busy_l.next = true;
            }
        }

        // ================= issue (S1) =================
        self.issue.next = (self.ip_st.val() == self.k_state_full.val()) | (self.ip_st.val() == self.k_state_run.val());
        self.ilast.next = (self.ix.q.val().get_bits::<2>(2) == self.ip_rm1.val()) & (self.ix.q.val().get_bits::<2>(0) == 3);
        self.live.next = false;
        self.iptr0.next = 0.into();
        for b in 0..3 {
            for p in 0..4 {
                for k in 0..4 {
                    if (self.ip.q.val() == self.c2[b].val())
                        & (self.ix.q.val() == self.c4[k * 4 + p].val())
                    {
                        self.live.next = self.ce[b * 16 + p * 4 + k].q.val();
                    }
                }
            }
            for k in 0..4 {
                if (self.ip.q.val() == self.c2[b].val()) & (self.ix.q.val().get_bits::<2>(2) == self.c2[k].val()) {
                    self.iptr0.next = self.iptr[b * 16 + k].q.val();
                }
            }
        }
        self.live.next = self.live.val() & self.issue.val();
        // pixel registers of the issuing slot
        for n in 0..16 {
            self.pr[n].next = 0.into();
        }
        for b in 0..3 {
            for p in 0..4 {
                if (self.ip.q.val() == self.c2[b].val()) & (self.ix.q.val().get_bits::<2>(0) == self.c2[p].val()) {
                    for n in 0..16 {
                        self.pr[n].next = self.regs[b * 64 + p * 16 + n].q.val();
                    }
                }
            }
        }
        // instruction fetch (all-NOP when iptr >= IMEM_DEPTH)
        self.iptr_ok.next = false;
        for w in 0..5 {
            self.iw[w].next = 0.into();
        }
        for e in 0..self._depth {
            if self.iptr0.val() == self.c5[e].val() {
                self.iptr_ok.next = true;
                for w in 0..5 {
                    self.iw[w].next = self.imem[e * 5 + w].q.val();
                }
            }
        }
        // rows present in the issuing group
        self.vmask.next = 1.into();
        for k in 1..4 {
            if self.c2[k].val() <= self.ip_rm1.val() {
                self.vmask.next = self.vmask.val().replace_bit(k, true);
            }
        }
        // decode + §8 checks
        self.enew.next = 0.into();
        for c in 0..7 {
            self.elane[c].next = 0.into();
        }
        for j in 0..4 {
            self.lop[j].next = 0.into();
            self.ldst[j].next = self.k_src_dst_none.val();
            self.lwr[j].next = false;
            self.llose[j].next = false;
        }
        for j in 0..NA {
            self.lop[j].next = self.iw[j].val().get_bits::<4>(0);
            self.ldst[j].next = self.iw[j].val().get_bits::<5>(24);
            if self.iw[j].val().get_bits::<4>(0) == self.k_op_illegal.val() {
                self.lop[j].next = self.k_op_nop.val();
                if !self.enew.val().get_bit(0) {
                    self.elane[0].next = self.c2[j].val();
                }
                self.enew.next = self.enew.val().replace_bit(0, true);
            }
            if (self.iw[j].val().get_bits::<5>(24) >= self.k_src_k0.val()) & (self.iw[j].val().get_bits::<5>(24) != self.k_src_dst_none.val()) {
                self.ldst[j].next = self.k_src_dst_none.val();
                if !self.enew.val().get_bit(1) {
                    self.elane[1].next = self.c2[j].val();
                }
                self.enew.next = self.enew.val().replace_bit(1, true);
            }
            if self.iw[j].val().get_bits::<3>(29).any() {
                if !self.enew.val().get_bit(6) {
                    self.elane[6].next = self.c2[j].val();
                }
                self.enew.next = self.enew.val().replace_bit(6, true);
            }
            self.lwr[j].next = self.lop[j].val().any() & (self.ldst[j].val() != self.k_src_dst_none.val());
            if !self.lwr[j].val() {
                self.ldst[j].next = self.k_src_dst_none.val();
            }
        }
        for j in 0..NA {
            for j2 in 0..NA {
                if j2 > j {
                    if self.lwr[j].val() & self.lwr[j2].val() & (self.ldst[j].val() == self.ldst[j2].val()) {
                        self.llose[j].next = true;
                    }
                }
            }
            if self.llose[j].val() {
                self.ldst[j].next = self.k_src_dst_none.val();
                if !self.enew.val().get_bit(2) {
                    self.elane[2].next = self.c2[j].val();
                }
                self.enew.next = self.enew.val().replace_bit(2, true);
            }
        }
        for j in NA..4 {
            if self.iw[j].val().any() {
                if !self.enew.val().get_bit(6) {
                    self.elane[6].next = self.c2[j].val();
                }
                self.enew.next = self.enew.val().replace_bit(6, true);
            }
        }
        // control word
        self.cxn.next = self.iw[4].val().get_bits::<13>(0);
        if self.iw[4].val().get_bits::<19>(13).any() {
            self.enew.next = self.enew.val().replace_bit(6, true);
        }
        self.csrc_ok.next = false;
        for j in 0..NA {
            if self.iw[4].val().get_bits::<2>(1) == self.c2[j].val() {
                self.csrc_ok.next = true;
            }
        }
        if self.iw[4].val().get_bit(0) {
            if self.iw[4].val().get_bits::<2>(3) == self.k_cxw_fn_illegal.val() {
                self.cxn.next = self.cxn.val().replace_bit(0, false);
                self.enew.next = self.enew.val().replace_bit(3, true);
            }
            if !self.csrc_ok.val() {
                self.cxn.next = self.cxn.val().replace_bit(0, false);
                self.enew.next = self.enew.val().replace_bit(4, true);
            }
            if ((self.iw[4].val().get_bits::<4>(5) | self.iw[4].val().get_bits::<4>(9)) & !self.vmask.val()).any()
                | (self.iw[4].val().get_bits::<4>(5) & self.iw[4].val().get_bits::<4>(9)).any()
            {
                self.enew.next = self.enew.val().replace_bit(5, true);
            }
        }
        // masks: drop slots >= R; overlap uses mask_t only
        for k in 0..4 {
            if !self.vmask.val().get_bit(k) {
                self.cxn.next = self.cxn.val().replace_bit(5 + k, false).replace_bit(9 + k, false);
            }
            if self.cxn.val().get_bit(5 + k) {
                self.cxn.next = self.cxn.val().replace_bit(9 + k, false);
            }
        }
        if !self.iptr_ok.val() {
            self.enew.next = self.enew.val().replace_bit(10, true);
        }
        if !self.issue.val() {
            self.enew.next = 0.into();
        }
        // operand read
        for j in 0..NA {
            for s in 0..4 {
                self.lsrc[j * 4 + s].next = self.iw[j].val().get_bits::<5>(4 + 5 * s);
                self.lval[j * 4 + s].next = 0.into();
                for n in 0..16 {
                    if self.lsrc[j * 4 + s].val() == self.c5[n].val() {
                        self.lval[j * 4 + s].next = self.pr[n].val();
                    }
                }
                for n in 0..8 {
                    if self.lsrc[j * 4 + s].val() == self.c5[16 + n].val() {
                        self.lval[j * 4 + s].next = self.greg[n].q.val();
                    }
                    if self.lsrc[j * 4 + s].val() == self.c5[24 + n].val() {
                        self.lval[j * 4 + s].next = self.kreg[n].q.val() ^ self.kinit[n].val();
                    }
                }
            }
        }

        // ================= bank enables (GATE_SCOPE) =================
        self.en1.next = self.live.val() | (self.issue.val() & (self.scope.val() == self.k_scope_none.val()));
        self.en2.next = self.sh1.q.val().get_bit(1) | (self.sh1.q.val().get_bit(0) & (self.scope.val() != self.k_scope_all.val()));
        self.en3.next = self.sh2.q.val().get_bit(1) | (self.sh2.q.val().get_bit(0) & (self.scope.val() != self.k_scope_all.val()));
        self.we4.next = self.sh3.q.val().get_bit(1);
        // GATE_STYLE = ICG: bank clocks from the clock-gating cells (enable | rst so that reset
        // still reaches the banks); the banks' hold logic stays, so both styles behave the same
        for g in 0..self._icg {
            self.cg[g].clk.next = self.clk.val();
            self.cg[g].en.next = self.en1.val() | self.rst.val();
            self.cg[g].test_en.next = false;
            self.cg[g + 1].clk.next = self.clk.val();
            self.cg[g + 1].en.next = self.en2.val() | self.rst.val();
            self.cg[g + 1].test_en.next = false;
            self.cg[g + 2].clk.next = self.clk.val();
            self.cg[g + 2].en.next = self.en3.val() | self.rst.val();
            self.cg[g + 2].test_en.next = false;
            self.cx1.clock.next = self.cg[g].gclk.val();
            self.cx2.clock.next = self.cg[g + 1].gclk.val();
            self.cx3.clock.next = self.cg[g + 2].gclk.val();
            for j in 0..NA {
                self.lanes[j].clock_s1.next = self.cg[g].gclk.val();
                self.lanes[j].clock_s2.next = self.cg[g + 1].gclk.val();
                self.lanes[j].clock_s3.next = self.cg[g + 2].gclk.val();
            }
        }

        // S1..S3: the lanes' banks; the control word travels with them
        for j in 0..NA {
            self.lanes[j].en_s1.next = self.en1.val();
            self.lanes[j].en_s2.next = self.en2.val();
            self.lanes[j].en_s3.next = self.en3.val();
            self.lanes[j].op.next = self.lop[j].val();
            self.lanes[j].dst.next = self.ldst[j].val();
            self.lanes[j].src_a.next = self.lval[j * 4].val();
            self.lanes[j].src_b.next = self.lval[j * 4 + 1].val();
            self.lanes[j].src_c.next = self.lval[j * 4 + 2].val();
            self.lanes[j].src_d.next = self.lval[j * 4 + 3].val();
        }
        if self.en1.val() {
            self.cx1.d.next = self.cxn.val();
        }
        if self.en2.val() {
            self.cx2.d.next = self.cx1.q.val();
        }
        if self.en3.val() {
            self.cx3.d.next = self.cx2.q.val();
        }

        // ================= S4 write-back (we4 = sh3.live in every scope) =================
        self.nreg_w.next = 0.into();
        self.nce_w.next = 0.into();
        self.cfn_new.next = false;
        self.cval.next = false;
        for j in 0..NA {
            if self.cx3.q.val().get_bits::<2>(1) == self.c2[j].val() {
                self.cval.next = self.lanes[j].result_s3.val().any();
            }
        }
        if self.we4.val() {
            for j in 0..NA {
                if self.lanes[j].dst_s3.val() < self.k_src_k0.val() {
                    self.nreg_w.next = self.nreg_w.val() + 1;
                }
                for n in 0..8 {
                    if self.lanes[j].dst_s3.val() == self.c5[16 + n].val() {
                        self.gwe[n].next = true;
                        self.gwd[n].next = self.lanes[j].result_s3.val();
                    }
                }
            }
            for b in 0..3 {
                for p in 0..4 {
                    if (self.sh3.q.val().get_bits::<2>(2) == self.c2[b].val())
                        & (self.sh3.q.val().get_bits::<2>(4) == self.c2[p].val())
                    {
                        for n in 0..16 {
                            for j in 0..NA {
                                if self.lanes[j].dst_s3.val() == self.c5[n].val() {
                                    self.rwe[b * 64 + p * 16 + n].next = true;
                                    self.rwd[b * 64 + p * 16 + n].next = self.lanes[j].result_s3.val();
                                }
                            }
                        }
                        if self.cx3.q.val().get_bit(0) {
                            for k in 0..4 {
                                if self.cx3.q.val().get_bit(5 + k) | self.cx3.q.val().get_bit(9 + k) {
                                    self.nce_w.next = self.nce_w.val() + 1;
                                    self.cfn_new.next = self.cval.val();
                                    if self.cx3.q.val().get_bit(9 + k) {
                                        self.cfn_new.next = !self.cval.val();
                                    }
                                    // fn 3 never gets here: S1 clears cxw_en (ERR_CXW_FN)
                                    self.cwe[b * 16 + p * 4 + k].next = true;
                                    self.cwd[b * 16 + p * 4 + k].next = self.cfn_new.val();
                                    if self.cx3.q.val().get_bits::<2>(3) == self.k_cxw_fn_and.val() {
                                        self.cwd[b * 16 + p * 4 + k].next =
                                            self.ce[b * 16 + p * 4 + k].q.val() & self.cfn_new.val();
                                    }
                                    if self.cx3.q.val().get_bits::<2>(3) == self.k_cxw_fn_or.val() {
                                        self.cwd[b * 16 + p * 4 + k].next =
                                            self.ce[b * 16 + p * 4 + k].q.val() | self.cfn_new.val();
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }

        // ================= shadow pipe, issue pointer =================
        self.sh3.d.next = self.sh2.q.val();
        self.sh2.d.next = self.sh1.q.val();
        self.sh1.d.next = 0.into();
        self.sh1n.next = 0.into();
        if self.issue.val() {
            self.sh1n.next = bit_cast::<8, 4>(self.ix.q.val()) << 4 | bit_cast::<8, 2>(self.ip.q.val()) << 2;
            self.sh1.d.next = self.sh1n.val().replace_bit(0, true).replace_bit(1, self.live.val());
            if self.ilast.val() {
                self.ix.d.next = 0.into();
                if self.ip.q.val() == 2 {
                    self.ip.d.next = 0.into();
                } else {
                    self.ip.d.next = self.ip.q.val() + 1;
                }
            } else {
                self.ix.d.next = self.ix.q.val() + 1;
            }
            for b in 0..3 {
                if self.ip.q.val() == self.c2[b].val() {
                    if self.ilast.val() {
                        self.bst[b].d.next = self.k_state_done.val();
                    } else {
                        self.bst[b].d.next = self.k_state_run.val();
                    }
                }
            }
        }

        // ================= fill (deserializer) =================
        self.fill.next = self.in_valid.val() & ((self.fp_st.val() == self.k_state_empty.val()) | (self.fp_st.val() == self.k_state_fill.val()));
        self.fill_rm1.next = self.fp_rm1.val();
        if self.fp_n.val() == 0 {
            self.fill_rm1.next = self.in_nrows_m1.val();
        }
        self.flast.next = (self.fp_n.val().get_bits::<2>(2) == self.fill_rm1.val()) & (self.fp_n.val().get_bits::<2>(0) == 3);
        self.fiptr0.next = 0.into();
        for b in 0..3 {
            for k in 0..4 {
                if (self.fp.q.val() == self.c2[b].val()) & (self.fp_n.val().get_bits::<2>(2) == self.c2[k].val()) {
                    self.fiptr0.next = self.iptr[b * 16 + k].q.val();
                }
            }
        }
        self.einfo_fill.next = bit_cast::<32, 8>(self.fp_seq.val()) << 16 | bit_cast::<32, 4>(self.fp_n.val()) << 12;
        if self.fp_n.val() == 0 {
            self.einfo_fill.next = bit_cast::<32, 8>(self.gcount.q.val()) << 16;
        }
        if self.fill.val() {
            if (self.in_pix.val() != self.fp_n.val().get_bits::<2>(0)) | (self.in_row.val() != self.fp_n.val().get_bits::<2>(2)) {
                self.enew.next = self.enew.val().replace_bit(7, true);
            }
            if (self.fp_n.val() != 0) & (self.in_nrows_m1.val() != self.fp_rm1.val()) {
                self.enew.next = self.enew.val().replace_bit(8, true);
            }
            if (self.fp_n.val().get_bits::<2>(0) != 0) & (self.in_iptr.val() != self.fiptr0.val()) {
                self.enew.next = self.enew.val().replace_bit(9, true);
            }
            if self.fp_n.val() == 0 {
                self.gcount.d.next = self.gcount.q.val() + 1;
            }
            if self.flast.val() {
                if self.fp.q.val() == 2 {
                    self.fp.d.next = 0.into();
                } else {
                    self.fp.d.next = self.fp.q.val() + 1;
                }
            }
            for b in 0..3 {
                if self.fp.q.val() == self.c2[b].val() {
                    if self.fp_n.val() == 0 {
                        self.brm1[b].d.next = self.in_nrows_m1.val();
                        self.bseq[b].d.next = self.gcount.q.val();
                    }
                    if self.flast.val() {
                        self.bst[b].d.next = self.k_state_full.val();
                        self.bn[b].d.next = 0.into();
                    } else {
                        self.bst[b].d.next = self.k_state_fill.val();
                        self.bn[b].d.next = self.fp_n.val() + 1;
                    }
                    for p in 0..4 {
                        for k in 0..4 {
                            if self.fp_n.val() == self.c4[k * 4 + p].val() {
                                self.cwe[b * 16 + p * 4 + k].next = true;
                                self.cwd[b * 16 + p * 4 + k].next = self.in_ce.val();
                                self.iptr[b * 16 + p * 4 + k].d.next = self.in_iptr.val();
                                self.tag[b * 16 + p * 4 + k].d.next = self.in_tag.val();
                                for f in 0..4 {
                                    self.rwe[b * 64 + p * 16 + k * 4 + f].next = true;
                                    self.rwd[b * 64 + p * 16 + k * 4 + f].next = self.in_data.val().get_bits::<32>(f * 32);
                                }
                            }
                        }
                        for k in 1..4 {
                            if self.flast.val() & (self.c2[k].val() > self.fill_rm1.val()) {
                                for f in 0..4 {
                                    self.rwe[b * 64 + p * 16 + k * 4 + f].next = true;
                                    self.rwd[b * 64 + p * 16 + k * 4 + f].next = 0.into();
                                }
                            }
                        }
                    }
                }
            }
        }

        // ================= drain (serializer) =================
        self.ovalid.next = (self.dp_st.val() == self.k_state_done.val()) | (self.dp_st.val() == self.k_state_drain.val());
        self.drain.next = self.ovalid.val() & self.out_ready.val();
        self.dlast.next = (self.dp_n.val().get_bits::<2>(2) == self.dp_rm1.val()) & (self.dp_n.val().get_bits::<2>(0) == 3);
        self.out_data.next = 0.into();
        for f in 0..4 {
            self.ow[f].next = 0.into();
        }
        self.out_ce.next = false;
        self.out_iptr.next = 0.into();
        self.out_tag.next = 0.into();
        self.out_pix.next = 0.into();
        self.out_row.next = 0.into();
        self.out_nrows_m1.next = 0.into();
        if self.ovalid.val() {
            self.out_pix.next = self.dp_n.val().get_bits::<2>(0);
            self.out_row.next = self.dp_n.val().get_bits::<2>(2);
            self.out_nrows_m1.next = self.dp_rm1.val();
            for b in 0..3 {
                for p in 0..4 {
                    for k in 0..4 {
                        if (self.dp.q.val() == self.c2[b].val()) & (self.dp_n.val() == self.c4[k * 4 + p].val()) {
                            self.out_ce.next = self.ce[b * 16 + p * 4 + k].q.val();
                            self.out_iptr.next = self.iptr[b * 16 + p * 4 + k].q.val();
                            self.out_tag.next = self.tag[b * 16 + p * 4 + k].q.val();
                            for f in 0..4 {
                                self.ow[f].next = self.regs[b * 64 + p * 16 + k * 4 + f].q.val();
                            }
                        }
                    }
                }
            }
            self.out_data.next = bit_cast::<128, 32>(self.ow[0].val())
                | bit_cast::<128, 32>(self.ow[1].val()) << 32
                | bit_cast::<128, 32>(self.ow[2].val()) << 64
                | bit_cast::<128, 32>(self.ow[3].val()) << 96;
        }
        if self.drain.val() {
            if self.dlast.val() {
                if self.dp.q.val() == 2 {
                    self.dp.d.next = 0.into();
                } else {
                    self.dp.d.next = self.dp.q.val() + 1;
                }
            }
            for b in 0..3 {
                if self.dp.q.val() == self.c2[b].val() {
                    if self.dlast.val() {
                        self.bst[b].d.next = self.k_state_empty.val();
                        self.bn[b].d.next = 0.into();
                    } else {
                        self.bst[b].d.next = self.k_state_drain.val();
                        self.bn[b].d.next = self.dp_n.val() + 1;
                    }
                }
            }
        }

        // ================= config bus =================
        self.cfg_imem.next = false;
        self.cfg_gk.next = self.cfg_addr.val().get_bits::<5>(4) == 0x10;
        self.cfg_ctrl.next = self.cfg_addr.val() == 0x110;
        self.cfg_rv.next = 0.into();
        for i in 0..(self._depth * 5) {
            if self.cfg_addr.val() == self.ca9[i].val() {
                self.cfg_imem.next = true;
                self.cfg_rv.next = self.imem[i].q.val();
                if self.cfg_we.val() & !self.busy_l.val() {
                    self.imem[i].d.next = self.cfg_wdata.val();
                }
            }
        }
        for n in 0..8 {
            if self.cfg_addr.val() == self.cgk9[n].val() {
                self.cfg_rv.next = self.greg[n].q.val();
                if self.cfg_we.val() & !self.busy_l.val() {
                    self.gwe[n].next = true;
                    self.gwd[n].next = self.cfg_wdata.val();
                }
            }
            if self.cfg_addr.val() == self.cgk9[8 + n].val() {
                self.cfg_rv.next = self.kreg[n].q.val() ^ self.kinit[n].val();
                if self.cfg_we.val() & !self.busy_l.val() {
                    self.kreg[n].d.next = self.cfg_wdata.val() ^ self.kinit[n].val();
                }
            }
        }
        if self.cfg_we.val() & self.busy_l.val() & (self.cfg_imem.val() | self.cfg_gk.val()) {
            self.enew.next = self.enew.val().replace_bit(11, true);
        }
        if (self.cfg_we.val() | self.cfg_re.val()) & !(self.cfg_imem.val() | self.cfg_gk.val() | self.cfg_ctrl.val()) {
            self.enew.next = self.enew.val().replace_bit(12, true);
        }
        self.clr_cnt.next = self.cfg_we.val() & self.cfg_ctrl.val() & self.cfg_wdata.val().get_bit(0);
        self.clr_err.next = self.cfg_we.val() & self.cfg_ctrl.val() & self.cfg_wdata.val().get_bit(1);
        self.rvalid.d.next = self.cfg_re.val();
        self.rdata.d.next = 0.into();
        if self.cfg_re.val() {
            self.rdata.d.next = self.cfg_rv.val();
        }

        // ================= counters =================
        self.counters.clock.next = self.clk.val();
        self.counters.rst.next = self.rst.val();
        self.counters.clear.next = self.clr_cnt.val();
        self.counters.en_s1.next = self.en1.val();
        self.counters.en_s2.next = self.en2.val();
        self.counters.en_s3.next = self.en3.val();
        self.counters.we_s4.next = self.we4.val();
        self.counters.issue.next = self.issue.val();
        self.counters.live.next = self.live.val();
        self.counters.reg_writes_add.next = self.nreg_w.val();
        self.counters.ce_writes_add.next = self.nce_w.val();
        self.counters.group_done.next = self.drain.val() & self.dlast.val();
        for s in 0..3 {
            self.tsum[s].next = 0.into();
        }
        for j in 0..NA {
            self.tsum[0].next = self.tsum[0].val() + self.lanes[j].toggles_s1.val();
            self.tsum[1].next = self.tsum[1].val() + self.lanes[j].toggles_s2.val();
            self.tsum[2].next = self.tsum[2].val() + self.lanes[j].toggles_s3.val();
        }
        self.counters.toggles_s1.next = self.tsum[0].val();
        self.counters.toggles_s2.next = self.tsum[1].val();
        self.counters.toggles_s3.next = self.tsum[2].val();

        // ================= errors =================
        self.einfo_iss.next = bit_cast::<32, 8>(self.ip_seq.val()) << 16 | bit_cast::<32, 4>(self.ix.q.val()) << 12;
        self.elanes.next = 0.into();
        for c in 0..7 {
            self.elanes.next = self.elanes.val().replace_bit(2 * c, self.elane[c].val().get_bit(0)).replace_bit(2 * c + 1, self.elane[c].val().get_bit(1));
        }
        self.errors.clock.next = self.clk.val();
        self.errors.rst.next = self.rst.val();
        self.errors.clear.next = self.clr_err.val();
        self.errors.new_errors.next = self.enew.val();
        self.errors.lanes.next = self.elanes.val();
        self.errors.info_issue.next = self.einfo_iss.val();
        self.errors.info_fill.next = self.einfo_fill.val();

        // ================= one write per buffer register, CE bit and G =================
        for i in 0..192 {
            if self.rwe[i].val() {
                self.regs[i].d.next = self.rwd[i].val();
            }
        }
        for i in 0..48 {
            if self.cwe[i].val() {
                self.ce[i].d.next = self.cwd[i].val();
            }
        }
        for i in 0..8 {
            if self.gwe[i].val() {
                self.greg[i].d.next = self.gwd[i].val();
            }
        }

        // ================= Moore outputs =================
        self.in_ready.next = (self.fp_st.val() == self.k_state_empty.val()) | (self.fp_st.val() == self.k_state_fill.val());
        self.out_valid.next = self.ovalid.val();
        self.cfg_rvalid.next = self.rvalid.q.val();
        self.cfg_rdata.next = self.rdata.q.val();
        self.busy.next = self.busy_l.val();
        self.act_s1.next = self.counters.act_s1.val();
        self.act_s2.next = self.counters.act_s2.val();
        self.act_s3.next = self.counters.act_s3.val();
        self.act_s4.next = self.counters.act_s4.val();
        self.slots_issued.next = self.counters.slots_issued.val();
        self.slots_skipped.next = self.counters.slots_skipped.val();
        self.reg_writes.next = self.counters.reg_writes.val();
        self.ce_writes.next = self.counters.ce_writes.val();
        self.groups_done.next = self.counters.groups_done.val();
        self.tog_s1.next = self.counters.tog_s1.val();
        self.tog_s2.next = self.counters.tog_s2.val();
        self.tog_s3.next = self.counters.tog_s3.val();
        self.dbg_en.next = 0.into();
        self.dbg_en.next = self.dbg_en.val().replace_bit(0, self.en1.val()).replace_bit(1, self.en2.val()).replace_bit(2, self.en3.val()).replace_bit(3, self.we4.val());
        self.dbg_issue.next = self.issue.val();
        self.dbg_issue_pk.next = 0.into();
        if self.issue.val() {
            self.dbg_issue_pk.next = self.ix.q.val();
        }
        self.err_sticky.next = self.errors.err_sticky.val();
        self.err_first.next = self.errors.err_first.val();
        self.err_any.next = self.errors.err_any.val();
    }
}

