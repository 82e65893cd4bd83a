//! Branch unit cycle models for the BIST top `hdl::bist::branch_unit`.

use super::{bits, put, Words};
use crate::bist::{CycleModel, Layout};
use crate::golden::branch_unit::threads::{Request, Threads};
use crate::golden::branch_unit::{op, Cfg, Instr};

/// The golden branch unit on the raw ports: timing-closure §3.2's [`Threads`] (one golden state
/// per thread behind LAT = 1 + `pipe` stages). Mealy view: `step` writes the ports as they are
/// in this cycle (before the edge), then takes the cycle's request.
pub struct BranchCycles {
    pub cfg: Cfg,
    pub t: Threads,
    /// The `lane_mask` port's name: `thr_lane_mask` with more than one thread (§3.2).
    w: Words,
    mask_port: &'static str,
    /// Requests, and those that reported an error / ran with the unit faulted (coverage).
    pub reqs: u64,
    pub errs: u64,
    pub faulted: u64,
    /// Requests answered E_BUSY (their thread still in flight).
    pub busy: u64,
    pub cycles: u64,
    /// Events seen (by code).
    pub events: [u64; 64],
}

/// The DUT as the BIST top sees it: every port but `dbg_stk`, the co-simulation's state tap
/// (every stack entry, issue 18), which the top leaves open (so synthesis drops the registers
/// behind it and the response layout is the one documented in `hdl::bist::branch_unit`). Its
/// live entries are compared by the co-simulation (`drivers::branch_unit`), not here.
pub fn bist_dut(cfg: &hdl::branch_unit::Config) -> hdl::EmittedModule {
    let mut m = hdl::bist::branch_unit::dut_module(cfg);
    m.ports.retain(|p| p.name != "dbg_stk");
    m
}

impl BranchCycles {
    pub fn new(cfg: &hdl::branch_unit::Config) -> Self {
        let dut = bist_dut(cfg);
        let c = Cfg { n: cfg.lanes, maxd: cfg.maxd_r(), maxd_call: cfg.maxd_call, ipw: cfg.ipw as u32 };
        BranchCycles {
            cfg: c,
            t: Threads::new(c, cfg.threads, cfg.pipe),
            w: Words::of(&Layout::of(&dut)),
            mask_port: if cfg.threads > 1 { "thr_lane_mask" } else { "lane_mask" },
            reqs: 0,
            errs: 0,
            faulted: 0,
            busy: 0,
            cycles: 0,
            events: [0; 64],
        }
    }
    /// `fault` as the port shows it now (the shown state's: the thread of the last written step).
    pub fn fault(&self) -> bool {
        self.t.out().dbg.fault
    }
}

fn sext16(x: u32) -> i64 {
    (x as u16 as i16) as i64
}

impl CycleModel for BranchCycles {
    fn reset(&mut self) {
        self.t.reset();
    }
    fn step(&mut self, i: &[u32], o: &mut [u32]) {
        let w = &self.w;
        let c = self.cfg;
        let p = self.t.out();
        let r = p.rsp.map(|r| r.1).unwrap_or_default();
        o[w.o("req_ready")] = 1;
        o[w.o("rsp_valid")] = p.rsp.is_some() as u32;
        o[w.o("rsp_next_ip")] = r.next_ip as u32;
        o[w.o("rsp_exec_mask")] = r.exec_mask as u32;
        o[w.o("rsp_lane_mask")] = r.lane_mask as u32;
        o[w.o("rsp_pred_mask")] = r.pred_mask as u32;
        o[w.o("rsp_err")] = r.err as u32;
        o[w.o("rsp_err_code")] = r.err_code as u32;
        o[w.o("rsp_err_type")] = r.err_type as u32;
        o[w.o("rsp_warn")] = r.warn as u32;
        o[w.o("rsp_event")] = r.event as u32;
        for (k, &m) in p.lane_masks.iter().enumerate() {
            put(o, w.o(self.mask_port), k * c.n, c.n, m);
        }
        let s = &p.dbg;
        o[w.o("fault")] = s.fault as u32;
        o[w.o("rsp_tid")] = p.rsp.map_or(0, |r| r.0 as u32);
        o[w.o("thr_busy")] = p.busy as u32;
        let (dw, cw) = (c.dw() as usize, c.cw() as usize);
        for (n, &v) in s.cnt.iter().enumerate() {
            put(o, w.o("dbg_cnt"), n * cw, cw, v as u64);
        }
        for t in 0..5 {
            put(o, w.o("dbg_cic"), t * dw, dw, s.cic[t] as u64);
        }
        o[w.o("dbg_loop_nest")] = s.loop_nest;
        let ew = 16 + dw;
        for t in 0..5 {
            let e = s.tos_view(t);
            put(o, w.o("dbg_tos"), t * ew, dw, e.aux as u64);
            put(o, w.o("dbg_tos"), t * ew + dw, 16, e.ip);
        }
        self.cycles += 1;
        let req = (i[w.i("req_valid")] & 1 == 1).then(|| Request {
            tid: i[w.i("req_tid")] as usize % self.t.threads(),
            instr: Instr::new(
                i[w.i("req_op")] as u64,
                bits(i[w.i("req_ip")], 0, 16) as u64,
                sext16(i[w.i("req_jip")]),
                sext16(i[w.i("req_uip")]),
            ),
            pred: i[w.i("req_pred")] as u64,
        });
        if let Some(r) = req {
            self.reqs += 1;
            self.faulted += self.t.states[r.tid].fault as u64;
            self.busy += (self.t.busy() >> r.tid & 1) as u64;
        }
        // the response of a request shows LAT cycles later: count its error and event then
        if let Some((_, out)) = self.t.tick(req).rsp {
            self.errs += out.err as u64;
            self.events[out.event as usize & 63] += 1;
        }
    }
}

/// The BIST top's stimulus shaping (module docs of `hdl::bist::branch_unit`), then [`BranchCycles`].
pub struct BranchBist {
    pub inner: BranchCycles,
    buf: Vec<u32>,
}

impl BranchBist {
    pub fn new(cfg: &hdl::branch_unit::Config) -> Self {
        BranchBist { inner: BranchCycles::new(cfg), buf: Vec::new() }
    }
}

fn offset(r: u32) -> u32 {
    if bits(r, 13, 3) == 0 {
        r
    } else if bits(r, 11, 2) == 0 {
        0xFFFF - bits(r, 0, 3)
    } else {
        bits(r, 0, 4) + 1
    }
}

impl CycleModel for BranchBist {
    fn reset(&mut self) {
        self.inner.reset();
    }
    fn step(&mut self, i: &[u32], o: &mut [u32]) {
        let mut b = super::shaping_copy(&mut self.buf, i);
        let w = &self.inner.w;
        let c = i[w.i("req_ip")];
        let raw_op = i[w.i("req_op")];
        b[w.i("req_op")] = if bits(c, 13, 3) == 0 || (self.inner.fault() && bits(c, 6, 1) == 1) {
            op::INIT as u32
        } else if bits(c, 10, 3) == 0 {
            raw_op
        } else if bits(raw_op, 0, 4) == 15 {
            op::EOT as u32
        } else {
            bits(raw_op, 0, 4)
        };
        b[w.i("req_jip")] = offset(i[w.i("req_jip")]);
        b[w.i("req_uip")] = offset(i[w.i("req_uip")]);
        b[w.i("req_valid")] = i[w.i("req_valid")] | bits(c, 7, 1);
        b[w.i("req_ip")] = bits(c, 0, 5);
        if bits(c, 8, 2) == 3 {
            b[w.i("req_pred")] = 0xF;
        }
        self.inner.step(&b, o);
        self.buf = b;
    }
}

/// This block's entry in the BIST registry (`super::registry`).
pub fn entry() -> super::BistEntry {
    super::entry_of("branch_unit", &["small"], |all| all.branch_unit, bist_dut, |c| Box::new(BranchBist::new(c)), hdl::bist::branch_unit::emit)
}
