//! Cycle model of the eu_core BIST wrapper `hdl::bist::eu_core::KernelRun`: the register rows
//! loaded from the stimulus, the kernel run on the ISA-level model (`golden::eu_core`), and the
//! final rows r0..r15 of every thread in the read-back window (zero at every other cycle).

use crate::bist::CycleModel;
use crate::golden::eu_core::{Config, Model, Program, Run};
use hdl::bist::eu_core::{kernel, READ_FROM, REGS, ROWS, START};

pub struct EuCoreRun {
    cfg: hdl::eu_core::Config,
    count: usize,
    /// The rows loaded (thread-major: row k = thread k / 16, register k mod 16).
    loaded: Vec<[u8; 32]>,
    /// The final rows, once the run has happened.
    fin: Option<Vec<[u8; 32]>>,
    /// Coverage: the last run's retired instructions.
    pub retired: usize,
}

impl EuCoreRun {
    pub fn new(cfg: &hdl::eu_core::Config) -> Self {
        assert!(hdl::bist::eu_core::supports(cfg));
        EuCoreRun { cfg: cfg.clone(), count: 0, loaded: vec![[0; 32]; ROWS], fin: None, retired: 0 }
    }

    fn run(&mut self) {
        let prog = Program { code: kernel(), handler: None };
        let mut m = Model::new(Config { threads: self.cfg.threads, mem_bytes: self.cfg.dmem_bytes, ..Config::default() }, prog);
        for (k, row) in self.loaded.iter().enumerate() {
            let (t, r) = (k / REGS, k % REGS);
            m.rf[t][32 * r..32 * r + 32].copy_from_slice(row);
        }
        let run: Run = m.run();
        assert!(run.exceptions.is_empty(), "the BIST kernel raised {:?}", run.exceptions);
        // the barrel gives each thread one slot in 4 cycles: the RTL has ended by READ_FROM when
        // no thread retires more than this (INIT, pipeline fill and drain included)
        let longest = (0..4).map(|t| run.trace.iter().filter(|x| x.thread == t).count()).max().unwrap_or(0);
        assert!(START + 4 * (longest + 4) < READ_FROM, "the BIST kernel may still run at the read-back: {longest} instructions on one thread");
        self.retired = run.trace.len();
        self.fin = Some((0..ROWS).map(|k| run.rf[k / REGS][32 * (k % REGS)..32 * (k % REGS) + 32].try_into().unwrap()).collect());
    }
}

impl CycleModel for EuCoreRun {
    fn reset(&mut self) {
        self.count = 0;
        self.fin = None;
    }
    fn step(&mut self, i: &[u32], o: &mut [u32]) {
        let c = self.count;
        if c < ROWS {
            for (k, w) in i[..8].iter().enumerate() {
                self.loaded[c][4 * k..4 * k + 4].copy_from_slice(&w.to_le_bytes());
            }
        }
        if c == START {
            self.run();
        }
        o[..8].iter_mut().for_each(|w| *w = 0);
        if (READ_FROM..READ_FROM + ROWS).contains(&c) {
            let row = &self.fin.as_ref().expect("the run happened")[c - READ_FROM];
            for (k, w) in o[..8].iter_mut().enumerate() {
                *w = u32::from_le_bytes(row[4 * k..4 * k + 4].try_into().unwrap());
            }
        }
        if c != READ_FROM + ROWS {
            self.count += 1;
        }
    }
}

pub fn entry() -> super::BistEntry {
    super::entry_of("eu_core", &["small"], |all| all.eu_core, hdl::bist::eu_core::dut_module, |c| Box::new(EuCoreRun::new(c)), hdl::bist::eu_core::emit)
}
