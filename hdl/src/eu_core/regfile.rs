//! The register file: `threads × 128` registers of 32 bytes, address `{tid, reg}`, with the
//! source gathers between its block RAMs and its output registers.
//!
//! Two read ports (src0, src1) in one cycle from two copies written together (one write port
//! each, same address and data): a block RAM has one read and one write port, and reading src0
//! and src1 on alternate phases would need the RAM at twice the core clock or a second issue
//! cycle per instruction. Two copies cost EBR and keep one issue per cycle.
//!
//! Each byte of a register is its own memory (32 per copy, `T·128 × 8`: one ECP5 DP16KD each at
//! 4 threads), so that a write stores exactly the bytes of the destination region that run — a
//! byte's write enable is its bit of the scatter's byte enables (`gather::Scatter`), like
//! Vortex's per-thread byte enables in `VX_operands` — with no read-modify-write.
//!
//! Read timing: the address goes in at decode (S1); the memories' read registers hold the
//! register in S2, where each port's `gather::Gather` picks the operand's elements (the region
//! address generator's channel offsets, registered in S2 too); the output register holds the
//! gathered operand in S3, execute. The output register also takes the EBR's clock-to-out
//! (5.6–5.8 ns on the ECP5-85F) out of the execute stage's path.

use super::gather::Gather;
use crate::prims::Ram;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct RegFile<const RA: usize> {
    /// Clock of the memories and the output registers.
    pub clk: Signal<In, Clock>,
    /// S1: register `{tid, reg}` read on port 0.
    pub rd_addr0: Signal<In, Bits<RA>>,
    /// S1: register read on port 1.
    pub rd_addr1: Signal<In, Bits<RA>>,
    /// S2: port 0's channel byte offsets (`gather::Gather::cols`).
    pub cols0: Signal<In, Bits<40>>,
    /// S2: port 0's element size, log2 bytes.
    pub esize0: Signal<In, Bits<2>>,
    /// S2: port 0's type is signed.
    pub sext0: Signal<In, Bit>,
    /// S2: port 1's channel byte offsets.
    pub cols1: Signal<In, Bits<40>>,
    /// S2: port 1's element size, log2 bytes.
    pub esize1: Signal<In, Bits<2>>,
    /// S2: port 1's type is signed.
    pub sext1: Signal<In, Bit>,
    /// S2: bit l, port 0's lane l comes from its collect register (a channel an earlier pass of
    /// a multi-register operand read, `passes::Passes`), not from the gather.
    pub keep0: Signal<In, Bits<8>>,
    /// S2: the same for port 1.
    pub keep1: Signal<In, Bits<8>>,
    /// S3: both collect registers take the operands of this pass (`rd_data0`, `rd_data1`).
    pub capture: Signal<In, Bit>,
    /// S3: port 0's operand, lane l at bits [32l, 32l+32) (the register of `rd_addr0` two
    /// cycles before, gathered with the selects of one cycle before).
    pub rd_data0: Signal<Out, Bits<256>>,
    /// S3: port 1's operand.
    pub rd_data1: Signal<Out, Bits<256>>,
    /// Write `wr_data`'s bytes of `wr_bytes` into register `wr_addr` at the next edge.
    pub we: Signal<In, Bit>,
    /// Register written.
    pub wr_addr: Signal<In, Bits<RA>>,
    /// Bit b: byte b is written.
    pub wr_bytes: Signal<In, Bits<32>>,
    /// The register's bytes (byte b at bits [8b, 8b+8)).
    pub wr_data: Signal<In, Bits<256>>,
    /// The core is idle: port 0 reads the host's register `host_raddr` (on `rd_data0`, two
    /// cycles later).
    pub host: Signal<In, Bit>,
    pub host_raddr: Signal<In, Bits<RA>>,
    /// The host writes register `host_waddr`, all bytes (before the core's write port).
    pub host_we: Signal<In, Bit>,
    pub host_waddr: Signal<In, Bits<RA>>,
    pub host_wdata: Signal<In, Bits<256>>,
    copy0: [Ram<8, RA>; 32],
    copy1: [Ram<8, RA>; 32],
    gather0: Gather,
    gather1: Gather,
    /// The output registers (no reset: they only carry read data).
    out0: DFF<Bits<256>>,
    out1: DFF<Bits<256>>,
    /// The collect registers of a multi-register operand's passes (no reset: read only where
    /// `keep` says an earlier pass wrote them).
    held0: DFF<Bits<256>>,
    held1: DFF<Bits<256>>,
    keep_bits0: Signal<Local, Bits<256>>,
    keep_bits1: Signal<Local, Bits<256>>,
    collect0: Signal<Local, Bits<256>>,
    byte0: Signal<Local, Bits<8>>,
    collect1: Signal<Local, Bits<256>>,
    byte1: Signal<Local, Bits<8>>,
    /// The read address of port 0 and the write, after the host's.
    raddr0: Signal<Local, Bits<RA>>,
    wen: Signal<Local, Bit>,
    waddr: Signal<Local, Bits<RA>>,
    wbytes: Signal<Local, Bits<32>>,
    wdata: Signal<Local, Bits<256>>,
    k_all_bytes: Constant<Bits<32>>,
    k_top: Constant<Bits<16>>,
    k_lane_ones: Constant<Bits<256>>,
    k_lane_top: Constant<Bits<16>>,
}

impl<const RA: usize> Default for RegFile<RA> {
    fn default() -> Self {
        Self {
            clk: Default::default(),
            rd_addr0: Default::default(),
            rd_addr1: Default::default(),
            cols0: Default::default(),
            esize0: Default::default(),
            sext0: Default::default(),
            cols1: Default::default(),
            esize1: Default::default(),
            sext1: Default::default(),
            rd_data0: Default::default(),
            rd_data1: Default::default(),
            we: Default::default(),
            wr_addr: Default::default(),
            wr_bytes: Default::default(),
            wr_data: Default::default(),
            host: Default::default(),
            host_raddr: Default::default(),
            host_we: Default::default(),
            host_waddr: Default::default(),
            host_wdata: Default::default(),
            raddr0: Default::default(),
            wen: Default::default(),
            waddr: Default::default(),
            wbytes: Default::default(),
            wdata: Default::default(),
            k_all_bytes: Constant::new(0xFFFF_FFFFu64.into()),
            copy0: Default::default(),
            copy1: Default::default(),
            gather0: Default::default(),
            gather1: Default::default(),
            out0: Default::default(),
            out1: Default::default(),
            held0: Default::default(),
            held1: Default::default(),
            keep_bits0: Default::default(),
            keep_bits1: Default::default(),
            keep0: Default::default(),
            keep1: Default::default(),
            capture: Default::default(),
            k_lane_ones: Constant::new(0xFFFF_FFFFu64.into()),
            k_lane_top: Constant::new(224u64.into()),
            collect0: Default::default(),
            byte0: Default::default(),
            collect1: Default::default(),
            byte1: Default::default(),
            k_top: Constant::new(248u64.into()),
        }
    }
}

impl<const RA: usize> Logic for RegFile<RA> {
    #[hdl_gen]
    fn update(&mut self) {
        self.raddr0.next = self.rd_addr0.val();
        if self.host.val() {
            self.raddr0.next = self.host_raddr.val();
        }
        self.wen.next = self.we.val();
        self.waddr.next = self.wr_addr.val();
        self.wbytes.next = self.wr_bytes.val();
        self.wdata.next = self.wr_data.val();
        if self.host_we.val() {
            self.wen.next = true;
            self.waddr.next = self.host_waddr.val();
            self.wbytes.next = self.k_all_bytes.val();
            self.wdata.next = self.host_wdata.val();
        }
        // byte b is bits [8b, 8b+8); the read register is shifted in from the top, byte by byte
        self.collect0.next = 0.into();
        self.collect1.next = 0.into();
        for b in 0..32 {
            self.copy0[b].clock.next = self.clk.val();
            self.copy1[b].clock.next = self.clk.val();
            self.copy0[b].read_enable.next = true;
            self.copy1[b].read_enable.next = true;
            self.copy0[b].read_address.next = self.raddr0.val();
            self.copy1[b].read_address.next = self.rd_addr1.val();
            self.copy0[b].write_enable.next = self.wen.val() & self.wbytes.val().get_bit(b);
            self.copy1[b].write_enable.next = self.wen.val() & self.wbytes.val().get_bit(b);
            self.copy0[b].write_address.next = self.waddr.val();
            self.copy1[b].write_address.next = self.waddr.val();
            self.copy0[b].write_data.next = self.wdata.val().get_bits::<8>(8 * b);
            self.copy1[b].write_data.next = self.wdata.val().get_bits::<8>(8 * b);
            self.byte0.next = self.copy0[b].read_data.val();
            self.collect0.next = (self.collect0.val() >> 8) | (bit_cast::<256, 8>(self.byte0.val()) << self.k_top.val());
            self.byte1.next = self.copy1[b].read_data.val();
            self.collect1.next = (self.collect1.val() >> 8) | (bit_cast::<256, 8>(self.byte1.val()) << self.k_top.val());
        }
        // S2: the gathers, into the output registers
        self.gather0.word.next = self.collect0.val();
        self.gather0.cols.next = self.cols0.val();
        self.gather0.esize_log2.next = self.esize0.val();
        self.gather0.sext.next = self.sext0.val();
        self.gather1.word.next = self.collect1.val();
        self.gather1.cols.next = self.cols1.val();
        self.gather1.esize_log2.next = self.esize1.val();
        self.gather1.sext.next = self.sext1.val();
        // the lanes an earlier pass read come from the collect registers (a select per lane
        // after the gather, its select registered: the S2 path gains one LUT level)
        self.keep_bits0.next = 0.into();
        self.keep_bits1.next = 0.into();
        for l in 0..8 {
            self.keep_bits0.next = self.keep_bits0.val() >> 32;
            if self.keep0.val().get_bit(l) {
                self.keep_bits0.next = self.keep_bits0.val() | (self.k_lane_ones.val() << self.k_lane_top.val());
            }
            self.keep_bits1.next = self.keep_bits1.val() >> 32;
            if self.keep1.val().get_bit(l) {
                self.keep_bits1.next = self.keep_bits1.val() | (self.k_lane_ones.val() << self.k_lane_top.val());
            }
        }
        self.out0.clock.next = self.clk.val();
        self.out1.clock.next = self.clk.val();
        self.out0.d.next = (self.gather0.data.val() & !self.keep_bits0.val()) | (self.held0.q.val() & self.keep_bits0.val());
        self.out1.d.next = (self.gather1.data.val() & !self.keep_bits1.val()) | (self.held1.q.val() & self.keep_bits1.val());
        self.held0.clock.next = self.clk.val();
        self.held1.clock.next = self.clk.val();
        self.held0.d.next = self.held0.q.val();
        self.held1.d.next = self.held1.q.val();
        if self.capture.val() {
            self.held0.d.next = self.out0.q.val();
            self.held1.d.next = self.out1.q.val();
        }
        self.rd_data0.next = self.out0.q.val();
        self.rd_data1.next = self.out1.q.val();
    }
}
