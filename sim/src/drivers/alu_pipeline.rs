//! Lock-step co-simulation driver for alu_pipeline (shared by tests/alu_pipeline.rs and
//! benches/alu_pipeline.rs): every output port compared with the golden model every cycle.


use crate::cosim::{Dut, In, Out};
use hdl::alu_pipeline::isa::CFG_CTRL;
use crate::golden::alu_pipeline::{cfg_program, Golden, Inputs, Outputs, Params, Row, Scope, TOG_MASK};

// ------------------------------------------------------------------------------------------
// Co-simulation driver

pub struct Ports {
    pub rst: In,
    pub in_valid: In,
    pub in_data: In,
    pub in_pix: In,
    pub in_row: In,
    pub in_nrows_m1: In,
    pub in_iptr: In,
    pub in_ce: In,
    pub in_tag: In,
    pub out_ready: In,
    pub cfg_we: In,
    pub cfg_re: In,
    pub cfg_addr: In,
    pub cfg_wdata: In,
    pub o: Vec<(Out, &'static str)>,
    /// tog_s1..tog_s3 (read back from the RTL by the toggle tests)
    pub tog: [Out; 3],
}

pub struct Sim {
    pub dut: Dut,
    pub g: Golden,
    pub p: Ports,
    pub cycle: u64,
    /// TOGGLE_CNT = 1: (dbg_en, tog ports) of the previous cycle, for the §7.4 property 4 check
    tog_prev: Option<(u8, [u64; 3])>,
    /// edges at which a bank was not enabled and its RTL toggle counter was checked to hold
    pub tog_held_checks: u64,
    /// TOGGLE_CNT = 1: toggles per bank summed over every edge driven by `cycle` (from the RTL
    /// ports; a CTRL clear restarts the port at this edge's toggles, reset edges add nothing)
    pub tog_total: [u64; 3],
}

/// The golden model's parameters of a co-simulation variant, from its config in
/// `hdl::alu_pipeline`'s `cosim_configs` (GATE_STYLE does not change the cycle behaviour, §6.4).
pub fn variant_params(variant: &str) -> Params {
    let c = hdl::registry::cosim_config::<hdl::alu_pipeline::Block>(variant);
    let scope = match c.gate_scope.as_str() {
        "ALL" => Scope::All,
        "FIRST" => Scope::First,
        "NONE" => Scope::None,
        s => panic!("{variant}: gate_scope {s}"),
    };
    Params { num_alus: c.num_alus as usize, imem_depth: c.imem_depth as usize, scope, toggle_cnt: c.toggle_cnt == 1 }
}

const OUT_NAMES: [&str; 32] = [
    "in_ready", "out_valid", "out_data", "out_pix", "out_row", "out_nrows_m1", "out_iptr", "out_ce", "out_tag",
    "cfg_rvalid", "cfg_rdata", "busy", "act_s1", "act_s2", "act_s3", "act_s4", "slots_issued", "slots_skipped",
    "reg_writes", "ce_writes", "groups_done", "tog_s1", "tog_s2", "tog_s3", "dbg_en", "dbg_issue",
    "dbg_issue_pk", "err_sticky", "err_first", "err_any", "", "",
];

impl Sim {
    pub fn new(variant: &str) -> Self {
        let mut dut = Dut::new(&format!("alu_pipeline_{variant}/eu_alu_pipeline"));
        dut.set_label(variant.to_string());
        let o: Vec<(Out, &'static str)> =
            OUT_NAMES.iter().filter(|n| !n.is_empty()).map(|&n| (dut.output(n), n)).collect();
        assert_eq!(o.len(), dut.desc().outputs.len(), "every output port is compared");
        let p = Ports {
            rst: dut.input("rst"),
            in_valid: dut.input("in_valid"),
            in_data: dut.input("in_data"),
            in_pix: dut.input("in_pix"),
            in_row: dut.input("in_row"),
            in_nrows_m1: dut.input("in_nrows_m1"),
            in_iptr: dut.input("in_iptr"),
            in_ce: dut.input("in_ce"),
            in_tag: dut.input("in_tag"),
            out_ready: dut.input("out_ready"),
            cfg_we: dut.input("cfg_we"),
            cfg_re: dut.input("cfg_re"),
            cfg_addr: dut.input("cfg_addr"),
            cfg_wdata: dut.input("cfg_wdata"),
            o,
            tog: [dut.output("tog_s1"), dut.output("tog_s2"), dut.output("tog_s3")],
        };
        let mut s = Self { dut, g: Golden::new(variant_params(variant)), p, cycle: 0, tog_prev: None, tog_held_checks: 0, tog_total: [0; 3] };
        s.reset();
        s
    }

    pub fn reset(&mut self) {
        self.dut.reset(2);
        self.g.reset();
        self.tog_prev = None;
        self.check(&self.g.outputs());
    }

    pub fn check(&mut self, o: &Outputs) {
        let mut e = self.dut.expected();
        for &(port, name) in &self.p.o {
            match name {
                "in_ready" => e.set(port, o.in_ready as u64),
                "out_valid" => e.set(port, o.out_valid as u64),
                "out_data" => {
                    for f in 0..4 {
                        e.set_field(port, 32 * f, 32, o.out_data[f] as u64);
                    }
                    &mut e
                }
                "out_pix" => e.set(port, o.out_pix as u64),
                "out_row" => e.set(port, o.out_row as u64),
                "out_nrows_m1" => e.set(port, o.out_nrows_m1 as u64),
                "out_iptr" => e.set(port, o.out_iptr as u64),
                "out_ce" => e.set(port, o.out_ce as u64),
                "out_tag" => e.set(port, o.out_tag as u64),
                "cfg_rvalid" => e.set(port, o.cfg_rvalid as u64),
                "cfg_rdata" => e.set(port, o.cfg_rdata as u64),
                "busy" => e.set(port, o.busy as u64),
                "act_s1" => e.set(port, o.act[0] as u64),
                "act_s2" => e.set(port, o.act[1] as u64),
                "act_s3" => e.set(port, o.act[2] as u64),
                "act_s4" => e.set(port, o.act[3] as u64),
                "slots_issued" => e.set(port, o.slots_issued as u64),
                "slots_skipped" => e.set(port, o.slots_skipped as u64),
                "reg_writes" => e.set(port, o.reg_writes as u64),
                "ce_writes" => e.set(port, o.ce_writes as u64),
                "groups_done" => e.set(port, o.groups_done as u64),
                "tog_s1" => e.set(port, o.tog[0]),
                "tog_s2" => e.set(port, o.tog[1]),
                "tog_s3" => e.set(port, o.tog[2]),
                "dbg_en" => e.set(port, o.dbg_en as u64),
                "dbg_issue" => e.set(port, o.dbg_issue as u64),
                "dbg_issue_pk" => e.set(port, o.dbg_issue_pk as u64),
                "err_sticky" => e.set(port, o.err_sticky as u64),
                "err_first" => e.set(port, o.err_first as u64),
                "err_any" => e.set(port, o.err_any as u64),
                _ => unreachable!(),
            };
        }
        self.dut.check(&e);
    }

    /// One cycle: compare every output (pre-edge), then clock both with `inp`.
    /// Returns the outputs seen before the edge.
    /// Drives every input port from `inp` (no clock edge): what `cycle` applies, and what a
    /// bench packs for `run_bare`.
    pub fn drive(&mut self, inp: &Inputs) {
        let p = &self.p;
        let d = &mut self.dut;
        d.set(p.in_valid, inp.in_valid as u64);
        for f in 0..4 {
            d.set_field(p.in_data, 32 * f, 32, inp.in_data[f] as u64);
        }
        d.set(p.in_pix, inp.in_pix as u64);
        d.set(p.in_row, inp.in_row as u64);
        d.set(p.in_nrows_m1, inp.in_nrows_m1 as u64);
        d.set(p.in_iptr, inp.in_iptr as u64);
        d.set(p.in_ce, inp.in_ce as u64);
        d.set(p.in_tag, inp.in_tag as u64);
        d.set(p.out_ready, inp.out_ready as u64);
        d.set(p.cfg_we, inp.cfg_we as u64);
        d.set(p.cfg_re, inp.cfg_re as u64);
        d.set(p.cfg_addr, inp.cfg_addr as u64);
        d.set(p.cfg_wdata, inp.cfg_wdata as u64);
    }

    pub fn cycle(&mut self, inp: &Inputs) -> Outputs {
        let o = self.g.outputs();
        self.check(&o);
        if self.g.prm.toggle_cnt {
            // §7.4 property 4 on the RTL counters: a bank that was not enabled at an edge adds
            // no toggles (its counter holds, or restarts at 0 after a CTRL clear)
            let t = self.tog_ports();
            if let Some((en, tp)) = self.tog_prev {
                for b in 0..3 {
                    if (en >> b) & 1 == 0 {
                        assert!(t[b] == tp[b] || t[b] == 0, "tog_s{} moved at an edge with en{} = 0 (cycle {})", b + 1, b + 1, self.cycle);
                        self.tog_held_checks += 1;
                    }
                }
            }
            self.tog_prev = Some((o.dbg_en, t));
        }
        let tog_before = if self.g.prm.toggle_cnt { self.tog_ports() } else { [0; 3] };
        self.drive(inp);
        self.dut.tick();
        self.g.step(inp);
        self.cycle += 1;
        if self.g.prm.toggle_cnt {
            let after = self.tog_ports();
            let cleared = inp.cfg_we && inp.cfg_addr as u32 == CFG_CTRL && inp.cfg_wdata & 1 == 1;
            for b in 0..3 {
                self.tog_total[b] += if cleared { after[b] } else { after[b].wrapping_sub(tog_before[b]) & TOG_MASK };
            }
        }
        o
    }

    pub fn cfg_write(&mut self, addr: u32, data: u32) {
        self.cycle(&Inputs { cfg_we: true, cfg_addr: addr as u16, cfg_wdata: data, out_ready: true, ..Default::default() });
    }

    pub fn idle(&mut self, n: usize) {
        for _ in 0..n {
            self.cycle(&Inputs { out_ready: true, ..Default::default() });
        }
    }

    fn _rst_port(&self) -> In {
        self.p.rst
    }
}

/// What a group run observed (all of it also checked port-by-port against the golden model).
pub struct Log {
    pub rows: Vec<(u64, Row)>,
    /// dbg_en from the first issue cycle on
    pub dbg: Vec<u8>,
    pub fin: Outputs,
    pub first_issue: u64,
    /// the RTL's tog_s1..3 ports from the first issue cycle on (pre-edge, as dbg)
    pub tog: Vec<[u64; 3]>,
}

impl Log {
    /// Toggles bank s (0..3) added at the edge ending cycle c (c counted from the first issue),
    /// from the RTL's counter ports.
    pub fn tog_at(&self, c: usize, s: usize) -> u64 {
        self.tog[c + 1][s] - self.tog[c][s]
    }
}

impl Sim {
    pub fn tog_ports(&self) -> [u64; 3] {
        [self.dut.get(self.p.tog[0]), self.dut.get(self.p.tog[1]), self.dut.get(self.p.tog[2])]
    }
}

pub fn row_inputs(r: &Row) -> Inputs {
    Inputs {
        in_valid: true,
        in_data: r.data,
        in_pix: r.pix,
        in_row: r.row,
        in_nrows_m1: r.nrows_m1,
        in_iptr: r.iptr,
        in_ce: r.ce,
        in_tag: r.tag,
        ..Default::default()
    }
}

/// Streams `rows` (held until accepted) with out_ready = ready(c), runs until idle.
pub fn run_rows(s: &mut Sim, rows: &[Row], ready: &dyn Fn(u64) -> bool) -> Log {
    let mut next = 0;
    let mut log = Log { rows: vec![], dbg: vec![], fin: Outputs::default(), first_issue: 0, tog: vec![] };
    let mut started = false;
    let mut c = 0u64;
    loop {
        let o = s.g.outputs();
        if next >= rows.len() && !o.busy {
            break;
        }
        assert!(c < 200_000, "run did not finish");
        let mut inp = if next < rows.len() { row_inputs(&rows[next]) } else { Inputs::default() };
        inp.out_ready = ready(c);
        if o.in_ready && inp.in_valid {
            next += 1;
        }
        if o.dbg_issue && !started {
            started = true;
            log.first_issue = c;
        }
        if started {
            log.dbg.push(o.dbg_en);
            log.tog.push(s.tog_ports());
        }
        if o.out_valid && inp.out_ready {
            let r = Row {
                data: o.out_data,
                pix: o.out_pix,
                row: o.out_row,
                nrows_m1: o.out_nrows_m1,
                iptr: o.out_iptr,
                ce: o.out_ce,
                tag: o.out_tag,
            };
            log.rows.push((c, r));
        }
        s.cycle(&inp);
        c += 1;
    }
    log.fin = s.g.outputs();
    s.check(&log.fin);
    log
}

pub fn load_program(s: &mut Sim, imem: &[[u32; 5]], g: &[(usize, u32)], k: &[(usize, u32)]) {
    for (a, d) in cfg_program(imem, g, k) {
        s.cfg_write(a as u32, d);
    }
}
