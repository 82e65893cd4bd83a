//! The config store (spec §7.2 map): IMEM (IMEM_DEPTH entries × 5 words), G and K, the config
//! bus (writes refused while busy: ERR_CFG_BUSY; unmapped addresses: ERR_CFG_ADDR; CTRL's
//! clear strobes) and the registered read data. Read ports: the instruction fetch (address =
//! the issuing row's iptr → 5 words, all 0 and `fetch_ok` = 0 beyond IMEM_DEPTH) and G/K as
//! values. G is also written by S4 (one port per lane, a config write winning). K resets to
//! K_RESET (A19) although RDff resets to 0: its flops hold `K ^ K_RESET`, every read XORs it back.

use super::isa;
use crate::prims::RDff;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct ConfigStore<const NA: usize> {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    /// The config bus (§7.2).
    pub cfg_we: Signal<In, Bit>,
    pub cfg_re: Signal<In, Bit>,
    pub cfg_addr: Signal<In, Bits<9>>,
    pub cfg_wdata: Signal<In, Bits<32>>,
    pub cfg_rvalid: Signal<Out, Bit>,
    pub cfg_rdata: Signal<Out, Bits<32>>,
    /// The unit is busy: IMEM/G/K writes are refused.
    pub busy: Signal<In, Bit>,
    /// Instruction fetch port.
    pub fetch_addr: Signal<In, Bits<5>>,
    pub fetch_words: Vec<Signal<Out, Bits<32>>>,
    pub fetch_ok: Signal<Out, Bit>,
    /// G and K values (operand reads).
    pub g: Vec<Signal<Out, Bits<32>>>,
    pub k: Vec<Signal<Out, Bits<32>>>,
    /// S4 write port of G: lane j writes g[wb_reg[j] − 16] with wb_data[j], a later lane winning.
    pub wb_we: Signal<In, Bit>,
    pub wb_reg: Vec<Signal<In, Bits<5>>>,
    pub wb_data: Vec<Signal<In, Bits<32>>>,
    /// ERR_CFG_BUSY and ERR_CFG_ADDR of this edge (bit n = code n).
    pub errors: Signal<Out, Bits<16>>,
    /// CTRL write: clear the counters (bit 0) / the error log (bit 1).
    pub clear_counters: Signal<Out, Bit>,
    pub clear_errors: Signal<Out, Bit>,

    _depth: usize,
    k_cfg_gk_page: Constant<Bits<5>>,
    k_cfg_ctrl: Constant<Bits<9>>,
    c5: Vec<Constant<Bits<5>>>,
    kinit: Vec<Constant<Bits<32>>>,
    /// config address of IMEM word i (entry i / 5, word i % 5)
    ca9: Vec<Constant<Bits<9>>>,
    /// config address of g0..g7, k0..k7
    cgk9: Vec<Constant<Bits<9>>>,
    imem: Vec<RDff<Bits<32>>>,
    greg: Vec<RDff<Bits<32>>>,
    kreg: Vec<RDff<Bits<32>>>,
    rvalid: RDff<Bit>,
    rdata: RDff<Bits<32>>,
    cfg_imem: Signal<Local, Bit>,
    cfg_gk: Signal<Local, Bit>,
    cfg_ctrl: Signal<Local, Bit>,
    cfg_rv: Signal<Local, Bits<32>>,
    /// the gathered write enable and data of each G register (S4, then config)
    gwe: Vec<Signal<Local, Bit>>,
    gwd: Vec<Signal<Local, Bits<32>>>,
}

impl<const NA: usize> ConfigStore<NA> {
    pub fn new(depth: usize) -> Self {
        fn v<T: Default>(n: usize) -> Vec<T> {
            (0..n).map(|_| T::default()).collect()
        }
        Self {
            clock: Default::default(),
            rst: Default::default(),
            cfg_we: Default::default(),
            cfg_re: Default::default(),
            cfg_addr: Default::default(),
            cfg_wdata: Default::default(),
            cfg_rvalid: Default::default(),
            cfg_rdata: Default::default(),
            busy: Default::default(),
            fetch_addr: Default::default(),
            fetch_words: v(5),
            fetch_ok: Default::default(),
            g: v(8),
            k: v(8),
            wb_we: Default::default(),
            wb_reg: v(NA),
            wb_data: v(NA),
            errors: Default::default(),
            clear_counters: Default::default(),
            clear_errors: Default::default(),
            _depth: depth,
            k_cfg_gk_page: Constant::new(((isa::CFG_G >> 4) as u64).into()),
            k_cfg_ctrl: Constant::new((isa::CFG_CTRL as u64).into()),
            c5: (0..32u64).map(|i| Constant::new(i.into())).collect(),
            kinit: isa::K_RESET.iter().map(|&v| Constant::new((v as u64).into())).collect(),
            ca9: (0..depth * 5).map(|i| Constant::new((isa::cfg_imem((i / 5) as u32, (i % 5) as u32) as u64).into())).collect(),
            cgk9: (0..16).map(|i| Constant::new((isa::CFG_G as u64 + i).into())).collect(),
            imem: v(depth * 5),
            greg: v(8),
            kreg: v(8),
            rvalid: Default::default(),
            rdata: Default::default(),
            cfg_imem: Default::default(),
            cfg_gk: Default::default(),
            cfg_ctrl: Default::default(),
            cfg_rv: Default::default(),
            gwe: v(8),
            gwd: v(8),
        }
    }
}

impl<const NA: usize> Logic for ConfigStore<NA> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, rvalid, rdata);
        self.rvalid.rst.next = self.rst.val();
        self.rdata.rst.next = self.rst.val();
        for i in 0..(self._depth * 5) {
            self.imem[i].clock.next = self.clock.val();
            self.imem[i].rst.next = self.rst.val();
            self.imem[i].d.next = self.imem[i].q.val();
        }
        for i in 0..8 {
            self.greg[i].clock.next = self.clock.val();
            self.greg[i].rst.next = self.rst.val();
            self.greg[i].d.next = self.greg[i].q.val();
            self.gwe[i].next = false;
            self.gwd[i].next = 0.into();
            self.kreg[i].clock.next = self.clock.val();
            self.kreg[i].rst.next = self.rst.val();
            self.kreg[i].d.next = self.kreg[i].q.val();
        }

        // ---- read ports: instruction fetch (all-NOP beyond IMEM_DEPTH), G and K ----
        self.fetch_ok.next = false;
        for w in 0..5 {
            self.fetch_words[w].next = 0.into();
        }
        for e in 0..self._depth {
            if self.fetch_addr.val() == self.c5[e].val() {
                self.fetch_ok.next = true;
                for w in 0..5 {
                    self.fetch_words[w].next = self.imem[e * 5 + w].q.val();
                }
            }
        }
        for n in 0..8 {
            self.g[n].next = self.greg[n].q.val();
            self.k[n].next = self.kreg[n].q.val() ^ self.kinit[n].val();
        }

        // ---- S4 write port of G ----
        if self.wb_we.val() {
            for j in 0..NA {
                for n in 0..8 {
                    if self.wb_reg[j].val() == self.c5[16 + n].val() {
                        self.gwe[n].next = true;
                        self.gwd[n].next = self.wb_data[j].val();
                    }
                }
            }
        }

        // ---- config bus (after S4: a config write to G wins) ----
        self.cfg_imem.next = false;
        self.cfg_gk.next = self.cfg_addr.val().get_bits::<5>(4) == self.k_cfg_gk_page.val();
        self.cfg_ctrl.next = self.cfg_addr.val() == self.k_cfg_ctrl.val();
        self.cfg_rv.next = 0.into();
        for i in 0..(self._depth * 5) {
            if self.cfg_addr.val() == self.ca9[i].val() {
                self.cfg_imem.next = true;
                self.cfg_rv.next = self.imem[i].q.val();
                if self.cfg_we.val() & !self.busy.val() {
                    self.imem[i].d.next = self.cfg_wdata.val();
                }
            }
        }
        for n in 0..8 {
            if self.cfg_addr.val() == self.cgk9[n].val() {
                self.cfg_rv.next = self.greg[n].q.val();
                if self.cfg_we.val() & !self.busy.val() {
                    self.gwe[n].next = true;
                    self.gwd[n].next = self.cfg_wdata.val();
                }
            }
            if self.cfg_addr.val() == self.cgk9[8 + n].val() {
                self.cfg_rv.next = self.kreg[n].q.val() ^ self.kinit[n].val();
                if self.cfg_we.val() & !self.busy.val() {
                    self.kreg[n].d.next = self.cfg_wdata.val() ^ self.kinit[n].val();
                }
            }
        }
        for i in 0..8 {
            if self.gwe[i].val() {
                self.greg[i].d.next = self.gwd[i].val();
            }
        }
        self.errors.next = 0.into();
        if self.cfg_we.val() & self.busy.val() & (self.cfg_imem.val() | self.cfg_gk.val()) {
            self.errors.next = self.errors.val().replace_bit(11, true);
        }
        if (self.cfg_we.val() | self.cfg_re.val()) & !(self.cfg_imem.val() | self.cfg_gk.val() | self.cfg_ctrl.val()) {
            self.errors.next = self.errors.val().replace_bit(12, true);
        }
        self.clear_counters.next = self.cfg_we.val() & self.cfg_ctrl.val() & self.cfg_wdata.val().get_bit(0);
        self.clear_errors.next = self.cfg_we.val() & self.cfg_ctrl.val() & self.cfg_wdata.val().get_bit(1);
        self.rvalid.d.next = self.cfg_re.val();
        self.rdata.d.next = 0.into();
        if self.cfg_re.val() {
            self.rdata.d.next = self.cfg_rv.val();
        }
        self.cfg_rvalid.next = self.rvalid.q.val();
        self.cfg_rdata.next = self.rdata.q.val();
    }
}
