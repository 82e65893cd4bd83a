//! The flag registers: two 8-bit flags (`f0`, `f1`, one bit per lane) per thread, in flops
//! (16 bits per thread). Read combinationally in decode (predicate, SEL, the old bits a
//! condition modifier keeps), written at writeback; the barrel rotation keeps a thread's read
//! after its previous instruction's write, so no bypass.

use crate::prims::RDff;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct FlagRegs<const TW: usize, const W16: usize> {
    pub clk: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub rd_tid: Signal<In, Bits<TW>>,
    /// Thread `rd_tid`'s flags: f0 in bits 7:0, f1 in 15:8.
    pub rd_flags: Signal<Out, Bits<16>>,
    pub we: Signal<In, Bit>,
    pub wr_tid: Signal<In, Bits<TW>>,
    pub wr_sel: Signal<In, Bit>,
    pub wr_value: Signal<In, Bits<8>>,
    /// Every thread's flags, thread k at bits [16k, 16k+16).
    pub all: Signal<Out, Bits<W16>>,
    flags: RDff<Bits<W16>>,
    rd_shift: Signal<Local, Bits<8>>,
    wr_shift: Signal<Local, Bits<8>>,
    k_byte: Constant<Bits<W16>>,
}

impl<const TW: usize, const W16: usize> Default for FlagRegs<TW, W16> {
    fn default() -> Self {
        Self {
            clk: Default::default(),
            rst: Default::default(),
            rd_tid: Default::default(),
            rd_flags: Default::default(),
            we: Default::default(),
            wr_tid: Default::default(),
            wr_sel: Default::default(),
            wr_value: Default::default(),
            all: Default::default(),
            flags: Default::default(),
            rd_shift: Default::default(),
            wr_shift: Default::default(),
            k_byte: Constant::new(0xFFu64.into()),
        }
    }
}

impl<const TW: usize, const W16: usize> Logic for FlagRegs<TW, W16> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clk, flags);
        self.flags.rst.next = self.rst.val();
        self.rd_shift.next = bit_cast::<8, TW>(self.rd_tid.val()) << 4;
        self.rd_flags.next = bit_cast::<16, W16>(self.flags.q.val() >> self.rd_shift.val());
        self.wr_shift.next = (bit_cast::<8, TW>(self.wr_tid.val()) << 4) | (bit_cast::<8, 1>(self.wr_sel.val().into()) << 3);
        self.flags.d.next = self.flags.q.val();
        if self.we.val() {
            self.flags.d.next = (self.flags.q.val() & !(self.k_byte.val() << self.wr_shift.val()))
                | (bit_cast::<W16, 8>(self.wr_value.val()) << self.wr_shift.val());
        }
        self.all.next = self.flags.q.val();
    }
}
