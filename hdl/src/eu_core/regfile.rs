//! The register file: `threads × 128` registers of 8 lanes × 32 bits, address `{tid, reg}`.
//!
//! Two read ports (src0, src1) in one cycle from two copies written together (one write port
//! each, same address and data): a block RAM has one read and one write port, and reading src0
//! and src1 on alternate phases would need the RAM at twice the core clock or a second issue
//! cycle per instruction. Two copies cost EBR (2 × 8 lane memories; at the default 4 threads
//! each lane memory is 512 × 32 = 16 Kbit, one ECP5 DP16KD) and keep one issue per cycle.
//!
//! Each lane is its own memory so that a write stores only the lanes that run (the lane's write
//! enable is its execution-mask bit, like Vortex's per-thread byte enables in `VX_operands`):
//! no read-modify-write. Reads are registered twice (`prims::RamOutReg`: the EBR's read register,
//! then an output register): the address goes in at decode (S1), the memory's read register
//! holds the word in S2 and the output register in S3, execute. The second register takes the
//! EBR's clock-to-out (5.6–5.8 ns on the ECP5-85F) out of the execute stage's path; yosys keeps
//! it as fabric flops right after the EBR (its ECP5 mapping does not use the DP16KD's OUTREG).

use crate::prims::RamOutReg;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct RegFile<const RA: usize> {
    pub clk: Signal<In, Clock>,
    pub rd_addr0: Signal<In, Bits<RA>>,
    pub rd_addr1: Signal<In, Bits<RA>>,
    /// Registered twice: the registers at `rd_addr0`/`rd_addr1` of two cycles before.
    pub rd_data0: Signal<Out, Bits<256>>,
    pub rd_data1: Signal<Out, Bits<256>>,
    pub we: Signal<In, Bit>,
    pub wr_addr: Signal<In, Bits<RA>>,
    /// Lane l is written when bit l is set.
    pub wr_lanes: Signal<In, Bits<8>>,
    pub wr_data: Signal<In, Bits<256>>,
    copy0: [RamOutReg<32, RA>; 8],
    copy1: [RamOutReg<32, RA>; 8],
    collect0: Signal<Local, Bits<256>>,
    out0: Signal<Local, Bits<32>>,
    collect1: Signal<Local, Bits<256>>,
    out1: Signal<Local, Bits<32>>,
    k_top: Constant<Bits<16>>,
}

impl<const RA: usize> Default for RegFile<RA> {
    fn default() -> Self {
        Self {
            clk: Default::default(),
            rd_addr0: Default::default(),
            rd_addr1: Default::default(),
            rd_data0: Default::default(),
            rd_data1: Default::default(),
            we: Default::default(),
            wr_addr: Default::default(),
            wr_lanes: Default::default(),
            wr_data: Default::default(),
            copy0: Default::default(),
            copy1: Default::default(),
            collect0: Default::default(),
            out0: Default::default(),
            collect1: Default::default(),
            out1: Default::default(),
            k_top: Constant::new(224u64.into()),
        }
    }
}

impl<const RA: usize> Logic for RegFile<RA> {
    #[hdl_gen]
    fn update(&mut self) {
        // lane l is bits [32l, 32l+32); the read data is shifted in from the top, lane by lane
        self.collect0.next = 0.into();
        self.collect1.next = 0.into();
        for l in 0..8 {
            self.copy0[l].clock.next = self.clk.val();
            self.copy1[l].clock.next = self.clk.val();
            self.copy0[l].read_enable.next = true;
            self.copy1[l].read_enable.next = true;
            self.copy0[l].read_address.next = self.rd_addr0.val();
            self.copy1[l].read_address.next = self.rd_addr1.val();
            self.copy0[l].write_enable.next = self.we.val() & self.wr_lanes.val().get_bit(l);
            self.copy1[l].write_enable.next = self.we.val() & self.wr_lanes.val().get_bit(l);
            self.copy0[l].write_address.next = self.wr_addr.val();
            self.copy1[l].write_address.next = self.wr_addr.val();
            self.copy0[l].write_data.next = self.wr_data.val().get_bits::<32>(32 * l);
            self.copy1[l].write_data.next = self.wr_data.val().get_bits::<32>(32 * l);
            self.out0.next = self.copy0[l].read_data.val();
            self.collect0.next = (self.collect0.val() >> 32) | (bit_cast::<256, 32>(self.out0.val()) << self.k_top.val());
            self.out1.next = self.copy1[l].read_data.val();
            self.collect1.next = (self.collect1.val() >> 32) | (bit_cast::<256, 32>(self.out1.val()) << self.k_top.val());
        }
        self.rd_data0.next = self.collect0.val();
        self.rd_data1.next = self.collect1.val();
    }
}
