//! Golden model of the SIMD structured branch unit, written from spec branch-unit.md §2.4,
//! §6.4 and §7 (never from the RTL). `step(cfg, state, instr, pred) -> (state, out)` is pure.
//!
//! Stack and CIC index order (also the order of `dbg_cic` / `dbg_tos`): IF, LOOP, CALL, BR, HALT.

pub mod prog;
pub mod threads;

pub const S_IF: usize = 0;
pub const S_LOOP: usize = 1;
pub const S_CALL: usize = 2;
pub const S_BR: usize = 3;
pub const S_HALT: usize = 4;

/// The spec's codes (§2.1, §2.4, §6.2, §7), from the one table the RTL also uses.
pub use hdl::branch_unit::enc::{err, ev, op, ty, warn};

/// The code of a spec event name (`if-diverge`), for the spec's vector tables.
pub fn event(name: &str) -> u64 {
    hdl::branch_unit::enc::event_code(name)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cfg {
    pub n: usize,
    pub maxd: usize,
    pub maxd_call: usize,
    pub ipw: u32,
}

impl Cfg {
    /// Spec defaults for `n` lanes: MAXD = N, MAXD_CALL = 8, IPW = 16.
    pub fn new(n: usize) -> Self {
        Self { n, maxd: n, maxd_call: 8, ipw: 16 }
    }
    pub fn dw(&self) -> u32 {
        let m = self.maxd.max(self.maxd_call) + 1;
        let mut w = 0;
        while (1usize << w) < m {
            w += 1;
        }
        w
    }
    pub fn cw(&self) -> u32 {
        3 + self.dw()
    }
    pub fn lnmax(&self) -> u32 {
        (1 << self.dw()) - 1
    }
    pub fn off(&self) -> u32 {
        (1 << self.cw()) - 1
    }
    pub fn imem_depth(&self) -> i64 {
        1 << self.ipw
    }
    pub fn nmask(&self) -> u64 {
        if self.n == 64 {
            u64::MAX
        } else {
            (1u64 << self.n) - 1
        }
    }
    /// `code(t, d)` of §2.2 for a type `t` of [`ty`].
    pub fn code(&self, t: u64, d: u32) -> u32 {
        ((t as u32) << self.dw()) | d
    }
    /// Stack depth of stack index `s`.
    pub fn maxd_of(&self, s: usize) -> usize {
        match s {
            S_CALL => self.maxd_call,
            S_HALT => 1,
            _ => self.maxd,
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    pub ip: u64,
    pub aux: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub cnt: Vec<u32>,
    /// IF, LOOP, CALL, BR, HALT
    pub cic: [u32; 5],
    /// `stk[s][d-1]` is the entry at depth `d`; entries above `cic[s]` are dead.
    pub stk: [Vec<Entry>; 5],
    pub loop_nest: u32,
    pub fault: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Instr {
    pub op: u64,
    pub ip: u64,
    pub jip: i64,
    pub uip: i64,
}

impl Instr {
    pub fn new(op: u64, ip: u64, jip: i64, uip: i64) -> Self {
        Self { op, ip, jip, uip }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub next_ip: u64,
    pub exec_mask: u64,
    pub lane_mask: u64,
    pub pred_mask: u64,
    pub err: bool,
    /// [`err`] code, and the [`ty`] it names (SKIPPED_CONV, STACK_OVF).
    pub err_code: u64,
    pub err_type: u64,
    /// [`warn`] bits.
    pub warn: u64,
    /// [`ev`] code.
    pub event: u64,
}

impl State {
    /// State after `rst`: all lanes OFF, CICs 0, fault 0.
    pub fn reset(cfg: &Cfg) -> Self {
        Self {
            cnt: vec![cfg.off(); cfg.n],
            cic: [0; 5],
            stk: std::array::from_fn(|s| vec![Entry::default(); cfg.maxd_of(s)]),
            loop_nest: 0,
            fault: false,
        }
    }
    /// Enabled lanes `E`.
    pub fn e(&self) -> u64 {
        self.cnt.iter().enumerate().filter(|(_, &c)| c == 0).fold(0, |m, (n, _)| m | 1 << n)
    }
    pub fn live(&self, cfg: &Cfg) -> u64 {
        let off = cfg.off();
        self.cnt.iter().enumerate().filter(|(_, &c)| c != off).fold(0, |m, (n, _)| m | 1 << n)
    }
    pub fn top(&self, s: usize) -> Entry {
        self.stk[s][self.cic[s] as usize - 1]
    }
    /// The top entry of each type as the RTL shows it on `dbg_tos` (zero when no level is open;
    /// the HALT entry's aux is not stored).
    pub fn tos_view(&self, s: usize) -> Entry {
        if self.cic[s] == 0 {
            Entry::default()
        } else {
            self.top(s)
        }
    }
    fn has(&self, c: u32) -> bool {
        self.cnt.iter().any(|&x| x == c)
    }
    fn park(&mut self, m: u64, c: u32) {
        for (n, x) in self.cnt.iter_mut().enumerate() {
            if m >> n & 1 == 1 {
                *x = c;
            }
        }
    }
    fn rejoin(&mut self, c: u32, q: u64) {
        for (n, x) in self.cnt.iter_mut().enumerate() {
            if *x == c && q >> n & 1 == 1 {
                *x = 0;
            }
        }
    }
    fn matches(&self, s: usize, l: i64) -> bool {
        self.cic[s] > 0 && self.top(s).ip as i64 == l && (s == S_HALT || self.top(s).aux == self.cic[S_CALL])
    }
}

/// Type carried in `err_type` for a stack index.
fn type_of(s: usize) -> u64 {
    match s {
        S_IF => ty::IF,
        S_LOOP => ty::LOOP,
        S_CALL => ty::CALL,
        S_BR => ty::BR,
        _ => ty::HALT,
    }
}

type Fail = (u64, u64);

fn push(cfg: &Cfg, s2: &mut State, s: usize, l: i64) -> Result<(), Fail> {
    if s2.cic[s] as usize == cfg.maxd_of(s) {
        return Err((err::STACK_OVF, type_of(s)));
    }
    s2.cic[s] += 1;
    let aux = if s == S_HALT { 0 } else { s2.cic[S_CALL] };
    let d = s2.cic[s] as usize;
    s2.stk[s][d - 1] = Entry { ip: l as u64, aux };
    Ok(())
}

/// `open(t, L)`: reuse the top level if it matches, else push. Returns whether it pushed.
fn open(cfg: &Cfg, s2: &mut State, s: usize, l: i64) -> Result<bool, Fail> {
    if s2.matches(s, l) {
        Ok(false)
    } else {
        push(cfg, s2, s, l).map(|_| true)
    }
}

fn fail(s: &State, i: &Instr, code: u64, t: u64) -> (State, Out) {
    let mut s2 = s.clone();
    s2.fault = true;
    (s2, Out { next_ip: i.ip, err: true, err_code: code, err_type: t, ..Default::default() })
}

/// Sign rule of §2.4 (and §0.1) for op `op`: true when violated.
fn bad_offset(i: &Instr) -> bool {
    let (j, u) = (i.jip, i.uip);
    match i.op {
        op::IF => !(0 < j && j <= u),
        op::ELSE => u <= 0,
        op::ENDIF | op::JOIN_BR | op::JOIN_HALT => j <= 0,
        op::WHILE => j > 0 || u <= 0,
        op::BREAK | op::CONT | op::HALT => j <= 0 || u <= 0,
        op::RET => j < 0,
        op::BRANCH => j == 0,
        _ => false,
    }
}

/// Candidate targets of §6.4.
fn targets(i: &Instr) -> Vec<i64> {
    let ip = i.ip as i64;
    let (n, j, u) = (ip + 1, ip + i.jip, ip + i.uip);
    match i.op {
        op::NOP | op::DO => vec![n],
        op::IF | op::WHILE | op::CONT | op::HALT => vec![n, j, u],
        op::BREAK => vec![n, j, u, u + 1],
        op::ELSE => vec![n, u],
        op::ENDIF | op::JOIN_BR | op::JOIN_HALT | op::CALL | op::BRANCH => vec![n, j],
        op::RET if i.jip == 0 => vec![],
        op::RET => vec![n, j],
        op::JMP => vec![j],
        _ => vec![],
    }
}

/// Every code of the op table is legal; the others are reserved.
fn legal(code: u64) -> bool {
    op::TABLE.name_of(code).is_some()
}

/// One step of the SBU (§6.4).
pub fn step(cfg: &Cfg, s: &State, i: &Instr, pred: u64) -> (State, Out) {
    let pred = pred & cfg.nmask();
    let e = s.e();
    if i.op == op::INIT {
        if pred == 0 {
            return fail(s, i, err::EMPTY_LIVE, ty::NONE);
        }
        let mut s2 = s.clone();
        for (n, c) in s2.cnt.iter_mut().enumerate() {
            *c = if pred >> n & 1 == 1 { 0 } else { cfg.off() };
        }
        s2.cic = [0; 5];
        s2.loop_nest = 0;
        s2.fault = false;
        // timing-closure §3.2: a thread being dispatched runs under no mask, so INIT reports
        // exec_mask 0 (not the E left by whatever ran before)
        let out = Out { next_ip: i.ip, exec_mask: 0, lane_mask: pred, event: ev::INIT, ..Default::default() };
        return (s2, out);
    }
    if s.fault {
        return fail(s, i, err::FAULTED, ty::NONE);
    }
    if !legal(i.op) {
        return fail(s, i, err::BAD_OP, ty::NONE);
    }
    for st in [S_IF, S_LOOP, S_BR] {
        if s.cic[st] > 0 && s.top(st).aux == s.cic[S_CALL] && i.ip > s.top(st).ip {
            return fail(s, i, err::SKIPPED_CONV, type_of(st));
        }
    }
    if bad_offset(i) {
        return fail(s, i, err::BAD_OFFSET, ty::NONE);
    }
    if targets(i).iter().any(|&t| t < 0 || t >= cfg.imem_depth()) {
        return fail(s, i, err::IP_RANGE, ty::NONE);
    }
    let mut s2 = s.clone();
    match body(cfg, s, &mut s2, i, pred) {
        Ok((next, pred_mask, warn, ev)) => {
            let out = Out {
                next_ip: next as u64,
                exec_mask: e,
                lane_mask: s2.e(),
                pred_mask,
                err: false,
                err_code: err::NONE,
                err_type: ty::NONE,
                warn,
                event: ev,
            };
            (s2, out)
        }
        Err((code, t)) => fail(s, i, code, t),
    }
}

/// Next IP, predicate mask, warnings, event.
type BodyOut = (i64, u64, u64, u64);

fn body(cfg: &Cfg, s: &State, s2: &mut State, i: &Instr, pred: u64) -> Result<BodyOut, Fail> {
    let ip = i.ip as i64;
    let e = s.e();
    let live = s.live(cfg);
    let fc = e == live;
    let t = pred & e;
    let ign = if pred != cfg.nmask() { warn::PRED_IGNORED } else { 0 };
    let dw_code = |t: u64, d: u32| cfg.code(t, d);
    let go_on = |s2: &State, j: i64| if s2.e() != 0 { ip + 1 } else { ip + j };
    match i.op {
        op::NOP => Ok((ip + 1, 0, 0, ev::NOP)),
        op::JMP => Ok((ip + i.jip, 0, ign, ev::JMP)),
        op::DO => {
            if s.loop_nest == cfg.lnmax() {
                return Err((err::LOOP_NEST_OVF, ty::NONE));
            }
            s2.loop_nest += 1;
            Ok((ip + 1, 0, ign, ev::DO))
        }
        op::EOT => {
            if s.cic.iter().any(|&c| c != 0) || s.loop_nest != 0 || e != live {
                return Err((err::UNCLOSED_AT_EOT, ty::NONE));
            }
            Ok((ip, 0, ign, ev::EOT))
        }
        op::IF => {
            let l = ip + i.uip;
            if e == 0 {
                Ok((l, e, 0, ev::IF_EMPTY))
            } else if t == e {
                Ok((ip + 1, e, 0, ev::IF_UNIFORM_TRUE))
            } else if t == 0 {
                Ok((ip + i.jip, e, 0, ev::IF_UNIFORM_FALSE))
            } else {
                push(cfg, s2, S_IF, l)?;
                let c = dw_code(ty::IF, s2.cic[S_IF]);
                s2.park(e & !t, c);
                Ok((ip + 1, e, 0, ev::IF_DIVERGE))
            }
        }
        op::ELSE => {
            let l = ip + i.uip;
            if s.matches(S_IF, l) {
                let c = dw_code(ty::IF, s.cic[S_IF]);
                for x in s2.cnt.iter_mut() {
                    *x = if *x == 0 {
                        c
                    } else if *x == c {
                        0
                    } else {
                        *x
                    };
                }
                let next = if s2.e() != 0 { ip + 1 } else { l };
                Ok((next, 0, ign, ev::ELSE_SWAP))
            } else {
                Ok((l, 0, ign, ev::ELSE_SKIP))
            }
        }
        op::ENDIF | op::JOIN_BR | op::JOIN_HALT => {
            let (st, tid) = match i.op {
                op::ENDIF => (S_IF, ty::IF),
                op::JOIN_BR => (S_BR, ty::BR),
                _ => (S_HALT, ty::HALT),
            };
            let mut w = 0;
            let mut event = ev::CONV_NOMATCH;
            if s.matches(st, ip) {
                let c = dw_code(tid, s.cic[st]);
                s2.rejoin(c, pred);
                if s2.has(c) {
                    w = warn::PARTIAL_REJOIN;
                    event = ev::CONV_PARTIAL;
                } else {
                    s2.cic[st] -= 1;
                    event = ev::CONV_POP;
                }
            }
            Ok((go_on(s2, i.jip), 0, w, event))
        }
        op::BREAK | op::CONT => {
            let brk = i.op == op::BREAK;
            if s.loop_nest == 0 {
                return Err((err::NO_LOOP, ty::NONE));
            }
            let w = ip + i.uip;
            if t == 0 {
                Ok((ip + 1, e, 0, if brk { ev::BREAK_NONE } else { ev::CONT_NONE }))
            } else if fc && t == e {
                if brk {
                    s2.loop_nest -= 1;
                    Ok((w + 1, e, 0, ev::BREAK_SHORTCUT))
                } else {
                    Ok((w, e, 0, ev::CONT_SHORTCUT))
                }
            } else {
                let pushed = open(cfg, s2, S_LOOP, w)?;
                let c = dw_code(if brk { ty::LOOP } else { ty::CONT }, s2.cic[S_LOOP]);
                s2.park(t, c);
                let ev = match (brk, pushed) {
                    (true, true) => ev::BREAK_PARK_OPEN,
                    (true, false) => ev::BREAK_PARK_REUSE,
                    (false, true) => ev::CONT_PARK_OPEN,
                    (false, false) => ev::CONT_PARK_REUSE,
                };
                Ok((go_on(s2, i.jip), e, 0, ev))
            }
        }
        op::WHILE => {
            if s.loop_nest == 0 {
                return Err((err::NO_LOOP, ty::NONE));
            }
            let m = s.matches(S_LOOP, ip);
            if m {
                s2.rejoin(dw_code(ty::CONT, s.cic[S_LOOP]), u64::MAX);
            }
            let e1 = s2.e();
            let c = pred & e1;
            let x = e1 & !c;
            if c != 0 {
                let ev;
                if x != 0 {
                    ev = if !m {
                        push(cfg, s2, S_LOOP, ip)?;
                        ev::WHILE_DIVERGE_OPEN
                    } else {
                        ev::WHILE_DIVERGE
                    };
                    let code = dw_code(ty::LOOP, s2.cic[S_LOOP]);
                    s2.park(x, code);
                } else if m && !s2.has(dw_code(ty::LOOP, s2.cic[S_LOOP])) {
                    s2.cic[S_LOOP] -= 1;
                    ev = ev::WHILE_UNIFORM_LOOP_CLOSE;
                } else {
                    ev = ev::WHILE_UNIFORM_LOOP;
                }
                Ok((ip + i.jip, e1, 0, ev))
            } else {
                let ev = if m {
                    s2.rejoin(dw_code(ty::LOOP, s2.cic[S_LOOP]), u64::MAX);
                    s2.cic[S_LOOP] -= 1;
                    ev::WHILE_EXIT_POP
                } else {
                    ev::WHILE_EXIT
                };
                s2.loop_nest -= 1;
                Ok((go_on(s2, i.uip), e1, 0, ev))
            }
        }
        op::CALL => {
            if t == 0 {
                return Ok((ip + 1, e, 0, ev::CALL_NONE));
            }
            if s.cic[S_CALL] as usize == cfg.maxd_call {
                return Err((err::STACK_OVF, type_of(S_CALL)));
            }
            s2.cic[S_CALL] += 1;
            let d = s2.cic[S_CALL] as usize;
            s2.stk[S_CALL][d - 1] = Entry { ip: (ip + 1) as u64, aux: s.loop_nest };
            s2.loop_nest = 0;
            let ev = if t != e {
                s2.park(e & !t, dw_code(ty::CALL, d as u32));
                ev::CALL_DIVERGE
            } else {
                ev::CALL_UNIFORM
            };
            Ok((ip + i.jip, e, 0, ev))
        }
        op::RET => {
            if s.cic[S_CALL] == 0 {
                return Err((err::RET_UNDERFLOW, ty::NONE));
            }
            let d = s.cic[S_CALL];
            let c = dw_code(ty::CALL, d);
            let fin = i.jip == 0;
            let t = if fin { e } else { t };
            let (pm, w) = if fin { (0, ign) } else { (e, 0) };
            let done = |s2: &mut State| {
                let ent = s2.stk[S_CALL][d as usize - 1];
                s2.loop_nest = ent.aux;
                s2.cic[S_CALL] -= 1;
                ent.ip as i64
            };
            if e != 0 && fc && t == e {
                let next = done(s2);
                Ok((next, pm, w, ev::RET_SHORTCUT))
            } else {
                s2.park(t, c);
                if s2.e() != 0 {
                    Ok((ip + 1, pm, w, ev::RET_PARK))
                } else if !fin {
                    Ok((ip + i.jip, pm, w, ev::RET_PARK_REJOIN))
                } else {
                    s2.rejoin(c, u64::MAX);
                    let next = done(s2);
                    Ok((next, pm, w, ev::RET_COMPLETE))
                }
            }
        }
        op::BRANCH => {
            let l = ip + i.jip;
            if t == 0 {
                Ok((ip + 1, e, 0, ev::BR_NONE))
            } else if t == e {
                Ok((l, e, 0, ev::BR_ALL))
            } else {
                if i.jip <= 0 {
                    return Err((err::DIV_BACKWARD, ty::NONE));
                }
                if s.cic[S_BR] > 0 && s.top(S_BR).aux == s.cic[S_CALL] && l > s.top(S_BR).ip as i64 {
                    return Err((err::UNSTRUCTURED_BR, ty::NONE));
                }
                let pushed = open(cfg, s2, S_BR, l)?;
                s2.park(t, dw_code(ty::BR, s2.cic[S_BR]));
                Ok((ip + 1, e, 0, if pushed { ev::BR_DIVERGE } else { ev::BR_DIVERGE_REUSE }))
            }
        }
        op::HALT => {
            let l = ip + i.uip;
            if t == 0 {
                Ok((ip + 1, e, 0, ev::HALT_NONE))
            } else if fc && t == e {
                s2.cic[S_CALL] = 0;
                s2.loop_nest = 0;
                Ok((l, e, 0, ev::HALT_SHORTCUT))
            } else {
                if s.cic[S_HALT] == 0 {
                    push(cfg, s2, S_HALT, l)?;
                } else if s.stk[S_HALT][0].ip as i64 != l {
                    return Err((err::HALT_TARGET, ty::NONE));
                }
                s2.park(t, dw_code(ty::HALT, 1));
                Ok((go_on(s2, i.jip), e, 0, ev::HALT_PARK))
            }
        }
        _ => unreachable!("legal() filtered op {:#x}", i.op),
    }
}
