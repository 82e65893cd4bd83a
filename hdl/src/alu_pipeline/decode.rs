//! S1 decode (spec §6.2, §6.3) and the §8 instruction checks: the lane words' op and dst
//! (illegal op → NOP; illegal dst, a non-writing lane or the loser of a dst conflict → none),
//! the control word (cxw cleared on a bad fn or src; mask bits of rows ≥ R dropped, mask_f
//! bits also in mask_t dropped) and the error bits OPCODE..RSV and IPTR with the lowest
//! offending lane of codes 0..6. Errors count only when a slot issues.
//!
//! Registered (issue 16, S1 cut for the ECP5): the block decodes the instruction of the slot
//! that issues in the *next* cycle (its fetch, `issue`, R − 1 come from the sequencer's and the
//! buffers' next-cycle ports) and its outputs are flops, so in S1 the lanes, the control bank
//! and the error log read the decode of the issuing slot from registers. The operand source
//! codes (`src`) are registered here too, for the operand multiplexers. The fetch reads IMEM
//! and the P0 iptrs before the edge: neither is written at an edge before an issue cycle (IMEM
//! only while not busy; a P0 iptr only by a fill row that leaves its buffer FILL), so every
//! issue cycle sees the same decode as before; in other cycles these outputs reach no port
//! (the banks load only under en1, the errors are masked by `issue`).

use super::enc;
use crate::prims::RDff;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct Decode<const NA: usize> {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    /// The fetched instruction (of the next cycle's slot): lane words 0..3, control word 4.
    pub words: Vec<Signal<In, Bits<32>>>,
    /// iptr < IMEM_DEPTH (else the words are 0 and ERR_IPTR is raised).
    pub fetch_ok: Signal<In, Bit>,
    /// A slot issues next cycle, with R − 1 of its group.
    pub issue: Signal<In, Bit>,
    pub issue_rm1: Signal<In, Bits<2>>,
    /// Registered, for the slot issuing now. Per lane: op and destination as the lane executes
    /// them.
    pub op: Vec<Signal<Out, Bits<4>>>,
    pub dst: Vec<Signal<Out, Bits<5>>>,
    /// The control word as it travels down the pipe.
    pub control: Signal<Out, Bits<13>>,
    /// Errors of this edge (bit n = code n) and the lane of codes 0..6 (2 bits each).
    pub errors: Signal<Out, Bits<16>>,
    pub error_lanes: Signal<Out, Bits<14>>,
    /// Source code of operand s of lane j at index 4j + s (`OperandRead`).
    pub src: Vec<Signal<Out, Bits<5>>>,

    k_op_nop: Constant<Bits<4>>,
    k_op_illegal: Constant<Bits<4>>,
    k_src_k0: Constant<Bits<5>>,
    k_src_dst_none: Constant<Bits<5>>,
    k_cxw_fn_illegal: Constant<Bits<2>>,
    c2: Vec<Constant<Bits<2>>>,
    lop: Vec<Signal<Local, Bits<4>>>,
    ldst: Vec<Signal<Local, Bits<5>>>,
    lwr: Vec<Signal<Local, Bit>>,
    llose: Vec<Signal<Local, Bit>>,
    vmask: Signal<Local, Bits<4>>,
    csrc_ok: Signal<Local, Bit>,
    cxn: Signal<Local, Bits<13>>,
    enew: Signal<Local, Bits<16>>,
    elane: Vec<Signal<Local, Bits<2>>>,
    op_r: Vec<RDff<Bits<4>>>,
    dst_r: Vec<RDff<Bits<5>>>,
    control_r: RDff<Bits<13>>,
    errors_r: RDff<Bits<16>>,
    error_lanes_r: RDff<Bits<14>>,
    src_r: Vec<RDff<Bits<5>>>,
    elanes: Signal<Local, Bits<14>>,
}

impl<const NA: usize> Decode<NA> {
    pub fn new() -> Self {
        fn v<T: Default>(n: usize) -> Vec<T> {
            (0..n).map(|_| T::default()).collect()
        }
        Self {
            clock: Default::default(),
            rst: Default::default(),
            words: v(5),
            fetch_ok: Default::default(),
            issue: Default::default(),
            issue_rm1: Default::default(),
            op: v(NA),
            dst: v(NA),
            control: Default::default(),
            errors: Default::default(),
            error_lanes: Default::default(),
            src: v(4 * NA),
            k_op_nop: Constant::new(enc::op::NOP.into()),
            k_op_illegal: Constant::new(enc::op::ILLEGAL.into()),
            k_src_k0: Constant::new(enc::src::K0.into()),
            k_src_dst_none: Constant::new(enc::src::DST_NONE.into()),
            k_cxw_fn_illegal: Constant::new(enc::cxw_fn::ILLEGAL.into()),
            c2: (0..4u64).map(|i| Constant::new(i.into())).collect(),
            lop: v(4),
            ldst: v(4),
            lwr: v(4),
            llose: v(4),
            vmask: Default::default(),
            csrc_ok: Default::default(),
            cxn: Default::default(),
            enew: Default::default(),
            elane: v(7),
            op_r: v(NA),
            // the decode of the all-zero IMEM word after reset: a NOP writes nothing
            dst_r: (0..NA).map(|_| RDff::with_reset(enc::src::DST_NONE.into())).collect(),
            control_r: Default::default(),
            errors_r: Default::default(),
            error_lanes_r: Default::default(),
            src_r: v(4 * NA),
            elanes: Default::default(),
        }
    }
}

impl<const NA: usize> Logic for Decode<NA> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, control_r, errors_r, error_lanes_r);
        self.control_r.rst.next = self.rst.val();
        self.errors_r.rst.next = self.rst.val();
        self.error_lanes_r.rst.next = self.rst.val();
        for j in 0..NA {
            self.op_r[j].clock.next = self.clock.val();
            self.op_r[j].rst.next = self.rst.val();
            self.dst_r[j].clock.next = self.clock.val();
            self.dst_r[j].rst.next = self.rst.val();
            for s in 0..4 {
                self.src_r[j * 4 + s].clock.next = self.clock.val();
                self.src_r[j * 4 + s].rst.next = self.rst.val();
                self.src_r[j * 4 + s].d.next = self.words[j].val().get_bits::<5>(4 + 5 * s);
                self.src[j * 4 + s].next = self.src_r[j * 4 + s].q.val();
            }
        }
        // rows present in the issuing group
        self.vmask.next = 1.into();
        for k in 1..4 {
            if self.c2[k].val() <= self.issue_rm1.val() {
                self.vmask.next = self.vmask.val().replace_bit(k, true);
            }
        }
        // lane words
        self.enew.next = 0.into();
        for c in 0..7 {
            self.elane[c].next = 0.into();
        }
        for j in 0..4 {
            self.lop[j].next = 0.into();
            self.ldst[j].next = self.k_src_dst_none.val();
            self.lwr[j].next = false;
            self.llose[j].next = false;
        }
        for j in 0..NA {
            self.lop[j].next = self.words[j].val().get_bits::<4>(0);
            self.ldst[j].next = self.words[j].val().get_bits::<5>(24);
            if self.words[j].val().get_bits::<4>(0) == self.k_op_illegal.val() {
                self.lop[j].next = self.k_op_nop.val();
                if !self.enew.val().get_bit(0) {
                    self.elane[0].next = self.c2[j].val();
                }
                self.enew.next = self.enew.val().replace_bit(0, true);
            }
            if (self.words[j].val().get_bits::<5>(24) >= self.k_src_k0.val()) & (self.words[j].val().get_bits::<5>(24) != self.k_src_dst_none.val()) {
                self.ldst[j].next = self.k_src_dst_none.val();
                if !self.enew.val().get_bit(1) {
                    self.elane[1].next = self.c2[j].val();
                }
                self.enew.next = self.enew.val().replace_bit(1, true);
            }
            if self.words[j].val().get_bits::<3>(29).any() {
                if !self.enew.val().get_bit(6) {
                    self.elane[6].next = self.c2[j].val();
                }
                self.enew.next = self.enew.val().replace_bit(6, true);
            }
            self.lwr[j].next = self.lop[j].val().any() & (self.ldst[j].val() != self.k_src_dst_none.val());
            if !self.lwr[j].val() {
                self.ldst[j].next = self.k_src_dst_none.val();
            }
        }
        // dst conflict: the lower lane loses
        for j in 0..NA {
            for j2 in 0..NA {
                if j2 > j {
                    if self.lwr[j].val() & self.lwr[j2].val() & (self.ldst[j].val() == self.ldst[j2].val()) {
                        self.llose[j].next = true;
                    }
                }
            }
            if self.llose[j].val() {
                self.ldst[j].next = self.k_src_dst_none.val();
                if !self.enew.val().get_bit(2) {
                    self.elane[2].next = self.c2[j].val();
                }
                self.enew.next = self.enew.val().replace_bit(2, true);
            }
        }
        for j in NA..4 {
            if self.words[j].val().any() {
                if !self.enew.val().get_bit(6) {
                    self.elane[6].next = self.c2[j].val();
                }
                self.enew.next = self.enew.val().replace_bit(6, true);
            }
        }
        // control word
        self.cxn.next = self.words[4].val().get_bits::<13>(0);
        if self.words[4].val().get_bits::<19>(13).any() {
            self.enew.next = self.enew.val().replace_bit(6, true);
        }
        self.csrc_ok.next = false;
        for j in 0..NA {
            if self.words[4].val().get_bits::<2>(1) == self.c2[j].val() {
                self.csrc_ok.next = true;
            }
        }
        if self.words[4].val().get_bit(0) {
            if self.words[4].val().get_bits::<2>(3) == self.k_cxw_fn_illegal.val() {
                self.cxn.next = self.cxn.val().replace_bit(0, false);
                self.enew.next = self.enew.val().replace_bit(3, true);
            }
            if !self.csrc_ok.val() {
                self.cxn.next = self.cxn.val().replace_bit(0, false);
                self.enew.next = self.enew.val().replace_bit(4, true);
            }
            if ((self.words[4].val().get_bits::<4>(5) | self.words[4].val().get_bits::<4>(9)) & !self.vmask.val()).any()
                | (self.words[4].val().get_bits::<4>(5) & self.words[4].val().get_bits::<4>(9)).any()
            {
                self.enew.next = self.enew.val().replace_bit(5, true);
            }
        }
        // masks: drop slots >= R; overlap uses mask_t only
        for k in 0..4 {
            if !self.vmask.val().get_bit(k) {
                self.cxn.next = self.cxn.val().replace_bit(5 + k, false).replace_bit(9 + k, false);
            }
            if self.cxn.val().get_bit(5 + k) {
                self.cxn.next = self.cxn.val().replace_bit(9 + k, false);
            }
        }
        if !self.fetch_ok.val() {
            self.enew.next = self.enew.val().replace_bit(10, true);
        }
        if !self.issue.val() {
            self.enew.next = 0.into();
        }

        for j in 0..NA {
            self.op_r[j].d.next = self.lop[j].val();
            self.dst_r[j].d.next = self.ldst[j].val();
            self.op[j].next = self.op_r[j].q.val();
            self.dst[j].next = self.dst_r[j].q.val();
        }
        self.control_r.d.next = self.cxn.val();
        self.errors_r.d.next = self.enew.val();
        self.elanes.next = 0.into();
        for c in 0..7 {
            self.elanes.next = self.elanes.val().replace_bit(2 * c, self.elane[c].val().get_bit(0)).replace_bit(2 * c + 1, self.elane[c].val().get_bit(1));
        }
        self.error_lanes_r.d.next = self.elanes.val();
        self.control.next = self.control_r.q.val();
        self.errors.next = self.errors_r.q.val();
        self.error_lanes.next = self.error_lanes_r.q.val();
    }
}
