//! The range checks of the RAG (§6.4 err6 E_OOB, warn0 W_WRAP, and the third E_DST_OVERLAP term
//! of §5.5), in two sections because each is a carry chain: `SpanEnd` computes the byte span of
//! the region and the end of its last element, `RangeCheck` compares them with RF. All of it
//! uses only the last channel N-1 (HS, VS ≥ 0: its raw address is the largest).

use super::enc::{err, warn};
use super::{Config, ERR_W, RAW_W, WARN_W};
use rust_hdl::prelude::*;

/// Byte span and end of the last element: `span_end = E·((W-1)·HS + (H-1)·VS) + E` and
/// `last_end = origin + span_end` (= raw(N-1) + E).
#[derive(LogicBlock)]
pub struct SpanEnd<const AW: usize> {
    /// (W-1)·HS + (H-1)·VS.
    pub span: Signal<In, Bits<RAW_W>>,
    /// log2 E.
    pub es: Signal<In, Bits<2>>,
    /// reg·RB + sub.
    pub origin: Signal<In, Bits<AW>>,
    /// E·span + E.
    pub span_end: Signal<Out, Bits<RAW_W>>,
    /// origin + E·span + E.
    pub last_end: Signal<Out, Bits<RAW_W>>,
    k_one: Constant<Bits<RAW_W>>,
}

impl<const AW: usize> SpanEnd<AW> {
    pub fn new() -> Self {
        Self {
            span: Default::default(),
            es: Default::default(),
            origin: Default::default(),
            span_end: Default::default(),
            last_end: Default::default(),
            k_one: Constant::new(1u64.to_bits()),
        }
    }
}

impl<const AW: usize> Logic for SpanEnd<AW> {
    #[hdl_gen]
    fn update(&mut self) {
        self.span_end.next = (self.span.val() << self.es.val()) + (self.k_one.val() << self.es.val());
        self.last_end.next = bit_cast::<RAW_W, AW>(self.origin.val()) + self.span_end.val();
    }
}

/// `last_end > RF`: W_WRAP (WRAP_RF) or E_OOB; `is_dst ∧ span_end > RF`: the region is longer
/// than the RF, so it overlaps itself after the wrap (E_DST_OVERLAP).
#[derive(LogicBlock)]
pub struct RangeCheck {
    /// E·span + E.
    pub span_end: Signal<In, Bits<RAW_W>>,
    /// origin + E·span + E.
    pub last_end: Signal<In, Bits<RAW_W>>,
    /// Destination region.
    pub is_dst: Signal<In, Bit>,
    /// Error bits so far.
    pub err_in: Signal<In, Bits<ERR_W>>,
    /// Warning bits so far.
    pub warn_in: Signal<In, Bits<WARN_W>>,
    /// `err_in` plus E_OOB / E_DST_OVERLAP.
    pub err_out: Signal<Out, Bits<ERR_W>>,
    /// `warn_in` plus W_WRAP.
    pub warn_out: Signal<Out, Bits<WARN_W>>,
    k_rf: Constant<Bits<RAW_W>>,
    k_wrap: Constant<Bit>,
    k_err_e_oob: Constant<Bits<ERR_W>>,
    k_err_e_dst_overlap: Constant<Bits<ERR_W>>,
    k_warn_w_wrap: Constant<Bits<WARN_W>>,
    over: Signal<Local, Bit>,
}

impl RangeCheck {
    pub fn new(cfg: &Config) -> Self {
        Self {
            span_end: Default::default(),
            last_end: Default::default(),
            is_dst: Default::default(),
            err_in: Default::default(),
            warn_in: Default::default(),
            err_out: Default::default(),
            warn_out: Default::default(),
            k_rf: Constant::new((cfg.rf_bytes() as u64).to_bits()),
            k_wrap: Constant::new(cfg.wrap_rf),
            k_err_e_oob: Constant::new(err::E_OOB.to_bits()),
            k_err_e_dst_overlap: Constant::new(err::E_DST_OVERLAP.to_bits()),
            k_warn_w_wrap: Constant::new(warn::W_WRAP.to_bits()),
            over: Default::default(),
        }
    }
}

impl Logic for RangeCheck {
    #[hdl_gen]
    fn update(&mut self) {
        // "raw(N-1) + E - 1 >= RF" is "last_end > RF"
        self.over.next = self.last_end.val() > self.k_rf.val();
        self.err_out.next = self.err_in.val();
        self.warn_out.next = self.warn_in.val();
        if self.over.val() & !self.k_wrap.val() {
            self.err_out.next = self.err_out.val() | self.k_err_e_oob.val();
        }
        if self.over.val() & self.k_wrap.val() {
            self.warn_out.next = self.warn_out.val() | self.k_warn_w_wrap.val();
        }
        if self.is_dst.val() & (self.span_end.val() > self.k_rf.val()) {
            self.err_out.next = self.err_out.val() | self.k_err_e_dst_overlap.val();
        }
    }
}
