//! ALU pipeline cycle models for the BIST top `hdl::bist::alu_pipeline`.

use super::{bits, put, Words};
use crate::bist::{CycleModel, Layout};
use crate::golden::alu_pipeline::{isa, Golden, Inputs, Params, Scope};
use hdl::alu_pipeline::enc;

/// The golden ALU pipeline on the raw ports. Every output is Moore (spec §7.3), so the Mealy
/// sample is `outputs()` of the pre-edge state.
pub struct AluCycles {
    pub g: Golden,
    w: Words,
    /// Coverage: cycles, rows accepted / emitted, slots issued and live (en1), register/G write
    /// slots (we4), groups completed, OR of every error code seen in `err_sticky`.
    pub cycles: u64,
    pub rows_in: u64,
    pub rows_out: u64,
    pub issued: u64,
    pub live: u64,
    pub write_slots: u64,
    pub groups: u64,
    pub cfg_writes: u64,
    pub err_seen: u16,
}

fn params(cfg: &hdl::alu_pipeline::Config) -> Params {
    let scope = match cfg.gate_scope.as_str() {
        "FIRST" => Scope::First,
        "NONE" => Scope::None,
        _ => Scope::All,
    };
    Params { num_alus: cfg.num_alus as usize, imem_depth: cfg.imem_depth as usize, scope, toggle_cnt: cfg.toggle_cnt == 1 }
}

impl AluCycles {
    pub fn new(cfg: &hdl::alu_pipeline::Config) -> Self {
        let dut = hdl::bist::alu_pipeline::dut_module(cfg);
        AluCycles {
            g: Golden::new(params(cfg)),
            w: Words::of(&Layout::of(&dut)),
            cycles: 0,
            rows_in: 0,
            rows_out: 0,
            issued: 0,
            live: 0,
            write_slots: 0,
            groups: 0,
            cfg_writes: 0,
            err_seen: 0,
        }
    }
}

impl CycleModel for AluCycles {
    fn reset(&mut self) {
        self.g.reset();
    }
    fn step(&mut self, i: &[u32], o: &mut [u32]) {
        let w = &self.w;
        let one = |n: &str| i[w.i(n)] & 1 == 1;
        let d = w.i("in_data");
        let inp = Inputs {
            in_valid: one("in_valid"),
            in_data: [i[d], i[d + 1], i[d + 2], i[d + 3]],
            in_pix: i[w.i("in_pix")] as u8,
            in_row: i[w.i("in_row")] as u8,
            in_nrows_m1: i[w.i("in_nrows_m1")] as u8,
            in_iptr: i[w.i("in_iptr")] as u8,
            in_ce: one("in_ce"),
            in_tag: i[w.i("in_tag")] as u8,
            out_ready: one("out_ready"),
            cfg_we: one("cfg_we"),
            cfg_re: one("cfg_re"),
            cfg_addr: i[w.i("cfg_addr")] as u16,
            cfg_wdata: i[w.i("cfg_wdata")],
        };
        let r = self.g.outputs();
        o[w.o("in_ready")] = r.in_ready as u32;
        o[w.o("out_valid")] = r.out_valid as u32;
        o[w.o("out_data")..w.o("out_data") + 4].copy_from_slice(&r.out_data);
        o[w.o("out_pix")] = r.out_pix as u32;
        o[w.o("out_row")] = r.out_row as u32;
        o[w.o("out_nrows_m1")] = r.out_nrows_m1 as u32;
        o[w.o("out_iptr")] = r.out_iptr as u32;
        o[w.o("out_ce")] = r.out_ce as u32;
        o[w.o("out_tag")] = r.out_tag as u32;
        o[w.o("cfg_rvalid")] = r.cfg_rvalid as u32;
        o[w.o("cfg_rdata")] = r.cfg_rdata;
        o[w.o("busy")] = r.busy as u32;
        for (s, v) in r.act.iter().enumerate() {
            o[w.o(&format!("act_s{}", s + 1))] = *v;
        }
        o[w.o("slots_issued")] = r.slots_issued;
        o[w.o("slots_skipped")] = r.slots_skipped;
        o[w.o("reg_writes")] = r.reg_writes;
        o[w.o("ce_writes")] = r.ce_writes;
        o[w.o("groups_done")] = r.groups_done;
        for (s, v) in r.tog.iter().enumerate() {
            put(o, w.o(&format!("tog_s{}", s + 1)), 0, 48, *v);
        }
        o[w.o("dbg_en")] = r.dbg_en as u32;
        o[w.o("dbg_issue")] = r.dbg_issue as u32;
        o[w.o("dbg_issue_pk")] = r.dbg_issue_pk as u32;
        o[w.o("err_sticky")] = r.err_sticky as u32;
        o[w.o("err_first")] = r.err_first;
        o[w.o("err_any")] = r.err_any as u32;
        self.cycles += 1;
        self.rows_in += (inp.in_valid && r.in_ready) as u64;
        self.rows_out += (r.out_valid && inp.out_ready) as u64;
        self.issued += r.dbg_issue as u64;
        self.live += (r.dbg_en & 1) as u64;
        self.write_slots += (r.dbg_en >> 3 & 1) as u64;
        self.cfg_writes += inp.cfg_we as u64;
        self.err_seen |= r.err_sticky;
        // A group is done when its last row (P3, row R−1) leaves.
        self.groups += (r.out_valid && inp.out_ready && r.out_pix == 3 && r.out_row == r.out_nrows_m1) as u64;
        self.g.step(&inp);
    }
}

/// The BIST top's stimulus shaping (module docs of `hdl::bist::alu_pipeline`), then [`AluCycles`].
pub struct AluBist {
    pub inner: AluCycles,
    num_alus: u32,
    /// The top's own registers: program-load counter, row index, group R−1 and iptr base.
    ld: u32,
    n: u32,
    rm1: u32,
    base: u32,
    /// The shaped inputs of the last step (what the top drives into the DUT).
    pub shaped: Vec<u32>,
}

impl AluBist {
    pub fn new(cfg: &hdl::alu_pipeline::Config) -> Self {
        // The top is built for the small config only; the shaping is modelled for any config with
        // IMEM_DEPTH >= 4 (cxw_src = raw & (NUM_ALUS - 1) stays legal), to drive plain models.
        assert!(cfg.imem_depth >= 4, "AluBist: IMEM_DEPTH >= 4");
        AluBist { inner: AluCycles::new(cfg), num_alus: cfg.num_alus, ld: 0, n: 0, rm1: 0, base: 0, shaped: Vec::new() }
    }
}

/// The top's legal lane word made from a raw word.
fn lane_word(raw: u32) -> u32 {
    let mut dst = bits(raw, 24, 5);
    if dst >> 3 == 3 && dst != enc::src::DST_NONE as u32 {
        dst &= 0xF;
    }
    let op = if raw & 0xF == enc::op::ILLEGAL as u32 { enc::op::ADD as u32 } else { raw & 0xF };
    (raw & 0x00FF_FFF0) | dst << 24 | op
}

/// The top's legal control word made from a raw word.
fn ctrl_word(raw: u32, num_alus: u32) -> u32 {
    let func = if bits(raw, 3, 2) == enc::cxw_fn::ILLEGAL as u32 { enc::cxw_fn::AND as u32 } else { bits(raw, 3, 2) };
    let mask_t = bits(raw, 5, 4);
    (raw & 1) | (bits(raw, 1, 2) & (num_alus - 1)) << 1 | func << 3 | mask_t << 5 | (bits(raw, 9, 4) & !mask_t) << 9
}

impl CycleModel for AluBist {
    fn reset(&mut self) {
        self.inner.reset();
        (self.ld, self.n, self.rm1, self.base) = (0, 0, 0, 0);
    }
    fn step(&mut self, i: &[u32], o: &mut [u32]) {
        let mut b = super::shaping_copy(&mut self.shaped, i);
        let w = &self.inner.w;
        let (nr, ip, ce, tag) = (i[w.i("in_nrows_m1")], i[w.i("in_iptr")], i[w.i("in_ce")], i[w.i("in_tag")]);
        let c = nr | ip << 2 | ce << 7 | tag << 8;
        let raw = i[w.i("cfg_wdata")];
        let a = i[w.i("cfg_addr")];
        let valid;
        if self.ld < hdl::bist::alu_pipeline::LOAD_CYCLES as u32 {
            let wd = self.ld & 7;
            b[w.i("cfg_we")] = (wd < 5) as u32;
            b[w.i("cfg_re")] = 0;
            b[w.i("cfg_addr")] = self.ld;
            b[w.i("cfg_wdata")] = if wd == 4 {
                ctrl_word(raw, self.num_alus)
            } else if wd < self.num_alus {
                lane_word(raw)
            } else {
                0
            };
            valid = false;
            self.ld += 1;
        } else {
            let ctrl_write = bits(a, 0, 7) == 0;
            b[w.i("cfg_we")] = ctrl_write as u32;
            b[w.i("cfg_re")] = i[w.i("cfg_we")] & i[w.i("cfg_re")];
            if ctrl_write {
                b[w.i("cfg_addr")] = isa::CFG_CTRL;
                b[w.i("cfg_wdata")] = bits(raw, 0, 2);
            } else {
                let wr = if bits(a, 0, 3) >= 5 { bits(a, 0, 3) - 4 } else { bits(a, 0, 3) };
                b[w.i("cfg_addr")] =
                    if bits(a, 8, 1) == 1 { isa::CFG_G | bits(a, 0, 4) } else { bits(a, 3, 2) << 3 | wr };
            }
            valid = i[w.i("in_valid")] & 1 == 1 || bits(c, 15, 1) == 1;
        }
        let (r_now, b_now) = if self.n != 0 {
            (self.rm1, self.base)
        } else {
            (if bits(c, 2, 2) != 0 { 3 } else { bits(c, 0, 2) }, bits(c, 4, 2))
        };
        b[w.i("in_valid")] = valid as u32;
        b[w.i("in_nrows_m1")] = r_now;
        if bits(c, 9, 6) != 0 {
            b[w.i("in_pix")] = self.n & 3;
            b[w.i("in_row")] = self.n >> 2;
            b[w.i("in_iptr")] = (b_now + (self.n >> 2)) & 3;
        }
        b[w.i("in_ce")] = bits(c, 7, 1) | bits(c, 8, 1);
        b[w.i("out_ready")] = i[w.i("out_ready")] | (a & 1);
        if valid && self.inner.g.outputs().in_ready {
            if self.n == 0 {
                self.rm1 = r_now;
                self.base = b_now;
            }
            self.n = if self.n == (r_now << 2 | 3) { 0 } else { self.n + 1 };
        }
        self.inner.step(&b, o);
        self.shaped = b;
    }
}

/// This block's entry in the BIST registry (`super::registry`).
pub fn entry() -> super::BistEntry {
    super::entry_of("alu_pipeline", &["small"], |all| all.alu_pipeline, hdl::bist::alu_pipeline::dut_module, |c| Box::new(AluBist::new(c)), hdl::bist::alu_pipeline::emit)
}
