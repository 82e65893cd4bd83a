//! The alu_pipeline top (`AluPipe`): spec §7.2 ports and the wiring of its sub-blocks. The
//! blocks are ordered so that, within a cycle, each reads only registers and the outputs of
//! blocks before it (no combinational loop between blocks for Verilator to iterate):
//! sequencer → buffers (read ports) → shadow pipe → config store (`cfg_store`) (fetch, G/K) → decode and
//! operand read → lanes and control bank (bank inputs) ; write-back (from B3, cx3, sh3) →
//! buffers, config store (write ports) ; fill check, counters, error log.

use super::bank_clocks::BankClocks;
use super::buffers::GroupBuffers;
use super::config::ConfigStore;
use super::control_bank::ControlBank;
use super::counters::Counters;
use super::decode::Decode;
use super::errors::ErrorLog;
use super::fill_check::FillCheck;
use super::lane::Lane;
use super::operands::OperandRead;
use super::sequencer::Sequencer;
use super::shadow::ShadowPipe;
use super::writeback::WriteBack;
use rust_hdl::prelude::*;


/// The unit. `NA` = NUM_ALUS. Ports are the spec's §7.2 names.
#[derive(LogicBlock)]
pub struct AluPipe<const NA: usize> {
    /// Single clock.
    pub clk: Signal<In, Clock>,
    /// Synchronous, active-high reset: clears every register (K to its reset values).
    pub rst: Signal<In, Bit>,
    /// Input row valid; a row transfers when in_valid and in_ready are both 1.
    pub in_valid: Signal<In, Bit>,
    /// A buffer is EMPTY or FILL: the deserializer takes a row.
    pub in_ready: Signal<Out, Bit>,
    /// Input row: 4 registers, field j = [32j+31:32j].
    pub in_data: Signal<In, Bits<128>>,
    /// Pixel p of the row (sideband position).
    pub in_pix: Signal<In, Bits<2>>,
    /// Row k of the row (sideband position).
    pub in_row: Signal<In, Bits<2>>,
    /// R − 1 of the row's group.
    pub in_nrows_m1: Signal<In, Bits<2>>,
    /// Instruction pointer of the row.
    pub in_iptr: Signal<In, Bits<5>>,
    /// Front-end CE bit of the row.
    pub in_ce: Signal<In, Bit>,
    /// Pass-through tag.
    pub in_tag: Signal<In, Bits<8>>,
    /// Output row valid (buffer DONE or DRAIN).
    pub out_valid: Signal<Out, Bit>,
    /// Output row taken when out_valid and out_ready are 1.
    pub out_ready: Signal<In, Bit>,
    /// Processed row: 4 registers.
    pub out_data: Signal<Out, Bits<128>>,
    /// Pixel of the output row.
    pub out_pix: Signal<Out, Bits<2>>,
    /// Row of the output row.
    pub out_row: Signal<Out, Bits<2>>,
    /// R − 1 of the output row's group.
    pub out_nrows_m1: Signal<Out, Bits<2>>,
    /// iptr of the output row.
    pub out_iptr: Signal<Out, Bits<5>>,
    /// Final CE bit of the output row.
    pub out_ce: Signal<Out, Bit>,
    /// Tag of the output row.
    pub out_tag: Signal<Out, Bits<8>>,
    /// Config write strobe.
    pub cfg_we: Signal<In, Bit>,
    /// Config read strobe.
    pub cfg_re: Signal<In, Bit>,
    /// Config address (§7.2 map).
    pub cfg_addr: Signal<In, Bits<9>>,
    /// Config write data.
    pub cfg_wdata: Signal<In, Bits<32>>,
    /// Read data valid, one cycle after cfg_re.
    pub cfg_rvalid: Signal<Out, Bit>,
    /// Read data (0 for unmapped addresses).
    pub cfg_rdata: Signal<Out, Bits<32>>,
    /// Any buffer non-EMPTY or any shadow stage occupied.
    pub busy: Signal<Out, Bit>,
    /// Edges with en1 = 1 (§6.6).
    pub act_s1: Signal<Out, Bits<32>>,
    /// Edges with en2 = 1.
    pub act_s2: Signal<Out, Bits<32>>,
    /// Edges with en3 = 1.
    pub act_s3: Signal<Out, Bits<32>>,
    /// Edges with we4 = 1.
    pub act_s4: Signal<Out, Bits<32>>,
    /// Slots issued.
    pub slots_issued: Signal<Out, Bits<32>>,
    /// Slots issued with CE = 0.
    pub slots_skipped: Signal<Out, Bits<32>>,
    /// Register (r, g) writes.
    pub reg_writes: Signal<Out, Bits<32>>,
    /// CE-bit writes.
    pub ce_writes: Signal<Out, Bits<32>>,
    /// Groups fully drained.
    pub groups_done: Signal<Out, Bits<32>>,
    /// B1 data toggles (TOGGLE_CNT = 1; else 0).
    pub tog_s1: Signal<Out, Bits<48>>,
    /// B2 data toggles.
    pub tog_s2: Signal<Out, Bits<48>>,
    /// B3 data toggles.
    pub tog_s3: Signal<Out, Bits<48>>,
    /// {we4, en3, en2, en1} for the coming edge.
    pub dbg_en: Signal<Out, Bits<4>>,
    /// A slot issues this cycle.
    pub dbg_issue: Signal<Out, Bit>,
    /// {k, p} of the issuing slot.
    pub dbg_issue_pk: Signal<Out, Bits<4>>,
    /// §8 error bits since reset or clear.
    pub err_sticky: Signal<Out, Bits<16>>,
    /// First error: {1, code, info, lane}.
    pub err_first: Signal<Out, Bits<32>>,
    /// Any sticky error bit.
    pub err_any: Signal<Out, Bit>,

    /// the bank clocks of B1..B3 (clock gates for GATE_STYLE = ICG)
    /// GATE_STYLE = ICG only (length 1; 0 for CE).
    bank_clocks: Vec<BankClocks>,
    /// The clocks of banks B1..B3: the unit clock, or the gated clocks for ICG.
    clock_s1: Signal<Local, Clock>,
    clock_s2: Signal<Local, Clock>,
    clock_s3: Signal<Local, Clock>,
    _icg: usize,
    sequencer: Sequencer,
    buffers: GroupBuffers<NA>,
    shadow: ShadowPipe,
    cfg_store: ConfigStore<NA>,
    decode: Decode<NA>,
    operands: OperandRead<NA>,
    /// the NUM_ALUS lane datapaths (banks B1..B3 of each lane)
    lanes: Vec<Lane>,
    control_bank: ControlBank,
    writeback: WriteBack<NA>,
    fill_check: FillCheck,
    counters: Counters,
    errors: ErrorLog,
    /// per-bank toggle sums of this edge over the lanes (0 unless TOGGLE_CNT = 1)
    tsum: Vec<Signal<Local, Bits<32>>>,
}

impl<const NA: usize> AluPipe<NA> {
    pub fn new(depth: usize, scope: u32, icg: bool, tog: bool) -> Self {
        assert!((1..=4).contains(&NA) && (1..=32).contains(&depth));
        Self {
            clk: Default::default(),
            rst: Default::default(),
            in_valid: Default::default(),
            in_ready: Default::default(),
            in_data: Default::default(),
            in_pix: Default::default(),
            in_row: Default::default(),
            in_nrows_m1: Default::default(),
            in_iptr: Default::default(),
            in_ce: Default::default(),
            in_tag: Default::default(),
            out_valid: Default::default(),
            out_ready: Default::default(),
            out_data: Default::default(),
            out_pix: Default::default(),
            out_row: Default::default(),
            out_nrows_m1: Default::default(),
            out_iptr: Default::default(),
            out_ce: Default::default(),
            out_tag: Default::default(),
            cfg_we: Default::default(),
            cfg_re: Default::default(),
            cfg_addr: Default::default(),
            cfg_wdata: Default::default(),
            cfg_rvalid: Default::default(),
            cfg_rdata: Default::default(),
            busy: Default::default(),
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
            dbg_en: Default::default(),
            dbg_issue: Default::default(),
            dbg_issue_pk: Default::default(),
            err_sticky: Default::default(),
            err_first: Default::default(),
            err_any: Default::default(),
            bank_clocks: (0..icg as usize).map(|_| BankClocks::default()).collect(),
            clock_s1: Default::default(),
            clock_s2: Default::default(),
            clock_s3: Default::default(),
            _icg: icg as usize,
            sequencer: Sequencer::new(),
            buffers: GroupBuffers::new(),
            shadow: ShadowPipe::new(scope),
            cfg_store: ConfigStore::new(depth),
            decode: Decode::new(),
            operands: OperandRead::new(),
            lanes: (0..NA).map(|_| Lane::new(tog)).collect(),
            control_bank: Default::default(),
            writeback: WriteBack::new(),
            fill_check: Default::default(),
            counters: Counters::new(),
            errors: Default::default(),
            tsum: (0..3).map(|_| Default::default()).collect(),
        }
    }
}

impl<const NA: usize> Logic for AluPipe<NA> {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- clocks and resets (bank clocks per GATE_STYLE from `bank_clocks`) ----
        self.sequencer.clock.next = self.clk.val();
        self.sequencer.rst.next = self.rst.val();
        self.buffers.clock.next = self.clk.val();
        self.buffers.rst.next = self.rst.val();
        self.shadow.clock.next = self.clk.val();
        self.shadow.rst.next = self.rst.val();
        self.cfg_store.clock.next = self.clk.val();
        self.cfg_store.rst.next = self.rst.val();
        self.counters.clock.next = self.clk.val();
        self.counters.rst.next = self.rst.val();
        self.errors.clock.next = self.clk.val();
        self.errors.rst.next = self.rst.val();
        self.clock_s1.next = self.clk.val();
        self.clock_s2.next = self.clk.val();
        self.clock_s3.next = self.clk.val();
        for g in 0..self._icg {
            self.bank_clocks[g].clk.next = self.clk.val();
            self.bank_clocks[g].rst.next = self.rst.val();
            self.bank_clocks[g].en_s1.next = self.shadow.en_s1.val();
            self.bank_clocks[g].en_s2.next = self.shadow.en_s2.val();
            self.bank_clocks[g].en_s3.next = self.shadow.en_s3.val();
            self.clock_s1.next = self.bank_clocks[g].clock_s1.val();
            self.clock_s2.next = self.bank_clocks[g].clock_s2.val();
            self.clock_s3.next = self.bank_clocks[g].clock_s3.val();
        }
        self.control_bank.clock_s1.next = self.clock_s1.val();
        self.control_bank.clock_s2.next = self.clock_s2.val();
        self.control_bank.clock_s3.next = self.clock_s3.val();
        self.control_bank.rst.next = self.rst.val();
        for j in 0..NA {
            self.lanes[j].clock_s1.next = self.clock_s1.val();
            self.lanes[j].clock_s2.next = self.clock_s2.val();
            self.lanes[j].clock_s3.next = self.clock_s3.val();
            self.lanes[j].rst.next = self.rst.val();
        }

        // ---- sequencer: buffer states and pointers ----
        self.sequencer.in_valid.next = self.in_valid.val();
        self.sequencer.in_nrows_m1.next = self.in_nrows_m1.val();
        self.sequencer.out_ready.next = self.out_ready.val();

        // ---- group buffers: issue, fill, drain and write-back ports ----
        self.buffers.issue_next_rm1.next = self.sequencer.issue_next_rm1.val();
        self.buffers.issue_next_buf.next = self.sequencer.issue_next_buf.val();
        self.buffers.issue_next_slot.next = self.sequencer.issue_next_slot.val();
        self.buffers.fill_we.next = self.sequencer.fill.val();
        self.buffers.fill_buf.next = self.sequencer.fill_buf.val();
        self.buffers.fill_n.next = self.sequencer.fill_n.val();
        self.buffers.fill_data.next = self.in_data.val();
        self.buffers.fill_ce.next = self.in_ce.val();
        self.buffers.fill_iptr.next = self.in_iptr.val();
        self.buffers.fill_tag.next = self.in_tag.val();
        self.buffers.drain_en.next = self.sequencer.out_valid.val();
        self.buffers.drain_buf.next = self.sequencer.drain_buf.val();
        self.buffers.drain_n.next = self.sequencer.drain_n.val();
        self.buffers.drain_next_buf.next = self.sequencer.drain_next_buf.val();
        self.buffers.drain_next_n.next = self.sequencer.drain_next_n.val();
        self.buffers.wb_we.next = self.shadow.we_s4.val();
        self.buffers.wb_buf.next = self.shadow.s4_buf.val();
        self.buffers.wb_pix.next = self.shadow.s4_pix.val();
        self.buffers.ce_we.next = self.writeback.ce_we.val();
        self.buffers.ce_data.next = self.writeback.ce_data.val();

        // ---- shadow pipe: bank enables ----
        self.shadow.issue.next = self.sequencer.issue.val();
        self.shadow.issue_buf.next = self.sequencer.issue_buf.val();
        self.shadow.issue_slot.next = self.sequencer.issue_slot.val();
        self.shadow.issue_ce.next = self.buffers.issue_ce.val();

        // ---- config store: bus, fetch, G/K ----
        self.cfg_store.cfg_we.next = self.cfg_we.val();
        self.cfg_store.cfg_re.next = self.cfg_re.val();
        self.cfg_store.cfg_addr.next = self.cfg_addr.val();
        self.cfg_store.cfg_wdata.next = self.cfg_wdata.val();
        self.cfg_store.busy.next = self.sequencer.buffers_busy.val() | self.shadow.occupied.val();
        self.cfg_store.fetch_addr.next = self.buffers.issue_next_iptr0.val();
        self.cfg_store.wb_we.next = self.shadow.we_s4.val();

        // ---- decode of the next cycle's slot (registered), S1 operand read ----
        self.decode.clock.next = self.clk.val();
        self.decode.rst.next = self.rst.val();
        for w in 0..5 {
            self.decode.words[w].next = self.cfg_store.fetch_words[w].val();
        }
        self.decode.fetch_ok.next = self.cfg_store.fetch_ok.val();
        self.decode.issue.next = self.sequencer.issue_next.val();
        self.decode.issue_rm1.next = self.sequencer.issue_next_rm1.val();
        for n in 0..16 {
            self.operands.line[n].next = self.buffers.issue_line[n].val();
        }
        for n in 0..8 {
            self.operands.g[n].next = self.cfg_store.g[n].val();
            self.operands.k[n].next = self.cfg_store.k[n].val();
        }

        // ---- S1..S3: the lanes' banks and the control word's ----
        for j in 0..NA {
            for s in 0..4 {
                self.operands.src_code[j * 4 + s].next = self.decode.src[j * 4 + s].val();
            }
            self.lanes[j].en_s1.next = self.shadow.en_s1.val();
            self.lanes[j].en_s2.next = self.shadow.en_s2.val();
            self.lanes[j].en_s3.next = self.shadow.en_s3.val();
            self.lanes[j].op.next = self.decode.op[j].val();
            self.lanes[j].dst.next = self.decode.dst[j].val();
            self.lanes[j].src_a.next = self.operands.values[j * 4].val();
            self.lanes[j].src_b.next = self.operands.values[j * 4 + 1].val();
            self.lanes[j].src_c.next = self.operands.values[j * 4 + 2].val();
            self.lanes[j].src_d.next = self.operands.values[j * 4 + 3].val();
        }
        self.control_bank.en_s1.next = self.shadow.en_s1.val();
        self.control_bank.en_s2.next = self.shadow.en_s2.val();
        self.control_bank.en_s3.next = self.shadow.en_s3.val();
        self.control_bank.word.next = self.decode.control.val();

        // ---- S4: write-back into the buffers, G and the CE bits ----
        self.writeback.we.next = self.shadow.we_s4.val();
        self.writeback.control_s3.next = self.control_bank.word_s3.val();
        self.writeback.row_ce.next = self.buffers.wb_ce.val();
        for j in 0..NA {
            self.writeback.dst[j].next = self.lanes[j].dst_s3.val();
            self.writeback.result[j].next = self.lanes[j].result_s3.val();
            self.buffers.wb_reg[j].next = self.lanes[j].dst_s3.val();
            self.buffers.wb_data[j].next = self.lanes[j].result_s3.val();
            self.cfg_store.wb_reg[j].next = self.lanes[j].dst_s3.val();
            self.cfg_store.wb_data[j].next = self.lanes[j].result_s3.val();
        }

        // ---- §8 fill checks ----
        self.fill_check.fill.next = self.sequencer.fill.val();
        self.fill_check.fill_n.next = self.sequencer.fill_n.val();
        self.fill_check.fill_group_rm1.next = self.sequencer.fill_group_rm1.val();
        self.fill_check.fill_seq.next = self.sequencer.fill_seq.val();
        self.fill_check.group_count.next = self.sequencer.group_count.val();
        self.fill_check.in_pix.next = self.in_pix.val();
        self.fill_check.in_row.next = self.in_row.val();
        self.fill_check.in_nrows_m1.next = self.in_nrows_m1.val();
        self.fill_check.in_iptr.next = self.in_iptr.val();
        self.fill_check.stored_iptr0.next = self.buffers.fill_iptr0.val();

        // ---- counters ----
        self.counters.clear.next = self.cfg_store.clear_counters.val();
        self.counters.en_s1.next = self.shadow.en_s1.val();
        self.counters.en_s2.next = self.shadow.en_s2.val();
        self.counters.en_s3.next = self.shadow.en_s3.val();
        self.counters.we_s4.next = self.shadow.we_s4.val();
        self.counters.issue.next = self.sequencer.issue.val();
        self.counters.live.next = self.shadow.live.val();
        self.counters.reg_writes_add.next = self.writeback.reg_writes.val();
        self.counters.ce_writes_add.next = self.writeback.ce_writes.val();
        self.counters.group_done.next = self.sequencer.group_done.val();
        for s in 0..3 {
            self.tsum[s].next = 0.into();
        }
        for j in 0..NA {
            self.tsum[0].next = self.tsum[0].val() + self.lanes[j].toggles_s1.val();
            self.tsum[1].next = self.tsum[1].val() + self.lanes[j].toggles_s2.val();
            self.tsum[2].next = self.tsum[2].val() + self.lanes[j].toggles_s3.val();
        }
        self.counters.toggles_s1.next = self.tsum[0].val();
        self.counters.toggles_s2.next = self.tsum[1].val();
        self.counters.toggles_s3.next = self.tsum[2].val();

        // ---- error log: decode, fill and config errors of this edge ----
        self.errors.clear.next = self.cfg_store.clear_errors.val();
        self.errors.new_errors.next = self.decode.errors.val() | self.fill_check.errors.val() | self.cfg_store.errors.val();
        self.errors.lanes.next = self.decode.error_lanes.val();
        self.errors.info_issue.next = self.sequencer.issue_info.val();
        self.errors.info_fill.next = self.fill_check.info.val();

        // ---- outputs ----
        self.in_ready.next = self.sequencer.in_ready.val();
        self.out_valid.next = self.sequencer.out_valid.val();
        self.out_data.next = self.buffers.drain_data.val();
        self.out_pix.next = self.sequencer.out_pix.val();
        self.out_row.next = self.sequencer.out_row.val();
        self.out_nrows_m1.next = self.sequencer.out_nrows_m1.val();
        self.out_iptr.next = self.buffers.drain_iptr.val();
        self.out_ce.next = self.buffers.drain_ce.val();
        self.out_tag.next = self.buffers.drain_tag.val();
        self.cfg_rvalid.next = self.cfg_store.cfg_rvalid.val();
        self.cfg_rdata.next = self.cfg_store.cfg_rdata.val();
        self.busy.next = self.sequencer.buffers_busy.val() | self.shadow.occupied.val();
        self.act_s1.next = self.counters.act_s1.val();
        self.act_s2.next = self.counters.act_s2.val();
        self.act_s3.next = self.counters.act_s3.val();
        self.act_s4.next = self.counters.act_s4.val();
        self.slots_issued.next = self.counters.slots_issued.val();
        self.slots_skipped.next = self.counters.slots_skipped.val();
        self.reg_writes.next = self.counters.reg_writes.val();
        self.ce_writes.next = self.counters.ce_writes.val();
        self.groups_done.next = self.counters.groups_done.val();
        self.tog_s1.next = self.counters.tog_s1.val();
        self.tog_s2.next = self.counters.tog_s2.val();
        self.tog_s3.next = self.counters.tog_s3.val();
        self.dbg_en.next = 0.into();
        self.dbg_en.next = self.dbg_en.val().replace_bit(0, self.shadow.en_s1.val()).replace_bit(1, self.shadow.en_s2.val()).replace_bit(2, self.shadow.en_s3.val()).replace_bit(3, self.shadow.we_s4.val());
        self.dbg_issue.next = self.sequencer.issue.val();
        self.dbg_issue_pk.next = 0.into();
        if self.sequencer.issue.val() {
            self.dbg_issue_pk.next = self.sequencer.issue_slot.val();
        }
        self.err_sticky.next = self.errors.err_sticky.val();
        self.err_first.next = self.errors.err_first.val();
        self.err_any.next = self.errors.err_any.val();
    }
}
