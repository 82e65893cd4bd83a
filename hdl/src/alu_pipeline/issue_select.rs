//! The issue read port's registered selects (issue 16, S1 cut for the ECP5; issue 13: out of
//! `GroupBuffers::update()`).
//!
//! Which store each word of the issue line comes from — the forwarded S4 write, the S4 store
//! by the LVT, the fill store for rows < R, else 0 — and the slot's CE bit depend only on the
//! next cycle's issue address and on this edge's writes, so they are computed one cycle early
//! (`LineNext`: the `dirty`/`ce` flops at `issue_next_*` with this edge's S4 and fill writes
//! applied, the same next values the flops take) and registered here. The issue port is then:
//! these registers → one AND-OR per word (in `GroupBuffers`) → operand multiplexer.

use super::line_next::LineNext;
use crate::prims::RDff;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct IssueSelect {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    /// The buffer and slot {k, p} issuing next cycle, and its group's R − 1.
    pub next_buf: Signal<In, Bits<2>>,
    pub next_slot: Signal<In, Bits<4>>,
    pub next_rm1: Signal<In, Bits<2>>,
    /// The flops before this edge and this edge's writes (see `LineNext`).
    pub dirty: Vec<Signal<In, Bits<16>>>,
    pub ce: Vec<Signal<In, Bit>>,
    pub fill_we: Signal<In, Bit>,
    pub fill_buf: Signal<In, Bits<2>>,
    pub fill_n: Signal<In, Bits<4>>,
    pub fill_ce: Signal<In, Bit>,
    pub wb_we: Signal<In, Bit>,
    pub wb_buf: Signal<In, Bits<2>>,
    pub wb_pix: Signal<In, Bits<2>>,
    pub swe: Signal<In, Bits<16>>,
    pub ce_we: Signal<In, Bits<4>>,
    pub ce_data: Signal<In, Bits<4>>,
    /// This cycle's slot (registered): issue line word n comes from the forwarded S4 write /
    /// the S4 store / the fill store (at most one set; none: 0), and the slot's CE bit.
    pub sel_fwd: Signal<Out, Bits<16>>,
    pub sel_s4: Signal<Out, Bits<16>>,
    pub sel_fill: Signal<Out, Bits<16>>,
    pub ce_bit: Signal<Out, Bit>,

    line: LineNext,
    /// 0b1111 and 3: the rows 0..=R-1 as a mask, `0b1111 >> (3 - (R-1))` (a compare `k <= R-1`
    /// would be constant for k = 0, which the lint gate rejects).
    k_all_rows: Constant<Bits<4>>,
    k_three: Constant<Bits<2>>,
    isel_fwd: RDff<Bits<16>>,
    isel_s4: RDff<Bits<16>>,
    isel_fill: RDff<Bits<16>>,
    ice_r: RDff<Bit>,
    /// the next slot's rows < R, as a word mask
    nrows: Signal<Local, Bits<4>>,
    nfill: Signal<Local, Bits<16>>,
}

impl IssueSelect {
    pub fn new() -> Self {
        fn v<T: Default>(n: usize) -> Vec<T> {
            (0..n).map(|_| T::default()).collect()
        }
        Self {
            clock: Default::default(),
            rst: Default::default(),
            next_buf: Default::default(),
            next_slot: Default::default(),
            next_rm1: Default::default(),
            dirty: v(12),
            ce: v(48),
            fill_we: Default::default(),
            fill_buf: Default::default(),
            fill_n: Default::default(),
            fill_ce: Default::default(),
            wb_we: Default::default(),
            wb_buf: Default::default(),
            wb_pix: Default::default(),
            swe: Default::default(),
            ce_we: Default::default(),
            ce_data: Default::default(),
            sel_fwd: Default::default(),
            sel_s4: Default::default(),
            sel_fill: Default::default(),
            ce_bit: Default::default(),
            line: LineNext::new(),
            k_all_rows: Constant::new(15u64.into()),
            k_three: Constant::new(3u64.into()),
            isel_fwd: Default::default(),
            isel_s4: Default::default(),
            // after reset: R - 1 = 0, nothing dirty or forwarded: row 0 from the fill store
            isel_fill: RDff::with_reset(0x000Fu64.into()),
            ice_r: Default::default(),
            nrows: Default::default(),
            nfill: Default::default(),
        }
    }
}

impl Logic for IssueSelect {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, isel_fwd, isel_s4, isel_fill, ice_r);
        self.isel_fwd.rst.next = self.rst.val();
        self.isel_s4.rst.next = self.rst.val();
        self.isel_fill.rst.next = self.rst.val();
        self.ice_r.rst.next = self.rst.val();

        // the next slot's line after this edge
        self.line.addr_buf.next = self.next_buf.val();
        self.line.addr_slot.next = self.next_slot.val();
        for i in 0..12 {
            self.line.dirty[i].next = self.dirty[i].val();
        }
        for i in 0..48 {
            self.line.ce[i].next = self.ce[i].val();
        }
        self.line.fill_we.next = self.fill_we.val();
        self.line.fill_buf.next = self.fill_buf.val();
        self.line.fill_n.next = self.fill_n.val();
        self.line.fill_ce.next = self.fill_ce.val();
        self.line.wb_we.next = self.wb_we.val();
        self.line.wb_buf.next = self.wb_buf.val();
        self.line.wb_pix.next = self.wb_pix.val();
        self.line.swe.next = self.swe.val();
        self.line.ce_we.next = self.ce_we.val();
        self.line.ce_data.next = self.ce_data.val();

        // the selects: forwarded write, else S4 store where dirty, else fill store for rows < R
        self.nrows.next = self.k_all_rows.val() >> (self.k_three.val() - self.next_rm1.val());
        self.ice_r.d.next = self.line.nce.val();
        self.isel_fwd.d.next = self.line.nfwd.val();
        self.isel_s4.d.next = self.line.ndirty.val() & !self.line.nfwd.val();
        self.nfill.next = 0.into();
        for k in 0..4 {
            for f in 0..4 {
                self.nfill.next = self.nfill.val().replace_bit(k * 4 + f, self.nrows.val().get_bit(k));
            }
        }
        self.isel_fill.d.next = self.nfill.val() & !self.line.ndirty.val() & !self.line.nfwd.val();

        self.sel_fwd.next = self.isel_fwd.q.val();
        self.sel_s4.next = self.isel_s4.q.val();
        self.sel_fill.next = self.isel_fill.q.val();
        self.ce_bit.next = self.ice_r.q.val();
    }
}
