//! Random structured programs for the branch unit (spec §4.9 P4, §6.5 item 2): an AST generator,
//! an assembler that lays the program out and computes every `jip`/`uip` (exact rejoin points or
//! all rejoin offsets `+1`), the predicate function (a pure function of lane, IP and visit
//! count), the independent per-lane scalar interpreter (the oracle), and the SIMD driver that
//! runs the golden model over a program.

use super::{op, step, Cfg, Instr, Out, State};
use rand::rngs::StdRng;
use rand::Rng;

#[derive(Clone, Debug)]
pub enum Node {
    Nop,
    If(Vec<Node>, Option<Vec<Node>>),
    Loop(Vec<Node>),
    Break,
    Cont,
    /// call of function `f`; `rec` = a self-call (recursion)
    Call { f: usize, rec: bool },
    /// early return
    Ret,
    /// forward BRANCH over the body to a JOIN_BR; with a second part, a second BRANCH to the
    /// same JOIN_BR sits between the two parts (two exits to one join: R2 reuse)
    Branch(Vec<Node>, Option<Vec<Node>>),
    Halt,
}

#[derive(Clone, Debug)]
pub struct Ast {
    pub main: Vec<Node>,
    pub funcs: Vec<Vec<Node>>,
    /// recursion bound per function (max self-calls per lane)
    pub rec: Vec<u32>,
}

/// One assembled instruction. `kind` tells the predicate function what the predicate means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PInstr {
    pub op: u64,
    pub jip: i64,
    pub uip: i64,
    /// 1 + recursion bound for a recursive CALL site (0 for any other instruction)
    pub rec: u32,
}

#[derive(Clone, Debug)]
pub struct Program {
    pub code: Vec<PInstr>,
    pub seed: u64,
}

struct GenCtx {
    in_loop: bool,
    func: Option<usize>,
    depth: usize,
}

pub struct Gen<'a> {
    pub rng: &'a mut StdRng,
    pub budget: i32,
    pub nfuncs: usize,
    pub max_depth: usize,
}

impl Gen<'_> {
    fn block(&mut self, cx: &GenCtx, len: usize) -> Vec<Node> {
        let mut v = Vec::new();
        for _ in 0..len {
            if self.budget <= 0 {
                break;
            }
            v.push(self.node(cx));
        }
        v
    }

    fn node(&mut self, cx: &GenCtx) -> Node {
        self.budget -= 1;
        let deep = cx.depth >= self.max_depth;
        loop {
            let k = self.rng.gen_range(0..100);
            match k {
                0..=24 => return Node::Nop,
                25..=44 if !deep => {
                    let c = GenCtx { depth: cx.depth + 1, ..*cx };
                    let n1 = self.rng.gen_range(0..4);
                    let t = self.block(&c, n1);
                    let e = if self.rng.gen_bool(0.5) {
                        let n2 = self.rng.gen_range(0..4);
                        Some(self.block(&c, n2))
                    } else {
                        None
                    };
                    return Node::If(t, e);
                }
                45..=56 if !deep => {
                    let c = GenCtx { depth: cx.depth + 1, in_loop: true, ..*cx };
                    let n = self.rng.gen_range(1..5);
                    return Node::Loop(self.block(&c, n));
                }
                57..=64 if cx.in_loop => return Node::Break,
                65..=70 if cx.in_loop => return Node::Cont,
                71..=78 if self.nfuncs > 0 => {
                    // main calls any function; function f calls g > f, or itself (recursion)
                    let lo = cx.func.map_or(0, |f| f);
                    if lo >= self.nfuncs {
                        continue;
                    }
                    let f = self.rng.gen_range(lo..self.nfuncs);
                    let rec = cx.func == Some(f);
                    return Node::Call { f, rec };
                }
                79..=83 if cx.func.is_some() => return Node::Ret,
                84..=92 if !deep => {
                    let c = GenCtx { depth: cx.depth + 1, ..*cx };
                    let n = self.rng.gen_range(0..4);
                    let b1 = self.block(&c, n);
                    let b2 = if self.rng.gen_bool(0.3) {
                        let n2 = self.rng.gen_range(0..3);
                        Some(self.block(&c, n2))
                    } else {
                        None
                    };
                    return Node::Branch(b1, b2);
                }
                93..=96 => return Node::Halt,
                _ => continue,
            }
        }
    }

    /// A whole program whose worst-case call depth fits `maxd_call`.
    pub fn program(rng: &mut StdRng, size: i32, maxd_call: usize) -> Ast {
        Self::program_nested(rng, size, maxd_call, 4)
    }

    /// [`Gen::program`] with blocks nested at most `max_depth` deep in each function (a call
    /// inside a block still adds the callee's levels to the caller's).
    pub fn program_nested(rng: &mut StdRng, size: i32, maxd_call: usize, max_depth: usize) -> Ast {
        loop {
            let nfuncs = rng.gen_range(0..=3usize);
            let mut g = Gen { rng, budget: size, nfuncs, max_depth };
            let main = g.block(&GenCtx { in_loop: false, func: None, depth: 0 }, 6);
            let mut funcs = Vec::new();
            for f in 0..nfuncs {
                g.budget = size / 2;
                let n = g.rng.gen_range(1..5);
                funcs.push(g.block(&GenCtx { in_loop: false, func: Some(f), depth: 0 }, n));
            }
            let rec: Vec<u32> = (0..nfuncs).map(|_| g.rng.gen_range(0..=2)).collect();
            let ast = Ast { main, funcs, rec };
            if ast.worst_depth() <= maxd_call {
                return ast;
            }
        }
    }
}

fn calls(b: &[Node], out: &mut Vec<(usize, bool)>) {
    for n in b {
        match n {
            Node::If(t, e) => {
                calls(t, out);
                if let Some(e) = e {
                    calls(e, out);
                }
            }
            Node::Loop(b) | Node::Branch(b, None) => calls(b, out),
            Node::Branch(b, Some(b2)) => {
                calls(b, out);
                calls(b2, out);
            }
            Node::Call { f, rec } => out.push((*f, *rec)),
            _ => {}
        }
    }
}

impl Ast {
    /// Worst-case nesting of active calls: a function contributes 1 + its recursion bound.
    pub fn worst_depth(&self) -> usize {
        let mut w = vec![0usize; self.funcs.len()];
        for f in (0..self.funcs.len()).rev() {
            let mut c = Vec::new();
            calls(&self.funcs[f], &mut c);
            // each recursive call site lets a lane recurse at most rec[f] times
            let sites = c.iter().filter(|&&(_, r)| r).count();
            let inner = c.iter().filter(|(_, r)| !r).map(|&(g, _)| w[g]).max().unwrap_or(0);
            w[f] = 1 + sites * self.rec[f] as usize + inner;
        }
        let mut c = Vec::new();
        calls(&self.main, &mut c);
        c.iter().map(|&(g, _)| w[g]).max().unwrap_or(0)
    }
}

// ---------------------------------------------------------------- assembler

#[derive(Clone, Copy)]
enum Tgt {
    None,
    Lbl(usize),
    Rel(i64),
}

struct Asm {
    code: Vec<(u64, Tgt, Tgt, u32)>,
    labels: Vec<Option<usize>>,
    exact: bool,
}

#[derive(Clone, Copy)]
struct Cx {
    /// next rejoin point (R6)
    rj: usize,
    /// the enclosing loop's WHILE
    w: Option<usize>,
    /// the halt join
    jh: usize,
    rec: u32,
}

impl Asm {
    fn label(&mut self) -> usize {
        self.labels.push(None);
        self.labels.len() - 1
    }
    fn place(&mut self, l: usize) {
        self.labels[l] = Some(self.code.len());
    }
    fn rj(&self, l: usize) -> Tgt {
        if self.exact {
            Tgt::Lbl(l)
        } else {
            Tgt::Rel(1)
        }
    }
    fn emit(&mut self, op: u64, j: Tgt, u: Tgt) {
        self.code.push((op, j, u, 0));
    }
    fn block(&mut self, b: &[Node], cx: Cx, entries: &[usize]) {
        for n in b {
            match n {
                Node::Nop => self.emit(op::NOP, Tgt::None, Tgt::None),
                Node::If(t, e) => {
                    let (lend, lelse) = (self.label(), self.label());
                    let lelse1 = self.label();
                    let j = if e.is_some() { Tgt::Lbl(lelse1) } else { Tgt::Lbl(lend) };
                    self.emit(op::IF, j, Tgt::Lbl(lend));
                    let inner = if e.is_some() { lelse } else { lend };
                    self.block(t, Cx { rj: inner, ..cx }, entries);
                    if let Some(e) = e {
                        self.place(lelse);
                        self.emit(op::ELSE, Tgt::None, Tgt::Lbl(lend));
                        self.place(lelse1);
                        self.block(e, Cx { rj: lend, ..cx }, entries);
                    }
                    self.place(lend);
                    let r = self.rj(cx.rj);
                    self.emit(op::ENDIF, r, Tgt::None);
                }
                Node::Loop(b) => {
                    let (ltop, lw) = (self.label(), self.label());
                    self.emit(op::DO, Tgt::None, Tgt::None);
                    self.place(ltop);
                    self.block(b, Cx { rj: lw, w: Some(lw), ..cx }, entries);
                    self.place(lw);
                    let r = self.rj(cx.rj);
                    self.emit(op::WHILE, Tgt::Lbl(ltop), r);
                }
                Node::Break | Node::Cont => {
                    let o = if matches!(n, Node::Break) { op::BREAK } else { op::CONT };
                    let r = self.rj(cx.rj);
                    self.emit(o, r, Tgt::Lbl(cx.w.expect("break inside a loop")));
                }
                Node::Call { f, rec } => {
                    self.code.push((op::CALL, Tgt::Lbl(entries[*f]), Tgt::None, if *rec { cx.rec + 1 } else { 0 }));
                }
                Node::Ret => {
                    let r = self.rj(cx.rj);
                    self.emit(op::RET, r, Tgt::None);
                }
                Node::Branch(b, b2) => {
                    let lj = self.label();
                    self.emit(op::BRANCH, Tgt::Lbl(lj), Tgt::None);
                    self.block(b, Cx { rj: lj, ..cx }, entries);
                    if let Some(b2) = b2 {
                        self.emit(op::BRANCH, Tgt::Lbl(lj), Tgt::None);
                        self.block(b2, Cx { rj: lj, ..cx }, entries);
                    }
                    self.place(lj);
                    let r = self.rj(cx.rj);
                    self.emit(op::JOIN_BR, r, Tgt::None);
                }
                Node::Halt => {
                    let r = self.rj(cx.rj);
                    self.emit(op::HALT, r, Tgt::Lbl(cx.jh));
                }
            }
        }
    }
}

/// Lays out `0: JMP main; functions (each ending in its final RET); main; JOIN_HALT; EOT`.
/// Functions come first so that every HALT's halt join is forward (`uip > 0`).
pub fn assemble(ast: &Ast, exact: bool, seed: u64) -> Program {
    let mut a = Asm { code: Vec::new(), labels: Vec::new(), exact };
    let lmain = a.label();
    let jh = a.label();
    let entries: Vec<usize> = (0..ast.funcs.len()).map(|_| a.label()).collect();
    a.emit(op::JMP, Tgt::Lbl(lmain), Tgt::None);
    for (f, body) in ast.funcs.iter().enumerate() {
        let fin = a.label();
        a.place(entries[f]);
        a.block(body, Cx { rj: fin, w: None, jh, rec: ast.rec[f] }, &entries);
        a.place(fin);
        a.emit(op::RET, Tgt::Rel(0), Tgt::None);
    }
    a.place(lmain);
    a.block(&ast.main, Cx { rj: jh, w: None, jh, rec: 0 }, &entries);
    a.place(jh);
    a.emit(op::JOIN_HALT, Tgt::Rel(1), Tgt::None);
    a.emit(op::EOT, Tgt::None, Tgt::None);
    let res = |t: Tgt, ip: usize, labels: &[Option<usize>]| match t {
        Tgt::None => 0,
        Tgt::Rel(r) => r,
        Tgt::Lbl(l) => labels[l].expect("placed label") as i64 - ip as i64,
    };
    let code = a
        .code
        .iter()
        .enumerate()
        .map(|(ip, &(o, j, u, rec))| PInstr { op: o, jip: res(j, ip, &a.labels), uip: res(u, ip, &a.labels), rec })
        .collect();
    Program { code, seed }
}

// ---------------------------------------------------------------- predicates

fn mix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51afd7ed558ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ceb9fe1a85ec53);
    x ^ (x >> 33)
}

fn h(seed: u64, a: u64, b: u64, c: u64) -> u64 {
    mix(seed ^ mix(a.wrapping_mul(0x9e3779b97f4a7c15) ^ mix(b ^ mix(c.wrapping_add(0x1234567)))))
}

/// The predicate bit of `lane` at `ip` on its `visit`-th execution (0-based): a pure function
/// of (lane, IP, visit count). Loop conditions and recursive calls are bounded by the visit
/// count, so every program terminates.
pub fn pred_bit(p: &Program, lane: usize, ip: usize, visit: u32) -> bool {
    let i = &p.code[ip];
    let s = p.seed;
    let uni = h(s, 1000 + ip as u64, visit as u64, 7);
    let lane_h = h(s, lane as u64, ip as u64, visit as u64);
    let mode = uni % 4; // 0: all lanes agree true, 1: all false, 2-3: per lane
    let per = |num: u64, den: u64| lane_h % den < num;
    match i.op {
        op::WHILE => {
            let k = if mode < 2 { h(s, 77, ip as u64, 0) % 4 } else { h(s, lane as u64, ip as u64, 77) % 4 };
            (visit as u64) < k
        }
        op::CALL if i.rec > 0 => {
            // a recursive call site: `rec - 1` = the most self-calls a lane makes through it
            let r = if mode < 2 { i.rec as u64 - 1 } else { h(s, lane as u64, ip as u64, 99) % i.rec as u64 };
            (visit as u64) < r
        }
        op::IF | op::CALL | op::BRANCH => match mode {
            0 => true,
            1 => false,
            _ => per(1, 2),
        },
        // exits: mostly not taken
        _ => match mode {
            0 => uni % 16 < 4,
            1 => false,
            _ => per(1, 3),
        },
    }
}

// ---------------------------------------------------------------- scalar oracle

/// Runs one lane alone as ordinary sequential code; returns the IPs of the NOPs it executes.
/// `None` if it does not reach EOT within `limit` instructions.
pub fn oracle(p: &Program, lane: usize, limit: usize) -> Option<Vec<u32>> {
    let mut visits = vec![0u32; p.code.len()];
    let mut rs: Vec<usize> = Vec::new();
    let mut trace = Vec::new();
    let mut ip = 0usize;
    for _ in 0..limit {
        let i = p.code[ip];
        let mut pr = || {
            let b = pred_bit(p, lane, ip, visits[ip]);
            visits[ip] += 1;
            b
        };
        let j = (ip as i64 + i.jip) as usize;
        let u = (ip as i64 + i.uip) as usize;
        ip = match i.op {
            op::NOP => {
                trace.push(ip as u32);
                ip + 1
            }
            op::JMP => j,
            op::IF => {
                if pr() {
                    ip + 1
                } else {
                    j
                }
            }
            op::ELSE => u,
            op::ENDIF | op::JOIN_BR | op::JOIN_HALT | op::DO => ip + 1,
            op::WHILE => {
                if pr() {
                    j
                } else {
                    ip + 1
                }
            }
            op::BREAK => {
                if pr() {
                    u + 1
                } else {
                    ip + 1
                }
            }
            op::CONT => {
                if pr() {
                    u
                } else {
                    ip + 1
                }
            }
            op::CALL => {
                if pr() {
                    rs.push(ip + 1);
                    j
                } else {
                    ip + 1
                }
            }
            op::RET => {
                if i.jip == 0 || pr() {
                    rs.pop().expect("return address")
                } else {
                    ip + 1
                }
            }
            op::BRANCH => {
                if pr() {
                    j
                } else {
                    ip + 1
                }
            }
            op::HALT => {
                if pr() {
                    rs.clear();
                    u
                } else {
                    ip + 1
                }
            }
            op::EOT => return Some(trace),
            o => panic!("oracle: op {o:#x}"),
        };
    }
    None
}

// ---------------------------------------------------------------- SIMD run on the golden model

/// One request of a SIMD run with the golden model's answer and the state after it.
#[derive(Clone, Debug)]
pub struct Step {
    pub instr: Instr,
    pub pred: u64,
    pub out: Out,
    pub state: State,
}

pub struct SimdRun {
    pub steps: Vec<Step>,
    /// per lane: IPs of the NOPs it executed
    pub traces: Vec<Vec<u32>>,
    pub live: u64,
}

/// Runs `p` on the golden model from `INIT(live)` to EOT. Predicate bits of lanes that cannot
/// use them (parked or OFF, except CONT-parked lanes which rejoin at WHILE) are random junk.
pub fn simd_run(cfg: &Cfg, p: &Program, live: u64, rng: &mut StdRng, limit: usize) -> Result<SimdRun, String> {
    simd_run_at(cfg, p, 0, live, rng, limit)
}

/// [`simd_run`] with the program placed at IP `base` (offsets are relative, so a program runs
/// the same anywhere in instruction memory; placing it at `2^IPW - len` puts its EOT on the
/// last IP). `Step::instr.ip` is the absolute IP; `traces` hold program-relative IPs.
pub fn simd_run_at(cfg: &Cfg, p: &Program, base: u64, live: u64, rng: &mut StdRng, limit: usize) -> Result<SimdRun, String> {
    assert!(
        base as i64 + p.code.len() as i64 <= cfg.imem_depth(),
        "program of {} instructions at IP {base} does not fit IPW {}",
        p.code.len(),
        cfg.ipw
    );
    let n = cfg.n;
    let mut s = State::reset(cfg);
    let mut visits = vec![0u32; n * p.code.len()];
    let mut traces = vec![Vec::new(); n];
    let mut steps = Vec::new();
    let init = Instr::new(op::INIT, base, 0, 0);
    let (s1, o) = step(cfg, &s, &init, live);
    steps.push(Step { instr: init, pred: live, out: o, state: s1.clone() });
    s = s1;
    let mut ip = 0usize;
    let cont_ty = super::ty::CONT as u32;
    for _ in 0..limit {
        let pi = p.code[ip];
        let instr = Instr::new(pi.op, base + ip as u64, pi.jip, pi.uip);
        let mut pred = 0u64;
        for lane in 0..n {
            let c = s.cnt[lane];
            let real = c == 0 || c >> cfg.dw() == cont_ty;
            let b = if real { pred_bit(p, lane, ip, visits[lane * p.code.len() + ip]) } else { rng.gen_bool(0.5) };
            pred |= (b as u64) << lane;
        }
        if matches!(pi.op, op::ENDIF | op::JOIN_BR | op::JOIN_HALT | op::ELSE | op::DO | op::JMP | op::EOT)
            || (pi.op == op::RET && pi.jip == 0)
        {
            pred = cfg.nmask();
        }
        let (s2, o) = step(cfg, &s, &instr, pred);
        if o.err {
            return Err(format!(
                "error {} (type {}) at ip {} (program ip {ip}) step {}",
                o.err_code,
                o.err_type,
                instr.ip,
                steps.len()
            ));
        }
        for lane in 0..n {
            if o.pred_mask >> lane & 1 == 1 {
                visits[lane * p.code.len() + ip] += 1;
            }
            if pi.op == op::NOP && o.exec_mask >> lane & 1 == 1 {
                traces[lane].push(ip as u32);
            }
        }
        steps.push(Step { instr, pred, out: o, state: s2.clone() });
        s = s2;
        if pi.op == op::EOT {
            return Ok(SimdRun { steps, traces, live });
        }
        ip = (o.next_ip - base) as usize;
    }
    Err(format!("no EOT within {limit} steps"))
}
