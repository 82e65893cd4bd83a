//! The data memory and the LD/ST unit (docs/eu_core.md "Data memory").
//!
//! Memory: 8 banks of 32-bit words (`prims::Ram<32, DR>`, one EBR each), word `w` of the memory
//! in bank `w mod 8`, row `w / 8`; so the host reads and writes a whole 32-byte row (8 words) per
//! cycle, as it does registers.
//!
//! LD/ST: one op at a time. The execute stage offers a thread's memory op (`req`) every time the
//! thread's slot brings it there; the unit
//! - takes it when idle and no lane of `mask` has a bad address (`accept`);
//! - in its first cycle checks whether the running lanes' words are in 8 different banks (a
//!   unit-stride access is, aligned or not: word w is in bank w mod 8): then all of them in that
//!   cycle (each bank its own row address, `parallel`; 2 cycles with the read data); otherwise
//!   one lane per cycle in ascending lane order (so of two lanes storing to one address the
//!   higher one wins, docs/isa.md), 9 cycles;
//! - answers `done` to a later pass of the same thread once the lanes are through: the execute
//!   stage retires the op in that pass (a LD writes `value`, the loaded words, through the ALU
//!   lanes as a MOV, so its condition modifier works as for any op) and the unit is free again;
//! - has the thread's other passes, and every pass of another thread while it is busy, replayed
//!   by the execute stage (the thread's IP stays; the branch unit's NOP changes no state).
//!
//! `fault` is combinational for the offered op: a lane of `mask` whose byte address (src0, plus
//! the immediate for LD) is not a multiple of 4 or is past the memory (MEM_FAULT).

use crate::prims::{RDff, Ram};
use super::decode::Decoded;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct DataMemory<const TW: usize, const DR: usize> {
    pub clk: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    /// S3 (from `Issue`): the decoded instruction (its fields are unpacked into Locals of the
    /// same names).
    pub dec: Signal<In, Decoded>,
    /// The core idles: the host ports own the memory.
    pub host_en: Signal<In, Bit>,
    /// Host write of row `host_waddr` (8 words).
    pub host_we: Signal<In, Bit>,
    pub host_waddr: Signal<In, Bits<DR>>,
    pub host_wdata: Signal<In, Bits<256>>,
    /// Host read of row `host_raddr`; the data shows on `host_rdata` one cycle later.
    pub host_raddr: Signal<In, Bits<DR>>,
    pub host_rdata: Signal<Out, Bits<256>>,
    /// S3 (from `Issue`): the slot, its op class and decode faults.
    pub valid: Signal<In, Bit>,
    pub init: Signal<In, Bit>,
    is_mem: Signal<Local, Bit>,
    illegal: Signal<Local, Bit>,
    pub not_yet: Signal<In, Bit>,
    pub tid: Signal<In, Bits<TW>>,
    is_st: Signal<Local, Bit>,
    /// Exec-size and predicate lanes (`Issue`), and the branch unit's response: the op's
    /// execution mask and whether the step failed. (The unit forms the mask and its request
    /// itself, from the stage's inputs, so that no signal runs from the execute stage into it
    /// and back: one combinational block per direction.)
    exec_lanes: Signal<Local, Bits<8>>,
    pred_lanes: Signal<Local, Bits<8>>,
    pub bu_exec_mask: Signal<In, Bits<8>>,
    pub bu_err: Signal<In, Bit>,
    /// src0 (addresses) and src1 (store data) from the register file.
    pub src0: Signal<In, Bits<256>>,
    pub src1: Signal<In, Bits<256>>,
    imm: Signal<Local, Bits<32>>,
    /// The src1 field is the immediate (LD: the address offset; ST: the stored word).
    src1_imm: Signal<Local, Bit>,
    /// Some lane of `mask` has a misaligned or out-of-range address (combinational).
    pub fault: Signal<Out, Bit>,
    /// Thread `tid`'s op is through: retire it in this pass (combinational).
    pub done: Signal<Out, Bit>,
    /// The retiring op's lane values: the loaded words (LD), the stored words (ST).
    pub value: Signal<Out, Bits<256>>,
    /// This pass's byte addresses, lane l at bits [32l, 32l+32).
    pub addr: Signal<Out, Bits<256>>,
    banks: [Ram<32, DR>; 8],
    /// An op is held (from accept to its retiring pass).
    busy_r: RDff<Bit>,
    /// Its lanes are through.
    done_r: RDff<Bit>,
    tid_r: RDff<Bits<TW>>,
    st_r: RDff<Bit>,
    /// The next lane to access (8: all accessed).
    lane_r: RDff<Bits<4>>,
    /// Addresses, store words and mask of the lanes still to access, the next one at the bottom.
    addr_sh: RDff<Bits<256>>,
    data_sh: RDff<Bits<256>>,
    mask_sh: RDff<Bits<8>>,
    /// A lane's read was issued last cycle, from bank `bank_r`.
    rd_pend: RDff<Bit>,
    /// The reads issued last cycle were the parallel access of every lane.
    par_pend: RDff<Bit>,
    bank_r: RDff<Bits<3>>,
    /// The loaded words, shifted in from the top (lane 7 last).
    loaded: RDff<Bits<256>>,
    req: Signal<Local, Bit>,
    mask: Signal<Local, Bits<8>>,
    offset: Signal<Local, Bits<32>>,
    lane_addr: Signal<Local, Bits<32>>,
    word: Signal<Local, Bits<32>>,
    addrs: Signal<Local, Bits<256>>,
    st_data: Signal<Local, Bits<256>>,
    bad: Signal<Local, Bit>,
    is_done: Signal<Local, Bit>,
    accept: Signal<Local, Bit>,
    access: Signal<Local, Bit>,
    bank: Signal<Local, Bits<3>>,
    row: Signal<Local, Bits<DR>>,
    rd_word: Signal<Local, Bits<32>>,
    bank_word: Signal<Local, Bits<32>>,
    rdata: Signal<Local, Bits<256>>,
    /// The held op's running lanes hit 8 different banks: access them all this cycle.
    parallel: Signal<Local, Bit>,
    used: Signal<Local, Bits<8>>,
    lane_bit: Signal<Local, Bits<8>>,
    lane_a: Signal<Local, Bits<32>>,
    lane_bank: Signal<Local, Bits<3>>,
    hit: Signal<Local, Bit>,
    par_row: Signal<Local, Bits<DR>>,
    par_we: Signal<Local, Bit>,
    par_data: Signal<Local, Bits<32>>,
    par_loaded: Signal<Local, Bits<256>>,
    k_one8: Constant<Bits<8>>,
    k_top: Constant<Bits<16>>,
    k_align: Constant<Bits<32>>,
    k_bytes: Constant<Bits<32>>,
    k_all_lanes: Constant<Bits<4>>,
    k_bank: [Constant<Bits<3>>; 8],
}

impl<const TW: usize, const DR: usize> Default for DataMemory<TW, DR> {
    fn default() -> Self {
        assert!(DR + 5 < 32, "data memory below 4 GiB");
        Self {
            clk: Default::default(),
            rst: Default::default(),
            dec: Default::default(),
            host_en: Default::default(),
            host_we: Default::default(),
            host_waddr: Default::default(),
            host_wdata: Default::default(),
            host_raddr: Default::default(),
            host_rdata: Default::default(),
            valid: Default::default(),
            init: Default::default(),
            is_mem: Default::default(),
            illegal: Default::default(),
            not_yet: Default::default(),
            tid: Default::default(),
            is_st: Default::default(),
            exec_lanes: Default::default(),
            pred_lanes: Default::default(),
            bu_exec_mask: Default::default(),
            bu_err: Default::default(),
            req: Default::default(),
            mask: Default::default(),
            src0: Default::default(),
            src1: Default::default(),
            imm: Default::default(),
            src1_imm: Default::default(),
            fault: Default::default(),
            done: Default::default(),
            value: Default::default(),
            addr: Default::default(),
            banks: Default::default(),
            busy_r: Default::default(),
            done_r: Default::default(),
            tid_r: Default::default(),
            st_r: Default::default(),
            lane_r: Default::default(),
            addr_sh: Default::default(),
            data_sh: Default::default(),
            mask_sh: Default::default(),
            rd_pend: Default::default(),
            bank_r: Default::default(),
            loaded: Default::default(),
            offset: Default::default(),
            lane_addr: Default::default(),
            word: Default::default(),
            addrs: Default::default(),
            st_data: Default::default(),
            bad: Default::default(),
            is_done: Default::default(),
            accept: Default::default(),
            access: Default::default(),
            bank: Default::default(),
            row: Default::default(),
            rd_word: Default::default(),
            bank_word: Default::default(),
            rdata: Default::default(),
            par_pend: Default::default(),
            parallel: Default::default(),
            used: Default::default(),
            lane_bit: Default::default(),
            lane_a: Default::default(),
            lane_bank: Default::default(),
            hit: Default::default(),
            par_row: Default::default(),
            par_we: Default::default(),
            par_data: Default::default(),
            par_loaded: Default::default(),
            k_one8: Constant::new(1u64.into()),
            k_top: Constant::new(224u64.into()),
            k_align: Constant::new(3u64.into()),
            k_bytes: Constant::new((32u64 << DR).into()),
            k_all_lanes: Constant::new(8u64.into()),
            k_bank: std::array::from_fn(|b| Constant::new((b as u64).into())),
        }
    }
}

impl<const TW: usize, const DR: usize> Logic for DataMemory<TW, DR> {
    #[hdl_gen]
    fn update(&mut self) {
        // the decoded instruction's fields
        self.is_mem.next = self.dec.val().is_mem;
        self.illegal.next = self.dec.val().illegal;
        self.is_st.next = self.dec.val().is_st;
        self.exec_lanes.next = self.dec.val().exec_lanes;
        self.pred_lanes.next = self.dec.val().pred_lanes;
        self.imm.next = self.dec.val().imm;
        self.src1_imm.next = self.dec.val().src1_imm;
        clock!(self, clk, busy_r, done_r, tid_r, st_r, lane_r, addr_sh, data_sh, mask_sh, rd_pend, par_pend, bank_r, loaded);
        self.busy_r.rst.next = self.rst.val();
        self.done_r.rst.next = self.rst.val();
        self.tid_r.rst.next = self.rst.val();
        self.st_r.rst.next = self.rst.val();
        self.lane_r.rst.next = self.rst.val();
        self.addr_sh.rst.next = self.rst.val();
        self.data_sh.rst.next = self.rst.val();
        self.mask_sh.rst.next = self.rst.val();
        self.rd_pend.rst.next = self.rst.val();
        self.par_pend.rst.next = self.rst.val();
        self.bank_r.rst.next = self.rst.val();
        self.loaded.rst.next = self.rst.val();
        // the offered op (as the execute stage sees it): request, mask, byte addresses, address
        // check, store words
        self.req.next = self.valid.val() & !self.init.val() & self.is_mem.val() & !(self.illegal.val() | self.not_yet.val() | self.bu_err.val());
        self.mask.next = self.bu_exec_mask.val() & self.exec_lanes.val() & self.pred_lanes.val();
        self.offset.next = 0.into();
        if !self.is_st.val() & self.src1_imm.val() {
            self.offset.next = self.imm.val();
        }
        self.addrs.next = 0.into();
        self.st_data.next = 0.into();
        self.bad.next = false;
        for l in 0..8 {
            self.lane_addr.next = self.src0.val().get_bits::<32>(32 * l) + self.offset.val();
            self.addrs.next = (self.addrs.val() >> 32) | (bit_cast::<256, 32>(self.lane_addr.val()) << self.k_top.val());
            if self.mask.val().get_bit(l) & ((self.lane_addr.val() & self.k_align.val()).any() | (self.lane_addr.val() >= self.k_bytes.val())) {
                self.bad.next = true;
            }
            self.word.next = self.src1.val().get_bits::<32>(32 * l);
            if self.src1_imm.val() {
                self.word.next = self.imm.val();
            }
            self.st_data.next = (self.st_data.val() >> 32) | (bit_cast::<256, 32>(self.word.val()) << self.k_top.val());
        }
        self.fault.next = self.bad.val();
        self.addr.next = self.addrs.val();
        self.is_done.next = self.busy_r.q.val() & self.done_r.q.val() & (self.tid_r.q.val() == self.tid.val());
        self.done.next = self.is_done.val();
        self.value.next = self.loaded.q.val();
        if self.is_st.val() {
            self.value.next = self.st_data.val();
        }
        self.accept.next = self.req.val() & !self.busy_r.q.val() & !self.bad.val();
        // the held op: accept, lane by lane, done, released by its retiring pass
        self.busy_r.d.next = self.busy_r.q.val();
        self.done_r.d.next = self.done_r.q.val();
        self.tid_r.d.next = self.tid_r.q.val();
        self.st_r.d.next = self.st_r.q.val();
        self.lane_r.d.next = self.lane_r.q.val();
        self.addr_sh.d.next = self.addr_sh.q.val();
        self.data_sh.d.next = self.data_sh.q.val();
        self.mask_sh.d.next = self.mask_sh.q.val();
        self.access.next = self.busy_r.q.val() & !self.done_r.q.val() & (self.lane_r.q.val() != self.k_all_lanes.val());
        // the first access cycle of the held op (registers unshifted): are the running lanes'
        // banks all different? (from registers only: nothing of this is on the S3 path)
        self.used.next = 0.into();
        self.hit.next = false;
        for l in 0..8 {
            self.lane_a.next = self.addr_sh.q.val().get_bits::<32>(32 * l);
            self.lane_bank.next = bit_cast::<3, 32>(self.lane_a.val() >> 2);
            self.lane_bit.next = 0.into();
            if self.mask_sh.q.val().get_bit(l) {
                self.lane_bit.next = self.k_one8.val() << self.lane_bank.val();
            }
            self.hit.next = self.hit.val() | (self.used.val() & self.lane_bit.val()).any();
            self.used.next = self.used.val() | self.lane_bit.val();
        }
        self.parallel.next = self.access.val() & (self.lane_r.q.val() == 0) & !self.hit.val();
        if self.accept.val() {
            self.busy_r.d.next = true;
            self.done_r.d.next = false;
            self.tid_r.d.next = self.tid.val();
            self.st_r.d.next = self.is_st.val();
            self.lane_r.d.next = 0.into();
            self.addr_sh.d.next = self.addrs.val();
            self.data_sh.d.next = self.st_data.val();
            self.mask_sh.d.next = self.mask.val();
        } else if self.req.val() & self.is_done.val() {
            self.busy_r.d.next = false;
            self.done_r.d.next = false;
        } else if self.parallel.val() {
            self.lane_r.d.next = self.k_all_lanes.val();
        } else if self.access.val() {
            self.lane_r.d.next = self.lane_r.q.val() + 1;
            self.addr_sh.d.next = self.addr_sh.q.val() >> 32;
            self.data_sh.d.next = self.data_sh.q.val() >> 32;
            self.mask_sh.d.next = self.mask_sh.q.val() >> 1;
        } else if self.busy_r.q.val() {
            self.done_r.d.next = true;
        }
        // the banks: the host's row while idle, else the current lane's word
        self.bank.next = bit_cast::<3, 256>(self.addr_sh.q.val() >> 2);
        self.row.next = bit_cast::<DR, 256>(self.addr_sh.q.val() >> 5);
        self.rd_pend.d.next = self.access.val() & !self.st_r.q.val();
        self.par_pend.d.next = self.parallel.val() & !self.st_r.q.val();
        self.bank_r.d.next = self.bank.val();
        self.rd_word.next = 0.into();
        self.rdata.next = 0.into();
        for b in 0..8 {
            // the parallel access: bank b takes the row and word of the running lane in it
            self.par_row.next = 0.into();
            self.par_we.next = false;
            self.par_data.next = 0.into();
            for l in 0..8 {
                self.lane_a.next = self.addr_sh.q.val().get_bits::<32>(32 * l);
                if self.mask_sh.q.val().get_bit(l) & (bit_cast::<3, 32>(self.lane_a.val() >> 2) == self.k_bank[b].val()) {
                    self.par_row.next = self.par_row.val() | bit_cast::<DR, 32>(self.lane_a.val() >> 5);
                    self.par_we.next = true;
                    self.par_data.next = self.par_data.val() | self.data_sh.q.val().get_bits::<32>(32 * l);
                }
            }
            self.banks[b].clock.next = self.clk.val();
            self.banks[b].read_enable.next = true;
            self.banks[b].read_address.next = self.row.val();
            self.banks[b].write_enable.next = self.access.val() & self.st_r.q.val() & self.mask_sh.q.val().get_bit(0) & (self.bank.val() == self.k_bank[b].val());
            self.banks[b].write_address.next = self.row.val();
            self.banks[b].write_data.next = bit_cast::<32, 256>(self.data_sh.q.val());
            if self.parallel.val() {
                self.banks[b].read_address.next = self.par_row.val();
                self.banks[b].write_enable.next = self.st_r.q.val() & self.par_we.val();
                self.banks[b].write_address.next = self.par_row.val();
                self.banks[b].write_data.next = self.par_data.val();
            }
            if self.host_en.val() {
                self.banks[b].read_address.next = self.host_raddr.val();
                self.banks[b].write_enable.next = self.host_we.val();
                self.banks[b].write_address.next = self.host_waddr.val();
                self.banks[b].write_data.next = self.host_wdata.val().get_bits::<32>(32 * b);
            }
            if self.bank_r.q.val() == self.k_bank[b].val() {
                self.rd_word.next = self.banks[b].read_data.val();
            }
            // (hdl_gen does not see a loop index inside bit_cast's argument: through a local)
            self.bank_word.next = self.banks[b].read_data.val();
            self.rdata.next = (self.rdata.val() >> 32) | (bit_cast::<256, 32>(self.bank_word.val()) << self.k_top.val());
        }
        // the parallel access's words: lane l's from its bank (the addresses are unshifted)
        self.par_loaded.next = 0.into();
        for l in 0..8 {
            self.lane_a.next = self.addr_sh.q.val().get_bits::<32>(32 * l);
            self.lane_bank.next = bit_cast::<3, 32>(self.lane_a.val() >> 2);
            self.word.next = 0.into();
            for b in 0..8 {
                if self.lane_bank.val() == self.k_bank[b].val() {
                    self.word.next = self.banks[b].read_data.val();
                }
            }
            self.par_loaded.next = (self.par_loaded.val() >> 32) | (bit_cast::<256, 32>(self.word.val()) << self.k_top.val());
        }
        self.loaded.d.next = self.loaded.q.val();
        if self.rd_pend.q.val() {
            self.loaded.d.next = (self.loaded.q.val() >> 32) | (bit_cast::<256, 32>(self.rd_word.val()) << self.k_top.val());
        }
        if self.par_pend.q.val() {
            self.loaded.d.next = self.par_loaded.val();
        }
        self.host_rdata.next = self.rdata.val();
    }
}
