//! BIST top for the ALU pipeline `eu_alu_pipeline`, built for the small config
//! (`configs/alu_pipeline-small.toml`: NUM_ALUS = 2, IMEM_DEPTH = 4, GATE_SCOPE ALL, GATE_STYLE CE;
//! the group buffers are fixed by the spec: 3 × 4 pixels × 16 registers × 32 bits).
//!
//! Stimulus bits (DUT inputs except clk/rst, port order): `in_valid` [0], `in_data` [1..129),
//! `in_pix` [129..131), `in_row` [131..133), `in_nrows_m1` [133..135), `in_iptr` [135..140),
//! `in_ce` [140], `in_tag` [141..149), `out_ready` [149], `cfg_we` [150], `cfg_re` [151],
//! `cfg_addr` [152..161), `cfg_wdata` [161..193) → SW = 193.
//! Response bits (outputs, port order): `in_ready` [0], `out_valid` [1], `out_data` [2..130),
//! `out_pix` [130..132), `out_row` [132..134), `out_nrows_m1` [134..136), `out_iptr` [136..141),
//! `out_ce` [141], `out_tag` [142..150), `cfg_rvalid` [150], `cfg_rdata` [151..183), `busy` [183],
//! `act_s1..4` [184..312), `slots_issued`, `slots_skipped`, `reg_writes`, `ce_writes`,
//! `groups_done` [312..472), `tog_s1..3` [472..616), `dbg_en` [616..620), `dbg_issue` [620],
//! `dbg_issue_pk` [621..625), `err_sticky` [625..641), `err_first` [641..673), `err_any` [673]
//! → RW = 674.
//!
//! # Stimulus mapping (modelled identically by `sim::bist_models::alu_pipeline`)
//! Raw bits would write random words to random config addresses while groups are in flight
//! (ERR_CFG_BUSY / ERR_CFG_ADDR on every other cycle), never load a program (IMEM stays all-NOP),
//! and send rows out of order (ERR_ORDER / ERR_NROWS / ERR_SIMD on nearly every row). The top
//! keeps four registers of its own, all cleared while the DUT is in reset: `ld` (6 bits, program
//! load counter), `n` (4 bits, row index in the current group), `rm1` and `base` (2 bits each,
//! the current group's R−1 and iptr base). Names: `s` = the raw stimulus fields,
//! `c = s[133..149)` (the raw nrows/iptr/ce/tag bits, also used as control randomness),
//! `raw = s.cfg_wdata`, `a = s.cfg_addr`.
//! * **Program load** (while `ld < 32`, right after the DUT reset, the unit idle): `ld += 1`,
//!   `cfg_addr = ld` (IMEM word `8e + w`, `w = ld[2:0]`), `cfg_we = w < 5`, `cfg_re = 0`,
//!   `in_valid = 0`. `cfg_wdata` is a legal instruction word made from `raw`: for lane words
//!   (`w < NUM_ALUS`) `op = raw[3:0]` (15 → 1, ADD), sources `raw[23:4]` raw (r/g/k), `dst =
//!   raw[28:24]` with 24..30 folded to `r(dst[3:0])`, reserved bits 0; lanes `NUM_ALUS ≤ w < 4`
//!   are 0; the control word (`w = 4`) is `cxw_en = raw[0]`, `src = raw[2:1] & (NUM_ALUS−1)`,
//!   `fn = raw[4:3]` (3 → 1, AND), `mask_t = raw[8:5]`, `mask_f = raw[12:9] & ~mask_t`.
//! * **Run** (`ld = 32`): `cfg_we = (a[6:0] == 0)` (1/128) writes CTRL (0x110) with
//!   `raw[1:0]` (clear counters / errors, allowed while busy); otherwise `cfg_re = s.cfg_we &
//!   s.cfg_re` (1/4) reads `a[8] ? 0x100 | a[3:0]` (G/K) `: 8·a[4:3] + w'` (IMEM, `w' = a[2:0]`,
//!   5..7 → 1..3), `cfg_wdata = raw`. `in_valid = s.in_valid | c[15]` (3/4).
//! * **Rows**: `in_pix = n[1:0]`, `in_row = n[3:2]`; on a group's first row (`n = 0`) the group's
//!   `R−1 = c[3:2] == 0 ? c[1:0] : 3` (R = 4 on 3/4 of the groups, else 1..4) and `base = c[5:4]`,
//!   later rows repeat the registered values; `in_nrows_m1 = R−1`, `in_iptr = (base + row) mod 4`
//!   (the same for all pixels of a row: legal SIMD). On 1/64 of the cycles (`c[14:9] == 0`,
//!   "wild") `in_pix`, `in_row`, `in_iptr` are raw. `in_ce = c[7] | c[8]` (3/4), `in_tag`,
//!   `in_data` raw. On a transfer (`in_valid & in_ready`, `in_ready` is a registered DUT output)
//!   `n` advances, wrapping after `4R − 1`, and the first row registers `rm1`, `base` (these
//!   three registers are in [`RowTracker`], a module of its own: see there why).
//! * `out_ready = s.out_ready | a[0]` (3/4, back-pressure exercised).

use super::{BistCore, BistParams};
use crate::alu_pipeline::{AluPipe, Config};
use crate::emit::{emit_module, EmitError, EmittedModule};
use rust_hdl::prelude::*;

pub const SW: usize = 193;
pub const RW: usize = 674;
pub const TOP: &str = "eu_bist_alu_pipeline";
/// NUM_ALUS and IMEM_DEPTH of the small config this top is built for.
pub const NUM_ALUS: usize = 2;
pub const IMEM_DEPTH: usize = 4;
/// Cycles of the program load (IMEM words 8e + w for e < IMEM_DEPTH, w < 8).
pub const LOAD_CYCLES: usize = 8 * IMEM_DEPTH;

bist_top! {
    pub struct BistAlu {
        core: BistCore<SW, RW> = BistCore::new(p),
        dut: AluPipe<NUM_ALUS> = AluPipe::new(cfg.imem_depth as usize, cfg.scope_code(), false, false),
        fault_always = Constant::new(p.fault_always),
        k_op_ill: Constant<Bits<4>> = Constant::new(crate::alu_pipeline::enc::op::ILLEGAL.into()),
        k_op_add: Constant<Bits<4>> = Constant::new(crate::alu_pipeline::enc::op::ADD.into()),
        k_src_mask: Constant<Bits<32>> = Constant::new(0x00FF_FFF0u64.into()),
        k_dst_none: Constant<Bits<5>> = Constant::new(crate::alu_pipeline::enc::src::DST_NONE.into()),
        k_three2: Constant<Bits<2>> = Constant::new(3.into()),
        k_fn_and: Constant<Bits<2>> = Constant::new(crate::alu_pipeline::enc::cxw_fn::AND.into()),
        k_srcm: Constant<Bits<2>> = Constant::new(((NUM_ALUS - 1) as u64).into()),
        k_words: Constant<Bits<3>> = Constant::new(5.into()),
        k_ctrl_w: Constant<Bits<3>> = Constant::new(4.into()),
        k_na: Constant<Bits<3>> = Constant::new((NUM_ALUS as u64).into()),
        k_four3: Constant<Bits<3>> = Constant::new(4.into()),
        k_cfg_ctrl: Constant<Bits<9>> = Constant::new((crate::alu_pipeline::isa::CFG_CTRL as u64).into()),
        k_cfg_gk: Constant<Bits<9>> = Constant::new((crate::alu_pipeline::isa::CFG_G as u64).into()),
        k_z32: Constant<Bits<32>> = Constant::new(0.into()),
        k_one6: Constant<Bits<6>> = Constant::new(1.into()),
        ld: DFF<Bits<6>> = Default::default(),
        rows: RowTracker = RowTracker::new(),
        c: Signal<Local, Bits<16>> = Default::default(),
        raw: Signal<Local, Bits<32>> = Default::default(),
        a: Signal<Local, Bits<9>> = Default::default(),
        w: Signal<Local, Bits<3>> = Default::default(),
        wr: Signal<Local, Bits<3>> = Default::default(),
        dst: Signal<Local, Bits<5>> = Default::default(),
        lane: Signal<Local, Bits<32>> = Default::default(),
        fnc: Signal<Local, Bits<2>> = Default::default(),
        ctrl: Signal<Local, Bits<32>> = Default::default(),
        r_now: Signal<Local, Bits<2>> = Default::default(),
        b_now: Signal<Local, Bits<2>> = Default::default(),
        ip2: Signal<Local, Bits<2>> = Default::default(),
        valid: Signal<Local, Bit> = Default::default(),
    }
    pub fn new(cfg: &Config, p: &BistParams) -> Self;
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clk, ld);
        // Block side (see the module docs).
        self.c.next = self.core.stim.val().get_bits::<16>(133);
        self.raw.next = self.core.stim.val().get_bits::<32>(161);
        self.a.next = self.core.stim.val().get_bits::<9>(152);
        // Legal lane word.
        self.dst.next = self.raw.val().get_bits::<5>(24);
        if (self.dst.val().get_bits::<2>(3) == self.k_three2.val()) & (self.dst.val() != self.k_dst_none.val()) {
            self.dst.next = bit_cast::<5, 4>(self.dst.val().get_bits::<4>(0));
        }
        self.lane.next = (self.raw.val() & self.k_src_mask.val()) | (bit_cast::<32, 5>(self.dst.val()) << 24);
        if self.raw.val().get_bits::<4>(0) == self.k_op_ill.val() {
            self.lane.next = self.lane.val() | bit_cast::<32, 4>(self.k_op_add.val());
        } else {
            self.lane.next = self.lane.val() | bit_cast::<32, 4>(self.raw.val().get_bits::<4>(0));
        }
        // Legal control word.
        self.fnc.next = self.raw.val().get_bits::<2>(3);
        if self.fnc.val() == self.k_three2.val() {
            self.fnc.next = self.k_fn_and.val();
        }
        self.ctrl.next = bit_cast::<32, 1>(self.raw.val().get_bit(0).into())
            | (bit_cast::<32, 2>(self.raw.val().get_bits::<2>(1) & self.k_srcm.val()) << 1)
            | (bit_cast::<32, 2>(self.fnc.val()) << 3)
            | (bit_cast::<32, 4>(self.raw.val().get_bits::<4>(5)) << 5)
            | (bit_cast::<32, 4>(self.raw.val().get_bits::<4>(9) & !self.raw.val().get_bits::<4>(5)) << 9);
        // Config bus: program load, then CTRL writes and reads.
        self.w.next = self.ld.q.val().get_bits::<3>(0);
        self.wr.next = self.a.val().get_bits::<3>(0);
        if !(self.wr.val() < self.k_words.val()) {
            self.wr.next = self.wr.val() - self.k_four3.val();
        }
        if !self.ld.q.val().get_bit(5) {
            self.ld.d.next = self.ld.q.val() + self.k_one6.val();
            self.dut.cfg_we.next = self.w.val() < self.k_words.val();
            self.dut.cfg_re.next = false;
            self.dut.cfg_addr.next = bit_cast::<9, 6>(self.ld.q.val());
            if self.w.val() == self.k_ctrl_w.val() {
                self.dut.cfg_wdata.next = self.ctrl.val();
            } else if self.w.val() < self.k_na.val() {
                self.dut.cfg_wdata.next = self.lane.val();
            } else {
                self.dut.cfg_wdata.next = self.k_z32.val();
            }
            self.valid.next = false;
        } else {
            self.dut.cfg_we.next = !self.a.val().get_bits::<7>(0).any();
            self.dut.cfg_re.next = self.core.stim.val().get_bit(150) & self.core.stim.val().get_bit(151);
            if !self.a.val().get_bits::<7>(0).any() {
                self.dut.cfg_addr.next = self.k_cfg_ctrl.val();
                self.dut.cfg_wdata.next = bit_cast::<32, 2>(self.raw.val().get_bits::<2>(0));
            } else {
                if self.a.val().get_bit(8) {
                    self.dut.cfg_addr.next = self.k_cfg_gk.val() | bit_cast::<9, 4>(self.a.val().get_bits::<4>(0));
                } else {
                    self.dut.cfg_addr.next =
                        (bit_cast::<9, 2>(self.a.val().get_bits::<2>(3)) << 3) | bit_cast::<9, 3>(self.wr.val());
                }
                self.dut.cfg_wdata.next = self.raw.val();
            }
            self.valid.next = self.core.stim.val().get_bit(0) | self.c.val().get_bit(15);
        }
        // Rows of legal groups.
        self.rows.clk.next = self.clk.val();
        self.rows.rst.next = self.core.dut_rst.val();
        self.rows.in_ready.next = self.dut.in_ready.val();
        if self.rows.n.val().any() {
            self.r_now.next = self.rows.rm1.val();
            self.b_now.next = self.rows.base.val();
        } else {
            if self.c.val().get_bits::<2>(2).any() {
                self.r_now.next = self.k_three2.val();
            } else {
                self.r_now.next = self.c.val().get_bits::<2>(0);
            }
            self.b_now.next = self.c.val().get_bits::<2>(4);
        }
        self.rows.valid.next = self.valid.val();
        self.rows.r_now.next = self.r_now.val();
        self.rows.b_now.next = self.b_now.val();
        self.dut.in_valid.next = self.valid.val();
        self.dut.in_data.next = self.core.stim.val().get_bits::<128>(1);
        self.dut.in_nrows_m1.next = self.r_now.val();
        // The sum wraps at 2 bits in a 2-bit local: inside `bit_cast::<5, 2>(..)` the emitted
        // Verilog would do the add at 5 bits (context-determined width) and not wrap.
        self.ip2.next = self.b_now.val() + self.rows.n.val().get_bits::<2>(2);
        if self.c.val().get_bits::<6>(9).any() {
            self.dut.in_pix.next = self.rows.n.val().get_bits::<2>(0);
            self.dut.in_row.next = self.rows.n.val().get_bits::<2>(2);
            self.dut.in_iptr.next = bit_cast::<5, 2>(self.ip2.val());
        } else {
            self.dut.in_pix.next = self.core.stim.val().get_bits::<2>(129);
            self.dut.in_row.next = self.core.stim.val().get_bits::<2>(131);
            self.dut.in_iptr.next = self.core.stim.val().get_bits::<5>(135);
        }
        self.dut.in_ce.next = self.c.val().get_bit(7) | self.c.val().get_bit(8);
        self.dut.in_tag.next = self.core.stim.val().get_bits::<8>(141);
        self.dut.out_ready.next = self.core.stim.val().get_bit(149) | self.a.val().get_bit(0);
        if self.core.dut_rst.val() {
            self.ld.d.next = 0.into();
        }
        self.core.resp.next = bit_cast::<RW, 1>(self.dut.in_ready.val().into())
            | (bit_cast::<RW, 1>(self.dut.out_valid.val().into()) << 1)
            | (bit_cast::<RW, 128>(self.dut.out_data.val()) << 2)
            | (bit_cast::<RW, 2>(self.dut.out_pix.val()) << 130)
            | (bit_cast::<RW, 2>(self.dut.out_row.val()) << 132)
            | (bit_cast::<RW, 2>(self.dut.out_nrows_m1.val()) << 134)
            | (bit_cast::<RW, 5>(self.dut.out_iptr.val()) << 136)
            | (bit_cast::<RW, 1>(self.dut.out_ce.val().into()) << 141)
            | (bit_cast::<RW, 8>(self.dut.out_tag.val()) << 142)
            | (bit_cast::<RW, 1>(self.dut.cfg_rvalid.val().into()) << 150)
            | (bit_cast::<RW, 32>(self.dut.cfg_rdata.val()) << 151)
            | (bit_cast::<RW, 1>(self.dut.busy.val().into()) << 183)
            | (bit_cast::<RW, 32>(self.dut.act_s1.val()) << 184)
            | (bit_cast::<RW, 32>(self.dut.act_s2.val()) << 216)
            | (bit_cast::<RW, 32>(self.dut.act_s3.val()) << 248)
            | (bit_cast::<RW, 32>(self.dut.act_s4.val()) << 280)
            | (bit_cast::<RW, 32>(self.dut.slots_issued.val()) << 312)
            | (bit_cast::<RW, 32>(self.dut.slots_skipped.val()) << 344)
            | (bit_cast::<RW, 32>(self.dut.reg_writes.val()) << 376)
            | (bit_cast::<RW, 32>(self.dut.ce_writes.val()) << 408)
            | (bit_cast::<RW, 32>(self.dut.groups_done.val()) << 440)
            | (bit_cast::<RW, 48>(self.dut.tog_s1.val()) << 472)
            | (bit_cast::<RW, 48>(self.dut.tog_s2.val()) << 520)
            | (bit_cast::<RW, 48>(self.dut.tog_s3.val()) << 568)
            | (bit_cast::<RW, 4>(self.dut.dbg_en.val()) << 616)
            | (bit_cast::<RW, 1>(self.dut.dbg_issue.val().into()) << 620)
            | (bit_cast::<RW, 4>(self.dut.dbg_issue_pk.val()) << 621)
            | (bit_cast::<RW, 16>(self.dut.err_sticky.val()) << 625)
            | (bit_cast::<RW, 32>(self.dut.err_first.val()) << 641)
            | (bit_cast::<RW, 1>(self.dut.err_any.val().into()) << 673);
    }
}

/// The row counter of the stimulus: `n` (row index in the group), `rm1`/`base` (the group's R−1
/// and iptr base, registered on its first row), advanced on every transfer. It reads the DUT's
/// `in_ready`, so it is a module of its own. rust-hdl writes a module's logic as one
/// `always @(*)`; Verilator splits such a block only into groups of statements that share no
/// temporaries. In the top, the `in_ready` test would share `valid`/`r_now` with the statements
/// that drive `in_valid` into the DUT's block that computes `in_ready`: a combinational loop for
/// Verilator (UNOPTFLAT, the lint gate fails) although no signal path exists. Here the outputs
/// come straight from the flops, apart from the `in_ready` logic.
#[derive(LogicBlock)]
pub struct RowTracker {
    pub clk: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub in_ready: Signal<In, Bit>,
    pub valid: Signal<In, Bit>,
    /// The current row's group R−1 and iptr base (registered on the group's first row).
    pub r_now: Signal<In, Bits<2>>,
    pub b_now: Signal<In, Bits<2>>,
    /// Registered state only (no input reaches an output: see the type's docs).
    pub n: Signal<Out, Bits<4>>,
    pub rm1: Signal<Out, Bits<2>>,
    pub base: Signal<Out, Bits<2>>,
    k_one4: Constant<Bits<4>>,
    k_last_pix: Constant<Bits<4>>,
    last: Signal<Local, Bits<4>>,
    n_r: DFF<Bits<4>>,
    rm1_r: DFF<Bits<2>>,
    base_r: DFF<Bits<2>>,
}

impl RowTracker {
    fn new() -> Self {
        Self {
            clk: Default::default(),
            rst: Default::default(),
            in_ready: Default::default(),
            valid: Default::default(),
            r_now: Default::default(),
            b_now: Default::default(),
            n: Default::default(),
            rm1: Default::default(),
            base: Default::default(),
            k_one4: Constant::new(1.into()),
            k_last_pix: Constant::new(3.into()),
            last: Default::default(),
            n_r: Default::default(),
            rm1_r: Default::default(),
            base_r: Default::default(),
        }
    }
}

impl Logic for RowTracker {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clk, n_r, rm1_r, base_r);
        // Outputs straight from the flops, so that Verilator can order them apart from the
        // `in_ready` logic below (it splits a block into independent statement groups).
        self.n.next = self.n_r.q.val();
        self.rm1.next = self.rm1_r.q.val();
        self.base.next = self.base_r.q.val();
        // Last row of the group: pixel 3 of row R−1.
        self.last.next = (bit_cast::<4, 2>(self.r_now.val()) << 2) | self.k_last_pix.val();
        if self.valid.val() & self.in_ready.val() {
            if self.n_r.q.val() == self.last.val() {
                self.n_r.d.next = 0.into();
            } else {
                self.n_r.d.next = self.n_r.q.val() + self.k_one4.val();
            }
            if !self.n_r.q.val().any() {
                self.rm1_r.d.next = self.r_now.val();
                self.base_r.d.next = self.b_now.val();
            }
        }
        if self.rst.val() {
            self.n_r.d.next = 0.into();
            self.rm1_r.d.next = 0.into();
            self.base_r.d.next = 0.into();
        }
    }
}

/// The config this top is built for: NUM_ALUS = 2, IMEM_DEPTH = 4, CE style, no toggle counters
/// (any GATE_SCOPE: the scope changes only the activity counters).
pub fn supports(cfg: &Config) -> bool {
    cfg.num_alus as usize == NUM_ALUS && cfg.imem_depth as usize == IMEM_DEPTH && cfg.gate_style == "CE" && cfg.toggle_cnt == 0
}

pub fn emit(cfg: &Config, p: &BistParams) -> Result<EmittedModule, EmitError> {
    assert!(
        supports(cfg),
        "BIST top of alu_pipeline is built for num_alus = {NUM_ALUS}, imem_depth = {IMEM_DEPTH}, gate_style CE, toggle_cnt 0; got {cfg:?}"
    );
    emit_module(BistAlu::new(cfg, p), TOP, "alu_pipeline", super::bist_params(p, SW, RW))
}

/// The small config: two lanes, four IMEM entries, spec defaults otherwise.
pub fn small_config() -> Config {
    Config { num_alus: NUM_ALUS as u32, imem_depth: IMEM_DEPTH as u32, ..Config::default() }
}

pub fn cosim_params() -> BistParams {
    BistParams {
        dut_name: "eu_alu_pipeline".into(),
        board: super::ICEBREAKER,
        cycles: super::DEFAULT_CYCLES,
        expected: None,
        fault_always: false,
    }
}

/// The ALU pipeline alone (its ports give the BIST packing).
pub fn dut_module(cfg: &Config) -> EmittedModule {
    use crate::BlockGen;
    crate::alu_pipeline::Block::emit(cfg).expect("alu_pipeline emits").remove(0)
}
