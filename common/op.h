/* op.h: the opcode set shared by architectures (what a FuncUnit supports)
 * and data-flow graphs (what a node computes).
 *
 * Operand order (used by the DFG, the mapper's pins and the simulator):
 *   binary ops        operand 0 -> FuncUnit in_a, operand 1 -> in_b
 *   trunc/sext/zext   operand 0
 *   select            operand 0 = condition, 1 = value if true, 2 = if false
 *   icmp              operand 0, 1, compared with the node's predicate
 *   load              operand 0 = byte address            (MEMUnit addr)
 *   store             operand 0 = byte address, 1 = data  (addr, data_in)
 *   gep               operand 0 = base, 1 = byte offset (added)
 *   output            operand 0;  input, const: none
 *   phi               operand 0 = initial value, 1 = value from the latch
 */
#ifndef CG_OP_H
#define CG_OP_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum cg_op {
    CG_OP_NOP,
    CG_OP_INPUT,
    CG_OP_OUTPUT,
    CG_OP_CONST,
    CG_OP_TRUNC,
    CG_OP_SEXT,
    CG_OP_ZEXT,
    CG_OP_PHI,
    CG_OP_SELECT,
    CG_OP_ADD,
    CG_OP_SUB,
    CG_OP_MUL,
    CG_OP_SDIV,
    CG_OP_UDIV,
    CG_OP_SREM,
    CG_OP_UREM,
    CG_OP_AND,
    CG_OP_OR,
    CG_OP_XOR,
    CG_OP_SHL,
    CG_OP_ASHR,
    CG_OP_LSHR,
    CG_OP_ICMP,
    CG_OP_GEP,
    CG_OP_LOAD,
    CG_OP_STORE,
    CG_OP_COUNT
} cg_op;

/* A set of opcodes, bit (1 << op). */
typedef uint64_t cg_opset;
#define CG_OPSET(op) ((cg_opset)1 << (op))

/* The hardware classes of a FuncUnit's ops: the ops of one class share
 * its datapath (an adder computes add, sub, icmp and gep), so a class is
 * what a picture names and a cost counts once. */
typedef enum cg_op_class {
    CG_OPC_ADD,     /* add, sub, icmp, gep */
    CG_OPC_LOGIC,   /* and, or, xor */
    CG_OPC_SHIFT,   /* shl, ashr, lshr */
    CG_OPC_MUL,
    CG_OPC_DIV,     /* sdiv, udiv, srem, urem */
    CG_OPC_SELECT,
    CG_OPC_EXT,     /* trunc, sext, zext */
    CG_OPC_COUNT
} cg_op_class;

typedef enum cg_pred {
    CG_PRED_NONE, /* not an icmp */
    CG_PRED_EQ,
    CG_PRED_NE,
    CG_PRED_SLT,
    CG_PRED_SLE,
    CG_PRED_SGT,
    CG_PRED_SGE,
    CG_PRED_ULT,
    CG_PRED_ULE,
    CG_PRED_UGT,
    CG_PRED_UGE
} cg_pred;

/* Canonical lower-case name: "add", "sdiv", "lshr", ... */
const char *cg_op_name(cg_op op);
/* Parse a name.  Accepts the canonical names and the spellings of CGRA-ME
 * files: "div" = sdiv, "rem" = srem, "shra" = ashr, "shrl" and "shr" = lshr,
 * "cmp" = icmp.  Returns false for an unknown name. */
bool cg_op_parse(const char *name, cg_op *op);
/* Number of operands the op takes (phi: 2, select: 3, input/const: 0). */
int cg_op_arity(cg_op op);
/* true for add, mul, and, or, xor (operands may be swapped). */
bool cg_op_commutative(cg_op op);
/* A comma-free, space-separated list of every canonical name, for messages. */
const char *cg_op_all_names(void);

/* The ops of class c; its short name ("add", "logic", "shift", "mul",
 * "div", "select", "ext"). */
cg_opset cg_op_class_ops(cg_op_class c);
const char *cg_op_class_name(cg_op_class c);

const char *cg_pred_name(cg_pred p);          /* "eq", "slt", ... */
bool cg_pred_parse(const char *name, cg_pred *p);

/* Evaluate a pure op on width-bit operands (values sign- or zero-extended
 * as the op says, result truncated to width bits and returned zero-extended
 * in a uint64_t).  For trunc/sext/zext/icmp, from_width is the
 * operands' width (icmp yields width 1).
 * Returns false on division by zero or an op that is not pure (load, store,
 * input, output, const, phi, nop). */
bool cg_op_eval(cg_op op, cg_pred pred, int width, int from_width,
                const uint64_t *operands, uint64_t *result);

/* Truncate v to width bits (1..64). */
uint64_t cg_trunc(uint64_t v, int width);
/* Sign-extend the low width bits of v to 64 bits. */
int64_t cg_sext(uint64_t v, int width);

#ifdef __cplusplus
}
#endif

#endif
