//! RTL of the RAG top `eu_region_addr_gen` (spec §6.2–§6.4, timing-closure §3.1): one descriptor
//! in, N_MAX channel byte addresses out, valid/ready on both sides, latency 1 + `pipe`.
//!
//! The datapath is seven sections joined by six `Carry`/`StageReg` joins, of which `pipe` makes
//! 0..6 registers (`handshake::LEVELS_OF_PIPE`), and the output register:
//!
//! | section | block | does |
//! |---|---|---|
//! | decode | `Decode` | fields, fatal checks, E_ALIGN/E_DST_PROFILE, HS and VS mod RF, HS + VS |
//! | stride | `Stride` | E·HS, E·VS mod RF (x, 2x and 4x mod RF side by side, a 3:1 mux on log2 E), the last channel's offset (W-1)·HS + (H-1)·VS, row overlap |
//! | table-lo | `TableLevel` × ⌈L/2⌉ and `StepDouble`s (column and row), `SpanEnd` | the lower levels of the offset tables; span and end of the region |
//! | table-hi | `TableLevel` × ⌊L/2⌋, `RangeCheck` | the upper levels; E_OOB / W_WRAP / region overlap |
//! | channel look-up | `ChannelLookup` (in `Channels`) | each channel's column and row entry, col[x] and row[y] (x = i mod W, y = i div W, or by H column-major) |
//! | channel-addr | `ChannelAddr` (in `Channels`, after its join 4) | addr(i) = (col[x] + row[y]) mod RF (the column table starts at the origin), ch_valid |
//! | channel-flags | `ChannelFlags` (in `Channels`, after its join 5) | straddle from addr mod RB, W_STRADDLE, final err/warn |
//!
//! (L = log2 N_MAX.) `Handshake` holds the valid bits. No section reads a later one, so the
//! block graph is feed-forward apart from the registers. Every register is an `RDff` (inside
//! `StageReg`): its synchronous reset sits in its clocked block, so no next-state logic reads `rst`.
//! The joins' data registers load on their level's `ready` (`Handshake::load`), valid or not.

use super::carry::{Carry, ShapeLine};
use super::channels::Channels;
use super::decode::Decode;
use super::handshake::{Handshake, LEVELS_OF_PIPE};
use super::range::{RangeCheck, SpanEnd};
use super::stride::Stride;
use super::table::{StepDouble, TableLevel};
use super::{Config, ERR_W, HS_W, RAW_W, TAG_W, VS_W, WARN_W};
use crate::prims::StageReg;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct Rag<const NMAX: usize, const RNW: usize, const RBW: usize, const AW: usize, const ADDRW: usize> {
    /// Rising-edge clock.
    pub clk: Signal<In, Clock>,
    /// Synchronous, active-high reset: clears `out_valid` and the output registers.
    pub rst: Signal<In, Bit>,
    /// Descriptor valid (handshake with `in_ready`).
    pub in_valid: Signal<In, Bit>,
    /// Descriptor accepted this cycle when high with `in_valid`: low only when every pipeline
    /// level is full and `out_ready` is low (`!out_valid | out_ready` with pipe = 0).
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
    hs: Handshake,
    decode: Decode<RNW, RBW, AW>,
    // join 0: decode | stride
    carry0: Carry,
    /// The shape from the decode to the look-up's select (joins 0..3).
    shape: ShapeLine,
    j0_hs_mod: StageReg<Bits<AW>>,
    j0_vs_mod: StageReg<Bits<AW>>,
    j0_hs_w: StageReg<Bits<RAW_W>>,
    j0_vs_h: StageReg<Bits<RAW_W>>,
    j0_hs_vs: StageReg<Bits<RAW_W>>,
    j0_is_dst: StageReg<Bit>,
    j0_origin: StageReg<Bits<AW>>,
    stride: Stride<AW>,
    // join 1: stride | table-lo
    carry1: Carry,
    j1_col_step: StageReg<Bits<AW>>,
    j1_row_step: StageReg<Bits<AW>>,
    /// (E·HS mod RF − RF) and (E·VS mod RF − RF) mod 2^A_W: the level adders' second operand.
    j1_col_step_m: StageReg<Bits<AW>>,
    j1_row_step_m: StageReg<Bits<AW>>,
    j1_span: StageReg<Bits<RAW_W>>,
    j1_is_dst: StageReg<Bit>,
    j1_origin: StageReg<Bits<AW>>,
    col_lo: Vec<TableLevel<NMAX, AW, ADDRW>>,
    row_lo: Vec<TableLevel<NMAX, AW, ADDRW>>,
    col_dbl_lo: Vec<StepDouble<AW>>,
    row_dbl_lo: Vec<StepDouble<AW>>,
    ends: SpanEnd<AW>,
    // join 2: table-lo | table-hi
    carry2: Carry,
    j2_col_tab: StageReg<Bits<ADDRW>>,
    j2_row_tab: StageReg<Bits<ADDRW>>,
    j2_col_step: StageReg<Bits<AW>>,
    j2_row_step: StageReg<Bits<AW>>,
    j2_col_step_m: StageReg<Bits<AW>>,
    j2_row_step_m: StageReg<Bits<AW>>,
    j2_span_end: StageReg<Bits<RAW_W>>,
    j2_last_end: StageReg<Bits<RAW_W>>,
    j2_is_dst: StageReg<Bit>,
    col_hi: Vec<TableLevel<NMAX, AW, ADDRW>>,
    row_hi: Vec<TableLevel<NMAX, AW, ADDRW>>,
    col_dbl_hi: Vec<StepDouble<AW>>,
    row_dbl_hi: Vec<StepDouble<AW>>,
    range: RangeCheck,
    // join 3: table-hi | channels
    carry3: Carry,
    j3_col_tab: StageReg<Bits<ADDRW>>,
    j3_row_tab: StageReg<Bits<ADDRW>>,
    channels: Channels<NMAX, AW, ADDRW>,
    // output register (§6.3: holds while out_valid and not out_ready)
    out_addr_r: StageReg<Bits<ADDRW>>,
    out_es_r: StageReg<Bits<2>>,
    out_ch_valid_r: StageReg<Bits<NMAX>>,
    out_straddle_r: StageReg<Bits<NMAX>>,
    out_err_r: StageReg<Bits<ERR_W>>,
    out_warn_r: StageReg<Bits<WARN_W>>,
    out_tag_r: StageReg<Bits<TAG_W>>,
    /// COLMAJOR_EN: without it a column-major request is fatal (E_COLMAJOR), its addresses zero,
    /// so the datapath may take `in_colmajor` as 0 and synthesis drops the column-major look-up.
    k_colmajor_en: Constant<Bit>,
    _n_lo: usize,
    _n_hi: usize,
    /// Doublings in table-hi (n_hi - 1), and 1 if there is a first one to feed from join 2.
    _n_dbl_hi: usize,
    _first_dbl_hi: usize,
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
        let joins = LEVELS_OF_PIPE[cfg.pipe as usize];
        let levels = NMAX.trailing_zeros() as usize;
        let n_lo = levels.div_ceil(2);
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
            hs: Handshake::new(cfg.pipe as usize),
            decode: Decode::new(cfg),
            carry0: Carry::new(joins[0]),
            shape: ShapeLine::new(&joins, NMAX),
            j0_hs_mod: StageReg::new(joins[0]),
            j0_vs_mod: StageReg::new(joins[0]),
            j0_hs_w: StageReg::new(joins[0]),
            j0_vs_h: StageReg::new(joins[0]),
            j0_hs_vs: StageReg::new(joins[0]),
            j0_is_dst: StageReg::new(joins[0]),
            j0_origin: StageReg::new(joins[0]),
            stride: Stride::new(cfg),
            carry1: Carry::new(joins[1]),
            j1_col_step: StageReg::new(joins[1]),
            j1_row_step: StageReg::new(joins[1]),
            j1_col_step_m: StageReg::new(joins[1]),
            j1_row_step_m: StageReg::new(joins[1]),
            j1_span: StageReg::new(joins[1]),
            j1_is_dst: StageReg::new(joins[1]),
            j1_origin: StageReg::new(joins[1]),
            col_lo: (0..n_lo).map(|b| TableLevel::new(cfg, b)).collect(),
            row_lo: (0..n_lo).map(|b| TableLevel::new(cfg, b)).collect(),
            col_dbl_lo: (0..n_lo).map(|_| StepDouble::new(cfg)).collect(),
            row_dbl_lo: (0..n_lo).map(|_| StepDouble::new(cfg)).collect(),
            ends: SpanEnd::new(),
            carry2: Carry::new(joins[2]),
            j2_col_tab: StageReg::new(joins[2]),
            j2_row_tab: StageReg::new(joins[2]),
            j2_col_step: StageReg::new(joins[2]),
            j2_row_step: StageReg::new(joins[2]),
            j2_col_step_m: StageReg::new(joins[2]),
            j2_row_step_m: StageReg::new(joins[2]),
            j2_span_end: StageReg::new(joins[2]),
            j2_last_end: StageReg::new(joins[2]),
            j2_is_dst: StageReg::new(joins[2]),
            col_hi: (n_lo..levels).map(|b| TableLevel::new(cfg, b)).collect(),
            row_hi: (n_lo..levels).map(|b| TableLevel::new(cfg, b)).collect(),
            col_dbl_hi: (n_lo + 1..levels).map(|_| StepDouble::new(cfg)).collect(),
            row_dbl_hi: (n_lo + 1..levels).map(|_| StepDouble::new(cfg)).collect(),
            range: RangeCheck::new(cfg),
            carry3: Carry::new(joins[3]),
            j3_col_tab: StageReg::new(joins[3]),
            j3_row_tab: StageReg::new(joins[3]),
            channels: Channels::new(cfg, joins[4], joins[5]),
            out_addr_r: StageReg::new(true),
            out_es_r: StageReg::new(true),
            out_ch_valid_r: StageReg::new(true),
            out_straddle_r: StageReg::new(true),
            out_err_r: StageReg::new(true),
            out_warn_r: StageReg::new(true),
            out_tag_r: StageReg::new(true),
            k_colmajor_en: Constant::new(cfg.colmajor_en),
            _n_lo: n_lo,
            _n_hi: levels - n_lo,
            _n_dbl_hi: levels - n_lo - 1,
            _first_dbl_hi: (levels - n_lo > 1) as usize,
        }
    }
}

impl<const NMAX: usize, const RNW: usize, const RBW: usize, const AW: usize, const ADDRW: usize> Logic
    for Rag<NMAX, RNW, RBW, AW, ADDRW>
{
    #[hdl_gen]
    fn update(&mut self) {
        // ---- clock, reset, and the load enables of the joins (Handshake's level k) ----
        // The joins' data registers keep their reset: without it yosys drives Decode's
        // zeroing of a fatal descriptor through the flops' reset pins (SB_DFFESR R), which put
        // the log2 compares -> j0_vs_h reset on the HX8K/UP5K worst path (branch rag-hs2).
        clock!(self, clk, hs, carry0, shape, j0_hs_mod, j0_vs_mod, j0_hs_w, j0_vs_h, j0_hs_vs, j0_is_dst, j0_origin, carry1, j1_col_step, j1_row_step, j1_col_step_m, j1_row_step_m, j1_span, j1_is_dst, j1_origin, carry2, j2_col_tab, j2_row_tab, j2_col_step, j2_row_step, j2_col_step_m, j2_row_step_m, j2_span_end, j2_last_end, j2_is_dst, carry3, j3_col_tab, j3_row_tab, channels, out_addr_r, out_es_r, out_ch_valid_r, out_straddle_r, out_err_r, out_warn_r, out_tag_r);
        self.hs.rst.next = self.rst.val();
        self.carry0.rst.next = self.rst.val();
        self.shape.rst.next = self.rst.val();
        self.j0_hs_mod.rst.next = self.rst.val();
        self.j0_vs_mod.rst.next = self.rst.val();
        self.j0_hs_w.rst.next = self.rst.val();
        self.j0_vs_h.rst.next = self.rst.val();
        self.j0_hs_vs.rst.next = self.rst.val();
        self.j0_is_dst.rst.next = self.rst.val();
        self.j0_origin.rst.next = self.rst.val();
        self.carry1.rst.next = self.rst.val();
        self.j1_col_step.rst.next = self.rst.val();
        self.j1_col_step_m.rst.next = self.rst.val();
        self.j1_row_step_m.rst.next = self.rst.val();
        self.j1_row_step.rst.next = self.rst.val();
        self.j1_span.rst.next = self.rst.val();
        self.j1_is_dst.rst.next = self.rst.val();
        self.j1_origin.rst.next = self.rst.val();
        self.carry2.rst.next = self.rst.val();
        self.j2_col_tab.rst.next = self.rst.val();
        self.j2_row_tab.rst.next = self.rst.val();
        self.j2_col_step.rst.next = self.rst.val();
        self.j2_col_step_m.rst.next = self.rst.val();
        self.j2_row_step_m.rst.next = self.rst.val();
        self.j2_row_step.rst.next = self.rst.val();
        self.j2_span_end.rst.next = self.rst.val();
        self.j2_last_end.rst.next = self.rst.val();
        self.j2_is_dst.rst.next = self.rst.val();
        self.carry3.rst.next = self.rst.val();
        self.j3_col_tab.rst.next = self.rst.val();
        self.j3_row_tab.rst.next = self.rst.val();
        self.channels.rst.next = self.rst.val();
        self.out_addr_r.rst.next = self.rst.val();
        self.out_es_r.rst.next = self.rst.val();
        self.out_ch_valid_r.rst.next = self.rst.val();
        self.out_straddle_r.rst.next = self.rst.val();
        self.out_err_r.rst.next = self.rst.val();
        self.out_warn_r.rst.next = self.rst.val();
        self.out_tag_r.rst.next = self.rst.val();
        self.carry0.en.next = self.hs.load.val().get_bit(0);
        self.shape.load.next = self.hs.load.val();
        self.j0_hs_mod.en.next = self.hs.load.val().get_bit(0);
        self.j0_vs_mod.en.next = self.hs.load.val().get_bit(0);
        self.j0_hs_w.en.next = self.hs.load.val().get_bit(0);
        self.j0_vs_h.en.next = self.hs.load.val().get_bit(0);
        self.j0_hs_vs.en.next = self.hs.load.val().get_bit(0);
        self.j0_is_dst.en.next = self.hs.load.val().get_bit(0);
        self.j0_origin.en.next = self.hs.load.val().get_bit(0);
        self.carry1.en.next = self.hs.load.val().get_bit(1);
        self.j1_col_step.en.next = self.hs.load.val().get_bit(1);
        self.j1_col_step_m.en.next = self.hs.load.val().get_bit(1);
        self.j1_row_step_m.en.next = self.hs.load.val().get_bit(1);
        self.j1_row_step.en.next = self.hs.load.val().get_bit(1);
        self.j1_span.en.next = self.hs.load.val().get_bit(1);
        self.j1_is_dst.en.next = self.hs.load.val().get_bit(1);
        self.j1_origin.en.next = self.hs.load.val().get_bit(1);
        self.carry2.en.next = self.hs.load.val().get_bit(2);
        self.j2_col_tab.en.next = self.hs.load.val().get_bit(2);
        self.j2_row_tab.en.next = self.hs.load.val().get_bit(2);
        self.j2_col_step.en.next = self.hs.load.val().get_bit(2);
        self.j2_col_step_m.en.next = self.hs.load.val().get_bit(2);
        self.j2_row_step_m.en.next = self.hs.load.val().get_bit(2);
        self.j2_row_step.en.next = self.hs.load.val().get_bit(2);
        self.j2_span_end.en.next = self.hs.load.val().get_bit(2);
        self.j2_last_end.en.next = self.hs.load.val().get_bit(2);
        self.j2_is_dst.en.next = self.hs.load.val().get_bit(2);
        self.carry3.en.next = self.hs.load.val().get_bit(3);
        self.j3_col_tab.en.next = self.hs.load.val().get_bit(3);
        self.j3_row_tab.en.next = self.hs.load.val().get_bit(3);
        self.channels.en_look.next = self.hs.load.val().get_bit(4);
        self.channels.en.next = self.hs.load.val().get_bit(5);
        self.out_addr_r.en.next = self.hs.load.val().get_bit(6);
        self.out_es_r.en.next = self.hs.load.val().get_bit(6);
        self.out_ch_valid_r.en.next = self.hs.load.val().get_bit(6);
        self.out_straddle_r.en.next = self.hs.load.val().get_bit(6);
        self.out_err_r.en.next = self.hs.load.val().get_bit(6);
        self.out_warn_r.en.next = self.hs.load.val().get_bit(6);
        self.out_tag_r.en.next = self.hs.load.val().get_bit(6);
        self.hs.in_valid.next = self.in_valid.val();
        self.hs.out_ready.next = self.out_ready.val();
        self.in_ready.next = self.hs.in_ready.val();
        self.out_valid.next = self.hs.out_valid.val();
        // ---- decode ----
        self.decode.enc_err.next = self.in_enc_err.val();
        self.decode.reg_num.next = self.in_reg.val();
        self.decode.sub.next = self.in_sub.val();
        self.decode.ty.next = self.in_type.val();
        self.decode.exec_log2.next = self.in_exec_log2.val();
        self.decode.width_log2.next = self.in_width_log2.val();
        self.decode.hs.next = self.in_hs.val();
        self.decode.vs.next = self.in_vs.val();
        self.decode.is_dst.next = self.in_is_dst.val();
        self.decode.colmajor.next = self.in_colmajor.val();
        self.carry0.err_in.next = self.decode.err_out.val();
        self.carry0.warn_in.next = self.decode.warn_out.val();
        self.carry0.es_in.next = self.decode.es.val();
        self.carry0.exec_log2_in.next = self.in_exec_log2.val();
        self.shape.width_log2.next = self.in_width_log2.val();
        self.shape.height_log2.next = self.decode.height_log2.val();
        self.shape.colmajor.next = self.in_colmajor.val() & self.k_colmajor_en.val();
        self.j0_origin.d.next = self.decode.origin.val();
        self.carry0.tag_in.next = self.in_tag.val();
        self.j0_hs_mod.d.next = self.decode.hs_mod.val();
        self.j0_vs_mod.d.next = self.decode.vs_mod.val();
        self.j0_hs_w.d.next = self.decode.hs_w.val();
        self.j0_vs_h.d.next = self.decode.vs_h.val();
        self.j0_hs_vs.d.next = self.decode.hs_vs.val();
        self.j0_is_dst.d.next = self.in_is_dst.val();
        // ---- stride ----
        self.stride.es.next = self.carry0.es_out.val();
        self.stride.exec_log2.next = self.carry0.exec_log2_out.val();
        self.stride.width_log2.next = self.shape.width_log2_j0.val();
        self.stride.is_dst.next = self.j0_is_dst.q.val();
        self.stride.hs_mod.next = self.j0_hs_mod.q.val();
        self.stride.vs_mod.next = self.j0_vs_mod.q.val();
        self.stride.hs_w.next = self.j0_hs_w.q.val();
        self.stride.vs_h.next = self.j0_vs_h.q.val();
        self.stride.hs_vs.next = self.j0_hs_vs.q.val();
        self.stride.err_in.next = self.carry0.err_out.val();
        self.carry1.err_in.next = self.stride.err_out.val();
        self.carry1.warn_in.next = self.carry0.warn_out.val();
        self.carry1.es_in.next = self.carry0.es_out.val();
        self.carry1.exec_log2_in.next = self.carry0.exec_log2_out.val();
        self.j1_origin.d.next = self.j0_origin.q.val();
        self.carry1.tag_in.next = self.carry0.tag_out.val();
        self.j1_col_step.d.next = self.stride.col_step.val();
        self.j1_col_step_m.d.next = self.stride.col_step_m.val();
        self.j1_row_step_m.d.next = self.stride.row_step_m.val();
        self.j1_row_step.d.next = self.stride.row_step.val();
        self.j1_span.d.next = self.stride.span.val();
        self.j1_is_dst.d.next = self.j0_is_dst.q.val();
        // ---- table-lo: levels 0..n_lo of both tables (entry 0 is 0), span and end ----
        // the column table starts at the origin: col[x] = (origin + x·E·HS) mod RF
        self.col_lo[0].tab_in.next = bit_cast::<ADDRW, AW>(self.j1_origin.q.val());
        self.col_lo[0].step_in.next = self.j1_col_step.q.val();
        self.col_lo[0].step_m_in.next = self.j1_col_step_m.q.val();
        self.col_dbl_lo[0].step_in.next = self.j1_col_step.q.val();
        self.row_lo[0].tab_in.next = 0.into();
        self.row_lo[0].step_in.next = self.j1_row_step.q.val();
        self.row_lo[0].step_m_in.next = self.j1_row_step_m.q.val();
        self.row_dbl_lo[0].step_in.next = self.j1_row_step.q.val();
        for b in 1..self._n_lo {
            self.col_lo[b].tab_in.next = self.col_lo[b - 1].tab_out.val();
            self.col_lo[b].step_in.next = self.col_dbl_lo[b - 1].step_out.val();
            self.col_lo[b].step_m_in.next = self.col_dbl_lo[b - 1].step_m_out.val();
            self.col_dbl_lo[b].step_in.next = self.col_dbl_lo[b - 1].step_out.val();
            self.row_lo[b].tab_in.next = self.row_lo[b - 1].tab_out.val();
            self.row_lo[b].step_in.next = self.row_dbl_lo[b - 1].step_out.val();
            self.row_lo[b].step_m_in.next = self.row_dbl_lo[b - 1].step_m_out.val();
            self.row_dbl_lo[b].step_in.next = self.row_dbl_lo[b - 1].step_out.val();
        }
        self.ends.span.next = self.j1_span.q.val();
        self.ends.es.next = self.carry1.es_out.val();
        self.ends.origin.next = self.j1_origin.q.val();
        self.carry2.err_in.next = self.carry1.err_out.val();
        self.carry2.warn_in.next = self.carry1.warn_out.val();
        self.carry2.es_in.next = self.carry1.es_out.val();
        self.carry2.exec_log2_in.next = self.carry1.exec_log2_out.val();
        self.carry2.tag_in.next = self.carry1.tag_out.val();
        for b in (self._n_lo - 1)..self._n_lo {
            self.j2_col_tab.d.next = self.col_lo[b].tab_out.val();
            self.j2_col_step.d.next = self.col_dbl_lo[b].step_out.val();
            self.j2_col_step_m.d.next = self.col_dbl_lo[b].step_m_out.val();
            self.j2_row_step_m.d.next = self.row_dbl_lo[b].step_m_out.val();
            self.j2_row_tab.d.next = self.row_lo[b].tab_out.val();
            self.j2_row_step.d.next = self.row_dbl_lo[b].step_out.val();
        }
        self.j2_span_end.d.next = self.ends.span_end.val();
        self.j2_last_end.d.next = self.ends.last_end.val();
        self.j2_is_dst.d.next = self.j1_is_dst.q.val();
        // ---- table-hi: the remaining levels; range checks ----
        self.col_hi[0].tab_in.next = self.j2_col_tab.q.val();
        self.col_hi[0].step_in.next = self.j2_col_step.q.val();
        self.col_hi[0].step_m_in.next = self.j2_col_step_m.q.val();
        self.row_hi[0].tab_in.next = self.j2_row_tab.q.val();
        self.row_hi[0].step_in.next = self.j2_row_step.q.val();
        self.row_hi[0].step_m_in.next = self.j2_row_step_m.q.val();
        for b in 0..self._first_dbl_hi {
            self.col_dbl_hi[b].step_in.next = self.j2_col_step.q.val();
            self.row_dbl_hi[b].step_in.next = self.j2_row_step.q.val();
        }
        for b in 1..self._n_dbl_hi {
            self.col_dbl_hi[b].step_in.next = self.col_dbl_hi[b - 1].step_out.val();
            self.row_dbl_hi[b].step_in.next = self.row_dbl_hi[b - 1].step_out.val();
        }
        for b in 1..self._n_hi {
            self.col_hi[b].tab_in.next = self.col_hi[b - 1].tab_out.val();
            self.col_hi[b].step_in.next = self.col_dbl_hi[b - 1].step_out.val();
            self.col_hi[b].step_m_in.next = self.col_dbl_hi[b - 1].step_m_out.val();
            self.row_hi[b].tab_in.next = self.row_hi[b - 1].tab_out.val();
            self.row_hi[b].step_in.next = self.row_dbl_hi[b - 1].step_out.val();
            self.row_hi[b].step_m_in.next = self.row_dbl_hi[b - 1].step_m_out.val();
        }
        self.range.span_end.next = self.j2_span_end.q.val();
        self.range.last_end.next = self.j2_last_end.q.val();
        self.range.is_dst.next = self.j2_is_dst.q.val();
        self.range.err_in.next = self.carry2.err_out.val();
        self.range.warn_in.next = self.carry2.warn_out.val();
        self.carry3.err_in.next = self.range.err_out.val();
        self.carry3.warn_in.next = self.range.warn_out.val();
        self.carry3.es_in.next = self.carry2.es_out.val();
        self.carry3.exec_log2_in.next = self.carry2.exec_log2_out.val();
        self.carry3.tag_in.next = self.carry2.tag_out.val();
        for b in (self._n_hi - 1)..self._n_hi {
            self.j3_col_tab.d.next = self.col_hi[b].tab_out.val();
            self.j3_row_tab.d.next = self.row_hi[b].tab_out.val();
        }
        // ---- channels ----
        self.channels.col_tab.next = self.j3_col_tab.q.val();
        self.channels.row_tab.next = self.j3_row_tab.q.val();
        self.channels.es.next = self.carry3.es_out.val();
        self.channels.exec_log2.next = self.carry3.exec_log2_out.val();
        self.channels.look_sel.next = self.shape.look_sel.val();
        self.channels.err_in.next = self.carry3.err_out.val();
        self.channels.warn_in.next = self.carry3.warn_out.val();
        self.channels.tag_in.next = self.carry3.tag_out.val();
        // ---- output register ----
        self.out_addr_r.d.next = self.channels.addr.val();
        self.out_es_r.d.next = self.channels.es_out.val();
        self.out_ch_valid_r.d.next = self.channels.ch_valid.val();
        self.out_straddle_r.d.next = self.channels.straddle.val();
        self.out_err_r.d.next = self.channels.err_out.val();
        self.out_warn_r.d.next = self.channels.warn_out.val();
        self.out_tag_r.d.next = self.channels.tag_out.val();
        self.out_addr.next = self.out_addr_r.q.val();
        self.out_esize_log2.next = self.out_es_r.q.val();
        self.out_ch_valid.next = self.out_ch_valid_r.q.val();
        self.out_straddle.next = self.out_straddle_r.q.val();
        self.out_err.next = self.out_err_r.q.val();
        self.out_warn.next = self.out_warn_r.q.val();
        self.out_tag.next = self.out_tag_r.q.val();
    }
}
