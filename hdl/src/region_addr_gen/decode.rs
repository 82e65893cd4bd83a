//! `Decode`: the first datapath section of the RAG (§6.2, §6.4): the descriptor's fields, the
//! fatal checks err0..err5, the checks that need only the inputs (E_ALIGN, E_DST_PROFILE, the
//! first E_DST_OVERLAP term, W_MISALIGN), the strides reduced modulo RF (all the candidate
//! subtractions side by side, one carry chain deep), and HS + VS for `Stride`'s span arithmetic.
//! The spans (W-1)·HS and (H-1)·VS are `Stride`'s since 2026-11-26: here they were the worst path
//! of the request's first cycle (input register, shifts, subtraction).

use super::enc::{err, type_code, warn};
use super::{Config, ERR_W, HS_W, RAW_W, VS_W, WARN_W};
use rust_hdl::prelude::*;

/// The multiples m·RF (m = 1, 2, ..., ascending) below `limit`: x mod RF for x < `limit` is
/// x − the largest of them ≤ x. Empty for a power-of-two RF (a mask does it) or when every value
/// is already below RF.
pub fn multiples(rf: u64, limit: u64) -> Vec<u64> {
    if rf.is_power_of_two() {
        return vec![];
    }
    (1..).map(|m| m * rf).take_while(|&k| k < limit).collect()
}

#[derive(LogicBlock)]
pub struct Decode<const RNW: usize, const RBW: usize, const AW: usize> {
    /// Reserved code seen by the compact decoder.
    pub enc_err: Signal<In, Bit>,
    /// Origin register.
    pub reg_num: Signal<In, Bits<RNW>>,
    /// Origin byte offset.
    pub sub: Signal<In, Bits<RBW>>,
    /// Type code (`enc::type_code`).
    pub ty: Signal<In, Bits<3>>,
    /// log2 N.
    pub exec_log2: Signal<In, Bits<3>>,
    /// log2 W.
    pub width_log2: Signal<In, Bits<3>>,
    /// Horizontal stride (elements).
    pub hs: Signal<In, Bits<HS_W>>,
    /// Vertical stride (elements).
    pub vs: Signal<In, Bits<VS_W>>,
    /// Destination region.
    pub is_dst: Signal<In, Bit>,
    /// Column-major order requested.
    pub colmajor: Signal<In, Bit>,
    /// Error bits found so far (`enc::err`).
    pub err_out: Signal<Out, Bits<ERR_W>>,
    /// Warning bits found so far (`enc::warn`).
    pub warn_out: Signal<Out, Bits<WARN_W>>,
    /// log2 E.
    pub es: Signal<Out, Bits<2>>,
    /// log2 H = log2 N - log2 W.
    pub height_log2: Signal<Out, Bits<3>>,
    /// reg·RB + sub.
    pub origin: Signal<Out, Bits<AW>>,
    /// HS mod RF.
    pub hs_mod: Signal<Out, Bits<AW>>,
    /// VS mod RF.
    pub vs_mod: Signal<Out, Bits<AW>>,
    /// W·HS = HS << log2 W (for the span and the row-overlap test; the shifts sit here so that
    /// `Stride`'s cycle starts at the compare, which was the ECP5 worst path after them).
    pub hs_w: Signal<Out, Bits<RAW_W>>,
    /// H·VS = VS << log2 H.
    pub vs_h: Signal<Out, Bits<RAW_W>>,
    /// HS + VS: `Stride` subtracts it from (HS << w) + (VS << h) for the last channel's offset
    /// and compares it with HS << w for the row overlap.
    pub hs_vs: Signal<Out, Bits<RAW_W>>,
    k_nr: Constant<Bits<RAW_W>>,
    k_nmax_log: Constant<Bits<3>>,
    k_colen: Constant<Bit>,
    k_align: Constant<Bit>,
    k_restricted: Constant<Bit>,
    k_rbw: Constant<Bits<4>>,
    k_amask: Constant<Bits<RAW_W>>,
    k_hs_red: Vec<Constant<Bits<RAW_W>>>,
    k_vs_red: Vec<Constant<Bits<RAW_W>>>,
    k_type_reserved: Constant<Bits<3>>,
    k_err_e_enc: Constant<Bits<ERR_W>>,
    k_err_e_type: Constant<Bits<ERR_W>>,
    k_err_e_exec: Constant<Bits<ERR_W>>,
    k_err_e_width: Constant<Bits<ERR_W>>,
    k_err_e_reg: Constant<Bits<ERR_W>>,
    k_err_e_order: Constant<Bits<ERR_W>>,
    k_err_e_align: Constant<Bits<ERR_W>>,
    k_err_e_dst_overlap: Constant<Bits<ERR_W>>,
    k_err_e_dst_profile: Constant<Bits<ERR_W>>,
    k_warn_w_misalign: Constant<Bits<WARN_W>>,
    e_mask: Signal<Local, Bits<RBW>>,
    hlog: Signal<Local, Bits<3>>,
    /// log2 N xor log2 W, the borrow-generate bits, and the borrows of log2 N − log2 W.
    hlog_x: Signal<Local, Bits<3>>,
    hlog_g: Signal<Local, Bits<3>>,
    hlog_b: Signal<Local, Bits<3>>,
    hs16: Signal<Local, Bits<RAW_W>>,
    vs16: Signal<Local, Bits<RAW_W>>,
    hs_red: Signal<Local, Bits<RAW_W>>,
    vs_red: Signal<Local, Bits<RAW_W>>,
    misalign: Signal<Local, Bit>,
    _n_hs: usize,
    _n_vs: usize,
}

impl<const RNW: usize, const RBW: usize, const AW: usize> Decode<RNW, RBW, AW> {
    pub fn new(cfg: &Config) -> Self {
        let rf = cfg.rf_bytes() as u64;
        let k = |v: u64| Constant::new(v.to_bits());
        let hs_red: Vec<_> = multiples(rf, 1 << HS_W).into_iter().map(k).collect();
        let vs_red: Vec<_> = multiples(rf, 1 << VS_W).into_iter().map(k).collect();
        Self {
            enc_err: Default::default(),
            reg_num: Default::default(),
            sub: Default::default(),
            ty: Default::default(),
            exec_log2: Default::default(),
            width_log2: Default::default(),
            hs: Default::default(),
            vs: Default::default(),
            is_dst: Default::default(),
            colmajor: Default::default(),
            err_out: Default::default(),
            warn_out: Default::default(),
            es: Default::default(),
            height_log2: Default::default(),
            origin: Default::default(),
            hs_mod: Default::default(),
            vs_mod: Default::default(),
            hs_w: Default::default(),
            vs_h: Default::default(),
            hs_vs: Default::default(),
            k_nr: k(cfg.num_regs as u64),
            k_nmax_log: Constant::new((cfg.n_max.trailing_zeros() as u64).to_bits()),
            k_colen: Constant::new(cfg.colmajor_en),
            k_align: Constant::new(cfg.align_strict),
            k_restricted: Constant::new(cfg.dst_profile == "restricted"),
            k_rbw: Constant::new((RBW as u64).to_bits()),
            k_amask: k((1 << AW) - 1),
            _n_hs: hs_red.len(),
            _n_vs: vs_red.len(),
            k_hs_red: hs_red,
            k_vs_red: vs_red,
            k_type_reserved: Constant::new(type_code::RESERVED.to_bits()),
            k_err_e_enc: Constant::new(err::E_ENC.to_bits()),
            k_err_e_type: Constant::new(err::E_TYPE.to_bits()),
            k_err_e_exec: Constant::new(err::E_EXEC.to_bits()),
            k_err_e_width: Constant::new(err::E_WIDTH.to_bits()),
            k_err_e_reg: Constant::new(err::E_REG.to_bits()),
            k_err_e_order: Constant::new(err::E_ORDER.to_bits()),
            k_err_e_align: Constant::new(err::E_ALIGN.to_bits()),
            k_err_e_dst_overlap: Constant::new(err::E_DST_OVERLAP.to_bits()),
            k_err_e_dst_profile: Constant::new(err::E_DST_PROFILE.to_bits()),
            k_warn_w_misalign: Constant::new(warn::W_MISALIGN.to_bits()),
            e_mask: Default::default(),
            hlog: Default::default(),
            hlog_x: Default::default(),
            hlog_g: Default::default(),
            hlog_b: Default::default(),
            hs16: Default::default(),
            vs16: Default::default(),
            hs_red: Default::default(),
            vs_red: Default::default(),
            misalign: Default::default(),
        }
    }
}

impl<const RNW: usize, const RBW: usize, const AW: usize> Logic for Decode<RNW, RBW, AW> {
    #[hdl_gen]
    fn update(&mut self) {
        // esize_log2: ub/b 0, uw/w 1, ud/d/f 2 (§6.7); 111 is reserved (E_TYPE).
        self.es.next = self.ty.val().get_bits::<2>(1);
        if self.ty.val().get_bit(2) {
            self.es.next = 2.into();
        }
        // log2 H = log2 N − log2 W (mod 8) as bit logic: written as `-`, yosys maps the 3-bit
        // subtract to a carry chain on the iCE40, and it started the HX8K/UP5K worst path
        // (stimulus → subtract → VS << log2 H → j0_vs_h, 7 LUT + 3 carry); as XORs and borrows
        // it is two LUT levels. d = x ^ b, b1 = g0, b2 = g1 | (!x1 & g0).
        self.hlog_x.next = self.exec_log2.val() ^ self.width_log2.val();
        self.hlog_g.next = !self.exec_log2.val() & self.width_log2.val();
        self.hlog_b.next = (self.hlog_g.val() << 1) | ((!self.hlog_x.val() & (self.hlog_g.val() << 1)) << 1);
        self.hlog.next = self.hlog_x.val() ^ self.hlog_b.val();
        self.height_log2.next = self.hlog.val();
        self.origin.next = (bit_cast::<AW, RNW>(self.reg_num.val()) << self.k_rbw.val()) | bit_cast::<AW, RBW>(self.sub.val());
        // ---- errors and warnings that need only the inputs ----
        self.err_out.next = 0.into();
        if self.enc_err.val() {
            self.err_out.next = self.err_out.val() | self.k_err_e_enc.val();
        }
        if self.ty.val() == self.k_type_reserved.val() {
            self.err_out.next = self.err_out.val() | self.k_err_e_type.val();
        }
        if self.exec_log2.val() > self.k_nmax_log.val() {
            self.err_out.next = self.err_out.val() | self.k_err_e_exec.val();
        }
        if self.width_log2.val() > self.exec_log2.val() {
            self.err_out.next = self.err_out.val() | self.k_err_e_width.val();
        }
        if bit_cast::<RAW_W, RNW>(self.reg_num.val()) >= self.k_nr.val() {
            self.err_out.next = self.err_out.val() | self.k_err_e_reg.val();
        }
        if self.colmajor.val() & !self.k_colen.val() {
            self.err_out.next = self.err_out.val() | self.k_err_e_order.val();
        }
        // sub mod E != 0 (E = 2^es <= 4 <= RB)
        self.e_mask.next = 0.into();
        if self.es.val() == 1 {
            self.e_mask.next = 1.into();
        }
        if self.es.val() == 2 {
            self.e_mask.next = 3.into();
        }
        self.misalign.next = (self.sub.val() & self.e_mask.val()).any();
        self.warn_out.next = 0.into();
        if self.misalign.val() {
            self.warn_out.next = self.k_warn_w_misalign.val();
            if self.k_align.val() {
                self.err_out.next = self.err_out.val() | self.k_err_e_align.val();
            }
        }
        if self.is_dst.val() & self.k_restricted.val() & ((self.width_log2.val() != self.exec_log2.val()) | self.sub.val().any()) {
            self.err_out.next = self.err_out.val() | self.k_err_e_dst_profile.val();
        }
        // §5.5, first term: W > 1 with HS = 0 makes channels of a row share an element.
        if self.is_dst.val() & (self.width_log2.val() != 0) & (self.hs.val() == 0) {
            self.err_out.next = self.err_out.val() | self.k_err_e_dst_overlap.val();
        }
        // ---- strides modulo RF: x − m·RF for every multiple m·RF below the limit, side by side
        // (each compare-and-subtract one carry chain on the input), and the largest m with
        // x ≥ m·RF wins (before: up to three conditional subtractions of RF·2^j in series, the
        // HX8K's worst path) ----
        self.hs16.next = bit_cast::<RAW_W, HS_W>(self.hs.val());
        self.vs16.next = bit_cast::<RAW_W, VS_W>(self.vs.val());
        self.hs_red.next = self.hs16.val();
        for j in 0..self._n_hs {
            if self.hs16.val() >= self.k_hs_red[j].val() {
                self.hs_red.next = self.hs16.val() - self.k_hs_red[j].val();
            }
        }
        self.vs_red.next = self.vs16.val();
        for j in 0..self._n_vs {
            if self.vs16.val() >= self.k_vs_red[j].val() {
                self.vs_red.next = self.vs16.val() - self.k_vs_red[j].val();
            }
        }
        self.hs_mod.next = bit_cast::<AW, RAW_W>(self.hs_red.val() & self.k_amask.val());
        self.vs_mod.next = bit_cast::<AW, RAW_W>(self.vs_red.val() & self.k_amask.val());
        // (nothing wraps: HS << w < 2^14, VS << h < 2^15)
        self.hs_w.next = self.hs16.val() << self.width_log2.val();
        self.vs_h.next = self.vs16.val() << self.hlog.val();
        self.hs_vs.next = self.hs16.val() + self.vs16.val();
    }
}
