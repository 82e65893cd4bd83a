//! `Channels`: the last datapath sections of the RAG, every channel's address from the two offset
//! tables (§2.2, mod RF), its straddle flag, `ch_valid`, and the final error/warning rules of §6.4
//! (a fatal error zeroes the addresses and keeps only the fatal bits). Three sections joined by two
//! pipeline joins (each a register or a wire, as `pipe` decides; `handshake::LEVELS_OF_PIPE`):
//!
//! - `ChannelLookup`: channel i sits in column x and row y of the region (row-major: x = i mod W,
//!   y = i div W; column-major: y = i mod H, x = i div H); it takes col[x] and row[y] from the two
//!   tables, the column table holding `(origin + x·E·HS) mod RF`. Join 4 after it (pipe 6) holds
//!   two A_W-bit entries per channel, so the look-up's wide mux fan-out and the sum's carry chain
//!   are in different cycles.
//! - `ChannelAddr`: `addr(i) = (col[x] + row[y]) mod RF`. Both terms are below RF, so one
//!   compare against RF picks the sum or the sum − RF (a mask for a power-of-two RF).
//! - `ChannelFlags`: the straddle flags, the W_STRADDLE OR and the final error/warning bits. RB
//!   divides RF, so `addr(i) mod RB` (the address's low RB_W bits) is the sum's byte offset in its
//!   register, and the straddle test needs only the registered address: it runs after the join,
//!   in parallel with nothing heavier, where before it followed the modulo in the same cycle. It
//!   is bit logic, not offset + E > RB (see `update`).

use super::enc::{warn, FATAL_MASK};
use super::{Config, ERR_W, RAW_W, TAG_W, WARN_W};
use crate::prims::StageReg;
use rust_hdl::prelude::*;

/// The look-up's select, one-hot, decoded a section before the look-up and registered at join 3:
/// the look-up is then one AND-OR level per entry bit instead of a compare of log2 W behind the
/// join, whose three bits fanned out to every channel's mux (the default config's ECP5 worst path
/// at pipe 6: `carry3.width_log2` → look-up, 5 LUT levels, 77 % routing).
#[derive(LogicBlock)]
pub struct LookupSelect {
    /// log2 W.
    pub width_log2: Signal<In, Bits<3>>,
    /// log2 H.
    pub height_log2: Signal<In, Bits<3>>,
    /// Column-major order (already 0 without COLMAJOR_EN).
    pub colmajor: Signal<In, Bit>,
    /// Row-major: bit w for log2 W = w < log2 N_MAX, bit log2 N_MAX for log2 W ≥ log2 N_MAX
    /// (every channel i then sits at x = i, y = 0: one case, not 8 − log2 N_MAX cases ORed in the
    /// look-up); the same for column-major and log2 H from bit 8. Bits above are 0 (constant
    /// flops, removed by synthesis).
    pub look_sel: Signal<Out, Bits<16>>,
    /// 0..=log2 N_MAX, the values of log2 W / log2 H the select compares with.
    k_w: Vec<Constant<Bits<3>>>,
    /// log2 N_MAX.
    _ln: usize,
}

impl LookupSelect {
    pub fn new(n_max: usize) -> Self {
        assert!(n_max.is_power_of_two() && n_max <= 128);
        Self {
            width_log2: Default::default(),
            height_log2: Default::default(),
            colmajor: Default::default(),
            look_sel: Default::default(),
            // only the values the select compares with (an unused constant fails the lint)
            k_w: (0..=n_max.trailing_zeros() as u64).map(|w| Constant::new(w.to_bits())).collect(),
            _ln: n_max.trailing_zeros() as usize,
        }
    }
}

impl Logic for LookupSelect {
    #[hdl_gen]
    fn update(&mut self) {
        self.look_sel.next = 0.into();
        for w in 0..self._ln {
            self.look_sel.next = self.look_sel.val().replace_bit(w, !self.colmajor.val() & (self.width_log2.val() == self.k_w[w].val()));
            self.look_sel.next = self.look_sel.val().replace_bit(w + 8, self.colmajor.val() & (self.height_log2.val() == self.k_w[w].val()));
        }
        for w in self._ln..(self._ln + 1) {
            self.look_sel.next = self.look_sel.val().replace_bit(w, !self.colmajor.val() & (self.width_log2.val() >= self.k_w[w].val()));
            self.look_sel.next = self.look_sel.val().replace_bit(w + 8, self.colmajor.val() & (self.height_log2.val() >= self.k_w[w].val()));
        }
    }
}

/// Each channel's column and row entry: channel i sits at x = i mod W, y = i div W (row-major;
/// column-major swaps them with H). W and H are powers of two, so for each log2 W the entry is
/// fixed at generation time: the look-up is an 8:1 AND-OR on the one-hot `look_sel` per channel.
#[derive(LogicBlock)]
pub struct ChannelLookup<const NMAX: usize, const AW: usize, const ADDRW: usize> {
    /// col[x] = (origin + x·E·HS) mod RF, `[A_W·x +: A_W]`.
    pub col_tab: Signal<In, Bits<ADDRW>>,
    /// row[y] = y·E·VS mod RF.
    pub row_tab: Signal<In, Bits<ADDRW>>,
    /// The shape, one-hot ([`LookupSelect`]): bit w row-major with log2 W = w, bit 8 + w
    /// column-major with log2 H = w.
    pub look_sel: Signal<In, Bits<16>>,
    /// Channel i's column entry col[x], `[A_W·i +: A_W]`.
    pub col: Signal<Out, Bits<ADDRW>>,
    /// Channel i's row entry row[y], `[A_W·i +: A_W]`.
    pub row: Signal<Out, Bits<ADDRW>>,
    k_slot: Vec<Constant<Bits<16>>>,
    /// `[i·8 + w]`: the bit offset of entry `i mod 2^w` (the table index of channel i along the
    /// inner dimension of size 2^w) and of entry `i >> w` (along the outer one).
    k_mod_slot: Vec<Constant<Bits<16>>>,
    k_div_slot: Vec<Constant<Bits<16>>>,
    col_i: Signal<Local, Bits<AW>>,
    row_i: Signal<Local, Bits<AW>>,
    /// One AND term each: the entry if its select bit is set, else 0 (col/row, row- or
    /// column-major).
    t_col_r: Signal<Local, Bits<AW>>,
    t_row_r: Signal<Local, Bits<AW>>,
    t_col_c: Signal<Local, Bits<AW>>,
    t_row_c: Signal<Local, Bits<AW>>,
}

impl<const NMAX: usize, const AW: usize, const ADDRW: usize> Default for ChannelLookup<NMAX, AW, ADDRW> {
    fn default() -> Self {
        Self {
            col_tab: Default::default(),
            row_tab: Default::default(),
            look_sel: Default::default(),
            col: Default::default(),
            row: Default::default(),
            k_slot: (0..NMAX).map(|i| Constant::new(((AW * i) as u64).to_bits())).collect(),
            k_mod_slot: (0..NMAX * 8).map(|j| Constant::new(((AW * ((j / 8) % (1 << (j % 8)))) as u64).to_bits())).collect(),
            k_div_slot: (0..NMAX * 8).map(|j| Constant::new(((AW * ((j / 8) >> (j % 8))) as u64).to_bits())).collect(),
            col_i: Default::default(),
            row_i: Default::default(),
            t_col_r: Default::default(),
            t_row_r: Default::default(),
            t_col_c: Default::default(),
            t_row_c: Default::default(),
        }
    }
}

impl<const NMAX: usize, const AW: usize, const ADDRW: usize> Logic for ChannelLookup<NMAX, AW, ADDRW> {
    #[hdl_gen]
    fn update(&mut self) {
        self.col.next = 0.into();
        self.row.next = 0.into();
        for i in 0..NMAX {
            self.col_i.next = 0.into();
            self.row_i.next = 0.into();
            // an OR of AND terms (the select is one-hot), not a chain of ifs: as a priority chain
            // of 2:1 muxes it synthesised to 5 LUT levels on the ECP5
            for w in 0..8 {
                self.t_col_r.next = 0.into();
                self.t_row_r.next = 0.into();
                self.t_col_c.next = 0.into();
                self.t_row_c.next = 0.into();
                if self.look_sel.val().get_bit(w) {
                    self.t_col_r.next = self.col_tab.val().get_bits::<AW>(self.k_mod_slot[i * 8 + w].val().index());
                    self.t_row_r.next = self.row_tab.val().get_bits::<AW>(self.k_div_slot[i * 8 + w].val().index());
                }
                if self.look_sel.val().get_bit(w + 8) {
                    self.t_row_c.next = self.row_tab.val().get_bits::<AW>(self.k_mod_slot[i * 8 + w].val().index());
                    self.t_col_c.next = self.col_tab.val().get_bits::<AW>(self.k_div_slot[i * 8 + w].val().index());
                }
                self.col_i.next = self.col_i.val() | self.t_col_r.val() | self.t_col_c.val();
                self.row_i.next = self.row_i.val() | self.t_row_r.val() | self.t_row_c.val();
            }
            self.col.next = self.col.val() | (bit_cast::<ADDRW, AW>(self.col_i.val()) << self.k_slot[i].val());
            self.row.next = self.row.val() | (bit_cast::<ADDRW, AW>(self.row_i.val()) << self.k_slot[i].val());
        }
    }
}

/// addr(i) = (col + row) mod RF from each channel's two entries (both below RF, so one compare
/// against RF picks the sum or the sum − RF; a mask for a power-of-two RF), and `ch_valid`.
#[derive(LogicBlock)]
pub struct ChannelAddr<const NMAX: usize, const AW: usize, const ADDRW: usize> {
    /// Channel i's column entry, `[A_W·i +: A_W]`.
    pub col: Signal<In, Bits<ADDRW>>,
    /// Channel i's row entry, `[A_W·i +: A_W]`.
    pub row: Signal<In, Bits<ADDRW>>,
    /// log2 N.
    pub exec_log2: Signal<In, Bits<3>>,
    /// Error bits of the descriptor (only the fatal mask is read).
    pub err_in: Signal<In, Bits<ERR_W>>,
    /// Channel addresses, `[A_W·i +: A_W]`, zero for i ≥ N or on a fatal error.
    pub addr: Signal<Out, Bits<ADDRW>>,
    /// Bit i: i < N and no fatal error.
    pub ch_valid: Signal<Out, Bits<NMAX>>,
    k_idx: Vec<Constant<Bits<8>>>,
    k_slot: Vec<Constant<Bits<16>>>,
    k_rf: Constant<Bits<RAW_W>>,
    k_pow2: Constant<Bit>,
    k_amask: Constant<Bits<RAW_W>>,
    k_fatal: Constant<Bits<ERR_W>>,
    fatal: Signal<Local, Bit>,
    col_i: Signal<Local, Bits<AW>>,
    row_i: Signal<Local, Bits<AW>>,
    sum: Signal<Local, Bits<RAW_W>>,
    live: Signal<Local, Bit>,
    cut: Signal<Local, Bits<AW>>,
}

impl<const NMAX: usize, const AW: usize, const ADDRW: usize> ChannelAddr<NMAX, AW, ADDRW> {
    pub fn new(cfg: &Config) -> Self {
        let rf = cfg.rf_bytes() as u64;
        let k = |v: u64| Constant::new(v.to_bits());
        Self {
            col: Default::default(),
            row: Default::default(),
            exec_log2: Default::default(),
            err_in: Default::default(),
            addr: Default::default(),
            ch_valid: Default::default(),
            k_idx: (0..NMAX).map(|i| Constant::new((i as u64).to_bits())).collect(),
            k_slot: (0..NMAX).map(|i| Constant::new(((AW * i) as u64).to_bits())).collect(),
            k_rf: k(rf),
            k_pow2: Constant::new(rf.is_power_of_two()),
            k_amask: k((1 << AW) - 1),
            k_fatal: Constant::new(FATAL_MASK.to_bits()),
            fatal: Default::default(),
            col_i: Default::default(),
            row_i: Default::default(),
            sum: Default::default(),
            live: Default::default(),
            cut: Default::default(),
        }
    }
}

impl<const NMAX: usize, const AW: usize, const ADDRW: usize> Logic for ChannelAddr<NMAX, AW, ADDRW> {
    #[hdl_gen]
    fn update(&mut self) {
        self.fatal.next = (self.err_in.val() & self.k_fatal.val()).any();
        self.addr.next = 0.into();
        self.ch_valid.next = 0.into();
        for i in 0..NMAX {
            self.col_i.next = self.col.val().get_bits::<AW>(self.k_slot[i].val().index());
            self.row_i.next = self.row.val().get_bits::<AW>(self.k_slot[i].val().index());
            self.sum.next = bit_cast::<RAW_W, AW>(self.col_i.val()) + bit_cast::<RAW_W, AW>(self.row_i.val());
            if !self.k_pow2.val() & (self.sum.val() >= self.k_rf.val()) {
                self.sum.next = self.sum.val() - self.k_rf.val();
            }
            self.sum.next = self.sum.val() & self.k_amask.val();
            self.live.next = ((self.k_idx[i].val() >> self.exec_log2.val()) == 0) & !self.fatal.val();
            self.ch_valid.next = self.ch_valid.val().replace_bit(i, self.live.val());
            self.cut.next = bit_cast::<AW, RAW_W>(self.sum.val());
            if self.live.val() {
                self.addr.next = self.addr.val() | (bit_cast::<ADDRW, AW>(self.cut.val()) << self.k_slot[i].val());
            }
        }
    }
}

#[derive(LogicBlock)]
pub struct ChannelFlags<const NMAX: usize, const AW: usize, const ADDRW: usize> {
    /// Channel addresses from `ChannelAddr` (zero where not `ch_valid`).
    pub addr: Signal<In, Bits<ADDRW>>,
    /// Bit i: i < N and no fatal error.
    pub ch_valid: Signal<In, Bits<NMAX>>,
    /// log2 E.
    pub es: Signal<In, Bits<2>>,
    /// Error bits of the descriptor.
    pub err_in: Signal<In, Bits<ERR_W>>,
    /// Warning bits so far.
    pub warn_in: Signal<In, Bits<WARN_W>>,
    /// log2 E, 0 on a fatal error.
    pub es_out: Signal<Out, Bits<2>>,
    /// Bit i: element i crosses a register boundary.
    pub straddle: Signal<Out, Bits<NMAX>>,
    /// Final error bits (only the fatal ones if any).
    pub err_out: Signal<Out, Bits<ERR_W>>,
    /// Final warning bits (0 on a fatal error).
    pub warn_out: Signal<Out, Bits<WARN_W>>,
    k_slot: Vec<Constant<Bits<16>>>,
    k_fatal: Constant<Bits<ERR_W>>,
    k_warn_w_straddle: Constant<Bits<WARN_W>>,
    /// The four log2 E values, and per value (E − 1) mod RB and E > RB.
    k_es: Vec<Constant<Bits<2>>>,
    k_emask: Vec<Constant<Bits<RAW_W>>>,
    k_big: Vec<Constant<Bit>>,
    k_rb_mask: Constant<Bits<RAW_W>>,
    fatal: Signal<Local, Bit>,
    chan: Signal<Local, Bits<AW>>,
    /// (E − 1) mod RB and E > RB for this descriptor's E.
    emask: Signal<Local, Bits<RAW_W>>,
    big: Signal<Local, Bit>,
    /// The channel's byte offset in its register.
    off: Signal<Local, Bits<RAW_W>>,
}

impl<const NMAX: usize, const AW: usize, const ADDRW: usize> ChannelFlags<NMAX, AW, ADDRW> {
    pub fn new(cfg: &Config) -> Self {
        Self {
            addr: Default::default(),
            ch_valid: Default::default(),
            es: Default::default(),
            err_in: Default::default(),
            warn_in: Default::default(),
            es_out: Default::default(),
            straddle: Default::default(),
            err_out: Default::default(),
            warn_out: Default::default(),
            k_slot: (0..NMAX).map(|i| Constant::new(((AW * i) as u64).to_bits())).collect(),
            k_fatal: Constant::new(FATAL_MASK.to_bits()),
            k_warn_w_straddle: Constant::new(warn::W_STRADDLE.to_bits()),
            k_es: (0..4u64).map(|e| Constant::new(e.to_bits())).collect(),
            k_emask: (0..4u32).map(|e| Constant::new((((1u64 << e) - 1) & (cfg.reg_bytes as u64 - 1)).to_bits())).collect(),
            k_big: (0..4u32).map(|e| Constant::new((1u64 << e) > cfg.reg_bytes as u64)).collect(),
            k_rb_mask: Constant::new((cfg.reg_bytes as u64 - 1).to_bits()),
            fatal: Default::default(),
            chan: Default::default(),
            emask: Default::default(),
            big: Default::default(),
            off: Default::default(),
        }
    }
}

impl<const NMAX: usize, const AW: usize, const ADDRW: usize> Logic for ChannelFlags<NMAX, AW, ADDRW> {
    #[hdl_gen]
    fn update(&mut self) {
        self.fatal.next = (self.err_in.val() & self.k_fatal.val()).any();
        // offset + E > RB without an adder (RB and E are powers of two): E > RB, or the offset's
        // bits from log2 E up are all ones (the element's slot is the register's last) and its
        // bits below log2 E are not all zero (the element is not aligned). LUTs only: this was the
        // HX8K worst path as an add and a compare (2026-11-26).
        self.emask.next = 0.into();
        self.big.next = false;
        for e in 0..4 {
            if self.es.val() == self.k_es[e].val() {
                self.emask.next = self.k_emask[e].val();
                self.big.next = self.k_big[e].val();
            }
        }
        self.straddle.next = 0.into();
        for i in 0..NMAX {
            self.chan.next = self.addr.val().get_bits::<AW>(self.k_slot[i].val().index());
            self.off.next = bit_cast::<RAW_W, AW>(self.chan.val()) & self.k_rb_mask.val();
            self.straddle.next = self.straddle.val().replace_bit(
                i,
                self.ch_valid.val().get_bit(i)
                    & (self.big.val()
                        | (((self.off.val() | self.emask.val()) == self.k_rb_mask.val())
                            & (self.off.val() & self.emask.val()).any())),
            );
        }
        self.err_out.next = self.err_in.val();
        self.warn_out.next = self.warn_in.val();
        if self.straddle.val().any() {
            self.warn_out.next = self.warn_out.val() | self.k_warn_w_straddle.val();
        }
        self.es_out.next = self.es.val();
        if self.fatal.val() {
            self.err_out.next = self.err_in.val() & self.k_fatal.val();
            self.warn_out.next = 0.into();
            self.es_out.next = 0.into();
        }
    }
}

/// `ChannelLookup`, join 4, `ChannelAddr`, join 5, `ChannelFlags` (each join registers when
/// its flag says so).
#[derive(LogicBlock)]
pub struct Channels<const NMAX: usize, const AW: usize, const ADDRW: usize> {
    /// Clock of the joins' registers.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset of the joins' registers.
    pub rst: Signal<In, Bit>,
    /// Join 4 loads (a valid descriptor enters `ChannelAddr`).
    pub en_look: Signal<In, Bit>,
    /// Join 5 loads (a valid descriptor enters `ChannelFlags`).
    pub en: Signal<In, Bit>,
    /// col[x] = (origin + x·E·HS) mod RF, `[A_W·x +: A_W]`.
    pub col_tab: Signal<In, Bits<ADDRW>>,
    /// row[y] = y·E·VS mod RF.
    pub row_tab: Signal<In, Bits<ADDRW>>,
    /// log2 E.
    pub es: Signal<In, Bits<2>>,
    /// log2 N.
    pub exec_log2: Signal<In, Bits<3>>,
    /// The shape, one-hot ([`LookupSelect`]).
    pub look_sel: Signal<In, Bits<16>>,
    /// Error bits of the descriptor.
    pub err_in: Signal<In, Bits<ERR_W>>,
    /// Warning bits so far.
    pub warn_in: Signal<In, Bits<WARN_W>>,
    /// Operand tag.
    pub tag_in: Signal<In, Bits<TAG_W>>,
    /// Channel addresses, `[A_W·i +: A_W]`, zero for i ≥ N or on a fatal error.
    pub addr: Signal<Out, Bits<ADDRW>>,
    /// log2 E, 0 on a fatal error.
    pub es_out: Signal<Out, Bits<2>>,
    /// Bit i: i < N and no fatal error.
    pub ch_valid: Signal<Out, Bits<NMAX>>,
    /// Bit i: element i crosses a register boundary.
    pub straddle: Signal<Out, Bits<NMAX>>,
    /// Final error bits (only the fatal ones if any).
    pub err_out: Signal<Out, Bits<ERR_W>>,
    /// Final warning bits (0 on a fatal error).
    pub warn_out: Signal<Out, Bits<WARN_W>>,
    /// `tag_in` after the joins.
    pub tag_out: Signal<Out, Bits<TAG_W>>,
    lookup: ChannelLookup<NMAX, AW, ADDRW>,
    j4_col: StageReg<Bits<ADDRW>>,
    j4_row: StageReg<Bits<ADDRW>>,
    j4_exec_log2: StageReg<Bits<3>>,
    j4_es: StageReg<Bits<2>>,
    j4_err: StageReg<Bits<ERR_W>>,
    j4_warn: StageReg<Bits<WARN_W>>,
    j4_tag: StageReg<Bits<TAG_W>>,
    address: ChannelAddr<NMAX, AW, ADDRW>,
    j5_addr: StageReg<Bits<ADDRW>>,
    j5_ch_valid: StageReg<Bits<NMAX>>,
    j5_es: StageReg<Bits<2>>,
    j5_err: StageReg<Bits<ERR_W>>,
    j5_warn: StageReg<Bits<WARN_W>>,
    j5_tag: StageReg<Bits<TAG_W>>,
    flags: ChannelFlags<NMAX, AW, ADDRW>,
}

impl<const NMAX: usize, const AW: usize, const ADDRW: usize> Channels<NMAX, AW, ADDRW> {
    /// `look_registered`: join 4 (after the look-up) is a register; `registered`: join 5 (after
    /// the addresses).
    pub fn new(cfg: &Config, look_registered: bool, registered: bool) -> Self {
        Self {
            clock: Default::default(),
            rst: Default::default(),
            en_look: Default::default(),
            en: Default::default(),
            col_tab: Default::default(),
            row_tab: Default::default(),
            es: Default::default(),
            exec_log2: Default::default(),
            look_sel: Default::default(),
            err_in: Default::default(),
            warn_in: Default::default(),
            tag_in: Default::default(),
            addr: Default::default(),
            es_out: Default::default(),
            ch_valid: Default::default(),
            straddle: Default::default(),
            err_out: Default::default(),
            warn_out: Default::default(),
            tag_out: Default::default(),
            lookup: Default::default(),
            j4_col: StageReg::new(look_registered),
            j4_row: StageReg::new(look_registered),
            j4_exec_log2: StageReg::new(look_registered),
            j4_es: StageReg::new(look_registered),
            j4_err: StageReg::new(look_registered),
            j4_warn: StageReg::new(look_registered),
            j4_tag: StageReg::new(look_registered),
            address: ChannelAddr::new(cfg),
            j5_addr: StageReg::new(registered),
            j5_ch_valid: StageReg::new(registered),
            j5_es: StageReg::new(registered),
            j5_err: StageReg::new(registered),
            j5_warn: StageReg::new(registered),
            j5_tag: StageReg::new(registered),
            flags: ChannelFlags::new(cfg),
        }
    }
}

impl<const NMAX: usize, const AW: usize, const ADDRW: usize> Logic for Channels<NMAX, AW, ADDRW> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, j4_col, j4_row, j4_exec_log2, j4_es, j4_err, j4_warn, j4_tag, j5_addr, j5_ch_valid, j5_es, j5_err, j5_warn, j5_tag);
        self.j4_col.rst.next = self.rst.val();
        self.j4_row.rst.next = self.rst.val();
        self.j4_exec_log2.rst.next = self.rst.val();
        self.j4_es.rst.next = self.rst.val();
        self.j4_err.rst.next = self.rst.val();
        self.j4_warn.rst.next = self.rst.val();
        self.j4_tag.rst.next = self.rst.val();
        self.j5_addr.rst.next = self.rst.val();
        self.j5_ch_valid.rst.next = self.rst.val();
        self.j5_es.rst.next = self.rst.val();
        self.j5_err.rst.next = self.rst.val();
        self.j5_warn.rst.next = self.rst.val();
        self.j5_tag.rst.next = self.rst.val();
        self.j4_col.en.next = self.en_look.val();
        self.j4_row.en.next = self.en_look.val();
        self.j4_exec_log2.en.next = self.en_look.val();
        self.j4_es.en.next = self.en_look.val();
        self.j4_err.en.next = self.en_look.val();
        self.j4_warn.en.next = self.en_look.val();
        self.j4_tag.en.next = self.en_look.val();
        self.j5_addr.en.next = self.en.val();
        self.j5_ch_valid.en.next = self.en.val();
        self.j5_es.en.next = self.en.val();
        self.j5_err.en.next = self.en.val();
        self.j5_warn.en.next = self.en.val();
        self.j5_tag.en.next = self.en.val();
        // ---- look-up ----
        self.lookup.col_tab.next = self.col_tab.val();
        self.lookup.row_tab.next = self.row_tab.val();
        self.lookup.look_sel.next = self.look_sel.val();
        // ---- join 4 ----
        self.j4_col.d.next = self.lookup.col.val();
        self.j4_row.d.next = self.lookup.row.val();
        self.j4_exec_log2.d.next = self.exec_log2.val();
        self.j4_es.d.next = self.es.val();
        self.j4_err.d.next = self.err_in.val();
        self.j4_warn.d.next = self.warn_in.val();
        self.j4_tag.d.next = self.tag_in.val();
        // ---- addresses ----
        self.address.col.next = self.j4_col.q.val();
        self.address.row.next = self.j4_row.q.val();
        self.address.exec_log2.next = self.j4_exec_log2.q.val();
        self.address.err_in.next = self.j4_err.q.val();
        // ---- join 5 ----
        self.j5_addr.d.next = self.address.addr.val();
        self.j5_ch_valid.d.next = self.address.ch_valid.val();
        self.j5_es.d.next = self.j4_es.q.val();
        self.j5_err.d.next = self.j4_err.q.val();
        self.j5_warn.d.next = self.j4_warn.q.val();
        self.j5_tag.d.next = self.j4_tag.q.val();
        // ---- flags ----
        self.flags.addr.next = self.j5_addr.q.val();
        self.flags.ch_valid.next = self.j5_ch_valid.q.val();
        self.flags.es.next = self.j5_es.q.val();
        self.flags.err_in.next = self.j5_err.q.val();
        self.flags.warn_in.next = self.j5_warn.q.val();
        self.addr.next = self.j5_addr.q.val();
        self.ch_valid.next = self.j5_ch_valid.q.val();
        self.es_out.next = self.flags.es_out.val();
        self.straddle.next = self.flags.straddle.val();
        self.err_out.next = self.flags.err_out.val();
        self.warn_out.next = self.flags.warn_out.val();
        self.tag_out.next = self.j5_tag.q.val();
    }
}
