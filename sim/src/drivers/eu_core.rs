//! Co-simulation driver for `eu_eu_core` (sim/tests/eu_core.rs): loads a program and the
//! registers through the host ports, starts every thread, records every retired instruction from
//! the retire port in the ISA model's form ([`Retired`]: thread, IP, exec mask, destination
//! writes with the whole register after the write) and reads the final registers and flags back,
//! so a run compares with [`Model::run`] record by record. The data memory is loaded and read
//! back whole through its host ports, a 32-byte row per cycle.
//!
//! An instruction whose destination region spans several registers retires one record per
//! register (`retire_more` on all but the last); the driver joins them into one [`Retired`], its
//! writes in the ISA model's order (memory, registers ascending, flags).
//!
//! The retire port carries the written bytes only (`retire_dst_be`); the driver keeps a copy of each thread's
//! registers (loaded, then updated from the retire port) to give a register write the ISA model's
//! form (the register after the write). The final registers are read from the RTL's register
//! file itself, not from that copy.
//!
//! Traps: before `start` the driver writes the trap controller's HADDR with the program's
//! `.handler` (the ISA model's HADDR_RESET), or CTRL = 0 (trapping disabled: an exception parks
//! its thread) for a program without one. While `host_irq` is high it is the ISA model's host
//! (`Host`): it reads the PAUSED and PARKED threads (CSRs WS_PAUSED, WS_PARKED), KILLs or
//! RESUMEs them, then acknowledges (GSTATUS write-1-to-clear); `Host::Ignore` does nothing. The
//! exception port (`exc_*`) gives every exception the RTL raised.

use crate::cosim::{Dut, In, Out};
use crate::golden::eu_core::{Exception, Host, Program, Retired, Write, NUM_REGS, REG_BYTES};
use hdl::trap_controller::enc::{csr, mask};

/// The RTL's run of one program.
#[derive(Clone, Debug)]
pub struct RtlRun {
    /// Cycles from `start` to the last thread's end.
    pub cycles: u64,
    /// Retired instructions in retire order (`cycle` = RTL cycle after `start`).
    pub trace: Vec<Retired>,
    /// Per thread: the register file read back at the end (128 x 32 bytes).
    pub rf: Vec<Vec<u8>>,
    pub flags: Vec<[u8; 2]>,
    /// The data memory read back at the end.
    pub mem: Vec<u8>,
    /// The fault report: (thread, IP, cause, not_yet), if an instruction faulted.
    pub fault: Option<(usize, u64, u64, bool)>,
    /// The run ended (every thread at its EOT or stopped) within the cycle limit.
    pub finished: bool,
    /// Every exception the RTL raised (`cycle` = RTL cycle after `start`, `detail` empty).
    pub exceptions: Vec<Exception>,
    /// Threads the host killed.
    pub killed: u32,
    /// Cycles in which `host_irq` was high.
    pub irq_cycles: u64,
    /// The trap controller's sticky bits (GSTATUS) the host saw, and at the end.
    pub sticky: u16,
}

impl RtlRun {
    /// The data-memory word at byte address `addr` at the end.
    pub fn word(&self, addr: usize) -> u32 {
        u32::from_le_bytes(self.mem[addr..addr + 4].try_into().unwrap())
    }
}

struct Ports {
    start: In,
    imem_we: In,
    imem_addr: In,
    imem_wdata: In,
    rf_we: In,
    rf_addr: In,
    rf_wdata: In,
    rf_raddr: In,
    dmem_we: In,
    dmem_addr: In,
    dmem_wdata: In,
    dmem_raddr: In,
    busy: Out,
    rf_rdata: Out,
    dmem_rdata: Out,
    flags: Out,
    retire_valid: Out,
    retire_tid: Out,
    retire_ip: Out,
    retire_exec_mask: Out,
    retire_dst_we: Out,
    retire_dst_reg: Out,
    retire_dst_data: Out,
    retire_dst_be: Out,
    retire_mem_we: Out,
    retire_mem_addr: Out,
    retire_flag_we: Out,
    retire_flag_sel: Out,
    retire_flag_value: Out,
    retire_more: Out,
    fault: Out,
    fault_tid: Out,
    fault_ip: Out,
    fault_cause: Out,
    fault_not_yet: Out,
    exc_valid: Out,
    exc_tid: Out,
    exc_ip: Out,
    exc_cause: Out,
    csr_valid: In,
    csr_we: In,
    csr_addr: In,
    csr_wdata: In,
    csr_rdata: Out,
    host_irq: Out,
}

pub struct EuCoreRtl {
    pub dut: Dut,
    p: Ports,
    pub threads: usize,
    pub imem_depth: usize,
    pub dmem_bytes: usize,
    /// What the RTL's data memory holds (it has no reset): rows equal to it are not reloaded.
    dmem_shadow: Option<Vec<u8>>,
    /// Keep the ports of every cycle from `start` to the end of the run (figures).
    pub capture: bool,
    /// The last run's captured cycles, when `capture` is set.
    pub waves: Option<Vec<crate::waves::Cycle>>,
    /// What the host does when `host_irq` rises (the ISA model's `Config::host`).
    pub host: Host,
}

impl EuCoreRtl {
    /// The co-simulated variant `v` (`default`: 4 threads).
    pub fn new(v: &str) -> Self {
        let dut = Dut::new(&format!("eu_core_{v}/eu_eu_core"));
        let (i, o) = (|n: &str| dut.input(n), |n: &str| dut.output(n));
        let p = Ports {
            start: i("start"),
            imem_we: i("imem_we"),
            imem_addr: i("imem_addr"),
            imem_wdata: i("imem_wdata"),
            rf_we: i("rf_we"),
            rf_addr: i("rf_addr"),
            rf_wdata: i("rf_wdata"),
            rf_raddr: i("rf_raddr"),
            dmem_we: i("dmem_we"),
            dmem_addr: i("dmem_addr"),
            dmem_wdata: i("dmem_wdata"),
            dmem_raddr: i("dmem_raddr"),
            busy: o("busy"),
            rf_rdata: o("rf_rdata"),
            dmem_rdata: o("dmem_rdata"),
            flags: o("flags"),
            retire_valid: o("retire_valid"),
            retire_tid: o("retire_tid"),
            retire_ip: o("retire_ip"),
            retire_exec_mask: o("retire_exec_mask"),
            retire_dst_we: o("retire_dst_we"),
            retire_dst_reg: o("retire_dst_reg"),
            retire_dst_data: o("retire_dst_data"),
            retire_dst_be: o("retire_dst_be"),
            retire_mem_we: o("retire_mem_we"),
            retire_mem_addr: o("retire_mem_addr"),
            retire_flag_we: o("retire_flag_we"),
            retire_flag_sel: o("retire_flag_sel"),
            retire_flag_value: o("retire_flag_value"),
            retire_more: o("retire_more"),
            fault: o("fault"),
            fault_tid: o("fault_tid"),
            fault_ip: o("fault_ip"),
            fault_cause: o("fault_cause"),
            fault_not_yet: o("fault_not_yet"),
            exc_valid: o("exc_valid"),
            exc_tid: o("exc_tid"),
            exc_ip: o("exc_ip"),
            exc_cause: o("exc_cause"),
            csr_valid: i("csr_valid"),
            csr_we: i("csr_we"),
            csr_addr: i("csr_addr"),
            csr_wdata: i("csr_wdata"),
            csr_rdata: o("csr_rdata"),
            host_irq: o("host_irq"),
        };
        let threads: usize = dut.param("threads").parse().unwrap();
        let imem_depth: usize = dut.param("imem_depth").parse().unwrap();
        let dmem_bytes: usize = dut.param("dmem_bytes").parse().unwrap();
        let mut s = EuCoreRtl { dut, p, threads, imem_depth, dmem_bytes, dmem_shadow: None, capture: false, waves: None, host: Host::Kill };
        s.dut.reset(2);
        s
    }

    fn set_wide(&mut self, p: In, bytes: &[u8]) {
        for (k, c) in bytes.chunks(8).enumerate() {
            let mut w = [0u8; 8];
            w[..c.len()].copy_from_slice(c);
            self.dut.set_field(p, 64 * k, 8 * c.len(), u64::from_le_bytes(w));
        }
    }

    /// A host CSR read (the data is combinational: same cycle, no clock edge).
    fn csr_read(&mut self, addr: u64) -> u32 {
        let p = &self.p;
        let (v, we, a) = (p.csr_valid, p.csr_we, p.csr_addr);
        self.dut.set(v, 1);
        self.dut.set(we, 0);
        self.dut.set(a, addr);
        self.dut.settle();
        let d = self.dut.get(self.p.csr_rdata) as u32;
        self.dut.set(v, 0);
        d
    }

    /// Sets up a host CSR write for the next clock edge (`csr_idle` after it).
    fn csr_write(&mut self, addr: u64, data: u32) {
        let p = &self.p;
        let (v, we, a, d) = (p.csr_valid, p.csr_we, p.csr_addr, p.csr_wdata);
        self.dut.set(v, 1);
        self.dut.set(we, 1);
        self.dut.set(a, addr);
        self.dut.set(d, data as u64);
    }

    fn csr_idle(&mut self) {
        let p = &self.p;
        let (v, we) = (p.csr_valid, p.csr_we);
        self.dut.set(v, 0);
        self.dut.set(we, 0);
    }

    fn get_wide(&self, p: Out, n: usize) -> Vec<u8> {
        (0..n / 8).flat_map(|k| self.dut.get_field(p, 64 * k, 64).to_le_bytes()).collect()
    }

    /// Loads `prog`, the registers `rf` (per thread, 128 x 32 bytes) and the data memory `mem`
    /// (`dmem_bytes`), starts, runs until every thread has ended or `max_cycles`, reads the
    /// registers, flags and data memory back.
    pub fn run(&mut self, prog: &Program, rf: &[Vec<u8>], mem: &[u8], max_cycles: u64) -> RtlRun {
        assert_eq!(rf.len(), self.threads);
        assert_eq!(mem.len(), self.dmem_bytes, "the ISA model's mem_bytes must be the RTL's dmem_bytes");
        assert!(prog.code.len() <= self.imem_depth, "program of {} words > imem {}", prog.code.len(), self.imem_depth);
        let p = &self.p;
        let (imem_we, imem_addr, imem_wdata, rf_we, rf_addr, rf_wdata) = (p.imem_we, p.imem_addr, p.imem_wdata, p.rf_we, p.rf_addr, p.rf_wdata);
        self.dut.reset(1);
        self.dut.set(imem_we, 1);
        for (a, w) in prog.code.iter().enumerate() {
            self.dut.set(imem_addr, a as u64);
            self.set_wide(imem_wdata, &w.to_le_bytes());
            self.dut.tick();
        }
        self.dut.set(imem_we, 0);
        self.dut.set(rf_we, 1);
        for (t, regs) in rf.iter().enumerate() {
            for r in 0..NUM_REGS as usize {
                self.dut.set(rf_addr, ((t << 7) | r) as u64);
                self.set_wide(rf_wdata, &regs[32 * r..32 * r + 32]);
                self.dut.tick();
            }
        }
        self.dut.set(rf_we, 0);
        self.dut.set(self.p.dmem_we, 1);
        for (row, bytes) in mem.chunks(32).enumerate() {
            if self.dmem_shadow.as_ref().is_some_and(|m| &m[32 * row..32 * row + 32] == bytes) {
                continue;
            }
            self.dut.set(self.p.dmem_addr, row as u64);
            self.set_wide(self.p.dmem_wdata, bytes);
            self.dut.tick();
        }
        self.dut.set(self.p.dmem_we, 0);
        // the handler address, or trapping disabled without a handler
        match prog.handler {
            Some(h) => self.csr_write(csr::HADDR, h as u32),
            None => self.csr_write(csr::CTRL, 0),
        }
        self.dut.tick();
        self.csr_idle();
        let mut shadow: Vec<Vec<u8>> = rf.to_vec();
        let mut pending: Vec<Option<Retired>> = vec![None; self.threads];
        if self.capture {
            self.dut.capture_waves();
        }
        self.dut.set(self.p.start, 1);
        self.dut.tick();
        self.dut.set(self.p.start, 0);
        let (mut trace, mut cycles, mut finished) = (Vec::new(), 0u64, false);
        let (mut exceptions, mut killed, mut irq_cycles, mut sticky, mut host_step) = (Vec::new(), 0u32, 0u64, 0u16, 0u8);
        while cycles < max_cycles {
            // the host (the ISA model's `Host`): on the interrupt, acknowledge first (GSTATUS
            // write-1-to-clear), then KILL or RESUME the threads waiting then; a thread that
            // pauses after the read sets its sticky bit after the acknowledgement, so the
            // interrupt comes back for it (acknowledging after the read could lose it)
            self.csr_idle();
            let irq = self.dut.get(self.p.host_irq) == 1;
            irq_cycles += irq as u64;
            if self.host != Host::Ignore && host_step == 1 {
                let waiting = self.csr_read(csr::WS_PAUSED) | self.csr_read(csr::WS_PARKED);
                if waiting != 0 {
                    self.csr_write(if self.host == Host::Kill { csr::KILL } else { csr::RESUME }, waiting);
                    if self.host == Host::Kill {
                        killed |= waiting;
                    }
                }
                host_step = 0;
            } else if self.host != Host::Ignore && irq {
                sticky |= self.csr_read(csr::GSTATUS) as u16 & mask::STICKY as u16;
                self.csr_write(csr::GSTATUS, mask::STICKY as u32);
                host_step = 1;
            }
            self.dut.tick();
            cycles += 1;
            if self.dut.get(self.p.retire_valid) == 1 {
                let r = self.retired(cycles, &mut shadow);
                let t = r.thread;
                // a multi-register destination retires one record per register: join them
                let r = match pending[t].take() {
                    Some(mut first) => {
                        first.writes.extend(r.writes);
                        first.cycle = r.cycle;
                        first
                    }
                    None => r,
                };
                if self.dut.get(self.p.retire_more) == 1 {
                    pending[t] = Some(r);
                } else {
                    trace.push(canonical(r));
                }
            }
            if self.dut.get(self.p.exc_valid) == 1 {
                exceptions.push(Exception {
                    cycle: cycles,
                    thread: self.dut.get(self.p.exc_tid) as usize,
                    ip: self.dut.get(self.p.exc_ip),
                    cause: self.dut.get(self.p.exc_cause),
                    detail: String::new(),
                });
            }
            if self.dut.get(self.p.busy) == 0 {
                finished = true;
                break;
            }
        }
        self.csr_idle();
        sticky |= self.csr_read(csr::GSTATUS) as u16 & mask::STICKY as u16;
        if self.capture {
            self.dut.tick();
            self.waves = Some(self.dut.take_waves());
        }
        let fault = (self.dut.get(self.p.fault) == 1).then(|| {
            (
                self.dut.get(self.p.fault_tid) as usize,
                self.dut.get(self.p.fault_ip),
                self.dut.get(self.p.fault_cause),
                self.dut.get(self.p.fault_not_yet) == 1,
            )
        });
        // read the register file back through the host port: read latency 2 (the address of
        // edge k shows after edge k + 1), so the next address goes in while the data comes out
        let mut out = vec![vec![0u8; (NUM_REGS * REG_BYTES) as usize]; self.threads];
        let rows = self.threads * NUM_REGS as usize;
        self.dut.set(self.p.rf_raddr, 0);
        self.dut.tick();
        for k in 0..rows {
            let next = (k + 1).min(rows - 1);
            self.dut.set(self.p.rf_raddr, (((next / NUM_REGS as usize) << 7) | (next % NUM_REGS as usize)) as u64);
            self.dut.tick();
            let (t, r) = (k / NUM_REGS as usize, k % NUM_REGS as usize);
            out[t][32 * r..32 * r + 32].copy_from_slice(&self.get_wide(self.p.rf_rdata, 32));
        }
        let flags = (0..self.threads)
            .map(|t| [self.dut.get_field(self.p.flags, 16 * t, 8) as u8, self.dut.get_field(self.p.flags, 16 * t + 8, 8) as u8])
            .collect();
        let mut mem_out = vec![0u8; self.dmem_bytes];
        for (row, bytes) in mem_out.chunks_mut(32).enumerate() {
            self.dut.set(self.p.dmem_raddr, row as u64);
            self.dut.tick();
            bytes.copy_from_slice(&self.get_wide(self.p.dmem_rdata, 32));
        }
        self.dmem_shadow = Some(mem_out.clone());
        RtlRun { cycles, trace, rf: out, flags, mem: mem_out, fault, finished, exceptions, killed, irq_cycles, sticky }
    }

    fn retired(&self, cycle: u64, shadow: &mut [Vec<u8>]) -> Retired {
        let p = &self.p;
        let thread = self.dut.get(p.retire_tid) as usize;
        let mask = self.dut.get(p.retire_exec_mask) as u8;
        let mut writes = Vec::new();
        let mem_we = self.dut.get(p.retire_mem_we);
        for l in (0..8).filter(|l| mem_we >> l & 1 == 1) {
            let addr = self.dut.get_field(p.retire_mem_addr, 32 * l, 32) as u32;
            writes.push(Write::Mem { addr, value: self.dut.get_field(p.retire_dst_data, 32 * l, 32) as u32 });
        }
        if self.dut.get(p.retire_dst_we) == 1 {
            let reg = self.dut.get(p.retire_dst_reg) as u32;
            let data = self.get_wide(p.retire_dst_data, 32);
            let be = self.dut.get(p.retire_dst_be) as u32;
            let a = (reg * REG_BYTES) as usize;
            for b in (0..32).filter(|b| be >> b & 1 == 1) {
                shadow[thread][a + b] = data[b];
            }
            writes.push(Write::Reg { reg, be, data: shadow[thread][a..a + 32].try_into().unwrap() });
        }
        if self.dut.get(p.retire_flag_we) == 1 {
            writes.push(Write::Flag { f: self.dut.get(p.retire_flag_sel) as u32, value: self.dut.get(p.retire_flag_value) as u8 });
        }
        Retired { cycle, thread, ip: self.dut.get(p.retire_ip), exec_mask: mask, writes }
    }
}

/// A joined instruction's writes in the ISA model's order: memory words (in lane order), then
/// the registers in ascending order, then the flag register (`Model::run`).
fn canonical(mut r: Retired) -> Retired {
    let key = |w: &Write| match w {
        Write::Mem { .. } => (0, 0),
        Write::Reg { reg, .. } => (1, *reg),
        Write::Flag { .. } => (2, 0),
    };
    r.writes.sort_by_key(key);
    r
}
