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

/// Width of `StepMul`'s sums: the exact multiple m·step (m ≤ 24, step < 2^14, so < 2^19) plus a
/// constant 2^20 − k·RF (k·RF ≤ 24·16384 < 2^20), with bit 20 the "m·step ≥ k·RF" flag.
const MUL_W: usize = 21;

/// `prod_out = m·step_in mod RF` for a constant m (a power of two or the sum of two: 2, 4, 8,
/// 12, 16, 24), and its "− RF" twin, both in slot `slot` of a packed table-sized vector: the
/// steps of `TableSpread` (entry x = entry x mod G + (x div G)·G·step, G = 2^levels of
/// table-lo). m·step − k·RF for k = 0..m side by side, each one carry chain deep (for m with two
/// set bits a carry-save layer first, a LUT per bit: (step << a) + (step << b) − k·RF as one
/// adder), and the largest k with m·step ≥ k·RF wins; its twin is candidate k + 1 (mod 2^A_W,
/// (m·step mod RF) − RF). With a power-of-two RF (= 2^A_W) every candidate has the same low A_W
/// bits: only k = 0 and k = 1 (and their twins) are made.
#[derive(LogicBlock)]
pub struct StepMul<const AW: usize, const ADDRW: usize> {
    /// step = stride mod RF (< RF).
    pub step_in: Signal<In, Bits<AW>>,
    /// m·step mod RF in bits [A_W·slot +: A_W], zero elsewhere.
    pub prod_out: Signal<Out, Bits<ADDRW>>,
    /// ((m·step mod RF) − RF) mod 2^A_W in the same slot.
    pub prod_m_out: Signal<Out, Bits<ADDRW>>,
    k_sh_a: Constant<Bits<16>>,
    k_sh_b: Constant<Bits<16>>,
    /// m has a second set bit (then `b` = step << k_sh_b, else 0).
    k_has_b: Constant<Bit>,
    /// 2^20 − k·RF for k = 1..=m (index j is k = j + 1; k = 1, 2 with a power-of-two RF).
    k_neg: Vec<Constant<Bits<MUL_W>>>,
    k_flag_bit: Constant<Bits<16>>,
    k_amask: Constant<Bits<MUL_W>>,
    k_slot: Constant<Bits<16>>,
    a: Signal<Local, Bits<MUL_W>>,
    b: Signal<Local, Bits<MUL_W>>,
    /// Candidate k: carry-save sum and carries of a + b + (2^20 − k·RF), and the sum.
    cs: Signal<Local, Bits<MUL_W>>,
    cc: Signal<Local, Bits<MUL_W>>,
    d: Signal<Local, Bits<MUL_W>>,
    /// The same for candidate k + 1 (the twin).
    cs2: Signal<Local, Bits<MUL_W>>,
    cc2: Signal<Local, Bits<MUL_W>>,
    d2: Signal<Local, Bits<MUL_W>>,
    res: Signal<Local, Bits<MUL_W>>,
    res_m: Signal<Local, Bits<MUL_W>>,
    prod: Signal<Local, Bits<AW>>,
    prod_m: Signal<Local, Bits<AW>>,
    /// Candidates k = 1..m−1 tried (1 for a power-of-two RF).
    _n: usize,
}

impl<const AW: usize, const ADDRW: usize> StepMul<AW, ADDRW> {
    pub fn new(cfg: &Config, m: usize, slot: usize) -> Self {
        assert!(m >= 2 && m.count_ones() <= 2 && m <= 24 && AW <= 14 && slot * AW < ADDRW);
        let rf = cfg.rf_bytes() as u64;
        let pow2 = rf.is_power_of_two();
        let sh_a = m.trailing_zeros() as usize;
        let rest = m - (1 << sh_a);
        let sh_b = if rest > 0 { rest.trailing_zeros() as usize } else { 0 };
        let c16 = |v: usize| Constant::new((v as u64).to_bits());
        // with a power-of-two RF (= 2^A_W) every candidate has the same low A_W bits; one is kept
        // (k = 1, twin k = 2) so that the loop's locals exist in every config
        let ks = if pow2 { 2 } else { m as u64 };
        Self {
            step_in: Default::default(),
            prod_out: Default::default(),
            prod_m_out: Default::default(),
            k_sh_a: c16(sh_a),
            k_sh_b: c16(sh_b),
            k_has_b: Constant::new(rest > 0),
            k_neg: (1..=ks).map(|k| Constant::new(((1u64 << 20) - k * rf).to_bits())).collect(),
            k_flag_bit: c16(20),
            k_amask: Constant::new(((1u64 << AW) - 1).to_bits()),
            k_slot: c16(AW * slot),
            a: Default::default(),
            b: Default::default(),
            cs: Default::default(),
            cc: Default::default(),
            d: Default::default(),
            cs2: Default::default(),
            cc2: Default::default(),
            d2: Default::default(),
            res: Default::default(),
            res_m: Default::default(),
            prod: Default::default(),
            prod_m: Default::default(),
            _n: if pow2 { 1 } else { m - 1 },
        }
    }
}

impl<const AW: usize, const ADDRW: usize> Logic for StepMul<AW, ADDRW> {
    #[hdl_gen]
    fn update(&mut self) {
        self.a.next = bit_cast::<MUL_W, AW>(self.step_in.val()) << self.k_sh_a.val();
        self.b.next = 0.into();
        if self.k_has_b.val() {
            self.b.next = bit_cast::<MUL_W, AW>(self.step_in.val()) << self.k_sh_b.val();
        }
        // (every local assigned first: no latch where a branch is constant-false)
        self.cs.next = 0.into();
        self.cc.next = 0.into();
        self.cs2.next = 0.into();
        self.cc2.next = 0.into();
        // k = 0: m·step itself (for one set bit a shift); twin k = 1
        self.res.next = self.a.val() + self.b.val();
        self.res_m.next = self.a.val() + self.k_neg[0].val();
        if self.k_has_b.val() {
            self.cs2.next = self.a.val() ^ self.b.val() ^ self.k_neg[0].val();
            self.cc2.next = ((self.a.val() & self.b.val()) | (self.a.val() & self.k_neg[0].val()) | (self.b.val() & self.k_neg[0].val())) << 1;
            self.res_m.next = self.cs2.val() + self.cc2.val();
        }
        // k = 1..m−1 side by side; the largest with m·step ≥ k·RF (flag bit 20) wins
        for j in 0..self._n {
            self.d.next = self.a.val() + self.k_neg[j].val();
            self.d2.next = self.a.val() + self.k_neg[j + 1].val();
            if self.k_has_b.val() {
                self.cs.next = self.a.val() ^ self.b.val() ^ self.k_neg[j].val();
                self.cc.next = ((self.a.val() & self.b.val()) | (self.a.val() & self.k_neg[j].val()) | (self.b.val() & self.k_neg[j].val())) << 1;
                self.d.next = self.cs.val() + self.cc.val();
                self.cs2.next = self.a.val() ^ self.b.val() ^ self.k_neg[j + 1].val();
                self.cc2.next = ((self.a.val() & self.b.val()) | (self.a.val() & self.k_neg[j + 1].val()) | (self.b.val() & self.k_neg[j + 1].val())) << 1;
                self.d2.next = self.cs2.val() + self.cc2.val();
            }
            if self.d.val().get_bit(self.k_flag_bit.val().index()) {
                self.res.next = self.d.val();
                self.res_m.next = self.d2.val();
            }
        }
        self.prod.next = bit_cast::<AW, MUL_W>(self.res.val() & self.k_amask.val());
        self.prod_m.next = bit_cast::<AW, MUL_W>(self.res_m.val() & self.k_amask.val());
        self.prod_out.next = bit_cast::<ADDRW, AW>(self.prod.val()) << self.k_slot.val();
        self.prod_m_out.next = bit_cast::<ADDRW, AW>(self.prod_m.val()) << self.k_slot.val();
    }
}

/// Table-hi in one level: entry x (G ≤ x < N_MAX, G = the entries table-lo filled) is
/// `entry[x mod G] + (x div G)·G·step` mod RF, one modular add (two adders side by side and a
/// mux, as in `TableLevel`) from registers: the multiples (x div G)·G·step mod RF and their
/// "− RF" twins come packed from `StepMul`s in table-lo (slot j holds j·G·step mod RF). Before
/// (git 71a3362) table-hi was ⌊L/2⌋ `TableLevel`s in series with a `StepDouble` before the last
/// one, the ECP5 worst path.
#[derive(LogicBlock)]
pub struct TableSpread<const NMAX: usize, const AW: usize, const ADDRW: usize> {
    /// Entries 0..G filled (the rest is ignored).
    pub tab_in: Signal<In, Bits<ADDRW>>,
    /// Slot j (1 ≤ j < N_MAX / G): j·G·step mod RF.
    pub mul_in: Signal<In, Bits<ADDRW>>,
    /// Slot j: (j·G·step mod RF − RF) mod 2^A_W.
    pub mul_m_in: Signal<In, Bits<ADDRW>>,
    /// All N_MAX entries.
    pub tab_out: Signal<Out, Bits<ADDRW>>,
    /// Entry x is filled here (x ≥ G).
    k_here: Vec<Constant<Bit>>,
    /// Bit offset of entry x mod G.
    k_base: Vec<Constant<Bits<16>>>,
    /// Bit offset of slot x div G of the multiples.
    k_mul: Vec<Constant<Bits<16>>>,
    /// Bit offset of entry x.
    k_slot: Vec<Constant<Bits<16>>>,
    /// All-ones in entry x's slot.
    k_slot_mask: Vec<Constant<Bits<ADDRW>>>,
    k_pow2: Constant<Bit>,
    k_amask: Constant<Bits<RAW_W>>,
    k_carry_bit: Constant<Bits<16>>,
    base: Signal<Local, Bits<AW>>,
    step: Signal<Local, Bits<AW>>,
    step_m: Signal<Local, Bits<AW>>,
    sum: Signal<Local, Bits<RAW_W>>,
    alt: Signal<Local, Bits<RAW_W>>,
    entry: Signal<Local, Bits<AW>>,
}

impl<const NMAX: usize, const AW: usize, const ADDRW: usize> TableSpread<NMAX, AW, ADDRW> {
    /// `g`: the entries already filled (2^levels of table-lo).
    pub fn new(cfg: &Config, g: usize) -> Self {
        assert!(g.is_power_of_two() && g < NMAX && ADDRW == NMAX * AW);
        let rf = cfg.rf_bytes() as u64;
        let c16 = |v: usize| Constant::new((v as u64).to_bits());
        Self {
            tab_in: Default::default(),
            mul_in: Default::default(),
            mul_m_in: Default::default(),
            tab_out: Default::default(),
            k_here: (0..NMAX).map(|x| Constant::new(x >= g)).collect(),
            k_base: (0..NMAX).map(|x| c16(AW * (x % g))).collect(),
            k_mul: (0..NMAX).map(|x| c16(AW * (x / g))).collect(),
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
            step: Default::default(),
            step_m: Default::default(),
            sum: Default::default(),
            alt: Default::default(),
            entry: Default::default(),
        }
    }
}

impl<const NMAX: usize, const AW: usize, const ADDRW: usize> Logic for TableSpread<NMAX, AW, ADDRW> {
    #[hdl_gen]
    fn update(&mut self) {
        self.tab_out.next = self.tab_in.val();
        for x in 0..NMAX {
            if self.k_here[x].val() {
                self.base.next = self.tab_in.val().get_bits::<AW>(self.k_base[x].val().index());
                self.step.next = self.mul_in.val().get_bits::<AW>(self.k_mul[x].val().index());
                self.step_m.next = self.mul_m_in.val().get_bits::<AW>(self.k_mul[x].val().index());
                self.sum.next = bit_cast::<RAW_W, AW>(self.base.val()) + bit_cast::<RAW_W, AW>(self.step.val());
                self.alt.next = bit_cast::<RAW_W, AW>(self.base.val()) + bit_cast::<RAW_W, AW>(self.step_m.val());
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
