//! BIST top for the structured branch unit `eu_branch_unit`, built for the small config
//! (`configs/branch_unit-small.toml`: 4 lanes, MAXD = 4, MAXD_CALL = 8 → DW 4, IPW 16, and
//! timing-closure §3.2's THREADS = 4 with `pipe` 0..=2 (the small config: 2); the monomorphised
//! instance (4, 4, THREADS 4)).
//!
//! Stimulus bits (DUT inputs except clk/rst, port order): `req_valid` [0], `req_op` [1..6),
//! `req_ip` [6..22), `req_jip` [22..38), `req_uip` [38..54), `req_pred` [54..58), `req_tid`
//! [58..60) → SW = 60 (padded to 64). Response bits (outputs, port order): `req_ready` [0],
//! `rsp_valid` [1], `rsp_next_ip` [2..18), `rsp_exec_mask` [18..22), `rsp_lane_mask` [22..26),
//! `rsp_pred_mask` [26..30), `rsp_err` [30], `rsp_err_code` [31..36), `rsp_err_type` [36..39),
//! `rsp_warn` [39..41), `rsp_event` [41..47), `thr_lane_mask` [47..63), `fault` [63],
//! `dbg_cnt` [64..92), `dbg_cic` [92..112), `dbg_loop_nest` [112..116), `dbg_tos` [116..216),
//! `rsp_tid` [216..218), `thr_busy` [218..222) → RW = 222.
//!
//! # Stimulus mapping (modelled identically by `sim::bist_models::branch_unit`)
//! After reset every lane is OFF and raw ops would mostly be BAD_OP/BAD_OFFSET/IP_RANGE errors
//! and then a sticky fault. The top shapes the raw fields (`s.x`; `c = s.req_ip`, whose upper
//! bits are used as control randomness):
//! * `req_ip = c[4:0]` (IPs 0..31), `req_valid = s.req_valid | c[7]` (3/4 valid);
//! * `req_op = INIT` if `c[15:13] == 0` (1/8) or (`fault & c[6]`: a faulted unit is re-INITed on
//!   half of its requests); else the raw 5-bit `s.req_op` if `c[12:10] == 0` (illegal ops too);
//!   else `EOT` if `s.req_op[3:0] == 15`, else `s.req_op[3:0]` (the 15 legal ops 0x00..0x0E);
//! * `req_jip`/`req_uip` (each from its own raw field `r`): raw if `r[15:13] == 0` (1/8); else
//!   `-1 - r[2:0]` (−1..−8) if `r[12:11] == 0`; else `r[3:0] + 1` (1..16);
//! * `req_pred = 4'hF` if `c[9] & c[8]` (uniform), else `s.req_pred`;
//! * `req_tid = s.req_tid` (raw: with `pipe` ≥ 1 a request for a thread still in flight is
//!   answered E_BUSY, which the stimulus reaches about once in four back-to-back requests).
//!
//! `fault` (what the re-INIT shaping reads) is the shown state's: the thread of the last
//! written step (timing-closure §3.2, `dbg_*`).

use super::{BistCore, BistParams};
use crate::branch_unit::enc::op;
use crate::branch_unit::{BranchUnit, Config};
use crate::emit::{emit_module, EmitError, EmittedModule};
use rust_hdl::prelude::*;

pub const SW: usize = 64;
pub const RW: usize = 222;
pub const TOP: &str = "eu_bist_branch_unit";

bist_top! {
    pub struct BistBranch {
        core: BistCore<SW, RW> = BistCore::new(p),
        dut: BranchUnit<4, 4, 7, 16, 18, 28, 20, 20, 100, 4, 2, 16, 300, 1220> = BranchUnit::new(cfg.maxd_r(), cfg.maxd_call, 4, cfg.pipe),
        fault_always = Constant::new(p.fault_always),
        k_op_init: Constant<Bits<5>> = Constant::new(op::INIT.into()),
        k_op_eot: Constant<Bits<5>> = Constant::new(op::EOT.into()),
        k_f4: Constant<Bits<4>> = Constant::new(0xF.into()),
        k_z3: Constant<Bits<3>> = Constant::new(0.into()),
        k_z2: Constant<Bits<2>> = Constant::new(0.into()),
        k_one16: Constant<Bits<16>> = Constant::new(1.into()),
        k_m1: Constant<Bits<16>> = Constant::new(0xFFFF.into()),
        k_pall: Constant<Bits<4>> = Constant::new(0xF.into()),
        c: Signal<Local, Bits<16>> = Default::default(),
        op: Signal<Local, Bits<5>> = Default::default(),
        j: Signal<Local, Bits<16>> = Default::default(),
        u: Signal<Local, Bits<16>> = Default::default(),
        jo: Signal<Local, Bits<16>> = Default::default(),
        uo: Signal<Local, Bits<16>> = Default::default(),
    }
    pub fn new(cfg: &Config, p: &BistParams) -> Self;
    #[hdl_gen]
    fn update(&mut self) {
        // Block side: shaped stimulus (see the module docs).
        self.c.next = self.core.stim.val().get_bits::<16>(6);
        self.op.next = self.core.stim.val().get_bits::<5>(1);
        if (self.c.val().get_bits::<3>(13) == self.k_z3.val()) | (self.dut.fault.val() & self.c.val().get_bit(6)) {
            self.op.next = self.k_op_init.val();
        } else if self.c.val().get_bits::<3>(10) != self.k_z3.val() {
            if self.op.val().get_bits::<4>(0) == self.k_f4.val() {
                self.op.next = self.k_op_eot.val();
            } else {
                self.op.next = bit_cast::<5, 4>(self.op.val().get_bits::<4>(0));
            }
        }
        self.j.next = self.core.stim.val().get_bits::<16>(22);
        self.jo.next = self.j.val();
        if self.j.val().get_bits::<3>(13) != self.k_z3.val() {
            if self.j.val().get_bits::<2>(11) == self.k_z2.val() {
                self.jo.next = self.k_m1.val() - bit_cast::<16, 3>(self.j.val().get_bits::<3>(0));
            } else {
                self.jo.next = bit_cast::<16, 4>(self.j.val().get_bits::<4>(0)) + self.k_one16.val();
            }
        }
        self.u.next = self.core.stim.val().get_bits::<16>(38);
        self.uo.next = self.u.val();
        if self.u.val().get_bits::<3>(13) != self.k_z3.val() {
            if self.u.val().get_bits::<2>(11) == self.k_z2.val() {
                self.uo.next = self.k_m1.val() - bit_cast::<16, 3>(self.u.val().get_bits::<3>(0));
            } else {
                self.uo.next = bit_cast::<16, 4>(self.u.val().get_bits::<4>(0)) + self.k_one16.val();
            }
        }
        self.dut.req_valid.next = self.core.stim.val().get_bit(0) | self.c.val().get_bit(7);
        self.dut.req_op.next = self.op.val();
        self.dut.req_tid.next = self.core.stim.val().get_bits::<2>(58);
        self.dut.req_ip.next = bit_cast::<16, 5>(self.c.val().get_bits::<5>(0));
        self.dut.req_jip.next = self.jo.val();
        self.dut.req_uip.next = self.uo.val();
        if self.c.val().get_bit(9) & self.c.val().get_bit(8) {
            self.dut.req_pred.next = self.k_pall.val();
        } else {
            self.dut.req_pred.next = self.core.stim.val().get_bits::<4>(54);
        }
        self.core.resp.next = bit_cast::<RW, 1>(self.dut.req_ready.val().into())
            | (bit_cast::<RW, 1>(self.dut.rsp_valid.val().into()) << 1)
            | (bit_cast::<RW, 16>(self.dut.rsp_next_ip.val()) << 2)
            | (bit_cast::<RW, 4>(self.dut.rsp_exec_mask.val()) << 18)
            | (bit_cast::<RW, 4>(self.dut.rsp_lane_mask.val()) << 22)
            | (bit_cast::<RW, 4>(self.dut.rsp_pred_mask.val()) << 26)
            | (bit_cast::<RW, 1>(self.dut.rsp_err.val().into()) << 30)
            | (bit_cast::<RW, 5>(self.dut.rsp_err_code.val()) << 31)
            | (bit_cast::<RW, 3>(self.dut.rsp_err_type.val()) << 36)
            | (bit_cast::<RW, 2>(self.dut.rsp_warn.val()) << 39)
            | (bit_cast::<RW, 6>(self.dut.rsp_event.val()) << 41)
            | (bit_cast::<RW, 16>(self.dut.lane_mask.val()) << 47)
            | (bit_cast::<RW, 1>(self.dut.fault.val().into()) << 63)
            | (bit_cast::<RW, 28>(self.dut.dbg_cnt.val()) << 64)
            | (bit_cast::<RW, 20>(self.dut.dbg_cic.val()) << 92)
            | (bit_cast::<RW, 4>(self.dut.dbg_loop_nest.val()) << 112)
            | (bit_cast::<RW, 100>(self.dut.dbg_tos.val()) << 116)
            | (bit_cast::<RW, 2>(self.dut.rsp_tid.val()) << 216)
            | (bit_cast::<RW, 4>(self.dut.thr_busy.val()) << 218);
    }
}

/// The config this top is built for: 4 lanes and DW 4 (MAXD ≤ 15, MAXD_CALL ≤ 15), IPW 16,
/// THREADS 4 (timing-closure §1's branch_unit row: small, THREADS ≥ 4), any `pipe`.
pub fn supports(cfg: &Config) -> bool {
    cfg.lanes == 4 && cfg.dw() == 4 && cfg.ipw == 16 && cfg.threads == 4
}

pub fn emit(cfg: &Config, p: &BistParams) -> Result<EmittedModule, EmitError> {
    assert!(supports(cfg), "BIST top of branch_unit is built for 4 lanes, DW 4, IPW 16, 4 threads; got {cfg:?}");
    emit_module(BistBranch::new(cfg, p), TOP, "branch_unit", super::bist_params(p, SW, RW))
}

/// The small config: 4 lanes, MAXD = lanes, MAXD_CALL = 8, IPW 16, 4 threads, pipe 2 (the
/// co-sim variant `t4_p2`: the step over two cycles).
pub fn small_config() -> Config {
    Config { threads: 4, pipe: 2, ..Config::with(4, 0, 8) }
}

pub fn cosim_params() -> BistParams {
    BistParams {
        dut_name: "eu_branch_unit".into(),
        board: super::ICEBREAKER,
        cycles: super::DEFAULT_CYCLES,
        expected: None,
        fault_always: false,
    }
}

/// The branch unit alone (its ports give the BIST packing).
pub fn dut_module(cfg: &Config) -> EmittedModule {
    use crate::BlockGen;
    crate::branch_unit::Block::emit(cfg).expect("branch_unit emits").remove(0)
}
