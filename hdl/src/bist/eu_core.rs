//! BIST top for the execution unit `eu_eu_core` (default config: 4 threads, imem 1024, dmem
//! 16 KiB): it runs kernel 1 at BIST size (kernels/activation_bist.s: 128 fp32 values through
//! TANH and SIGMOID, the math unit and the memory unit's parallel access) on values taken from
//! the stimulus and compresses the results.
//!
//! The DUT of the BIST core is not the bare core but [`KernelRun`], a wrapper that makes the run's
//! response depend on the final state only (the core's cycle-by-cycle behaviour is not what the
//! ISA model predicts; its final state is). Counting cycles `c` from the end of the DUT reset:
//! * `c` in 0..[`IN_ROWS`]: data-memory row `c` (8 words) = `data`; in the same cycles and up to
//!   the program's length the program is written into the instruction memory, word `c`, from a
//!   ROM (kernels/activation_bist.hex, the assembler's output, kept equal to the source by the
//!   test `sim/tests/fpga_bist.rs::eu_core_kernel_hex_is_the_assembled_source`);
//! * `c` = [`START`]: `start`;
//! * `c` in [`READ_FROM`]..[`READ_FROM`] + [`OUT_ROWS`]: `row` = data-memory row
//!   [`OUT_ROW`] + `c − READ_FROM` (the tanh results, then the sigmoid results) read through the
//!   host port; at every other cycle `row` = 0. The MISR of a zero response from a zero
//!   signature stays zero, so the signature is the results' alone.
//! The kernel has ended long before (about 500 cycles; the model checks a bound).
//!
//! Stimulus bits: `data` [0..256) → SW = 256. Response bits: `row` [0..256) → RW = 256.

use super::{BistCore, BistParams};
use crate::emit::{emit_module, EmitError, EmittedModule};
use crate::eu_core::{Config, EuCore};
use crate::prims::RDff;
use rust_hdl::prelude::*;
use std::collections::BTreeMap;

pub const SW: usize = 256;
pub const RW: usize = 256;
pub const TOP: &str = "eu_bist_eu_core";
/// Module name of the wrapper (the BIST core's DUT).
pub const DUT: &str = "eu_core_kernel_run";
/// Data-memory rows loaded from the stimulus: the kernel's 128 input words.
pub const IN_ROWS: usize = 16;
/// First data-memory row of the results (byte 512: tanh; byte 1024: sigmoid).
pub const OUT_ROW: usize = 16;
/// Result rows read back (128 tanh + 128 sigmoid words).
pub const OUT_ROWS: usize = 32;
/// The cycle `start` is high (after the data and the program are in).
pub const START: usize = 32;
/// First cycle of the read-back window: the window ends with the default BIST run.
pub const READ_FROM: usize = super::DEFAULT_CYCLES as usize - OUT_ROWS;
/// The kernel source's name (kernels/).
pub const KERNEL_SOURCE: &str = "activation_bist.s";
/// The kernel: kernels/activation_bist.hex (`eu-asm asm kernels/activation_bist.s`).
pub const KERNEL_HEX: &str = include_str!("../../../kernels/activation_bist.hex");

/// The kernel's instruction words.
pub fn kernel() -> Vec<u128> {
    KERNEL_HEX
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with("//"))
        .map(|l| u128::from_str_radix(l.trim(), 16).unwrap_or_else(|e| panic!("kernels/activation_bist.hex: {l}: {e}")))
        .collect()
}

fn bits128(v: u128) -> Bits<128> {
    bit_cast::<128, 64>(Bits::<64>::from(v as u64)) | (bit_cast::<128, 64>(Bits::<64>::from((v >> 64) as u64)) << 64)
}

/// The run wrapper of the module docs around the default core.
#[derive(LogicBlock)]
pub struct KernelRun {
    /// Rising-edge clock.
    pub clk: Signal<In, Clock>,
    /// Synchronous reset: cycle count to 0, the core reset.
    pub rst: Signal<In, Bit>,
    /// Value of the data-memory row loaded in this cycle (cycles 0..IN_ROWS).
    pub data: Signal<In, Bits<256>>,
    /// The result row read back in this cycle (the window), else 0.
    pub row: Signal<Out, Bits<256>>,
    /// The core (named `eu`: lint waiver 6 names its unread outputs by this instance name).
    eu: EuCore<4, 2, 9, 10, 32, 64, 9, 16, 8, 3>,
    rom: ROM<Bits<128>, 10>,
    count: RDff<Bits<16>>,
    back: Signal<Local, Bits<16>>,
    k_in_rows: Constant<Bits<16>>,
    k_len: Constant<Bits<16>>,
    k_start: Constant<Bits<16>>,
    k_read_req: Constant<Bits<16>>,
    k_read_from: Constant<Bits<16>>,
    k_read_end: Constant<Bits<16>>,
}

impl KernelRun {
    pub fn new() -> Self {
        let code = kernel();
        assert!(code.len() <= START && IN_ROWS <= START && START < READ_FROM);
        let rom: BTreeMap<Bits<10>, Bits<128>> = code.iter().enumerate().map(|(a, &w)| (Bits::<10>::from(a as u64), bits128(w))).collect();
        Self {
            clk: Default::default(),
            rst: Default::default(),
            data: Default::default(),
            row: Default::default(),
            eu: EuCore::new(Config::default().math_lat),
            rom: ROM::new(rom),
            count: Default::default(),
            back: Default::default(),
            k_in_rows: Constant::new((IN_ROWS as u64).into()),
            k_len: Constant::new((code.len() as u64).into()),
            k_start: Constant::new((START as u64).into()),
            // the row shown at cycle c was requested at c − 1 (the data memory's read latency)
            k_read_req: Constant::new((READ_FROM as u64 - 1 - OUT_ROW as u64).into()),
            k_read_from: Constant::new((READ_FROM as u64).into()),
            k_read_end: Constant::new(((READ_FROM + OUT_ROWS) as u64).into()),
        }
    }
}

impl Default for KernelRun {
    fn default() -> Self {
        Self::new()
    }
}

impl Logic for KernelRun {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clk, count);
        self.eu.clk.next = self.clk.val();
        self.eu.rst.next = self.rst.val();
        self.count.rst.next = self.rst.val();
        // the cycle count stops at the end of the window
        self.count.d.next = self.count.q.val();
        if self.count.q.val() != self.k_read_end.val() {
            self.count.d.next = self.count.q.val() + 1;
        }
        // load: data-memory rows and program words, then start
        self.eu.dmem_we.next = self.count.q.val() < self.k_in_rows.val();
        self.eu.dmem_addr.next = bit_cast::<9, 16>(self.count.q.val());
        self.eu.dmem_wdata.next = self.data.val();
        self.rom.address.next = bit_cast::<10, 16>(self.count.q.val());
        self.eu.imem_we.next = self.count.q.val() < self.k_len.val();
        self.eu.imem_addr.next = bit_cast::<10, 16>(self.count.q.val());
        self.eu.imem_wdata.next = self.rom.data.val();
        self.eu.start.next = self.count.q.val() == self.k_start.val();
        self.eu.rf_we.next = false;
        self.eu.rf_addr.next = 0.into();
        self.eu.rf_wdata.next = 0.into();
        self.eu.rf_raddr.next = 0.into();
        // no host CSR access: the trap controller keeps its reset CSRs (the kernel does not trap)
        self.eu.csr_valid.next = false;
        self.eu.csr_we.next = false;
        self.eu.csr_addr.next = 0.into();
        self.eu.csr_wdata.next = 0.into();
        // read back: result row OUT_ROW + (c − READ_FROM), requested a cycle before it shows
        self.back.next = self.count.q.val() - self.k_read_req.val();
        self.eu.dmem_raddr.next = bit_cast::<9, 16>(self.back.val());
        self.row.next = 0.into();
        if (self.count.q.val() >= self.k_read_from.val()) & (self.count.q.val() < self.k_read_end.val()) {
            self.row.next = self.eu.dmem_rdata.val();
        }
    }
}

bist_top! {
    pub struct BistEuCore {
        core: BistCore<SW, RW> = BistCore::new(p),
        dut: KernelRun = KernelRun::new(),
        fault_always = Constant::new(p.fault_always),
    }
    pub fn new(p: &BistParams) -> Self;
    #[hdl_gen]
    fn update(&mut self) {
        self.dut.data.next = self.core.stim.val();
        self.core.resp.next = self.dut.row.val();
    }
}

pub fn supports(cfg: &Config) -> bool {
    *cfg == Config::default()
}

pub fn emit(cfg: &Config, p: &BistParams) -> Result<EmittedModule, EmitError> {
    assert!(supports(cfg), "the BIST top of eu_core is built for the default config; got {cfg:?}");
    emit_module(BistEuCore::new(p), TOP, "eu_core", super::bist_params(p, SW, RW))
}

/// The BIST config: the default core.
pub fn small_config() -> Config {
    Config::default()
}

pub fn cosim_params() -> BistParams {
    BistParams { dut_name: DUT.into(), board: super::ULX3S_85F, cycles: super::DEFAULT_CYCLES, expected: None, fault_always: false }
}

/// The wrapper alone (its ports give the BIST packing).
pub fn dut_module(cfg: &Config) -> EmittedModule {
    assert!(supports(cfg));
    emit_module(KernelRun::new(), DUT, "eu_core", vec![]).expect("the eu_core kernel wrapper emits")
}
