/* op.c: opcode names, arity and the one definition of what each op computes,
 * shared by the DFG interpreter and the simulator so they cannot disagree. */
#include "op.h"

#include <string.h>

static const char *const op_names[CG_OP_COUNT] = {
    "nop", "input", "output", "const", "trunc", "sext", "zext", "phi",
    "select", "add", "sub", "mul", "sdiv", "udiv", "srem", "urem", "and",
    "or", "xor", "shl", "ashr", "lshr", "icmp", "gep", "load", "store",
};

static const struct {
    const char *alias;
    cg_op op;
} op_aliases[] = {
    {"div", CG_OP_SDIV}, {"rem", CG_OP_SREM}, {"shra", CG_OP_ASHR},
    {"shrl", CG_OP_LSHR}, {"shr", CG_OP_LSHR}, {"cmp", CG_OP_ICMP},
};

static const char *const pred_names[] = {
    "none", "eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge",
};

const char *cg_op_name(cg_op op)
{
    return (unsigned)op < CG_OP_COUNT ? op_names[op] : "?";
}

bool cg_op_parse(const char *name, cg_op *op)
{
    for (int i = 0; i < CG_OP_COUNT; i++)
        if (strcmp(name, op_names[i]) == 0) {
            *op = (cg_op)i;
            return true;
        }
    for (size_t i = 0; i < sizeof op_aliases / sizeof op_aliases[0]; i++)
        if (strcmp(name, op_aliases[i].alias) == 0) {
            *op = op_aliases[i].op;
            return true;
        }
    return false;
}

int cg_op_arity(cg_op op)
{
    switch (op) {
    case CG_OP_NOP: case CG_OP_INPUT: case CG_OP_CONST:
        return 0;
    case CG_OP_OUTPUT: case CG_OP_TRUNC: case CG_OP_SEXT: case CG_OP_ZEXT:
    case CG_OP_LOAD:
        return 1;
    case CG_OP_SELECT:
        return 3;
    default:
        return 2;
    }
}

bool cg_op_commutative(cg_op op)
{
    return op == CG_OP_ADD || op == CG_OP_MUL || op == CG_OP_AND ||
           op == CG_OP_OR || op == CG_OP_XOR;
}

const char *cg_op_all_names(void)
{
    return "nop input output const trunc sext zext phi select add sub mul "
           "sdiv udiv srem urem and or xor shl ashr lshr icmp gep load store";
}

const char *cg_pred_name(cg_pred p)
{
    return (unsigned)p <= CG_PRED_UGE ? pred_names[p] : "?";
}

bool cg_pred_parse(const char *name, cg_pred *p)
{
    for (int i = CG_PRED_EQ; i <= CG_PRED_UGE; i++)
        if (strcmp(name, pred_names[i]) == 0) {
            *p = (cg_pred)i;
            return true;
        }
    return false;
}

uint64_t cg_trunc(uint64_t v, int width)
{
    return width >= 64 ? v : v & (((uint64_t)1 << width) - 1);
}

int64_t cg_sext(uint64_t v, int width)
{
    if (width >= 64)
        return (int64_t)v;
    uint64_t m = (uint64_t)1 << (width - 1);
    v = cg_trunc(v, width);
    return (int64_t)((v ^ m) - m);
}

static bool compare(cg_pred p, uint64_t a, uint64_t b, int w)
{
    int64_t sa = cg_sext(a, w), sb = cg_sext(b, w);
    switch (p) {
    case CG_PRED_EQ: return a == b;
    case CG_PRED_NE: return a != b;
    case CG_PRED_SLT: return sa < sb;
    case CG_PRED_SLE: return sa <= sb;
    case CG_PRED_SGT: return sa > sb;
    case CG_PRED_SGE: return sa >= sb;
    case CG_PRED_ULT: return a < b;
    case CG_PRED_ULE: return a <= b;
    case CG_PRED_UGT: return a > b;
    case CG_PRED_UGE: return a >= b;
    default: return false;
    }
}

/* Division semantics follow LLVM: signed division truncates toward zero;
 * INT_MIN / -1 wraps (LLVM calls it poison, C calls it undefined; we pick
 * the wrapped value so the machine model is total). */
static bool divide(cg_op op, uint64_t a, uint64_t b, int w, uint64_t *r)
{
    if (b == 0)
        return false;
    int64_t sa = cg_sext(a, w), sb = cg_sext(b, w);
    bool ovf = sb == -1 && sa == cg_sext((uint64_t)1 << (w - 1), w);
    switch (op) {
    case CG_OP_SDIV: *r = ovf ? a : (uint64_t)(sa / sb); break;
    case CG_OP_SREM: *r = ovf ? 0 : (uint64_t)(sa % sb); break;
    case CG_OP_UDIV: *r = a / b; break;
    default: *r = a % b; break;
    }
    return true;
}

bool cg_op_eval(cg_op op, cg_pred pred, int width, int from_width,
                const uint64_t *x, uint64_t *result)
{
    int w = width;
    uint64_t a = 0, b = 0, r;
    int arity = cg_op_arity(op);
    if (arity >= 1)
        a = cg_trunc(x[0], op == CG_OP_TRUNC || op == CG_OP_SEXT ||
                                   op == CG_OP_ZEXT ? from_width : w);
    if (arity >= 2)
        b = cg_trunc(x[1], op == CG_OP_ICMP ? from_width : w);
    switch (op) {
    case CG_OP_ADD: case CG_OP_GEP: r = a + b; break;
    case CG_OP_SUB: r = a - b; break;
    case CG_OP_MUL: r = a * b; break;
    case CG_OP_AND: r = a & b; break;
    case CG_OP_OR: r = a | b; break;
    case CG_OP_XOR: r = a ^ b; break;
    case CG_OP_SHL: r = b >= (uint64_t)w ? 0 : a << b; break;
    case CG_OP_LSHR: r = b >= (uint64_t)w ? 0 : a >> b; break;
    case CG_OP_ASHR: {
        int64_t s = cg_sext(a, w);
        r = (uint64_t)(b >= (uint64_t)w ? (s < 0 ? -1 : 0) : s >> b);
        break;
    }
    case CG_OP_SDIV: case CG_OP_UDIV: case CG_OP_SREM: case CG_OP_UREM:
        if (!divide(op, a, b, w, &r))
            return false;
        break;
    case CG_OP_ICMP:
        a = cg_trunc(x[0], from_width);
        r = compare(pred, a, b, from_width);
        break;
    case CG_OP_SELECT: r = (x[0] & 1) ? x[1] : x[2]; break;
    case CG_OP_TRUNC: case CG_OP_ZEXT: r = a; break;
    case CG_OP_SEXT: r = (uint64_t)cg_sext(a, from_width); break;
    default:
        return false;
    }
    *result = cg_trunc(r, w);
    return true;
}

cg_opset cg_op_class_ops(cg_op_class c)
{
    static const cg_opset ops[CG_OPC_COUNT] = {
        [CG_OPC_ADD] = CG_OPSET(CG_OP_ADD) | CG_OPSET(CG_OP_SUB) |
                       CG_OPSET(CG_OP_ICMP) | CG_OPSET(CG_OP_GEP),
        [CG_OPC_LOGIC] = CG_OPSET(CG_OP_AND) | CG_OPSET(CG_OP_OR) |
                         CG_OPSET(CG_OP_XOR),
        [CG_OPC_SHIFT] = CG_OPSET(CG_OP_SHL) | CG_OPSET(CG_OP_ASHR) |
                         CG_OPSET(CG_OP_LSHR),
        [CG_OPC_MUL] = CG_OPSET(CG_OP_MUL),
        [CG_OPC_DIV] = CG_OPSET(CG_OP_SDIV) | CG_OPSET(CG_OP_UDIV) |
                       CG_OPSET(CG_OP_SREM) | CG_OPSET(CG_OP_UREM),
        [CG_OPC_SELECT] = CG_OPSET(CG_OP_SELECT),
        [CG_OPC_EXT] = CG_OPSET(CG_OP_TRUNC) | CG_OPSET(CG_OP_SEXT) |
                       CG_OPSET(CG_OP_ZEXT),
    };
    return (unsigned)c < CG_OPC_COUNT ? ops[c] : 0;
}

const char *cg_op_class_name(cg_op_class c)
{
    static const char *const names[CG_OPC_COUNT] = {
        "add", "logic", "shift", "mul", "div", "select", "ext",
    };
    return (unsigned)c < CG_OPC_COUNT ? names[c] : "?";
}
