//! The decode → execute registers: the slot (live, INIT, thread, IP) and the decoded instruction
//! (`decode::Decoded`, one bundle) from S1 to S3, two stages (S2 is the register file's second
//! read register, docs/eu_core.md). The operands travel separately, in the register file's
//! twice-registered read data; the branch unit's response comes out of its own response register.

use super::decode::Decoded;
use crate::prims::Delay;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct Issue<const TW: usize> {
    pub clk: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    /// S1: the slot carries a live thread.
    pub in_valid: Signal<In, Bit>,
    /// S1: the slot is the thread's INIT (no instruction).
    pub in_init: Signal<In, Bit>,
    /// S1: thread.
    pub in_tid: Signal<In, Bits<TW>>,
    /// S1: instruction pointer.
    pub in_ip: Signal<In, Bits<16>>,
    /// S1: the decoded instruction.
    pub in_dec: Signal<In, Decoded>,
    /// S3: the slot carries a live thread.
    pub valid: Signal<Out, Bit>,
    /// S3: the slot is the thread's INIT (no instruction).
    pub init: Signal<Out, Bit>,
    /// S3: thread.
    pub tid: Signal<Out, Bits<TW>>,
    /// S3: instruction pointer.
    pub ip: Signal<Out, Bits<16>>,
    /// S3: the decoded instruction.
    pub dec: Signal<Out, Decoded>,
    valid_s3: Delay<Bit>,
    init_s3: Delay<Bit>,
    tid_s3: Delay<Bits<TW>>,
    ip_s3: Delay<Bits<16>>,
    dec_s3: Delay<Decoded>,
}

impl<const TW: usize> Default for Issue<TW> {
    fn default() -> Self {
        Self {
            clk: Default::default(),
            rst: Default::default(),
            in_valid: Default::default(),
            in_init: Default::default(),
            in_tid: Default::default(),
            in_ip: Default::default(),
            in_dec: Default::default(),
            valid: Default::default(),
            init: Default::default(),
            tid: Default::default(),
            ip: Default::default(),
            dec: Default::default(),
            valid_s3: Delay::new(2),
            init_s3: Delay::new(2),
            tid_s3: Delay::new(2),
            ip_s3: Delay::new(2),
            dec_s3: Delay::new(2),
        }
    }
}

impl<const TW: usize> Logic for Issue<TW> {
    #[hdl_gen]
    fn update(&mut self) {
        self.valid_s3.clock.next = self.clk.val();
        self.init_s3.clock.next = self.clk.val();
        self.tid_s3.clock.next = self.clk.val();
        self.ip_s3.clock.next = self.clk.val();
        self.dec_s3.clock.next = self.clk.val();
        self.valid_s3.rst.next = self.rst.val();
        self.init_s3.rst.next = self.rst.val();
        self.tid_s3.rst.next = self.rst.val();
        self.ip_s3.rst.next = self.rst.val();
        self.dec_s3.rst.next = self.rst.val();
        self.valid_s3.d.next = self.in_valid.val();
        self.init_s3.d.next = self.in_init.val();
        self.tid_s3.d.next = self.in_tid.val();
        self.ip_s3.d.next = self.in_ip.val();
        self.dec_s3.d.next = self.in_dec.val();
        self.valid.next = self.valid_s3.q.val();
        self.init.next = self.init_s3.q.val();
        self.tid.next = self.tid_s3.q.val();
        self.ip.next = self.ip_s3.q.val();
        self.dec.next = self.dec_s3.q.val();
    }
}
