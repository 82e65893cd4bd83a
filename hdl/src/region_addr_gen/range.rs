//! The range checks of the RAG (§6.4 err6 E_OOB, warn0 W_WRAP, and the third E_DST_OVERLAP term
//! of §5.5), in two sections because each is a carry chain: `SpanEnd` computes the byte span of
//! the region and the start of its last element, `RangeCheck` compares them with RF − E. All of
//! it uses only the last channel N-1 (HS, VS ≥ 0: its raw address is the largest).
//!
//! Since 2026-11-27 the element's E is not added in `SpanEnd` (before: E·span + E and origin +
//! that, two carry chains in series in table-lo): `last_end > RF` is `origin + E·span > RF − E`
//! and `E·span + E > RF` is `E·span > RF − E`, with RF − E one of four constants.

use super::enc::{err, warn};
use super::{Config, ERR_W, RAW_W, WARN_W};
use rust_hdl::prelude::*;

/// Byte span and start of the last element: `span_e = E·((W-1)·HS + (H-1)·VS)` (a shift) and
/// `last_start = origin + span_e` (= raw(N-1)): one carry chain.
#[derive(LogicBlock)]
pub struct SpanEnd<const AW: usize> {
    /// (W-1)·HS + (H-1)·VS.
    pub span: Signal<In, Bits<RAW_W>>,
    /// log2 E.
    pub es: Signal<In, Bits<2>>,
    /// reg·RB + sub.
    pub origin: Signal<In, Bits<AW>>,
    /// E·span.
    pub span_e: Signal<Out, Bits<RAW_W>>,
    /// origin + E·span.
    pub last_start: Signal<Out, Bits<RAW_W>>,
}

impl<const AW: usize> SpanEnd<AW> {
    pub fn new() -> Self {
        Self {
            span: Default::default(),
            es: Default::default(),
            origin: Default::default(),
            span_e: Default::default(),
            last_start: Default::default(),
        }
    }
}

impl<const AW: usize> Logic for SpanEnd<AW> {
    #[hdl_gen]
    fn update(&mut self) {
        self.span_e.next = self.span.val() << self.es.val();
        self.last_start.next = bit_cast::<RAW_W, AW>(self.origin.val()) + self.span_e.val();
    }
}

/// `last_end > RF` (as `last_start > RF − E`): W_WRAP (WRAP_RF) or E_OOB; `is_dst ∧ span_end >
/// RF` (as `span_e > RF − E`): the region is longer than the RF, so it overlaps itself after the
/// wrap (E_DST_OVERLAP).
#[derive(LogicBlock)]
pub struct RangeCheck {
    /// E·span.
    pub span_e: Signal<In, Bits<RAW_W>>,
    /// origin + E·span.
    pub last_start: Signal<In, Bits<RAW_W>>,
    /// log2 E.
    pub es: Signal<In, Bits<2>>,
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
    /// RF − E for log2 E = 0, 1, 2, 3.
    k_rf_e: Vec<Constant<Bits<RAW_W>>>,
    k_wrap: Constant<Bit>,
    k_err_e_oob: Constant<Bits<ERR_W>>,
    k_err_e_dst_overlap: Constant<Bits<ERR_W>>,
    k_warn_w_wrap: Constant<Bits<WARN_W>>,
    over: Signal<Local, Bit>,
    lim: Signal<Local, Bits<RAW_W>>,
}

impl RangeCheck {
    pub fn new(cfg: &Config) -> Self {
        Self {
            span_e: Default::default(),
            last_start: Default::default(),
            es: Default::default(),
            is_dst: Default::default(),
            err_in: Default::default(),
            warn_in: Default::default(),
            err_out: Default::default(),
            warn_out: Default::default(),
            k_rf_e: (0..4).map(|e| Constant::new((cfg.rf_bytes() as u64 - (1 << e)).to_bits())).collect(),
            k_wrap: Constant::new(cfg.wrap_rf),
            k_err_e_oob: Constant::new(err::E_OOB.to_bits()),
            k_err_e_dst_overlap: Constant::new(err::E_DST_OVERLAP.to_bits()),
            k_warn_w_wrap: Constant::new(warn::W_WRAP.to_bits()),
            over: Default::default(),
            lim: Default::default(),
        }
    }
}

impl Logic for RangeCheck {
    #[hdl_gen]
    fn update(&mut self) {
        // "raw(N-1) + E - 1 >= RF" is "last_end > RF", i.e. "raw(N-1) > RF - E"
        self.lim.next = self.k_rf_e[0].val();
        if self.es.val() == 1 {
            self.lim.next = self.k_rf_e[1].val();
        } else if self.es.val() == 2 {
            self.lim.next = self.k_rf_e[2].val();
        } else if self.es.val() == 3 {
            self.lim.next = self.k_rf_e[3].val();
        }
        self.over.next = self.last_start.val() > self.lim.val();
        self.err_out.next = self.err_in.val();
        self.warn_out.next = self.warn_in.val();
        if self.over.val() & !self.k_wrap.val() {
            self.err_out.next = self.err_out.val() | self.k_err_e_oob.val();
        }
        if self.over.val() & self.k_wrap.val() {
            self.warn_out.next = self.warn_out.val() | self.k_warn_w_wrap.val();
        }
        if self.is_dst.val() & (self.span_e.val() > self.lim.val()) {
            self.err_out.next = self.err_out.val() | self.k_err_e_dst_overlap.val();
        }
    }
}
