//! The state one line of the group buffers has after this edge (issue 16, S1 cut): what the
//! registered read selects (`IssueSelect`, and the drain port's) are computed from one cycle
//! early.
//!
//! For line (`addr_buf`, p) and row k, {k, p} = `addr_slot`: its LVT dirty bits and the row's CE bit as
//! the flops take them at this edge — the flops before the edge at that address, then this
//! edge's writes to it (fill's first row clears / S4 sets dirty bits; S4's cxw, then fill,
//! write CE bits), the same next values `GroupBuffers` gives the flops — and the words of the
//! line that this edge's S4 write hits (`fwd_*` next cycle, missed by the RAM read at the same
//! edge). Combinational only.

use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct LineNext {
    /// The line and row read next cycle: buffer `addr_buf`, {k, p} = `addr_slot`.
    pub addr_buf: Signal<In, Bits<2>>,
    pub addr_slot: Signal<In, Bits<4>>,
    /// The flops before this edge: `dirty[b * 4 + p]`, `ce[b * 16 + p * 4 + k]`.
    pub dirty: Vec<Signal<In, Bits<16>>>,
    pub ce: Vec<Signal<In, Bit>>,
    /// This edge's fill write (row `fill_n` = {k, p} of `fill_buf`, its CE bit).
    pub fill_we: Signal<In, Bit>,
    pub fill_buf: Signal<In, Bits<2>>,
    pub fill_n: Signal<In, Bits<4>>,
    pub fill_ce: Signal<In, Bit>,
    /// This edge's S4 write on line (`wb_buf`, `wb_pix`): the word banks written (`swe`, 0
    /// unless `wb_we`), and the CE bits k written with `ce_data[k]` where `ce_we[k]`.
    pub wb_we: Signal<In, Bit>,
    pub wb_buf: Signal<In, Bits<2>>,
    pub wb_pix: Signal<In, Bits<2>>,
    pub swe: Signal<In, Bits<16>>,
    pub ce_we: Signal<In, Bits<4>>,
    pub ce_data: Signal<In, Bits<4>>,
    /// The line's dirty bits and the row's CE bit after this edge; the line's words written
    /// by S4 at this edge.
    pub ndirty: Signal<Out, Bits<16>>,
    pub nce: Signal<Out, Bit>,
    pub nfwd: Signal<Out, Bits<16>>,

    c2: Vec<Constant<Bits<2>>>,
    c4: Vec<Constant<Bits<4>>>,
    /// the line's dirty bits before this edge
    ndq: Signal<Local, Bits<16>>,
}

impl LineNext {
    pub fn new() -> Self {
        fn v<T: Default>(n: usize) -> Vec<T> {
            (0..n).map(|_| T::default()).collect()
        }
        Self {
            addr_buf: Default::default(),
            addr_slot: Default::default(),
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
            ndirty: Default::default(),
            nce: Default::default(),
            nfwd: Default::default(),
            c2: (0..4u64).map(|i| Constant::new(i.into())).collect(),
            c4: (0..16u64).map(|i| Constant::new(i.into())).collect(),
            ndq: Default::default(),
        }
    }
}

impl Logic for LineNext {
    #[hdl_gen]
    fn update(&mut self) {
        // the flops before this edge at the address
        self.ndq.next = 0.into();
        self.nce.next = false;
        for b in 0..3 {
            for p in 0..4 {
                for k in 0..4 {
                    if (self.addr_buf.val() == self.c2[b].val()) & (self.addr_slot.val() == self.c4[k * 4 + p].val()) {
                        self.nce.next = self.ce[b * 16 + p * 4 + k].val();
                    }
                }
                if (self.addr_buf.val() == self.c2[b].val()) & (self.addr_slot.val().get_bits::<2>(0) == self.c2[p].val()) {
                    self.ndq.next = self.dirty[b * 4 + p].val();
                }
            }
        }
        // this edge's writes to it
        self.ndirty.next = self.ndq.val();
        if self.fill_we.val() & (self.fill_buf.val() == self.addr_buf.val()) & (self.fill_n.val() == self.c4[0].val()) {
            self.ndirty.next = 0.into();
        }
        self.nfwd.next = 0.into();
        if (self.wb_buf.val() == self.addr_buf.val()) & (self.wb_pix.val() == self.addr_slot.val().get_bits::<2>(0)) {
            self.nfwd.next = self.swe.val();
            if self.wb_we.val() {
                self.ndirty.next = self.ndq.val() | self.swe.val();
                for k in 0..4 {
                    if (self.addr_slot.val().get_bits::<2>(2) == self.c2[k].val()) & self.ce_we.val().get_bit(k) {
                        self.nce.next = self.ce_data.val().get_bit(k);
                    }
                }
            }
        }
        if self.fill_we.val() & (self.fill_buf.val() == self.addr_buf.val()) & (self.fill_n.val() == self.addr_slot.val()) {
            self.nce.next = self.fill_ce.val();
        }
    }
}
