//! The shadow pipe (spec §2.5, §2.6): sh1..sh3 = {k[7:6], p[5:4], b[3:2], live[1], occ[0]}
//! describe the slot whose data is in bank B1..B3; never gated. From it and GATE_SCOPE (a
//! generation-time constant, §6.5) come the bank enables en1..en3 and the write enable we4.

use super::enc;
use crate::prims::RDff;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct ShadowPipe {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    /// A slot issues from buffer `issue_buf`, slot ix = {k, p}, with CE bit `issue_ce`.
    pub issue: Signal<In, Bit>,
    pub issue_buf: Signal<In, Bits<2>>,
    pub issue_slot: Signal<In, Bits<4>>,
    pub issue_ce: Signal<In, Bit>,
    /// The issuing slot is live (issue ∧ CE).
    pub live: Signal<Out, Bit>,
    /// Bank enables of this edge and the S4 write enable (= sh3.live in every scope).
    pub en_s1: Signal<Out, Bit>,
    pub en_s2: Signal<Out, Bit>,
    pub en_s3: Signal<Out, Bit>,
    pub we_s4: Signal<Out, Bit>,
    /// Some stage holds a slot.
    pub occupied: Signal<Out, Bit>,
    /// Buffer and pixel of the slot in S4.
    pub s4_buf: Signal<Out, Bits<2>>,
    pub s4_pix: Signal<Out, Bits<2>>,

    scope: Constant<Bits<2>>,
    k_scope_all: Constant<Bits<2>>,
    k_scope_none: Constant<Bits<2>>,
    sh1: RDff<Bits<8>>,
    sh2: RDff<Bits<8>>,
    sh3: RDff<Bits<8>>,
    sh1n: Signal<Local, Bits<8>>,
}

impl ShadowPipe {
    pub fn new(scope: u32) -> Self {
        Self {
            clock: Default::default(),
            rst: Default::default(),
            issue: Default::default(),
            issue_buf: Default::default(),
            issue_slot: Default::default(),
            issue_ce: Default::default(),
            live: Default::default(),
            en_s1: Default::default(),
            en_s2: Default::default(),
            en_s3: Default::default(),
            we_s4: Default::default(),
            occupied: Default::default(),
            s4_buf: Default::default(),
            s4_pix: Default::default(),
            scope: Constant::new((scope as u64).into()),
            k_scope_all: Constant::new(enc::scope::ALL.into()),
            k_scope_none: Constant::new(enc::scope::NONE.into()),
            sh1: Default::default(),
            sh2: Default::default(),
            sh3: Default::default(),
            sh1n: Default::default(),
        }
    }
}

impl Logic for ShadowPipe {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, sh1, sh2, sh3);
        self.sh1.rst.next = self.rst.val();
        self.sh2.rst.next = self.rst.val();
        self.sh3.rst.next = self.rst.val();
        self.live.next = self.issue_ce.val() & self.issue.val();
        self.en_s1.next = (self.issue_ce.val() & self.issue.val()) | (self.issue.val() & (self.scope.val() == self.k_scope_none.val()));
        self.en_s2.next = self.sh1.q.val().get_bit(1) | (self.sh1.q.val().get_bit(0) & (self.scope.val() != self.k_scope_all.val()));
        self.en_s3.next = self.sh2.q.val().get_bit(1) | (self.sh2.q.val().get_bit(0) & (self.scope.val() != self.k_scope_all.val()));
        self.we_s4.next = self.sh3.q.val().get_bit(1);
        self.occupied.next = self.sh1.q.val().get_bit(0) | self.sh2.q.val().get_bit(0) | self.sh3.q.val().get_bit(0);
        self.s4_buf.next = self.sh3.q.val().get_bits::<2>(2);
        self.s4_pix.next = self.sh3.q.val().get_bits::<2>(4);
        self.sh3.d.next = self.sh2.q.val();
        self.sh2.d.next = self.sh1.q.val();
        self.sh1.d.next = 0.into();
        self.sh1n.next = 0.into();
        if self.issue.val() {
            self.sh1n.next = bit_cast::<8, 4>(self.issue_slot.val()) << 4 | bit_cast::<8, 2>(self.issue_buf.val()) << 2;
            self.sh1.d.next = self.sh1n.val().replace_bit(0, true).replace_bit(1, self.issue_ce.val() & self.issue.val());
        }
    }
}
