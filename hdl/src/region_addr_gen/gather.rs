//! RFG `eu_region_gather`: the register-file gather unit of spec §6.5.
//!
//! Byte lanes l = 4·i + k (channel i, byte k). A lane is live iff `ch_valid[i] ∧ k < E`; its byte
//! address is `(addr(i) + k) mod RF` (one conditional subtraction of RF), its register `b >> RB_W`,
//! its column `b mod RB`. Each issue cycle ("pass") runs RD_PORTS+1 chained minimum searches over
//! the live, unserved lanes: search p finds the smallest register strictly above the result of
//! search p-1. Searches 0..RD_PORTS-1 drive the read ports (ascending); search RD_PORTS says
//! whether another pass is needed. Pass 0 is issued combinationally in the accept cycle c0 from
//! the `rag_*` inputs; later passes from the held descriptor. Each issued (port, register) goes
//! down a 3-deep pipeline; stage L_RF-1 is the cycle the RF answers, and every live lane whose
//! register matches an arriving port captures `rd_data[p][8·col +: 8]`. When the last pass
//! arrives, `opnd_valid` rises in the next cycle (c0 + P + L_RF). Any error (rag_err or E_SPAN):
//! no `rd_en`, `opnd_valid` in c0 + 1. Every `opnd_*` output is 0 while `opnd_valid = 0`.

use super::{Config, ERR_W, RAW_W, TAG_W, WARN_W};
use crate::prims::RDff;
use rust_hdl::prelude::*;

/// Packed width of the per-stage register numbers (16 bits per port, up to 4 ports).
pub const PREG_W: usize = 64;
/// Depth of the request pipeline (largest L_RF).
pub const PIPE: usize = 3;

#[derive(LogicBlock)]
pub struct Rfg<
    const NMAX: usize,
    const RNW: usize,
    const RBW: usize,
    const AW: usize,
    const ADDRW: usize,
    const RDP: usize,
    const RDRW: usize,
    const RDW: usize,
    const OPW: usize,
    const PW: usize,
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
    pub rd_en: Signal<Out, Bits<RDP>>,
    pub rd_reg: Signal<Out, Bits<RDRW>>,
    pub rd_data: Signal<In, Bits<RDW>>,
    pub opnd_valid: Signal<Out, Bit>,
    pub opnd_ready: Signal<In, Bit>,
    pub opnd_data: Signal<Out, Bits<OPW>>,
    pub opnd_ch_valid: Signal<Out, Bits<NMAX>>,
    pub opnd_err: Signal<Out, Bits<ERR_W>>,
    pub opnd_warn: Signal<Out, Bits<WARN_W>>,
    pub opnd_passes: Signal<Out, Bits<PW>>,
    pub opnd_tag: Signal<Out, Bits<TAG_W>>,
    // constants
    k_lslot: Vec<Constant<Bits<RAW_W>>>,
    k_lk: Vec<Constant<Bits<RAW_W>>>,
    k_lch: Vec<Constant<Bits<RAW_W>>>,
    k_lbpos: Vec<Constant<Bits<RAW_W>>>,
    k_poff: Vec<Constant<Bits<RAW_W>>>,
    k_p16: Vec<Constant<Bits<RAW_W>>>,
    k_prn: Vec<Constant<Bits<RAW_W>>>,
    k_amask: Constant<Bits<RAW_W>>,
    k_rf: Constant<Bits<RAW_W>>,
    k_cmask: Constant<Bits<RAW_W>>,
    k_rbw: Constant<Bits<RAW_W>>,
    k_one: Constant<Bits<RAW_W>>,
    k_ffff: Constant<Bits<RAW_W>>,
    k_three: Constant<Bits<RAW_W>>,
    k_ff8: Constant<Bits<8>>,
    k_span: Constant<Bit>,
    // state
    r_busy: RDff<Bit>,
    r_iss: RDff<Bit>,
    r_ovalid: RDff<Bit>,
    r_addr: RDff<Bits<ADDRW>>,
    r_es: RDff<Bits<2>>,
    r_chv: RDff<Bits<NMAX>>,
    r_err: RDff<Bits<ERR_W>>,
    r_warn: RDff<Bits<WARN_W>>,
    r_tag: RDff<Bits<TAG_W>>,
    r_passes: RDff<Bits<PW>>,
    r_served: RDff<Bits<64>>,
    r_data: RDff<Bits<OPW>>,
    st_en: Vec<RDff<Bits<RDP>>>,
    st_reg: Vec<RDff<Bits<PREG_W>>>,
    st_last: Vec<RDff<Bit>>,
    // combinational temporaries
    accept: Signal<Local, Bit>,
    c_addr: Signal<Local, Bits<ADDRW>>,
    c_es: Signal<Local, Bits<2>>,
    c_chv: Signal<Local, Bits<NMAX>>,
    c_served: Signal<Local, Bits<64>>,
    e16: Signal<Local, Bits<RAW_W>>,
    wide: Signal<Local, Bits<ADDRW>>,
    chs: Signal<Local, Bits<NMAX>>,
    lb: Vec<Signal<Local, Bits<RAW_W>>>,
    lreg: Vec<Signal<Local, Bits<RAW_W>>>,
    lcol8: Vec<Signal<Local, Bits<RAW_W>>>,
    lon: Vec<Signal<Local, Bit>>,
    lv: Vec<Signal<Local, Bit>>,
    lo: Vec<Signal<Local, Bits<RAW_W>>>,
    mn: Vec<Signal<Local, Bits<RAW_W>>>,
    fnd: Vec<Signal<Local, Bit>>,
    more: Signal<Local, Bit>,
    err_in: Signal<Local, Bits<ERR_W>>,
    bad: Signal<Local, Bit>,
    issue: Signal<Local, Bit>,
    iss_en: Signal<Local, Bits<RDP>>,
    iss_reg: Signal<Local, Bits<PREG_W>>,
    rdreg: Signal<Local, Bits<RDRW>>,
    served_new: Signal<Local, Bits<64>>,
    tmpr: Signal<Local, Bits<RAW_W>>,
    a_en: Signal<Local, Bits<RDP>>,
    a_regs: Signal<Local, Bits<PREG_W>>,
    a_last: Signal<Local, Bit>,
    w64: Signal<Local, Bits<PREG_W>>,
    a_reg: Vec<Signal<Local, Bits<RAW_W>>>,
    cap_hit: Signal<Local, Bit>,
    cap_pos: Signal<Local, Bits<RAW_W>>,
    cap_mask: Signal<Local, Bits<8>>,
    cap_byte: Signal<Local, Bits<8>>,
    data: Signal<Local, Bits<OPW>>,
    _nl: usize,
    _lrf: usize,
}

impl<
        const NMAX: usize,
        const RNW: usize,
        const RBW: usize,
        const AW: usize,
        const ADDRW: usize,
        const RDP: usize,
        const RDRW: usize,
        const RDW: usize,
        const OPW: usize,
        const PW: usize,
    > Rfg<NMAX, RNW, RBW, AW, ADDRW, RDP, RDRW, RDW, OPW, PW>
{
    pub fn new(cfg: &Config) -> Self {
        assert_eq!(NMAX as u32, cfg.n_max);
        assert_eq!((RNW, RBW, AW, ADDRW), (cfg.rn_w(), cfg.rb_w(), cfg.a_w(), NMAX * cfg.a_w()));
        assert_eq!(RDP as u32, cfg.rd_ports);
        assert_eq!((RDRW, RDW, OPW), (RDP * RNW, RDP * cfg.reg_bytes as usize * 8, NMAX * 32));
        assert_eq!(PW as u32, super::ceil_log2(2 * cfg.n_max / cfg.rd_ports + 1));
        assert!(NMAX * 4 <= 64 && RDP <= 4 && (1..=PIPE as u32).contains(&cfg.l_rf));
        let nl = NMAX * 4;
        let c = |v: usize| Constant::new((v as u64).to_bits());
        Rfg {
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
            rd_en: Default::default(),
            rd_reg: Default::default(),
            rd_data: Default::default(),
            opnd_valid: Default::default(),
            opnd_ready: Default::default(),
            opnd_data: Default::default(),
            opnd_ch_valid: Default::default(),
            opnd_err: Default::default(),
            opnd_warn: Default::default(),
            opnd_passes: Default::default(),
            opnd_tag: Default::default(),
            k_lslot: (0..nl).map(|l| c(AW * (l / 4))).collect(),
            k_lk: (0..nl).map(|l| c(l % 4)).collect(),
            k_lch: (0..nl).map(|l| c(l / 4)).collect(),
            k_lbpos: (0..nl).map(|l| c(8 * l)).collect(),
            k_poff: (0..RDP).map(|p| c(p * cfg.reg_bytes as usize * 8)).collect(),
            k_p16: (0..RDP).map(|p| c(16 * p)).collect(),
            k_prn: (0..RDP).map(|p| c(RNW * p)).collect(),
            k_amask: c((1 << AW) - 1),
            k_rf: c(cfg.rf_bytes() as usize),
            k_cmask: c(cfg.reg_bytes as usize - 1),
            k_rbw: c(RBW),
            k_one: c(1),
            k_ffff: c(0xFFFF),
            k_three: c(3),
            k_ff8: Constant::new(0xFFu64.to_bits()),
            k_span: Constant::new(cfg.span_limit_1pass),
            r_busy: Default::default(),
            r_iss: Default::default(),
            r_ovalid: Default::default(),
            r_addr: Default::default(),
            r_es: Default::default(),
            r_chv: Default::default(),
            r_err: Default::default(),
            r_warn: Default::default(),
            r_tag: Default::default(),
            r_passes: Default::default(),
            r_served: Default::default(),
            r_data: Default::default(),
            st_en: (0..cfg.l_rf as usize).map(|_| Default::default()).collect(),
            st_reg: (0..cfg.l_rf as usize).map(|_| Default::default()).collect(),
            st_last: (0..cfg.l_rf as usize).map(|_| Default::default()).collect(),
            accept: Default::default(),
            c_addr: Default::default(),
            c_es: Default::default(),
            c_chv: Default::default(),
            c_served: Default::default(),
            e16: Default::default(),
            wide: Default::default(),
            chs: Default::default(),
            lb: (0..nl).map(|_| Default::default()).collect(),
            lreg: (0..nl).map(|_| Default::default()).collect(),
            lcol8: (0..nl).map(|_| Default::default()).collect(),
            lon: (0..nl).map(|_| Default::default()).collect(),
            lv: (0..nl).map(|_| Default::default()).collect(),
            lo: (0..RDP + 1).map(|_| Default::default()).collect(),
            mn: (0..RDP + 1).map(|_| Default::default()).collect(),
            fnd: (0..RDP + 1).map(|_| Default::default()).collect(),
            more: Default::default(),
            err_in: Default::default(),
            bad: Default::default(),
            issue: Default::default(),
            iss_en: Default::default(),
            iss_reg: Default::default(),
            rdreg: Default::default(),
            served_new: Default::default(),
            tmpr: Default::default(),
            a_en: Default::default(),
            a_regs: Default::default(),
            a_last: Default::default(),
            w64: Default::default(),
            a_reg: (0..RDP).map(|_| Default::default()).collect(),
            cap_hit: Default::default(),
            cap_pos: Default::default(),
            cap_mask: Default::default(),
            cap_byte: Default::default(),
            data: Default::default(),
            _nl: nl,
            _lrf: cfg.l_rf as usize,
        }
    }
}

impl<
        const NMAX: usize,
        const RNW: usize,
        const RBW: usize,
        const AW: usize,
        const ADDRW: usize,
        const RDP: usize,
        const RDRW: usize,
        const RDW: usize,
        const OPW: usize,
        const PW: usize,
    > Logic for Rfg<NMAX, RNW, RBW, AW, ADDRW, RDP, RDRW, RDW, OPW, PW>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clk, r_busy, r_iss, r_ovalid, r_addr, r_es, r_chv, r_err, r_warn, r_tag, r_passes,
            r_served, r_data
        );
        // Reset inside each RDff (synchronous): the next-state logic below never reads `rst`.
        self.r_busy.rst.next = self.rst.val();
        self.r_iss.rst.next = self.rst.val();
        self.r_ovalid.rst.next = self.rst.val();
        self.r_addr.rst.next = self.rst.val();
        self.r_es.rst.next = self.rst.val();
        self.r_chv.rst.next = self.rst.val();
        self.r_err.rst.next = self.rst.val();
        self.r_warn.rst.next = self.rst.val();
        self.r_tag.rst.next = self.rst.val();
        self.r_passes.rst.next = self.rst.val();
        self.r_served.rst.next = self.rst.val();
        self.r_data.rst.next = self.rst.val();
        for s in 0..self._lrf {
            self.st_en[s].clock.next = self.clk.val();
            self.st_en[s].rst.next = self.rst.val();
            self.st_reg[s].clock.next = self.clk.val();
            self.st_reg[s].rst.next = self.rst.val();
            self.st_last[s].clock.next = self.clk.val();
            self.st_last[s].rst.next = self.rst.val();
        }
        // ---- handshake; the descriptor in use this cycle (inputs at accept, else held) ----
        self.rag_ready.next = !self.r_busy.q.val() & (!self.r_ovalid.q.val() | self.opnd_ready.val());
        self.accept.next = self.rag_valid.val() & self.rag_ready.val();
        self.c_addr.next = self.r_addr.q.val();
        self.c_es.next = self.r_es.q.val();
        self.c_chv.next = self.r_chv.q.val();
        self.c_served.next = self.r_served.q.val();
        if self.accept.val() {
            self.c_addr.next = self.rag_addr.val();
            self.c_es.next = self.rag_esize_log2.val();
            self.c_chv.next = self.rag_ch_valid.val();
            self.c_served.next = 0.into();
        }
        self.e16.next = self.k_one.val() << self.c_es.val();
        // ---- byte lanes ----
        for l in 0..self._nl {
            self.wide.next = self.c_addr.val() >> self.k_lslot[l].val();
            // (addr(i) + k) mod RF: addr(i) < RF and k < 4 < RF, so one conditional subtraction.
            self.lb[l].next = (bit_cast::<RAW_W, ADDRW>(self.wide.val()) & self.k_amask.val()) + self.k_lk[l].val();
            if self.lb[l].val() >= self.k_rf.val() {
                self.lb[l].next = self.lb[l].val() - self.k_rf.val();
            }
            self.lreg[l].next = self.lb[l].val() >> self.k_rbw.val();
            self.lcol8[l].next = (self.lb[l].val() & self.k_cmask.val()) << self.k_three.val();
            self.chs.next = self.c_chv.val() >> self.k_lch[l].val();
            self.lon[l].next = self.chs.val().get_bit(0) & (self.k_lk[l].val() < self.e16.val());
            self.lv[l].next = self.lon[l].val() & !self.c_served.val().get_bit(l);
        }
        // ---- chained minimum searches: search p = smallest live unserved register >= lo[p] ----
        self.lo[0].next = 0.into();
        for p in 0..RDP {
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
        for p in RDP..(RDP + 1) {
            self.mn[p].next = self.k_ffff.val();
            self.fnd[p].next = false;
            for l in 0..self._nl {
                if self.lv[l].val() & (self.lreg[l].val() >= self.lo[p].val()) & (self.lreg[l].val() < self.mn[p].val()) {
                    self.mn[p].next = self.lreg[l].val();
                    self.fnd[p].next = true;
                }
            }
        }
        for p in RDP..(RDP + 1) {
            self.more.next = self.fnd[p].val();
        }
        // ---- errors at accept (rag_err, E_SPAN) ----
        self.err_in.next = self.rag_err.val();
        self.err_in.next = self.err_in.val().replace_bit(10, self.k_span.val() & self.more.val());
        self.bad.next = self.err_in.val().any();
        self.issue.next = (self.accept.val() & !self.bad.val()) | (!self.accept.val() & self.r_iss.q.val());
        // ---- issue: ports in ascending order, mark served lanes ----
        self.iss_en.next = 0.into();
        self.iss_reg.next = 0.into();
        self.rdreg.next = 0.into();
        self.served_new.next = self.c_served.val();
        for p in 0..RDP {
            self.tmpr.next = self.mn[p].val();
            if self.issue.val() & self.fnd[p].val() {
                self.iss_en.next = self.iss_en.val().replace_bit(p, true);
                self.iss_reg.next = self.iss_reg.val() | (bit_cast::<PREG_W, RAW_W>(self.tmpr.val()) << self.k_p16[p].val());
                self.rdreg.next = self.rdreg.val() | (bit_cast::<RDRW, RAW_W>(self.tmpr.val()) << self.k_prn[p].val());
                for l in 0..self._nl {
                    if self.lv[l].val() & (self.lreg[l].val() == self.mn[p].val()) {
                        self.served_new.next = self.served_new.val().replace_bit(l, true);
                    }
                }
            }
        }
        self.rd_en.next = self.iss_en.val();
        self.rd_reg.next = self.rdreg.val();
        // ---- request pipeline ----
        self.st_en[0].d.next = self.iss_en.val();
        self.st_reg[0].d.next = self.iss_reg.val();
        self.st_last[0].d.next = self.issue.val() & !self.more.val();
        // Only L_RF stages exist: a deeper chain would end in flops nobody reads.
        for s in 1..self._lrf {
            self.st_en[s].d.next = self.st_en[s - 1].q.val();
            self.st_reg[s].d.next = self.st_reg[s - 1].q.val();
            self.st_last[s].d.next = self.st_last[s - 1].q.val();
        }
        self.a_en.next = 0.into();
        self.a_regs.next = 0.into();
        self.a_last.next = false;
        for s in (self._lrf - 1)..self._lrf {
            self.a_en.next = self.st_en[s].q.val();
            self.a_regs.next = self.st_reg[s].q.val();
            self.a_last.next = self.st_last[s].q.val();
        }
        for p in 0..RDP {
            self.w64.next = self.a_regs.val() >> self.k_p16[p].val();
            self.a_reg[p].next = bit_cast::<RAW_W, PREG_W>(self.w64.val());
        }
        // ---- capture: lane l takes rd_data[p][8*col +: 8] from the port carrying its register ----
        // At most one port carries a lane's register (a pass issues distinct registers), so each
        // lane is one byte select over the RD_PORTS·RB bytes of rd_data, masked to 0 unless the
        // lane captures. The select's result is always used (no `if` around it and no wide
        // signal assigned inside an `if`): a variable shift of the whole rd_data per (lane, port)
        // under an `if` made yosys' proc and share passes run past 15 min at RF 32 B x 128.
        self.data.next = self.r_data.q.val();
        self.cap_hit.next = false;
        self.cap_pos.next = 0.into();
        self.cap_mask.next = 0.into();
        for l in 0..self._nl {
            self.cap_hit.next = false;
            self.cap_pos.next = 0.into();
            for p in 0..RDP {
                if self.a_en.val().get_bit(p) & self.lon[l].val() & (self.lreg[l].val() == self.a_reg[p].val()) {
                    self.cap_hit.next = true;
                    self.cap_pos.next = self.k_poff[p].val() + self.lcol8[l].val();
                }
            }
            self.cap_mask.next = 0.into();
            if self.cap_hit.val() {
                self.cap_mask.next = self.k_ff8.val();
            }
            self.cap_byte.next = self.rd_data.val().get_bits::<8>(self.cap_pos.val().index()) & self.cap_mask.val();
            self.data.next = self.data.val() | (bit_cast::<OPW, 8>(self.cap_byte.val()) << self.k_lbpos[l].val());
        }
        // ---- state update ----
        if self.opnd_ready.val() {
            self.r_ovalid.d.next = false;
        }
        if self.accept.val() {
            self.r_addr.d.next = self.rag_addr.val();
            self.r_es.d.next = self.rag_esize_log2.val();
            self.r_chv.d.next = self.rag_ch_valid.val();
            self.r_err.d.next = self.err_in.val();
            self.r_warn.d.next = self.rag_warn.val();
            self.r_tag.d.next = self.rag_tag.val();
            self.r_data.d.next = 0.into();
            self.r_served.d.next = self.served_new.val();
            if self.bad.val() {
                self.r_ovalid.d.next = true;
                self.r_busy.d.next = false;
                self.r_iss.d.next = false;
                self.r_passes.d.next = 0.into();
            } else {
                self.r_ovalid.d.next = false;
                self.r_busy.d.next = true;
                self.r_iss.d.next = self.more.val();
                self.r_passes.d.next = 1.into();
                self.r_warn.d.next = self.rag_warn.val().replace_bit(3, self.more.val());
            }
        } else {
            self.r_data.d.next = self.data.val();
            if self.r_iss.q.val() {
                self.r_served.d.next = self.served_new.val();
                self.r_passes.d.next = self.r_passes.q.val() + 1;
                self.r_iss.d.next = self.more.val();
            }
            if self.a_last.val() {
                self.r_busy.d.next = false;
                self.r_ovalid.d.next = true;
            }
        }
        // ---- outputs: all zero while opnd_valid = 0 ----
        self.opnd_valid.next = self.r_ovalid.q.val();
        self.opnd_data.next = 0.into();
        self.opnd_ch_valid.next = 0.into();
        self.opnd_err.next = 0.into();
        self.opnd_warn.next = 0.into();
        self.opnd_passes.next = 0.into();
        self.opnd_tag.next = 0.into();
        if self.r_ovalid.q.val() {
            self.opnd_data.next = self.r_data.q.val();
            self.opnd_ch_valid.next = self.r_chv.q.val();
            self.opnd_err.next = self.r_err.q.val();
            self.opnd_warn.next = self.r_warn.q.val();
            self.opnd_passes.next = self.r_passes.q.val();
            self.opnd_tag.next = self.r_tag.q.val();
        }
    }
}
