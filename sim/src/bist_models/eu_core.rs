//! Cycle model of the eu_core BIST wrapper `hdl::bist::eu_core::KernelRun`: the data-memory rows
//! loaded from the stimulus, kernel 1 at BIST size run on the ISA-level model
//! (`golden::eu_core`), and the result rows in the read-back window (zero at every other cycle).

use crate::bist::CycleModel;
use crate::golden::eu_core::{Config, Model, Program, Run};
use hdl::bist::eu_core::{kernel, IN_ROWS, OUT_ROW, OUT_ROWS, READ_FROM, START};

pub struct EuCoreRun {
    cfg: hdl::eu_core::Config,
    count: usize,
    /// The data-memory rows loaded.
    loaded: Vec<[u8; 32]>,
    /// The result rows, once the run has happened.
    fin: Option<Vec<[u8; 32]>>,
    /// Coverage: the last run's retired instructions.
    pub retired: usize,
}

impl EuCoreRun {
    pub fn new(cfg: &hdl::eu_core::Config) -> Self {
        assert!(hdl::bist::eu_core::supports(cfg));
        EuCoreRun { cfg: cfg.clone(), count: 0, loaded: vec![[0; 32]; IN_ROWS], fin: None, retired: 0 }
    }

    fn run(&mut self) {
        let prog = Program { code: kernel(), handler: None };
        let mut m = Model::new(Config { threads: self.cfg.threads, mem_bytes: self.cfg.dmem_bytes, ..Config::default() }, prog);
        for (k, row) in self.loaded.iter().enumerate() {
            m.mem[32 * k..32 * k + 32].copy_from_slice(row);
        }
        let run: Run = m.run();
        assert!(run.exceptions.is_empty(), "the BIST kernel raised {:?}", run.exceptions);
        // a bound on the RTL's run (it has ended by READ_FROM when it holds): one slot in 4
        // cycles per thread, and no instruction of a thread takes more than 16 slots (a math op
        // waits for at most three other threads' ops in the feeder, 8 cycles each, then 8 + 16
        // cycles in the unit; a LD/ST for at most three others in the memory unit, 10 cycles each)
        let longest = (0..4).map(|t| run.trace.iter().filter(|x| x.thread == t).count()).max().unwrap_or(0);
        assert!(START + 4 * 16 * (longest + 2) < READ_FROM, "the BIST kernel may still run at the read-back: {longest} instructions on one thread");
        self.retired = run.trace.len();
        self.fin = Some((0..OUT_ROWS).map(|k| run.mem[32 * (OUT_ROW + k)..32 * (OUT_ROW + k) + 32].try_into().unwrap()).collect());
    }
}

impl CycleModel for EuCoreRun {
    fn reset(&mut self) {
        self.count = 0;
        self.fin = None;
    }
    fn step(&mut self, i: &[u32], o: &mut [u32]) {
        let c = self.count;
        if c < IN_ROWS {
            for (k, w) in i[..8].iter().enumerate() {
                self.loaded[c][4 * k..4 * k + 4].copy_from_slice(&w.to_le_bytes());
            }
        }
        if c == START {
            self.run();
        }
        o[..8].iter_mut().for_each(|w| *w = 0);
        if (READ_FROM..READ_FROM + OUT_ROWS).contains(&c) {
            let row = &self.fin.as_ref().expect("the run happened")[c - READ_FROM];
            for (k, w) in o[..8].iter_mut().enumerate() {
                *w = u32::from_le_bytes(row[4 * k..4 * k + 4].try_into().unwrap());
            }
        }
        if c != READ_FROM + OUT_ROWS {
            self.count += 1;
        }
    }
}

pub fn entry() -> super::BistEntry {
    super::entry_of("eu_core", &["small"], |all| all.eu_core, hdl::bist::eu_core::dut_module, |c| Box::new(EuCoreRun::new(c)), hdl::bist::eu_core::emit)
}
