//! One architectural state register of the branch unit, for one thread or many (timing-closure
//! §3.2): with one thread and `pipe` = 0 it is the plain register of today's unit; otherwise the
//! value of every thread lives in a RAM indexed by the thread id, read for a request and written
//! back (`d`) when its step leaves the last stage.
//!
//! The parents keep their register code unchanged (`d` holds `q` by default, the step overrides
//! it): with a RAM, "hold" writes back what was read, so every valid step writes the thread's
//! whole state and nothing else writes it.

use crate::prims::{LutRam, Ram, RDff};
use rust_hdl::prelude::*;

/// Thread id width inside the unit (THREADS ≤ 16); the ports use TID_W = max(1, log2 THREADS).
pub const TID_BITS: usize = 4;

/// The thread controls every state register shares (one port).
#[derive(Copy, Clone, Debug, PartialEq, Default, LogicStruct)]
pub struct ThreadCtl {
    /// RAM read address: the thread of the request one stage before the step (registered read).
    pub rd_addr: Bits<4>,
    /// RAM write: the thread of the step in the last stage, when it is valid and not E_BUSY.
    pub wr_addr: Bits<4>,
    pub wr_en: Bit,
    /// The thread of the step has not been written since reset: read the §6.2 reset state (0).
    pub fresh: Bit,
    /// The thread entering the step's stage (the step's own with pipe 0): read by the registers
    /// that [`super::pre::StepPre`] takes one cycle early.
    pub pre_addr: Bits<4>,
}

/// Where the values live.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Storage {
    /// One register: one thread, `pipe` = 0 (today's unit).
    Flop,
    /// `LutRam` (asynchronous read): several threads, `pipe` = 0.
    LutRam,
    /// `Ram` (registered read, EBR or LUT-RAM): `pipe` = 1.
    Ram,
    /// `Ram` with the step over two cycles (`pipe` = 2, issue 17): the value read is used in the
    /// first step cycle (X: `q_x`) and carried in a register into the second (Y: `q`), where
    /// the write-back is computed.
    RamSplit,
}

impl Storage {
    pub fn of(threads: usize, pipe: usize) -> Self {
        match (threads, pipe) {
            (1, 0) => Storage::Flop,
            (_, 0) => Storage::LutRam,
            (_, 2) => Storage::RamSplit,
            _ => Storage::Ram,
        }
    }
}

/// A state register of W bits (reset value 0) per thread. `q`: the value of the step's thread
/// before the step, where its next value `d` is computed; `q_x`: the same value where the step's
/// verdict is computed (with [`Storage::RamSplit`] one cycle before `q`, else `q` itself).
#[derive(LogicBlock)]
pub struct ThreadReg<const W: usize> {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub tc: Signal<In, ThreadCtl>,
    pub d: Signal<In, Bits<W>>,
    pub q: Signal<Out, Bits<W>>,
    pub q_x: Signal<Out, Bits<W>>,
    flop: Vec<RDff<Bits<W>>>,
    lut: Vec<LutRam<W, TID_BITS>>,
    ram: Vec<Ram<W, TID_BITS>>,
    /// With `RamSplit`: `q_x` one cycle on (no other thread can write this one meanwhile: it is
    /// busy, so the value carried is the value in the RAM).
    carry: Vec<RDff<Bits<W>>>,
    _nflop: usize,
    _nlut: usize,
    _nram: usize,
    _ncarry: usize,
}

impl<const W: usize> ThreadReg<W> {
    pub fn new(storage: Storage) -> Self {
        let n = |s: Storage| (storage == s) as usize;
        let nram = n(Storage::Ram) + n(Storage::RamSplit);
        Self {
            clock: Default::default(),
            rst: Default::default(),
            tc: Default::default(),
            d: Default::default(),
            q: Default::default(),
            q_x: Default::default(),
            flop: (0..n(Storage::Flop)).map(|_| RDff::default()).collect(),
            lut: (0..n(Storage::LutRam)).map(|_| LutRam::default()).collect(),
            ram: (0..nram).map(|_| Ram::default()).collect(),
            carry: (0..n(Storage::RamSplit)).map(|_| RDff::default()).collect(),
            _nflop: n(Storage::Flop),
            _nlut: n(Storage::LutRam),
            _nram: nram,
            _ncarry: n(Storage::RamSplit),
        }
    }
}

impl<const W: usize> Logic for ThreadReg<W> {
    #[hdl_gen]
    fn update(&mut self) {
        self.q_x.next = 0.into();
        for i in 0..self._nflop {
            self.flop[i].clock.next = self.clock.val();
            self.flop[i].rst.next = self.rst.val();
            self.flop[i].d.next = self.d.val();
            // `fresh` is a constant 0 here; reading it keeps one port shape for every storage
            if !self.tc.val().fresh {
                self.q_x.next = self.flop[i].q.val();
            }
        }
        for i in 0..self._nlut {
            self.lut[i].clock.next = self.clock.val();
            self.lut[i].write_enable.next = self.tc.val().wr_en && !self.rst.val();
            self.lut[i].write_address.next = self.tc.val().wr_addr;
            self.lut[i].write_data.next = self.d.val();
            self.lut[i].read_address.next = self.tc.val().rd_addr;
            if !self.tc.val().fresh {
                self.q_x.next = self.lut[i].read_data.val();
            }
        }
        for i in 0..self._nram {
            self.ram[i].clock.next = self.clock.val();
            self.ram[i].write_enable.next = self.tc.val().wr_en && !self.rst.val();
            self.ram[i].write_address.next = self.tc.val().wr_addr;
            self.ram[i].write_data.next = self.d.val();
            self.ram[i].read_enable.next = true;
            self.ram[i].read_address.next = self.tc.val().rd_addr;
            if !self.tc.val().fresh {
                self.q_x.next = self.ram[i].read_data.val();
            }
        }
        self.q.next = self.q_x.val();
        for i in 0..self._ncarry {
            self.carry[i].clock.next = self.clock.val();
            self.carry[i].rst.next = self.rst.val();
            self.carry[i].d.next = self.q_x.val();
            self.q.next = self.carry[i].q.val();
        }
    }
}

/// A [`ThreadReg`] whose value is also shown on `dbg_*`: `view` is what the last written step
/// left (a register beside the RAM, loaded with every write); with a flop it is `q` itself.
#[derive(LogicBlock)]
pub struct ViewedReg<const W: usize> {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub tc: Signal<In, ThreadCtl>,
    pub d: Signal<In, Bits<W>>,
    pub q: Signal<Out, Bits<W>>,
    pub q_x: Signal<Out, Bits<W>>,
    pub view: Signal<Out, Bits<W>>,
    store: ThreadReg<W>,
    shadow: Vec<RDff<Bits<W>>>,
    _nshadow: usize,
}

impl<const W: usize> ViewedReg<W> {
    pub fn new(storage: Storage) -> Self {
        let ns = (storage != Storage::Flop) as usize;
        Self {
            clock: Default::default(),
            rst: Default::default(),
            tc: Default::default(),
            d: Default::default(),
            q: Default::default(),
            q_x: Default::default(),
            view: Default::default(),
            store: ThreadReg::new(storage),
            shadow: (0..ns).map(|_| RDff::default()).collect(),
            _nshadow: ns,
        }
    }
}

impl<const W: usize> Logic for ViewedReg<W> {
    #[hdl_gen]
    fn update(&mut self) {
        self.store.clock.next = self.clock.val();
        self.store.rst.next = self.rst.val();
        self.store.tc.next = self.tc.val();
        self.store.d.next = self.d.val();
        self.q.next = self.store.q.val();
        self.q_x.next = self.store.q_x.val();
        self.view.next = self.store.q.val();
        for i in 0..self._nshadow {
            self.shadow[i].clock.next = self.clock.val();
            self.shadow[i].rst.next = self.rst.val();
            self.shadow[i].d.next = self.shadow[i].q.val();
            if self.tc.val().wr_en {
                self.shadow[i].d.next = self.d.val();
            }
            self.view.next = self.shadow[i].q.val();
        }
    }
}
