//! Lock-step co-simulation driver for branch_unit (shared by tests/branch_unit.rs and
//! benches/branch_unit.rs): drives a request and compares every output port, `dbg_*` included,
//! with the golden model's answer and state, for any IPW. The stacks: every live entry
//! `STK[t][1..CIC[t]]` of every type on `dbg_stk` (spec §6.4: entries above `CIC[t]` are dead
//! and never compared); a mismatch names the type and entry.


use crate::cosim::{Dut, In, Out as Port};
use crate::golden::branch_unit::{Cfg, Instr, Out, State};

pub struct Sbu {
    pub dut: Dut,
    pub cfg: Cfg,
    i_valid: In,
    i_op: In,
    i_ip: In,
    i_jip: In,
    i_uip: In,
    i_pred: In,
    o: [Port; 14],
    /// `lane_mask` (one thread; with more it is `thr_lane_mask`, checked by [`SbuMt`]).
    o_lane: Option<Port>,
    o_rsp_tid: Option<Port>,
    o_thr_busy: Option<Port>,
    o_cnt: Port,
    o_tos: Port,
    o_stk: Port,
}

/// Type names in `dbg_cic` / `dbg_stk` order (for mismatch messages).
pub const TYPE_NAMES: [&str; 5] = ["IF", "LOOP", "CALL", "BR", "HALT"];

const OUTS: [&str; 14] = [
    "req_ready", "rsp_valid", "rsp_next_ip", "rsp_exec_mask", "rsp_lane_mask", "rsp_pred_mask", "rsp_err",
    "rsp_err_code", "rsp_err_type", "rsp_warn", "rsp_event", "fault", "dbg_cic", "dbg_loop_nest",
];

impl Sbu {
    pub fn new(variant: &str, cfg: Cfg) -> Self {
        let dut = Dut::new(&format!("branch_unit_{variant}/eu_branch_unit"));
        assert_eq!(dut.param("lanes"), cfg.n.to_string());
        assert_eq!(dut.param("maxd"), cfg.maxd.to_string());
        assert_eq!(dut.param("maxd_call"), cfg.maxd_call.to_string());
        assert_eq!(dut.param("dw"), cfg.dw().to_string());
        assert_eq!(dut.param("ipw"), cfg.ipw.to_string());
        let o = OUTS.map(|n| dut.output(n));
        let mut s = Self {
            i_valid: dut.input("req_valid"),
            i_op: dut.input("req_op"),
            i_ip: dut.input("req_ip"),
            i_jip: dut.input("req_jip"),
            i_uip: dut.input("req_uip"),
            i_pred: dut.input("req_pred"),
            o,
            o_lane: dut.try_output("lane_mask"),
            o_rsp_tid: dut.try_output("rsp_tid"),
            o_thr_busy: dut.try_output("thr_busy"),
            o_cnt: dut.output("dbg_cnt"),
            o_tos: dut.output("dbg_tos"),
            o_stk: dut.output("dbg_stk"),
            dut,
            cfg,
        };
        s.dut.reset(1);
        s
    }

    /// Compares every output port with the golden step (`out`, state after `s`).
    pub fn expect(&mut self, valid: bool, out: &Out, s: &State) {
        let e = self.expected_ports(valid.then_some(out), s);
        self.dut.check(&e);
    }

    /// The expected ports of the one-thread unit: the response `out` (none: an idle cycle, all
    /// zero) and the state `s` on `dbg_*`, `fault` and `lane_mask`.
    pub fn expected_ports(&self, out: Option<&Out>, s: &State) -> crate::cosim::Expected {
        let c = self.cfg;
        let (dcnt, dtos) = (self.o_cnt, self.o_tos);
        let mut e = self.dut.expected();
        let o = &self.o;
        e.set(o[0], 1).set(o[1], out.is_some() as u64);
        if let Some(out) = out {
            e.set(o[2], out.next_ip)
                .set(o[3], out.exec_mask)
                .set(o[4], out.lane_mask)
                .set(o[5], out.pred_mask)
                .set(o[6], out.err as u64)
                .set(o[7], out.err_code)
                .set(o[8], out.err_type)
                .set(o[9], out.warn)
                .set(o[10], out.event);
        } else {
            for p in &o[2..11] {
                e.set(*p, 0);
            }
        }
        if let Some(l) = self.o_lane {
            e.set(l, s.e());
        }
        // timing-closure §3.2 ports: this driver leaves `req_tid` at 0 and runs LAT 1 (no
        // thread ever busy); [`SbuMt`] overrides both from its threaded golden model
        for p in [self.o_rsp_tid, self.o_thr_busy].into_iter().flatten() {
            e.set(p, 0);
        }
        e.set(o[11], s.fault as u64);
        let dw = c.dw() as usize;
        let mut cic = 0u64;
        for t in (0..5).rev() {
            cic = cic << dw | s.cic[t] as u64;
        }
        e.set(o[12], cic).set(o[13], s.loop_nest as u64);
        let cw = c.cw() as usize;
        for (n, &v) in s.cnt.iter().enumerate() {
            e.set_field(dcnt, n * cw, cw, v as u64);
        }
        // entry t = {ip[IPW], aux[DW]} at bit t*(IPW+DW)
        let ipw = c.ipw as usize;
        let ew = ipw + dw;
        for t in 0..5 {
            let en = s.tos_view(t);
            e.set_field(dtos, t * ew, dw, en.aux as u64).set_field(dtos, t * ew + dw, ipw, en.ip);
        }
        self.expect_stacks(&mut e, s);
        e
    }

    /// Where entry slot `j` of type `t` is on `dbg_stk` (its lsb): sections of `(2^DW-1)` entries
    /// for IF, LOOP, CALL, BR from bit 0 up, then HALT's one entry; slot j is the j-th entry
    /// from the top, `STK[t][CIC[t]-j]`.
    pub fn stk_slot_lsb(&self, t: usize, j: usize) -> usize {
        let (dw, ew) = (self.cfg.dw() as usize, self.cfg.ipw as usize + self.cfg.dw() as usize);
        (t * ((1 << dw) - 1) + j) * ew
    }

    /// `dbg_stk` as the RTL shows it now: entry `d` (1-based, the spec's `STK[t][d]`) of type `t`
    /// for the given CIC, as `(ip, aux)`.
    pub fn rtl_entry(&self, t: usize, cic: u32, d: u32) -> (u64, u32) {
        let (dw, ipw) = (self.cfg.dw() as usize, self.cfg.ipw as usize);
        let lsb = self.stk_slot_lsb(t, (cic - d) as usize);
        (self.dut.get_field(self.o_stk, lsb + dw, ipw), self.dut.get_field(self.o_stk, lsb, dw) as u32)
    }

    /// `dbg_stk`: entries 1..CIC[t] of every type from the golden state `s`, the dead slots (from
    /// CIC[t] up to MAXD_t) as the model shows them, the slots from MAXD_t up 0. Each live entry
    /// that differs is noted by type and entry for the mismatch message.
    fn expect_stacks(&self, e: &mut crate::cosim::Expected, s: &State) {
        let c = self.cfg;
        let (dw, ipw) = (c.dw() as usize, c.ipw as usize);
        let ew = ipw + dw;
        let stk = self.o_stk;
        e.keep_actual(&self.dut, stk);
        for t in 0..5 {
            let slots = if t == 4 { 1 } else { (1 << dw) - 1 };
            for j in c.maxd_of(t)..slots {
                e.set_field(stk, self.stk_slot_lsb(t, j), ew, 0);
            }
            let cic = s.cic[t];
            for d in 1..=cic {
                let g = s.stk[t][d as usize - 1];
                let lsb = self.stk_slot_lsb(t, (cic - d) as usize);
                e.set_field(stk, lsb, dw, g.aux as u64).set_field(stk, lsb + dw, ipw, g.ip);
                let (ip, aux) = self.rtl_entry(t, cic, d);
                if (ip, aux) != (g.ip, g.aux) {
                    e.note(format!(
                        "STK[{}] entry {d} of CIC {cic} (dbg_stk slot {}): expected {{ip {:#x}, aux {}}} actual {{ip {ip:#x}, aux {aux}}}",
                        TYPE_NAMES[t],
                        cic - d,
                        g.ip,
                        g.aux
                    ));
                }
            }
        }
    }

    pub fn drive(&mut self, i: &Instr, pred: u64) {
        self.dut.set(self.i_valid, 1);
        self.dut.set(self.i_op, i.op);
        self.dut.set(self.i_ip, i.ip);
        // offsets are signed IPW-bit fields: two's complement, truncated to IPW bits
        let ip_mask = ip_mask(&self.cfg);
        self.dut.set(self.i_jip, (i.jip as u64) & ip_mask);
        self.dut.set(self.i_uip, (i.uip as u64) & ip_mask);
        self.dut.set(self.i_pred, pred & self.cfg.nmask());
        self.dut.tick();
    }

    pub fn step(&mut self, i: &Instr, pred: u64, out: &Out, after: &State) {
        self.drive(i, pred);
        self.expect(true, out, after);
    }

    pub fn idle(&mut self, s: &State) {
        self.dut.set(self.i_valid, 0);
        self.dut.tick();
        self.expect(false, &Out::default(), s);
    }
}

/// `2^IPW - 1`: the last IP, and the mask of an IPW-bit field.
pub fn ip_mask(cfg: &Cfg) -> u64 {
    (cfg.imem_depth() - 1) as u64
}


/// Cycle-by-cycle co-simulation of a multi-threaded / pipelined branch unit (timing-closure
/// §3.2) against [`Threads`](crate::golden::branch_unit::threads::Threads): every output port,
/// `thr_busy`, `rsp_tid`, the per-thread lane masks and `dbg_*` included, every cycle.
pub struct SbuMt {
    pub sbu: Sbu,
    pub gold: crate::golden::branch_unit::threads::Threads,
    i_tid: In,
    o_tid: Port,
    o_busy: Port,
    o_masks: Port,
}

impl SbuMt {
    pub fn new(variant: &str, cfg: Cfg, threads: usize, pipe: usize) -> Self {
        let sbu = Sbu::new(variant, cfg);
        assert_eq!(sbu.dut.param("threads"), threads.to_string());
        assert_eq!(sbu.dut.param("pipe"), pipe.to_string());
        let mask_port = if threads > 1 { "thr_lane_mask" } else { "lane_mask" };
        Self {
            i_tid: sbu.dut.input("req_tid"),
            o_tid: sbu.dut.output("rsp_tid"),
            o_busy: sbu.dut.output("thr_busy"),
            o_masks: sbu.dut.output(mask_port),
            gold: crate::golden::branch_unit::threads::Threads::new(cfg, threads, pipe),
            sbu,
        }
    }
    /// One cycle with `req` (or an idle cycle); checks every port after the edge.
    pub fn cycle(&mut self, req: Option<crate::golden::branch_unit::threads::Request>) -> crate::golden::branch_unit::threads::Ports {
        match req {
            Some(r) => {
                self.sbu.dut.set(self.i_tid, r.tid as u64);
                self.sbu.drive(&r.instr, r.pred);
            }
            None => {
                self.sbu.dut.set(self.sbu.i_valid, 0);
                self.sbu.dut.tick();
            }
        }
        let p = self.gold.tick(req);
        self.check(&p);
        p
    }
    fn check(&mut self, p: &crate::golden::branch_unit::threads::Ports) {
        let c = self.sbu.cfg;
        let mut e = self.sbu.expected_ports(p.rsp.map(|r| r.1).as_ref(), &p.dbg);
        e.set(self.o_tid, p.rsp.map_or(0, |r| r.0 as u64)).set(self.o_busy, p.busy);
        for (k, &m) in p.lane_masks.iter().enumerate() {
            e.set_field(self.o_masks, k * c.n, c.n, m);
        }
        self.sbu.dut.check(&e);
    }
    /// Synchronous reset of both (one cycle with `rst` high), then checks the idle ports.
    pub fn reset(&mut self) {
        self.sbu.dut.set(self.sbu.i_valid, 0);
        self.sbu.dut.reset(1);
        self.gold.reset();
        let p = self.gold.out();
        self.check(&p);
    }
}
