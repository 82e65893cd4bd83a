//! S1 operand read (spec §2.5, §6.3): each lane's sources a..d select r0..r15 of the slot's
//! pixel (the buffers' issue line), g0..g7 or k0..k7. Lanes read all sources before any lane
//! writes (the write-back lands at the edge).
//!
//! The source code is the index into r0..r15, g0..g7, k0..k7 (0..31, §6.3), so each operand is
//! a binary tree of 2:1 multiplexers, one level per code bit (`t1`..`t4`, then `values`).
//! Written as 32 compares in a row (`if src == n`), yosys 0.23 keeps a priority chain and maps
//! it to 105 LUT4 + 86 PFUMX/L6MUX21 per operand bit on ECP5 (NUM_ALUS = 4: 53 607 LUT4); the tree
//! takes a third of that (issue 16, docs/alu_pipeline.md "Where the small config's iCE40 cells
//! go").

use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct OperandRead<const NA: usize> {
    /// Source code of operand s of lane j at index 4j + s (registered in `Decode`).
    pub src_code: Vec<Signal<In, Bits<5>>>,
    /// r0..r15 of the issuing pixel, G and K.
    pub line: Vec<Signal<In, Bits<32>>>,
    pub g: Vec<Signal<In, Bits<32>>>,
    pub k: Vec<Signal<In, Bits<32>>>,
    /// Operand s of lane j at index 4j + s.
    pub values: Vec<Signal<Out, Bits<32>>>,

    src: Vec<Signal<Local, Bits<5>>>,
    /// operand i's tree after code bit 0 (16 per operand), bit 1 (8), bit 2 (4), bit 3 (2)
    t1: Vec<Signal<Local, Bits<32>>>,
    t2: Vec<Signal<Local, Bits<32>>>,
    t3: Vec<Signal<Local, Bits<32>>>,
    t4: Vec<Signal<Local, Bits<32>>>,
}

impl<const NA: usize> OperandRead<NA> {
    pub fn new() -> Self {
        fn v<T: Default>(n: usize) -> Vec<T> {
            (0..n).map(|_| T::default()).collect()
        }
        Self {
            src_code: v(4 * NA),
            line: v(16),
            g: v(8),
            k: v(8),
            values: v(4 * NA),
            src: v(4 * NA),
            t1: v(64 * NA),
            t2: v(32 * NA),
            t3: v(16 * NA),
            t4: v(8 * NA),
        }
    }
}

impl<const NA: usize> Logic for OperandRead<NA> {
    #[hdl_gen]
    fn update(&mut self) {
        for j in 0..NA {
            for s in 0..4 {
                self.src[j * 4 + s].next = self.src_code[j * 4 + s].val();
                // code bit 0: pairs of r0..r15 (t1 0..7), g0..g7 (8..11), k0..k7 (12..15)
                for m in 0..8 {
                    self.t1[(j * 4 + s) * 16 + m].next = self.line[2 * m].val();
                    if self.src[j * 4 + s].val().get_bit(0) {
                        self.t1[(j * 4 + s) * 16 + m].next = self.line[2 * m + 1].val();
                    }
                }
                for m in 0..4 {
                    self.t1[(j * 4 + s) * 16 + 8 + m].next = self.g[2 * m].val();
                    self.t1[(j * 4 + s) * 16 + 12 + m].next = self.k[2 * m].val();
                    if self.src[j * 4 + s].val().get_bit(0) {
                        self.t1[(j * 4 + s) * 16 + 8 + m].next = self.g[2 * m + 1].val();
                        self.t1[(j * 4 + s) * 16 + 12 + m].next = self.k[2 * m + 1].val();
                    }
                }
                for m in 0..8 {
                    self.t2[(j * 4 + s) * 8 + m].next = self.t1[(j * 4 + s) * 16 + 2 * m].val();
                    if self.src[j * 4 + s].val().get_bit(1) {
                        self.t2[(j * 4 + s) * 8 + m].next = self.t1[(j * 4 + s) * 16 + 2 * m + 1].val();
                    }
                }
                for m in 0..4 {
                    self.t3[(j * 4 + s) * 4 + m].next = self.t2[(j * 4 + s) * 8 + 2 * m].val();
                    if self.src[j * 4 + s].val().get_bit(2) {
                        self.t3[(j * 4 + s) * 4 + m].next = self.t2[(j * 4 + s) * 8 + 2 * m + 1].val();
                    }
                }
                for m in 0..2 {
                    self.t4[(j * 4 + s) * 2 + m].next = self.t3[(j * 4 + s) * 4 + 2 * m].val();
                    if self.src[j * 4 + s].val().get_bit(3) {
                        self.t4[(j * 4 + s) * 2 + m].next = self.t3[(j * 4 + s) * 4 + 2 * m + 1].val();
                    }
                }
                self.values[j * 4 + s].next = self.t4[(j * 4 + s) * 2].val();
                if self.src[j * 4 + s].val().get_bit(4) {
                    self.values[j * 4 + s].next = self.t4[(j * 4 + s) * 2 + 1].val();
                }
            }
        }
    }
}
