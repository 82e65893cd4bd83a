//! Golden model of the alu_pipeline unit, written from shared/spec/alu-pipeline.md (§2.3–§2.10,
//! §6, §7, §8), never from the RTL. Cycle-level and bit-exact: `outputs()` gives every §7.2
//! port as a function of state (Moore), `step()` applies one clock edge with the §2.10 semantics.
//! The encodings come from `hdl::alu_pipeline::enc` (single source of truth, §7.4), through
//! `hdl::alu_pipeline::isa`, which names them `OP_*`, `ERR_*`, `FN_*` as `u32`.

pub use hdl::alu_pipeline::isa;
use isa::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    All,
    First,
    None,
}

#[derive(Clone, Debug)]
pub struct Params {
    pub num_alus: usize,
    pub imem_depth: usize,
    pub scope: Scope,
    /// TOGGLE_CNT = 1: tog_s1..tog_s3 count bank data toggles (§6.6); 0: the ports are 0
    pub toggle_cnt: bool,
}

impl Default for Params {
    fn default() -> Self {
        Self { num_alus: 4, imem_depth: 32, scope: Scope::All, toggle_cnt: false }
    }
}

/// Inputs of one cycle (every §7.2 input except clk/rst).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Inputs {
    pub in_valid: bool,
    pub in_data: [u32; 4],
    pub in_pix: u8,
    pub in_row: u8,
    pub in_nrows_m1: u8,
    pub in_iptr: u8,
    pub in_ce: bool,
    pub in_tag: u8,
    pub out_ready: bool,
    pub cfg_we: bool,
    pub cfg_re: bool,
    pub cfg_addr: u16,
    pub cfg_wdata: u32,
}

/// Every §7.2 output. out_* are 0 while out_valid = 0 and cfg_rdata is 0 while cfg_rvalid = 0
/// (deviation-free refinement of "only compared when valid", see docs/alu_pipeline.md).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outputs {
    pub in_ready: bool,
    pub out_valid: bool,
    pub out_data: [u32; 4],
    pub out_pix: u8,
    pub out_row: u8,
    pub out_nrows_m1: u8,
    pub out_iptr: u8,
    pub out_ce: bool,
    pub out_tag: u8,
    pub cfg_rvalid: bool,
    pub cfg_rdata: u32,
    pub busy: bool,
    pub act: [u32; 4],
    pub slots_issued: u32,
    pub slots_skipped: u32,
    pub reg_writes: u32,
    pub ce_writes: u32,
    pub groups_done: u32,
    pub tog: [u64; 3],
    pub dbg_en: u8,
    pub dbg_issue: bool,
    pub dbg_issue_pk: u8,
    pub err_sticky: u16,
    pub err_first: u32,
    pub err_any: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum St {
    #[default]
    Empty,
    Fill,
    Full,
    Run,
    Done,
    Drain,
}

#[derive(Clone, Debug, Default)]
pub struct Buffer {
    pub reg: [[u32; 16]; 4],
    pub ce: [[bool; 4]; 4],
    pub iptr: [[u8; 4]; 4],
    pub tag: [[u8; 4]; 4],
    /// R (1..4)
    pub r: usize,
    pub seq: u8,
    pub st: St,
    pub n: usize,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Shadow {
    pub occ: bool,
    pub live: bool,
    pub b: usize,
    pub p: usize,
    pub k: usize,
}

/// Neutralised condition-write descriptor (§2.7 after the §8 checks).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cxw {
    pub en: bool,
    pub src: usize,
    pub func: u32,
    pub mask_t: u8,
    pub mask_f: u8,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct B1Lane {
    pub op: u32,
    pub wdst: u32,
    pub a: u32,
    pub b: u32,
    pub c: u32,
    pub d: u32,
}
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct B2Lane {
    pub op: u32,
    pub wdst: u32,
    pub p: u32,
    pub q: u32,
}
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct B3Lane {
    pub wdst: u32,
    pub r: u32,
}

/// A decoded, checked instruction (§6.3 + §8 decode_check).
#[derive(Clone, Debug, Default)]
pub struct Decoded {
    pub op: [u32; 4],
    pub src: [[u32; 4]; 4],
    pub wdst: [u32; 4],
    pub cxw: Cxw,
    /// (code, lane) of every error raised, ascending lane within a code.
    pub errors: Vec<(u32, usize)>,
}

/// §8 decode_check of one instruction for a group with `r` rows.
pub fn decode_check(words: &[u32; 5], num_alus: usize, r: usize) -> Decoded {
    let mut d = Decoded::default();
    let mut writing = [false; 4];
    let mut dst = [DST_NONE; 4];
    for j in 0..4 {
        let w = words[j];
        d.wdst[j] = DST_NONE;
        if j >= num_alus {
            if w != 0 {
                d.errors.push((ERR_RSV, j));
            }
            continue;
        }
        let mut op = field(w, F_OP);
        if op == OP_ILLEGAL {
            d.errors.push((ERR_OPCODE, j));
            op = OP_NOP;
        }
        d.op[j] = op;
        for s in 0..4 {
            d.src[j][s] = field(w, F_SRC[s]);
        }
        let dd = field(w, F_DST);
        let dst_bad = (24..=30).contains(&dd);
        if dst_bad {
            d.errors.push((ERR_DST, j));
        }
        if field(w, F_LANE_RSV) != 0 {
            d.errors.push((ERR_RSV, j));
        }
        writing[j] = op != OP_NOP && !dst_bad && dd != DST_NONE;
        dst[j] = dd;
    }
    for j in 0..num_alus {
        if !writing[j] {
            continue;
        }
        let loses = (j + 1..num_alus).any(|j2| writing[j2] && dst[j2] == dst[j]);
        if loses {
            d.errors.push((ERR_DST_CONFLICT, j));
        } else {
            d.wdst[j] = dst[j];
        }
    }
    let x = words[4];
    if field(x, F_CTRL_RSV) != 0 {
        d.errors.push((ERR_RSV, 0));
    }
    let rows_mask: u8 = ((1u32 << r) - 1) as u8;
    let mut cx = Cxw {
        en: field(x, F_CXW_EN) == 1,
        src: field(x, F_CXW_SRC) as usize,
        func: field(x, F_CXW_FN),
        mask_t: field(x, F_MASK_T) as u8,
        mask_f: field(x, F_MASK_F) as u8,
    };
    if cx.en {
        if cx.func == 3 {
            d.errors.push((ERR_CXW_FN, 0));
        }
        if cx.src >= num_alus {
            d.errors.push((ERR_CXW_SRC, 0));
        }
        if (cx.mask_t | cx.mask_f) & !rows_mask != 0 || cx.mask_t & cx.mask_f != 0 {
            d.errors.push((ERR_CXW_MASK, 0));
        }
        if cx.func == 3 || cx.src >= num_alus {
            cx.en = false;
        }
    }
    cx.mask_t &= rows_mask;
    cx.mask_f &= rows_mask & !cx.mask_t;
    d.cxw = cx;
    d
}

/// The cycle model. Its state is the §2.3/§2.5 state.
#[derive(Clone, Debug)]
pub struct Golden {
    pub prm: Params,
    pub buf: [Buffer; 3],
    pub fp: usize,
    pub ip: usize,
    pub dp: usize,
    pub ix: usize,
    pub gcount: u8,
    pub imem: Vec<[u32; 5]>,
    pub g: [u32; 8],
    pub k: [u32; 8],
    pub sh: [Shadow; 3],
    pub b1: [B1Lane; 4],
    pub b1cx: Cxw,
    pub b2: [B2Lane; 4],
    pub b2cx: Cxw,
    pub b3: [B3Lane; 4],
    pub b3cx: Cxw,
    /// counters: act1..4, issued, skipped, reg_writes, ce_writes, groups_done
    pub cnt: [u32; 9],
    /// toggle counters of B1..B3 data fields (§6.6), 48 bits, cleared with the other counters;
    /// always kept here, shown on tog_s1..3 only when TOGGLE_CNT = 1
    pub tog: [u64; 3],
    /// toggles added at the last edge, per bank
    pub last_tog: [u64; 3],
    pub err_sticky: u16,
    pub err_first: u32,
    pub rvalid: bool,
    pub rdata: u32,
}

/// tog_s1..tog_s3 width (§7.2): 48 bits
pub const TOG_MASK: u64 = (1 << 48) - 1;

impl Golden {
    pub fn new(prm: Params) -> Self {
        let depth = prm.imem_depth;
        let mut g = Self {
            prm,
            buf: Default::default(),
            fp: 0,
            ip: 0,
            dp: 0,
            ix: 0,
            gcount: 0,
            imem: vec![[0; 5]; depth],
            g: [0; 8],
            k: K_RESET,
            sh: Default::default(),
            b1: Default::default(),
            b1cx: Default::default(),
            b2: Default::default(),
            b2cx: Default::default(),
            b3: Default::default(),
            b3cx: Default::default(),
            cnt: [0; 9],
            tog: [0; 3],
            last_tog: [0; 3],
            err_sticky: 0,
            err_first: 0,
            rvalid: false,
            rdata: 0,
        };
        g.reset();
        g
    }

    pub fn reset(&mut self) {
        let prm = self.prm.clone();
        let depth = prm.imem_depth;
        *self = Self {
            prm,
            buf: Default::default(),
            fp: 0,
            ip: 0,
            dp: 0,
            ix: 0,
            gcount: 0,
            imem: vec![[0; 5]; depth],
            g: [0; 8],
            k: K_RESET,
            sh: Default::default(),
            b1: Default::default(),
            b1cx: Default::default(),
            b2: Default::default(),
            b2cx: Default::default(),
            b3: Default::default(),
            b3cx: Default::default(),
            cnt: [0; 9],
            tog: [0; 3],
            last_tog: [0; 3],
            err_sticky: 0,
            err_first: 0,
            rvalid: false,
            rdata: 0,
        };
        for b in self.buf.iter_mut() {
            b.r = 1;
        }
    }

    fn busy(&self) -> bool {
        self.buf.iter().any(|b| b.st != St::Empty) || self.sh.iter().any(|s| s.occ)
    }

    /// (issue, live, p, k) of the current cycle.
    fn issue_state(&self) -> (bool, bool, usize, usize) {
        let b = &self.buf[self.ip];
        let issue = matches!(b.st, St::Full | St::Run);
        let (p, k) = (self.ix % 4, self.ix / 4);
        (issue, issue && b.ce[p][k], p, k)
    }

    /// [en1, en2, en3, we4] for the coming edge (§2.6 table).
    pub fn enables(&self) -> [bool; 4] {
        let (issue, live, _, _) = self.issue_state();
        let all = self.prm.scope == Scope::All;
        let en1 = match self.prm.scope {
            Scope::None => issue,
            _ => live,
        };
        let en2 = if all { self.sh[0].live } else { self.sh[0].occ };
        let en3 = if all { self.sh[1].live } else { self.sh[1].occ };
        [en1, en2, en3, self.sh[2].live]
    }

    pub fn outputs(&self) -> Outputs {
        let mut o = Outputs::default();
        let fb = &self.buf[self.fp];
        o.in_ready = matches!(fb.st, St::Empty | St::Fill);
        let db = &self.buf[self.dp];
        o.out_valid = matches!(db.st, St::Done | St::Drain);
        if o.out_valid {
            let (p, k) = (db.n % 4, db.n / 4);
            o.out_data.copy_from_slice(&db.reg[p][4 * k..4 * k + 4]);
            o.out_pix = p as u8;
            o.out_row = k as u8;
            o.out_nrows_m1 = (db.r - 1) as u8;
            o.out_iptr = db.iptr[p][k];
            o.out_ce = db.ce[p][k];
            o.out_tag = db.tag[p][k];
        }
        o.cfg_rvalid = self.rvalid;
        o.cfg_rdata = self.rdata;
        o.busy = self.busy();
        o.act.copy_from_slice(&self.cnt[0..4]);
        o.slots_issued = self.cnt[4];
        o.slots_skipped = self.cnt[5];
        o.reg_writes = self.cnt[6];
        o.ce_writes = self.cnt[7];
        o.groups_done = self.cnt[8];
        o.tog = if self.prm.toggle_cnt { self.tog } else { [0; 3] };
        let en = self.enables();
        o.dbg_en = en.iter().enumerate().map(|(i, &e)| (e as u8) << i).sum();
        let (issue, _, p, k) = self.issue_state();
        o.dbg_issue = issue;
        o.dbg_issue_pk = if issue { (k * 4 + p) as u8 } else { 0 };
        o.err_sticky = self.err_sticky;
        o.err_first = self.err_first;
        o.err_any = self.err_sticky != 0;
        o
    }

    fn read_src(&self, b: usize, p: usize, s: u32) -> u32 {
        match s {
            0..=15 => self.buf[b].reg[p][s as usize],
            16..=23 => self.g[(s - 16) as usize],
            _ => self.k[(s - 24) as usize],
        }
    }

    /// Decoded instruction for slot k of buffer b, plus whether ERR_IPTR applies.
    fn fetch(&self, b: usize, k: usize) -> (Decoded, bool) {
        let bb = &self.buf[b];
        let iptr = bb.iptr[0][k] as usize;
        if iptr >= self.prm.imem_depth {
            return (decode_check(&[0; 5], self.prm.num_alus, bb.r), true);
        }
        (decode_check(&self.imem[iptr], self.prm.num_alus, bb.r), false)
    }

    /// One clock edge (§2.10). All right-hand sides use the pre-edge state.
    pub fn step(&mut self, inp: &Inputs) {
        let na = self.prm.num_alus;
        let busy = self.busy();
        let en = self.enables();
        let (issue, live, ip_p, ip_k) = self.issue_state();
        let drain_ok = matches!(self.buf[self.dp].st, St::Done | St::Drain);
        // new errors this cycle: (code, field bits other than valid/code)
        let mut errs: Vec<(u32, u32)> = Vec::new();
        let mut inc = [0u32; 9];
        inc[0] = en[0] as u32;
        inc[1] = en[1] as u32;
        inc[2] = en[2] as u32;
        inc[3] = en[3] as u32;
        inc[4] = issue as u32;
        inc[5] = (issue && !live) as u32;

        // ---- S4 write-back (slot sh3, data B3): computed from pre-edge state, applied last ----
        let sh3 = self.sh[2];
        let mut reg_w: [(u32, u32); 4] = [(DST_NONE, 0); 4];
        let mut ce_w: [Option<bool>; 4] = [None; 4];
        if sh3.live {
            for j in 0..na {
                let l = self.b3[j];
                if l.wdst < 24 {
                    reg_w[j] = (l.wdst, l.r);
                    inc[6] += 1;
                }
            }
            let cx = self.b3cx;
            if cx.en {
                let c = self.b3[cx.src].r != 0;
                let r = self.buf[sh3.b].r;
                for kk in 0..r {
                    let t = (cx.mask_t >> kk) & 1 == 1;
                    let f = (cx.mask_f >> kk) & 1 == 1;
                    if !(t || f) {
                        continue;
                    }
                    let new = if t { c } else { !c };
                    let old = self.buf[sh3.b].ce[sh3.p][kk];
                    ce_w[kk] = Some(match cx.func {
                        FN_SET => new,
                        FN_AND => old && new,
                        _ => old || new,
                    });
                    inc[7] += 1;
                }
            }
        }
        // ---- S3 ----
        let mut tog = [0u64; 3];
        if en[2] {
            for j in 0..na {
                let l2 = self.b2[j];
                let n = B3Lane { wdst: l2.wdst, r: combine(l2.op, l2.p, l2.q) };
                tog[2] += (n.r ^ self.b3[j].r).count_ones() as u64;
                self.b3[j] = n;
            }
            self.b3cx = self.b2cx;
        }
        // ---- S2 ----
        if en[1] {
            for j in 0..na {
                let l1 = self.b1[j];
                let n = B2Lane { op: l1.op, wdst: l1.wdst, p: l1.a.wrapping_mul(l1.b), q: l1.c.wrapping_mul(l1.d) };
                tog[1] += ((n.p ^ self.b2[j].p).count_ones() + (n.q ^ self.b2[j].q).count_ones()) as u64;
                self.b2[j] = n;
            }
            self.b2cx = self.b1cx;
        }
        // ---- S1 ----
        let sh1_new;
        if issue {
            let b = self.ip;
            let (ins, bad_iptr) = self.fetch(b, ip_k);
            let info = (self.buf[b].seq as u32) << 16 | (ip_k as u32) << 14 | (ip_p as u32) << 12;
            if bad_iptr {
                errs.push((ERR_IPTR, info));
            }
            for &(code, lane) in &ins.errors {
                errs.push((code, info | (lane as u32) << 10));
            }
            if en[0] {
                for j in 0..na {
                    let s = ins.src[j];
                    let n = B1Lane {
                        op: ins.op[j],
                        wdst: ins.wdst[j],
                        a: self.read_src(b, ip_p, s[0]),
                        b: self.read_src(b, ip_p, s[1]),
                        c: self.read_src(b, ip_p, s[2]),
                        d: self.read_src(b, ip_p, s[3]),
                    };
                    let o = self.b1[j];
                    tog[0] += ((n.a ^ o.a).count_ones()
                        + (n.b ^ o.b).count_ones()
                        + (n.c ^ o.c).count_ones()
                        + (n.d ^ o.d).count_ones()) as u64;
                    self.b1[j] = n;
                }
                self.b1cx = ins.cxw;
            }
            sh1_new = Shadow { occ: true, live, b, p: ip_p, k: ip_k };
            let bb = &mut self.buf[b];
            if self.ix == 4 * bb.r - 1 {
                bb.st = St::Done;
                self.ix = 0;
                self.ip = (self.ip + 1) % 3;
            } else {
                bb.st = St::Run;
                self.ix += 1;
            }
        } else {
            sh1_new = Shadow::default();
        }
        self.sh[2] = self.sh[1];
        self.sh[1] = self.sh[0];
        self.sh[0] = sh1_new;
        self.last_tog = tog;

        // ---- fill (deserializer) ----
        let fpi = self.fp;
        if inp.in_valid && matches!(self.buf[fpi].st, St::Empty | St::Fill) {
            let first = self.buf[fpi].n == 0;
            let n = self.buf[fpi].n;
            let (p, k) = (n % 4, n / 4);
            let seq = if first { self.gcount } else { self.buf[fpi].seq };
            let info = (seq as u32) << 16 | (k as u32) << 14 | (p as u32) << 12;
            if inp.in_pix as usize != p || inp.in_row as usize != k {
                errs.push((ERR_ORDER, info));
            }
            if !first && inp.in_nrows_m1 as usize + 1 != self.buf[fpi].r {
                errs.push((ERR_NROWS, info));
            }
            if p != 0 && inp.in_iptr != self.buf[fpi].iptr[0][k] {
                errs.push((ERR_SIMD, info));
            }
            let bb = &mut self.buf[fpi];
            if first {
                bb.r = inp.in_nrows_m1 as usize + 1;
                bb.seq = self.gcount;
                self.gcount = self.gcount.wrapping_add(1);
            }
            bb.reg[p][4 * k..4 * k + 4].copy_from_slice(&inp.in_data);
            bb.ce[p][k] = inp.in_ce;
            bb.iptr[p][k] = inp.in_iptr;
            bb.tag[p][k] = inp.in_tag;
            if n == 4 * bb.r - 1 {
                for pp in 0..4 {
                    for rr in 4 * bb.r..16 {
                        bb.reg[pp][rr] = 0;
                    }
                }
                bb.st = St::Full;
                bb.n = 0;
                self.fp = (self.fp + 1) % 3;
            } else {
                bb.st = St::Fill;
                bb.n += 1;
            }
        }
        // ---- drain (serializer) ----
        let dpi = self.dp;
        if drain_ok && inp.out_ready {
            let bb = &mut self.buf[dpi];
            if bb.n == 4 * bb.r - 1 {
                bb.st = St::Empty;
                bb.n = 0;
                self.dp = (self.dp + 1) % 3;
                inc[8] = 1;
            } else {
                bb.st = St::Drain;
                bb.n += 1;
            }
        }
        // ---- config bus (pre-edge G/K/IMEM; S4 G writes only happen while busy) ----
        let a = inp.cfg_addr as u32;
        enum Tgt {
            Imem(usize, usize),
            G(usize),
            K(usize),
            Ctrl,
            None,
        }
        let tgt = if a < 0x100 {
            let (e, w) = ((a / 8) as usize, (a % 8) as usize);
            if w < 5 && e < self.prm.imem_depth {
                Tgt::Imem(e, w)
            } else {
                Tgt::None
            }
        } else if a < CFG_K {
            Tgt::G((a - CFG_G) as usize)
        } else if a < CFG_CTRL {
            Tgt::K((a - CFG_K) as usize)
        } else if a == CFG_CTRL {
            Tgt::Ctrl
        } else {
            Tgt::None
        };
        let rv = match tgt {
            Tgt::Imem(e, w) => self.imem[e][w],
            Tgt::G(i) => self.g[i],
            Tgt::K(i) => self.k[i],
            _ => 0,
        };
        let (mut clr_cnt, mut clr_err) = (false, false);
        if inp.cfg_we {
            match tgt {
                Tgt::Imem(..) | Tgt::G(_) | Tgt::K(_) if busy => errs.push((ERR_CFG_BUSY, 0)),
                Tgt::Imem(e, w) => self.imem[e][w] = inp.cfg_wdata,
                Tgt::G(i) => self.g[i] = inp.cfg_wdata,
                Tgt::K(i) => self.k[i] = inp.cfg_wdata,
                Tgt::Ctrl => {
                    clr_cnt = inp.cfg_wdata & 1 != 0;
                    clr_err = inp.cfg_wdata & 2 != 0;
                }
                Tgt::None => {}
            }
        }
        if (inp.cfg_we || inp.cfg_re) && matches!(tgt, Tgt::None) {
            errs.push((ERR_CFG_ADDR, 0));
        }
        self.rvalid = inp.cfg_re;
        self.rdata = if inp.cfg_re { rv } else { 0 };
        // ---- counters: a clear drops the old value, this cycle's events still count ----
        for i in 0..9 {
            let base = if clr_cnt { 0 } else { self.cnt[i] };
            self.cnt[i] = base.wrapping_add(inc[i]);
        }
        // tog_s: 48-bit counters, cleared by CTRL bit 0 like the other counters
        for s in 0..3 {
            let base = if clr_cnt { 0 } else { self.tog[s] };
            self.tog[s] = base.wrapping_add(self.last_tog[s]) & TOG_MASK;
        }
        // ---- errors ----
        let mut new_bits = 0u16;
        for &(c, _) in &errs {
            new_bits |= 1 << c;
        }
        let first_new = errs.iter().min_by_key(|e| e.0).copied();
        let (old_sticky, old_first) = if clr_err { (0, 0) } else { (self.err_sticky, self.err_first) };
        self.err_sticky = old_sticky | new_bits;
        self.err_first = old_first;
        if let Some((c, info)) = first_new {
            if old_first >> 31 == 0 {
                self.err_first = 1 << 31 | c << 24 | info;
            }
        }
        // ---- S4 effects land at the edge (after every pre-edge read above) ----
        for &(w, v) in &reg_w {
            if w < 16 {
                self.buf[sh3.b].reg[sh3.p][w as usize] = v;
            } else if w < 24 {
                self.g[(w - 16) as usize] = v;
            }
        }
        for (kk, cw) in ce_w.iter().enumerate() {
            if let Some(v) = cw {
                self.buf[sh3.b].ce[sh3.p][kk] = *v;
            }
        }
    }
}

// ------------------------------------------------------------------------------------------
// Convenience layer (§7.4): whole groups through the cycle model.

/// One input row.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Row {
    pub data: [u32; 4],
    pub pix: u8,
    pub row: u8,
    pub nrows_m1: u8,
    pub iptr: u8,
    pub ce: bool,
    pub tag: u8,
}

/// A group in bus order: pixel data per pixel (16 registers; rows >= R ignored), CE per (p,k),
/// iptr per k, tag per (p,k).
#[derive(Clone, Debug)]
pub struct Group {
    pub r: usize,
    pub regs: [[u32; 16]; 4],
    pub ce: [[bool; 4]; 4],
    pub iptr: [u8; 4],
    pub tag: [[u8; 4]; 4],
}

impl Group {
    pub fn rows(&self) -> Vec<Row> {
        (0..4 * self.r)
            .map(|i| {
                let (p, k) = (i % 4, i / 4);
                let mut data = [0; 4];
                data.copy_from_slice(&self.regs[p][4 * k..4 * k + 4]);
                Row {
                    data,
                    pix: p as u8,
                    row: k as u8,
                    nrows_m1: (self.r - 1) as u8,
                    iptr: self.iptr[k],
                    ce: self.ce[p][k],
                    tag: self.tag[p][k],
                }
            })
            .collect()
    }
}

/// Config actions before the groups (each is one cfg write cycle).
pub fn cfg_program(imem: &[[u32; 5]], g: &[(usize, u32)], k: &[(usize, u32)]) -> Vec<(u16, u32)> {
    let mut v = Vec::new();
    for (e, ins) in imem.iter().enumerate() {
        for (w, &word) in ins.iter().enumerate() {
            v.push((cfg_imem(e as u32, w as u32) as u16, word));
        }
    }
    for &(i, val) in g {
        v.push(((CFG_G as usize + i) as u16, val));
    }
    for &(i, val) in k {
        v.push(((CFG_K as usize + i) as u16, val));
    }
    v
}

/// The result of a `run_groups` run.
#[derive(Clone, Debug)]
pub struct RunResult {
    /// Output rows in order, with the cycle each was taken in.
    pub rows: Vec<(u64, Row)>,
    pub final_outputs: Outputs,
    pub g: [u32; 8],
    /// dbg_en per cycle from the first issue cycle of the first group.
    pub dbg_en: Vec<u8>,
    pub last_tog: Vec<[u64; 3]>,
}

/// A whole stimulus as per-cycle inputs: config writes, then the groups back to back (in_valid
/// held until accepted), out_ready from `ready(cycle)`; runs until idle.
pub fn stimulus(cfg: &[(u16, u32)], groups: &[Group]) -> (Vec<Inputs>, Vec<Row>) {
    let mut v = Vec::new();
    for &(a, d) in cfg {
        v.push(Inputs { cfg_we: true, cfg_addr: a, cfg_wdata: d, ..Default::default() });
    }
    let rows: Vec<Row> = groups.iter().flat_map(|g| g.rows()).collect();
    (v, rows)
}

/// Drives the model: config writes first, then rows whenever in_ready; `ready(c)` gives
/// out_ready for relative cycle c. Returns output rows, final G and outputs, and the dbg_en
/// trace starting at the first issue cycle.
pub fn run_groups(prm: Params, cfg: &[(u16, u32)], groups: &[Group], ready: impl Fn(u64) -> bool) -> RunResult {
    let mut m = Golden::new(prm);
    let (pre, rows) = stimulus(cfg, groups);
    for i in &pre {
        m.step(i);
    }
    let mut next = 0;
    let total: usize = rows.len();
    let mut out = Vec::new();
    let mut dbg = Vec::new();
    let mut togs = Vec::new();
    let mut started = false;
    let mut c = 0u64;
    while (out.len() < total || m.busy()) && c < 100_000 {
        let o = m.outputs();
        let mut inp = Inputs { out_ready: ready(c), ..Default::default() };
        if next < total {
            let r = rows[next];
            inp.in_valid = true;
            inp.in_data = r.data;
            inp.in_pix = r.pix;
            inp.in_row = r.row;
            inp.in_nrows_m1 = r.nrows_m1;
            inp.in_iptr = r.iptr;
            inp.in_ce = r.ce;
            inp.in_tag = r.tag;
            if o.in_ready {
                next += 1;
            }
        }
        if o.dbg_issue {
            started = true;
        }
        if started {
            dbg.push(o.dbg_en);
        }
        if o.out_valid && inp.out_ready {
            out.push((
                c,
                Row {
                    data: o.out_data,
                    pix: o.out_pix,
                    row: o.out_row,
                    nrows_m1: o.out_nrows_m1,
                    iptr: o.out_iptr,
                    ce: o.out_ce,
                    tag: o.out_tag,
                },
            ));
        }
        m.step(&inp);
        if started {
            togs.push(m.last_tog);
        }
        c += 1;
    }
    RunResult { rows: out, final_outputs: m.outputs(), g: m.g, dbg_en: dbg, last_tog: togs }
}

/// Plain sequential interpreter (property 5): all CE = 1, no cxw effects on gating, slots in
/// SIMD order, each slot's reads before its writes. Returns the final registers per pixel and G.
pub fn interpret(num_alus: usize, imem: &[[u32; 5]], g0: [u32; 8], k: [u32; 8], grp: &Group) -> ([[u32; 16]; 4], [u32; 8]) {
    let mut regs = grp.regs;
    for p in 0..4 {
        for rr in 4 * grp.r..16 {
            regs[p][rr] = 0;
        }
    }
    let mut g = g0;
    for kk in 0..grp.r {
        let words = imem.get(grp.iptr[kk] as usize).copied().unwrap_or([0; 5]);
        let d = decode_check(&words, num_alus, grp.r);
        for p in 0..4 {
            let rd = |s: u32, regs: &[[u32; 16]; 4], g: &[u32; 8]| match s {
                0..=15 => regs[p][s as usize],
                16..=23 => g[(s - 16) as usize],
                _ => k[(s - 24) as usize],
            };
            let mut res = [(DST_NONE, 0u32); 4];
            for j in 0..num_alus {
                let s = d.src[j];
                let pp = rd(s[0], &regs, &g).wrapping_mul(rd(s[1], &regs, &g));
                let qq = rd(s[2], &regs, &g).wrapping_mul(rd(s[3], &regs, &g));
                res[j] = (d.wdst[j], combine(d.op[j], pp, qq));
            }
            for &(w, v) in &res[..num_alus] {
                if w < 16 {
                    regs[p][w as usize] = v;
                } else if w < 24 {
                    g[(w - 16) as usize] = v;
                }
            }
        }
    }
    (regs, g)
}
