//! S1 operand read (spec §2.5, §6.3): each lane's sources a..d select r0..r15 of the slot's
//! pixel (the buffers' issue line), g0..g7 or k0..k7. Lanes read all sources before any lane
//! writes (the write-back lands at the edge).

use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct OperandRead<const NA: usize> {
    /// The lane words of the fetched instruction (source fields at bits 4 + 5s).
    pub words: Vec<Signal<In, Bits<32>>>,
    /// r0..r15 of the issuing pixel, G and K.
    pub line: Vec<Signal<In, Bits<32>>>,
    pub g: Vec<Signal<In, Bits<32>>>,
    pub k: Vec<Signal<In, Bits<32>>>,
    /// Operand s of lane j at index 4j + s.
    pub values: Vec<Signal<Out, Bits<32>>>,

    c5: Vec<Constant<Bits<5>>>,
    src: Vec<Signal<Local, Bits<5>>>,
}

impl<const NA: usize> OperandRead<NA> {
    pub fn new() -> Self {
        fn v<T: Default>(n: usize) -> Vec<T> {
            (0..n).map(|_| T::default()).collect()
        }
        Self {
            words: v(NA),
            line: v(16),
            g: v(8),
            k: v(8),
            values: v(4 * NA),
            c5: (0..32u64).map(|i| Constant::new(i.into())).collect(),
            src: v(4 * NA),
        }
    }
}

impl<const NA: usize> Logic for OperandRead<NA> {
    #[hdl_gen]
    fn update(&mut self) {
        for j in 0..NA {
            for s in 0..4 {
                self.src[j * 4 + s].next = self.words[j].val().get_bits::<5>(4 + 5 * s);
                self.values[j * 4 + s].next = 0.into();
                for n in 0..16 {
                    if self.src[j * 4 + s].val() == self.c5[n].val() {
                        self.values[j * 4 + s].next = self.line[n].val();
                    }
                }
                for n in 0..8 {
                    if self.src[j * 4 + s].val() == self.c5[16 + n].val() {
                        self.values[j * 4 + s].next = self.g[n].val();
                    }
                    if self.src[j * 4 + s].val() == self.c5[24 + n].val() {
                        self.values[j * 4 + s].next = self.k[n].val();
                    }
                }
            }
        }
    }
}
