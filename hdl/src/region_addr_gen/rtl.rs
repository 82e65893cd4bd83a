//! RTL of the RAG top `eu_region_addr_gen` (spec §6.2–§6.4): one descriptor in, N_MAX channel
//! byte addresses out, one registered stage with valid/ready (§6.3).
//!
//! The combinational part decodes the type, computes the fatal checks (err0..err5), the per-channel
//! addresses (x/y by shift-add, scale by E, add the origin, reduce modulo RF), the range checks on
//! channel N-1 and the warnings; the output stage registers the bundle. Every register is an
//! `RDff`: its synchronous reset sits in its clocked block, so no next-state logic reads `rst`.
//! Error and warning bits are the named masks of `enc` (`k_err_*`, `k_warn_*`).

use super::enc::{err, type_code, warn};
use super::{ceil_log2, Config, ERR_W, HS_W, RAW_W, TAG_W, VS_W, WARN_W};
use crate::prims::RDff;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct Rag<const NMAX: usize, const RNW: usize, const RBW: usize, const AW: usize, const ADDRW: usize> {
    /// Rising-edge clock.
    pub clk: Signal<In, Clock>,
    /// Synchronous, active-high reset: clears `out_valid` and the output registers.
    pub rst: Signal<In, Bit>,
    /// Descriptor valid (handshake with `in_ready`).
    pub in_valid: Signal<In, Bit>,
    /// Descriptor accepted this cycle when high with `in_valid`: `!out_valid | out_ready`.
    pub in_ready: Signal<Out, Bit>,
    /// The compact decoder saw a reserved code: E_ENC.
    pub in_enc_err: Signal<In, Bit>,
    /// Origin register number (RN_W bits).
    pub in_reg: Signal<In, Bits<RNW>>,
    /// Origin byte offset within the register (RB_W bits).
    pub in_sub: Signal<In, Bits<RBW>>,
    /// Element type code (`enc::type_code`).
    pub in_type: Signal<In, Bits<3>>,
    /// log2 of the execution size N.
    pub in_exec_log2: Signal<In, Bits<3>>,
    /// log2 of the region width W.
    pub in_width_log2: Signal<In, Bits<3>>,
    /// Raw horizontal stride, in elements.
    pub in_hs: Signal<In, Bits<HS_W>>,
    /// Raw vertical stride, in elements.
    pub in_vs: Signal<In, Bits<VS_W>>,
    /// The region is a destination: enables E_DST_OVERLAP and E_DST_PROFILE.
    pub in_is_dst: Signal<In, Bit>,
    /// Column-major order requested (E_ORDER unless COLMAJOR_EN).
    pub in_colmajor: Signal<In, Bit>,
    /// Operand id, carried to `out_tag`.
    pub in_tag: Signal<In, Bits<TAG_W>>,
    /// Result valid; held with its outputs while `out_ready` is low.
    pub out_valid: Signal<Out, Bit>,
    /// The consumer takes the result this cycle.
    pub out_ready: Signal<In, Bit>,
    /// Channel i's byte address in bits `[A_W*i +: A_W]`: register in the upper RN_W bits, byte in the lower RB_W.
    pub out_addr: Signal<Out, Bits<ADDRW>>,
    /// log2 of the element size in bytes (0/1/2; 0 on a fatal error).
    pub out_esize_log2: Signal<Out, Bits<2>>,
    /// Bit i: channel i < N and no fatal error.
    pub out_ch_valid: Signal<Out, Bits<NMAX>>,
    /// Bit i: element i crosses a register (or RF-end) boundary.
    pub out_straddle: Signal<Out, Bits<NMAX>>,
    /// Error bits (`enc::err`); only the fatal ones when any fatal bit is set.
    pub out_err: Signal<Out, Bits<ERR_W>>,
    /// Warning bits (`enc::warn`; W_MULTIPASS is always 0 here).
    pub out_warn: Signal<Out, Bits<WARN_W>>,
    /// `in_tag` of the descriptor.
    pub out_tag: Signal<Out, Bits<TAG_W>>,
    k_idx: Vec<Constant<Bits<RAW_W>>>,
    k_slot: Vec<Constant<Bits<RAW_W>>>,
    k_red: Vec<Constant<Bits<RAW_W>>>,
    k_amask: Constant<Bits<RAW_W>>,
    k_rb: Constant<Bits<RAW_W>>,
    x: Vec<Signal<Local, Bits<RAW_W>>>,
    y: Vec<Signal<Local, Bits<RAW_W>>>,
    xo: Vec<Signal<Local, Bits<RAW_W>>>,
    yo: Vec<Signal<Local, Bits<RAW_W>>>,
    raw: Vec<Signal<Local, Bits<RAW_W>>>,
    red: Vec<Signal<Local, Bits<RAW_W>>>,
    live: Vec<Signal<Local, Bit>>,
    tmp: Signal<Local, Bits<RAW_W>>,
    r_valid: RDff<Bit>,
    r_addr: RDff<Bits<ADDRW>>,
    r_es: RDff<Bits<2>>,
    r_chv: RDff<Bits<NMAX>>,
    r_str: RDff<Bits<NMAX>>,
    r_err: RDff<Bits<ERR_W>>,
    r_warn: RDff<Bits<WARN_W>>,
    r_tag: RDff<Bits<TAG_W>>,
    k_one: Constant<Bits<RAW_W>>,
    k_nr: Constant<Bits<RAW_W>>,
    k_rf: Constant<Bits<RAW_W>>,
    k_rbw: Constant<Bits<RAW_W>>,
    k_nmax_log: Constant<Bits<3>>,
    k_bit: Vec<Constant<Bits<RAW_W>>>,
    k_wrap: Constant<Bit>,
    k_align: Constant<Bit>,
    k_restricted: Constant<Bit>,
    k_colen: Constant<Bit>,
    k_type_reserved: Constant<Bits<3>>,
    k_err_e_enc: Constant<Bits<ERR_W>>,
    k_err_e_type: Constant<Bits<ERR_W>>,
    k_err_e_exec: Constant<Bits<ERR_W>>,
    k_err_e_width: Constant<Bits<ERR_W>>,
    k_err_e_reg: Constant<Bits<ERR_W>>,
    k_err_e_order: Constant<Bits<ERR_W>>,
    k_err_e_oob: Constant<Bits<ERR_W>>,
    k_err_e_align: Constant<Bits<ERR_W>>,
    k_err_e_dst_overlap: Constant<Bits<ERR_W>>,
    k_err_e_dst_profile: Constant<Bits<ERR_W>>,
    k_warn_w_wrap: Constant<Bits<WARN_W>>,
    k_warn_w_misalign: Constant<Bits<WARN_W>>,
    k_warn_w_straddle: Constant<Bits<WARN_W>>,
    es: Signal<Local, Bits<2>>,
    es_out: Signal<Local, Bits<2>>,
    e16: Signal<Local, Bits<RAW_W>>,
    origin: Signal<Local, Bits<RAW_W>>,
    hs16: Signal<Local, Bits<RAW_W>>,
    vs16: Signal<Local, Bits<RAW_W>>,
    sub16: Signal<Local, Bits<RAW_W>>,
    wmask: Signal<Local, Bits<RAW_W>>,
    hlog: Signal<Local, Bits<3>>,
    hmask: Signal<Local, Bits<RAW_W>>,
    nm1: Signal<Local, Bits<RAW_W>>,
    wm1hs: Signal<Local, Bits<RAW_W>>,
    lastraw: Signal<Local, Bits<RAW_W>>,
    lastend: Signal<Local, Bits<RAW_W>>,
    fatal_err: Signal<Local, Bits<ERR_W>>,
    fatal: Signal<Local, Bit>,
    err: Signal<Local, Bits<ERR_W>>,
    warn: Signal<Local, Bits<WARN_W>>,
    addr: Signal<Local, Bits<ADDRW>>,
    chv: Signal<Local, Bits<NMAX>>,
    strd: Signal<Local, Bits<NMAX>>,
    over: Signal<Local, Bit>,
    misalign: Signal<Local, Bit>,
    ovl: Signal<Local, Bit>,
    accept: Signal<Local, Bit>,
    _iw: usize,
    _nst: usize,
}

impl<const NMAX: usize, const RNW: usize, const RBW: usize, const AW: usize, const ADDRW: usize>
    Rag<NMAX, RNW, RBW, AW, ADDRW>
{
    pub fn new(cfg: &Config) -> Self {
        assert_eq!(NMAX as u32, cfg.n_max);
        assert_eq!(RNW, cfg.rn_w());
        assert_eq!(RBW, cfg.rb_w());
        assert_eq!(AW, RNW + RBW);
        assert_eq!(ADDRW, NMAX * AW);
        assert!(cfg.raw_w_is_enough());
        let iw = (ceil_log2(cfg.n_max) as usize).max(1);
        let rf = cfg.rf_bytes();
        // Conditional-subtraction constants RF*2^j, descending, covering every raw < 2^RAW_W
        // (§5.2). Empty for a power-of-two RF: there the reduction is the mask to A_W bits.
        let mut red = vec![];
        if !rf.is_power_of_two() {
            let mut k = rf as u64;
            while k << 1 < (1 << RAW_W) {
                k <<= 1;
            }
            while k >= rf as u64 {
                red.push(Constant::new(k.to_bits()));
                k >>= 1;
            }
        }
        Rag {
            clk: Default::default(),
            rst: Default::default(),
            in_valid: Default::default(),
            in_ready: Default::default(),
            in_enc_err: Default::default(),
            in_reg: Default::default(),
            in_sub: Default::default(),
            in_type: Default::default(),
            in_exec_log2: Default::default(),
            in_width_log2: Default::default(),
            in_hs: Default::default(),
            in_vs: Default::default(),
            in_is_dst: Default::default(),
            in_colmajor: Default::default(),
            in_tag: Default::default(),
            out_valid: Default::default(),
            out_ready: Default::default(),
            out_addr: Default::default(),
            out_esize_log2: Default::default(),
            out_ch_valid: Default::default(),
            out_straddle: Default::default(),
            out_err: Default::default(),
            out_warn: Default::default(),
            out_tag: Default::default(),
            k_idx: (0..NMAX).map(|i| Constant::new((i as u64).to_bits())).collect(),
            k_slot: (0..NMAX).map(|i| Constant::new(((AW * i) as u64).to_bits())).collect(),
            _nst: red.len(),
            k_red: red,
            k_amask: Constant::new((((1u64 << AW) - 1) as u64).to_bits()),
            k_rb: Constant::new((cfg.reg_bytes as u64).to_bits()),
            x: (0..NMAX).map(|_| Default::default()).collect(),
            y: (0..NMAX).map(|_| Default::default()).collect(),
            xo: (0..NMAX).map(|_| Default::default()).collect(),
            yo: (0..NMAX).map(|_| Default::default()).collect(),
            raw: (0..NMAX).map(|_| Default::default()).collect(),
            red: (0..NMAX).map(|_| Default::default()).collect(),
            live: (0..NMAX).map(|_| Default::default()).collect(),
            tmp: Default::default(),
            r_valid: Default::default(),
            r_addr: Default::default(),
            r_es: Default::default(),
            r_chv: Default::default(),
            r_str: Default::default(),
            r_err: Default::default(),
            r_warn: Default::default(),
            r_tag: Default::default(),
            k_one: Constant::new(1u64.to_bits()),
            k_nr: Constant::new((cfg.num_regs as u64).to_bits()),
            k_rf: Constant::new((rf as u64).to_bits()),
            k_rbw: Constant::new((RBW as u64).to_bits()),
            k_nmax_log: Constant::new((ceil_log2(cfg.n_max) as u64).to_bits()),
            k_bit: (0..iw).map(|b| Constant::new((b as u64).to_bits())).collect(),
            k_wrap: Constant::new(cfg.wrap_rf),
            k_align: Constant::new(cfg.align_strict),
            k_restricted: Constant::new(cfg.dst_profile == "restricted"),
            k_colen: Constant::new(cfg.colmajor_en),
            k_type_reserved: Constant::new(type_code::RESERVED.to_bits()),
            k_err_e_enc: Constant::new(err::E_ENC.to_bits()),
            k_err_e_type: Constant::new(err::E_TYPE.to_bits()),
            k_err_e_exec: Constant::new(err::E_EXEC.to_bits()),
            k_err_e_width: Constant::new(err::E_WIDTH.to_bits()),
            k_err_e_reg: Constant::new(err::E_REG.to_bits()),
            k_err_e_order: Constant::new(err::E_ORDER.to_bits()),
            k_err_e_oob: Constant::new(err::E_OOB.to_bits()),
            k_err_e_align: Constant::new(err::E_ALIGN.to_bits()),
            k_err_e_dst_overlap: Constant::new(err::E_DST_OVERLAP.to_bits()),
            k_err_e_dst_profile: Constant::new(err::E_DST_PROFILE.to_bits()),
            k_warn_w_wrap: Constant::new(warn::W_WRAP.to_bits()),
            k_warn_w_misalign: Constant::new(warn::W_MISALIGN.to_bits()),
            k_warn_w_straddle: Constant::new(warn::W_STRADDLE.to_bits()),
            es: Default::default(),
            es_out: Default::default(),
            e16: Default::default(),
            origin: Default::default(),
            hs16: Default::default(),
            vs16: Default::default(),
            sub16: Default::default(),
            wmask: Default::default(),
            hlog: Default::default(),
            hmask: Default::default(),
            nm1: Default::default(),
            wm1hs: Default::default(),
            lastraw: Default::default(),
            lastend: Default::default(),
            fatal_err: Default::default(),
            fatal: Default::default(),
            err: Default::default(),
            warn: Default::default(),
            addr: Default::default(),
            chv: Default::default(),
            strd: Default::default(),
            over: Default::default(),
            misalign: Default::default(),
            ovl: Default::default(),
            accept: Default::default(),
            _iw: iw,
        }
    }
}

impl<const NMAX: usize, const RNW: usize, const RBW: usize, const AW: usize, const ADDRW: usize> Logic
    for Rag<NMAX, RNW, RBW, AW, ADDRW>
{
    #[hdl_gen]
    fn update(&mut self) {
        // Output stage registers: clocked, reset inside the RDff, hold unless loaded below.
        dff_setup!(self, clk, r_valid, r_addr, r_es, r_chv, r_str, r_err, r_warn, r_tag);
        self.r_valid.rst.next = self.rst.val();
        self.r_addr.rst.next = self.rst.val();
        self.r_es.rst.next = self.rst.val();
        self.r_chv.rst.next = self.rst.val();
        self.r_str.rst.next = self.rst.val();
        self.r_err.rst.next = self.rst.val();
        self.r_warn.rst.next = self.rst.val();
        self.r_tag.rst.next = self.rst.val();
        // ---- decode and fatal checks (§6.4 err0..err5) ----
        self.fatal_err.next = 0.into();
        // esize_log2: ub/b 0, uw/w 1, ud/d/f 2 (§6.7; the §4.2 shorthand "type[2:1]" would give 3
        // for f = 110); 111 is reserved (E_TYPE).
        self.es.next = self.in_type.val().get_bits::<2>(1);
        if self.in_type.val().get_bit(2) {
            self.es.next = 2.into();
        }
        if self.in_enc_err.val() {
            self.fatal_err.next = self.fatal_err.val() | self.k_err_e_enc.val();
        }
        if self.in_type.val() == self.k_type_reserved.val() {
            self.fatal_err.next = self.fatal_err.val() | self.k_err_e_type.val();
        }
        if self.in_exec_log2.val() > self.k_nmax_log.val() {
            self.fatal_err.next = self.fatal_err.val() | self.k_err_e_exec.val();
        }
        if self.in_width_log2.val() > self.in_exec_log2.val() {
            self.fatal_err.next = self.fatal_err.val() | self.k_err_e_width.val();
        }
        if bit_cast::<RAW_W, RNW>(self.in_reg.val()) >= self.k_nr.val() {
            self.fatal_err.next = self.fatal_err.val() | self.k_err_e_reg.val();
        }
        if self.in_colmajor.val() & !self.k_colen.val() {
            self.fatal_err.next = self.fatal_err.val() | self.k_err_e_order.val();
        }
        self.fatal.next = self.fatal_err.val().any();
        // ---- shared lane inputs ----
        self.e16.next = self.k_one.val() << self.es.val();
        self.sub16.next = bit_cast::<RAW_W, RBW>(self.in_sub.val());
        self.origin.next = (bit_cast::<RAW_W, RNW>(self.in_reg.val()) << self.k_rbw.val()) | self.sub16.val();
        self.hs16.next = bit_cast::<RAW_W, HS_W>(self.in_hs.val());
        self.vs16.next = bit_cast::<RAW_W, VS_W>(self.in_vs.val());
        self.wmask.next = (self.k_one.val() << self.in_width_log2.val()) - 1;
        self.hlog.next = self.in_exec_log2.val() - self.in_width_log2.val();
        self.hmask.next = (self.k_one.val() << self.hlog.val()) - 1;
        self.nm1.next = (self.k_one.val() << self.in_exec_log2.val()) - 1;
        // ---- per channel (§2.2): x/y, x*HS + y*VS by shift-add, scale by E, add the origin,
        // reduce modulo RF, place in slot [A_W*i +: A_W] ----
        self.addr.next = 0.into();
        self.chv.next = 0.into();
        self.strd.next = 0.into();
        self.lastraw.next = 0.into();
        for i in 0..NMAX {
            if self.in_colmajor.val() {
                self.y[i].next = self.k_idx[i].val() & self.hmask.val();
                self.x[i].next = self.k_idx[i].val() >> self.hlog.val();
            } else {
                self.x[i].next = self.k_idx[i].val() & self.wmask.val();
                self.y[i].next = self.k_idx[i].val() >> self.in_width_log2.val();
            }
            self.xo[i].next = 0.into();
            self.yo[i].next = 0.into();
            for b in 0..self._iw {
                if self.x[i].val().get_bit(b) {
                    self.xo[i].next = self.xo[i].val() + (self.hs16.val() << self.k_bit[b].val());
                }
                if self.y[i].val().get_bit(b) {
                    self.yo[i].next = self.yo[i].val() + (self.vs16.val() << self.k_bit[b].val());
                }
            }
            self.raw[i].next = self.origin.val() + ((self.xo[i].val() + self.yo[i].val()) << self.es.val());
            self.red[i].next = self.raw[i].val();
            for j in 0..self._nst {
                if self.red[i].val() >= self.k_red[j].val() {
                    self.red[i].next = self.red[i].val() - self.k_red[j].val();
                }
            }
            self.red[i].next = self.red[i].val() & self.k_amask.val();
            self.live[i].next = ((self.k_idx[i].val() >> self.in_exec_log2.val()) == 0) & !self.fatal.val();
            self.chv.next = self.chv.val().replace_bit(i, self.live[i].val());
            self.strd.next = self.strd.val().replace_bit(
                i,
                self.live[i].val()
                    & ((self.red[i].val() & (self.k_rb.val() - 1)) + self.e16.val() > self.k_rb.val()),
            );
            if self.k_idx[i].val() == self.nm1.val() {
                self.lastraw.next = self.raw[i].val();
            }
            // `tmp` holds the channel's address so the cast does not name the loop variable.
            self.tmp.next = self.red[i].val();
            if self.live[i].val() {
                self.addr.next = self.addr.val() | (bit_cast::<ADDRW, RAW_W>(self.tmp.val()) << self.k_slot[i].val());
            }
        }
        // ---- semantic checks and warnings (§6.4 err6..err9, warn0..warn2) ----
        // lastend = raw(N-1) + E; "raw(N-1)+E-1 >= RF" is "lastend > RF".
        self.lastend.next = self.lastraw.val() + self.e16.val();
        self.over.next = self.lastend.val() > self.k_rf.val();
        self.misalign.next = (self.sub16.val() & (self.e16.val() - 1)).any();
        // (W-1)*HS by shift-add over the bits of W-1.
        self.wm1hs.next = 0.into();
        for b in 0..self._iw {
            if self.wmask.val().get_bit(b) {
                self.wm1hs.next = self.wm1hs.val() + (self.hs16.val() << self.k_bit[b].val());
            }
        }
        // §5.5: (W>1 & HS=0) | (H>1 & VS < (W-1)*HS+1) | (last+1-origin > RF)
        self.ovl.next = ((self.in_width_log2.val() != 0) & (self.in_hs.val() == 0))
            | ((self.in_width_log2.val() != self.in_exec_log2.val()) & (self.vs16.val() <= self.wm1hs.val()))
            | (self.lastend.val() > self.k_rf.val() + self.origin.val());
        self.err.next = 0.into();
        if self.over.val() & !self.k_wrap.val() {
            self.err.next = self.err.val() | self.k_err_e_oob.val();
        }
        if self.misalign.val() & self.k_align.val() {
            self.err.next = self.err.val() | self.k_err_e_align.val();
        }
        if self.in_is_dst.val() & self.ovl.val() {
            self.err.next = self.err.val() | self.k_err_e_dst_overlap.val();
        }
        if self.in_is_dst.val()
            & self.k_restricted.val()
            & ((self.in_width_log2.val() != self.in_exec_log2.val()) | self.sub16.val().any())
        {
            self.err.next = self.err.val() | self.k_err_e_dst_profile.val();
        }
        self.warn.next = 0.into();
        if self.over.val() & self.k_wrap.val() {
            self.warn.next = self.warn.val() | self.k_warn_w_wrap.val();
        }
        if self.misalign.val() {
            self.warn.next = self.warn.val() | self.k_warn_w_misalign.val();
        }
        if self.strd.val().any() {
            self.warn.next = self.warn.val() | self.k_warn_w_straddle.val();
        }
        self.es_out.next = self.es.val();
        if self.fatal.val() {
            self.err.next = self.fatal_err.val();
            self.warn.next = 0.into();
            self.es_out.next = 0.into();
        }
        // ---- one registered stage, valid/ready (§6.3) ----
        self.in_ready.next = !self.r_valid.q.val() | self.out_ready.val();
        self.accept.next = self.in_valid.val() & self.in_ready.val();
        if self.accept.val() {
            self.r_valid.d.next = true;
            self.r_addr.d.next = self.addr.val();
            self.r_es.d.next = self.es_out.val();
            self.r_chv.d.next = self.chv.val();
            self.r_str.d.next = self.strd.val();
            self.r_err.d.next = self.err.val();
            self.r_warn.d.next = self.warn.val();
            self.r_tag.d.next = self.in_tag.val();
        } else if self.out_ready.val() {
            self.r_valid.d.next = false;
        }
        self.out_valid.next = self.r_valid.q.val();
        self.out_addr.next = self.r_addr.q.val();
        self.out_esize_log2.next = self.r_es.q.val();
        self.out_ch_valid.next = self.r_chv.q.val();
        self.out_straddle.next = self.r_str.q.val();
        self.out_err.next = self.r_err.q.val();
        self.out_warn.next = self.r_warn.q.val();
        self.out_tag.next = self.r_tag.q.val();
    }
}

