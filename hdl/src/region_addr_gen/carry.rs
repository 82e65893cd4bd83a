//! `Carry`: the descriptor-wide fields that travel with a descriptor through one join of the RAG
//! pipeline (a register or a wire, as `pipe` decides): the error and warning bits found so far,
//! log2 E, log2 N and the tag; `ShapeCarry`, the region shape through one of joins 0..2; and
//! `ShapeLine`, the shape's whole way from the decode to the look-up's select after join 3.

use super::channels::LookupSelect;
use super::{ERR_W, TAG_W, WARN_W};
use crate::prims::StageReg;
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct Carry {
    /// Clock of the join's registers.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset.
    pub rst: Signal<In, Bit>,
    /// The join loads (a valid descriptor enters the next section).
    pub en: Signal<In, Bit>,
    /// Error bits found so far.
    pub err_in: Signal<In, Bits<ERR_W>>,
    /// Warning bits found so far.
    pub warn_in: Signal<In, Bits<WARN_W>>,
    /// log2 E.
    pub es_in: Signal<In, Bits<2>>,
    /// log2 N.
    pub exec_log2_in: Signal<In, Bits<3>>,
    /// Operand tag.
    pub tag_in: Signal<In, Bits<TAG_W>>,
    /// `err_in` after the join.
    pub err_out: Signal<Out, Bits<ERR_W>>,
    /// `warn_in` after the join.
    pub warn_out: Signal<Out, Bits<WARN_W>>,
    /// `es_in` after the join.
    pub es_out: Signal<Out, Bits<2>>,
    /// `exec_log2_in` after the join.
    pub exec_log2_out: Signal<Out, Bits<3>>,
    /// `tag_in` after the join.
    pub tag_out: Signal<Out, Bits<TAG_W>>,
    err: StageReg<Bits<ERR_W>>,
    warn: StageReg<Bits<WARN_W>>,
    es: StageReg<Bits<2>>,
    exec_log2: StageReg<Bits<3>>,
    tag: StageReg<Bits<TAG_W>>,
}

impl Carry {
    pub fn new(registered: bool) -> Self {
        Self {
            clock: Default::default(),
            rst: Default::default(),
            en: Default::default(),
            err_in: Default::default(),
            warn_in: Default::default(),
            es_in: Default::default(),
            exec_log2_in: Default::default(),
            tag_in: Default::default(),
            err_out: Default::default(),
            warn_out: Default::default(),
            es_out: Default::default(),
            exec_log2_out: Default::default(),
            tag_out: Default::default(),
            err: StageReg::new(registered),
            warn: StageReg::new(registered),
            es: StageReg::new(registered),
            exec_log2: StageReg::new(registered),
            tag: StageReg::new(registered),
        }
    }
}

impl Logic for Carry {
    #[hdl_gen]
    fn update(&mut self) {
        self.err.clock.next = self.clock.val();
        self.warn.clock.next = self.clock.val();
        self.es.clock.next = self.clock.val();
        self.exec_log2.clock.next = self.clock.val();
        self.tag.clock.next = self.clock.val();
        self.err.rst.next = self.rst.val();
        self.warn.rst.next = self.rst.val();
        self.es.rst.next = self.rst.val();
        self.exec_log2.rst.next = self.rst.val();
        self.tag.rst.next = self.rst.val();
        self.err.en.next = self.en.val();
        self.warn.en.next = self.en.val();
        self.es.en.next = self.en.val();
        self.exec_log2.en.next = self.en.val();
        self.tag.en.next = self.en.val();
        self.err.d.next = self.err_in.val();
        self.warn.d.next = self.warn_in.val();
        self.es.d.next = self.es_in.val();
        self.exec_log2.d.next = self.exec_log2_in.val();
        self.tag.d.next = self.tag_in.val();
        self.err_out.next = self.err.q.val();
        self.warn_out.next = self.warn.q.val();
        self.es_out.next = self.es.q.val();
        self.exec_log2_out.next = self.exec_log2.q.val();
        self.tag_out.next = self.tag.q.val();
    }
}

/// The region shape (log2 W, log2 H, column-major) through one of joins 0..2 (a register or a
/// wire). Apart from `Carry` because join 3 carries the shape decoded (the one-hot select of
/// `channels::LookupSelect`), not these fields.
#[derive(LogicBlock)]
pub struct ShapeCarry {
    /// Clock of the join's registers.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset.
    pub rst: Signal<In, Bit>,
    /// The join loads.
    pub en: Signal<In, Bit>,
    /// log2 W.
    pub width_log2_in: Signal<In, Bits<3>>,
    /// log2 H.
    pub height_log2_in: Signal<In, Bits<3>>,
    /// Column-major order.
    pub colmajor_in: Signal<In, Bit>,
    /// `width_log2_in` after the join.
    pub width_log2_out: Signal<Out, Bits<3>>,
    /// `height_log2_in` after the join.
    pub height_log2_out: Signal<Out, Bits<3>>,
    /// `colmajor_in` after the join.
    pub colmajor_out: Signal<Out, Bit>,
    width_log2: StageReg<Bits<3>>,
    height_log2: StageReg<Bits<3>>,
    colmajor: StageReg<Bit>,
}

impl ShapeCarry {
    pub fn new(registered: bool) -> Self {
        Self {
            clock: Default::default(),
            rst: Default::default(),
            en: Default::default(),
            width_log2_in: Default::default(),
            height_log2_in: Default::default(),
            colmajor_in: Default::default(),
            width_log2_out: Default::default(),
            height_log2_out: Default::default(),
            colmajor_out: Default::default(),
            width_log2: StageReg::new(registered),
            height_log2: StageReg::new(registered),
            colmajor: StageReg::new(registered),
        }
    }
}

impl Logic for ShapeCarry {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, width_log2, height_log2, colmajor);
        self.width_log2.rst.next = self.rst.val();
        self.height_log2.rst.next = self.rst.val();
        self.colmajor.rst.next = self.rst.val();
        self.width_log2.en.next = self.en.val();
        self.height_log2.en.next = self.en.val();
        self.colmajor.en.next = self.en.val();
        self.width_log2.d.next = self.width_log2_in.val();
        self.height_log2.d.next = self.height_log2_in.val();
        self.colmajor.d.next = self.colmajor_in.val();
        self.width_log2_out.next = self.width_log2.q.val();
        self.height_log2_out.next = self.height_log2.q.val();
        self.colmajor_out.next = self.colmajor.q.val();
    }
}

/// The region shape from the decode to the channel look-up: through joins 0..2 as log2 W, log2 H
/// and column-major (`ShapeCarry`), decoded beside table-hi into the look-up's one-hot select
/// (`LookupSelect`) and registered at join 3.
#[derive(LogicBlock)]
pub struct ShapeLine {
    /// Clock of the joins' registers.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset.
    pub rst: Signal<In, Bit>,
    /// The joins' load enables (`Handshake::load`; bits 0..3 are read).
    pub load: Signal<In, Bits<8>>,
    /// log2 W from the decode.
    pub width_log2: Signal<In, Bits<3>>,
    /// log2 H from the decode.
    pub height_log2: Signal<In, Bits<3>>,
    /// Column-major order (already 0 without COLMAJOR_EN).
    pub colmajor: Signal<In, Bit>,
    /// log2 W after join 0 (for the stride section).
    pub width_log2_j0: Signal<Out, Bits<3>>,
    /// The look-up's select after join 3.
    pub look_sel: Signal<Out, Bits<16>>,
    shape0: ShapeCarry,
    shape1: ShapeCarry,
    shape2: ShapeCarry,
    select: LookupSelect,
    j3_look_sel: StageReg<Bits<16>>,
}

impl ShapeLine {
    /// `joins[k]`: join k is a register (`handshake::LEVELS_OF_PIPE`).
    pub fn new(joins: &[bool], n_max: usize) -> Self {
        Self {
            clock: Default::default(),
            rst: Default::default(),
            load: Default::default(),
            width_log2: Default::default(),
            height_log2: Default::default(),
            colmajor: Default::default(),
            width_log2_j0: Default::default(),
            look_sel: Default::default(),
            shape0: ShapeCarry::new(joins[0]),
            shape1: ShapeCarry::new(joins[1]),
            shape2: ShapeCarry::new(joins[2]),
            select: LookupSelect::new(n_max),
            j3_look_sel: StageReg::new(joins[3]),
        }
    }
}

impl Logic for ShapeLine {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, shape0, shape1, shape2, j3_look_sel);
        self.shape0.rst.next = self.rst.val();
        self.shape1.rst.next = self.rst.val();
        self.shape2.rst.next = self.rst.val();
        self.j3_look_sel.rst.next = self.rst.val();
        self.shape0.en.next = self.load.val().get_bit(0);
        self.shape1.en.next = self.load.val().get_bit(1);
        self.shape2.en.next = self.load.val().get_bit(2);
        self.j3_look_sel.en.next = self.load.val().get_bit(3);
        self.shape0.width_log2_in.next = self.width_log2.val();
        self.shape0.height_log2_in.next = self.height_log2.val();
        self.shape0.colmajor_in.next = self.colmajor.val();
        self.shape1.width_log2_in.next = self.shape0.width_log2_out.val();
        self.shape1.height_log2_in.next = self.shape0.height_log2_out.val();
        self.shape1.colmajor_in.next = self.shape0.colmajor_out.val();
        self.shape2.width_log2_in.next = self.shape1.width_log2_out.val();
        self.shape2.height_log2_in.next = self.shape1.height_log2_out.val();
        self.shape2.colmajor_in.next = self.shape1.colmajor_out.val();
        self.select.width_log2.next = self.shape2.width_log2_out.val();
        self.select.height_log2.next = self.shape2.height_log2_out.val();
        self.select.colmajor.next = self.shape2.colmajor_out.val();
        self.j3_look_sel.d.next = self.select.look_sel.val();
        self.width_log2_j0.next = self.shape0.width_log2_out.val();
        self.look_sel.next = self.j3_look_sel.q.val();
    }
}
