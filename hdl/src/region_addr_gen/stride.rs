//! `Stride`: the second datapath section of the RAG: the byte strides E·HS and E·VS modulo RF
//! (E = 1, 2, 4: x, 2x mod RF and 4x mod RF side by side from x = HS or VS mod RF, each one
//! compare-and-subtract deep, then a 3:1 mux on log2 E), the last
//! channel's element offset (W-1)·HS + (H-1)·VS, and the second E_DST_OVERLAP term of §5.5
//! (rows overlap: H > 1 and VS ≤ (W-1)·HS).

use super::enc::err;
use super::{Config, ERR_W, RAW_W, VS_W};
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct Stride<const AW: usize> {
    /// log2 E.
    pub es: Signal<In, Bits<2>>,
    /// log2 N.
    pub exec_log2: Signal<In, Bits<3>>,
    /// log2 W.
    pub width_log2: Signal<In, Bits<3>>,
    /// Destination region.
    pub is_dst: Signal<In, Bit>,
    /// HS mod RF.
    pub hs_mod: Signal<In, Bits<AW>>,
    /// VS mod RF.
    pub vs_mod: Signal<In, Bits<AW>>,
    /// VS.
    pub vs_raw: Signal<In, Bits<VS_W>>,
    /// (W-1)·HS.
    pub w_span: Signal<In, Bits<RAW_W>>,
    /// (H-1)·VS.
    pub h_span: Signal<In, Bits<RAW_W>>,
    /// Error bits so far.
    pub err_in: Signal<In, Bits<ERR_W>>,
    /// E·HS mod RF (the column step).
    pub col_step: Signal<Out, Bits<AW>>,
    /// E·VS mod RF (the row step).
    pub row_step: Signal<Out, Bits<AW>>,
    /// (W-1)·HS + (H-1)·VS: the last channel's offset in elements.
    pub span: Signal<Out, Bits<RAW_W>>,
    /// `err_in` plus the row-overlap term of E_DST_OVERLAP.
    pub err_out: Signal<Out, Bits<ERR_W>>,
    k_rf: Constant<Bits<RAW_W>>,
    k_rf2: Constant<Bits<RAW_W>>,
    k_rf3: Constant<Bits<RAW_W>>,
    k_amask: Constant<Bits<RAW_W>>,
    k_pow2: Constant<Bit>,
    k_err_e_dst_overlap: Constant<Bits<ERR_W>>,
    h: Signal<Local, Bits<RAW_W>>,
    v: Signal<Local, Bits<RAW_W>>,
    h2: Signal<Local, Bits<RAW_W>>,
    v2: Signal<Local, Bits<RAW_W>>,
    h4: Signal<Local, Bits<RAW_W>>,
    v4: Signal<Local, Bits<RAW_W>>,
}

impl<const AW: usize> Stride<AW> {
    pub fn new(cfg: &Config) -> Self {
        let rf = cfg.rf_bytes() as u64;
        Self {
            es: Default::default(),
            exec_log2: Default::default(),
            width_log2: Default::default(),
            is_dst: Default::default(),
            hs_mod: Default::default(),
            vs_mod: Default::default(),
            vs_raw: Default::default(),
            w_span: Default::default(),
            h_span: Default::default(),
            err_in: Default::default(),
            col_step: Default::default(),
            row_step: Default::default(),
            span: Default::default(),
            err_out: Default::default(),
            k_rf: Constant::new(rf.to_bits()),
            k_rf2: Constant::new((2 * rf).to_bits()),
            k_rf3: Constant::new((3 * rf).to_bits()),
            k_amask: Constant::new(((1u64 << AW) - 1).to_bits()),
            k_pow2: Constant::new(rf.is_power_of_two()),
            k_err_e_dst_overlap: Constant::new(err::E_DST_OVERLAP.to_bits()),
            h: Default::default(),
            v: Default::default(),
            h2: Default::default(),
            v2: Default::default(),
            h4: Default::default(),
            v4: Default::default(),
        }
    }
}

impl<const AW: usize> Logic for Stride<AW> {
    #[hdl_gen]
    fn update(&mut self) {
        self.h.next = bit_cast::<RAW_W, AW>(self.hs_mod.val());
        self.v.next = bit_cast::<RAW_W, AW>(self.vs_mod.val());
        // 2x mod RF: 2x < 2RF, so at most one RF off (a mask for a power-of-two RF). A shift, not
        // x + x: an adder whose two inputs are one net puts that net on two pins of one iCE40
        // carry LUT, and nextpnr-ice40 0.4 never finishes routing it (scripts/fpga/carry_check.py)
        self.h2.next = self.h.val() << 1;
        self.v2.next = self.v.val() << 1;
        if !self.k_pow2.val() & (self.h2.val() >= self.k_rf.val()) {
            self.h2.next = self.h2.val() - self.k_rf.val();
        }
        if !self.k_pow2.val() & (self.v2.val() >= self.k_rf.val()) {
            self.v2.next = self.v2.val() - self.k_rf.val();
        }
        // 4x mod RF straight from x (not from 2x mod RF): 4x < 4RF, so 0..3 RF off; the three
        // compares and subtractions run side by side, one carry chain deep
        self.h4.next = self.h.val() << 2;
        self.v4.next = self.v.val() << 2;
        if !self.k_pow2.val() {
            if self.h4.val() >= self.k_rf3.val() {
                self.h4.next = self.h4.val() - self.k_rf3.val();
            } else if self.h4.val() >= self.k_rf2.val() {
                self.h4.next = self.h4.val() - self.k_rf2.val();
            } else if self.h4.val() >= self.k_rf.val() {
                self.h4.next = self.h4.val() - self.k_rf.val();
            }
            if self.v4.val() >= self.k_rf3.val() {
                self.v4.next = self.v4.val() - self.k_rf3.val();
            } else if self.v4.val() >= self.k_rf2.val() {
                self.v4.next = self.v4.val() - self.k_rf2.val();
            } else if self.v4.val() >= self.k_rf.val() {
                self.v4.next = self.v4.val() - self.k_rf.val();
            }
        }
        // E = 1, 2, 4 (log2 E = 3 never comes from Decode; it took one doubling before, so here too)
        if self.es.val() == 2 {
            self.h.next = self.h4.val();
            self.v.next = self.v4.val();
        } else if self.es.val() != 0 {
            self.h.next = self.h2.val();
            self.v.next = self.v2.val();
        }
        self.col_step.next = bit_cast::<AW, RAW_W>(self.h.val() & self.k_amask.val());
        self.row_step.next = bit_cast::<AW, RAW_W>(self.v.val() & self.k_amask.val());
        self.span.next = self.w_span.val() + self.h_span.val();
        self.err_out.next = self.err_in.val();
        if self.is_dst.val()
            & (self.width_log2.val() != self.exec_log2.val())
            & (bit_cast::<RAW_W, VS_W>(self.vs_raw.val()) <= self.w_span.val())
        {
            self.err_out.next = self.err_out.val() | self.k_err_e_dst_overlap.val();
        }
    }
}
