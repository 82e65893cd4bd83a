//! `eu-asm`'s library: the assembler (structured source with function labels; the branch unit's
//! program assembler [`bu::prog::assemble`] lays the program out and computes every JIP/UIP) and
//! the disassembler (a flat `.raw` listing that assembles back to the same words).
//!
//! Source (docs/isa.md "Assembly language"), one statement per line, `;` or `//` comments:
//!
//! ```text
//! .func gcd                       ; a subroutine, reached by `call gcd`
//!   ...
//! .endfunc
//! (f0) add.lt.f1 (8) r3.0<1>:d, r1.0<8;8,1>:d, 5
//! do / while / break / cont / if / else / endif / branch / join / call NAME / ret / halt
//! .handler                        ; the trap handler (ends with tret or tpause)
//!   ...
//! .endhandler
//! ```
//!
//! The main program is every statement outside `.func`/`.handler`. The layout is the branch
//! unit assembler's: `JMP main; functions (each ending in its final RET); main; JOIN_HALT; EOT`,
//! then the handler laid out the same way on its own.

use super::{enc, op, Inst, Program, Region};
use crate::golden::branch_unit::{self as bu, prog};
use crate::golden::region_addr_gen as rag;

/// An assembly error, with the 1-based source line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AsmError {
    pub line: usize,
    pub msg: String,
}

impl std::fmt::Display for AsmError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.msg)
    }
}

impl std::error::Error for AsmError {}

type Pred = (u64, u32);

/// A structured statement.
#[derive(Clone, Debug)]
pub enum Stmt {
    Ins(Inst),
    If(Pred, Vec<Stmt>, Option<Vec<Stmt>>),
    Loop(Vec<Stmt>, Pred),
    Break(Pred),
    Cont(Pred),
    Call(usize, Pred),
    Ret(Pred),
    Branch(Pred, Vec<Stmt>),
    Halt(Pred),
}

/// A parsed structured program: main, functions (by index), handler.
#[derive(Clone, Debug, Default)]
pub struct Source {
    pub main: Vec<Stmt>,
    pub funcs: Vec<Vec<Stmt>>,
    pub handler: Option<Vec<Stmt>>,
}

const TYPES: [(&str, u32); 8] = [
    ("ub", rag::T_UB),
    ("b", rag::T_B),
    ("uw", rag::T_UW),
    ("w", rag::T_W),
    ("ud", rag::T_UD),
    ("d", rag::T_D),
    ("f", rag::T_F),
    ("rsv", rag::T_RESERVED),
];

fn type_name(t: u32) -> &'static str {
    TYPES.iter().find(|x| x.1 == t).map_or("rsv", |x| x.0)
}

fn lower(name: &str) -> String {
    name.to_lowercase()
}

fn parse_num(s: &str) -> Option<i64> {
    let (neg, t) = match s.strip_prefix('-') {
        Some(t) => (true, t),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let v = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        i64::from_str_radix(&h.replace('_', ""), 16).ok()?
    } else {
        t.replace('_', "").parse::<i64>().ok()?
    };
    Some(if neg { -v } else { v })
}

/// An immediate: an integer (−2^31..2^32−1) or a float with an `f` suffix (`1.5f`).
fn parse_imm(s: &str) -> Option<u32> {
    if let Some(f) = s.strip_suffix('f') {
        if !f.starts_with("0x") {
            return f.parse::<f32>().ok().map(f32::to_bits);
        }
    }
    let v = parse_num(s)?;
    if (-(1i64 << 31)..(1i64 << 32)).contains(&v) {
        Some(v as u32)
    } else {
        None
    }
}

/// `r12.4<8;8,1>:d` (source), `r12.4<1>:d` (destination), `r12` (defaults: sub 0, the whole
/// exec size as one row of stride 1, type d).
fn parse_region(s: &str, exec_log2: u32, dst: bool) -> Result<Region, String> {
    let bad = || format!("bad region `{s}` (expected e.g. r4.0<8;8,1>:d{})", if dst { " or r4.0<1>:d" } else { "" });
    let (body, ty) = match s.split_once(':') {
        Some((b, t)) => (b, TYPES.iter().find(|x| x.0 == t).ok_or_else(|| format!("unknown type `:{t}`"))?.1),
        None => (s, rag::T_D),
    };
    let (head, strides) = match body.split_once('<') {
        Some((h, r)) => (h, Some(r.strip_suffix('>').ok_or_else(bad)?)),
        None => (body, None),
    };
    let head = head.strip_prefix('r').ok_or_else(bad)?;
    let (reg, sub) = match head.split_once('.') {
        Some((r, s)) => (r, s),
        None => (head, "0"),
    };
    let reg = reg.parse::<u32>().map_err(|_| bad())?;
    let sub = sub.parse::<u32>().map_err(|_| bad())?;
    if reg > 255 || sub > 31 {
        return Err(format!("region `{s}`: register 0..255 and sub-register 0..31"));
    }
    let n = 1u32 << exec_log2.min(3);
    let mut r = Region { reg, sub, ty, vs: n, width_log2: exec_log2, hs: 1 };
    if let Some(st) = strides {
        if dst {
            r.hs = st.parse().map_err(|_| bad())?;
            r.vs = 0;
            r.width_log2 = 0;
        } else {
            let (vs, rest) = st.split_once(';').ok_or_else(bad)?;
            let (w, hs) = rest.split_once(',').ok_or_else(bad)?;
            r.vs = vs.trim().parse().map_err(|_| bad())?;
            let w: u32 = w.trim().parse().map_err(|_| bad())?;
            if !w.is_power_of_two() || w > 128 {
                return Err(format!("region `{s}`: width {w} is not a power of two up to 128"));
            }
            r.width_log2 = w.trailing_zeros();
            r.hs = hs.trim().parse().map_err(|_| bad())?;
        }
    } else if dst {
        r.vs = 0;
        r.width_log2 = 0;
    }
    if r.hs > 127 || r.vs > 255 {
        return Err(format!("region `{s}`: hs 0..127 and vs 0..255"));
    }
    Ok(r)
}

fn fmt_region(r: &Region, dst: bool) -> String {
    if dst {
        format!("r{}.{}<{}>:{}", r.reg, r.sub, r.hs, type_name(r.ty))
    } else {
        format!("r{}.{}<{};{},{}>:{}", r.reg, r.sub, r.vs, 1u32 << r.width_log2, r.hs, type_name(r.ty))
    }
}

/// The mnemonic of op code `o` (lower case).
pub fn mnemonic(o: u64) -> String {
    lower(op::TABLE.name_of(o).unwrap_or("?"))
}

/// One instruction's text, as the disassembler prints it (control flow with explicit offsets).
pub fn disasm_inst(i: &Inst) -> String {
    let mut s = String::new();
    if i.pred != super::pred::NONE {
        s += &format!("({}f{}) ", if i.pred == super::pred::NOT_F { "!" } else { "" }, i.flag);
    }
    s += &mnemonic(i.op);
    if enc::is_control(i.op) {
        return format!("{s} jip={} uip={}", i.jip, i.uip);
    }
    if i.cmod != super::cmod::NONE {
        s += &format!(".{}.f{}", lower(super::cmod::TABLE.name_of(i.cmod).unwrap()), i.flag);
    } else if i.pred == super::pred::NONE && i.flag != 0 {
        s += &format!(".f{}", i.flag);
    }
    if matches!(i.op, op::TANH | op::TANH_PRE | op::SIGMOID) || i.fmt != 0 {
        s += &format!(".{}", lower(hdl::tanh_sigmoid::enc::fmt::TABLE.name_of(i.fmt as u64).unwrap_or("rsv")));
    }
    if i.ftz {
        s += ".ftz";
    }
    s += &format!(" ({})", 1u32 << i.exec_log2);
    let opd = super::operands(i.op);
    let mut args: Vec<String> = Vec::new();
    match i.op {
        op::SRD => {
            args.push(fmt_region(&i.dst, true));
            args.push(lower(super::sreg::TABLE.name_of(i.src1.reg as u64).unwrap_or("?")));
        }
        op::SWR => {
            args.push(lower(super::sreg::TABLE.name_of(i.dst.reg as u64).unwrap_or("?")));
            args.push(fmt_region(&i.src0, false));
        }
        _ => {
            if opd.dst {
                args.push(fmt_region(&i.dst, true));
            }
            if opd.src0 && !(i.imm.is_some() && !opd.src1 && i.op != op::LD) {
                args.push(fmt_region(&i.src0, false));
            }
            if let Some(v) = i.imm {
                args.push(format!("{v:#x}"));
            } else if opd.src1 {
                args.push(fmt_region(&i.src1, false));
            }
        }
    }
    if !args.is_empty() {
        s += " ";
        s += &args.join(", ");
    }
    s
}

/// A flat listing that [`assemble`] turns back into the same words.
pub fn disassemble(p: &Program) -> String {
    let mut s = String::from(".raw\n");
    if let Some(h) = p.handler {
        s += &format!(".handler_ip {h}\n");
    }
    for (ip, &w) in p.code.iter().enumerate() {
        match Inst::decode(w) {
            Ok(i) => s += &format!("{}    ; {ip}\n", disasm_inst(&i)),
            Err(e) => s += &format!(".word {w:#034x}    ; {ip}: illegal: {e}\n"),
        }
    }
    s
}

fn parse_pred(tok: &str) -> Option<Pred> {
    let t = tok.strip_prefix('(')?.strip_suffix(')')?;
    let (neg, f) = match t.strip_prefix('!') {
        Some(f) => (true, f),
        None => (false, t),
    };
    let flag = match f {
        "f0" => 0,
        "f1" => 1,
        _ => return None,
    };
    Some((if neg { super::pred::NOT_F } else { super::pred::F }, flag))
}

/// One parsed line: predicate, mnemonic parts, operands.
struct Line<'a> {
    pred: Option<Pred>,
    mnem: &'a str,
    mods: Vec<&'a str>,
    exec: Option<u32>,
    args: Vec<&'a str>,
}

fn split_line(text: &str) -> Result<Line<'_>, String> {
    let mut rest = text.trim();
    let mut pred = None;
    if rest.starts_with('(') {
        let end = rest.find(')').ok_or("unclosed predicate `(`")? + 1;
        pred = Some(parse_pred(&rest[..end]).ok_or_else(|| format!("bad predicate `{}` (expected (f0), (!f1), ...)", &rest[..end]))?);
        rest = rest[end..].trim_start();
    }
    let (m, mut rest) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let mut parts = m.split('.');
    let mnem = parts.next().unwrap();
    let mods: Vec<&str> = parts.collect();
    rest = rest.trim();
    let mut exec = None;
    if rest.starts_with('(') {
        let end = rest.find(')').ok_or("unclosed exec size `(`")?;
        let n: u32 = rest[1..end].trim().parse().map_err(|_| format!("bad exec size `{}`", &rest[..=end]))?;
        if !n.is_power_of_two() || n > 128 {
            return Err(format!("exec size {n} is not a power of two up to 128"));
        }
        exec = Some(n.trailing_zeros());
        rest = rest[end + 1..].trim();
    }
    // operands are comma separated; a region's <VS;W,HS> has a comma of its own
    let mut args = Vec::new();
    if !rest.is_empty() {
        let (mut depth, mut start) = (0i32, 0usize);
        for (k, c) in rest.char_indices() {
            match c {
                '<' => depth += 1,
                '>' => depth -= 1,
                ',' if depth == 0 => {
                    args.push(rest[start..k].trim());
                    start = k + 1;
                }
                _ => {}
            }
        }
        args.push(rest[start..].trim());
    }
    Ok(Line { pred, mnem, mods, exec, args })
}

fn op_of(mnem: &str) -> Option<u64> {
    op::TABLE.codes.iter().find(|c| lower(c.name) == mnem).map(|c| c.value)
}

/// A non-control instruction, or a control one with explicit `jip=`/`uip=` (raw mode).
fn parse_inst(l: &Line, raw: bool) -> Result<Inst, String> {
    let o = op_of(l.mnem).ok_or_else(|| format!("unknown mnemonic `{}`", l.mnem))?;
    let mut i = Inst { op: o, exec_log2: l.exec.unwrap_or(3), ..Default::default() };
    let mut flag: Option<u32> = None;
    if let Some((p, f)) = l.pred {
        i.pred = p;
        flag = Some(f);
    }
    for m in &l.mods {
        if let Some(c) = super::cmod::TABLE.codes.iter().find(|c| lower(c.name) == *m && c.value != 0) {
            i.cmod = c.value;
        } else if *m == "f0" || *m == "f1" {
            let f = (*m == "f1") as u32;
            if flag.is_some_and(|g| g != f) {
                return Err("the predicate and the condition modifier name different flags".into());
            }
            flag = Some(f);
        } else if let Some(f) = hdl::tanh_sigmoid::enc::fmt::TABLE.codes.iter().find(|c| lower(c.name) == *m).map(|c| c.value) {
            i.fmt = f as u32;
        } else if *m == "ftz" {
            i.ftz = true;
        } else {
            return Err(format!("unknown modifier `.{m}`"));
        }
    }
    i.flag = flag.unwrap_or(0);
    if enc::is_control(o) {
        if !raw {
            return Err(format!("`{}` is structured here: write it without jip=/uip=", l.mnem));
        }
        for a in &l.args {
            for t in a.split_whitespace() {
                let (k, v) = t.split_once('=').ok_or_else(|| format!("expected jip=N or uip=N, found `{t}`"))?;
                let v = parse_num(v).filter(|v| (-32768..32768).contains(v)).ok_or_else(|| format!("bad offset `{t}`"))?;
                match k {
                    "jip" => i.jip = v,
                    "uip" => i.uip = v,
                    _ => return Err(format!("expected jip=N or uip=N, found `{t}`")),
                }
            }
        }
        return Ok(i);
    }
    let opd = super::operands(o);
    let want = |n: usize, what: &str| -> Result<(), String> {
        if l.args.len() != n {
            Err(format!("`{}` takes {what}, found {} operand(s)", l.mnem, l.args.len()))
        } else {
            Ok(())
        }
    };
    let sreg = |s: &str| -> Result<u32, String> {
        super::sreg::TABLE
            .codes
            .iter()
            .find(|c| lower(c.name) == s)
            .map(|c| c.value as u32)
            .ok_or_else(|| format!("unknown special register `{s}`"))
    };
    let e = i.exec_log2;
    match o {
        op::SRD => {
            want(2, "dst, special register")?;
            i.dst = parse_region(l.args[0], e, true)?;
            i.src1.reg = sreg(l.args[1])?;
        }
        op::SWR => {
            want(2, "special register, src")?;
            i.dst.reg = sreg(l.args[0])?;
            i.src0 = parse_region(l.args[1], e, false)?;
        }
        op::TRAP => {
            if l.args.len() > 1 {
                return Err("`trap` takes at most one immediate".into());
            }
            i.imm = Some(match l.args.first() {
                Some(a) => parse_imm(a).ok_or_else(|| format!("bad immediate `{a}`"))?,
                None => 0,
            });
        }
        op::LD => {
            if !(2..=3).contains(&l.args.len()) {
                return Err(format!("`ld` takes dst, address[, offset], found {} operand(s)", l.args.len()));
            }
            i.dst = parse_region(l.args[0], e, true)?;
            i.src0 = parse_region(l.args[1], e, false)?;
            if let Some(a) = l.args.get(2) {
                i.imm = Some(parse_imm(a).ok_or_else(|| format!("bad offset `{a}`"))?);
            }
        }
        _ => {
            let n = opd.dst as usize + opd.src0 as usize + opd.src1 as usize;
            want(n, &format!("{n} operand(s)"))?;
            let mut k = 0;
            if opd.dst {
                i.dst = parse_region(l.args[k], e, true)?;
                k += 1;
            }
            if opd.src0 {
                let a = l.args[k];
                if a.starts_with('r') || opd.src1 {
                    i.src0 = parse_region(a, e, false)?;
                } else {
                    // a one-source op takes an immediate in place of src0
                    i.imm = Some(parse_imm(a).ok_or_else(|| format!("bad operand `{a}` (a region rN... or an immediate)"))?);
                }
                k += 1;
            }
            if opd.src1 {
                let a = l.args[k];
                if a.starts_with('r') {
                    i.src1 = parse_region(a, e, false)?;
                } else {
                    i.imm = Some(parse_imm(a).ok_or_else(|| format!("bad operand `{a}` (a region rN... or an immediate)"))?);
                }
            }
        }
    }
    Ok(i)
}

enum Frame {
    Top,
    Func,
    Handler,
    If { pred: Pred, then: Option<Vec<Stmt>> },
    Do,
    Branch(Pred),
}

/// Parses structured source (see the module docs).
pub fn parse(src: &str) -> Result<Source, AsmError> {
    let mut names: Vec<(String, usize)> = Vec::new();
    // function names first, so a call may come before the function
    for (n, line) in src.lines().enumerate() {
        let t = strip_comment(line);
        if let Some(name) = t.strip_prefix(".func") {
            let name = name.trim().to_string();
            if name.is_empty() || names.iter().any(|x| x.0 == name) {
                return Err(AsmError { line: n + 1, msg: format!("missing or duplicate function name `{name}`") });
            }
            names.push((name, n + 1));
        }
    }
    let mut out = Source { funcs: vec![Vec::new(); names.len()], ..Default::default() };
    let mut stack: Vec<(Frame, Vec<Stmt>, usize)> = vec![(Frame::Top, Vec::new(), 0)];
    let mut nfunc = 0;
    let mut loops = 0usize;
    let mut loop_stack: Vec<usize> = Vec::new();
    let mut in_func = false;
    let mut in_handler = false;
    for (n, line) in src.lines().enumerate() {
        let ln = n + 1;
        let err = |m: String| AsmError { line: ln, msg: m };
        let t = strip_comment(line);
        if t.is_empty() {
            continue;
        }
        if t.starts_with('.') {
            let d = t.split_whitespace().next().unwrap();
            match d {
                ".func" => {
                    if stack.len() != 1 {
                        return Err(err(".func inside a block".into()));
                    }
                    stack.push((Frame::Func, Vec::new(), ln));
                    in_func = true;
                }
                ".endfunc" => match stack.pop() {
                    Some((Frame::Func, b, _)) => {
                        out.funcs[nfunc] = b;
                        nfunc += 1;
                        in_func = false;
                    }
                    _ => return Err(err(".endfunc without .func, or a block is still open".into())),
                },
                ".handler" => {
                    if stack.len() != 1 || out.handler.is_some() {
                        return Err(err(".handler inside a block, or a second handler".into()));
                    }
                    stack.push((Frame::Handler, Vec::new(), ln));
                    in_handler = true;
                }
                ".endhandler" => match stack.pop() {
                    Some((Frame::Handler, b, _)) => {
                        out.handler = Some(b);
                        in_handler = false;
                    }
                    _ => return Err(err(".endhandler without .handler, or a block is still open".into())),
                },
                ".raw" => return Err(err(".raw must be the first statement".into())),
                _ => return Err(err(format!("unknown directive `{d}`"))),
            }
            continue;
        }
        let l = split_line(t).map_err(err)?;
        let p = l.pred.unwrap_or((super::pred::NONE, 0));
        let no_args = |what: &str| -> Result<(), AsmError> {
            if !l.args.is_empty() || !l.mods.is_empty() || l.exec.is_some() {
                Err(AsmError { line: ln, msg: format!("`{what}` takes only a predicate") })
            } else {
                Ok(())
            }
        };
        let top = &mut stack.last_mut().unwrap().1;
        match l.mnem {
            "if" => {
                no_args("if")?;
                stack.push((Frame::If { pred: p, then: None }, Vec::new(), ln));
            }
            "else" => {
                no_args("else")?;
                match stack.last_mut() {
                    Some((Frame::If { then, .. }, b, _)) if then.is_none() => *then = Some(std::mem::take(b)),
                    _ => return Err(err("`else` without an open `if`".into())),
                }
            }
            "endif" => {
                no_args("endif")?;
                match stack.pop() {
                    Some((Frame::If { pred, then }, b, _)) => {
                        let s = match then {
                            Some(t) => Stmt::If(pred, t, Some(b)),
                            None => Stmt::If(pred, b, None),
                        };
                        stack.last_mut().unwrap().1.push(s);
                    }
                    _ => return Err(err("`endif` without an open `if`".into())),
                }
            }
            "do" => {
                no_args("do")?;
                stack.push((Frame::Do, Vec::new(), ln));
                loops += 1;
                loop_stack.push(stack.len() - 1);
            }
            "while" => {
                no_args("while")?;
                match stack.pop() {
                    Some((Frame::Do, b, _)) => {
                        loop_stack.pop();
                        stack.last_mut().unwrap().1.push(Stmt::Loop(b, p));
                    }
                    _ => return Err(err("`while` without an open `do`".into())),
                }
            }
            "break" | "cont" => {
                no_args(l.mnem)?;
                // a loop must be open in this function (not across a .func boundary)
                if loop_stack.is_empty() {
                    return Err(err(format!("`{}` outside a loop", l.mnem)));
                }
                top.push(if l.mnem == "break" { Stmt::Break(p) } else { Stmt::Cont(p) });
            }
            "call" => {
                if l.args.len() != 1 || !l.mods.is_empty() {
                    return Err(err("`call` takes one function name".into()));
                }
                if in_handler {
                    return Err(err("the handler cannot call functions".into()));
                }
                let f = names.iter().position(|x| x.0 == l.args[0]).ok_or_else(|| err(format!("unknown function `{}`", l.args[0])))?;
                top.push(Stmt::Call(f, p));
            }
            "ret" => {
                no_args("ret")?;
                if !in_func {
                    return Err(err("`ret` outside a function".into()));
                }
                top.push(Stmt::Ret(p));
            }
            "branch" => {
                no_args("branch")?;
                stack.push((Frame::Branch(p), Vec::new(), ln));
            }
            "join" => {
                no_args("join")?;
                match stack.pop() {
                    Some((Frame::Branch(p), b, _)) => stack.last_mut().unwrap().1.push(Stmt::Branch(p, b)),
                    _ => return Err(err("`join` without an open `branch`".into())),
                }
            }
            "halt" => {
                no_args("halt")?;
                top.push(Stmt::Halt(p));
            }
            m if op_of(m).is_some_and(enc::is_control) => {
                return Err(err(format!("`{m}` is placed by the assembler (structured source has if/else/endif, do/while, branch/join)")))
            }
            _ => {
                let i = parse_inst(&l, false).map_err(err)?;
                top.push(Stmt::Ins(i));
            }
        }
    }
    let _ = loops;
    if stack.len() != 1 {
        let (f, _, ln) = stack.last().unwrap();
        let what = match f {
            Frame::Func => ".func",
            Frame::Handler => ".handler",
            Frame::If { .. } => "if",
            Frame::Do => "do",
            Frame::Branch(_) => "branch",
            Frame::Top => unreachable!(),
        };
        return Err(AsmError { line: *ln, msg: format!("`{what}` is never closed") });
    }
    out.main = stack.pop().unwrap().1;
    Ok(out)
}

/// The line without its comment: `;` (outside a region's `<VS;W,HS>`) or `//`.
fn strip_comment(line: &str) -> &str {
    let mut depth = 0i32;
    let b = line.find("//").unwrap_or(line.len());
    for (k, c) in line[..b].char_indices() {
        match c {
            '<' => depth += 1,
            '>' => depth -= 1,
            ';' if depth <= 0 => return line[..k].trim(),
            _ => {}
        }
    }
    line[..b].trim()
}

/// What fills one slot of the branch unit assembler's layout.
enum Slot {
    Ins(Inst),
    Cf(u64, Pred),
}

fn lower_block(b: &[Stmt], nodes: &mut Vec<prog::Node>, slots: &mut Vec<Slot>) {
    use prog::Node;
    for s in b {
        match s {
            Stmt::Ins(i) => {
                nodes.push(Node::Nop);
                slots.push(Slot::Ins(*i));
            }
            Stmt::If(p, t, e) => {
                slots.push(Slot::Cf(op::IF, *p));
                let mut tn = Vec::new();
                lower_block(t, &mut tn, slots);
                let en = e.as_ref().map(|e| {
                    slots.push(Slot::Cf(op::ELSE, (0, 0)));
                    let mut en = Vec::new();
                    lower_block(e, &mut en, slots);
                    en
                });
                slots.push(Slot::Cf(op::ENDIF, (0, 0)));
                nodes.push(Node::If(tn, en));
            }
            Stmt::Loop(b, p) => {
                slots.push(Slot::Cf(op::DO, (0, 0)));
                let mut bn = Vec::new();
                lower_block(b, &mut bn, slots);
                slots.push(Slot::Cf(op::WHILE, *p));
                nodes.push(Node::Loop(bn));
            }
            Stmt::Break(p) => {
                slots.push(Slot::Cf(op::BREAK, *p));
                nodes.push(Node::Break);
            }
            Stmt::Cont(p) => {
                slots.push(Slot::Cf(op::CONT, *p));
                nodes.push(Node::Cont);
            }
            Stmt::Call(f, p) => {
                slots.push(Slot::Cf(op::CALL, *p));
                nodes.push(Node::Call { f: *f, rec: false });
            }
            Stmt::Ret(p) => {
                slots.push(Slot::Cf(op::RET, *p));
                nodes.push(Node::Ret);
            }
            Stmt::Branch(p, b) => {
                slots.push(Slot::Cf(op::BRANCH, *p));
                let mut bn = Vec::new();
                lower_block(b, &mut bn, slots);
                slots.push(Slot::Cf(op::JOIN_BR, (0, 0)));
                nodes.push(Node::Branch(bn, None));
            }
            Stmt::Halt(p) => {
                slots.push(Slot::Cf(op::HALT, *p));
                nodes.push(Node::Halt);
            }
        }
    }
}

/// Lays out one program (main + functions) with the branch unit's assembler; returns its words.
fn layout(main: &[Stmt], funcs: &[Vec<Stmt>]) -> Vec<u128> {
    let none = (0, 0);
    let mut slots = vec![Slot::Cf(op::JMP, none)];
    let mut fnodes = Vec::new();
    for f in funcs {
        let mut n = Vec::new();
        lower_block(f, &mut n, &mut slots);
        slots.push(Slot::Cf(op::RET, none));
        fnodes.push(n);
    }
    let mut mnodes = Vec::new();
    lower_block(main, &mut mnodes, &mut slots);
    slots.push(Slot::Cf(op::JOIN_HALT, none));
    slots.push(Slot::Cf(op::EOT, none));
    let ast = prog::Ast { main: mnodes, rec: vec![0; fnodes.len()], funcs: fnodes };
    let p = prog::assemble(&ast, true, 0);
    assert_eq!(p.code.len(), slots.len(), "the slot walk follows bu::prog::assemble");
    p.code
        .iter()
        .zip(slots)
        .map(|(pi, s)| match s {
            Slot::Ins(i) => {
                assert_eq!(pi.op, bu::op::NOP, "the slot walk follows bu::prog::assemble");
                i.encode()
            }
            Slot::Cf(o, (pr, f)) => {
                assert_eq!(pi.op, o, "the slot walk follows bu::prog::assemble");
                Inst { op: o, pred: pr, flag: f, exec_log2: 3, jip: pi.jip, uip: pi.uip, ..Default::default() }.encode()
            }
        })
        .collect()
}

/// Lays out a parsed program: main with its functions, then the handler.
pub fn link(s: &Source) -> Result<Program, AsmError> {
    let mut code = layout(&s.main, &s.funcs);
    let mut handler = None;
    if let Some(h) = &s.handler {
        handler = Some(code.len() as u64);
        code.extend(layout(h, &[]));
    }
    if code.len() > 1 << 15 {
        return Err(AsmError { line: 0, msg: format!("program of {} instructions: JIP/UIP reach 2^15", code.len()) });
    }
    Ok(Program { code, handler })
}

/// Assembles source text: structured (see the module docs), or a `.raw` listing as
/// [`disassemble`] writes it.
pub fn assemble(src: &str) -> Result<Program, AsmError> {
    let first = src.lines().map(strip_comment).position(|l| !l.is_empty());
    if first.is_some_and(|k| strip_comment(src.lines().nth(k).unwrap()) == ".raw") {
        return assemble_raw(src);
    }
    link(&parse(src)?)
}

fn assemble_raw(src: &str) -> Result<Program, AsmError> {
    let mut p = Program::default();
    let mut seen_raw = false;
    for (n, line) in src.lines().enumerate() {
        let err = |m: String| AsmError { line: n + 1, msg: m };
        let t = strip_comment(line);
        if t.is_empty() {
            continue;
        }
        if t == ".raw" && !seen_raw {
            seen_raw = true;
            continue;
        }
        if let Some(h) = t.strip_prefix(".handler_ip") {
            p.handler = Some(h.trim().parse().map_err(|_| err(format!("bad handler IP `{}`", h.trim())))?);
            continue;
        }
        if let Some(w) = t.strip_prefix(".word") {
            let w = w.trim().trim_start_matches("0x");
            p.code.push(u128::from_str_radix(w, 16).map_err(|_| err(format!("bad word `{w}`")))?);
            continue;
        }
        let l = split_line(t).map_err(err)?;
        p.code.push(parse_inst(&l, true).map_err(err)?.encode());
    }
    Ok(p)
}
