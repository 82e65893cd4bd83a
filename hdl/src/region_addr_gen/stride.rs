//! `Stride`: the second datapath section of the RAG: the byte strides E·HS and E·VS modulo RF
//! (from HS mod RF and VS mod RF by at most two modular doublings, E = 1, 2, 4), the last
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
    k_amask: Constant<Bits<RAW_W>>,
    k_pow2: Constant<Bit>,
    k_err_e_dst_overlap: Constant<Bits<ERR_W>>,
    h: Signal<Local, Bits<RAW_W>>,
    v: Signal<Local, Bits<RAW_W>>,
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
            k_amask: Constant::new(((1u64 << AW) - 1).to_bits()),
            k_pow2: Constant::new(rf.is_power_of_two()),
            k_err_e_dst_overlap: Constant::new(err::E_DST_OVERLAP.to_bits()),
            h: Default::default(),
            v: Default::default(),
        }
    }
}

impl<const AW: usize> Logic for Stride<AW> {
    #[hdl_gen]
    fn update(&mut self) {
        self.h.next = bit_cast::<RAW_W, AW>(self.hs_mod.val());
        self.v.next = bit_cast::<RAW_W, AW>(self.vs_mod.val());
        // x2 mod RF for E >= 2, once more for E = 4 (a, b < RF, so one subtraction suffices).
        // The doubling is a shift, not x + x: an adder whose two inputs are one net puts that net
        // on two pins of one iCE40 carry LUT, and nextpnr-ice40 0.4 never finishes routing it
        // (scripts/fpga/carry_check.py rejects such a netlist before place and route).
        if self.es.val() != 0 {
            self.h.next = self.h.val() << 1;
            self.v.next = self.v.val() << 1;
            if !self.k_pow2.val() & (self.h.val() >= self.k_rf.val()) {
                self.h.next = self.h.val() - self.k_rf.val();
            }
            if !self.k_pow2.val() & (self.v.val() >= self.k_rf.val()) {
                self.v.next = self.v.val() - self.k_rf.val();
            }
        }
        if self.es.val() == 2 {
            self.h.next = self.h.val() << 1;
            self.v.next = self.v.val() << 1;
            if !self.k_pow2.val() & (self.h.val() >= self.k_rf.val()) {
                self.h.next = self.h.val() - self.k_rf.val();
            }
            if !self.k_pow2.val() & (self.v.val() >= self.k_rf.val()) {
                self.v.next = self.v.val() - self.k_rf.val();
            }
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
