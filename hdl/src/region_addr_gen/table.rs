//! `TableLevel`: one level of a RAG offset table (the "decoded row/column table" of §6.2).
//!
//! The column table holds `col[x] = (origin + x·(E·HS)) mod RF` (entry 0 is the origin, so the
//! channels add two table entries, not three terms) and the row table `row[y] = y·(E·VS) mod RF`
//! for x, y in 0..N_MAX, packed `[A_W·x +: A_W]`. They are built in log2 N_MAX levels: level b
//! fills the entries x in [2^b, 2^(b+1)) as `entry[x - 2^b] + step` (mod RF), with `step` =
//! 2^b·(E·HS) mod RF; `StepDouble` doubles the step for the next level. Every sum is of two values below RF,
//! so one conditional subtraction keeps it below RF (a mask for a power-of-two RF): no wide
//! modulo anywhere, and each level is one adder deep.
//!
//! The modular add is two adders side by side and a 2:1 mux, not an add, a compare and a
//! subtract in series: with `step_m` = (step − RF) mod 2^A_W (computed where the step is, off
//! the table path), `entry + step_m` carries out of A_W bits exactly when entry + step ≥ RF, and
//! its low A_W bits are then entry + step − RF (2^A_W ≥ RF). So each level is one carry chain and
//! one LUT (the HX8K worst path was two levels of add → compare → subtract, 2026-11-26).

use super::{Config, RAW_W};
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct TableLevel<const NMAX: usize, const AW: usize, const ADDRW: usize> {
    /// Entries filled by the levels before (entries 0..2^b); entry 0 is the origin (column
    /// table) or 0 (row table).
    pub tab_in: Signal<In, Bits<ADDRW>>,
    /// 2^b·stride mod RF.
    pub step_in: Signal<In, Bits<AW>>,
    /// (`step_in` − RF) mod 2^A_W.
    pub step_m_in: Signal<In, Bits<AW>>,
    /// Entries 0..2^(b+1) filled.
    pub tab_out: Signal<Out, Bits<ADDRW>>,
    /// Entry x is filled by this level.
    k_here: Vec<Constant<Bit>>,
    /// Bit offset of entry x - 2^b.
    k_base: Vec<Constant<Bits<16>>>,
    /// Bit offset of entry x.
    k_slot: Vec<Constant<Bits<16>>>,
    /// All-ones in entry x's slot.
    k_slot_mask: Vec<Constant<Bits<ADDRW>>>,
    k_pow2: Constant<Bit>,
    k_amask: Constant<Bits<RAW_W>>,
    /// Bit index A_W: the carry out of an A_W-bit sum.
    k_carry_bit: Constant<Bits<16>>,
    base: Signal<Local, Bits<AW>>,
    sum: Signal<Local, Bits<RAW_W>>,
    /// base + step − RF + 2^A_W.
    alt: Signal<Local, Bits<RAW_W>>,
    entry: Signal<Local, Bits<AW>>,
}

impl<const NMAX: usize, const AW: usize, const ADDRW: usize> TableLevel<NMAX, AW, ADDRW> {
    /// Level `b` (0 ≤ b < log2 N_MAX).
    pub fn new(cfg: &Config, b: usize) -> Self {
        assert!(1 << b < NMAX && ADDRW == NMAX * AW);
        let lo = 1usize << b;
        let rf = cfg.rf_bytes() as u64;
        let c16 = |v: usize| Constant::new((v as u64).to_bits());
        Self {
            tab_in: Default::default(),
            step_in: Default::default(),
            step_m_in: Default::default(),
            tab_out: Default::default(),
            k_here: (0..NMAX).map(|x| Constant::new(x >= lo && x < 2 * lo)).collect(),
            k_base: (0..NMAX).map(|x| c16(AW * x.saturating_sub(lo))).collect(),
            k_slot: (0..NMAX).map(|x| c16(AW * x)).collect(),
            k_slot_mask: (0..NMAX)
                .map(|x| {
                    let mut m: Bits<ADDRW> = ((1u64 << AW) - 1).to_bits();
                    m = m << (AW * x) as u64;
                    Constant::new(m)
                })
                .collect(),
            k_pow2: Constant::new(rf.is_power_of_two()),
            k_amask: Constant::new(((1u64 << AW) - 1).to_bits()),
            k_carry_bit: c16(AW),
            base: Default::default(),
            sum: Default::default(),
            alt: Default::default(),
            entry: Default::default(),
        }
    }
}

impl<const NMAX: usize, const AW: usize, const ADDRW: usize> Logic for TableLevel<NMAX, AW, ADDRW> {
    #[hdl_gen]
    fn update(&mut self) {
        self.tab_out.next = self.tab_in.val();
        for x in 0..NMAX {
            if self.k_here[x].val() {
                // (a local, since bit_cast's argument must not name the loop variable)
                self.base.next = self.tab_in.val().get_bits::<AW>(self.k_base[x].val().index());
                self.sum.next = bit_cast::<RAW_W, AW>(self.base.val()) + bit_cast::<RAW_W, AW>(self.step_in.val());
                self.alt.next = bit_cast::<RAW_W, AW>(self.base.val()) + bit_cast::<RAW_W, AW>(self.step_m_in.val());
                if !self.k_pow2.val() & self.alt.val().get_bit(self.k_carry_bit.val().index()) {
                    self.sum.next = self.alt.val();
                }
                self.entry.next = bit_cast::<AW, RAW_W>(self.sum.val() & self.k_amask.val());
                self.tab_out.next = (self.tab_out.val() & !self.k_slot_mask[x].val())
                    | (bit_cast::<ADDRW, AW>(self.entry.val()) << self.k_slot[x].val());
            }
        }
    }
}

/// `step_out = 2·step_in mod RF`: the step of the next table level.
#[derive(LogicBlock)]
pub struct StepDouble<const AW: usize> {
    /// 2^b·stride mod RF.
    pub step_in: Signal<In, Bits<AW>>,
    /// 2^(b+1)·stride mod RF.
    pub step_out: Signal<Out, Bits<AW>>,
    /// (`step_out` − RF) mod 2^A_W, for the next level's adder (see the module doc).
    pub step_m_out: Signal<Out, Bits<AW>>,
    k_rf: Constant<Bits<RAW_W>>,
    k_rf2: Constant<Bits<RAW_W>>,
    k_pow2: Constant<Bit>,
    k_amask: Constant<Bits<RAW_W>>,
    dbl: Signal<Local, Bits<RAW_W>>,
    dbl_m: Signal<Local, Bits<RAW_W>>,
}

impl<const AW: usize> StepDouble<AW> {
    pub fn new(cfg: &Config) -> Self {
        let rf = cfg.rf_bytes() as u64;
        Self {
            step_in: Default::default(),
            step_out: Default::default(),
            step_m_out: Default::default(),
            k_rf: Constant::new(rf.to_bits()),
            k_rf2: Constant::new((2 * rf).to_bits()),
            k_pow2: Constant::new(rf.is_power_of_two()),
            k_amask: Constant::new(((1u64 << AW) - 1).to_bits()),
            dbl: Default::default(),
            dbl_m: Default::default(),
        }
    }
}

impl<const AW: usize> Logic for StepDouble<AW> {
    #[hdl_gen]
    fn update(&mut self) {
        // a shift, not step + step: see `Stride` (an adder whose inputs are one net never routes
        // with nextpnr-ice40 0.4; scripts/fpga/carry_check.py rejects such a netlist)
        self.dbl.next = bit_cast::<RAW_W, AW>(self.step_in.val()) << 1;
        self.dbl_m.next = self.dbl.val() - self.k_rf.val();
        // 2·step < 2RF: one RF off at most, and the "− RF" twin two off; all side by side
        if !self.k_pow2.val() & (self.dbl.val() >= self.k_rf.val()) {
            // (dbl_m first: it reads the unreduced dbl)
            self.dbl_m.next = self.dbl.val() - self.k_rf2.val();
            self.dbl.next = self.dbl.val() - self.k_rf.val();
        }
        self.step_out.next = bit_cast::<AW, RAW_W>(self.dbl.val() & self.k_amask.val());
        self.step_m_out.next = bit_cast::<AW, RAW_W>(self.dbl_m.val() & self.k_amask.val());
    }
}
