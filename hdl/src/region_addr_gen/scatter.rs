//! RFS `eu_region_scatter`: the destination scatter unit of spec §6.6.
//!
//! Byte lanes l = 4·i + k as in the RFG; a lane is live iff `ch_valid[i] ∧ res_mask[i] ∧ k < E`.
//! Each cycle WR_PORTS+1 chained minimum searches over the live, unwritten lanes pick the
//! registers of this pass (ascending over ports) and tell whether another pass follows. Pass 0
//! is issued combinationally in the accept cycle c0 from the `rag_*`/`res_*` inputs; pass j in
//! c0+j. Port q writes `wr_reg[q]` with byte enables of its lanes' columns and their result
//! bytes (other bytes 0). `wr_done` (with `wr_err`, `wr_warn`, `wr_tag`) pulses in the cycle of
//! the last pass, c0+P_w−1 (c0 when there is nothing to write). Any error (rag_err, E_SPAN): no
//! writes, `wr_done` in c0 with `wr_err`. `rag_ready = !busy`.

use super::{Config, ERR_W, RAW_W, TAG_W, WARN_W};
use crate::prims::RDff;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct Rfs<
    const NMAX: usize,
    const RNW: usize,
    const RBW: usize,
    const AW: usize,
    const ADDRW: usize,
    const WRP: usize,
    const WRRW: usize,
    const BEW: usize,
    const WDW: usize,
    const OPW: usize,
> {
    pub clk: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub rag_valid: Signal<In, Bit>,
    pub rag_ready: Signal<Out, Bit>,
    pub rag_addr: Signal<In, Bits<ADDRW>>,
    pub rag_esize_log2: Signal<In, Bits<2>>,
    pub rag_ch_valid: Signal<In, Bits<NMAX>>,
    pub rag_straddle: Signal<In, Bits<NMAX>>,
    pub rag_err: Signal<In, Bits<ERR_W>>,
    pub rag_warn: Signal<In, Bits<WARN_W>>,
    pub rag_tag: Signal<In, Bits<TAG_W>>,
    pub res_data: Signal<In, Bits<OPW>>,
    pub res_mask: Signal<In, Bits<NMAX>>,
    pub wr_en: Signal<Out, Bits<WRP>>,
    pub wr_reg: Signal<Out, Bits<WRRW>>,
    pub wr_be: Signal<Out, Bits<BEW>>,
    pub wr_data: Signal<Out, Bits<WDW>>,
    pub wr_done: Signal<Out, Bit>,
    pub wr_err: Signal<Out, Bits<ERR_W>>,
    pub wr_warn: Signal<Out, Bits<WARN_W>>,
    pub wr_tag: Signal<Out, Bits<TAG_W>>,
    k_lslot: Vec<Constant<Bits<RAW_W>>>,
    k_lk: Vec<Constant<Bits<RAW_W>>>,
    k_lch: Vec<Constant<Bits<RAW_W>>>,
    k_lbpos: Vec<Constant<Bits<RAW_W>>>,
    k_qrb: Vec<Constant<Bits<RAW_W>>>,
    k_ff8: Constant<Bits<8>>,
    k_one_be: Constant<Bits<BEW>>,
    k_three: Constant<Bits<RAW_W>>,
    k_qrn: Vec<Constant<Bits<RAW_W>>>,
    k_amask: Constant<Bits<RAW_W>>,
    k_rf: Constant<Bits<RAW_W>>,
    k_cmask: Constant<Bits<RAW_W>>,
    k_rbw: Constant<Bits<RAW_W>>,
    k_one: Constant<Bits<RAW_W>>,
    k_ffff: Constant<Bits<RAW_W>>,
    k_span: Constant<Bit>,
    r_busy: RDff<Bit>,
    r_addr: RDff<Bits<ADDRW>>,
    r_es: RDff<Bits<2>>,
    r_live: RDff<Bits<NMAX>>,
    r_res: RDff<Bits<OPW>>,
    r_warn: RDff<Bits<WARN_W>>,
    r_tag: RDff<Bits<TAG_W>>,
    r_served: RDff<Bits<64>>,
    accept: Signal<Local, Bit>,
    c_addr: Signal<Local, Bits<ADDRW>>,
    c_es: Signal<Local, Bits<2>>,
    c_live: Signal<Local, Bits<NMAX>>,
    c_res: Signal<Local, Bits<OPW>>,
    c_warn: Signal<Local, Bits<WARN_W>>,
    c_tag: Signal<Local, Bits<TAG_W>>,
    c_served: Signal<Local, Bits<64>>,
    e16: Signal<Local, Bits<RAW_W>>,
    wide: Signal<Local, Bits<ADDRW>>,
    chs: Signal<Local, Bits<NMAX>>,
    lb: Vec<Signal<Local, Bits<RAW_W>>>,
    lreg: Vec<Signal<Local, Bits<RAW_W>>>,
    lcol: Vec<Signal<Local, Bits<RAW_W>>>,
    lv: Vec<Signal<Local, Bit>>,
    lo: Vec<Signal<Local, Bits<RAW_W>>>,
    mn: Vec<Signal<Local, Bits<RAW_W>>>,
    fnd: Vec<Signal<Local, Bit>>,
    more: Signal<Local, Bit>,
    err_in: Signal<Local, Bits<ERR_W>>,
    bad: Signal<Local, Bit>,
    issue: Signal<Local, Bit>,
    done: Signal<Local, Bit>,
    en: Signal<Local, Bits<WRP>>,
    regs: Signal<Local, Bits<WRRW>>,
    be: Signal<Local, Bits<BEW>>,
    wdata: Signal<Local, Bits<WDW>>,
    served_new: Signal<Local, Bits<64>>,
    tmpr: Signal<Local, Bits<RAW_W>>,
    lw: Vec<Signal<Local, Bit>>,
    lpos: Vec<Signal<Local, Bits<RAW_W>>>,
    wbyte: Signal<Local, Bits<8>>,
    wmask: Signal<Local, Bits<8>>,
    bmask: Signal<Local, Bits<BEW>>,
    _nl: usize,
}

impl<
        const NMAX: usize,
        const RNW: usize,
        const RBW: usize,
        const AW: usize,
        const ADDRW: usize,
        const WRP: usize,
        const WRRW: usize,
        const BEW: usize,
        const WDW: usize,
        const OPW: usize,
    > Rfs<NMAX, RNW, RBW, AW, ADDRW, WRP, WRRW, BEW, WDW, OPW>
{
    pub fn new(cfg: &Config) -> Self {
        assert_eq!(NMAX as u32, cfg.n_max);
        assert_eq!((RNW, RBW, AW, ADDRW), (cfg.rn_w(), cfg.rb_w(), cfg.a_w(), NMAX * cfg.a_w()));
        assert_eq!(WRP as u32, cfg.wr_ports);
        let rb = cfg.reg_bytes as usize;
        assert_eq!((WRRW, BEW, WDW, OPW), (WRP * RNW, WRP * rb, WRP * rb * 8, NMAX * 32));
        assert!(NMAX * 4 <= 64);
        let nl = NMAX * 4;
        let c = |v: usize| Constant::new((v as u64).to_bits());
        Rfs {
            clk: Default::default(),
            rst: Default::default(),
            rag_valid: Default::default(),
            rag_ready: Default::default(),
            rag_addr: Default::default(),
            rag_esize_log2: Default::default(),
            rag_ch_valid: Default::default(),
            rag_straddle: Default::default(),
            rag_err: Default::default(),
            rag_warn: Default::default(),
            rag_tag: Default::default(),
            res_data: Default::default(),
            res_mask: Default::default(),
            wr_en: Default::default(),
            wr_reg: Default::default(),
            wr_be: Default::default(),
            wr_data: Default::default(),
            wr_done: Default::default(),
            wr_err: Default::default(),
            wr_warn: Default::default(),
            wr_tag: Default::default(),
            k_lslot: (0..nl).map(|l| c(AW * (l / 4))).collect(),
            k_lk: (0..nl).map(|l| c(l % 4)).collect(),
            k_lch: (0..nl).map(|l| c(l / 4)).collect(),
            k_lbpos: (0..nl).map(|l| c(8 * l)).collect(),
            k_qrb: (0..WRP).map(|q| c(q * rb)).collect(),
            k_ff8: Constant::new(0xFFu64.to_bits()),
            k_one_be: Constant::new(1u64.to_bits()),
            k_three: c(3),
            k_qrn: (0..WRP).map(|q| c(q * RNW)).collect(),
            k_amask: c((1 << AW) - 1),
            k_rf: c(cfg.rf_bytes() as usize),
            k_cmask: c(rb - 1),
            k_rbw: c(RBW),
            k_one: c(1),
            k_ffff: c(0xFFFF),
            k_span: Constant::new(cfg.span_limit_1pass),
            r_busy: Default::default(),
            r_addr: Default::default(),
            r_es: Default::default(),
            r_live: Default::default(),
            r_res: Default::default(),
            r_warn: Default::default(),
            r_tag: Default::default(),
            r_served: Default::default(),
            accept: Default::default(),
            c_addr: Default::default(),
            c_es: Default::default(),
            c_live: Default::default(),
            c_res: Default::default(),
            c_warn: Default::default(),
            c_tag: Default::default(),
            c_served: Default::default(),
            e16: Default::default(),
            wide: Default::default(),
            chs: Default::default(),
            lb: (0..nl).map(|_| Default::default()).collect(),
            lreg: (0..nl).map(|_| Default::default()).collect(),
            lcol: (0..nl).map(|_| Default::default()).collect(),
            lv: (0..nl).map(|_| Default::default()).collect(),
            lo: (0..WRP + 1).map(|_| Default::default()).collect(),
            mn: (0..WRP + 1).map(|_| Default::default()).collect(),
            fnd: (0..WRP + 1).map(|_| Default::default()).collect(),
            more: Default::default(),
            err_in: Default::default(),
            bad: Default::default(),
            issue: Default::default(),
            done: Default::default(),
            en: Default::default(),
            regs: Default::default(),
            be: Default::default(),
            wdata: Default::default(),
            served_new: Default::default(),
            tmpr: Default::default(),
            lw: (0..nl).map(|_| Default::default()).collect(),
            lpos: (0..nl).map(|_| Default::default()).collect(),
            wbyte: Default::default(),
            wmask: Default::default(),
            bmask: Default::default(),
            _nl: nl,
        }
    }
}

impl<
        const NMAX: usize,
        const RNW: usize,
        const RBW: usize,
        const AW: usize,
        const ADDRW: usize,
        const WRP: usize,
        const WRRW: usize,
        const BEW: usize,
        const WDW: usize,
        const OPW: usize,
    > Logic for Rfs<NMAX, RNW, RBW, AW, ADDRW, WRP, WRRW, BEW, WDW, OPW>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clk, r_busy, r_addr, r_es, r_live, r_res, r_warn, r_tag, r_served);
        // Reset inside each RDff (synchronous): the next-state logic below never reads `rst`.
        self.r_busy.rst.next = self.rst.val();
        self.r_addr.rst.next = self.rst.val();
        self.r_es.rst.next = self.rst.val();
        self.r_live.rst.next = self.rst.val();
        self.r_res.rst.next = self.rst.val();
        self.r_warn.rst.next = self.rst.val();
        self.r_tag.rst.next = self.rst.val();
        self.r_served.rst.next = self.rst.val();
        self.rag_ready.next = !self.r_busy.q.val();
        self.accept.next = self.rag_valid.val() & !self.r_busy.q.val();
        self.c_addr.next = self.r_addr.q.val();
        self.c_es.next = self.r_es.q.val();
        self.c_live.next = self.r_live.q.val();
        self.c_res.next = self.r_res.q.val();
        self.c_warn.next = self.r_warn.q.val();
        self.c_tag.next = self.r_tag.q.val();
        self.c_served.next = self.r_served.q.val();
        if self.accept.val() {
            self.c_addr.next = self.rag_addr.val();
            self.c_es.next = self.rag_esize_log2.val();
            self.c_live.next = self.rag_ch_valid.val() & self.res_mask.val();
            self.c_res.next = self.res_data.val();
            self.c_warn.next = self.rag_warn.val();
            self.c_tag.next = self.rag_tag.val();
            self.c_served.next = 0.into();
        }
        self.e16.next = self.k_one.val() << self.c_es.val();
        for l in 0..self._nl {
            self.wide.next = self.c_addr.val() >> self.k_lslot[l].val();
            // (addr(i) + k) mod RF: addr(i) < RF and k < 4 < RF, so one conditional subtraction.
            self.lb[l].next = (bit_cast::<RAW_W, ADDRW>(self.wide.val()) & self.k_amask.val()) + self.k_lk[l].val();
            if self.lb[l].val() >= self.k_rf.val() {
                self.lb[l].next = self.lb[l].val() - self.k_rf.val();
            }
            self.lreg[l].next = self.lb[l].val() >> self.k_rbw.val();
            self.lcol[l].next = self.lb[l].val() & self.k_cmask.val();
            self.chs.next = self.c_live.val() >> self.k_lch[l].val();
            self.lv[l].next = self.chs.val().get_bit(0)
                & (self.k_lk[l].val() < self.e16.val())
                & !self.c_served.val().get_bit(l);
        }
        self.lo[0].next = 0.into();
        for p in 0..WRP {
            self.mn[p].next = self.k_ffff.val();
            self.fnd[p].next = false;
            for l in 0..self._nl {
                if self.lv[l].val() & (self.lreg[l].val() >= self.lo[p].val()) & (self.lreg[l].val() < self.mn[p].val()) {
                    self.mn[p].next = self.lreg[l].val();
                    self.fnd[p].next = true;
                }
            }
            self.lo[p + 1].next = self.k_ffff.val();
            if self.fnd[p].val() {
                self.lo[p + 1].next = self.mn[p].val() + 1;
            }
        }
        // The last search only answers "more registers left?": it needs no next bound.
        for p in WRP..(WRP + 1) {
            self.mn[p].next = self.k_ffff.val();
            self.fnd[p].next = false;
            for l in 0..self._nl {
                if self.lv[l].val() & (self.lreg[l].val() >= self.lo[p].val()) & (self.lreg[l].val() < self.mn[p].val()) {
                    self.mn[p].next = self.lreg[l].val();
                    self.fnd[p].next = true;
                }
            }
        }
        for p in WRP..(WRP + 1) {
            self.more.next = self.fnd[p].val();
        }
        self.err_in.next = self.rag_err.val();
        self.err_in.next = self.err_in.val().replace_bit(10, self.k_span.val() & self.more.val());
        self.bad.next = self.accept.val() & self.err_in.val().any();
        self.issue.next = (self.accept.val() & !self.bad.val()) | self.r_busy.q.val();
        self.done.next = self.bad.val() | (self.issue.val() & !self.more.val());
        // ---- write ports ----
        self.en.next = 0.into();
        self.regs.next = 0.into();
        self.be.next = 0.into();
        self.wdata.next = 0.into();
        self.wbyte.next = 0.into();
        self.wmask.next = 0.into();
        self.bmask.next = 0.into();
        self.served_new.next = self.c_served.val();
        for l in 0..self._nl {
            self.lw[l].next = false;
            self.lpos[l].next = 0.into();
        }
        for q in 0..WRP {
            self.tmpr.next = self.mn[q].val();
            if self.issue.val() & self.fnd[q].val() {
                self.en.next = self.en.val().replace_bit(q, true);
                self.regs.next = self.regs.val() | (bit_cast::<WRRW, RAW_W>(self.tmpr.val()) << self.k_qrn[q].val());
                for l in 0..self._nl {
                    if self.lv[l].val() & (self.lreg[l].val() == self.mn[q].val()) {
                        self.served_new.next = self.served_new.val().replace_bit(l, true);
                        self.lw[l].next = true;
                        self.lpos[l].next = self.k_qrb[q].val() + self.lcol[l].val();
                    }
                }
            }
        }
        // Each written lane ORs its result byte and byte enable into the port's packed wr_data /
        // wr_be at its (port, column) position. The shifts' results are always used and only
        // their narrow inputs are masked: with the wide shift inside an `if` per lane, yosys'
        // share pass (SAT on every pair of shifts) ran past 15 min at RF 32 B x 128.
        for l in 0..self._nl {
            self.wmask.next = 0.into();
            self.bmask.next = 0.into();
            if self.lw[l].val() {
                self.wmask.next = self.k_ff8.val();
                self.bmask.next = self.k_one_be.val();
            }
            self.wbyte.next = self.c_res.val().get_bits::<8>(self.k_lbpos[l].val().index()) & self.wmask.val();
            self.be.next = self.be.val() | (self.bmask.val() << self.lpos[l].val());
            self.wdata.next = self.wdata.val() | (bit_cast::<WDW, 8>(self.wbyte.val()) << (self.lpos[l].val() << self.k_three.val()));
        }
        self.wr_en.next = self.en.val();
        self.wr_reg.next = self.regs.val();
        self.wr_be.next = self.be.val();
        self.wr_data.next = self.wdata.val();
        self.wr_done.next = self.done.val();
        self.wr_err.next = 0.into();
        self.wr_warn.next = 0.into();
        self.wr_tag.next = 0.into();
        if self.done.val() {
            self.wr_warn.next = self.c_warn.val();
            self.wr_tag.next = self.c_tag.val();
        }
        if self.bad.val() {
            self.wr_err.next = self.err_in.val();
        }
        // ---- state ----
        if self.accept.val() {
            self.r_addr.d.next = self.rag_addr.val();
            self.r_es.d.next = self.rag_esize_log2.val();
            self.r_live.d.next = self.rag_ch_valid.val() & self.res_mask.val();
            self.r_res.d.next = self.res_data.val();
            self.r_tag.d.next = self.rag_tag.val();
            self.r_warn.d.next = self.rag_warn.val().replace_bit(3, self.more.val());
        }
        if self.issue.val() {
            self.r_served.d.next = self.served_new.val();
            self.r_busy.d.next = self.more.val();
        } else {
            self.r_busy.d.next = false;
        }
    }
}
