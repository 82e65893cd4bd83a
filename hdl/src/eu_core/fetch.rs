//! Stage S0, fetch: the thread rotation, each thread's IP and state, and the instruction memory.
//!
//! One thread slot per cycle, round-robin over all `T` threads whether they run or not (a barrel:
//! the slot of a thread that does not run is a bubble), so a thread's next instruction is fetched
//! `T` >= 4 cycles after its previous one, when that one has left the execute stage (S3, the
//! update is registered here at its end) and updated the IP: no forwarding, no scoreboard. The
//! instruction memory is a `prims::Ram` (registered read: the word arrives in S1), written by
//! the host through its own port while the core idles; beside it `pre_ram`, the word's
//! predecoded operand regions (`regions::Predecode`, written three cycles after the word), read
//! at the same address through a `prims::RamOutReg` (they are needed in S2, so its output
//! register costs no stage), and `list_ram`, the sources' register lists, out in S1 where a
//! multi-register pass forms its read addresses.
//!
//! Thread state: `live` (it runs or is being initialised) and `init` (its next slot sends the
//! branch unit's INIT instead of an instruction). `start` makes every thread live at IP 0 with
//! INIT pending; a thread leaves `live` at its EOT, at a slice limit or when the trap controller
//! kills it (`kill`, the host's KILL).
//!
//! The trap controller (docs/eu_core.md "Traps"): a thread whose `halt` bit is set is not issued
//! (its slot is a bubble) unless it replays a memory or math op (`rep`: the op must finish for the
//! pipeline to drain); `pend` marks the threads with a slot in S1..S3, so `quiet` (no slot in
//! flight, no replay pending) is the controller's `quiesced`. A redirect loads the thread's IP;
//! one into the handler (`redir_enter`) also sets `hnd` (the thread runs on its handler
//! branch-unit context, `s1_hnd`) and INIT pending (that context starts fresh on all lanes); one
//! out of it (EPC) clears `hnd`: the thread's own context, untouched, is the one it left.

use crate::prims::{RDff, Ram, RamOutReg};
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
    /// The predecode's write of one word's operand regions (`regions::pre`).
    pub pre_we: Signal<In, Bit>,
    /// Its instruction address.
    pub pre_addr: Signal<In, Bits<IA>>,
    /// The regions.
    pub pre_wdata: Signal<In, Bits<256>>,
    /// The sources' register lists (`regions::lists`), written with the regions.
    pub list_wdata: Signal<In, Bits<104>>,
    /// From the execute stage: the slot's instruction finished (IP, stop, INIT done).
    pub upd_valid: Signal<In, Bit>,
    pub upd_tid: Signal<In, Bits<TW>>,
    pub upd_ip: Signal<In, Bits<16>>,
    pub upd_stop: Signal<In, Bit>,
    pub upd_init: Signal<In, Bit>,
    /// The slot's memory or math op is not through (it is replayed).
    pub upd_replay: Signal<In, Bit>,
    /// From the trap controller: bit k, thread k must not issue.
    pub halt: Signal<In, Bits<T>>,
    /// Load thread k's IP from `redir_pc` (its 16 bits at [16k, 16k+16)).
    pub redir_valid: Signal<In, Bits<T>>,
    pub redir_pc: Signal<In, Bits<W16>>,
    /// The redirect of thread k enters the handler.
    pub redir_enter: Signal<In, Bits<T>>,
    /// Thread k is killed: it leaves `live`.
    pub kill: Signal<In, Bits<T>>,
    /// S1: the fetched slot.
    pub s1_valid: Signal<Out, Bit>,
    pub s1_tid: Signal<Out, Bits<TW>>,
    pub s1_ip: Signal<Out, Bits<16>>,
    pub s1_init: Signal<Out, Bit>,
    pub s1_instr: Signal<Out, Bits<128>>,
    /// S1: the slot's source register lists.
    pub s1_lists: Signal<Out, Bits<104>>,
    /// S2: the slot's predecoded operand regions.
    pub s2_pre: Signal<Out, Bits<256>>,
    /// The slot's thread runs the handler (its branch-unit context is the handler's).
    pub s1_hnd: Signal<Out, Bit>,
    /// Bit k: thread k runs the handler.
    pub hnd_mask: Signal<Out, Bits<T>>,
    /// Every thread's IP (the next instruction; the controller's `warp_pc`).
    pub ip_all: Signal<Out, Bits<W16>>,
    /// No slot in S1..S3 and no replay pending (the controller's `quiesced`).
    pub quiet: Signal<Out, Bit>,
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
    hnd: RDff<Bits<T>>,
    hnd_s1: RDff<Bit>,
    pend: RDff<Bits<T>>,
    rep: RDff<Bits<T>>,
    issue: Signal<Local, Bit>,
    live_n: Signal<Local, Bits<T>>,
    init_n: Signal<Local, Bits<T>>,
    ips_n: Signal<Local, Bits<W16>>,
    hnd_n: Signal<Local, Bits<T>>,
    pend_n: Signal<Local, Bits<T>>,
    redir_fields: Signal<Local, Bits<W16>>,
    slot_sel: Signal<Local, Bits<T>>,
    /// Thread k's 16 IP bits in `ips`.
    k_ip_field: [Constant<Bits<W16>>; T],
    imem: Ram<128, IA>,
    pre_ram: RamOutReg<256, IA>,
    /// The sources' register lists beside the word, out in S1 (the register-file read address).
    list_ram: Ram<104, IA>,
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
            pre_we: Default::default(),
            pre_addr: Default::default(),
            pre_wdata: Default::default(),
            list_wdata: Default::default(),
            s1_lists: Default::default(),
            list_ram: Default::default(),
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
            s2_pre: Default::default(),
            s1_hnd: Default::default(),
            hnd_mask: Default::default(),
            ip_all: Default::default(),
            quiet: Default::default(),
            upd_replay: Default::default(),
            halt: Default::default(),
            redir_valid: Default::default(),
            redir_pc: Default::default(),
            redir_enter: Default::default(),
            kill: Default::default(),
            hnd: Default::default(),
            hnd_s1: Default::default(),
            pend: Default::default(),
            rep: Default::default(),
            issue: Default::default(),
            live_n: Default::default(),
            init_n: Default::default(),
            ips_n: Default::default(),
            hnd_n: Default::default(),
            pend_n: Default::default(),
            redir_fields: Default::default(),
            slot_sel: Default::default(),
            k_ip_field: std::array::from_fn(|k| {
                let mut b = Bits::<W16>::from(0u64);
                for i in 16 * k..16 * k + 16 {
                    b = b.replace_bit(i, true);
                }
                Constant::new(b)
            }),
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
            pre_ram: Default::default(),
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
        clock!(self, clk, slot, live, init, ips, valid_s1, tid_s1, ip_s1, init_s1, hnd, hnd_s1, pend, rep, imem, list_ram);
        self.hnd.rst.next = self.rst.val();
        self.hnd_s1.rst.next = self.rst.val();
        self.pend.rst.next = self.rst.val();
        self.rep.rst.next = self.rst.val();
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
        self.pre_ram.clock.next = self.clk.val();
        self.pre_ram.read_enable.next = true;
        self.pre_ram.read_address.next = bit_cast::<IA, 16>(self.ip_s0.val());
        self.pre_ram.write_enable.next = self.pre_we.val();
        self.pre_ram.write_address.next = self.pre_addr.val();
        self.pre_ram.write_data.next = self.pre_wdata.val();
        self.list_ram.read_enable.next = true;
        self.list_ram.read_address.next = bit_cast::<IA, 16>(self.ip_s0.val());
        self.list_ram.write_enable.next = self.pre_we.val();
        self.list_ram.write_address.next = self.pre_addr.val();
        self.list_ram.write_data.next = self.list_wdata.val();
        // a halted thread's slot is a bubble, unless it replays (the op must get through)
        self.issue.next = bit_cast::<1, T>(self.live.q.val() >> self.slot.q.val()).any()
            & (!bit_cast::<1, T>(self.halt.val() >> self.slot.q.val()).any() | bit_cast::<1, T>(self.rep.q.val() >> self.slot.q.val()).any());
        self.valid_s1.d.next = self.issue.val();
        self.hnd_s1.d.next = bit_cast::<1, T>(self.hnd.q.val() >> self.slot.q.val()).any();
        self.init_s1.d.next = bit_cast::<1, T>(self.init.q.val() >> self.slot.q.val()).any();
        self.tid_s1.d.next = self.slot.q.val();
        self.ip_s1.d.next = self.ip_s0.val();
        // thread state: start, or the execute stage's update of one thread
        self.live_n.next = self.live.q.val();
        self.init_n.next = self.init.q.val();
        self.ips_n.next = self.ips.q.val();
        self.hnd_n.next = self.hnd.q.val();
        self.sel.next = self.k_one.val() << self.upd_tid.val();
        self.upd_shift.next = bit_cast::<8, TW>(self.upd_tid.val()) << 4;
        if self.start.val() & !self.live.q.val().any() {
            self.live_n.next = self.k_all.val();
            self.init_n.next = self.k_all.val();
            self.ips_n.next = 0.into();
            self.hnd_n.next = 0.into();
        } else if self.upd_valid.val() {
            if self.upd_stop.val() {
                self.live_n.next = self.live.q.val() & !self.sel.val();
            }
            if self.upd_init.val() {
                self.init_n.next = self.init.q.val() & !self.sel.val();
            }
            self.ips_n.next = (self.ips.q.val() & !(self.k_ip_mask.val() << self.upd_shift.val()))
                | (bit_cast::<W16, 16>(self.upd_ip.val()) << self.upd_shift.val());
        }
        // the trap controller's redirects and kills (a redirected thread has no slot in flight:
        // the controller redirects only after the pipeline drained, or from RSTR, after RETURN)
        self.redir_fields.next = 0.into();
        for k in 0..T {
            if self.redir_valid.val().get_bit(k) {
                self.redir_fields.next = self.redir_fields.val() | self.k_ip_field[k].val();
            }
        }
        self.ips.d.next = (self.ips_n.val() & !self.redir_fields.val()) | (self.redir_pc.val() & self.redir_fields.val());
        self.init.d.next = self.init_n.val() | (self.redir_valid.val() & self.redir_enter.val());
        self.hnd.d.next = (self.hnd_n.val() & !self.redir_valid.val()) | (self.redir_valid.val() & self.redir_enter.val());
        self.live.d.next = self.live_n.val() & !self.kill.val();
        // slots in flight (issued in S0, done at the end of S3) and replays pending
        self.slot_sel.next = self.k_one.val() << self.slot.q.val();
        self.pend_n.next = self.pend.q.val();
        self.rep.d.next = self.rep.q.val();
        if self.upd_valid.val() {
            self.pend_n.next = self.pend.q.val() & !self.sel.val();
            self.rep.d.next = self.rep.q.val() & !self.sel.val();
            if self.upd_replay.val() {
                self.rep.d.next = self.rep.q.val() | self.sel.val();
            }
        }
        self.pend.d.next = self.pend_n.val();
        if self.issue.val() {
            self.pend.d.next = self.pend_n.val() | self.slot_sel.val();
        }
        self.quiet.next = !self.pend.q.val().any() & !self.rep.q.val().any();
        self.hnd_mask.next = self.hnd.q.val();
        self.ip_all.next = self.ips.q.val();
        self.s1_hnd.next = self.hnd_s1.q.val();
        self.s1_valid.next = self.valid_s1.q.val();
        self.s1_tid.next = self.tid_s1.q.val();
        self.s1_ip.next = self.ip_s1.q.val();
        self.s1_init.next = self.init_s1.q.val();
        self.s1_instr.next = self.imem.read_data.val();
        self.s1_lists.next = self.list_ram.read_data.val();
        self.s2_pre.next = self.pre_ram.read_data.val();
        self.busy.next = self.live.q.val().any();
        self.live_mask.next = self.live.q.val();
    }
}
