//! §8 error log: err_sticky (one bit per code, ORed in every edge) and err_first (the first
//! error since reset or clear: {valid, code, lane, info}). When several codes are new on one
//! edge the lowest code is captured. Never gated (§6.4).

use super::enc;
use crate::prims::RDff;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct ErrorLog {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    /// CTRL write with bit 1 set: sticky bits and the first-error capture restart at this edge.
    pub clear: Signal<In, Bit>,
    /// Errors detected at this edge, bit n = code n.
    pub new_errors: Signal<In, Bits<16>>,
    /// Lane of codes 0..6 (2 bits each, code c at bits 2c+1:2c).
    pub lanes: Signal<In, Bits<14>>,
    /// err_first info field of issue-side errors (seq, slot) and of fill-side errors (seq, row).
    pub info_issue: Signal<In, Bits<32>>,
    pub info_fill: Signal<In, Bits<32>>,
    pub err_sticky: Signal<Out, Bits<16>>,
    pub err_first: Signal<Out, Bits<32>>,
    pub err_any: Signal<Out, Bit>,

    /// the code of sticky bit n (= n, spec §8)
    k_err: Vec<Constant<Bits<4>>>,
    sticky: RDff<Bits<16>>,
    first: RDff<Bits<32>>,
    found: Signal<Local, Bit>,
    code: Signal<Local, Bits<4>>,
    lane: Signal<Local, Bits<2>>,
    info: Signal<Local, Bits<32>>,
    capture: Signal<Local, Bits<32>>,
}

impl Default for ErrorLog {
    fn default() -> Self {
        // bit n of new_errors is code n (spec §8), so the code of bit n is n; the table's
        // codes must sit at their bit positions
        debug_assert!(enc::err::TABLE.codes.iter().all(|c| c.value < 16));
        let k_err = (0..16u64).map(|c| Constant::new(c.into())).collect();
        Self {
            clock: Default::default(),
            rst: Default::default(),
            clear: Default::default(),
            new_errors: Default::default(),
            lanes: Default::default(),
            info_issue: Default::default(),
            info_fill: Default::default(),
            err_sticky: Default::default(),
            err_first: Default::default(),
            err_any: Default::default(),
            k_err,
            sticky: Default::default(),
            first: Default::default(),
            found: Default::default(),
            code: Default::default(),
            lane: Default::default(),
            info: Default::default(),
            capture: Default::default(),
        }
    }
}

impl Logic for ErrorLog {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, sticky, first);
        self.sticky.rst.next = self.rst.val();
        self.first.rst.next = self.rst.val();
        // priority: lowest code first; decode errors (OPCODE..RSV) carry their lane, fill
        // errors (ORDER..SIMD) the fill position, IPTR the issue position, config errors nothing
        self.found.next = false;
        self.code.next = 0.into();
        self.lane.next = 0.into();
        self.info.next = 0.into();
        for c in 0..7 {
            if self.new_errors.val().get_bit(c) & !self.found.val() {
                self.found.next = true;
                self.code.next = self.k_err[c].val();
                self.info.next = self.info_issue.val();
                self.lane.next = self.lanes.val().get_bits::<2>(2 * c);
            }
        }
        for c in 7..10 {
            if self.new_errors.val().get_bit(c) & !self.found.val() {
                self.found.next = true;
                self.code.next = self.k_err[c].val();
                self.info.next = self.info_fill.val();
            }
        }
        for c in 10..11 {
            if self.new_errors.val().get_bit(c) & !self.found.val() {
                self.found.next = true;
                self.code.next = self.k_err[c].val();
                self.info.next = self.info_issue.val();
            }
        }
        for c in 11..16 {
            if self.new_errors.val().get_bit(c) & !self.found.val() {
                self.found.next = true;
                self.code.next = self.k_err[c].val();
            }
        }
        self.capture.next =
            bit_cast::<32, 4>(self.code.val()) << 24 | self.info.val() | bit_cast::<32, 2>(self.lane.val()) << 10 | 0x8000_0000u64;
        self.sticky.d.next = self.sticky.q.val() | self.new_errors.val();
        if self.clear.val() {
            self.sticky.d.next = self.new_errors.val();
            self.first.d.next = 0.into();
        }
        if self.found.val() & (self.clear.val() | !self.first.q.val().get_bit(31)) {
            self.first.d.next = self.capture.val();
        }
        self.err_sticky.next = self.sticky.q.val();
        self.err_first.next = self.first.q.val();
        self.err_any.next = self.sticky.q.val().any();
    }
}
