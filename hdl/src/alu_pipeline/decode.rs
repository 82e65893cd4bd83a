//! S1 decode (spec §6.2, §6.3) and the §8 instruction checks: the lane words' op and dst
//! (illegal op → NOP; illegal dst, a non-writing lane or the loser of a dst conflict → none),
//! the control word (cxw cleared on a bad fn or src; mask bits of rows ≥ R dropped, mask_f
//! bits also in mask_t dropped) and the error bits OPCODE..RSV and IPTR with the lowest
//! offending lane of codes 0..6. Errors count only when a slot issues.

use super::enc;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct Decode<const NA: usize> {
    /// The fetched instruction: lane words 0..3, control word 4.
    pub words: Vec<Signal<In, Bits<32>>>,
    /// iptr < IMEM_DEPTH (else the words are 0 and ERR_IPTR is raised).
    pub fetch_ok: Signal<In, Bit>,
    /// A slot issues, with R − 1 of its group.
    pub issue: Signal<In, Bit>,
    pub issue_rm1: Signal<In, Bits<2>>,
    /// Per lane: op and destination as the lane executes them.
    pub op: Vec<Signal<Out, Bits<4>>>,
    pub dst: Vec<Signal<Out, Bits<5>>>,
    /// The control word as it travels down the pipe.
    pub control: Signal<Out, Bits<13>>,
    /// Errors of this edge (bit n = code n) and the lane of codes 0..6 (2 bits each).
    pub errors: Signal<Out, Bits<16>>,
    pub error_lanes: Signal<Out, Bits<14>>,

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
}

impl<const NA: usize> Decode<NA> {
    pub fn new() -> Self {
        fn v<T: Default>(n: usize) -> Vec<T> {
            (0..n).map(|_| T::default()).collect()
        }
        Self {
            words: v(5),
            fetch_ok: Default::default(),
            issue: Default::default(),
            issue_rm1: Default::default(),
            op: v(NA),
            dst: v(NA),
            control: Default::default(),
            errors: Default::default(),
            error_lanes: Default::default(),
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
        }
    }
}

impl<const NA: usize> Logic for Decode<NA> {
    #[hdl_gen]
    fn update(&mut self) {
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
