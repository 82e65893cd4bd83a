//! The three group buffers' storage (spec §2.3): `reg[4][16]` (32-bit), `ce[4][4]`,
//! `iptr[4][4]` and `tag[4][4]` of each buffer, behind RAM-like ports, so that issue 16 can
//! replace the flops by a memory. The registers are organised as 12 lines (buffer b, pixel p)
//! of 16 words; a row (p, k) is words 4k..4k+3 of line (b, p).
//!
//! Read ports (address in, data out, from the flops only): the issue port (line of the slot's
//! pixel, its CE bit, row k's P0 iptr), the fill port (row k's P0 iptr, for ERR_SIMD), the drain
//! port (one row with its sideband, 0 while not enabled) and the write-back port (the CE bits
//! of the written pixel, for cxw's read-modify-write).
//! Write ports: the fill row (plus zeroing the scratch rows ≥ R on the last row) and the S4
//! write-back (one word per lane, the pixel's CE bits); fill wins over S4. Each flop is
//! written once, from a gathered write enable and data (clock-enable flops in synthesis).
//! No read data depends on a write port, so the block never closes a combinational loop.

use crate::prims::RDff;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct GroupBuffers<const NA: usize> {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    /// Issue read port: buffer and slot ix = {k, p} → line (b, p), ce[p][k], iptr[0][k].
    pub issue_buf: Signal<In, Bits<2>>,
    pub issue_slot: Signal<In, Bits<4>>,
    pub issue_line: Vec<Signal<Out, Bits<32>>>,
    pub issue_ce: Signal<Out, Bit>,
    pub issue_iptr0: Signal<Out, Bits<5>>,
    /// Fill write port: row n = {k, p} of buffer `fill_buf` takes the row and its sideband;
    /// with `fill_last`, rows k > `fill_rm1` of every pixel are zeroed.
    pub fill_we: Signal<In, Bit>,
    pub fill_buf: Signal<In, Bits<2>>,
    pub fill_n: Signal<In, Bits<4>>,
    pub fill_data: Signal<In, Bits<128>>,
    pub fill_ce: Signal<In, Bit>,
    pub fill_iptr: Signal<In, Bits<5>>,
    pub fill_tag: Signal<In, Bits<8>>,
    pub fill_last: Signal<In, Bit>,
    pub fill_rm1: Signal<In, Bits<2>>,
    /// Fill read port: iptr[0][k] of the filled row's k.
    pub fill_iptr0: Signal<Out, Bits<5>>,
    /// Drain read port: row n = {k, p} of buffer `drain_buf` (all 0 unless `drain_en`).
    pub drain_en: Signal<In, Bit>,
    pub drain_buf: Signal<In, Bits<2>>,
    pub drain_n: Signal<In, Bits<4>>,
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
    /// index b*64 + p*16 + n (registers), b*16 + p*4 + k (ce, iptr, tag)
    regs: Vec<RDff<Bits<32>>>,
    ce: Vec<RDff<Bit>>,
    iptr: Vec<RDff<Bits<5>>>,
    tag: Vec<RDff<Bits<8>>>,
    /// the gathered write enable and data of each register and CE bit
    rwe: Vec<Signal<Local, Bit>>,
    rwd: Vec<Signal<Local, Bits<32>>>,
    cwe: Vec<Signal<Local, Bit>>,
    cwd: Vec<Signal<Local, Bit>>,
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
            issue_buf: Default::default(),
            issue_slot: Default::default(),
            issue_line: v(16),
            issue_ce: Default::default(),
            issue_iptr0: Default::default(),
            fill_we: Default::default(),
            fill_buf: Default::default(),
            fill_n: Default::default(),
            fill_data: Default::default(),
            fill_ce: Default::default(),
            fill_iptr: Default::default(),
            fill_tag: Default::default(),
            fill_last: Default::default(),
            fill_rm1: Default::default(),
            fill_iptr0: Default::default(),
            drain_en: Default::default(),
            drain_buf: Default::default(),
            drain_n: Default::default(),
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
            regs: v(192),
            ce: v(48),
            iptr: v(48),
            tag: v(48),
            rwe: v(192),
            rwd: v(192),
            cwe: v(48),
            cwd: v(48),
            ow: v(4),
        }
    }
}

impl<const NA: usize> Logic for GroupBuffers<NA> {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..192 {
            self.regs[i].clock.next = self.clock.val();
            self.regs[i].rst.next = self.rst.val();
            self.regs[i].d.next = self.regs[i].q.val();
            self.rwe[i].next = false;
            self.rwd[i].next = 0.into();
        }
        for i in 0..48 {
            self.ce[i].clock.next = self.clock.val();
            self.ce[i].rst.next = self.rst.val();
            self.ce[i].d.next = self.ce[i].q.val();
            self.cwe[i].next = false;
            self.cwd[i].next = false;
            self.iptr[i].clock.next = self.clock.val();
            self.iptr[i].rst.next = self.rst.val();
            self.iptr[i].d.next = self.iptr[i].q.val();
            self.tag[i].clock.next = self.clock.val();
            self.tag[i].rst.next = self.rst.val();
            self.tag[i].d.next = self.tag[i].q.val();
        }

        // ---- issue read port ----
        self.issue_ce.next = false;
        self.issue_iptr0.next = 0.into();
        for b in 0..3 {
            for p in 0..4 {
                for k in 0..4 {
                    if (self.issue_buf.val() == self.c2[b].val()) & (self.issue_slot.val() == self.c4[k * 4 + p].val()) {
                        self.issue_ce.next = self.ce[b * 16 + p * 4 + k].q.val();
                    }
                }
            }
            for k in 0..4 {
                if (self.issue_buf.val() == self.c2[b].val()) & (self.issue_slot.val().get_bits::<2>(2) == self.c2[k].val()) {
                    self.issue_iptr0.next = self.iptr[b * 16 + k].q.val();
                }
            }
        }
        for n in 0..16 {
            self.issue_line[n].next = 0.into();
        }
        for b in 0..3 {
            for p in 0..4 {
                if (self.issue_buf.val() == self.c2[b].val()) & (self.issue_slot.val().get_bits::<2>(0) == self.c2[p].val()) {
                    for n in 0..16 {
                        self.issue_line[n].next = self.regs[b * 64 + p * 16 + n].q.val();
                    }
                }
            }
        }

        // ---- fill read port ----
        self.fill_iptr0.next = 0.into();
        for b in 0..3 {
            for k in 0..4 {
                if (self.fill_buf.val() == self.c2[b].val()) & (self.fill_n.val().get_bits::<2>(2) == self.c2[k].val()) {
                    self.fill_iptr0.next = self.iptr[b * 16 + k].q.val();
                }
            }
        }

        // ---- drain read port ----
        for f in 0..4 {
            self.ow[f].next = 0.into();
        }
        self.drain_data.next = 0.into();
        self.drain_ce.next = false;
        self.drain_iptr.next = 0.into();
        self.drain_tag.next = 0.into();
        if self.drain_en.val() {
            for b in 0..3 {
                for p in 0..4 {
                    for k in 0..4 {
                        if (self.drain_buf.val() == self.c2[b].val()) & (self.drain_n.val() == self.c4[k * 4 + p].val()) {
                            self.drain_ce.next = self.ce[b * 16 + p * 4 + k].q.val();
                            self.drain_iptr.next = self.iptr[b * 16 + p * 4 + k].q.val();
                            self.drain_tag.next = self.tag[b * 16 + p * 4 + k].q.val();
                            for f in 0..4 {
                                self.ow[f].next = self.regs[b * 64 + p * 16 + k * 4 + f].q.val();
                            }
                        }
                    }
                }
            }
            self.drain_data.next = bit_cast::<128, 32>(self.ow[0].val())
                | bit_cast::<128, 32>(self.ow[1].val()) << 32
                | bit_cast::<128, 32>(self.ow[2].val()) << 64
                | bit_cast::<128, 32>(self.ow[3].val()) << 96;
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

        // ---- write-back (S4) write port ----
        if self.wb_we.val() {
            for b in 0..3 {
                for p in 0..4 {
                    if (self.wb_buf.val() == self.c2[b].val()) & (self.wb_pix.val() == self.c2[p].val()) {
                        for n in 0..16 {
                            for j in 0..NA {
                                if self.wb_reg[j].val() == self.c5[n].val() {
                                    self.rwe[b * 64 + p * 16 + n].next = true;
                                    self.rwd[b * 64 + p * 16 + n].next = self.wb_data[j].val();
                                }
                            }
                        }
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

        // ---- fill write port (after S4: fill wins) ----
        if self.fill_we.val() {
            for b in 0..3 {
                if self.fill_buf.val() == self.c2[b].val() {
                    for p in 0..4 {
                        for k in 0..4 {
                            if self.fill_n.val() == self.c4[k * 4 + p].val() {
                                self.cwe[b * 16 + p * 4 + k].next = true;
                                self.cwd[b * 16 + p * 4 + k].next = self.fill_ce.val();
                                self.iptr[b * 16 + p * 4 + k].d.next = self.fill_iptr.val();
                                self.tag[b * 16 + p * 4 + k].d.next = self.fill_tag.val();
                                for f in 0..4 {
                                    self.rwe[b * 64 + p * 16 + k * 4 + f].next = true;
                                    self.rwd[b * 64 + p * 16 + k * 4 + f].next = self.fill_data.val().get_bits::<32>(f * 32);
                                }
                            }
                        }
                        // scratch rows >= R are zeroed on the last row
                        for k in 1..4 {
                            if self.fill_last.val() & (self.c2[k].val() > self.fill_rm1.val()) {
                                for f in 0..4 {
                                    self.rwe[b * 64 + p * 16 + k * 4 + f].next = true;
                                    self.rwd[b * 64 + p * 16 + k * 4 + f].next = 0.into();
                                }
                            }
                        }
                    }
                }
            }
        }

        // ---- one write per register and CE bit ----
        for i in 0..192 {
            if self.rwe[i].val() {
                self.regs[i].d.next = self.rwd[i].val();
            }
        }
        for i in 0..48 {
            if self.cwe[i].val() {
                self.ce[i].d.next = self.cwd[i].val();
            }
        }
    }
}
