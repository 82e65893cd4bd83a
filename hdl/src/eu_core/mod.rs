//! The execution unit's instruction set (issue 19, software layer): encodings only, no RTL yet.
//!
//! The EU runs `threads` hardware threads (default 4, interleaved issue) of SIMD width 8: one
//! 256-bit register holds 8 lanes of 32 bits, each thread owns 128 registers of 32 bytes, and a
//! small data memory is reached by LD/ST. Every instruction is 128 bits wide; its fields map
//! straight onto the request ports of the blocks the core is built from:
//!
//! * register operands are region descriptors `Rr.s<VS;W,HS>:t` with the exec size, the fields
//!   of the region address generator's `in_*` ports (reg, sub, vs, width_log2, hs, type,
//!   exec_log2), so an operand fetch is one RAG request;
//! * control-flow instructions carry the branch unit's op code in `op[4:0]` and its signed
//!   `jip`/`uip`, and the predicate (a flag register, or its complement) is the branch unit's
//!   `req_pred`; the branch unit's lane mask is the execution mask of every instruction;
//! * TANH, TANH_PRE and SIGMOID carry the tanh/sigmoid unit's `in_op` and `in_fmt`;
//! * the trap causes are the trap controller's `exc_cause` codes.
//!
//! [`enc`] is the one table of codes and field positions; the assembler and disassembler
//! (`eu-asm`), the ISA-level model (`sim::golden::eu_core`) and docs/isa.md all use it. The
//! block is not yet in `for_each_block!`: there is no `eu_core` RTL, only its ISA.

pub mod enc;
