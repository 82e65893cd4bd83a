//! Golden model of the region address generator (RAG), the register-file gather unit (RFG) and
//! the destination scatter unit (RFS), written from the spec
//! (../shared/spec/region-address-generator.md, §2.2, §6.4, §6.7), never from the RTL.
//!
//! The pure functions `rag`, `gather`, `scatter` are §6.7. The cycle wrappers (`RagTiming`,
//! `RfgTiming`, `RfsTiming`) add the §6.3/§6.5/§6.6 handshake timing so the co-simulation can
//! compare every output port every cycle. Nothing here allocates per call.

use hdl::region_addr_gen::enc::{err, type_code, warn};

/// Error bits of `out_err` (§6.4), by their spec names from `hdl::region_addr_gen::enc::err`.
pub const E_ENC: u16 = err::E_ENC as u16;
pub const E_TYPE: u16 = err::E_TYPE as u16;
pub const E_EXEC: u16 = err::E_EXEC as u16;
pub const E_WIDTH: u16 = err::E_WIDTH as u16;
pub const E_REG: u16 = err::E_REG as u16;
pub const E_ORDER: u16 = err::E_ORDER as u16;
pub const E_OOB: u16 = err::E_OOB as u16;
pub const E_ALIGN: u16 = err::E_ALIGN as u16;
pub const E_DST_OVERLAP: u16 = err::E_DST_OVERLAP as u16;
pub const E_DST_PROFILE: u16 = err::E_DST_PROFILE as u16;
pub const E_SPAN: u16 = err::E_SPAN as u16;
/// The fatal class (§6.4): these mask every other output.
pub const FATAL_MASK: u16 = hdl::region_addr_gen::enc::FATAL_MASK as u16;
/// Warning bits of `out_warn` (`hdl::region_addr_gen::enc::warn`).
pub const W_WRAP: u8 = warn::W_WRAP as u8;
pub const W_MISALIGN: u8 = warn::W_MISALIGN as u8;
pub const W_STRADDLE: u8 = warn::W_STRADDLE as u8;
pub const W_MULTIPASS: u8 = warn::W_MULTIPASS as u8;

/// Largest N_MAX the spec allows (§4.2).
pub const N_MAX_LIMIT: usize = 32;

/// The block parameters the golden model needs (§4.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cfg {
    pub rb: u32,
    pub nr: u32,
    pub n_max: u32,
    pub wrap_rf: bool,
    pub align_strict: bool,
    pub dst_restricted: bool,
    pub colmajor_en: bool,
    pub rd_ports: u32,
    pub wr_ports: u32,
    pub l_rf: u32,
    pub span_limit_1pass: bool,
}

impl Cfg {
    pub fn rf_bytes(&self) -> u32 {
        self.rb * self.nr
    }
    /// `RN_W = ceil(log2 NR)` (at least 1).
    pub fn rn_w(&self) -> u32 {
        ceil_log2(self.nr).max(1)
    }
    pub fn rb_w(&self) -> u32 {
        ceil_log2(self.rb)
    }
    /// Address width per channel: `{reg, byte}`.
    pub fn a_w(&self) -> u32 {
        self.rn_w() + self.rb_w()
    }
    /// Width of `opnd_passes`: `ceil(log2(2*N_MAX/RD_PORTS + 1))` (§6.5).
    pub fn passes_w(&self) -> u32 {
        ceil_log2(2 * self.n_max / self.rd_ports + 1)
    }
}

pub fn ceil_log2(x: u32) -> u32 {
    if x <= 1 {
        0
    } else {
        32 - (x - 1).leading_zeros()
    }
}

impl From<&hdl::region_addr_gen::Config> for Cfg {
    fn from(c: &hdl::region_addr_gen::Config) -> Self {
        Cfg {
            rb: c.reg_bytes,
            nr: c.num_regs,
            n_max: c.n_max,
            wrap_rf: c.wrap_rf,
            align_strict: c.align_strict,
            dst_restricted: c.dst_profile == "restricted",
            colmajor_en: c.colmajor_en,
            rd_ports: c.rd_ports,
            wr_ports: c.wr_ports,
            l_rf: c.l_rf,
            span_limit_1pass: c.span_limit_1pass,
        }
    }
}

/// A decoded region descriptor (the RAG's `in_*` ports, §6.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Desc {
    pub enc_err: bool,
    pub reg: u32,
    /// Byte offset inside the origin register.
    pub sub: u32,
    /// Type code: 000 ub, 001 b, 010 uw, 011 w, 100 ud, 101 d, 110 f, 111 reserved.
    pub ty: u32,
    pub exec_log2: u32,
    pub width_log2: u32,
    /// Raw horizontal stride in elements (0..127).
    pub hs: u32,
    /// Raw vertical stride in elements (0..255).
    pub vs: u32,
    pub is_dst: bool,
    pub colmajor: bool,
    pub tag: u32,
}

/// Type codes (§4.2), from `hdl::region_addr_gen::enc::type_code`.
pub const T_UB: u32 = type_code::UB as u32;
pub const T_B: u32 = type_code::B as u32;
pub const T_UW: u32 = type_code::UW as u32;
pub const T_W: u32 = type_code::W as u32;
pub const T_UD: u32 = type_code::UD as u32;
pub const T_D: u32 = type_code::D as u32;
pub const T_F: u32 = type_code::F as u32;
/// The reserved type code 111 (E_TYPE).
pub const T_RESERVED: u32 = type_code::RESERVED as u32;

impl Desc {
    /// `Rr.s<VS;W,HS>:t` with N = 2^exec_log2 (W given as a value, a power of two).
    pub fn region(reg: u32, sub: u32, vs: u32, w: u32, hs: u32, ty: u32, n: u32) -> Desc {
        assert!(w.is_power_of_two() && n.is_power_of_two());
        Desc {
            reg,
            sub,
            ty,
            exec_log2: n.trailing_zeros(),
            width_log2: w.trailing_zeros(),
            hs,
            vs,
            ..Default::default()
        }
    }
    pub fn dst(mut self) -> Desc {
        self.is_dst = true;
        self
    }
}

/// RAG result (§6.7). Channels >= N (and every channel on a fatal error) are zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RagOut {
    pub addr: [u32; N_MAX_LIMIT],
    pub esize_log2: u32,
    pub ch_valid: u32,
    pub straddle: u32,
    pub err: u16,
    pub warn: u8,
}

impl Default for RagOut {
    fn default() -> Self {
        RagOut { addr: [0; N_MAX_LIMIT], esize_log2: 0, ch_valid: 0, straddle: 0, err: 0, warn: 0 }
    }
}

/// `raw(i)` of §2.2 for a non-fatal descriptor (exact integer).
pub fn raw_addr(cfg: &Cfg, d: &Desc, i: u32) -> u32 {
    let es = esize_log2(d.ty).expect("legal type");
    let n = 1u32 << d.exec_log2;
    let w = 1u32 << d.width_log2;
    let h = n / w;
    let (y, x) = if d.colmajor { (i % h, i / h) } else { (i / w, i % w) };
    let origin = d.reg * cfg.rb + d.sub;
    origin + (1 << es) * (y * d.vs + x * d.hs)
}

/// Element size code for a type code; `None` for the reserved 111.
pub fn esize_log2(ty: u32) -> Option<u32> {
    match ty {
        T_UB | T_B => Some(0),
        T_UW | T_W => Some(1),
        T_UD | T_D | T_F => Some(2),
        _ => None,
    }
}

/// §6.7 `rag(cfg, d)`.
pub fn rag(cfg: &Cfg, d: &Desc) -> RagOut {
    let mut err = 0u16;
    if d.enc_err {
        err |= E_ENC;
    }
    let es = esize_log2(d.ty);
    if es.is_none() {
        err |= E_TYPE;
    }
    if (1u64 << d.exec_log2) > cfg.n_max as u64 {
        err |= E_EXEC;
    }
    if d.width_log2 > d.exec_log2 {
        err |= E_WIDTH;
    }
    if d.reg >= cfg.nr {
        err |= E_REG;
    }
    if d.colmajor && !cfg.colmajor_en {
        err |= E_ORDER;
    }
    let mut o = RagOut::default();
    if err & FATAL_MASK != 0 {
        o.err = err;
        return o;
    }
    let es = es.unwrap();
    let e = 1u32 << es;
    let n = 1u32 << d.exec_log2;
    let w = 1u32 << d.width_log2;
    let h = n / w;
    let rf = cfg.rf_bytes();
    let org = d.reg * cfg.rb + d.sub;
    let mut warn = 0u8;
    o.esize_log2 = es;
    for i in 0..n {
        let a = raw_addr(cfg, d, i) % rf;
        o.addr[i as usize] = a;
        o.ch_valid |= 1 << i;
        if a % cfg.rb + e > cfg.rb {
            o.straddle |= 1 << i;
        }
    }
    let last = raw_addr(cfg, d, n - 1) + e - 1;
    if last >= rf {
        if cfg.wrap_rf {
            warn |= W_WRAP;
        } else {
            err |= E_OOB;
        }
    }
    if d.sub % e != 0 {
        warn |= W_MISALIGN;
        if cfg.align_strict {
            err |= E_ALIGN;
        }
    }
    if o.straddle != 0 {
        warn |= W_STRADDLE;
    }
    if d.is_dst {
        if (w > 1 && d.hs == 0) || (h > 1 && d.vs < (w - 1) * d.hs + 1) || (last + 1 - org > rf) {
            err |= E_DST_OVERLAP;
        }
        if cfg.dst_restricted && (h != 1 || d.sub != 0) {
            err |= E_DST_PROFILE;
        }
    }
    o.err = err;
    o.warn = warn;
    o
}

/// One-stage registered RAG with the §6.3 valid/ready contract: outputs change only when a
/// descriptor is accepted, `out_valid` drops when the result is taken, `rst` clears everything.
#[derive(Clone, Copy, Debug, Default)]
pub struct RagTiming {
    pub out_valid: bool,
    pub out: RagOut,
    pub tag: u32,
}

impl RagTiming {
    /// `in_ready` for the current state and `out_ready` (combinational, §6.2).
    pub fn in_ready(&self, out_ready: bool) -> bool {
        !self.out_valid || out_ready
    }
    /// One rising edge with the given inputs. `res` is the precomputed `rag(cfg, d)` (the caller
    /// computes it so bulk runs can reuse it).
    pub fn step(&mut self, rst: bool, in_valid: bool, d: &Desc, res: &RagOut, out_ready: bool) {
        if rst {
            *self = RagTiming::default();
            return;
        }
        if in_valid && self.in_ready(out_ready) {
            self.out_valid = true;
            self.out = *res;
            self.tag = d.tag;
        } else if out_ready {
            self.out_valid = false;
        }
    }
}

/// Lane byte address `b(i,k) = (addr(i)+k) mod RF`.
fn lane_addr(cfg: &Cfg, r: &RagOut, i: usize, k: u32) -> u32 {
    (r.addr[i] + k) % cfg.rf_bytes()
}

/// Sorted distinct registers touched by the live lanes (`mask` restricts channels; RFS predication).
/// Returns the count; `regs[..count]` holds them ascending.
pub fn distinct_regs(cfg: &Cfg, r: &RagOut, mask: u32, regs: &mut [u32; 2 * N_MAX_LIMIT]) -> usize {
    let e = 1u32 << r.esize_log2;
    let mut seen = [0u64; 4]; // NR <= 256
    for i in 0..cfg.n_max as usize {
        if (r.ch_valid & mask) >> i & 1 == 0 {
            continue;
        }
        for k in 0..e {
            let reg = lane_addr(cfg, r, i, k) / cfg.rb;
            seen[(reg / 64) as usize] |= 1 << (reg % 64);
        }
    }
    let mut n = 0;
    for reg in 0..cfg.nr {
        if seen[(reg / 64) as usize] >> (reg % 64) & 1 == 1 {
            regs[n] = reg;
            n += 1;
        }
    }
    n
}

/// §6.7 `gather`: the operand read from `rf` (RF_BYTES bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GatherOut {
    pub data: [u32; N_MAX_LIMIT],
    pub ch_valid: u32,
    pub err: u16,
    pub warn: u8,
    pub passes: u32,
    /// Registers read, ascending; pass j reads `regs[j*RD_PORTS ..][..RD_PORTS]`.
    pub regs: [u32; 2 * N_MAX_LIMIT],
    pub nregs: usize,
}

pub fn gather(cfg: &Cfg, rf: &[u8], r: &RagOut) -> GatherOut {
    let mut g = GatherOut {
        data: [0; N_MAX_LIMIT],
        ch_valid: r.ch_valid,
        err: r.err,
        warn: r.warn,
        passes: 0,
        regs: [0; 2 * N_MAX_LIMIT],
        nregs: 0,
    };
    let n = distinct_regs(cfg, r, u32::MAX, &mut g.regs);
    if cfg.span_limit_1pass && n > cfg.rd_ports as usize {
        g.err |= E_SPAN;
    }
    if g.err != 0 {
        g.regs = [0; 2 * N_MAX_LIMIT];
        return g;
    }
    g.nregs = n;
    g.passes = n.div_ceil(cfg.rd_ports as usize) as u32;
    if g.passes > 1 {
        g.warn |= W_MULTIPASS;
    }
    let e = 1u32 << r.esize_log2;
    for i in 0..cfg.n_max as usize {
        if r.ch_valid >> i & 1 == 0 {
            continue;
        }
        let mut v = 0u32;
        for k in 0..e {
            v |= (rf[lane_addr(cfg, r, i, k) as usize] as u32) << (8 * k);
        }
        g.data[i] = v;
    }
    g
}

/// §6.7 `scatter`: writes `res` (low E bytes per channel) into `rf` through the region; returns
/// the registers written (ascending), or nothing on an error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScatterOut {
    pub err: u16,
    pub warn: u8,
    pub regs: [u32; 2 * N_MAX_LIMIT],
    pub nregs: usize,
    pub passes: u32,
}

pub fn scatter(cfg: &Cfg, rf: &mut [u8], r: &RagOut, res: &[u32], mask: u32) -> ScatterOut {
    let mut s = ScatterOut { err: r.err, warn: r.warn, regs: [0; 2 * N_MAX_LIMIT], nregs: 0, passes: 0 };
    let n = distinct_regs(cfg, r, mask, &mut s.regs);
    if cfg.span_limit_1pass && n > cfg.wr_ports as usize {
        s.err |= E_SPAN;
    }
    if s.err != 0 {
        s.regs = [0; 2 * N_MAX_LIMIT];
        return s;
    }
    s.nregs = n;
    s.passes = n.div_ceil(cfg.wr_ports as usize) as u32;
    if s.passes > 1 {
        s.warn |= W_MULTIPASS;
    }
    let e = 1u32 << r.esize_log2;
    for i in 0..cfg.n_max as usize {
        if (r.ch_valid & mask) >> i & 1 == 0 {
            continue;
        }
        for k in 0..e {
            rf[lane_addr(cfg, r, i, k) as usize] = (res[i] >> (8 * k)) as u8;
        }
    }
    s
}

/// Cycle model of the RFG `eu_region_gather` (§6.5 timing), built on the pure `gather`.
///
/// A descriptor (RAG bundle) accepted in cycle c0 (when idle, or when the held result is taken
/// with `opnd_ready` in the same cycle) issues pass j (registers `regs[j*RD_PORTS..]`, ports in
/// ascending order) in cycle c0+j and is presented with `opnd_valid` from cycle c0+P+L_RF until
/// taken. An errored descriptor (RAG error or E_SPAN) issues nothing and is presented from c0+1.
/// While `opnd_valid = 0` every `opnd_*` output is 0 (project choice, §6.5 leaves it open).
/// `rf` is read when the descriptor is accepted (the test bench's RF does not change meanwhile).
#[derive(Clone, Copy, Debug)]
pub struct RfgTiming {
    /// The descriptor in flight: its result and the number of edges since it was accepted.
    pub job: Option<(GatherOut, u32)>,
    pub out_valid: bool,
    pub out: GatherOut,
    pub tag: u32,
}

/// The RFG's outputs in one cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RfgOut {
    pub rag_ready: bool,
    /// Bit p = port p requests `rd_reg[p]` this cycle.
    pub rd_en: u32,
    pub rd_reg: [u32; 4],
    pub opnd_valid: bool,
    pub data: [u32; N_MAX_LIMIT],
    pub ch_valid: u32,
    pub err: u16,
    pub warn: u8,
    pub passes: u32,
    pub tag: u32,
}

impl Default for RfgTiming {
    fn default() -> Self {
        RfgTiming { job: None, out_valid: false, out: EMPTY_GATHER, tag: 0 }
    }
}

const EMPTY_GATHER: GatherOut =
    GatherOut { data: [0; N_MAX_LIMIT], ch_valid: 0, err: 0, warn: 0, passes: 0, regs: [0; 2 * N_MAX_LIMIT], nregs: 0 };

impl RfgTiming {
    pub fn rag_ready(&self, opnd_ready: bool) -> bool {
        self.job.is_none() && (!self.out_valid || opnd_ready)
    }

    /// Outputs of the current cycle. `newg` is `gather(cfg, rf, rag bundle)` of the bundle on
    /// the inputs (used only if it is accepted this cycle).
    pub fn outputs(&self, cfg: &Cfg, rag_valid: bool, newg: &GatherOut, opnd_ready: bool) -> RfgOut {
        let rag_ready = self.rag_ready(opnd_ready);
        let mut o = RfgOut {
            rag_ready,
            rd_en: 0,
            rd_reg: [0; 4],
            opnd_valid: self.out_valid,
            data: [0; N_MAX_LIMIT],
            ch_valid: 0,
            err: 0,
            warn: 0,
            passes: 0,
            tag: 0,
        };
        let pass = if rag_valid && rag_ready {
            Some((newg, 0))
        } else {
            self.job.as_ref().map(|(g, age)| (g, *age))
        };
        if let Some((g, j)) = pass {
            let rdp = cfg.rd_ports as usize;
            if g.err == 0 && j < g.passes {
                let lo = j as usize * rdp;
                for p in 0..rdp.min(g.nregs - lo) {
                    o.rd_en |= 1 << p;
                    o.rd_reg[p] = g.regs[lo + p];
                }
            }
        }
        if self.out_valid {
            o.data = self.out.data;
            o.ch_valid = self.out.ch_valid;
            o.err = self.out.err;
            o.warn = self.out.warn;
            o.passes = self.out.passes;
            o.tag = self.tag;
        }
        o
    }

    /// One rising edge. `newg`/`tag` describe the bundle on the inputs.
    pub fn step(&mut self, cfg: &Cfg, rst: bool, rag_valid: bool, newg: &GatherOut, tag: u32, opnd_ready: bool) {
        if rst {
            *self = RfgTiming::default();
            return;
        }
        if rag_valid && self.rag_ready(opnd_ready) {
            self.tag = tag;
            if newg.err != 0 {
                self.out_valid = true;
                self.out = *newg;
            } else {
                self.out_valid = false;
                self.job = Some((*newg, 1));
            }
            return;
        }
        if opnd_ready {
            self.out_valid = false;
        }
        if let Some((g, age)) = self.job {
            // The edge that ends cycle c0 + P + L_RF - 1 presents the operand.
            if age + 1 == g.passes + cfg.l_rf {
                self.out_valid = true;
                self.out = g;
                self.job = None;
            } else {
                self.job = Some((g, age + 1));
            }
        }
    }
}

/// Byte enables and data of the write of register `reg` by the scatter of `res` through `r`
/// (lanes `ch_valid ∧ mask`, k < E; §6.6): bit c of `be` = column c written, `bytes[c]` its value.
pub fn scatter_write(cfg: &Cfg, r: &RagOut, res: &[u32], mask: u32, reg: u32) -> (u64, [u8; 64]) {
    let (mut be, mut bytes) = (0u64, [0u8; 64]);
    for i in 0..cfg.n_max as usize {
        if (r.ch_valid & mask) >> i & 1 == 0 {
            continue;
        }
        for k in 0..1u32 << r.esize_log2 {
            let a = lane_addr(cfg, r, i, k);
            if a / cfg.rb == reg {
                be |= 1 << (a % cfg.rb);
                bytes[(a % cfg.rb) as usize] = (res[i] >> (8 * k)) as u8;
            }
        }
    }
    (be, bytes)
}

/// One RFS job: bundle, results, mask, tag, the §6.7 `scatter` summary.
#[derive(Clone, Copy, Debug)]
pub struct RfsJob {
    pub r: RagOut,
    pub res: [u32; N_MAX_LIMIT],
    pub mask: u32,
    pub tag: u32,
    pub s: ScatterOut,
}

/// The RFS's outputs in one cycle (write port q: `wr_reg[q]`, `wr_be[q]`, `wr_data[q]`).
#[derive(Clone, Copy, Debug)]
pub struct RfsOut {
    pub rag_ready: bool,
    pub wr_en: u32,
    pub wr_reg: [u32; 2],
    pub wr_be: [u64; 2],
    pub wr_data: [[u8; 64]; 2],
    pub done: bool,
    pub err: u16,
    pub warn: u8,
    pub tag: u32,
}

/// Cycle model of the RFS `eu_region_scatter` (§6.6): accept in c0 when idle
/// (`rag_ready = !busy`), pass j (registers `regs[j*WR_PORTS..]`, ascending over ports) in
/// c0+j, `wr_done` with `wr_warn`/`wr_tag` in the last pass c0+P_w−1 (c0 if P_w = 0); on any
/// error no writes and `wr_done` with `wr_err` in c0. Outputs other than `rag_ready` are 0 when
/// nothing is written or done.
#[derive(Clone, Copy, Debug, Default)]
pub struct RfsTiming {
    pub job: Option<(RfsJob, u32)>,
}

impl RfsTiming {
    pub fn outputs(&self, cfg: &Cfg, rag_valid: bool, new: &RfsJob) -> RfsOut {
        let rag_ready = self.job.is_none();
        let mut o = RfsOut {
            rag_ready,
            wr_en: 0,
            wr_reg: [0; 2],
            wr_be: [0; 2],
            wr_data: [[0; 64]; 2],
            done: false,
            err: 0,
            warn: 0,
            tag: 0,
        };
        let (job, j) = match (rag_valid && rag_ready, &self.job) {
            (true, _) => (new, 0),
            (false, Some((job, age))) => (job, *age),
            (false, None) => return o,
        };
        if job.s.err != 0 {
            o.done = true;
            o.err = job.s.err;
            o.warn = job.s.warn;
            o.tag = job.tag;
            return o;
        }
        let wp = cfg.wr_ports as usize;
        let lo = j as usize * wp;
        for q in 0..wp.min(job.s.nregs.saturating_sub(lo)) {
            let reg = job.s.regs[lo + q];
            let (be, bytes) = scatter_write(cfg, &job.r, &job.res, job.mask, reg);
            o.wr_en |= 1 << q;
            o.wr_reg[q] = reg;
            o.wr_be[q] = be;
            o.wr_data[q] = bytes;
        }
        if j + 1 >= job.s.passes {
            o.done = true;
            o.warn = job.s.warn;
            o.tag = job.tag;
        }
        o
    }

    pub fn step(&mut self, rst: bool, rag_valid: bool, new: &RfsJob) {
        if rst {
            self.job = None;
            return;
        }
        if rag_valid && self.job.is_none() {
            if new.s.err == 0 && new.s.passes > 1 {
                self.job = Some((*new, 1));
            }
            return;
        }
        if let Some((job, age)) = self.job {
            self.job = if age + 1 < job.s.passes { Some((job, age + 1)) } else { None };
        }
    }
}
