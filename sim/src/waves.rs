//! Timing diagrams of real co-simulation runs (issue 20): a `Dut` that captures its waves keeps,
//! for every `tick`, the inputs applied in that cycle and the outputs seen in it (before the
//! edge: registered outputs from the previous edge, combinational outputs such as `in_ready` from
//! this cycle's inputs). `wavedrom` turns a capture into WaveDrom JSON, one lane per `Sig`, so a
//! diagram in the docs is a picture of a run whose every cycle was checked against the golden
//! model, never a drawing.

use crate::cosim::{read_field, PortDesc};
use serde_json::{json, Value};

/// One captured cycle: the packed input and output words (`cosim::Dut`'s buffers).
#[derive(Clone)]
pub struct Cycle {
    pub inputs: Vec<u32>,
    pub outputs: Vec<u32>,
}

/// How a lane shows its value.
#[derive(Clone)]
pub enum Fmt {
    /// A 1-bit lane drawn as a level.
    Level,
    /// Hexadecimal without prefix.
    Hex,
    /// Decimal.
    Dec,
    /// Binary, `width` digits (masks: bit 0 on the right).
    Bin,
    /// A code (`hdl::<block>::enc`): the name of the value, else its hex.
    Code(&'static hdl::enc::Table),
    /// A set of flag bits (`hdl::<block>::enc`): the names of the bits that are set, "-" for none.
    Flags(&'static hdl::enc::Table),
}

/// A lane of the diagram: a port, or a field of one (`[lsb +: width]`), with a label and a format.
#[derive(Clone)]
pub struct Sig {
    label: String,
    port: &'static str,
    field: Option<(usize, usize)>,
    fmt: Option<Fmt>,
    when: Option<&'static str>,
}

impl Sig {
    /// The whole port, labelled with its name.
    pub fn port(port: &'static str) -> Self {
        Sig { label: port.to_string(), port, field: None, fmt: None, when: None }
    }
    /// `[lsb +: width]` of the port.
    pub fn field(port: &'static str, label: impl Into<String>, lsb: usize, width: usize) -> Self {
        Sig { label: label.into(), port, field: Some((lsb, width)), fmt: None, when: None }
    }
    pub fn label(mut self, l: impl Into<String>) -> Self {
        self.label = l.into();
        self
    }
    pub fn fmt(mut self, f: Fmt) -> Self {
        self.fmt = Some(f);
        self
    }
    /// Draw the value only in cycles where the 1-bit port `qualifier` is 1 (else "x"): data
    /// lanes of a valid/ready stream.
    pub fn when(mut self, qualifier: &'static str) -> Self {
        self.when = Some(qualifier);
        self
    }
}

/// The port lists of the model a capture comes from (`ModelDesc::ports`).
pub struct Ports<'a> {
    pub id: &'a str,
    pub inputs: &'a [PortDesc],
    pub outputs: &'a [PortDesc],
}

/// Value of `port[lsb +: width]` in a captured cycle; inputs and outputs are both searched.
fn value(desc: &Ports, c: &Cycle, port: &str, field: Option<(usize, usize)>) -> (u64, usize) {
    let (words, d) = if let Some(d) = desc.inputs.iter().find(|p| p.name == port) {
        (&c.inputs, d)
    } else if let Some(d) = desc.outputs.iter().find(|p| p.name == port) {
        (&c.outputs, d)
    } else {
        panic!("{}: no port `{port}` (a figure names a port the model does not have)", desc.id)
    };
    let (lsb, width) = field.unwrap_or((0, d.width));
    assert!(lsb + width <= d.width && width <= 64, "{}: `{port}[{lsb} +: {width}]` is outside the {}-bit port", desc.id, d.width);
    (read_field(words, d.offset, lsb, width), width)
}

fn text(fmt: &Fmt, v: u64, width: usize) -> String {
    match fmt {
        Fmt::Level | Fmt::Hex => format!("{v:x}"),
        Fmt::Dec => v.to_string(),
        Fmt::Bin => format!("{v:0width$b}"),
        Fmt::Code(t) => t.codes.iter().find(|c| c.value == v).map(|c| c.name.to_string()).unwrap_or_else(|| format!("{v:x}")),
        Fmt::Flags(t) => {
            let set: Vec<&str> = t.codes.iter().filter(|c| c.value != 0 && v & c.value == c.value).map(|c| c.name).collect();
            if set.is_empty() { "-".to_string() } else { set.join("|") }
        }
    }
}

/// WaveDrom lane for `s` over `cycles`.
fn lane(desc: &Ports, cycles: &[Cycle], s: &Sig) -> Value {
    let mut wave = String::new();
    let mut data: Vec<String> = Vec::new();
    let mut last: Option<String> = None;
    for c in cycles {
        let (v, width) = value(desc, c, s.port, s.field);
        let shown = s.when.is_none_or(|q| value(desc, c, q, None).0 == 1);
        let fmt = s.fmt.clone().unwrap_or(if width == 1 { Fmt::Level } else { Fmt::Hex });
        let sym = if !shown {
            "x".to_string()
        } else if matches!(fmt, Fmt::Level) && width == 1 {
            v.to_string()
        } else {
            format!("={}", text(&fmt, v, width))
        };
        if last.as_ref() == Some(&sym) {
            wave.push('.');
        } else {
            match sym.strip_prefix('=') {
                Some(t) => {
                    wave.push('=');
                    data.push(t.to_string());
                }
                None => wave.push_str(&sym),
            }
            last = Some(sym);
        }
    }
    if data.is_empty() {
        json!({ "name": s.label, "wave": wave })
    } else {
        json!({ "name": s.label, "wave": wave, "data": data })
    }
}

/// WaveDrom source of a capture: a clock lane, then each group of lanes (a group with an empty
/// name is drawn without a bracket), a title and a foot line; `hscale` widens the cycles for
/// long value names.
pub fn wavedrom(desc: &Ports, cycles: &[Cycle], title: &str, foot: &str, hscale: u32, groups: &[(&str, Vec<Sig>)]) -> String {
    let mut signal = vec![json!({ "name": "clk", "wave": format!("p{}", ".".repeat(cycles.len().saturating_sub(1))) })];
    for (name, sigs) in groups {
        let lanes: Vec<Value> = sigs.iter().map(|s| lane(desc, cycles, s)).collect();
        if name.is_empty() {
            signal.extend(lanes);
        } else {
            let mut g = vec![json!(name)];
            g.extend(lanes);
            signal.push(Value::Array(g));
        }
    }
    let v = json!({
        "signal": signal,
        "head": { "text": title, "tick": 0 },
        "foot": { "text": foot },
        "config": { "hscale": hscale },
    });
    serde_json::to_string_pretty(&v).unwrap() + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lanes over a hand-made capture: levels, repeated values as ".", qualified data as "x".
    #[test]
    fn lanes_follow_the_captured_values() {
        static INS: [PortDesc; 1] = [PortDesc { name: "v", width: 1, offset: 0 }];
        static OUTS: [PortDesc; 1] = [PortDesc { name: "d", width: 8, offset: 0 }];
        let desc = Ports { id: "t/m", inputs: &INS, outputs: &OUTS };
        let cyc = |v: u32, d: u32| Cycle { inputs: vec![v], outputs: vec![d] };
        let cycles = [cyc(0, 5), cyc(1, 5), cyc(1, 5), cyc(1, 7), cyc(0, 7)];
        let j: Value = serde_json::from_str(&wavedrom(
            &desc,
            &cycles,
            "t",
            "f",
            1,
            &[("", vec![Sig::port("v"), Sig::port("d").fmt(Fmt::Dec).when("v")])],
        ))
        .unwrap();
        assert_eq!(j["signal"][0]["wave"], "p....");
        assert_eq!(j["signal"][1]["wave"], "01..0");
        assert_eq!(j["signal"][2]["wave"], "x=.=x");
        assert_eq!(j["signal"][2]["data"], json!(["5", "7"]));
    }
}
