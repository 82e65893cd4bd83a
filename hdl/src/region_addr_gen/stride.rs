//! `Stride`: the second datapath section of the RAG: the byte strides E·HS and E·VS modulo RF
//! (E = 1, 2, 4: x, 2x mod RF and 4x mod RF side by side from x = HS or VS mod RF, each one
//! compare-and-subtract deep, then a 3:1 mux on log2 E), the last
//! channel's element offset (W-1)·HS + (H-1)·VS, and the second E_DST_OVERLAP term of §5.5
//! (rows overlap: H > 1 and VS ≤ (W-1)·HS).
//!
//! W and H are powers of two, so (W-1)·HS + (H-1)·VS = (HS << w) + (VS << h) − (HS + VS), with
//! HS << w, VS << h and HS + VS from `Decode`: one carry-save layer (a LUT per bit) and one adder
//! (since 2026-11-26; before, `Decode` computed both halves by shift-and-subtract in the
//! request's first cycle, its worst path; later the same day the two shifts moved back into
//! `Decode`, because shift → row-overlap compare here became the ECP5 worst path). Nothing
//! wraps: HS << w < 2^14, VS << h < 2^15.

use super::enc::err;
use super::{Config, ERR_W, RAW_W};
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
    /// W·HS (HS << log2 W, from `Decode`).
    pub hs_w: Signal<In, Bits<RAW_W>>,
    /// H·VS (VS << log2 H, from `Decode`).
    pub vs_h: Signal<In, Bits<RAW_W>>,
    /// HS + VS.
    pub hs_vs: Signal<In, Bits<RAW_W>>,
    /// Error bits so far.
    pub err_in: Signal<In, Bits<ERR_W>>,
    /// E·HS mod RF (the column step).
    pub col_step: Signal<Out, Bits<AW>>,
    /// E·VS mod RF (the row step).
    pub row_step: Signal<Out, Bits<AW>>,
    /// (E·HS mod RF − RF) mod 2^A_W: the table levels' second adder operand (`table` module doc).
    pub col_step_m: Signal<Out, Bits<AW>>,
    /// (E·VS mod RF − RF) mod 2^A_W.
    pub row_step_m: Signal<Out, Bits<AW>>,
    /// (W-1)·HS + (H-1)·VS: the last channel's offset in elements.
    pub span: Signal<Out, Bits<RAW_W>>,
    /// `err_in` plus the row-overlap term of E_DST_OVERLAP.
    pub err_out: Signal<Out, Bits<ERR_W>>,
    k_rf: Constant<Bits<RAW_W>>,
    k_rf2: Constant<Bits<RAW_W>>,
    k_rf3: Constant<Bits<RAW_W>>,
    k_rf4: Constant<Bits<RAW_W>>,
    k_amask: Constant<Bits<RAW_W>>,
    k_pow2: Constant<Bit>,
    k_one: Constant<Bits<RAW_W>>,
    k_err_e_dst_overlap: Constant<Bits<ERR_W>>,
    /// ~(HS + VS): with a carry-in of 1, −(HS + VS).
    neg_hs_vs: Signal<Local, Bits<RAW_W>>,
    /// Carry-save sum and carries of W·HS + H·VS + ~(HS + VS).
    csa_sum: Signal<Local, Bits<RAW_W>>,
    csa_carry: Signal<Local, Bits<RAW_W>>,
    h: Signal<Local, Bits<RAW_W>>,
    v: Signal<Local, Bits<RAW_W>>,
    h2: Signal<Local, Bits<RAW_W>>,
    v2: Signal<Local, Bits<RAW_W>>,
    h4: Signal<Local, Bits<RAW_W>>,
    v4: Signal<Local, Bits<RAW_W>>,
    /// The same values minus RF (one more RF subtracted, side by side with the reduction).
    hm: Signal<Local, Bits<RAW_W>>,
    vm: Signal<Local, Bits<RAW_W>>,
    h2m: Signal<Local, Bits<RAW_W>>,
    v2m: Signal<Local, Bits<RAW_W>>,
    h4m: Signal<Local, Bits<RAW_W>>,
    v4m: Signal<Local, Bits<RAW_W>>,
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
            hs_w: Default::default(),
            vs_h: Default::default(),
            hs_vs: Default::default(),
            err_in: Default::default(),
            col_step: Default::default(),
            row_step: Default::default(),
            col_step_m: Default::default(),
            row_step_m: Default::default(),
            span: Default::default(),
            err_out: Default::default(),
            k_rf: Constant::new(rf.to_bits()),
            k_rf2: Constant::new((2 * rf).to_bits()),
            k_rf3: Constant::new((3 * rf).to_bits()),
            k_rf4: Constant::new((4 * rf).to_bits()),
            k_amask: Constant::new(((1u64 << AW) - 1).to_bits()),
            k_pow2: Constant::new(rf.is_power_of_two()),
            k_one: Constant::new(1u64.to_bits()),
            k_err_e_dst_overlap: Constant::new(err::E_DST_OVERLAP.to_bits()),
            neg_hs_vs: Default::default(),
            csa_sum: Default::default(),
            csa_carry: Default::default(),
            h: Default::default(),
            v: Default::default(),
            h2: Default::default(),
            v2: Default::default(),
            h4: Default::default(),
            v4: Default::default(),
            hm: Default::default(),
            vm: Default::default(),
            h2m: Default::default(),
            v2m: Default::default(),
            h4m: Default::default(),
            v4m: Default::default(),
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
        // each `..m` twin is assigned before its value is reduced: it reads the unreduced one
        self.hm.next = self.h.val() - self.k_rf.val();
        self.vm.next = self.v.val() - self.k_rf.val();
        self.h2.next = self.h.val() << 1;
        self.v2.next = self.v.val() << 1;
        self.h2m.next = self.h2.val() - self.k_rf.val();
        self.v2m.next = self.v2.val() - self.k_rf.val();
        if !self.k_pow2.val() & (self.h2.val() >= self.k_rf.val()) {
            self.h2m.next = self.h2.val() - self.k_rf2.val();
            self.h2.next = self.h2.val() - self.k_rf.val();
        }
        if !self.k_pow2.val() & (self.v2.val() >= self.k_rf.val()) {
            self.v2m.next = self.v2.val() - self.k_rf2.val();
            self.v2.next = self.v2.val() - self.k_rf.val();
        }
        // 4x mod RF straight from x (not from 2x mod RF): 4x < 4RF, so 0..3 RF off; the three
        // compares and subtractions run side by side, one carry chain deep
        self.h4.next = self.h.val() << 2;
        self.v4.next = self.v.val() << 2;
        self.h4m.next = self.h4.val() - self.k_rf.val();
        self.v4m.next = self.v4.val() - self.k_rf.val();
        if !self.k_pow2.val() {
            if self.h4.val() >= self.k_rf3.val() {
                self.h4m.next = self.h4.val() - self.k_rf4.val();
                self.h4.next = self.h4.val() - self.k_rf3.val();
            } else if self.h4.val() >= self.k_rf2.val() {
                self.h4m.next = self.h4.val() - self.k_rf3.val();
                self.h4.next = self.h4.val() - self.k_rf2.val();
            } else if self.h4.val() >= self.k_rf.val() {
                self.h4m.next = self.h4.val() - self.k_rf2.val();
                self.h4.next = self.h4.val() - self.k_rf.val();
            }
            if self.v4.val() >= self.k_rf3.val() {
                self.v4m.next = self.v4.val() - self.k_rf4.val();
                self.v4.next = self.v4.val() - self.k_rf3.val();
            } else if self.v4.val() >= self.k_rf2.val() {
                self.v4m.next = self.v4.val() - self.k_rf3.val();
                self.v4.next = self.v4.val() - self.k_rf2.val();
            } else if self.v4.val() >= self.k_rf.val() {
                self.v4m.next = self.v4.val() - self.k_rf2.val();
                self.v4.next = self.v4.val() - self.k_rf.val();
            }
        }
        // E = 1, 2, 4 (log2 E = 3 never comes from Decode; it took one doubling before, so here too)
        if self.es.val() == 2 {
            self.h.next = self.h4.val();
            self.v.next = self.v4.val();
            self.hm.next = self.h4m.val();
            self.vm.next = self.v4m.val();
        } else if self.es.val() != 0 {
            self.h.next = self.h2.val();
            self.v.next = self.v2.val();
            self.hm.next = self.h2m.val();
            self.vm.next = self.v2m.val();
        }
        self.col_step.next = bit_cast::<AW, RAW_W>(self.h.val() & self.k_amask.val());
        self.row_step.next = bit_cast::<AW, RAW_W>(self.v.val() & self.k_amask.val());
        self.col_step_m.next = bit_cast::<AW, RAW_W>(self.hm.val() & self.k_amask.val());
        self.row_step_m.next = bit_cast::<AW, RAW_W>(self.vm.val() & self.k_amask.val());
        // span = W·HS + H·VS + ~(HS + VS) + 1: a carry-save layer, then one adder (the + 1 is
        // bit 0 of the shifted carries, always 0 otherwise)
        self.neg_hs_vs.next = !self.hs_vs.val();
        self.csa_sum.next = self.hs_w.val() ^ self.vs_h.val() ^ self.neg_hs_vs.val();
        self.csa_carry.next = (((self.hs_w.val() & self.vs_h.val())
            | (self.hs_w.val() & self.neg_hs_vs.val())
            | (self.vs_h.val() & self.neg_hs_vs.val()))
            << 1)
            | self.k_one.val();
        self.span.next = self.csa_sum.val() + self.csa_carry.val();
        self.err_out.next = self.err_in.val();
        // VS ≤ (W-1)·HS is HS + VS ≤ W·HS
        if self.is_dst.val() & (self.width_log2.val() != self.exec_log2.val()) & (self.hs_vs.val() <= self.hs_w.val()) {
            self.err_out.next = self.err_out.val() | self.k_err_e_dst_overlap.val();
        }
    }
}
