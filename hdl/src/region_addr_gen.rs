//! region_addr_gen: the region address generator (RAG) of
//! ../shared/spec/region-address-generator.md (§2.2, §6.2–§6.4).
//!
//! `eu_region_addr_gen` turns one decoded region descriptor into N_MAX channel byte addresses in
//! one registered stage with valid/ready. Each channel is a `RagLane` submodule (so per-channel
//! casts need no loop variables); the top module decodes the type, computes the fatal checks,
//! selects channel N-1 for the range checks and registers everything.
//!
//! Widths: RN_W = ceil(log2 NR), RB_W = log2 RB, A_W = RN_W + RB_W, N_MAX channels, HS_W = 7,
//! VS_W = 8, TAG_W = 4. Internally every address-sized quantity is 16 bits (`RAW_W` = 16 for every
//! legal config: the largest `raw + E` is 64*256-1 + 4*31*255 + 4 = 48007 < 2^16, and
//! `RF + origin` <= 32767), so no overflow is possible; `raw_w_is_enough` checks it.

use crate::check::{check_one_of, check_range, ConfigError};
use crate::emit::{emit_module, EmitError, EmittedModule};
use crate::params;
use crate::BlockGen;
use rust_hdl::prelude::*;
use serde::{Deserialize, Serialize};

const SECTION: &str = "region_addr_gen";
/// Internal width of raw addresses and all intermediate sums.
pub const RAW_W: usize = 16;
pub const HS_W: usize = 7;
pub const VS_W: usize = 8;
pub const TAG_W: usize = 4;
pub const ERR_W: usize = 11;
pub const WARN_W: usize = 4;

/// `[region_addr_gen]` (spec §4.2; defaults are the spec's defaults).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// Bytes per register (RB): 8, 16, 32, 64.
    pub reg_bytes: u32,
    /// Number of registers (NR): 2..=256.
    pub num_regs: u32,
    /// Channels (N_MAX): 4, 8, 16, 32.
    pub n_max: u32,
    /// Raw horizontal stride width (only 7 is built).
    pub hs_w: u32,
    /// Raw vertical stride width (only 8 is built).
    pub vs_w: u32,
    /// Tag width (only 4 is built).
    pub tag_w: u32,
    /// true: wrap modulo RF (W_WRAP); false: E_OOB.
    pub wrap_rf: bool,
    /// true: a misaligned origin is E_ALIGN.
    pub align_strict: bool,
    /// "full" or "restricted" (§5.5).
    pub dst_profile: String,
    /// Enables `in_colmajor`.
    pub colmajor_en: bool,
    /// RFG read ports: 1..=4.
    pub rd_ports: u32,
    /// RFS write ports: 1..=2.
    pub wr_ports: u32,
    /// RF read latency: 1..=3.
    pub l_rf: u32,
    /// E_SPAN when an operand needs more than one pass.
    pub span_limit_1pass: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            reg_bytes: 32,
            num_regs: 128,
            n_max: 16,
            hs_w: 7,
            vs_w: 8,
            tag_w: 4,
            wrap_rf: true,
            align_strict: false,
            dst_profile: "full".into(),
            colmajor_en: false,
            rd_ports: 2,
            wr_ports: 1,
            l_rf: 1,
            span_limit_1pass: false,
        }
    }
}

impl Config {
    /// Spec §2.5 test configurations.
    pub fn cfg(rb: u32, nr: u32) -> Self {
        Config { reg_bytes: rb, num_regs: nr, ..Default::default() }
    }
    pub fn rn_w(&self) -> usize {
        (ceil_log2(self.num_regs) as usize).max(1)
    }
    pub fn rb_w(&self) -> usize {
        ceil_log2(self.reg_bytes) as usize
    }
    pub fn a_w(&self) -> usize {
        self.rn_w() + self.rb_w()
    }
    pub fn rf_bytes(&self) -> u32 {
        self.reg_bytes * self.num_regs
    }
    /// Largest `raw + E` (§4.2 RAW_W formula plus the element) and `RF + origin` fit in RAW_W.
    pub fn raw_w_is_enough(&self) -> bool {
        let rf = self.rf_bytes() as u64;
        let max_stride = ((1u64 << self.hs_w) - 1).max((1u64 << self.vs_w) - 1);
        let max_raw = rf - 1 + 4 * (self.n_max as u64 - 1) * max_stride + 4;
        max_raw < (1 << RAW_W) && 2 * rf <= (1 << RAW_W)
    }
}

pub const fn ceil_log2(x: u32) -> u32 {
    if x <= 1 {
        0
    } else {
        32 - (x - 1).leading_zeros()
    }
}

// ------------------------------------------------------------------------------------------
// The RAG top: eu_region_addr_gen.
// ------------------------------------------------------------------------------------------

#[derive(LogicBlock)]
pub struct Rag<const NMAX: usize, const RNW: usize, const RBW: usize, const AW: usize, const ADDRW: usize> {
    pub clk: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub in_valid: Signal<In, Bit>,
    pub in_ready: Signal<Out, Bit>,
    pub in_enc_err: Signal<In, Bit>,
    pub in_reg: Signal<In, Bits<RNW>>,
    pub in_sub: Signal<In, Bits<RBW>>,
    pub in_type: Signal<In, Bits<3>>,
    pub in_exec_log2: Signal<In, Bits<3>>,
    pub in_width_log2: Signal<In, Bits<3>>,
    pub in_hs: Signal<In, Bits<HS_W>>,
    pub in_vs: Signal<In, Bits<VS_W>>,
    pub in_is_dst: Signal<In, Bit>,
    pub in_colmajor: Signal<In, Bit>,
    pub in_tag: Signal<In, Bits<TAG_W>>,
    pub out_valid: Signal<Out, Bit>,
    pub out_ready: Signal<In, Bit>,
    pub out_addr: Signal<Out, Bits<ADDRW>>,
    pub out_esize_log2: Signal<Out, Bits<2>>,
    pub out_ch_valid: Signal<Out, Bits<NMAX>>,
    pub out_straddle: Signal<Out, Bits<NMAX>>,
    pub out_err: Signal<Out, Bits<ERR_W>>,
    pub out_warn: Signal<Out, Bits<WARN_W>>,
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
    r_valid: DFF<Bit>,
    r_addr: DFF<Bits<ADDRW>>,
    r_es: DFF<Bits<2>>,
    r_chv: DFF<Bits<NMAX>>,
    r_str: DFF<Bits<NMAX>>,
    r_err: DFF<Bits<ERR_W>>,
    r_warn: DFF<Bits<WARN_W>>,
    r_tag: DFF<Bits<TAG_W>>,
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
        dff_setup!(self, clk, r_valid, r_addr, r_es, r_chv, r_str, r_err, r_warn, r_tag);
        // ---- decode and fatal checks (§6.4 err0..err5) ----
        self.fatal_err.next = 0.into();
        // esize_log2: ub/b 0, uw/w 1, ud/d/f 2 (§6.7; the §4.2 shorthand "type[2:1]" would give 3
        // for f = 110); 111 is reserved (E_TYPE).
        self.es.next = self.in_type.val().get_bits::<2>(1);
        if self.in_type.val().get_bit(2) {
            self.es.next = 2.into();
        }
        self.fatal_err.next = self.fatal_err.val().replace_bit(1, self.in_type.val() == 7);
        self.fatal_err.next = self.fatal_err.val().replace_bit(0, self.in_enc_err.val());
        self.fatal_err.next = self.fatal_err.val().replace_bit(2, self.in_exec_log2.val() > self.k_nmax_log.val());
        self.fatal_err.next =
            self.fatal_err.val().replace_bit(3, self.in_width_log2.val() > self.in_exec_log2.val());
        self.fatal_err.next =
            self.fatal_err.val().replace_bit(4, bit_cast::<RAW_W, RNW>(self.in_reg.val()) >= self.k_nr.val());
        self.fatal_err.next = self.fatal_err.val().replace_bit(5, self.in_colmajor.val() & !self.k_colen.val());
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
        self.err.next = self.err.val().replace_bit(6, self.over.val() & !self.k_wrap.val());
        self.err.next = self.err.val().replace_bit(7, self.misalign.val() & self.k_align.val());
        self.err.next = self.err.val().replace_bit(8, self.in_is_dst.val() & self.ovl.val());
        self.err.next = self.err.val().replace_bit(
            9,
            self.in_is_dst.val()
                & self.k_restricted.val()
                & ((self.in_width_log2.val() != self.in_exec_log2.val()) | self.sub16.val().any()),
        );
        self.warn.next = 0.into();
        self.warn.next = self.warn.val().replace_bit(0, self.over.val() & self.k_wrap.val());
        self.warn.next = self.warn.val().replace_bit(1, self.misalign.val());
        self.warn.next = self.warn.val().replace_bit(2, self.strd.val().any());
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
        if self.rst.val() {
            self.r_valid.d.next = false;
            self.r_addr.d.next = 0.into();
            self.r_es.d.next = 0.into();
            self.r_chv.d.next = 0.into();
            self.r_str.d.next = 0.into();
            self.r_err.d.next = 0.into();
            self.r_warn.d.next = 0.into();
            self.r_tag.d.next = 0.into();
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

// ------------------------------------------------------------------------------------------
// Config validation, emission, co-sim variants.
// ------------------------------------------------------------------------------------------

fn cfg_params(cfg: &Config) -> Vec<(String, String)> {
    params!(
        "REG_BYTES" => cfg.reg_bytes, "NUM_REGS" => cfg.num_regs, "N_MAX" => cfg.n_max,
        "RN_W" => cfg.rn_w(), "RB_W" => cfg.rb_w(), "A_W" => cfg.a_w(), "RAW_W" => RAW_W,
        "HS_W" => cfg.hs_w, "VS_W" => cfg.vs_w, "TAG_W" => cfg.tag_w,
        "WRAP_RF" => cfg.wrap_rf as u32, "ALIGN_STRICT" => cfg.align_strict as u32,
        "DST_PROFILE" => cfg.dst_profile.to_uppercase(), "COLMAJOR_EN" => cfg.colmajor_en as u32,
        "RD_PORTS" => cfg.rd_ports, "WR_PORTS" => cfg.wr_ports, "L_RF" => cfg.l_rf,
        "SPAN_LIMIT_1PASS" => cfg.span_limit_1pass as u32,
    )
}

fn emit_rag<const NMAX: usize, const RNW: usize, const RBW: usize, const AW: usize, const ADDRW: usize>(
    cfg: &Config,
) -> Result<EmittedModule, EmitError> {
    emit_module(Rag::<NMAX, RNW, RBW, AW, ADDRW>::new(cfg), "eu_region_addr_gen", SECTION, cfg_params(cfg))
}

/// The (N_MAX, RN_W, RB_W) combinations that are monomorphised. Every instantiation costs
/// minutes of optimised build time (rust-hdl generates the simulation and the HDL builder per
/// type), so only these are built: the spec's Cfg A/B/C (N_MAX 16; RB 8/16/32 with NR 5..8),
/// and RB=32 with NR 65..128 for N_MAX 4/8/16/32 (Cfg D and its N_MAX variants). Adding a
/// combination is one tuple here; `validate` rejects the others by name.
pub const INSTANCES: &[(u32, usize, usize)] =
    &[(16, 3, 3), (16, 3, 4), (16, 3, 5), (16, 7, 5), (4, 7, 5), (8, 7, 5), (32, 7, 5)];

/// Dispatches a validated config onto the monomorphised RAG.
macro_rules! rag_dispatch {
    ($cfg:expr, $n:expr, $rnw:expr, $rbw:expr; INSTANCES) => {
        rag_dispatch!($cfg, $n, $rnw, $rbw; (16, 3, 3), (16, 3, 4), (16, 3, 5), (16, 7, 5), (4, 7, 5), (8, 7, 5), (32, 7, 5))
    };
    ($cfg:expr, $n:expr, $rnw:expr, $rbw:expr; $( ($N:literal, $RN:literal, $RB:literal) ),* $(,)?) => {{
        $( if $n == $N && $rnw == $RN && $rbw == $RB {
            return emit_rag::<$N, $RN, $RB, { $RN + $RB }, { $N * ($RN + $RB) }>($cfg);
        } )*
        unreachable!("validated config has no RAG instantiation: n_max={} rn_w={} rb_w={}", $n, $rnw, $rbw)
    }};
}

fn emit_rag_any(cfg: &Config) -> Result<EmittedModule, EmitError> {
    let (n, rnw, rbw) = (cfg.n_max as usize, cfg.rn_w(), cfg.rb_w());
    rag_dispatch!(cfg, n, rnw, rbw; INSTANCES)
}

pub mod gather;

/// (N_MAX, RN_W, RB_W, RD_PORTS) combinations for which the RFG `eu_region_gather` is built:
/// the seed's register files 8 B x 5 (Cfg A), 16 B x 8 (Cfg B), 32 B x 8 (Cfg C) and the default
/// 32 B x 128, each with N_MAX 16 and 2 read ports. Each costs optimised build time (one
/// monomorphised type); adding one is a tuple here and in `rfg_dispatch!`. Other configs emit
/// the RAG (and the RFS where built) alone.
pub const RFG_INSTANCES: &[(u32, usize, usize, u32)] = &[(16, 3, 3, 2), (16, 3, 4, 2), (16, 3, 5, 2), (16, 7, 5, 2)];

pub fn rfg_built(cfg: &Config) -> bool {
    RFG_INSTANCES.contains(&(cfg.n_max, cfg.rn_w(), cfg.rb_w(), cfg.rd_ports))
}

/// Width of `opnd_passes`: ceil(log2(2·N_MAX/RD_PORTS + 1)).
const fn passes_w(n: usize, rdp: usize) -> usize {
    ceil_log2((2 * n / rdp + 1) as u32) as usize
}

macro_rules! rfg_dispatch {
    ($cfg:expr; $( ($N:literal, $RN:literal, $RB:literal, $P:literal) ),* $(,)?) => {{
        let key = ($cfg.n_max, $cfg.rn_w(), $cfg.rb_w(), $cfg.rd_ports);
        $( if key == ($N, $RN, $RB, $P) {
            return emit_module(
                gather::Rfg::<$N, $RN, $RB, { $RN + $RB }, { $N * ($RN + $RB) }, $P, { $P * $RN },
                    { $P * 8 * (1 << $RB) }, { $N * 32 }, { passes_w($N, $P) }>::new($cfg),
                "eu_region_gather",
                SECTION,
                cfg_params($cfg),
            )
            .map(Some);
        } )*
        Ok(None)
    }};
}

fn emit_rfg(cfg: &Config) -> Result<Option<EmittedModule>, EmitError> {
    rfg_dispatch!(cfg; (16, 3, 3, 2), (16, 3, 4, 2), (16, 3, 5, 2), (16, 7, 5, 2))
}

pub mod scatter;

/// (N_MAX, RN_W, RB_W, WR_PORTS) combinations for which the RFS `eu_region_scatter` is built:
/// the same four register files as the RFG, one write port.
pub const RFS_INSTANCES: &[(u32, usize, usize, u32)] = &[(16, 3, 3, 1), (16, 3, 4, 1), (16, 3, 5, 1), (16, 7, 5, 1)];

pub fn rfs_built(cfg: &Config) -> bool {
    RFS_INSTANCES.contains(&(cfg.n_max, cfg.rn_w(), cfg.rb_w(), cfg.wr_ports))
}

macro_rules! rfs_dispatch {
    ($cfg:expr; $( ($N:literal, $RN:literal, $RB:literal, $Q:literal) ),* $(,)?) => {{
        let key = ($cfg.n_max, $cfg.rn_w(), $cfg.rb_w(), $cfg.wr_ports);
        $( if key == ($N, $RN, $RB, $Q) {
            return emit_module(
                scatter::Rfs::<$N, $RN, $RB, { $RN + $RB }, { $N * ($RN + $RB) }, $Q, { $Q * $RN },
                    { $Q * (1 << $RB) }, { $Q * 8 * (1 << $RB) }, { $N * 32 }>::new($cfg),
                "eu_region_scatter",
                SECTION,
                cfg_params($cfg),
            )
            .map(Some);
        } )*
        Ok(None)
    }};
}

fn emit_rfs(cfg: &Config) -> Result<Option<EmittedModule>, EmitError> {
    rfs_dispatch!(cfg; (16, 3, 3, 1), (16, 3, 4, 1), (16, 3, 5, 1), (16, 7, 5, 1))
}

pub struct Block;

impl BlockGen for Block {
    const NAME: &'static str = SECTION;
    type Config = Config;

    fn validate(cfg: &Config) -> Result<(), ConfigError> {
        check_one_of(SECTION, "reg_bytes", cfg.reg_bytes, &[8, 16, 32, 64])?;
        check_range(SECTION, "num_regs", cfg.num_regs as u64, 2, 256)?;
        check_one_of(SECTION, "n_max", cfg.n_max, &[4, 8, 16, 32])?;
        check_one_of(SECTION, "hs_w", cfg.hs_w, &[HS_W as u32])?;
        check_one_of(SECTION, "vs_w", cfg.vs_w, &[VS_W as u32])?;
        check_one_of(SECTION, "tag_w", cfg.tag_w, &[TAG_W as u32])?;
        check_one_of(SECTION, "dst_profile", cfg.dst_profile.as_str(), &["full", "restricted"])?;
        check_range(SECTION, "rd_ports", cfg.rd_ports as u64, 1, 4)?;
        check_range(SECTION, "wr_ports", cfg.wr_ports as u64, 1, 2)?;
        check_range(SECTION, "l_rf", cfg.l_rf as u64, 1, 3)?;
        // wrap_rf, align_strict, colmajor_en, span_limit_1pass are booleans: serde checks them.
        let (n, rnw, rbw) = (cfg.n_max, cfg.rn_w(), cfg.rb_w());
        if !INSTANCES.contains(&(n, rnw, rbw)) {
            let allowed: Vec<String> = INSTANCES
                .iter()
                .map(|&(n, rn, rb)| {
                    format!("n_max={n} reg_bytes={} num_regs={}..={}", 1 << rb, (1u32 << (rn - 1)) + 1, 1u32 << rn)
                })
                .collect();
            return Err(ConfigError::new(
                format!("{SECTION}.num_regs"),
                format!(
                    "the (n_max, reg_bytes, num_regs) combination ({n}, {}, {}) is not among the built \
                     instantiations {{{}}}",
                    cfg.reg_bytes,
                    cfg.num_regs,
                    allowed.join("; ")
                ),
            ));
        }
        debug_assert!(cfg.raw_w_is_enough());
        Ok(())
    }

    fn emit(cfg: &Config) -> Result<Vec<EmittedModule>, EmitError> {
        let mut v = vec![emit_rag_any(cfg)?];
        if let Some(m) = emit_rfg(cfg)? {
            v.push(m);
        }
        if let Some(m) = emit_rfs(cfg)? {
            v.push(m);
        }
        Ok(v)
    }

    fn cosim_configs() -> Vec<(&'static str, Config)> {
        let d = Config::default();
        vec![
            ("cfg_a", Config::cfg(8, 5)),
            ("cfg_b", Config::cfg(16, 8)),
            ("cfg_c", Config::cfg(32, 8)),
            ("default", d.clone()),
            ("n4", Config { n_max: 4, ..d.clone() }),
            ("n8", Config { n_max: 8, ..d.clone() }),
            ("n32", Config { n_max: 32, ..d.clone() }),
            // §2.8 option vectors: TVE1 (WRAP_RF=0), TVE9 (RESTRICTED), TVC1 (COLMAJOR_EN=1) on Cfg A;
            // TVE10 (ALIGN_STRICT=1) on Cfg B; TVD4n (WRAP_RF=0) on Cfg D.
            (
                "cfg_a_opt",
                Config {
                    wrap_rf: false,
                    dst_profile: "restricted".into(),
                    colmajor_en: true,
                    ..Config::cfg(8, 5)
                },
            ),
            ("cfg_b_strict", Config { align_strict: true, ..Config::cfg(16, 8) }),
            ("nowrap", Config { wrap_rf: false, ..d }),
        ]
    }
    /// The option variants (`cfg_a_opt`, `cfg_b_strict`, `nowrap`) test the RAG alone; the
    /// RFG/RFS are co-simulated on the four register-file configs only.
    fn cosim_keeps(variant: &str, module: &str) -> bool {
        module == "eu_region_addr_gen" || matches!(variant, "cfg_a" | "cfg_b" | "cfg_c" | "default")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key_of(cfg: Config) -> String {
        Block::validate(&cfg).expect_err("must be rejected").key
    }

    #[test]
    fn bad_configs_name_the_key_and_the_allowed_values() {
        let e = Block::validate(&Config { reg_bytes: 12, ..Default::default() }).unwrap_err();
        assert_eq!(e.key, "region_addr_gen.reg_bytes");
        assert!(e.msg.contains("8, 16, 32, 64") && e.msg.contains("12"), "{e}");
        let e = Block::validate(&Config { num_regs: 0, ..Default::default() }).unwrap_err();
        assert_eq!(e.key, "region_addr_gen.num_regs");
        assert!(e.msg.contains("2..=256"), "{e}");
        assert_eq!(key_of(Config { num_regs: 257, ..Default::default() }), "region_addr_gen.num_regs");
        assert_eq!(key_of(Config { n_max: 12, ..Default::default() }), "region_addr_gen.n_max");
        assert_eq!(key_of(Config { n_max: 64, ..Default::default() }), "region_addr_gen.n_max");
        assert_eq!(key_of(Config { hs_w: 9, ..Default::default() }), "region_addr_gen.hs_w");
        assert_eq!(key_of(Config { vs_w: 7, ..Default::default() }), "region_addr_gen.vs_w");
        assert_eq!(key_of(Config { tag_w: 0, ..Default::default() }), "region_addr_gen.tag_w");
        assert_eq!(key_of(Config { dst_profile: "fulll".into(), ..Default::default() }), "region_addr_gen.dst_profile");
        assert_eq!(key_of(Config { rd_ports: 0, ..Default::default() }), "region_addr_gen.rd_ports");
        assert_eq!(key_of(Config { wr_ports: 3, ..Default::default() }), "region_addr_gen.wr_ports");
        assert_eq!(key_of(Config { l_rf: 4, ..Default::default() }), "region_addr_gen.l_rf");
        let e = Block::validate(&Config { num_regs: 40, ..Default::default() }).unwrap_err();
        assert_eq!(e.key, "region_addr_gen.num_regs");
        assert!(e.msg.contains("num_regs=65..=128"), "{e}");
    }

    #[test]
    fn unknown_keys_are_rejected_by_the_toml_parser() {
        let r: Result<Config, _> = toml::from_str("reg_bytes = 32\nregbytes = 3\n");
        assert!(r.is_err());
        let c: Config = toml::from_str("reg_bytes = 8\nnum_regs = 5\n").unwrap();
        assert_eq!((c.reg_bytes, c.num_regs, c.n_max), (8, 5, 16));
    }

    /// Emits every co-sim variant (catches generate-time panics without a Verilator build);
    /// with EU_DUMP_VERILOG=<dir> the files are written there for lint/yosys.
    #[test]
    fn every_cosim_variant_emits() {
        for (v, c) in Block::cosim_configs() {
            Block::validate(&c).unwrap();
            let ms = Block::emit(&c).unwrap();
            let has = |n: &str| ms.iter().any(|m| m.name == n);
            assert_eq!((has("eu_region_gather"), has("eu_region_scatter")), (rfg_built(&c), rfs_built(&c)), "{v}");
            for m in ms {
                assert!(m.verilog.contains(&format!("module {}", m.name)), "{v}");
                if let Some(dir) = std::env::var_os("EU_DUMP_VERILOG") {
                    std::fs::write(std::path::Path::new(&dir).join(format!("{v}__{}.v", m.name)), &m.verilog).unwrap();
                }
            }
        }
    }

    #[test]
    fn raw_width_suffices_for_every_legal_config() {
        for rb in [8, 16, 32, 64] {
            for nr in [2, 5, 8, 128, 255, 256] {
                for n_max in [4, 8, 16, 32] {
                    let c = Config { reg_bytes: rb, num_regs: nr, n_max, ..Default::default() };
                    assert!(c.raw_w_is_enough(), "{c:?}");
                }
            }
        }
    }
}
