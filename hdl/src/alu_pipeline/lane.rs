//! One ALU lane's datapath (spec §2.5, §6.2): bank B1 (op, dst, operands A..D) → multiply →
//! bank B2 (op, dst, P = A·B, Q = C·D) → combine → bank B3 (dst, R). Each bank loads only
//! when its stage enable is 1 (`if en { d = x }`, else hold: clock-enable flops), on its own
//! bank clock (`clk` for GATE_STYLE = CE, the gated clock for ICG).

use super::enc;
use crate::prims::RDff;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct Lane {
    /// Bank clocks of B1, B2, B3 (the same `clk` unless GATE_STYLE = ICG).
    pub clock_s1: Signal<In, Clock>,
    pub clock_s2: Signal<In, Clock>,
    pub clock_s3: Signal<In, Clock>,
    /// Synchronous reset of every bank.
    pub rst: Signal<In, Bit>,
    /// Stage enables (en1, en2, en3 of §6.4).
    pub en_s1: Signal<In, Bit>,
    pub en_s2: Signal<In, Bit>,
    pub en_s3: Signal<In, Bit>,
    /// Decoded op and destination of the issuing slot (already NOP / none on errors).
    pub op: Signal<In, Bits<4>>,
    pub dst: Signal<In, Bits<5>>,
    /// Operand values A, B, C, D read at issue.
    pub src_a: Signal<In, Bits<32>>,
    pub src_b: Signal<In, Bits<32>>,
    pub src_c: Signal<In, Bits<32>>,
    pub src_d: Signal<In, Bits<32>>,
    /// Stage-3 bank: destination and result (read by the write-back).
    pub dst_s3: Signal<Out, Bits<5>>,
    pub result_s3: Signal<Out, Bits<32>>,
    /// Data bits of B1, B2, B3 that change at this edge (TOGGLE_CNT = 1; 0 otherwise).
    pub toggles_s1: Signal<Out, Bits<32>>,
    pub toggles_s2: Signal<Out, Bits<32>>,
    pub toggles_s3: Signal<Out, Bits<32>>,

    /// 1 for TOGGLE_CNT = 1 (the popcounts exist)
    _tog: usize,
    k_op_add: Constant<Bits<4>>,
    k_op_sub: Constant<Bits<4>>,
    k_op_min: Constant<Bits<4>>,
    k_op_max: Constant<Bits<4>>,
    k_op_and: Constant<Bits<4>>,
    k_op_or: Constant<Bits<4>>,
    k_op_xor: Constant<Bits<4>>,
    k_op_shr: Constant<Bits<4>>,
    k_op_sar: Constant<Bits<4>>,
    k_op_seq: Constant<Bits<4>>,
    k_op_sne: Constant<Bits<4>>,
    k_op_slt: Constant<Bits<4>>,
    k_op_sge: Constant<Bits<4>>,
    k_op_sltu: Constant<Bits<4>>,
    ones: Constant<Bits<32>>,

    op1: RDff<Bits<4>>,
    wd1: RDff<Bits<5>>,
    a1: RDff<Bits<32>>,
    b1: RDff<Bits<32>>,
    c1: RDff<Bits<32>>,
    d1: RDff<Bits<32>>,
    op2: RDff<Bits<4>>,
    wd2: RDff<Bits<5>>,
    p2: RDff<Bits<32>>,
    q2: RDff<Bits<32>>,
    wd3: RDff<Bits<5>>,
    r3: RDff<Bits<32>>,

    /// 32x32 -> low 32 from three 16x16 products, for P (index 0) and Q (1)
    mll: Vec<Signal<Local, Bits<32>>>,
    mhl: Vec<Signal<Local, Bits<32>>>,
    mlh: Vec<Signal<Local, Bits<32>>>,
    slt: Signal<Local, Bit>,
    res: Signal<Local, Bits<32>>,
    /// popcount temporary (TOGGLE_CNT = 1)
    pc: Vec<Signal<Local, Bits<32>>>,
}

fn k4(v: u64) -> Constant<Bits<4>> {
    Constant::new(v.into())
}

impl Lane {
    pub fn new(tog: bool) -> Self {
        Self {
            clock_s1: Default::default(),
            clock_s2: Default::default(),
            clock_s3: Default::default(),
            rst: Default::default(),
            en_s1: Default::default(),
            en_s2: Default::default(),
            en_s3: Default::default(),
            op: Default::default(),
            dst: Default::default(),
            src_a: Default::default(),
            src_b: Default::default(),
            src_c: Default::default(),
            src_d: Default::default(),
            dst_s3: Default::default(),
            result_s3: Default::default(),
            toggles_s1: Default::default(),
            toggles_s2: Default::default(),
            toggles_s3: Default::default(),
            _tog: tog as usize,
            k_op_add: k4(enc::op::ADD),
            k_op_sub: k4(enc::op::SUB),
            k_op_min: k4(enc::op::MIN),
            k_op_max: k4(enc::op::MAX),
            k_op_and: k4(enc::op::AND),
            k_op_or: k4(enc::op::OR),
            k_op_xor: k4(enc::op::XOR),
            k_op_shr: k4(enc::op::SHR),
            k_op_sar: k4(enc::op::SAR),
            k_op_seq: k4(enc::op::SEQ),
            k_op_sne: k4(enc::op::SNE),
            k_op_slt: k4(enc::op::SLT),
            k_op_sge: k4(enc::op::SGE),
            k_op_sltu: k4(enc::op::SLTU),
            ones: Constant::new(0xFFFF_FFFFu64.into()),
            op1: Default::default(),
            wd1: Default::default(),
            a1: Default::default(),
            b1: Default::default(),
            c1: Default::default(),
            d1: Default::default(),
            op2: Default::default(),
            wd2: Default::default(),
            p2: Default::default(),
            q2: Default::default(),
            wd3: Default::default(),
            r3: Default::default(),
            mll: (0..2).map(|_| Default::default()).collect(),
            mhl: (0..2).map(|_| Default::default()).collect(),
            mlh: (0..2).map(|_| Default::default()).collect(),
            slt: Default::default(),
            res: Default::default(),
            pc: (0..tog as usize).map(|_| Default::default()).collect(),
        }
    }
}

impl Logic for Lane {
    #[hdl_gen]
    fn update(&mut self) {
        // bank clocks and reset; every register holds unless its stage is enabled
        clock!(self, clock_s1, op1, wd1, a1, b1, c1, d1);
        clock!(self, clock_s2, op2, wd2, p2, q2);
        clock!(self, clock_s3, wd3, r3);
        self.op1.rst.next = self.rst.val();
        self.wd1.rst.next = self.rst.val();
        self.a1.rst.next = self.rst.val();
        self.b1.rst.next = self.rst.val();
        self.c1.rst.next = self.rst.val();
        self.d1.rst.next = self.rst.val();
        self.op2.rst.next = self.rst.val();
        self.wd2.rst.next = self.rst.val();
        self.p2.rst.next = self.rst.val();
        self.q2.rst.next = self.rst.val();
        self.wd3.rst.next = self.rst.val();
        self.r3.rst.next = self.rst.val();
        self.op1.d.next = self.op1.q.val();
        self.wd1.d.next = self.wd1.q.val();
        self.a1.d.next = self.a1.q.val();
        self.b1.d.next = self.b1.q.val();
        self.c1.d.next = self.c1.q.val();
        self.d1.d.next = self.d1.q.val();
        self.op2.d.next = self.op2.q.val();
        self.wd2.d.next = self.wd2.q.val();
        self.p2.d.next = self.p2.q.val();
        self.q2.d.next = self.q2.q.val();
        self.wd3.d.next = self.wd3.q.val();
        self.r3.d.next = self.r3.q.val();

        // S1 capture
        if self.en_s1.val() {
            self.op1.d.next = self.op.val();
            self.wd1.d.next = self.dst.val();
            self.a1.d.next = self.src_a.val();
            self.b1.d.next = self.src_b.val();
            self.c1.d.next = self.src_c.val();
            self.d1.d.next = self.src_d.val();
        }
        // S2 multiply
        self.mll[0].next = self.a1.q.val().get_bits::<16>(0) * self.b1.q.val().get_bits::<16>(0);
        self.mhl[0].next = self.a1.q.val().get_bits::<16>(16) * self.b1.q.val().get_bits::<16>(0);
        self.mlh[0].next = self.a1.q.val().get_bits::<16>(0) * self.b1.q.val().get_bits::<16>(16);
        self.mll[1].next = self.c1.q.val().get_bits::<16>(0) * self.d1.q.val().get_bits::<16>(0);
        self.mhl[1].next = self.c1.q.val().get_bits::<16>(16) * self.d1.q.val().get_bits::<16>(0);
        self.mlh[1].next = self.c1.q.val().get_bits::<16>(0) * self.d1.q.val().get_bits::<16>(16);
        if self.en_s2.val() {
            self.op2.d.next = self.op1.q.val();
            self.wd2.d.next = self.wd1.q.val();
            self.p2.d.next = self.mll[0].val() + ((self.mhl[0].val() + self.mlh[0].val()) << 16);
            self.q2.d.next = self.mll[1].val() + ((self.mhl[1].val() + self.mlh[1].val()) << 16);
        }
        // S3 combine (NOP and ILLEGAL give 0)
        self.slt.next = (self.p2.q.val() ^ 0x8000_0000u64) < (self.q2.q.val() ^ 0x8000_0000u64);
        self.res.next = 0.into();
        if self.op2.q.val() == self.k_op_add.val() {
            self.res.next = self.p2.q.val() + self.q2.q.val();
        }
        if self.op2.q.val() == self.k_op_sub.val() {
            self.res.next = self.p2.q.val() - self.q2.q.val();
        }
        if self.op2.q.val() == self.k_op_min.val() {
            if self.slt.val() {
                self.res.next = self.p2.q.val();
            } else {
                self.res.next = self.q2.q.val();
            }
        }
        if self.op2.q.val() == self.k_op_max.val() {
            if self.slt.val() {
                self.res.next = self.q2.q.val();
            } else {
                self.res.next = self.p2.q.val();
            }
        }
        if self.op2.q.val() == self.k_op_and.val() {
            self.res.next = self.p2.q.val() & self.q2.q.val();
        }
        if self.op2.q.val() == self.k_op_or.val() {
            self.res.next = self.p2.q.val() | self.q2.q.val();
        }
        if self.op2.q.val() == self.k_op_xor.val() {
            self.res.next = self.p2.q.val() ^ self.q2.q.val();
        }
        if self.op2.q.val() == self.k_op_shr.val() {
            self.res.next = self.p2.q.val() >> self.q2.q.val().get_bits::<5>(0);
        }
        if self.op2.q.val() == self.k_op_sar.val() {
            self.res.next = self.p2.q.val() >> self.q2.q.val().get_bits::<5>(0);
            if self.p2.q.val().get_bit(31) {
                self.res.next = self.res.val() | !(self.ones.val() >> self.q2.q.val().get_bits::<5>(0));
            }
        }
        if self.op2.q.val() == self.k_op_seq.val() {
            if self.p2.q.val() == self.q2.q.val() {
                self.res.next = 1.into();
            }
        }
        if self.op2.q.val() == self.k_op_sne.val() {
            if self.p2.q.val() != self.q2.q.val() {
                self.res.next = 1.into();
            }
        }
        if self.op2.q.val() == self.k_op_slt.val() {
            if self.slt.val() {
                self.res.next = 1.into();
            }
        }
        if self.op2.q.val() == self.k_op_sge.val() {
            if !self.slt.val() {
                self.res.next = 1.into();
            }
        }
        if self.op2.q.val() == self.k_op_sltu.val() {
            if self.p2.q.val() < self.q2.q.val() {
                self.res.next = 1.into();
            }
        }
        if self.en_s3.val() {
            self.wd3.d.next = self.wd2.q.val();
            self.r3.d.next = self.res.val();
        }
        self.dst_s3.next = self.wd3.q.val();
        self.result_s3.next = self.r3.q.val();

        // toggle popcounts (§6.6): `d` is what the bank takes at the edge (its `q` when held),
        // so a held bank adds 0. SWAR popcount per 32-bit word.
        self.toggles_s1.next = 0.into();
        self.toggles_s2.next = 0.into();
        self.toggles_s3.next = 0.into();
        for g in 0..self._tog {
            self.pc[g].next = self.a1.d.val() ^ self.a1.q.val();
            self.pc[g].next = self.pc[g].val() - ((self.pc[g].val() >> 1) & 0x5555_5555u64);
            self.pc[g].next = (self.pc[g].val() & 0x3333_3333u64) + ((self.pc[g].val() >> 2) & 0x3333_3333u64);
            self.pc[g].next = (self.pc[g].val() + (self.pc[g].val() >> 4)) & 0x0F0F_0F0Fu64;
            self.pc[g].next = self.pc[g].val() + (self.pc[g].val() >> 8);
            self.pc[g].next = self.pc[g].val() + (self.pc[g].val() >> 16);
            self.toggles_s1.next = self.toggles_s1.val() + (self.pc[g].val() & 0x3Fu64);
            self.pc[g].next = self.b1.d.val() ^ self.b1.q.val();
            self.pc[g].next = self.pc[g].val() - ((self.pc[g].val() >> 1) & 0x5555_5555u64);
            self.pc[g].next = (self.pc[g].val() & 0x3333_3333u64) + ((self.pc[g].val() >> 2) & 0x3333_3333u64);
            self.pc[g].next = (self.pc[g].val() + (self.pc[g].val() >> 4)) & 0x0F0F_0F0Fu64;
            self.pc[g].next = self.pc[g].val() + (self.pc[g].val() >> 8);
            self.pc[g].next = self.pc[g].val() + (self.pc[g].val() >> 16);
            self.toggles_s1.next = self.toggles_s1.val() + (self.pc[g].val() & 0x3Fu64);
            self.pc[g].next = self.c1.d.val() ^ self.c1.q.val();
            self.pc[g].next = self.pc[g].val() - ((self.pc[g].val() >> 1) & 0x5555_5555u64);
            self.pc[g].next = (self.pc[g].val() & 0x3333_3333u64) + ((self.pc[g].val() >> 2) & 0x3333_3333u64);
            self.pc[g].next = (self.pc[g].val() + (self.pc[g].val() >> 4)) & 0x0F0F_0F0Fu64;
            self.pc[g].next = self.pc[g].val() + (self.pc[g].val() >> 8);
            self.pc[g].next = self.pc[g].val() + (self.pc[g].val() >> 16);
            self.toggles_s1.next = self.toggles_s1.val() + (self.pc[g].val() & 0x3Fu64);
            self.pc[g].next = self.d1.d.val() ^ self.d1.q.val();
            self.pc[g].next = self.pc[g].val() - ((self.pc[g].val() >> 1) & 0x5555_5555u64);
            self.pc[g].next = (self.pc[g].val() & 0x3333_3333u64) + ((self.pc[g].val() >> 2) & 0x3333_3333u64);
            self.pc[g].next = (self.pc[g].val() + (self.pc[g].val() >> 4)) & 0x0F0F_0F0Fu64;
            self.pc[g].next = self.pc[g].val() + (self.pc[g].val() >> 8);
            self.pc[g].next = self.pc[g].val() + (self.pc[g].val() >> 16);
            self.toggles_s1.next = self.toggles_s1.val() + (self.pc[g].val() & 0x3Fu64);
            self.pc[g].next = self.p2.d.val() ^ self.p2.q.val();
            self.pc[g].next = self.pc[g].val() - ((self.pc[g].val() >> 1) & 0x5555_5555u64);
            self.pc[g].next = (self.pc[g].val() & 0x3333_3333u64) + ((self.pc[g].val() >> 2) & 0x3333_3333u64);
            self.pc[g].next = (self.pc[g].val() + (self.pc[g].val() >> 4)) & 0x0F0F_0F0Fu64;
            self.pc[g].next = self.pc[g].val() + (self.pc[g].val() >> 8);
            self.pc[g].next = self.pc[g].val() + (self.pc[g].val() >> 16);
            self.toggles_s2.next = self.toggles_s2.val() + (self.pc[g].val() & 0x3Fu64);
            self.pc[g].next = self.q2.d.val() ^ self.q2.q.val();
            self.pc[g].next = self.pc[g].val() - ((self.pc[g].val() >> 1) & 0x5555_5555u64);
            self.pc[g].next = (self.pc[g].val() & 0x3333_3333u64) + ((self.pc[g].val() >> 2) & 0x3333_3333u64);
            self.pc[g].next = (self.pc[g].val() + (self.pc[g].val() >> 4)) & 0x0F0F_0F0Fu64;
            self.pc[g].next = self.pc[g].val() + (self.pc[g].val() >> 8);
            self.pc[g].next = self.pc[g].val() + (self.pc[g].val() >> 16);
            self.toggles_s2.next = self.toggles_s2.val() + (self.pc[g].val() & 0x3Fu64);
            self.pc[g].next = self.r3.d.val() ^ self.r3.q.val();
            self.pc[g].next = self.pc[g].val() - ((self.pc[g].val() >> 1) & 0x5555_5555u64);
            self.pc[g].next = (self.pc[g].val() & 0x3333_3333u64) + ((self.pc[g].val() >> 2) & 0x3333_3333u64);
            self.pc[g].next = (self.pc[g].val() + (self.pc[g].val() >> 4)) & 0x0F0F_0F0Fu64;
            self.pc[g].next = self.pc[g].val() + (self.pc[g].val() >> 8);
            self.pc[g].next = self.pc[g].val() + (self.pc[g].val() >> 16);
            self.toggles_s3.next = self.toggles_s3.val() + (self.pc[g].val() & 0x3Fu64);
        }
    }
}
