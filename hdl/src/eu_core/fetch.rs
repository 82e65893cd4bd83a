//! Stage S0, fetch: the thread rotation, each thread's IP and state, and the instruction memory.
//!
//! One thread slot per cycle, round-robin over all `T` threads whether they run or not (a barrel:
//! the slot of a thread that does not run is a bubble), so a thread's next instruction is fetched
//! `T` >= 4 cycles after its previous one, when that one has left the execute stage (S3, the
//! update is registered here at its end) and updated the IP: no forwarding, no scoreboard. The instruction memory is a `prims::Ram` (registered
//! read: the word arrives in S1), written by the host through its own port while the core idles.
//!
//! Thread state: `live` (it runs or is being initialised) and `init` (its next slot sends the
//! branch unit's INIT instead of an instruction). `start` makes every thread live at IP 0 with
//! INIT pending; a thread leaves `live` at its EOT or at a fault.

use crate::prims::{RDff, Ram};
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct Fetch<const T: usize, const TW: usize, const IA: usize, const W16: usize> {
    pub clk: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    /// Start every thread at IP 0 (ignored while busy).
    pub start: Signal<In, Bit>,
    /// Host write of one instruction word.
    pub imem_we: Signal<In, Bit>,
    pub imem_addr: Signal<In, Bits<IA>>,
    pub imem_wdata: Signal<In, Bits<128>>,
    /// From the execute stage: the slot's instruction finished (IP, stop, INIT done).
    pub upd_valid: Signal<In, Bit>,
    pub upd_tid: Signal<In, Bits<TW>>,
    pub upd_ip: Signal<In, Bits<16>>,
    pub upd_stop: Signal<In, Bit>,
    pub upd_init: Signal<In, Bit>,
    /// S1: the fetched slot.
    pub s1_valid: Signal<Out, Bit>,
    pub s1_tid: Signal<Out, Bits<TW>>,
    pub s1_ip: Signal<Out, Bits<16>>,
    pub s1_init: Signal<Out, Bit>,
    pub s1_instr: Signal<Out, Bits<128>>,
    /// Some thread is live.
    pub busy: Signal<Out, Bit>,
    /// Bit k: thread k is live.
    pub live_mask: Signal<Out, Bits<T>>,
    slot: RDff<Bits<TW>>,
    live: RDff<Bits<T>>,
    init: RDff<Bits<T>>,
    ips: RDff<Bits<W16>>,
    valid_s1: RDff<Bit>,
    tid_s1: RDff<Bits<TW>>,
    ip_s1: RDff<Bits<16>>,
    init_s1: RDff<Bit>,
    imem: Ram<128, IA>,
    ip_s0: Signal<Local, Bits<16>>,
    sel: Signal<Local, Bits<T>>,
    shift: Signal<Local, Bits<8>>,
    upd_shift: Signal<Local, Bits<8>>,
    k_all: Constant<Bits<T>>,
    k_one: Constant<Bits<T>>,
    k_ip_mask: Constant<Bits<W16>>,
}

impl<const T: usize, const TW: usize, const IA: usize, const W16: usize> Default for Fetch<T, TW, IA, W16> {
    fn default() -> Self {
        assert!(T == 1 << TW && W16 == 16 * T && T <= 16);
        Self {
            clk: Default::default(),
            rst: Default::default(),
            start: Default::default(),
            imem_we: Default::default(),
            imem_addr: Default::default(),
            imem_wdata: Default::default(),
            upd_valid: Default::default(),
            upd_tid: Default::default(),
            upd_ip: Default::default(),
            upd_stop: Default::default(),
            upd_init: Default::default(),
            s1_valid: Default::default(),
            s1_tid: Default::default(),
            s1_ip: Default::default(),
            s1_init: Default::default(),
            s1_instr: Default::default(),
            busy: Default::default(),
            live_mask: Default::default(),
            slot: Default::default(),
            live: Default::default(),
            init: Default::default(),
            ips: Default::default(),
            valid_s1: Default::default(),
            tid_s1: Default::default(),
            ip_s1: Default::default(),
            init_s1: Default::default(),
            imem: Default::default(),
            ip_s0: Default::default(),
            sel: Default::default(),
            shift: Default::default(),
            upd_shift: Default::default(),
            k_all: Constant::new(((1u64 << T) - 1).into()),
            k_one: Constant::new(1u64.into()),
            k_ip_mask: Constant::new(0xFFFFu64.into()),
        }
    }
}

impl<const T: usize, const TW: usize, const IA: usize, const W16: usize> Logic for Fetch<T, TW, IA, W16> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clk, slot, live, init, ips, valid_s1, tid_s1, ip_s1, init_s1, imem);
        self.slot.rst.next = self.rst.val();
        self.live.rst.next = self.rst.val();
        self.init.rst.next = self.rst.val();
        self.ips.rst.next = self.rst.val();
        self.valid_s1.rst.next = self.rst.val();
        self.tid_s1.rst.next = self.rst.val();
        self.ip_s1.rst.next = self.rst.val();
        self.init_s1.rst.next = self.rst.val();
        // S0: the slot's thread, its IP (thread k's IP at bits [16k, 16k+16)), the memory read
        self.slot.d.next = self.slot.q.val() + 1;
        self.shift.next = bit_cast::<8, TW>(self.slot.q.val()) << 4;
        self.ip_s0.next = bit_cast::<16, W16>(self.ips.q.val() >> self.shift.val());
        self.imem.read_enable.next = true;
        self.imem.read_address.next = bit_cast::<IA, 16>(self.ip_s0.val());
        self.imem.write_enable.next = self.imem_we.val();
        self.imem.write_address.next = self.imem_addr.val();
        self.imem.write_data.next = self.imem_wdata.val();
        self.valid_s1.d.next = bit_cast::<1, T>(self.live.q.val() >> self.slot.q.val()).any();
        self.init_s1.d.next = bit_cast::<1, T>(self.init.q.val() >> self.slot.q.val()).any();
        self.tid_s1.d.next = self.slot.q.val();
        self.ip_s1.d.next = self.ip_s0.val();
        // thread state: start, or the execute stage's update of one thread
        self.live.d.next = self.live.q.val();
        self.init.d.next = self.init.q.val();
        self.ips.d.next = self.ips.q.val();
        self.sel.next = self.k_one.val() << self.upd_tid.val();
        self.upd_shift.next = bit_cast::<8, TW>(self.upd_tid.val()) << 4;
        if self.start.val() & !self.live.q.val().any() {
            self.live.d.next = self.k_all.val();
            self.init.d.next = self.k_all.val();
            self.ips.d.next = 0.into();
        } else if self.upd_valid.val() {
            if self.upd_stop.val() {
                self.live.d.next = self.live.q.val() & !self.sel.val();
            }
            if self.upd_init.val() {
                self.init.d.next = self.init.q.val() & !self.sel.val();
            }
            self.ips.d.next = (self.ips.q.val() & !(self.k_ip_mask.val() << self.upd_shift.val()))
                | (bit_cast::<W16, 16>(self.upd_ip.val()) << self.upd_shift.val());
        }
        self.s1_valid.next = self.valid_s1.q.val();
        self.s1_tid.next = self.tid_s1.q.val();
        self.s1_ip.next = self.ip_s1.q.val();
        self.s1_init.next = self.init_s1.q.val();
        self.s1_instr.next = self.imem.read_data.val();
        self.busy.next = self.live.q.val().any();
        self.live_mask.next = self.live.q.val();
    }
}
