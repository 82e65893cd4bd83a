//! The three group buffers' storage (spec §2.3): `reg[4][16]` (32-bit), `ce[4][4]`,
//! `iptr[4][4]` and `tag[4][4]` of each buffer, in RAM (issue 16, timing-closure §3.4).
//!
//! ## Bank plan
//!
//! Accesses per clock (§2.10), each to a line (b, p) = 16 words of pixel p of buffer b:
//! issue reads the whole line (ip, p) (any of r0..r15 may be an operand); S4 writes up to
//! NUM_ALUS words of line (sh3.b, sh3.p) at any positions; fill writes one row (fp, p, k) of 4
//! words; drain reads one row (dp, p, k). Issue and drain are never the same buffer, nor are
//! fill and S4 (§7.3), but they are the same memories: each word position sees up to two
//! writes and two reads per clock, and the RAM primitive has one write and one read port.
//!
//! * Two write ports by a live-value table (LVT): the fill data goes to a **fill store**, the
//!   S4 results to an **S4 store**, and `dirty[b][p][n]` (192 flops) says which of the two holds
//!   word n: set by an S4 write of it, cleared for the whole buffer when its group's first row
//!   is accepted. A word with dirty = 0 in a row k ≥ R is scratch and reads 0 (this replaces
//!   zeroing the scratch rows on the last fill row).
//! * Two read ports by two copies of each store, one read by issue, one by drain.
//! * Banks: fill store for issue: 4 row banks k (128 bits, address {b, p}); fill store for
//!   drain: one memory of 128 data + 5 iptr + 8 tag bits at address {b, k, p}; S4 store for
//!   issue and for drain: 16 word banks n each (32 bits, address {b, p}), so that the lanes'
//!   writes (distinct words; a later lane wins a shared one) each hit their own bank.
//!   37 `Ram`s, every one 1 write + 1 read port per clock.
//! * Buffer rotation by base pointer: the buffer index is the high address bits; nothing moves.
//! * The CE bit is the write enable: an S4 bank is written only when we4 = sh3.live (the slot's
//!   CE bit) and a lane names its word, so a skipped slot writes no RAM at all.
//! * Registered read hidden by reading one cycle early: the sequencer gives the next cycle's
//!   issue line and drain row (`issue_next_*`, `drain_next_*`), the memories are read with that
//!   address, and their data arrives in the cycle of the issue / drain. The one write that this
//!   misses is the S4 write at the same edge (the previous slot of the same pixel, or the tail
//!   write into a row about to be drained, §7.3); it is kept in `fwd_*` for one clock and wins
//!   over the RAM data (it is also the only same-address read-during-write, whose RAM data is
//!   undefined). The forwarded write is kept per word bank (the banks' write enables and
//!   data, lanes already merged), so each word of the line picks it with one multiplexer
//!   instead of one per lane (issue 16). Fill writes never meet a read of the same word at
//!   the same edge: the last fill row is pixel 3 and the first issue pixel 0; drain and fill
//!   are different buffers.
//!   So §7.3 timing is unchanged (row latency 8R).
//! * Kept in flops: `ce` (48 bits: read by issue, drain and the cxw read-modify-write in the
//!   same clock), the P0 iptrs (12 × 5: fetch and ERR_SIMD), `dirty` and the forwarding
//!   registers.
//!
//! * Issue selects registered (issue 16, S1 cut for the ECP5): which store each word of the
//!   issue line comes from (the forwarded S4 write, the S4 store by the LVT, the fill store for
//!   rows < R, else 0) and the slot's CE bit depend only on the next cycle's issue address and
//!   on this edge's writes, so they are computed one cycle early (`IssueSelect`, issue_select.rs,
//!   with `LineNext`: the `dirty`/`ce` flops at `issue_next_*` with this edge's S4 and fill
//!   writes applied, the same next values the flops take) and registered. S1 is then: registered selects → one
//!   AND-OR per word → operand multiplexer. The P0 iptr of the next slot (`issue_next_iptr0`)
//!   goes to the instruction fetch a cycle early (the decode is registered too, decode.rs).
//!
//! Ports are as before, plus the one-cycle-early addresses and the issuing group's R − 1.
//! Every read port depends only on registers; no read data depends on a write port.

use super::issue_select::IssueSelect;
use crate::prims::{RDff, Ram};
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct GroupBuffers<const NA: usize> {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    /// Issue read port: line (b, p), ce[p][k] of the issuing slot ix = {k, p} of buffer b,
    /// all selected by registers loaded from the next-cycle address below.
    /// R − 1 of the group issuing next cycle (rows above it are scratch).
    pub issue_next_rm1: Signal<In, Bits<2>>,
    /// The buffer and slot {k, p} issuing next cycle (the RAM read address; the selects).
    pub issue_next_buf: Signal<In, Bits<2>>,
    pub issue_next_slot: Signal<In, Bits<4>>,
    pub issue_line: Vec<Signal<Out, Bits<32>>>,
    pub issue_ce: Signal<Out, Bit>,
    /// iptr[0][k] of the next cycle's slot (the instruction fetch runs a cycle early). From the
    /// flops before this edge: a P0 iptr is written only by a fill row with p = 0, never a
    /// group's last row, so that buffer is FILL next cycle and does not issue.
    pub issue_next_iptr0: Signal<Out, Bits<5>>,
    /// Fill write port: row n = {k, p} of buffer `fill_buf` takes the row and its sideband.
    pub fill_we: Signal<In, Bit>,
    pub fill_buf: Signal<In, Bits<2>>,
    pub fill_n: Signal<In, Bits<4>>,
    pub fill_data: Signal<In, Bits<128>>,
    pub fill_ce: Signal<In, Bit>,
    pub fill_iptr: Signal<In, Bits<5>>,
    pub fill_tag: Signal<In, Bits<8>>,
    /// Fill read port: iptr[0][k] of the filled row's k.
    pub fill_iptr0: Signal<Out, Bits<5>>,
    /// Drain read port: row n = {k, p} of buffer `drain_buf` (all 0 unless `drain_en`).
    pub drain_en: Signal<In, Bit>,
    pub drain_buf: Signal<In, Bits<2>>,
    pub drain_n: Signal<In, Bits<4>>,
    /// `drain_buf` and `drain_n` of the next cycle (the RAM read address).
    pub drain_next_buf: Signal<In, Bits<2>>,
    pub drain_next_n: Signal<In, Bits<4>>,
    pub drain_data: Signal<Out, Bits<128>>,
    pub drain_ce: Signal<Out, Bit>,
    pub drain_iptr: Signal<Out, Bits<5>>,
    pub drain_tag: Signal<Out, Bits<8>>,
    /// Write-back port (S4) on line (`wb_buf`, `wb_pix`): lane j writes word `wb_reg[j]` (only
    /// codes 0..15 are registers) with `wb_data[j]`, a later lane winning; CE bit k takes
    /// `ce_data[k]` where `ce_we[k]`. `wb_ce` reads the line's four CE bits.
    pub wb_we: Signal<In, Bit>,
    pub wb_buf: Signal<In, Bits<2>>,
    pub wb_pix: Signal<In, Bits<2>>,
    pub wb_reg: Vec<Signal<In, Bits<5>>>,
    pub wb_data: Vec<Signal<In, Bits<32>>>,
    pub ce_we: Signal<In, Bits<4>>,
    pub ce_data: Signal<In, Bits<4>>,
    pub wb_ce: Signal<Out, Bits<4>>,

    c2: Vec<Constant<Bits<2>>>,
    c4: Vec<Constant<Bits<4>>>,
    c5: Vec<Constant<Bits<5>>>,
    /// fill store, issue copy: row bank k, address {b, p}
    fill_rows: Vec<Ram<128, 4>>,
    /// fill store, drain copy: {tag, iptr, data} at address {b, k, p}
    fill_drain: Ram<141, 6>,
    /// S4 store, issue and drain copies: word bank n, address {b, p}
    s4_issue: Vec<Ram<32, 4>>,
    s4_drain: Vec<Ram<32, 4>>,
    /// LVT: word n of line (b, p) (index b*4 + p) was last written by S4
    dirty: Vec<RDff<Bits<16>>>,
    /// index b*16 + p*4 + k (ce), b*4 + k (P0 iptr)
    ce: Vec<RDff<Bit>>,
    iptr0: Vec<RDff<Bits<5>>>,
    /// the S4 write of the last edge (missed by the one-cycle-early RAM read)
    fwd_buf: RDff<Bits<2>>,
    fwd_pix: RDff<Bits<2>>,
    /// per word bank n: written (`swe`) and the data (`swd`)
    fwd_we: RDff<Bits<16>>,
    fwd_data: Vec<RDff<Bits<32>>>,
    /// S4 write enable and data per word bank
    swe: Signal<Local, Bits<16>>,
    swd: Vec<Signal<Local, Bits<32>>>,
    cwe: Vec<Signal<Local, Bit>>,
    cwd: Vec<Signal<Local, Bit>>,
    /// issue line word n comes from the forwarded S4 write / the S4 store / the fill store
    /// (else 0), and the slot's CE bit: computed for the next slot, registered
    isel: IssueSelect,
    /// the drained line's dirty bits; the forwarded write hits that line
    ddirty: Signal<Local, Bits<16>>,
    dfwd: Signal<Local, Bit>,
    /// the drained row's four words
    ow: Vec<Signal<Local, Bits<32>>>,
}

impl<const NA: usize> GroupBuffers<NA> {
    pub fn new() -> Self {
        fn v<T: Default>(n: usize) -> Vec<T> {
            (0..n).map(|_| T::default()).collect()
        }
        Self {
            clock: Default::default(),
            rst: Default::default(),
            issue_next_rm1: Default::default(),
            issue_next_buf: Default::default(),
            issue_next_slot: Default::default(),
            issue_line: v(16),
            issue_ce: Default::default(),
            issue_next_iptr0: Default::default(),
            fill_we: Default::default(),
            fill_buf: Default::default(),
            fill_n: Default::default(),
            fill_data: Default::default(),
            fill_ce: Default::default(),
            fill_iptr: Default::default(),
            fill_tag: Default::default(),
            fill_iptr0: Default::default(),
            drain_en: Default::default(),
            drain_buf: Default::default(),
            drain_n: Default::default(),
            drain_next_buf: Default::default(),
            drain_next_n: Default::default(),
            drain_data: Default::default(),
            drain_ce: Default::default(),
            drain_iptr: Default::default(),
            drain_tag: Default::default(),
            wb_we: Default::default(),
            wb_buf: Default::default(),
            wb_pix: Default::default(),
            wb_reg: v(NA),
            wb_data: v(NA),
            ce_we: Default::default(),
            ce_data: Default::default(),
            wb_ce: Default::default(),
            c2: (0..4u64).map(|i| Constant::new(i.into())).collect(),
            c4: (0..16u64).map(|i| Constant::new(i.into())).collect(),
            c5: (0..16u64).map(|i| Constant::new(i.into())).collect(),
            fill_rows: v(4),
            fill_drain: Default::default(),
            s4_issue: v(16),
            s4_drain: v(16),
            dirty: v(12),
            ce: v(48),
            iptr0: v(12),
            fwd_we: Default::default(),
            fwd_buf: Default::default(),
            fwd_pix: Default::default(),
            fwd_data: v(16),
            swe: Default::default(),
            swd: v(16),
            cwe: v(48),
            cwd: v(48),
            isel: IssueSelect::new(),
            ddirty: Default::default(),
            dfwd: Default::default(),
            ow: v(4),
        }
    }
}

impl<const NA: usize> Logic for GroupBuffers<NA> {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- flops: clock, reset, hold ----
        for i in 0..48 {
            self.ce[i].clock.next = self.clock.val();
            self.ce[i].rst.next = self.rst.val();
            self.ce[i].d.next = self.ce[i].q.val();
            self.cwe[i].next = false;
            self.cwd[i].next = false;
            self.isel.ce[i].next = self.ce[i].q.val();
        }
        for i in 0..12 {
            self.dirty[i].clock.next = self.clock.val();
            self.dirty[i].rst.next = self.rst.val();
            self.dirty[i].d.next = self.dirty[i].q.val();
            self.iptr0[i].clock.next = self.clock.val();
            self.iptr0[i].rst.next = self.rst.val();
            self.iptr0[i].d.next = self.iptr0[i].q.val();
            self.isel.dirty[i].next = self.dirty[i].q.val();
        }
        dff_setup!(self, clock, fwd_we, fwd_buf, fwd_pix);
        self.fwd_we.rst.next = self.rst.val();
        self.fwd_buf.rst.next = self.rst.val();
        self.fwd_pix.rst.next = self.rst.val();
        for n in 0..16 {
            self.fwd_data[n].clock.next = self.clock.val();
            self.fwd_data[n].rst.next = self.rst.val();
        }

        // ---- S4 write: one word per bank (a later lane wins), the CE bit as write enable ----
        self.swe.next = 0.into();
        for n in 0..16 {
            self.swd[n].next = 0.into();
            for j in 0..NA {
                if self.wb_reg[j].val() == self.c5[n].val() {
                    self.swe.next = self.swe.val().replace_bit(n, self.wb_we.val());
                    self.swd[n].next = self.wb_data[j].val();
                }
            }
        }
        for n in 0..16 {
            self.s4_issue[n].clock.next = self.clock.val();
            self.s4_issue[n].write_enable.next = self.swe.val().get_bit(n);
            self.s4_issue[n].write_address.next = bit_cast::<4, 2>(self.wb_buf.val()) << 2 | bit_cast::<4, 2>(self.wb_pix.val());
            self.s4_issue[n].write_data.next = self.swd[n].val();
            self.s4_issue[n].read_enable.next = true;
            self.s4_issue[n].read_address.next = bit_cast::<4, 2>(self.issue_next_buf.val()) << 2 | bit_cast::<4, 2>(self.issue_next_slot.val().get_bits::<2>(0));
            self.s4_drain[n].clock.next = self.clock.val();
            self.s4_drain[n].write_enable.next = self.swe.val().get_bit(n);
            self.s4_drain[n].write_address.next = bit_cast::<4, 2>(self.wb_buf.val()) << 2 | bit_cast::<4, 2>(self.wb_pix.val());
            self.s4_drain[n].write_data.next = self.swd[n].val();
            self.s4_drain[n].read_enable.next = true;
            self.s4_drain[n].read_address.next = bit_cast::<4, 2>(self.drain_next_buf.val()) << 2 | bit_cast::<4, 2>(self.drain_next_n.val().get_bits::<2>(0));
        }
        self.fwd_we.d.next = self.swe.val();
        self.fwd_buf.d.next = self.wb_buf.val();
        self.fwd_pix.d.next = self.wb_pix.val();
        for n in 0..16 {
            self.fwd_data[n].d.next = self.swd[n].val();
        }

        // ---- fill write: row banks, the drain copy with its sideband, P0 iptrs ----
        for k in 0..4 {
            self.fill_rows[k].clock.next = self.clock.val();
            self.fill_rows[k].write_enable.next = self.fill_we.val() & (self.fill_n.val().get_bits::<2>(2) == self.c2[k].val());
            self.fill_rows[k].write_address.next = bit_cast::<4, 2>(self.fill_buf.val()) << 2 | bit_cast::<4, 2>(self.fill_n.val().get_bits::<2>(0));
            self.fill_rows[k].write_data.next = self.fill_data.val();
            self.fill_rows[k].read_enable.next = true;
            self.fill_rows[k].read_address.next = bit_cast::<4, 2>(self.issue_next_buf.val()) << 2 | bit_cast::<4, 2>(self.issue_next_slot.val().get_bits::<2>(0));
        }
        self.fill_drain.clock.next = self.clock.val();
        self.fill_drain.write_enable.next = self.fill_we.val();
        self.fill_drain.write_address.next = bit_cast::<6, 2>(self.fill_buf.val()) << 4 | bit_cast::<6, 4>(self.fill_n.val());
        self.fill_drain.write_data.next = bit_cast::<141, 128>(self.fill_data.val()) | bit_cast::<141, 5>(self.fill_iptr.val()) << 128 | bit_cast::<141, 8>(self.fill_tag.val()) << 133;
        self.fill_drain.read_enable.next = true;
        self.fill_drain.read_address.next = bit_cast::<6, 2>(self.drain_next_buf.val()) << 4 | bit_cast::<6, 4>(self.drain_next_n.val());
        for b in 0..3 {
            for k in 0..4 {
                if self.fill_we.val() & (self.fill_buf.val() == self.c2[b].val()) & (self.fill_n.val() == self.c4[k * 4].val()) {
                    self.iptr0[b * 4 + k].d.next = self.fill_iptr.val();
                }
            }
        }

        // ---- LVT: S4 sets a word's dirty bit, a group's first row clears its buffer's ----
        for b in 0..3 {
            for p in 0..4 {
                if self.fill_we.val() & (self.fill_buf.val() == self.c2[b].val()) & (self.fill_n.val() == self.c4[0].val()) {
                    self.dirty[b * 4 + p].d.next = 0.into();
                }
                if self.wb_we.val() & (self.wb_buf.val() == self.c2[b].val()) & (self.wb_pix.val() == self.c2[p].val()) {
                    self.dirty[b * 4 + p].d.next = self.dirty[b * 4 + p].q.val() | self.swe.val();
                }
            }
        }

        // ---- issue read port: RAM data read last cycle, selected by last cycle's registers ----
        self.issue_ce.next = self.isel.ce_bit.val();
        for k in 0..4 {
            for f in 0..4 {
                self.issue_line[k * 4 + f].next = 0.into();
                if self.isel.sel_fill.val().get_bit(k * 4 + f) {
                    self.issue_line[k * 4 + f].next = self.fill_rows[k].read_data.val().get_bits::<32>(f * 32);
                }
                if self.isel.sel_s4.val().get_bit(k * 4 + f) {
                    self.issue_line[k * 4 + f].next = self.s4_issue[k * 4 + f].read_data.val();
                }
                if self.isel.sel_fwd.val().get_bit(k * 4 + f) {
                    self.issue_line[k * 4 + f].next = self.fwd_data[k * 4 + f].q.val();
                }
            }
        }

        // ---- the next slot's selects, registered for the issue read port above ----
        self.isel.clock.next = self.clock.val();
        self.isel.rst.next = self.rst.val();
        self.isel.next_buf.next = self.issue_next_buf.val();
        self.isel.next_slot.next = self.issue_next_slot.val();
        self.isel.next_rm1.next = self.issue_next_rm1.val();
        self.isel.fill_we.next = self.fill_we.val();
        self.isel.fill_buf.next = self.fill_buf.val();
        self.isel.fill_n.next = self.fill_n.val();
        self.isel.fill_ce.next = self.fill_ce.val();
        self.isel.wb_we.next = self.wb_we.val();
        self.isel.wb_buf.next = self.wb_buf.val();
        self.isel.wb_pix.next = self.wb_pix.val();
        self.isel.swe.next = self.swe.val();
        self.isel.ce_we.next = self.ce_we.val();
        self.isel.ce_data.next = self.ce_data.val();
        // the P0 iptr of the next slot (the fetch runs a cycle early)
        self.issue_next_iptr0.next = 0.into();
        for b in 0..3 {
            for k in 0..4 {
                if (self.issue_next_buf.val() == self.c2[b].val()) & (self.issue_next_slot.val().get_bits::<2>(2) == self.c2[k].val()) {
                    self.issue_next_iptr0.next = self.iptr0[b * 4 + k].q.val();
                }
            }
        }

        // ---- fill read port ----
        self.fill_iptr0.next = 0.into();
        for b in 0..3 {
            for k in 0..4 {
                if (self.fill_buf.val() == self.c2[b].val()) & (self.fill_n.val().get_bits::<2>(2) == self.c2[k].val()) {
                    self.fill_iptr0.next = self.iptr0[b * 4 + k].q.val();
                }
            }
        }

        // ---- drain read port (rows < R only, never scratch) ----
        self.drain_data.next = 0.into();
        self.drain_ce.next = false;
        self.drain_iptr.next = 0.into();
        self.drain_tag.next = 0.into();
        self.ddirty.next = 0.into();
        for b in 0..3 {
            for p in 0..4 {
                for k in 0..4 {
                    if (self.drain_buf.val() == self.c2[b].val()) & (self.drain_n.val() == self.c4[k * 4 + p].val()) {
                        self.drain_ce.next = self.ce[b * 16 + p * 4 + k].q.val();
                    }
                }
                if (self.drain_buf.val() == self.c2[b].val()) & (self.drain_n.val().get_bits::<2>(0) == self.c2[p].val()) {
                    self.ddirty.next = self.dirty[b * 4 + p].q.val();
                }
            }
        }
        self.dfwd.next = (self.fwd_buf.q.val() == self.drain_buf.val()) & (self.fwd_pix.q.val() == self.drain_n.val().get_bits::<2>(0));
        for f in 0..4 {
            self.ow[f].next = self.fill_drain.read_data.val().get_bits::<32>(f * 32);
            for k in 0..4 {
                if (self.drain_n.val().get_bits::<2>(2) == self.c2[k].val()) & self.ddirty.val().get_bit(k * 4 + f) {
                    self.ow[f].next = self.s4_drain[k * 4 + f].read_data.val();
                }
                if self.dfwd.val() & (self.drain_n.val().get_bits::<2>(2) == self.c2[k].val()) & self.fwd_we.q.val().get_bit(k * 4 + f) {
                    self.ow[f].next = self.fwd_data[k * 4 + f].q.val();
                }
            }
        }
        if self.drain_en.val() {
            self.drain_iptr.next = self.fill_drain.read_data.val().get_bits::<5>(128);
            self.drain_tag.next = self.fill_drain.read_data.val().get_bits::<8>(133);
            self.drain_data.next = bit_cast::<128, 32>(self.ow[0].val())
                | bit_cast::<128, 32>(self.ow[1].val()) << 32
                | bit_cast::<128, 32>(self.ow[2].val()) << 64
                | bit_cast::<128, 32>(self.ow[3].val()) << 96;
        } else {
            self.drain_ce.next = false;
        }

        // ---- write-back read port: the written pixel's CE bits ----
        self.wb_ce.next = 0.into();
        for b in 0..3 {
            for p in 0..4 {
                if (self.wb_buf.val() == self.c2[b].val()) & (self.wb_pix.val() == self.c2[p].val()) {
                    for k in 0..4 {
                        self.wb_ce.next = self.wb_ce.val().replace_bit(k, self.ce[b * 16 + p * 4 + k].q.val());
                    }
                }
            }
        }

        // ---- CE bits: S4 (cxw), then fill (fill wins), one write per bit ----
        if self.wb_we.val() {
            for b in 0..3 {
                for p in 0..4 {
                    if (self.wb_buf.val() == self.c2[b].val()) & (self.wb_pix.val() == self.c2[p].val()) {
                        for k in 0..4 {
                            if self.ce_we.val().get_bit(k) {
                                self.cwe[b * 16 + p * 4 + k].next = true;
                                self.cwd[b * 16 + p * 4 + k].next = self.ce_data.val().get_bit(k);
                            }
                        }
                    }
                }
            }
        }
        if self.fill_we.val() {
            for b in 0..3 {
                for p in 0..4 {
                    for k in 0..4 {
                        if (self.fill_buf.val() == self.c2[b].val()) & (self.fill_n.val() == self.c4[k * 4 + p].val()) {
                            self.cwe[b * 16 + p * 4 + k].next = true;
                            self.cwd[b * 16 + p * 4 + k].next = self.fill_ce.val();
                        }
                    }
                }
            }
        }
        for i in 0..48 {
            if self.cwe[i].val() {
                self.ce[i].d.next = self.cwd[i].val();
            }
        }
    }
}
