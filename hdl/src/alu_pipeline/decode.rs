//! S1 decode (spec §6.2, §6.3) and the §8 instruction checks: the lane words' op and dst
//! (illegal op → NOP; illegal dst, a non-writing lane or the loser of a dst conflict → none),
//! the control word (cxw cleared on a bad fn or src; mask bits of rows ≥ R dropped, mask_f
//! bits also in mask_t dropped) and the error bits OPCODE..RSV and IPTR with the lowest
//! offending lane of codes 0..6. Errors count only when a slot issues.
//!
//! Fetch registered (issue 16, S1 cut for the ECP5): the inputs are the instruction of the slot
//! that issues in the *next* cycle (fetched with the buffers' next-cycle P0 iptr), whether it
//! issues and its group's R − 1, and the block registers them (`w_r`, `fok_r`, `iss_r`,
//! `rm1_r`), so S1 decodes from flops instead of from the sequencer → P0 iptr → IMEM
//! multiplexers. The operand source codes (`src`) are fields of the registered words. The
//! fetch reads IMEM and the P0 iptrs before the edge: neither is written at an edge before an
//! issue cycle (IMEM only while not busy; a P0 iptr only by a fill row that leaves its buffer
//! FILL), so every issue cycle decodes the same words as before; in other cycles the outputs
//! reach no port (the banks load only under en1, the errors are masked by `issue`).

use super::enc;
use crate::prims::RDff;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct Decode<const NA: usize> {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    /// The fetched instruction of the next cycle's slot: lane words 0..3, control word 4.
    pub words: Vec<Signal<In, Bits<32>>>,
    /// iptr < IMEM_DEPTH (else the words are 0 and ERR_IPTR is raised).
    pub fetch_ok: Signal<In, Bit>,
    /// A slot issues next cycle, with R − 1 of its group.
    pub issue: Signal<In, Bit>,
    pub issue_rm1: Signal<In, Bits<2>>,
    /// For the slot issuing now. Per lane: op and destination as the lane executes them.
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
    /// the inputs, registered: the issuing slot's words, fetch_ok, issue, R − 1
    w_r: Vec<RDff<Bits<32>>>,
    fok_r: RDff<Bit>,
    iss_r: RDff<Bit>,
    rm1_r: RDff<Bits<2>>,
    w: Vec<Signal<Local, Bits<32>>>,
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
            w_r: v(5),
            // after reset the fetch reads IMEM entry 0 (all words 0), which exists
            fok_r: RDff::with_reset(true),
            iss_r: Default::default(),
            rm1_r: Default::default(),
            w: v(5),
        }
    }
}

impl<const NA: usize> Logic for Decode<NA> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, fok_r, iss_r, rm1_r);
        self.fok_r.rst.next = self.rst.val();
        self.iss_r.rst.next = self.rst.val();
        self.rm1_r.rst.next = self.rst.val();
        self.fok_r.d.next = self.fetch_ok.val();
        self.iss_r.d.next = self.issue.val();
        self.rm1_r.d.next = self.issue_rm1.val();
        for i in 0..5 {
            self.w_r[i].clock.next = self.clock.val();
            self.w_r[i].rst.next = self.rst.val();
            self.w_r[i].d.next = self.words[i].val();
            self.w[i].next = self.w_r[i].q.val();
        }
        for j in 0..NA {
            for s in 0..4 {
                self.src[j * 4 + s].next = self.w[j].val().get_bits::<5>(4 + 5 * s);
            }
        }
        // rows present in the issuing group
        self.vmask.next = 1.into();
        for k in 1..4 {
            if self.c2[k].val() <= self.rm1_r.q.val() {
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
            self.lop[j].next = self.w[j].val().get_bits::<4>(0);
            self.ldst[j].next = self.w[j].val().get_bits::<5>(24);
            if self.w[j].val().get_bits::<4>(0) == self.k_op_illegal.val() {
                self.lop[j].next = self.k_op_nop.val();
                if !self.enew.val().get_bit(0) {
                    self.elane[0].next = self.c2[j].val();
                }
                self.enew.next = self.enew.val().replace_bit(0, true);
            }
            if (self.w[j].val().get_bits::<5>(24) >= self.k_src_k0.val()) & (self.w[j].val().get_bits::<5>(24) != self.k_src_dst_none.val()) {
                self.ldst[j].next = self.k_src_dst_none.val();
                if !self.enew.val().get_bit(1) {
                    self.elane[1].next = self.c2[j].val();
                }
                self.enew.next = self.enew.val().replace_bit(1, true);
            }
            if self.w[j].val().get_bits::<3>(29).any() {
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
            if self.w[j].val().any() {
                if !self.enew.val().get_bit(6) {
                    self.elane[6].next = self.c2[j].val();
                }
                self.enew.next = self.enew.val().replace_bit(6, true);
            }
        }
        // control word
        self.cxn.next = self.w[4].val().get_bits::<13>(0);
        if self.w[4].val().get_bits::<19>(13).any() {
            self.enew.next = self.enew.val().replace_bit(6, true);
        }
        self.csrc_ok.next = false;
        for j in 0..NA {
            if self.w[4].val().get_bits::<2>(1) == self.c2[j].val() {
                self.csrc_ok.next = true;
            }
        }
        if self.w[4].val().get_bit(0) {
            if self.w[4].val().get_bits::<2>(3) == self.k_cxw_fn_illegal.val() {
                self.cxn.next = self.cxn.val().replace_bit(0, false);
                self.enew.next = self.enew.val().replace_bit(3, true);
            }
            if !self.csrc_ok.val() {
                self.cxn.next = self.cxn.val().replace_bit(0, false);
                self.enew.next = self.enew.val().replace_bit(4, true);
            }
            if ((self.w[4].val().get_bits::<4>(5) | self.w[4].val().get_bits::<4>(9)) & !self.vmask.val()).any()
                | (self.w[4].val().get_bits::<4>(5) & self.w[4].val().get_bits::<4>(9)).any()
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
        if !self.fok_r.q.val() {
            self.enew.next = self.enew.val().replace_bit(10, true);
        }
        if !self.iss_r.q.val() {
            self.enew.next = 0.into();
        }

        for j in 0..NA {
            self.op[j].next = self.lop[j].val();
            self.dst[j].next = self.ldst[j].val();
        }
        self.control.next = self.cxn.val();
        self.errors.next = self.enew.val();
        self.error_lanes.next = 0.into();
        for c in 0..7 {
            self.error_lanes.next = self.error_lanes.val().replace_bit(2 * c, self.elane[c].val().get_bit(0)).replace_bit(2 * c + 1, self.elane[c].val().get_bit(1));
        }
    }
}
