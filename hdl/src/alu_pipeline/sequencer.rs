//! The buffer sequencer (spec §2.3, §2.10): the state of each of the three group buffers
//! (EMPTY → FILL → FULL → RUN → DONE → DRAIN → EMPTY, `k_state_*` from `enc::state`), its row
//! counter, R − 1 and seq, the round-robin pointers fp/ip/dp, the issue index ix and the group
//! counter. It reads only the handshake inputs and its own registers, so every output is
//! settled early in the cycle (the other blocks address the buffers with it).
//!
//! `issue` is a register (issue 16, S1 cut): `issue_r` takes "B[ip] is FULL or RUN" of the
//! next state (`issue_next`, from the pointers' and states' `d`), so `issue_r.q` equals that
//! test on the current state in every cycle (both are 0 after reset: EMPTY), and the bank
//! enables, the CE bit and the sequencer's own next state start from a flop instead of the
//! state multiplexer. `issue_next` and `issue_next_rm1` let S1's selects (buffers, decode)
//! be computed one cycle early and registered.

use super::enc;
use crate::prims::RDff;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct Sequencer {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    /// Deserializer side: a row is offered, with its R − 1.
    pub in_valid: Signal<In, Bit>,
    pub in_nrows_m1: Signal<In, Bits<2>>,
    /// Serializer side: the output row is taken.
    pub out_ready: Signal<In, Bit>,

    /// B[fp] is EMPTY or FILL.
    pub in_ready: Signal<Out, Bit>,
    /// A row is accepted this edge, into buffer `fill_buf` at row counter `fill_n` = {k, p}.
    pub fill: Signal<Out, Bit>,
    pub fill_buf: Signal<Out, Bits<2>>,
    pub fill_n: Signal<Out, Bits<4>>,
    /// R − 1 and seq stored for B[fp], and the groups accepted so far.
    pub fill_group_rm1: Signal<Out, Bits<2>>,
    pub fill_seq: Signal<Out, Bits<8>>,
    pub group_count: Signal<Out, Bits<8>>,

    /// B[ip] is FULL or RUN: a slot issues this cycle, from buffer `issue_buf`, slot ix = {k, p}.
    pub issue: Signal<Out, Bit>,
    pub issue_buf: Signal<Out, Bits<2>>,
    pub issue_slot: Signal<Out, Bits<4>>,
    /// `issue_buf` and `issue_slot` of the next cycle (the buffers read their RAM one cycle early).
    pub issue_next_buf: Signal<Out, Bits<2>>,
    pub issue_next_slot: Signal<Out, Bits<4>>,
    /// `issue` and R − 1 of the issuing group, of the next cycle (S1's selects are computed a cycle early).
    pub issue_next: Signal<Out, Bit>,
    pub issue_next_rm1: Signal<Out, Bits<2>>,
    /// err_first info of issue-side errors: {seq, slot}.
    pub issue_info: Signal<Out, Bits<32>>,

    /// B[dp] is DONE or DRAIN: row `drain_n` = {k, p} of buffer `drain_buf` is presented.
    pub out_valid: Signal<Out, Bit>,
    pub drain_buf: Signal<Out, Bits<2>>,
    pub drain_n: Signal<Out, Bits<4>>,
    /// `drain_buf` and `drain_n` of the next cycle (valid whenever out_valid is 1 then).
    pub drain_next_buf: Signal<Out, Bits<2>>,
    pub drain_next_n: Signal<Out, Bits<4>>,
    /// Sideband of the presented row (0 while out_valid = 0).
    pub out_pix: Signal<Out, Bits<2>>,
    pub out_row: Signal<Out, Bits<2>>,
    pub out_nrows_m1: Signal<Out, Bits<2>>,
    /// The last row of a group leaves this edge.
    pub group_done: Signal<Out, Bit>,
    /// Some buffer is not EMPTY.
    pub buffers_busy: Signal<Out, Bit>,

    k_state_empty: Constant<Bits<3>>,
    k_state_fill: Constant<Bits<3>>,
    k_state_full: Constant<Bits<3>>,
    k_state_run: Constant<Bits<3>>,
    k_state_done: Constant<Bits<3>>,
    k_state_drain: Constant<Bits<3>>,
    c2: Vec<Constant<Bits<2>>>,

    /// per buffer: state, row counter n, R − 1, seq
    bst: Vec<RDff<Bits<3>>>,
    bn: Vec<RDff<Bits<4>>>,
    brm1: Vec<RDff<Bits<2>>>,
    bseq: Vec<RDff<Bits<8>>>,
    fp: RDff<Bits<2>>,
    ip: RDff<Bits<2>>,
    dp: RDff<Bits<2>>,
    ix: RDff<Bits<4>>,
    gcount: RDff<Bits<8>>,
    /// B[ip] is FULL or RUN (a slot issues), registered from the next state
    issue_r: RDff<Bit>,
    /// state of the buffer the next cycle issues from
    nip_st: Signal<Local, Bits<3>>,
    ip_rm1: Signal<Local, Bits<2>>,
    ip_seq: Signal<Local, Bits<8>>,
    ilast: Signal<Local, Bit>,
    fp_st: Signal<Local, Bits<3>>,
    fp_n: Signal<Local, Bits<4>>,
    fp_rm1: Signal<Local, Bits<2>>,
    fp_seq: Signal<Local, Bits<8>>,
    frm1: Signal<Local, Bits<2>>,
    flast: Signal<Local, Bit>,
    faccept: Signal<Local, Bit>,
    dp_st: Signal<Local, Bits<3>>,
    dp_n: Signal<Local, Bits<4>>,
    dp_rm1: Signal<Local, Bits<2>>,
    ovalid: Signal<Local, Bit>,
    drain: Signal<Local, Bit>,
    dlast: Signal<Local, Bit>,
}

fn k3(v: u64) -> Constant<Bits<3>> {
    Constant::new(v.into())
}

impl Sequencer {
    pub fn new() -> Self {
        fn v<T: Default>(n: usize) -> Vec<T> {
            (0..n).map(|_| T::default()).collect()
        }
        Self {
            clock: Default::default(),
            rst: Default::default(),
            in_valid: Default::default(),
            in_nrows_m1: Default::default(),
            out_ready: Default::default(),
            in_ready: Default::default(),
            fill: Default::default(),
            fill_buf: Default::default(),
            fill_n: Default::default(),
            fill_group_rm1: Default::default(),
            fill_seq: Default::default(),
            group_count: Default::default(),
            issue: Default::default(),
            issue_buf: Default::default(),
            issue_slot: Default::default(),
            issue_next_buf: Default::default(),
            issue_next_slot: Default::default(),
            issue_next: Default::default(),
            issue_next_rm1: Default::default(),
            issue_info: Default::default(),
            out_valid: Default::default(),
            drain_buf: Default::default(),
            drain_n: Default::default(),
            drain_next_buf: Default::default(),
            drain_next_n: Default::default(),
            out_pix: Default::default(),
            out_row: Default::default(),
            out_nrows_m1: Default::default(),
            group_done: Default::default(),
            buffers_busy: Default::default(),
            k_state_empty: k3(enc::state::EMPTY),
            k_state_fill: k3(enc::state::FILL),
            k_state_full: k3(enc::state::FULL),
            k_state_run: k3(enc::state::RUN),
            k_state_done: k3(enc::state::DONE),
            k_state_drain: k3(enc::state::DRAIN),
            c2: (0..3u64).map(|i| Constant::new(i.into())).collect(),
            bst: v(3),
            bn: v(3),
            brm1: v(3),
            bseq: v(3),
            fp: Default::default(),
            ip: Default::default(),
            dp: Default::default(),
            ix: Default::default(),
            gcount: Default::default(),
            issue_r: Default::default(),
            nip_st: Default::default(),
            ip_rm1: Default::default(),
            ip_seq: Default::default(),
            ilast: Default::default(),
            fp_st: Default::default(),
            fp_n: Default::default(),
            fp_rm1: Default::default(),
            fp_seq: Default::default(),
            frm1: Default::default(),
            flast: Default::default(),
            faccept: Default::default(),
            dp_st: Default::default(),
            dp_n: Default::default(),
            dp_rm1: Default::default(),
            ovalid: Default::default(),
            drain: Default::default(),
            dlast: Default::default(),
        }
    }
}

impl Logic for Sequencer {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, fp, ip, dp, ix, gcount, issue_r);
        self.issue_r.rst.next = self.rst.val();
        self.fp.rst.next = self.rst.val();
        self.ip.rst.next = self.rst.val();
        self.dp.rst.next = self.rst.val();
        self.ix.rst.next = self.rst.val();
        self.gcount.rst.next = self.rst.val();
        for b in 0..3 {
            self.bst[b].clock.next = self.clock.val();
            self.bst[b].rst.next = self.rst.val();
            self.bst[b].d.next = self.bst[b].q.val();
            self.bn[b].clock.next = self.clock.val();
            self.bn[b].rst.next = self.rst.val();
            self.bn[b].d.next = self.bn[b].q.val();
            self.brm1[b].clock.next = self.clock.val();
            self.brm1[b].rst.next = self.rst.val();
            self.brm1[b].d.next = self.brm1[b].q.val();
            self.bseq[b].clock.next = self.clock.val();
            self.bseq[b].rst.next = self.rst.val();
            self.bseq[b].d.next = self.bseq[b].q.val();
        }
        // the buffer each pointer selects
        self.ip_rm1.next = 0.into();
        self.ip_seq.next = 0.into();
        self.fp_st.next = 0.into();
        self.fp_n.next = 0.into();
        self.fp_rm1.next = 0.into();
        self.fp_seq.next = 0.into();
        self.dp_st.next = 0.into();
        self.dp_n.next = 0.into();
        self.dp_rm1.next = 0.into();
        self.buffers_busy.next = false;
        for b in 0..3 {
            if self.ip.q.val() == self.c2[b].val() {
                self.ip_rm1.next = self.brm1[b].q.val();
                self.ip_seq.next = self.bseq[b].q.val();
            }
            if self.fp.q.val() == self.c2[b].val() {
                self.fp_st.next = self.bst[b].q.val();
                self.fp_n.next = self.bn[b].q.val();
                self.fp_rm1.next = self.brm1[b].q.val();
                self.fp_seq.next = self.bseq[b].q.val();
            }
            if self.dp.q.val() == self.c2[b].val() {
                self.dp_st.next = self.bst[b].q.val();
                self.dp_n.next = self.bn[b].q.val();
                self.dp_rm1.next = self.brm1[b].q.val();
            }
            if self.bst[b].q.val().any() {
                self.buffers_busy.next = true;
            }
        }

        // issue: one slot per clock while B[ip] is FULL or RUN; DONE after slot 4R − 1
        // (= B[ip] is FULL or RUN, registered: see the module comment)
        self.issue.next = self.issue_r.q.val();
        self.ilast.next = (self.ix.q.val().get_bits::<2>(2) == self.ip_rm1.val()) & (self.ix.q.val().get_bits::<2>(0) == 3);
        if self.issue.val() {
            if self.ilast.val() {
                self.ix.d.next = 0.into();
                if self.ip.q.val() == 2 {
                    self.ip.d.next = 0.into();
                } else {
                    self.ip.d.next = self.ip.q.val() + 1;
                }
            } else {
                self.ix.d.next = self.ix.q.val() + 1;
            }
            for b in 0..3 {
                if self.ip.q.val() == self.c2[b].val() {
                    if self.ilast.val() {
                        self.bst[b].d.next = self.k_state_done.val();
                    } else {
                        self.bst[b].d.next = self.k_state_run.val();
                    }
                }
            }
        }

        // fill (deserializer): row n of B[fp]; R and seq on row 0; FULL after row 4R − 1
        self.faccept.next = self.in_valid.val() & ((self.fp_st.val() == self.k_state_empty.val()) | (self.fp_st.val() == self.k_state_fill.val()));
        self.frm1.next = self.fp_rm1.val();
        if self.fp_n.val() == 0 {
            self.frm1.next = self.in_nrows_m1.val();
        }
        self.flast.next = (self.fp_n.val().get_bits::<2>(2) == self.frm1.val()) & (self.fp_n.val().get_bits::<2>(0) == 3);
        if self.faccept.val() {
            if self.fp_n.val() == 0 {
                self.gcount.d.next = self.gcount.q.val() + 1;
            }
            if self.flast.val() {
                if self.fp.q.val() == 2 {
                    self.fp.d.next = 0.into();
                } else {
                    self.fp.d.next = self.fp.q.val() + 1;
                }
            }
            for b in 0..3 {
                if self.fp.q.val() == self.c2[b].val() {
                    if self.fp_n.val() == 0 {
                        self.brm1[b].d.next = self.in_nrows_m1.val();
                        self.bseq[b].d.next = self.gcount.q.val();
                    }
                    if self.flast.val() {
                        self.bst[b].d.next = self.k_state_full.val();
                        self.bn[b].d.next = 0.into();
                    } else {
                        self.bst[b].d.next = self.k_state_fill.val();
                        self.bn[b].d.next = self.fp_n.val() + 1;
                    }
                }
            }
        }

        // drain (serializer): row n of B[dp] while DONE or DRAIN; EMPTY after row 4R − 1
        self.ovalid.next = (self.dp_st.val() == self.k_state_done.val()) | (self.dp_st.val() == self.k_state_drain.val());
        self.drain.next = self.ovalid.val() & self.out_ready.val();
        self.dlast.next = (self.dp_n.val().get_bits::<2>(2) == self.dp_rm1.val()) & (self.dp_n.val().get_bits::<2>(0) == 3);
        self.out_pix.next = 0.into();
        self.out_row.next = 0.into();
        self.out_nrows_m1.next = 0.into();
        if self.ovalid.val() {
            self.out_pix.next = self.dp_n.val().get_bits::<2>(0);
            self.out_row.next = self.dp_n.val().get_bits::<2>(2);
            self.out_nrows_m1.next = self.dp_rm1.val();
        }
        if self.drain.val() {
            if self.dlast.val() {
                if self.dp.q.val() == 2 {
                    self.dp.d.next = 0.into();
                } else {
                    self.dp.d.next = self.dp.q.val() + 1;
                }
            }
            for b in 0..3 {
                if self.dp.q.val() == self.c2[b].val() {
                    if self.dlast.val() {
                        self.bst[b].d.next = self.k_state_empty.val();
                        self.bn[b].d.next = 0.into();
                    } else {
                        self.bst[b].d.next = self.k_state_drain.val();
                        self.bn[b].d.next = self.dp_n.val() + 1;
                    }
                }
            }
        }

        self.in_ready.next = (self.fp_st.val() == self.k_state_empty.val()) | (self.fp_st.val() == self.k_state_fill.val());
        self.fill.next = self.faccept.val();
        self.fill_buf.next = self.fp.q.val();
        self.fill_n.next = self.fp_n.val();
        self.fill_group_rm1.next = self.fp_rm1.val();
        self.fill_seq.next = self.fp_seq.val();
        self.group_count.next = self.gcount.q.val();
        self.issue_buf.next = self.ip.q.val();
        self.issue_slot.next = self.ix.q.val();
        self.issue_info.next = bit_cast::<32, 8>(self.ip_seq.val()) << 16 | bit_cast::<32, 4>(self.ix.q.val()) << 12;
        self.out_valid.next = self.ovalid.val();
        self.drain_buf.next = self.dp.q.val();
        self.drain_n.next = self.dp_n.val();
        self.group_done.next = self.drain.val() & self.dlast.val();
        // next cycle's addresses: the pointers' next state; a buffer that becomes DONE has n = 0
        self.issue_next_buf.next = self.ip.d.val();
        self.issue_next_slot.next = self.ix.d.val();
        self.drain_next_buf.next = self.dp.d.val();
        self.drain_next_n.next = self.dp_n.val();
        // the next cycle's issue test and R - 1, from the states' and pointers' next values
        self.nip_st.next = 0.into();
        self.issue_next_rm1.next = 0.into();
        for b in 0..3 {
            if self.ip.d.val() == self.c2[b].val() {
                self.nip_st.next = self.bst[b].d.val();
                self.issue_next_rm1.next = self.brm1[b].d.val();
            }
        }
        self.issue_next.next = (self.nip_st.val() == self.k_state_full.val()) | (self.nip_st.val() == self.k_state_run.val());
        self.issue_r.d.next = self.issue_next.val();
        if self.drain.val() {
            if self.dlast.val() {
                self.drain_next_n.next = 0.into();
            } else {
                self.drain_next_n.next = self.dp_n.val() + 1;
            }
        }
    }
}
