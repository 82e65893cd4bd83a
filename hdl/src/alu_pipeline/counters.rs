//! The §6.6 activity counters (act_s1..4, slots, writes, groups) and the bank data toggle
//! counters tog_s1..3. Never gated (§6.4). A clear (CTRL bit 0) restarts every counter from this
//! edge's increment. With TOGGLE_CNT = 0 the lanes' toggle inputs are constant 0, so tog_s* stay
//! 0 and synthesis removes their flops (a flop that only ever holds its reset value).

use crate::prims::RDff;
use rust_hdl::prelude::*;

// counter slots in `cnt`: act1..4, issued, skipped, reg_writes, ce_writes, groups_done
const NCNT: usize = 9;

#[derive(LogicBlock)]
pub struct Counters {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    /// CTRL write with bit 0 set: the counters restart from this edge's increment.
    pub clear: Signal<In, Bit>,
    /// Stage enables en1, en2, en3 and the write enable we4 of this edge.
    pub en_s1: Signal<In, Bit>,
    pub en_s2: Signal<In, Bit>,
    pub en_s3: Signal<In, Bit>,
    pub we_s4: Signal<In, Bit>,
    /// A slot issues this edge, and it is live (CE = 1).
    pub issue: Signal<In, Bit>,
    pub live: Signal<In, Bit>,
    /// Register and CE-bit writes of this edge.
    pub reg_writes_add: Signal<In, Bits<32>>,
    pub ce_writes_add: Signal<In, Bits<32>>,
    /// The last row of a group leaves this edge.
    pub group_done: Signal<In, Bit>,
    /// Bank data toggles of this edge, summed over the lanes (TOGGLE_CNT = 1).
    pub toggles_s1: Signal<In, Bits<32>>,
    pub toggles_s2: Signal<In, Bits<32>>,
    pub toggles_s3: Signal<In, Bits<32>>,
    pub act_s1: Signal<Out, Bits<32>>,
    pub act_s2: Signal<Out, Bits<32>>,
    pub act_s3: Signal<Out, Bits<32>>,
    pub act_s4: Signal<Out, Bits<32>>,
    pub slots_issued: Signal<Out, Bits<32>>,
    pub slots_skipped: Signal<Out, Bits<32>>,
    pub reg_writes: Signal<Out, Bits<32>>,
    pub ce_writes: Signal<Out, Bits<32>>,
    pub groups_done: Signal<Out, Bits<32>>,
    pub tog_s1: Signal<Out, Bits<48>>,
    pub tog_s2: Signal<Out, Bits<48>>,
    pub tog_s3: Signal<Out, Bits<48>>,

    cnt: Vec<RDff<Bits<32>>>,
    inc: Vec<Signal<Local, Bits<32>>>,
    /// toggle counters tog_s1..3
    tg: Vec<RDff<Bits<48>>>,
    /// toggle sums widened to the counter width (bit copies: `bit_cast` can't take loop variables)
    tw: Vec<Signal<Local, Bits<48>>>,
}

impl Counters {
    pub fn new() -> Self {
        let n = 3;
        Self {
            clock: Default::default(),
            rst: Default::default(),
            clear: Default::default(),
            en_s1: Default::default(),
            en_s2: Default::default(),
            en_s3: Default::default(),
            we_s4: Default::default(),
            issue: Default::default(),
            live: Default::default(),
            reg_writes_add: Default::default(),
            ce_writes_add: Default::default(),
            group_done: Default::default(),
            toggles_s1: Default::default(),
            toggles_s2: Default::default(),
            toggles_s3: Default::default(),
            act_s1: Default::default(),
            act_s2: Default::default(),
            act_s3: Default::default(),
            act_s4: Default::default(),
            slots_issued: Default::default(),
            slots_skipped: Default::default(),
            reg_writes: Default::default(),
            ce_writes: Default::default(),
            groups_done: Default::default(),
            tog_s1: Default::default(),
            tog_s2: Default::default(),
            tog_s3: Default::default(),
            cnt: (0..NCNT).map(|_| Default::default()).collect(),
            inc: (0..NCNT).map(|_| Default::default()).collect(),
            tg: (0..n).map(|_| Default::default()).collect(),
            tw: (0..n).map(|_| Default::default()).collect(),
        }
    }
}

impl Logic for Counters {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..9 {
            self.cnt[i].clock.next = self.clock.val();
            self.cnt[i].rst.next = self.rst.val();
            self.inc[i].next = 0.into();
        }
        if self.en_s1.val() {
            self.inc[0].next = 1.into();
        }
        if self.en_s2.val() {
            self.inc[1].next = 1.into();
        }
        if self.en_s3.val() {
            self.inc[2].next = 1.into();
        }
        if self.we_s4.val() {
            self.inc[3].next = 1.into();
        }
        if self.issue.val() {
            self.inc[4].next = 1.into();
            if !self.live.val() {
                self.inc[5].next = 1.into();
            }
        }
        self.inc[6].next = self.reg_writes_add.val();
        self.inc[7].next = self.ce_writes_add.val();
        if self.group_done.val() {
            self.inc[8].next = 1.into();
        }
        for i in 0..9 {
            self.cnt[i].d.next = self.cnt[i].q.val() + self.inc[i].val();
            if self.clear.val() {
                self.cnt[i].d.next = self.inc[i].val();
            }
        }
        self.act_s1.next = self.cnt[0].q.val();
        self.act_s2.next = self.cnt[1].q.val();
        self.act_s3.next = self.cnt[2].q.val();
        self.act_s4.next = self.cnt[3].q.val();
        self.slots_issued.next = self.cnt[4].q.val();
        self.slots_skipped.next = self.cnt[5].q.val();
        self.reg_writes.next = self.cnt[6].q.val();
        self.ce_writes.next = self.cnt[7].q.val();
        self.groups_done.next = self.cnt[8].q.val();

        // toggle counters: at most 7 * 4 * 32 = 896 toggles per edge, 10 bits
        for s in 0..3 {
            self.tg[s].clock.next = self.clock.val();
            self.tg[s].rst.next = self.rst.val();
            self.tw[s].next = 0.into();
        }
        for i in 0..10 {
            self.tw[0].next = self.tw[0].val().replace_bit(i, self.toggles_s1.val().get_bit(i));
            self.tw[1].next = self.tw[1].val().replace_bit(i, self.toggles_s2.val().get_bit(i));
            self.tw[2].next = self.tw[2].val().replace_bit(i, self.toggles_s3.val().get_bit(i));
        }
        for s in 0..3 {
            self.tg[s].d.next = self.tg[s].q.val() + self.tw[s].val();
            if self.clear.val() {
                self.tg[s].d.next = self.tw[s].val();
            }
        }
        self.tog_s1.next = self.tg[0].q.val();
        self.tog_s2.next = self.tg[1].q.val();
        self.tog_s3.next = self.tg[2].q.val();
    }
}
